/* unroll.c: epsilon-free SRA + count window w -> loop-free SRA whose states
 * and registers are clones along walks of at most w events (SRA paper,
 * "windowed SRA"), built incrementally from the start state. */
#include "unroll.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "sra_build.h"

/* The paper unrolls by enumerating walks, which is exponential in w; here
 * a state of the result is the tuple (q, d, last[0..R)) -- NFA state,
 * depth, and for each pattern register the depth of the event that last
 * wrote it (0: never) -- and equal tuples are one state. Two walks that
 * reach q at depth d with the same register history accept the same
 * continuations, so merging them loses nothing and keeps the result a DAG
 * whose size is bounded by what the window can actually reach. */

/* One transition of the result before dead states are trimmed: the NFA
 * transition it clones, between two tuples (by id). */
typedef struct UTrans {
    int             from, to;
    const SraTrans *src;
} UTrans;

/* Pattern registers one literal reads (distinct, through its regmap). */
typedef struct LitReads {
    int *regs;
    int  n;
} LitReads;

typedef struct Unroller {
    const Sra *nfa;
    int        w, R, K;      /* window, NFA registers, tuple length 2 + R */
    Arena      scratch;      /* everything below; freed when done */
    int       *dist;         /* [NFA state] fewest events to a final, INT_MAX */
    bool      *live;         /* [NFA state * R] may be read before rewritten */
    int       *first, *adj;  /* NFA transitions of q: adj[first[q]..first[q+1]) */
    LitReads **reads;        /* [NFA trans][lit] */
    int       *keys;         /* tuple of state s: keys[s*K .. s*K+K) */
    int        nstates, keys_cap;
    int       *table;        /* open addressing: state id + 1, 0 empty */
    int        table_cap;    /* a power of two, at least twice nstates */
    UTrans    *trans;
    int        ntrans, trans_cap;
    int        max_states;
    long       max_trans;    /* the budget bounds memory, not only states */
    bool       over;         /* the budget was exceeded ... */
    int        reached;      /* ... when the result had this many states */
} Unroller;

/* ---- analyses of the NFA ------------------------------------------------------ */

/* Registers an expression reads, pattern numbering (AstExpr.reg). */
static void collect_reads(const AstExpr *e, bool *seen)
{
    if (!e)
        return;
    if (e->kind == EX_REGATTR && e->reg >= 0)
        seen[e->reg] = true;
    collect_reads(e->lhs, seen);
    collect_reads(e->rhs, seen);
    for (int i = 0; i < e->nargs; i++)
        collect_reads(e->args[i], seen);
}

/* What each literal reads, mapped to NFA registers: computed once, since
 * every tuple that clones a transition asks again. */
static void compute_reads(Unroller *u)
{
    const Sra *nfa = u->nfa;
    int npat = nfa->pattern ? nfa->pattern->nregs : u->R;
    bool *seen = arena_alloc(&u->scratch, (size_t)(npat + 1) * sizeof *seen);
    u->reads = arena_alloc(&u->scratch, (size_t)(nfa->ntrans + 1) * sizeof *u->reads);
    for (int t = 0; t < nfa->ntrans; t++) {
        const SraTrans *tr = &nfa->trans[t];
        u->reads[t] = arena_alloc(&u->scratch, (size_t)(tr->nlits + 1) * sizeof **u->reads);
        for (int i = 0; i < tr->nlits; i++) {
            LitReads *lr = &u->reads[t][i];
            memset(seen, 0, (size_t)(npat + 1) * sizeof *seen);
            collect_reads(tr->lits[i].cond, seen);
            lr->regs = arena_alloc(&u->scratch, (size_t)(npat + 1) * sizeof *lr->regs);
            for (int r = 0; r < npat; r++)
                if (seen[r])
                    lr->regs[lr->n++] = tr->lits[i].regmap ? tr->lits[i].regmap[r] : r;
        }
    }
}

/* Transitions grouped by source state (counting sort, stable). */
static void index_transitions(Unroller *u)
{
    const Sra *nfa = u->nfa;
    int n = nfa->nstates, m = nfa->ntrans;
    u->first = arena_alloc(&u->scratch, (size_t)(n + 2) * sizeof *u->first);
    u->adj = arena_alloc(&u->scratch, (size_t)(m + 1) * sizeof *u->adj);
    for (int t = 0; t < m; t++)
        u->first[nfa->trans[t].from + 2]++;
    for (int q = 0; q < n; q++)
        u->first[q + 2] += u->first[q + 1];
    for (int t = 0; t < m; t++)
        u->adj[u->first[nfa->trans[t].from + 1]++] = t;
}

/* dist[q]: fewest events from q to a final state (backward BFS; every
 * transition consumes one event). A tuple at depth d is worth building
 * only if d + dist[q] <= w: this is the pruning that keeps the
 * construction from exploring walks the window has already ruled out. */
static void compute_dist(Unroller *u)
{
    const Sra *nfa = u->nfa;
    int n = nfa->nstates;
    u->dist = arena_alloc(&u->scratch, (size_t)(n + 1) * sizeof *u->dist);
    int *queue = arena_alloc(&u->scratch, (size_t)(n + 1) * sizeof *queue);
    int head = 0, tail = 0;
    for (int q = 0; q < n; q++) {
        u->dist[q] = nfa->final[q] ? 0 : INT_MAX;
        if (nfa->final[q])
            queue[tail++] = q;
    }
    /* Few states and transitions: scanning all transitions per dequeued
     * state is simpler than a reverse index and cheap enough. */
    while (head < tail) {
        int q = queue[head++];
        for (int t = 0; t < nfa->ntrans; t++) {
            const SraTrans *tr = &nfa->trans[t];
            if (tr->to == q && u->dist[tr->from] == INT_MAX) {
                u->dist[tr->from] = u->dist[q] + 1;
                queue[tail++] = tr->from;
            }
        }
    }
}

/* live[q][r]: some walk from q reads r before writing it. Where r is not
 * live its write depth cannot matter, so tuples forget it: this merges
 * walks that differ only in history nobody will look at again. */
static void compute_live(Unroller *u)
{
    const Sra *nfa = u->nfa;
    int R = u->R;
    u->live = arena_alloc(&u->scratch, ((size_t)nfa->nstates * (size_t)R + 1) * sizeof *u->live);
    for (bool changed = true; changed;) {
        changed = false;
        for (int t = 0; t < nfa->ntrans; t++) {
            const SraTrans *tr = &nfa->trans[t];
            bool *from = u->live + (size_t)tr->from * (size_t)R;
            const bool *to = u->live + (size_t)tr->to * (size_t)R;
            for (int i = 0; i < tr->nlits; i++)
                for (int k = 0; k < u->reads[t][i].n; k++) {
                    int r = u->reads[t][i].regs[k];
                    if (!from[r])
                        from[r] = changed = true;
                }
            for (int r = 0; r < R; r++) {
                if (!to[r] || from[r])
                    continue;
                bool written = false;
                for (int k = 0; k < tr->nwrites; k++)
                    written |= tr->writes[k] == r;
                if (!written)
                    from[r] = changed = true;
            }
        }
    }
}

/* ---- tuples -------------------------------------------------------------------------- */

static uint32_t hash_key(const int *key, int K)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < K; i++) {
        h ^= (uint32_t)key[i];
        h *= 16777619u;
    }
    return h;
}

static void table_insert(Unroller *u, int s)
{
    uint32_t mask = (uint32_t)u->table_cap - 1;
    uint32_t h = hash_key(u->keys + (size_t)s * (size_t)u->K, u->K) & mask;
    while (u->table[h])
        h = (h + 1) & mask;
    u->table[h] = s + 1;
}

/* Keeps the load factor at most 1/2 so probes stay short. */
static void table_grow(Unroller *u)
{
    if (2 * (u->nstates + 1) <= u->table_cap)
        return;
    u->table_cap = u->table_cap ? 2 * u->table_cap : 64;
    u->table = arena_alloc(&u->scratch, (size_t)u->table_cap * sizeof *u->table);
    for (int s = 0; s < u->nstates; s++)
        table_insert(u, s);
}

/* The id of the tuple key, created if new; -1 when creating it would go
 * over the budget. */
static int intern(Unroller *u, const int *key)
{
    int K = u->K;
    uint32_t mask = (uint32_t)u->table_cap - 1;
    for (uint32_t h = hash_key(key, K) & mask; u->table[h]; h = (h + 1) & mask) {
        int s = u->table[h] - 1;
        if (memcmp(u->keys + (size_t)s * (size_t)K, key, (size_t)K * sizeof *key) == 0)
            return s;
    }
    if (u->nstates >= u->max_states) {
        u->over = true;
        u->reached = u->nstates + 1; /* the state that did not fit */
        return -1;
    }
    if (u->nstates == u->keys_cap) {
        int cap = u->keys_cap ? 2 * u->keys_cap : 64;
        int *keys = arena_alloc(&u->scratch, (size_t)cap * (size_t)K * sizeof *keys);
        if (u->nstates)
            memcpy(keys, u->keys, (size_t)u->nstates * (size_t)K * sizeof *keys);
        u->keys = keys;
        u->keys_cap = cap;
    }
    int s = u->nstates;
    memcpy(u->keys + (size_t)s * (size_t)K, key, (size_t)K * sizeof *key);
    table_grow(u);
    u->nstates++;
    table_insert(u, s);
    return s;
}

/* Whether some positive literal of NFA transition t reads a register that
 * last (as given) says no event wrote: such a condition can never be
 * evaluated, so it is false as a whole (docs/language.md 3.2) and the
 * transition never fires on this walk. */
static bool guard_impossible(const Unroller *u, int t, const int *last)
{
    const SraTrans *tr = &u->nfa->trans[t];
    for (int i = 0; i < tr->nlits; i++) {
        if (tr->lits[i].neg)
            continue;
        for (int k = 0; k < u->reads[t][i].n; k++)
            if (last[u->reads[t][i].regs[k]] == 0)
                return true;
    }
    return false;
}

/* Clones every NFA transition out of tuple s; key and next are scratch
 * tuples. */
static void expand(Unroller *u, int s, int *key, int *next)
{
    const int K = u->K, R = u->R;
    memcpy(key, u->keys + (size_t)s * (size_t)K, (size_t)K * sizeof *key);
    int q = key[0], d = key[1];
    for (int a = u->first[q]; a < u->first[q + 1] && !u->over; a++) {
        int t = u->adj[a];
        const SraTrans *tr = &u->nfa->trans[t];
        if (tr->eps || d + 1 > u->w || u->dist[tr->to] == INT_MAX ||
            u->dist[tr->to] > u->w - (d + 1) || guard_impossible(u, t, key + 2))
            continue;
        next[0] = tr->to;
        next[1] = d + 1;
        memcpy(next + 2, key + 2, (size_t)R * sizeof *next);
        for (int k = 0; k < tr->nwrites; k++)
            next[2 + tr->writes[k]] = d + 1;
        const bool *live = u->live + (size_t)tr->to * (size_t)R;
        for (int r = 0; r < R; r++)
            if (!live[r])
                next[2 + r] = 0;
        int to = intern(u, next);
        if (to < 0)
            return;
        if (u->ntrans >= u->max_trans) {
            u->over = true;
            u->reached = u->nstates;
            return;
        }
        UTrans *ut = arena_push(&u->scratch, &u->trans, &u->ntrans, &u->trans_cap, sizeof *ut);
        *ut = (UTrans){s, to, tr};
    }
}

/* ---- the result ------------------------------------------------------------------------ */

/* Tuples are created breadth-first, so every transition goes from a
 * smaller id to a larger one and one backward sweep finds the tuples
 * that reach a final state. Guards dropped for empty registers can leave
 * tuples that the distance bound kept but no walk completes: drop them. */
static bool *coreachable(Unroller *u)
{
    bool *co = arena_alloc(&u->scratch, (size_t)(u->nstates + 1) * sizeof *co);
    for (int s = 0; s < u->nstates; s++)
        co[s] = u->nfa->final[u->keys[(size_t)s * (size_t)u->K]];
    for (int i = u->ntrans - 1; i >= 0; i--)
        if (co[u->trans[i].to])
            co[u->trans[i].from] = true;
    return co;
}

/* regmap of a literal read in tuple last: pattern register r of the
 * condition -> the clone written at depth last[m], m = r's NFA register. */
static const int *lit_regmap(const Unroller *u, const SraLit *lit, const int *last, Arena *arena,
                             const int **shared)
{
    if (!lit->regmap && *shared)
        return *shared;
    int npat = u->nfa->pattern ? u->nfa->pattern->nregs : u->R;
    int *map = arena_alloc(arena, (size_t)(npat + 1) * sizeof *map);
    for (int r = 0; r < npat; r++) {
        int m = lit->regmap ? lit->regmap[r] : r;
        map[r] = m * (u->w + 1) + last[m];
    }
    if (!lit->regmap)
        *shared = map;
    return map;
}

/* Copies one cloned transition into the result. A negated literal whose
 * condition reads an empty register always holds (the condition cannot
 * be evaluated, so it does not hold), so it is left out of the guard. */
static void emit_trans(const Unroller *u, Sra *out, Arena *arena, const UTrans *ut,
                       const int *renum, const int **shared)
{
    const int *key = u->keys + (size_t)ut->from * (size_t)u->K;
    const SraTrans *src = ut->src;
    int t = (int)(src - u->nfa->trans);
    SraTrans *tr = sra_add_trans(out, arena, renum[ut->from], renum[ut->to]);
    tr->position = src->position;
    for (int i = 0; i < src->nlits; i++) {
        bool empty = false;
        for (int k = 0; k < u->reads[t][i].n; k++)
            empty |= key[2 + u->reads[t][i].regs[k]] == 0;
        if (empty)
            continue; /* negated: guard_impossible already ruled out positive */
        SraLit lit = src->lits[i];
        if (u->reads[t][i].n > 0)
            lit.regmap = lit_regmap(u, &src->lits[i], key + 2, arena, shared);
        else
            lit.regmap = NULL;
        sra_trans_add_lit(tr, arena, lit);
    }
    for (int k = 0; k < src->nwrites; k++)
        sra_trans_add_write(tr, arena, src->writes[k] * (u->w + 1) + key[1] + 1);
}

/* Renumbers sra's states in place as its dumps number them, so that the
 * members the determinized stages list are the numbers the unrolled
 * dump shows. */
static void number_as_dumped(Sra *sra, Arena *scratch)
{
    int n = sra->nstates;
    int *order = arena_alloc(scratch, (size_t)(n + 1) * sizeof *order);
    bool *final = arena_alloc(scratch, (size_t)(n + 1) * sizeof *final);
    int *depth = arena_alloc(scratch, (size_t)(n + 1) * sizeof *depth);
    sra_dump_order(sra, order);
    for (int s = 0; s < n; s++) {
        final[order[s]] = sra->final[s];
        depth[order[s]] = sra->depth[s];
    }
    memcpy(sra->final, final, (size_t)n * sizeof *final);
    memcpy(sra->depth, depth, (size_t)n * sizeof *depth);
    for (int i = 0; i < sra->ntrans; i++) {
        sra->trans[i].from = order[sra->trans[i].from];
        sra->trans[i].to = order[sra->trans[i].to];
    }
    sra->start = order[sra->start];
}

static Sra *emit(Unroller *u, Arena *arena)
{
    bool *co = coreachable(u);
    co[0] = true; /* the start stays, even if nothing can be accepted */
    int *renum = arena_alloc(&u->scratch, (size_t)(u->nstates + 1) * sizeof *renum);
    Sra *out = sra_new(arena, u->nfa->pattern, u->R * (u->w + 1));
    int kept = 0;
    for (int s = 0; s < u->nstates; s++)
        kept += co[s];
    out->depth = arena_alloc(arena, (size_t)(kept + 1) * sizeof *out->depth);
    for (int s = 0; s < u->nstates; s++) {
        renum[s] = -1;
        if (!co[s])
            continue;
        const int *key = u->keys + (size_t)s * (size_t)u->K;
        renum[s] = sra_add_state(out, arena);
        out->final[renum[s]] = u->nfa->final[key[0]];
        out->depth[renum[s]] = key[1];
    }
    out->start = 0;
    out->window = u->w;
    out->deterministic = u->nfa->deterministic;
    /* Transitions are grouped by source tuple; literals of one tuple
     * share one regmap. */
    const int *shared = NULL;
    for (int i = 0; i < u->ntrans; i++) {
        const UTrans *ut = &u->trans[i];
        if (i == 0 || ut->from != u->trans[i - 1].from)
            shared = NULL;
        if (co[ut->from] && co[ut->to])
            emit_trans(u, out, arena, ut, renum, &shared);
    }
    number_as_dumped(out, &u->scratch);
    return out;
}

static void report_budget(const Unroller *u, Diag *diag)
{
    const AstPattern *p = u->nfa->pattern;
    char win[96] = "?";
    if (p)
        sra_window_text(p, win, sizeof win);
    diag_error(diag, p ? p->loc : (Loc){0, 0},
               "pattern '%s' (%s): the unrolled automaton reached %d states and %d transitions, "
               "over the state budget (--max-states %d); raise --max-states, shorten the window "
               "or use --strategy runs",
               p ? p->name : "?", win, u->reached, u->ntrans, u->max_states);
}

Sra *sra_unroll(const Sra *eps_free, int w, Arena *arena, Diag *diag, int max_states)
{
    Unroller u = {.nfa = eps_free, .w = w, .R = eps_free->nregs, .max_states = max_states};
    /* Clone numbers r * (w + 1) + t must fit an int; a window that large
     * is far over any state budget anyway. */
    if (w < 1 || (int64_t)u.R * ((int64_t)w + 1) > INT_MAX / 2) {
        const AstPattern *p = eps_free->pattern;
        char win[96] = "?";
        if (p)
            sra_window_text(p, win, sizeof win);
        diag_error(diag, p ? p->loc : (Loc){0, 0},
                   "pattern '%s' (%s): the window is too large to unroll; use --strategy runs",
                   p ? p->name : "?", win);
        return NULL;
    }
    u.K = 2 + u.R;
    u.max_trans = sra_trans_budget(max_states);
    arena_init(&u.scratch);
    index_transitions(&u);
    compute_reads(&u);
    compute_dist(&u);
    compute_live(&u);
    int *key = arena_alloc(&u.scratch, 2 * (size_t)u.K * sizeof *key);
    key[0] = eps_free->start; /* depth 0, every register empty */
    table_grow(&u);
    intern(&u, key);
    for (int s = 0; s < u.nstates && !u.over; s++)
        expand(&u, s, key, key + u.K);
    Sra *out = NULL;
    if (u.over)
        report_budget(&u, diag);
    else
        out = emit(&u, arena);
    arena_free(&u.scratch);
    return out;
}
