/* interp.c: the reference interpreter, checked pattern + stream -> detections.
 * For every start, the set of all outcomes of the regex, by structural recursion. */
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
    return (size_t)(h ^ (h >> 29));
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
    int                maxend;   /* current start: no end beyond this can satisfy the window */
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

static void detect_view(const AstPattern *p, const Stream *s, const ExternTable *ext, const int *idx, int n,
                        bool *det)
{
    Interp in = {0};
    in.p = p;
    in.ext = ext;
    in.values = s->values;
    in.nattrs = s->nattrs;
    in.idx = idx;
    in.n = n;
    in.nregs = p->nregs;
    in.width = 1 + p->nregs;
    in.regbuf = xrealloc(NULL, (size_t)p->nregs * sizeof *in.regbuf);
    in.scratch = xrealloc(NULL, (size_t)in.width * sizeof *in.scratch);
    if (p->hdr.policy == POLICY_STRICT)
        detect_strict(&in, det);
    else
        detect_policy(&in, det);
    free(in.regbuf);
    free(in.scratch);
}

static int64_t part_key(const AstPattern *p, const Stream *s, int k)
{
    int64_t v = s->values[(size_t)k * (size_t)s->nattrs + (size_t)p->partition_attr->index].i;
    return p->partition_attr->kind == ATTR_BOOL ? v != 0 : v;
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
            if (!taken[q] && part_key(p, s, q) == part_key(p, s, k)) {
                taken[q] = true;
                idx[m++] = q;
            }
        detect_view(p, s, ext, idx, m, det);
    }
    free(taken);
    free(idx);
}
