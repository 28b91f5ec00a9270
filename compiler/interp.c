/* interp.c: the reference interpreter, checked pattern + stream -> detections
 * (for every start, the set of all outcomes of the regex, by structural
 * recursion) and canonical matches (a backtracking parse in the order of
 * docs/language.md 3.4). */
#include "interp.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- outcome sets --------------------------------------------------------- */

/* An outcome is a row of ints: the end (the position after the last event
 * consumed), then one entry per register: the position of the stored event,
 * -1 while empty. A set holds each row once (open addressing on a hash). */
typedef struct OutSet {
    int    width;    /* ints per row: 1 + registers */
    int    n, cap;   /* rows */
    int   *rows;
    int   *slots;    /* 1 + row number, 0 = free */
    size_t nslots;   /* a power of two, more than twice n */
} OutSet;

/* Out of memory in the oracle: nothing sensible to report to, so stop. */
static void *xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size ? size : 1);
    if (!q)
        abort();
    return q;
}

static void set_init(OutSet *s, int width)
{
    memset(s, 0, sizeof *s);
    s->width = width;
}

static void set_free(OutSet *s)
{
    free(s->rows);
    free(s->slots);
}

static const int *set_row(const OutSet *s, int k) { return s->rows + (size_t)k * (size_t)s->width; }

static size_t row_hash(const int *row, int width)
{
    uint64_t h = 14695981039346656037u; /* FNV-1a */
    for (int i = 0; i < width; i++) {
        h ^= (uint32_t)row[i];
        h *= 1099511628211u;
    }
    h ^= h >> 33; /* FNV's low bits see only the rows' low bits: mix the high ones in */
    h *= 0xff51afd7ed558ccdu;
    return (size_t)(h ^ (h >> 33));
}

/* The slot holding row, or the free slot where it would go. */
static size_t set_slot(const OutSet *s, const int *row)
{
    size_t mask = s->nslots - 1, i = row_hash(row, s->width) & mask;
    while (s->slots[i] && memcmp(set_row(s, s->slots[i] - 1), row, (size_t)s->width * sizeof *row) != 0)
        i = (i + 1) & mask;
    return i;
}

static bool set_has(const OutSet *s, const int *row) { return s->nslots && s->slots[set_slot(s, row)]; }

static void set_grow_slots(OutSet *s)
{
    free(s->slots);
    s->nslots = s->nslots ? s->nslots * 2 : 16;
    s->slots = xrealloc(NULL, s->nslots * sizeof *s->slots);
    memset(s->slots, 0, s->nslots * sizeof *s->slots);
    for (int k = 0; k < s->n; k++)
        s->slots[set_slot(s, set_row(s, k))] = k + 1;
}

/* Adds a copy of row (which must not point into s); true if it was new. */
static bool set_add(OutSet *s, const int *row)
{
    if ((size_t)(s->n + 1) * 2 > s->nslots)
        set_grow_slots(s);
    size_t slot = set_slot(s, row);
    if (s->slots[slot])
        return false;
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 8;
        s->rows = xrealloc(s->rows, (size_t)s->cap * (size_t)s->width * sizeof *s->rows);
    }
    memcpy(s->rows + (size_t)s->n * (size_t)s->width, row, (size_t)s->width * sizeof *row);
    s->slots[slot] = ++s->n;
    return true;
}

static void set_add_all(OutSet *dst, const OutSet *src)
{
    for (int k = 0; k < src->n; k++)
        set_add(dst, set_row(src, k));
}

static bool set_equal(const OutSet *a, const OutSet *b)
{
    if (a->n != b->n)
        return false;
    for (int k = 0; k < a->n; k++)
        if (!set_has(b, set_row(a, k)))
            return false;
    return true;
}

/* ---- one (sub)stream ---------------------------------------------------------- */

typedef struct Interp {
    const AstPattern  *p;
    const ExternTable *ext;
    const Value       *values;   /* the whole stream */
    int                nattrs;
    const int         *idx;      /* position in the (sub)stream -> stream index */
    int                n;        /* length of the (sub)stream */
    int                nregs;
    int                width;    /* 1 + nregs */
    const Value      **regbuf;   /* [nregs]: registers as EvalCtx wants them */
    int               *scratch;  /* one row, for leaves that build an outcome */
    int                maxend;   /* current start: no end beyond this can satisfy the window;
                                    canonical match: one past the detection */
    int               *regs;     /* canonical match: [nregs], positions or -1 */
    struct Memo       *memo;     /* canonical match: its tables */
} Interp;

static const Value *event_at(const Interp *in, int k)
{
    return in->values + (size_t)in->idx[k] * (size_t)in->nattrs;
}

/* Does event k satisfy cond (NULL: `_`) with registers regs? */
static bool holds(const Interp *in, const AstExpr *cond, int k, const int *regs)
{
    for (int r = 0; r < in->nregs; r++)
        in->regbuf[r] = regs[r] < 0 ? NULL : event_at(in, regs[r]);
    EvalCtx ctx = {event_at(in, k), in->regbuf, NULL, in->ext};
    return eval_cond(cond, &ctx);
}

static const AstExpr *atom_cond(const AstRegex *a) { return a->atom == ATOM_ANY ? NULL : a->cond; }

/* ts(e_i) - ts(e_j) <= d, without overflowing the subtraction. */
static bool ts_within(int64_t tj, int64_t ti, int64_t d)
{
    if (ti <= tj)
        return d >= 0;
    return d >= 0 && (uint64_t)ti - (uint64_t)tj <= (uint64_t)d;
}

/* The window of 3.3 for a match e_j .. e_i. */
static bool window_holds(const Interp *in, int j, int i)
{
    const AstWindow *w = &in->p->hdr.window;
    switch (w->kind) {
    case WIN_EVENTS: return (int64_t)i - j + 1 <= w->value;
    case WIN_TIME: {
        int ts = in->p->schema->ts_attr;
        return ts_within(event_at(in, j)[ts].i, event_at(in, i)[ts].i, w->value);
    }
    case WIN_NONE: break;
    }
    return true;
}

/* One past the last i >= j whose match e_j .. e_i could satisfy the window:
 * matches are enumerated only up to there, and filtered by window_holds. */
static int window_end(const Interp *in, int j)
{
    int end = j;
    for (int i = j; i < in->n; i++)
        if (window_holds(in, j, i))
            end = i + 1;
    return end;
}

/* ---- strict matching: outcomes by structural recursion ----------------------------- */

static void match(Interp *in, const AstRegex *r, const int *row, OutSet *out);

/* Outcomes of r from every row of from, into out (a different set). */
static void step(Interp *in, const AstRegex *r, const OutSet *from, OutSet *out)
{
    for (int k = 0; k < from->n; k++)
        match(in, r, set_row(from, k), out);
}

/* One event: its condition sees the registers before the store. */
static void match_atom(Interp *in, const AstRegex *r, const int *row, OutSet *out)
{
    int pos = row[0];
    if (pos >= in->maxend || !holds(in, atom_cond(r), pos, row + 1))
        return;
    memcpy(in->scratch, row, (size_t)in->width * sizeof *row);
    in->scratch[0] = pos + 1;
    if (r->reg >= 0)
        in->scratch[1 + r->reg] = pos;
    set_add(out, in->scratch);
}

static void match_seq(Interp *in, const AstRegex *r, const int *row, OutSet *out)
{
    OutSet cur;
    set_init(&cur, in->width);
    set_add(&cur, row);
    for (int i = 0; i < r->nkids; i++) {
        OutSet next;
        set_init(&next, in->width);
        step(in, r->kids[i], &cur, &next);
        set_free(&cur);
        cur = next;
    }
    set_add_all(out, &cur);
    set_free(&cur);
}

/* Registers written by atoms under r (a complement writes none). */
static void writes(const AstRegex *r, bool *w)
{
    if (r->kind == RX_ATOM) {
        if (r->reg >= 0)
            w[r->reg] = true;
        return;
    }
    if (r->kind == RX_NOT)
        return;
    for (int i = 0; i < r->nkids; i++)
        writes(r->kids[i], w);
}

/* R & S: pairs of outcomes with the same end. The checker makes the
 * operands write disjoint registers, so each register comes from the
 * operand that writes it (or is unchanged in both). */
static void match_and(Interp *in, const AstRegex *r, const int *row, OutSet *out)
{
    bool *w = xrealloc(NULL, (size_t)in->nregs * sizeof *w);
    OutSet acc;
    set_init(&acc, in->width);
    match(in, r->kids[0], row, &acc);
    for (int i = 1; i < r->nkids; i++) {
        OutSet b, merged;
        set_init(&b, in->width);
        set_init(&merged, in->width);
        match(in, r->kids[i], row, &b);
        memset(w, 0, (size_t)in->nregs * sizeof *w);
        writes(r->kids[i], w);
        for (int x = 0; x < acc.n; x++) {
            const int *ra = set_row(&acc, x);
            for (int y = 0; y < b.n; y++) {
                const int *rb = set_row(&b, y);
                if (ra[0] != rb[0])
                    continue;
                memcpy(in->scratch, ra, (size_t)in->width * sizeof *ra);
                for (int g = 0; g < in->nregs; g++)
                    if (w[g])
                        in->scratch[1 + g] = rb[1 + g];
                set_add(&merged, in->scratch);
            }
        }
        set_free(&acc);
        set_free(&b);
        acc = merged;
    }
    set_add_all(out, &acc);
    set_free(&acc);
    free(w);
}

/* ~R: every end k with 1 <= k - pos <= w (the count window) that no
 * outcome of R from here reaches; R writes no registers. */
static void match_not(Interp *in, const AstRegex *r, const int *row, OutSet *out)
{
    const AstWindow *win = &in->p->hdr.window;
    int64_t w = win->kind == WIN_EVENTS ? win->value : 0;
    int pos = row[0];
    int last = (int64_t)in->maxend - pos < w ? in->maxend : pos + (int)w;
    OutSet inner;
    set_init(&inner, in->width);
    match(in, r->kids[0], row, &inner);
    for (int e = pos + 1; e <= last; e++) {
        bool matched = false;
        for (int k = 0; k < inner.n && !matched; k++)
            matched = set_row(&inner, k)[0] == e;
        if (matched)
            continue;
        memcpy(in->scratch, row, (size_t)in->width * sizeof *row);
        in->scratch[0] = e;
        set_add(out, in->scratch);
    }
    set_free(&inner);
}

/* body{min,max} (max -1: unbounded) as the union of the levels body^t,
 * min <= t <= max. A level equal to the one before it is a fixpoint (an
 * iteration that consumed nothing), an empty one ends everything. */
static void match_repeat(Interp *in, const AstRegex *body, int64_t min, int64_t max, const int *row, OutSet *out)
{
    OutSet level;
    set_init(&level, in->width);
    set_add(&level, row);
    int64_t t = 0;
    while (t < min) {
        OutSet next;
        set_init(&next, in->width);
        step(in, body, &level, &next);
        bool stop = next.n == 0 || set_equal(&next, &level);
        set_free(&level);
        level = next;
        t = stop ? min : t + 1;
    }
    if (max < 0) {
        /* closure of level: only rows not seen yet go round again */
        OutSet seen;
        set_init(&seen, in->width);
        set_add_all(&seen, &level);
        while (level.n > 0) {
            OutSet next, fresh;
            set_init(&next, in->width);
            set_init(&fresh, in->width);
            step(in, body, &level, &next);
            for (int k = 0; k < next.n; k++)
                if (set_add(&seen, set_row(&next, k)))
                    set_add(&fresh, set_row(&next, k));
            set_free(&next);
            set_free(&level);
            level = fresh;
        }
        set_add_all(out, &seen);
        set_free(&seen);
    } else {
        for (;;) {
            set_add_all(out, &level);
            if (t >= max || level.n == 0)
                break;
            OutSet next;
            set_init(&next, in->width);
            step(in, body, &level, &next);
            bool stop = next.n == 0 || set_equal(&next, &level);
            set_free(&level);
            level = next;
            t++;
            if (stop)
                break;
        }
    }
    set_free(&level);
}

/* Adds to out every outcome (end, registers) of r started at row[0] with
 * the registers row[1..]. */
static void match(Interp *in, const AstRegex *r, const int *row, OutSet *out)
{
    switch (r->kind) {
    case RX_ATOM:   match_atom(in, r, row, out); return;
    case RX_SEQ:    match_seq(in, r, row, out); return;
    case RX_AND:    match_and(in, r, row, out); return;
    case RX_NOT:    match_not(in, r, row, out); return;
    case RX_STAR:   match_repeat(in, r->kids[0], 0, -1, row, out); return;
    case RX_PLUS:   match_repeat(in, r->kids[0], 1, -1, row, out); return;
    case RX_OPT:    match_repeat(in, r->kids[0], 0, 1, row, out); return;
    case RX_REPEAT: match_repeat(in, r->kids[0], r->min, r->max, row, out); return;
    case RX_ALT:
        for (int i = 0; i < r->nkids; i++)
            match(in, r->kids[i], row, out);
        return;
    }
}

/* Detection at i iff some start j <= i has a non-empty outcome ending
 * after e_i with the window holding from j to i. */
static void detect_strict(Interp *in, bool *det)
{
    int *start = xrealloc(NULL, (size_t)in->width * sizeof *start);
    for (int j = 0; j < in->n; j++) {
        in->maxend = window_end(in, j);
        start[0] = j;
        for (int r = 0; r < in->nregs; r++)
            start[1 + r] = -1;
        OutSet out;
        set_init(&out, in->width);
        match(in, in->p->body, start, &out);
        for (int k = 0; k < out.n; k++) {
            int end = set_row(&out, k)[0];
            if (end > j && window_holds(in, j, end - 1))
                det[in->idx[end - 1]] = true;
        }
        set_free(&out);
    }
    free(start);
}

/* ---- policies stam and stnm, straight from their definitions ------------------------ */

typedef struct Chain {
    AstRegex *const *atoms;  /* A_1 .. A_m */
    int              m;
    int              j1;     /* the chosen start */
    int             *regs;   /* (m + 1) rows of nregs: registers before atom r */
} Chain;

/* Registers after taking event k for atom r: row r + 1 of c->regs. */
static int *chain_take(const Interp *in, Chain *c, int r, int k)
{
    int *before = c->regs + (size_t)r * (size_t)in->nregs, *after = before + in->nregs;
    memcpy(after, before, (size_t)in->nregs * sizeof *after);
    if (c->atoms[r]->reg >= 0)
        after[c->atoms[r]->reg] = k;
    return after;
}

/* stam: every j_{r+1} > j_r whose event satisfies A_{r+1}. Events at or
 * beyond maxend cannot be in a match that satisfies the window. */
static void stam_from(Interp *in, Chain *c, int r, int prev, bool *det)
{
    const int *regs = c->regs + (size_t)r * (size_t)in->nregs;
    for (int k = prev + 1; k < in->maxend; k++) {
        if (!holds(in, atom_cond(c->atoms[r]), k, regs))
            continue;
        chain_take(in, c, r, k);
        if (r + 1 < c->m)
            stam_from(in, c, r + 1, k, det);
        else if (window_holds(in, c->j1, k))
            det[in->idx[k]] = true;
    }
}

/* stnm: one chain per start, each step to the first event after the
 * previous one that satisfies the next atom. */
static void stnm_from(Interp *in, Chain *c, bool *det)
{
    int cur = c->j1;
    for (int r = 1; r < c->m; r++) {
        const int *regs = c->regs + (size_t)r * (size_t)in->nregs;
        int k = cur + 1;
        while (k < in->n && !holds(in, atom_cond(c->atoms[r]), k, regs))
            k++;
        if (k == in->n)
            return;
        chain_take(in, c, r, k);
        cur = k;
    }
    if (window_holds(in, c->j1, cur))
        det[in->idx[cur]] = true;
}

static void detect_policy(Interp *in, bool *det)
{
    AstRegex *const *body = &in->p->body;
    Chain c = {body, 1, 0, NULL};
    if ((*body)->kind == RX_SEQ) {
        c.atoms = (*body)->kids;
        c.m = (*body)->nkids;
    }
    c.regs = xrealloc(NULL, (size_t)(c.m + 1) * (size_t)in->nregs * sizeof *c.regs);
    for (int r = 0; r < in->nregs; r++)
        c.regs[r] = -1;
    for (int j = 0; j < in->n; j++) {
        if (!holds(in, atom_cond(c.atoms[0]), j, c.regs))
            continue;
        c.j1 = j;
        in->maxend = window_end(in, j);
        chain_take(in, &c, 0, j);
        if (c.m == 1)
            det[in->idx[j]] = true; /* a one-event match always fits the window */
        else if (in->p->hdr.policy == POLICY_STAM)
            stam_from(in, &c, 1, j, det);
        else
            stnm_from(in, &c, det);
    }
    free(c.regs);
}

/* ---- partitions ---------------------------------------------------------------- */

/* An interpreter over the (sub)stream idx[0..n) of s; interp_done frees it. */
static void interp_init(Interp *in, const AstPattern *p, const Stream *s, const ExternTable *ext, const int *idx, int n)
{
    memset(in, 0, sizeof *in);
    in->p = p;
    in->ext = ext;
    in->values = s->values;
    in->nattrs = s->nattrs;
    in->idx = idx;
    in->n = n;
    in->nregs = p->nregs;
    in->width = 1 + p->nregs;
    in->regbuf = xrealloc(NULL, (size_t)p->nregs * sizeof *in->regbuf);
    in->scratch = xrealloc(NULL, (size_t)in->width * sizeof *in->scratch);
    in->regs = xrealloc(NULL, (size_t)p->nregs * sizeof *in->regs);
}

static void interp_done(Interp *in)
{
    free(in->regbuf);
    free(in->scratch);
    free(in->regs);
}

static void detect_view(const AstPattern *p, const Stream *s, const ExternTable *ext, const int *idx, int n,
                        bool *det)
{
    Interp in;
    interp_init(&in, p, s, ext, idx, n);
    if (p->hdr.policy == POLICY_STRICT)
        detect_strict(&in, det);
    else
        detect_policy(&in, det);
    interp_done(&in);
}

/* Whether events a and b are in the same partition (every key attribute equal). */
static bool same_part(const AstPattern *p, const Stream *s, int a, int b)
{
    return eval_same_key(p->partition_attrs, p->npartition, s, a, b);
}

void interp_detect(const AstPattern *p, const Stream *s, const ExternTable *ext, bool *det)
{
    memset(det, 0, (size_t)s->n * sizeof *det);
    if (!p->body || s->n <= 0)
        return;
    int *idx = xrealloc(NULL, (size_t)s->n * sizeof *idx);
    if (!p->partition_attr) {
        for (int k = 0; k < s->n; k++)
            idx[k] = k;
        detect_view(p, s, ext, idx, s->n, det);
        free(idx);
        return;
    }
    /* one substream per key, in order of first appearance */
    bool *taken = xrealloc(NULL, (size_t)s->n * sizeof *taken);
    memset(taken, 0, (size_t)s->n * sizeof *taken);
    for (int k = 0; k < s->n; k++) {
        if (taken[k])
            continue;
        int m = 0;
        for (int q = k; q < s->n; q++)
            if (!taken[q] && same_part(p, s, q, k)) {
                taken[q] = true;
                idx[m++] = q;
            }
        detect_view(p, s, ext, idx, m, det);
    }
    free(taken);
    free(idx);
}

/* ---- the canonical match (docs/language.md 3.4) ----------------------------------- */

/* A backtracking matcher in the order of the definition: each function
 * offers the parses of its subexpression one by one, in canonical order,
 * to a continuation (what must follow), and stops at the first one the
 * continuation accepts. The registers are one array, in->regs, written by
 * atoms and restored when a parse is abandoned.
 *
 * Plain backtracking is exponential (`((A)+)+ B` on a run of A's, as in
 * any backtracking regex engine), so after MEMO_AFTER continuation calls
 * for one detection, continuations are interned: each gets an id from its
 * contents and its successor's id, and a call of continuation id at pos
 * with given registers that failed once is not made again (it would fail
 * again: nothing else goes into it). `&` and `~` first find where their
 * operands can end (one search each) and skip the spans they cannot
 * cover. The order of the parses is unchanged; only known failures are
 * skipped. */

typedef enum KontKind {
    K_END,     /* the whole parse must end at in->maxend */
    K_ENDS,    /* & and ~ ask where a parse can end: note it, fail */
    K_SEQ,     /* concatenation: operand kid next, then next */
    K_REPEAT,  /* repetition r after count iterations */
    K_AND      /* &: operand kid - 1 ended; it must end at to */
} KontKind;

typedef struct Kont Kont;
struct Kont {
    KontKind        kind;
    const Kont     *next;     /* the continuation after this one */
    const AstRegex *r;        /* the node this continuation belongs to */
    int             kid;      /* concatenation and &: the next operand */
    int64_t         count;    /* repetition: iterations done (capped where more do not matter) */
    int             last;     /* repetition: start of the last optional iteration, -1 */
    int             from, to; /* &: the span's start and end; K_ENDS: a serial number */
};

/* Most searches are short: memoize only the long ones. */
enum { MEMO_AFTER = 20000 };

/* The per-detection tables: interned continuations, failed calls. */
typedef struct Memo {
    long   calls;   /* continuation calls so far */
    bool   on;      /* calls > MEMO_AFTER: memoizing */
    OutSet konts;   /* rows: kind, r (two halves), kid, count, last, from, to, next id */
    OutSet failed;  /* rows: id, pos, registers */
    int   *row;     /* scratch of failed's width */
    bool  *ends;    /* K_ENDS: where the parses end */
    int    searches;/* K_ENDS so far */
} Memo;

static bool canon_parse(Interp *in, const AstRegex *r, int pos, const Kont *k);

/* The index of row in s, added if new. */
static int set_index(OutSet *s, const int *row)
{
    if (!set_has(s, row))
        set_add(s, row);
    return s->slots[set_slot(s, row)] - 1;
}

/* A continuation with these contents. */
static Kont kont(KontKind kind, const Kont *next, const AstRegex *r, int kid, int64_t count, int last, int from,
                 int to)
{
    Kont k = {kind, next, r, kid, count, last, from, to};
    return k;
}

/* The id of k: the index of its contents and its successor's id among
 * the continuations seen (the chain is as long as the regex is deep). */
static int kont_id(Interp *in, const Kont *k)
{
    uint64_t rp = (uint64_t)(uintptr_t)k->r;
    int row[9] = {(int)k->kind, (int)(uint32_t)rp, (int)(uint32_t)(rp >> 32), k->kid, (int)k->count, k->last,
                  k->from, k->to, k->next ? kont_id(in, k->next) : -1};
    return set_index(&in->memo->konts, row);
}

static bool kont_seq(Interp *in, const Kont *k, int pos);
static bool kont_repeat(Interp *in, const Kont *k, int pos);
static bool kont_and(Interp *in, const Kont *k, int pos);

/* Runs continuation k at pos, unless it failed there before with the
 * same registers. */
static bool kont_run(Interp *in, const Kont *k, int pos)
{
    Memo *m = in->memo;
    m->on = m->on || ++m->calls > MEMO_AFTER;
    int id = m->on ? kont_id(in, k) : -1;
    m->row[0] = id;
    m->row[1] = pos;
    memcpy(m->row + 2, in->regs, (size_t)in->nregs * sizeof *in->regs);
    if (id >= 0 && set_has(&m->failed, m->row))
        return false;
    bool ok = false;
    switch (k->kind) {
    case K_END:    ok = pos == in->maxend; break;
    case K_ENDS:   in->memo->ends[pos] = true; break;
    case K_SEQ:    ok = kont_seq(in, k, pos); break;
    case K_REPEAT: ok = kont_repeat(in, k, pos); break;
    case K_AND:    ok = kont_and(in, k, pos); break;
    }
    if (!ok && id >= 0) {
        m->row[0] = id; /* the calls above used the scratch row */
        m->row[1] = pos;
        memcpy(m->row + 2, in->regs, (size_t)in->nregs * sizeof *in->regs);
        set_add(&m->failed, m->row);
    }
    return ok;
}

/* One event: the condition sees the registers before the store. */
static bool canon_atom(Interp *in, const AstRegex *r, int pos, const Kont *k)
{
    if (pos >= in->maxend || !holds(in, atom_cond(r), pos, in->regs))
        return false;
    if (r->reg < 0)
        return kont_run(in, k, pos + 1);
    int old = in->regs[r->reg];
    in->regs[r->reg] = pos;
    if (kont_run(in, k, pos + 1))
        return true; /* the bindings of the parse found stay */
    in->regs[r->reg] = old;
    return false;
}

/* Concatenation: operand k->kid next, then the rest. */
static bool kont_seq(Interp *in, const Kont *k, int pos)
{
    if (k->kid == k->r->nkids)
        return kont_run(in, k->next, pos);
    Kont c = kont(K_SEQ, k->next, k->r, k->kid + 1, 0, -1, 0, 0);
    return canon_parse(in, k->r->kids[k->kid], pos, &c);
}

/* The bounds of a repetition node. */
static void repeat_bounds(const AstRegex *r, int64_t *min, int64_t *max)
{
    *min = r->kind == RX_PLUS ? 1 : r->kind == RX_REPEAT ? r->min : 0;
    *max = r->kind == RX_OPT ? 1 : r->kind == RX_REPEAT ? r->max : -1;
}

/* Repetition r after count + 1 iterations, the last one begun at last. */
static Kont kont_iter(const Kont *k, int last)
{
    int64_t min, max, count = k->count + 1;
    repeat_bounds(k->r, &min, &max);
    if (max < 0 && count > min)
        count = min; /* unbounded: only `count < min` tells counts apart */
    return kont(K_REPEAT, k->next, k->r, 0, count, last, 0, 0);
}

/* A repetition after `count` iterations, as Python's re does it
 * (MAX_UNTIL): below the minimum, iterate; then one more iteration first
 * (greedy), unless the last optional iteration began here, i.e. it
 * consumed nothing; then stop and go on. */
static bool kont_repeat(Interp *in, const Kont *k, int pos)
{
    int64_t min, max;
    repeat_bounds(k->r, &min, &max);
    if (k->count < min) {
        Kont c = kont_iter(k, k->last);
        return canon_parse(in, k->r->kids[0], pos, &c);
    }
    if ((max < 0 || k->count < max) && pos != k->last) {
        Kont c = kont_iter(k, pos);
        if (canon_parse(in, k->r->kids[0], pos, &c))
            return true;
    }
    return kont_run(in, k->next, pos);
}

/* R & S over the span [k->from, k->to): operand k->kid - 1 must end
 * exactly at k->to, then operand k->kid starts over at k->from. The
 * operands write disjoint registers and read none of each other's, so
 * threading the registers through them is the same as merging their writes. */
static bool kont_and(Interp *in, const Kont *k, int pos)
{
    if (pos != k->to)
        return false;
    if (k->kid == k->r->nkids)
        return kont_run(in, k->next, pos);
    Kont c = kont(K_AND, k->next, k->r, k->kid + 1, 0, -1, k->from, k->to);
    return canon_parse(in, k->r->kids[k->kid], k->from, &c);
}

/* ends[e] = whether r has a parse from pos ending at e (e <= in->maxend):
 * every parse is offered to a continuation that notes its end and fails. */
static void canon_ends(Interp *in, const AstRegex *r, int pos, bool *ends)
{
    Memo *m = in->memo;
    bool *outer = m->ends;
    memset(ends, 0, (size_t)(in->maxend + 1) * sizeof *ends);
    m->ends = ends;
    Kont note = kont(K_ENDS, NULL, r, 0, 0, -1, pos, m->searches++); /* its own id: a new array */
    canon_parse(in, r, pos, &note);
    m->ends = outer;
}

/* Spans longest first; for each, the parses of the operands in order.
 * The spans some operand cannot end at are skipped (the operands read
 * none of each other's registers, so where one can end does not depend on
 * the others). */
static bool canon_and(Interp *in, const AstRegex *r, int pos, const Kont *k)
{
    size_t row = (size_t)in->maxend + 1;
    bool *ends = xrealloc(NULL, (size_t)r->nkids * row * sizeof *ends), found = false;
    for (int q = 0; q < r->nkids; q++)
        canon_ends(in, r->kids[q], pos, ends + (size_t)q * row);
    for (int end = in->maxend; end >= pos && !found; end--) {
        bool reachable = true;
        for (int q = 0; q < r->nkids && reachable; q++)
            reachable = ends[(size_t)q * row + (size_t)end];
        Kont c = kont(K_AND, k, r, 1, 0, -1, pos, end);
        found = reachable && canon_parse(in, r->kids[0], pos, &c);
    }
    free(ends);
    return found;
}

/* ~R: spans of 1..w events (the count window) longest first, those R
 * does not match. R writes no registers, so ~R binds nothing. */
static bool canon_not(Interp *in, const AstRegex *r, int pos, const Kont *k)
{
    int64_t w = in->p->hdr.window.kind == WIN_EVENTS ? in->p->hdr.window.value : 0;
    int last = (int64_t)in->maxend - pos < w ? in->maxend : pos + (int)w;
    bool *ends = xrealloc(NULL, ((size_t)in->maxend + 1) * sizeof *ends), found = false;
    canon_ends(in, r->kids[0], pos, ends);
    for (int end = last; end > pos && !found; end--)
        found = !ends[end] && kont_run(in, k, end);
    free(ends);
    return found;
}

/* Offers the parses of r from pos to k, in canonical order; true as soon
 * as k accepts one (the registers then hold its bindings). */
static bool canon_parse(Interp *in, const AstRegex *r, int pos, const Kont *k)
{
    switch (r->kind) {
    case RX_ATOM: return canon_atom(in, r, pos, k);
    case RX_SEQ: {
        Kont c = kont(K_SEQ, k, r, 0, 0, -1, 0, 0);
        return kont_seq(in, &c, pos);
    }
    case RX_ALT:
        for (int i = 0; i < r->nkids; i++)
            if (canon_parse(in, r->kids[i], pos, k))
                return true;
        return false;
    case RX_AND: return canon_and(in, r, pos, k);
    case RX_NOT: return canon_not(in, r, pos, k);
    case RX_STAR:
    case RX_PLUS:
    case RX_OPT:
    case RX_REPEAT: {
        Kont c = kont(K_REPEAT, k, r, 0, 0, -1, 0, 0);
        return kont_repeat(in, &c, pos);
    }
    }
    return false;
}

static void regs_clear(Interp *in)
{
    for (int r = 0; r < in->nregs; r++)
        in->regs[r] = -1;
}

/* Strict: the greatest j whose events j..i match within the window,
 * and its canonical parse. Position i is the last of the (sub)stream. */
static int canon_strict(Interp *in, int i)
{
    Memo memo = {0};
    set_init(&memo.konts, 9);
    set_init(&memo.failed, 2 + in->nregs);
    memo.row = xrealloc(NULL, (size_t)(2 + in->nregs) * sizeof *memo.row);
    in->memo = &memo;
    in->maxend = i + 1;
    Kont end = kont(K_END, NULL, NULL, 0, 0, -1, 0, 0);
    int found = -1;
    for (int j = i; found < 0 && j >= 0 && window_holds(in, j, i); j--) {
        regs_clear(in);
        if (canon_parse(in, in->p->body, j, &end))
            found = j;
    }
    in->memo = NULL;
    set_free(&memo.konts);
    set_free(&memo.failed);
    free(memo.row);
    return found;
}

/* stam: the chain from j_1 ending at i whose j_2, j_3, ... is smallest in
 * lexicographic order: every step tries the earliest event first. */
static bool chain_stam(Interp *in, AstRegex *const *atoms, int m, int r, int prev, int i)
{
    if (r == m)
        return prev == i;
    for (int k = prev + 1; k <= i - (m - 1 - r); k++) {
        if (!holds(in, atom_cond(atoms[r]), k, in->regs))
            continue;
        int reg = atoms[r]->reg, old = reg >= 0 ? in->regs[reg] : -1;
        if (reg >= 0)
            in->regs[reg] = k;
        if (chain_stam(in, atoms, m, r + 1, k, i))
            return true;
        if (reg >= 0)
            in->regs[reg] = old;
    }
    return false;
}

/* stnm: the one chain from j_1 (already taken): does it end at i? */
static bool chain_stnm(Interp *in, AstRegex *const *atoms, int m, int j1, int i)
{
    int cur = j1;
    for (int r = 1; r < m; r++) {
        int k = cur + 1;
        while (k <= i && !holds(in, atom_cond(atoms[r]), k, in->regs))
            k++;
        if (k > i)
            return false;
        if (atoms[r]->reg >= 0)
            in->regs[atoms[r]->reg] = k;
        cur = k;
    }
    return cur == i;
}

/* stam and stnm: the greatest j_1 of a chain ending at i within the window. */
static int canon_policy(Interp *in, int i)
{
    AstRegex *const *atoms = &in->p->body;
    int m = 1;
    if ((*atoms)->kind == RX_SEQ) {
        m = (*atoms)->nkids;
        atoms = (*atoms)->kids;
    }
    for (int j = i; j >= 0 && window_holds(in, j, i); j--) {
        regs_clear(in);
        if (!holds(in, atom_cond(atoms[0]), j, in->regs))
            continue;
        if (atoms[0]->reg >= 0)
            in->regs[atoms[0]->reg] = j;
        bool found = m == 1 ? j == i
                   : in->p->hdr.policy == POLICY_STAM ? chain_stam(in, atoms, m, 1, j, i)
                                                      : chain_stnm(in, atoms, m, j, i);
        if (found)
            return j;
    }
    return -1;
}

/* The events up to i of i's substream: their stream indices (caller
 * frees), *n of them, i the last. */
static int *substream_upto(const AstPattern *p, const Stream *s, int i, int *n)
{
    int *idx = xrealloc(NULL, (size_t)(i + 1) * sizeof *idx);
    *n = 0;
    for (int k = 0; k <= i; k++)
        if (!p->partition_attr || same_part(p, s, k, i))
            idx[(*n)++] = k;
    return idx;
}

bool interp_canonical(const AstPattern *p, const Stream *s, const ExternTable *ext, int i, CanonMatch *out)
{
    out->start = -1;
    for (int r = 0; r < p->nregs; r++)
        out->bind[r] = -1;
    if (!p->body || i < 0 || i >= s->n)
        return false;
    int n;
    int *idx = substream_upto(p, s, i, &n);
    Interp in;
    interp_init(&in, p, s, ext, idx, n);
    int j = p->hdr.policy == POLICY_STRICT ? canon_strict(&in, n - 1) : canon_policy(&in, n - 1);
    if (j >= 0) {
        out->start = idx[j];
        for (int r = 0; r < p->nregs; r++)
            out->bind[r] = in.regs[r] < 0 ? -1 : idx[in.regs[r]];
    }
    interp_done(&in);
    free(idx);
    return j >= 0;
}

bool interp_has_match(const AstPattern *p, const Stream *s, const ExternTable *ext, int j, int i, const int *regs)
{
    if (!p->body || p->hdr.policy != POLICY_STRICT || j < 0 || j > i || i >= s->n)
        return false;
    int n, pj = -1;
    int *idx = substream_upto(p, s, i, &n);
    for (int k = 0; k < n; k++)
        if (idx[k] == j)
            pj = k;
    bool found = false;
    Interp in;
    interp_init(&in, p, s, ext, idx, n);
    if (pj >= 0 && window_holds(&in, pj, n - 1)) {
        int *row = xrealloc(NULL, (size_t)in.width * sizeof *row);
        in.maxend = n;
        row[0] = pj;
        for (int r = 0; r < in.nregs; r++)
            row[1 + r] = -1;
        OutSet out;
        set_init(&out, in.width);
        match(&in, p->body, row, &out);
        for (int k = 0; k < out.n && !found; k++) {
            const int *o = set_row(&out, k);
            found = o[0] == n;
            for (int r = 0; r < in.nregs && found; r++)
                found = (o[1 + r] < 0 ? -1 : idx[o[1 + r]]) == regs[r];
        }
        set_free(&out);
        free(row);
    }
    interp_done(&in);
    free(idx);
    return found;
}

/* ---- absence (docs/language.md 3.7) ----------------------------------------------- */

/* Whether event k closes the window of a match that starts at s: time
 * windows by any event of the stream (ts(k) - ts(s) > D), count windows
 * by the own events of the substream (own: how many of them s..k holds). */
static bool absent_closes(const AstPattern *p, const Stream *s, int start, int k, int own)
{
    const AstWindow *w = &p->hdr.window;
    if (w->kind == WIN_EVENTS)
        return own > w->value;
    if (w->kind != WIN_TIME)
        return false;
    int ts = p->schema->ts_attr;
    int64_t tj = s->values[(size_t)start * (size_t)s->nattrs + (size_t)ts].i;
    int64_t tk = s->values[(size_t)k * (size_t)s->nattrs + (size_t)ts].i;
    return !ts_within(tj, tk, w->value);
}

/* The obligation of the detection at i: where its absent record goes. */
static int absent_of(const AstPattern *p, const Stream *s, const ExternTable *ext, int i, const CanonMatch *cm,
                     const Value **regs)
{
    for (int r = 0; r < p->nregs; r++)
        regs[r] = cm->bind[r] < 0 ? NULL : s->values + (size_t)cm->bind[r] * (size_t)s->nattrs;
    int own = 0;   /* the substream's events from the start to k */
    for (int k = cm->start; k <= i; k++)
        own += !p->partition_attr || same_part(p, s, k, i);
    for (int k = i + 1; k < s->n; k++) {
        bool mine = !p->partition_attr || same_part(p, s, k, i);
        own += mine;
        if ((mine || p->hdr.window.kind == WIN_TIME) && absent_closes(p, s, cm->start, k, own))
            return k;
        EvalCtx ctx = {s->values + (size_t)k * (size_t)s->nattrs, regs, NULL, ext};
        if (mine && eval_cond(p->absent.cond, &ctx))
            return -1;
    }
    return s->n;
}

void interp_absent(const AstPattern *p, const Stream *s, const ExternTable *ext, int *at)
{
    for (int i = 0; i < s->n; i++)
        at[i] = -1;
    if (!p->body || !p->absent.present || s->n <= 0)
        return;
    bool *det = xrealloc(NULL, (size_t)s->n * sizeof *det);
    int *bind = xrealloc(NULL, ((size_t)p->nregs + 1) * sizeof *bind);
    const Value **regs = xrealloc(NULL, ((size_t)p->nregs + 1) * sizeof *regs);
    interp_detect(p, s, ext, det);
    for (int i = 0; i < s->n; i++) {
        CanonMatch cm = {-1, bind};
        if (det[i] && interp_canonical(p, s, ext, i, &cm))
            at[i] = absent_of(p, s, ext, i, &cm, regs);
    }
    free(regs);
    free(bind);
    free(det);
}
