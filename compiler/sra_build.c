/* sra_build.c: checked pattern body to epsilon-SRA by the SRA paper's
 * Thompson-style construction; '&' by product, '~' by subset construction. */
#include "sra_build.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Most distinct conditions one complement state may test: 2^12 minterms,
 * one DFA edge each. */
enum { NOT_MAX_CONDS = 12 };

long sra_trans_budget(int max_states) { return 8L * (max_states > 0 ? max_states : 1); }
long sra_lit_budget(int max_states) { return 32L * (max_states > 0 ? max_states : 1); }

void sra_window_text(const AstPattern *p, char *buf, size_t size)
{
    const AstWindow *w = &p->hdr.window;
    if (w->kind == WIN_EVENTS)
        snprintf(buf, size, "within %" PRId64 " events", w->value);
    else if (w->kind == WIN_TIME)
        snprintf(buf, size, "within %s %s", w->amount.text ? w->amount.text : "?",
                 w->unit_name ? w->unit_name : "");
    else
        snprintf(buf, size, "without a window");
}

/* A piece of automaton under construction: paths from in to out spell
 * the piece's language. Edges enter a piece only at in and leave only
 * from out, which keeps the composition exact. */
typedef struct Frag {
    int in, out;
} Frag;

typedef struct Builder {
    Arena            *arena;
    Diag             *diag;
    const AstPattern *p;
    int               max_states;
    long              max_trans, max_lits;
    long              nstates, ntrans, nlits;  /* created so far, temporaries included */
    long              nmembers;                /* NFA states in complement subsets */
    bool              failed;                  /* an error was reported: unwind */
} Builder;

static void fail_budget(Builder *b, const char *what, long limit)
{
    if (b->failed)
        return;
    b->failed = true;
    char win[96];
    sra_window_text(b->p, win, sizeof win);
    diag_error(b->diag, b->p->loc,
               "the automaton of pattern '%s' (%s) is too large: more than %ld %s "
               "(budget from --max-states %d); simplify the pattern or raise --max-states",
               b->p->name, win, limit, what, b->max_states);
}

static int b_state(Builder *b, Sra *s)
{
    if (++b->nstates > b->max_states)
        fail_budget(b, "states", b->max_states);
    return sra_add_state(s, b->arena);
}

/* Counts a transition with nlits new literals; false once over budget. */
static bool b_count(Builder *b, long ntrans, long nlits)
{
    b->ntrans += ntrans;
    b->nlits += nlits;
    if (b->ntrans > b->max_trans)
        fail_budget(b, "transitions", b->max_trans);
    else if (b->nlits > b->max_lits)
        fail_budget(b, "guard literals", b->max_lits);
    return !b->failed;
}

static void b_eps(Builder *b, Sra *s, int from, int to)
{
    b_count(b, 1, 0);
    sra_add_eps(s, b->arena, from, to);
}

static Frag build(Builder *b, Sra *s, const AstRegex *r);

/* ---- single events and regular operators ---------------------------------------------------- */

static Frag build_atom(Builder *b, Sra *s, const AstRegex *r)
{
    Frag f = {b_state(b, s), b_state(b, s)};
    b_count(b, 1, r->cond ? 1 : 0);
    SraTrans *t = sra_add_trans(s, b->arena, f.in, f.out);
    if (r->cond)
        sra_trans_add_lit(t, b->arena, (SraLit){r->cond, false, NULL});
    if (r->reg >= 0)
        sra_trans_add_write(t, b->arena, r->reg);
    t->position = r->position;
    return f;
}

static Frag build_seq(Builder *b, Sra *s, const AstRegex *r)
{
    Frag f = build(b, s, r->kids[0]);
    for (int i = 1; i < r->nkids && !b->failed; i++) {
        Frag k = build(b, s, r->kids[i]);
        b_eps(b, s, f.out, k.in);
        f.out = k.out;
    }
    return f;
}

static Frag build_alt(Builder *b, Sra *s, const AstRegex *r)
{
    Frag f = {b_state(b, s), b_state(b, s)};
    for (int i = 0; i < r->nkids && !b->failed; i++) {
        Frag k = build(b, s, r->kids[i]);
        b_eps(b, s, f.in, k.in);
        b_eps(b, s, k.out, f.out);
    }
    return f;
}

/* R* (loop and skip), R+ (loop), R? (skip) around a fresh copy of R. */
static Frag build_loop(Builder *b, Sra *s, const AstRegex *r, bool loop, bool skip)
{
    Frag f = {b_state(b, s), b_state(b, s)};
    Frag k = build(b, s, r);
    b_eps(b, s, f.in, k.in);
    b_eps(b, s, k.out, f.out);
    if (loop)
        b_eps(b, s, k.out, k.in);
    if (skip)
        b_eps(b, s, f.in, f.out);
    return f;
}

/* R{n,m} = R^n (R (R ...)?)? with m - n optional copies; R{n,} = R^n R*. */
static Frag build_repeat(Builder *b, Sra *s, const AstRegex *r)
{
    const AstRegex *kid = r->kids[0];
    int64_t min = r->min, max = r->max;
    Frag f;
    f.in = f.out = b_state(b, s);
    for (int64_t i = 0; i < min && !b->failed; i++) {
        Frag k = build(b, s, kid);
        b_eps(b, s, f.out, k.in);
        f.out = k.out;
    }
    if (max < 0) {
        Frag k = build_loop(b, s, kid, true, true);
        b_eps(b, s, f.out, k.in);
        f.out = k.out;
        return f;
    }
    int end = b_state(b, s);
    for (int64_t i = min; i < max && !b->failed; i++) {
        Frag k = build(b, s, kid);
        b_eps(b, s, f.out, end);
        b_eps(b, s, f.out, k.in);
        f.out = k.out;
    }
    b_eps(b, s, f.out, end);
    f.out = end;
    return f;
}

/* ---- operands of '&' and '~': separate epsilon-free automata -------------------------------- */

/* Builds r on its own and removes its epsilons; NULL on failure. */
static Sra *build_operand(Builder *b, const AstRegex *r)
{
    Sra *t = sra_new(b->arena, b->p, b->p->nregs);
    Frag f = build(b, t, r);
    if (b->failed)
        return NULL;
    t->start = f.in;
    t->final[f.out] = true;
    Sra *e = sra_eps_free_max(t, b->arena, b->max_trans - b->ntrans);
    if (!e) {
        fail_budget(b, "transitions", b->max_trans);
        return NULL;
    }
    b_count(b, e->ntrans, 0);
    return b->failed ? NULL : e;
}

/* Copies the epsilon-free a into s as a fragment: in = a's start, out =
 * a new state reached by epsilons from a's finals. Guards are shared. */
static Frag embed(Builder *b, Sra *s, const Sra *a)
{
    int *map = arena_alloc(b->arena, (size_t)a->nstates * sizeof *map);
    for (int i = 0; i < a->nstates; i++)
        map[i] = b_state(b, s);
    Frag f = {map[a->start], b_state(b, s)};
    if (b->failed || !b_count(b, a->ntrans, 0))
        return f;
    for (int i = 0; i < a->ntrans; i++) {
        const SraTrans *src = &a->trans[i];
        SraTrans *t = sra_add_trans(s, b->arena, map[src->from], map[src->to]);
        t->eps = src->eps;
        t->lits = src->lits;
        t->nlits = src->nlits;
        t->writes = src->writes;
        t->nwrites = src->nwrites;
        t->position = src->position;
    }
    for (int i = 0; i < a->nstates; i++)
        if (a->final[i])
            b_eps(b, s, map[i], f.out);
    return f;
}

/* Outgoing transitions by state (compressed rows over sra->trans). */
typedef struct Rows {
    int *first;   /* [nstates + 1] */
    int *idx;     /* transition indices, grouped by source */
} Rows;

static Rows rows_of(Arena *arena, const Sra *a)
{
    Rows r;
    r.first = arena_alloc(arena, ((size_t)a->nstates + 1) * sizeof *r.first);
    r.idx = arena_alloc(arena, ((size_t)a->ntrans + 1) * sizeof *r.idx);
    for (int i = 0; i < a->ntrans; i++)
        r.first[a->trans[i].from + 1]++;
    for (int s = 0; s < a->nstates; s++)
        r.first[s + 1] += r.first[s];
    int *fill = arena_alloc(arena, ((size_t)a->nstates + 1) * sizeof *fill);
    for (int i = 0; i < a->ntrans; i++) {
        int from = a->trans[i].from;
        r.idx[r.first[from] + fill[from]++] = i;
    }
    return r;
}

/* ---- state sets keyed by small int tuples (pairs, subsets) ------------------------------------ */

typedef struct KeyMap {
    int  **keys;      /* by id: key[0] = length, then the ints */
    int    n, cap;
    int   *slots;     /* id + 1, 0 empty */
    size_t nslots;
} KeyMap;

static uint64_t key_hash(const int *k)
{
    uint64_t h = 1469598103934665603u;
    for (int i = 0; i <= k[0]; i++)
        h = (h ^ (uint32_t)k[i]) * 1099511628211u;
    return h ^ (h >> 29);
}

static bool key_eq(const int *a, const int *b) { return a[0] == b[0] && memcmp(a + 1, b + 1, (size_t)a[0] * sizeof *a) == 0; }

static void keymap_grow(KeyMap *m, Arena *arena)
{
    size_t n = m->nslots ? m->nslots * 2 : 64;
    m->slots = arena_alloc(arena, n * sizeof *m->slots);
    m->nslots = n;
    for (int id = 0; id < m->n; id++) {
        size_t i = key_hash(m->keys[id]) & (n - 1);
        while (m->slots[i])
            i = (i + 1) & (n - 1);
        m->slots[i] = id + 1;
    }
}

/* The id of key (len ints), adding a copy of it if new (*added set). */
static int keymap_get(KeyMap *m, Arena *arena, const int *key, bool *added)
{
    if ((size_t)m->n * 2 >= m->nslots)
        keymap_grow(m, arena);
    size_t i = key_hash(key) & (m->nslots - 1);
    while (m->slots[i]) {
        if (key_eq(m->keys[m->slots[i] - 1], key)) {
            *added = false;
            return m->slots[i] - 1;
        }
        i = (i + 1) & (m->nslots - 1);
    }
    int *copy = arena_alloc(arena, ((size_t)key[0] + 1) * sizeof *copy);
    memcpy(copy, key, ((size_t)key[0] + 1) * sizeof *copy);
    *(int **)arena_push(arena, &m->keys, &m->n, &m->cap, sizeof *m->keys) = copy;
    m->slots[i] = m->n;
    *added = true;
    return m->n - 1;
}

/* ---- intersection: product of epsilon-free operands -------------------------------------------- */

/* Guards concatenated, writes joined (the checker keeps the operands'
 * registers apart), final when both are final. Only reachable pairs. */
static Sra *product(Builder *b, const Sra *x, const Sra *y)
{
    Sra *s = sra_new(b->arena, b->p, b->p->nregs);
    Rows rx = rows_of(b->arena, x), ry = rows_of(b->arena, y);
    KeyMap m = {0};
    bool added;
    int key[3] = {2, x->start, y->start};
    keymap_get(&m, b->arena, key, &added);
    s->start = b_state(b, s);
    for (int id = 0; id < m.n && !b->failed; id++) {
        int p = m.keys[id][1], q = m.keys[id][2];
        s->final[id] = x->final[p] && y->final[q];
        for (int i = rx.first[p]; i < rx.first[p + 1] && !b->failed; i++) {
            const SraTrans *t1 = &x->trans[rx.idx[i]];
            for (int j = ry.first[q]; j < ry.first[q + 1] && !b->failed; j++) {
                const SraTrans *t2 = &y->trans[ry.idx[j]];
                key[1] = t1->to;
                key[2] = t2->to;
                int to = keymap_get(&m, b->arena, key, &added);
                if (added)
                    b_state(b, s);
                if (!b_count(b, 1, t1->nlits + t2->nlits))
                    break;
                SraTrans *t = sra_add_trans(s, b->arena, id, to);
                for (int k = 0; k < t1->nlits; k++)
                    sra_trans_add_lit(t, b->arena, t1->lits[k]);
                for (int k = 0; k < t2->nlits; k++)
                    sra_trans_add_lit(t, b->arena, t2->lits[k]);
                for (int k = 0; k < t1->nwrites; k++)
                    sra_trans_add_write(t, b->arena, t1->writes[k]);
                for (int k = 0; k < t2->nwrites; k++)
                    sra_trans_add_write(t, b->arena, t2->writes[k]);
                t->position = t1->position ? t1->position : t2->position;
            }
        }
    }
    return b->failed ? NULL : s;
}

static Frag build_and(Builder *b, Sra *s, const AstRegex *r)
{
    Sra *acc = build_operand(b, r->kids[0]);
    for (int i = 1; i < r->nkids && acc; i++) {
        Sra *next = build_operand(b, r->kids[i]);
        acc = next ? product(b, acc, next) : NULL;
    }
    if (!acc)
        return (Frag){0, 0};
    return embed(b, s, acc);
}

/* ---- complement: subset construction over condition minterms ---------------------------------- */

/* A transition's guard as bits over the subset's conditions: it holds
 * under minterm m iff (m & care) == val; never if it has c and !c. */
typedef struct Mask {
    unsigned care, val;
    bool     never;
} Mask;

typedef struct Subsets {
    const Sra *nfa;
    Rows       rows;
    KeyMap     map;       /* key: [len, initial, members...] */
    int       *mark;      /* by NFA state: stamp of the last target set */
    int        stamp;
    int       *members;   /* scratch for one target set */
    Mask      *masks;     /* scratch, by outgoing transition */
    int        nmasks, masks_cap;
} Subsets;

/* The distinct conditions (cond, regmap) tested by the transitions of a
 * subset, at most NOT_MAX_CONDS; -1 if there are more. */
static int subset_conds(Subsets *ss, const int *key, SraLit *conds)
{
    int k = 0;
    for (int mi = 2; mi <= key[0]; mi++) {
        int q = key[mi];
        for (int i = ss->rows.first[q]; i < ss->rows.first[q + 1]; i++) {
            const SraTrans *t = &ss->nfa->trans[ss->rows.idx[i]];
            for (int l = 0; l < t->nlits; l++) {
                int c = 0;
                while (c < k && !(conds[c].cond == t->lits[l].cond && conds[c].regmap == t->lits[l].regmap))
                    c++;
                if (c < k)
                    continue;
                if (k == NOT_MAX_CONDS)
                    return -1;
                conds[k++] = (SraLit){t->lits[l].cond, false, t->lits[l].regmap};
            }
        }
    }
    return k;
}

static Mask lit_mask(const SraTrans *t, const SraLit *conds, int k)
{
    Mask m = {0, 0, false};
    for (int l = 0; l < t->nlits; l++) {
        int c = 0;
        while (c < k && !(conds[c].cond == t->lits[l].cond && conds[c].regmap == t->lits[l].regmap))
            c++;
        unsigned bit = 1u << c, want = t->lits[l].neg ? 0 : bit;
        if ((m.care & bit) && (m.val & bit) != want)
            m.never = true;
        m.care |= bit;
        m.val |= want;
    }
    return m;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void fail_conds(Builder *b, const AstRegex *r)
{
    b->failed = true;
    char win[96];
    sra_window_text(b->p, win, sizeof win);
    diag_error(b->diag, r->loc,
               "the complement in pattern '%s' (%s) is too large: a state of its automaton tests "
               "more than %d distinct conditions (2^%d cases)",
               b->p->name, win, NOT_MAX_CONDS, NOT_MAX_CONDS);
}

/* Adds the DFA edges of subset id: one per minterm of its conditions,
 * to the subset of NFA targets whose guards hold under it. */
static void subset_edges(Builder *b, Subsets *ss, Sra *d, int id, const AstRegex *r)
{
    const int *key = ss->map.keys[id];
    SraLit conds[NOT_MAX_CONDS];
    int k = subset_conds(ss, key, conds);
    if (k < 0) {
        fail_conds(b, r);
        return;
    }
    ss->nmasks = 0;
    for (int mi = 2; mi <= key[0]; mi++)
        for (int i = ss->rows.first[key[mi]]; i < ss->rows.first[key[mi] + 1]; i++) {
            Mask *m = arena_push(b->arena, &ss->masks, &ss->nmasks, &ss->masks_cap, sizeof *m);
            *m = lit_mask(&ss->nfa->trans[ss->rows.idx[i]], conds, k);
        }
    for (unsigned mt = 0; mt < 1u << k && !b->failed; mt++) {
        int n = 0, mk = 0;
        ss->stamp++;
        for (int mi = 2; mi <= key[0]; mi++)
            for (int i = ss->rows.first[key[mi]]; i < ss->rows.first[key[mi] + 1]; i++) {
                const Mask *m = &ss->masks[mk++];
                int to = ss->nfa->trans[ss->rows.idx[i]].to;
                if (!m->never && (mt & m->care) == m->val && ss->mark[to] != ss->stamp) {
                    ss->mark[to] = ss->stamp;
                    ss->members[2 + n++] = to;
                }
            }
        qsort(ss->members + 2, (size_t)n, sizeof *ss->members, cmp_int);
        ss->members[0] = n + 1;
        ss->members[1] = 0;
        bool added;
        int to = keymap_get(&ss->map, b->arena, ss->members, &added);
        if (added) {
            b_state(b, d);
            /* subsets are stored: bound their total size like literals */
            if ((b->nmembers += n) > b->max_lits)
                fail_budget(b, "NFA states in complement subsets", b->max_lits);
        }
        if (!b_count(b, 1, k))
            return;
        SraTrans *t = sra_add_trans(d, b->arena, id, to);
        for (int c = 0; c < k; c++)
            sra_trans_add_lit(t, b->arena, (SraLit){conds[c].cond, !(mt >> c & 1), conds[c].regmap});
    }
}

/* ~R: R's epsilon-free automaton determinized over minterms, completed by
 * the empty subset (a dead state whose one minterm is the empty guard: a
 * true self-loop), finals flipped. The initial subset is kept apart from
 * the same subset reached later, so it alone is not final: ~R holds only
 * non-empty strings (the count window bounds their length). */
static Sra *complement(Builder *b, const Sra *nfa, const AstRegex *r)
{
    Subsets ss = {0};
    ss.nfa = nfa;
    ss.rows = rows_of(b->arena, nfa);
    ss.mark = arena_alloc(b->arena, ((size_t)nfa->nstates + 1) * sizeof *ss.mark);
    ss.members = arena_alloc(b->arena, ((size_t)nfa->nstates + 2) * sizeof *ss.members);
    Sra *d = sra_new(b->arena, b->p, b->p->nregs);
    int init[3] = {2, 1, nfa->start};
    bool added;
    keymap_get(&ss.map, b->arena, init, &added);
    d->start = b_state(b, d);
    for (int id = 0; id < ss.map.n && !b->failed; id++) {
        const int *key = ss.map.keys[id];
        bool has_final = false;
        for (int mi = 2; mi <= key[0]; mi++)
            has_final |= nfa->final[key[mi]];
        d->final[id] = !key[1] && !has_final;
        subset_edges(b, &ss, d, id, r);
    }
    d->deterministic = true;
    return b->failed ? NULL : d;
}

static Frag build_not(Builder *b, Sra *s, const AstRegex *r)
{
    Sra *nfa = build_operand(b, r->kids[0]);
    Sra *d = nfa ? complement(b, nfa, r) : NULL;
    if (!d)
        return (Frag){0, 0};
    return embed(b, s, d);
}

/* ---- the dispatcher and policies ---------------------------------------------------------- */

/* Recursion follows the regex tree, whose depth the parser caps. */
static Frag build(Builder *b, Sra *s, const AstRegex *r)
{
    if (b->failed)
        return (Frag){0, 0};
    switch (r->kind) {
    case RX_ATOM: return build_atom(b, s, r);
    case RX_SEQ: return build_seq(b, s, r);
    case RX_ALT: return build_alt(b, s, r);
    case RX_AND: return build_and(b, s, r);
    case RX_NOT: return build_not(b, s, r);
    case RX_STAR: return build_loop(b, s, r->kids[0], true, true);
    case RX_PLUS: return build_loop(b, s, r->kids[0], true, false);
    case RX_OPT: return build_loop(b, s, r->kids[0], false, true);
    case RX_REPEAT: return build_repeat(b, s, r);
    }
    return (Frag){0, 0};
}

/* A one-state skip loop for the policies: `_*` (stam, lit NULL) or
 * `[!A]*` (stnm); it reads the registers so far and writes none. */
static Frag skip_loop(Builder *b, Sra *s, const AstExpr *neg_cond)
{
    int q = b_state(b, s);
    b_count(b, 1, neg_cond ? 1 : 0);
    SraTrans *t = sra_add_trans(s, b->arena, q, q);
    if (neg_cond)
        sra_trans_add_lit(t, b->arena, (SraLit){neg_cond, true, NULL});
    return (Frag){q, q};
}

/* docs/language.md 3.3 as rewrites of the plain sequence A_1 .. A_m:
 * stam = A_1 (_* A_2) .. (_* A_m); stnm = A_1 ([!A_2]* A_2) .. , the skip
 * taking only events A_{r+1} rejects, so the chain takes the first match
 * (no skip before an `_`, which rejects nothing). */
static Frag build_policy(Builder *b, Sra *s, const AstPattern *p)
{
    int n;
    AstRegex *const *items = ast_seq_items(&p->body, &n);
    Frag f = build(b, s, items[0]);
    for (int i = 1; i < n && !b->failed; i++) {
        const AstRegex *a = items[i];
        if (p->hdr.policy == POLICY_STAM || (a->kind == RX_ATOM && a->cond)) {
            Frag skip = skip_loop(b, s, p->hdr.policy == POLICY_STAM ? NULL : a->cond);
            b_eps(b, s, f.out, skip.in);
            f.out = skip.out;
        }
        Frag k = build(b, s, a);
        b_eps(b, s, f.out, k.in);
        f.out = k.out;
    }
    return f;
}

Sra *sra_from_pattern(const AstPattern *p, Arena *arena, Diag *diag, int max_states)
{
    if (!p->body)
        return NULL;
    Builder b = {0};
    b.arena = arena;
    b.diag = diag;
    b.p = p;
    b.max_states = max_states > 0 ? max_states : 1;
    b.max_trans = sra_trans_budget(max_states);
    b.max_lits = sra_lit_budget(max_states);
    Sra *s = sra_new(arena, p, p->nregs);
    Frag f = p->hdr.policy == POLICY_STRICT ? build(&b, s, p->body) : build_policy(&b, s, p);
    if (b.failed)
        return NULL;
    s->start = f.in;
    s->final[f.out] = true;
    return s;
}

Sra *sra_nfa_from_pattern(const AstPattern *p, Arena *arena, Diag *diag, int max_states)
{
    Sra *s = sra_from_pattern(p, arena, diag, max_states);
    if (!s)
        return NULL;
    long max = sra_trans_budget(max_states);
    Sra *e = sra_eps_free_max(s, arena, max);
    if (!e) {
        char win[96];
        sra_window_text(p, win, sizeof win);
        diag_error(diag, p->loc,
                   "the epsilon-free automaton of pattern '%s' (%s) is too large: more than %ld "
                   "transitions (budget from --max-states %d); simplify the pattern or raise --max-states",
                   p->name, win, max, max_states);
    }
    return e;
}
