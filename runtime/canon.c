/* canon.c: a pattern's description + the window's events -> the canonical
 * match of a detection (docs/language.md 3.4): its start and bindings.
 * A backtracking parse in the order of Perl and Python's re, written with
 * continuations on the C stack: each construct offers its parses one by
 * one to the continuation that follows it, and the first parse that
 * reaches the end of the events is the canonical one. */
#include "sremrt/canon.h"

#include <stddef.h>

typedef struct Canon {
    const sremrt_canon_pat *p;
    sremrt_canon_io *io;
    int64_t steps;
    int32_t depth;            /* calls of parse and kont under way */
    int aborted;              /* the budget ran out: unwind */
} Canon;

typedef enum KontKind {
    K_END,     /* the parse must end at the detection */
    K_SEQ,     /* then node */
    K_REP,     /* an iteration of node ended: count done, it began at from */
    K_AND_L,   /* the left operand of node ended: must be at end, then the right from from */
    K_EXACT,   /* must be at end, then next */
    K_FOUND    /* a parse exists (for ~R): stop */
} KontKind;

typedef struct Kont {
    KontKind kind;
    int32_t node, count, from, end;
    const struct Kont *next;
} Kont;

static int parse(Canon *c, int32_t node, int32_t at, const Kont *k);

/* One more step of work; 0 once the budget is spent. */
static int spend(Canon *c)
{
    if (++c->steps > c->io->budget)
        c->aborted = 1;
    return !c->aborted;
}

/* A repetition after `count` iterations, at `at`: greedy, one more first;
 * an iteration beyond the minimum that matched empty ends it (Python). */
static int rep_next(Canon *c, int32_t node, int32_t count, int32_t from, int32_t at, const Kont *next);

static int kont_in(Canon *c, const Kont *k, int32_t at);

/* Each frame of the parse is a C call: deep ones give up like the budget
 * (a greedy `_*` over a long window recurses once or twice per event). */
static int kont(Canon *c, const Kont *k, int32_t at)
{
    if (++c->depth > SREMRT_CANON_MAX_DEPTH)
        c->aborted = 1;
    int ok = c->aborted || kont_in(c, k, at);
    c->depth--;
    return ok;
}

static int kont_in(Canon *c, const Kont *k, int32_t at)
{
    if (!spend(c))
        return 1;
    switch (k->kind) {
    case K_END:
        if (at != c->io->n)
            return 0;
        for (int32_t r = 0; r < c->p->nregs; r++)
            c->io->bind[r] = c->io->pos[r];
        return 1;
    case K_SEQ:
        return parse(c, k->node, at, k->next);
    case K_REP:
        return rep_next(c, k->node, k->count, k->from, at, k->next);
    case K_AND_L: {
        if (at != k->end)
            return 0;
        Kont right = {K_EXACT, 0, 0, 0, k->end, k->next};
        return parse(c, c->p->nodes[k->node].b, k->from, &right);
    }
    case K_EXACT:
        return at == k->end && kont(c, k->next, at);
    case K_FOUND:
        return 1;
    }
    return 0;
}

static int rep_next(Canon *c, int32_t node, int32_t count, int32_t from, int32_t at, const Kont *next)
{
    const sremrt_canon_node *r = &c->p->nodes[node];
    if (count > r->min && at == from)
        return kont(c, next, at);
    if (r->max < 0 || count < r->max) {
        Kont again = {K_REP, node, count + 1, at, 0, next};
        if (parse(c, r->a, at, &again) || c->aborted)
            return 1;
    }
    return count >= r->min && kont(c, next, at);
}

static int parse_atom(Canon *c, const sremrt_canon_node *a, int32_t at, const Kont *k)
{
    sremrt_canon_io *io = c->io;
    if (at >= io->n || (a->a >= 0 && !c->p->cond(a->a, io->ev[at], io->regs)))
        return 0;
    if (a->b < 0)
        return kont(c, k, at + 1);
    int32_t old = io->pos[a->b];
    const void *olde = io->regs[a->b];
    io->pos[a->b] = at;
    io->regs[a->b] = io->ev[at];
    int ok = kont(c, k, at + 1);
    if (!ok) {   /* on success the bindings were copied out already */
        io->pos[a->b] = old;
        io->regs[a->b] = olde;
    }
    return ok;
}

/* R & S: spans from the longest down; per span the parses of R, and for
 * each the parses of S over the same span. */
static int parse_and(Canon *c, int32_t node, int32_t at, const Kont *k)
{
    for (int32_t end = c->io->n; end >= at; end--) {
        Kont left = {K_AND_L, node, 0, at, end, k};
        if (parse(c, c->p->nodes[node].a, at, &left) || c->aborted)
            return 1;
    }
    return 0;
}

/* ~R: non-empty spans of at most w events, the longest first, that R does
 * not match (R writes no registers). */
static int parse_not(Canon *c, const sremrt_canon_node *r, int32_t at, const Kont *k)
{
    int32_t top = c->io->n - at < r->min ? c->io->n : at + r->min;
    for (int32_t end = top; end > at; end--) {
        Kont found = {K_FOUND, 0, 0, 0, 0, NULL};
        Kont exact = {K_EXACT, 0, 0, 0, end, &found};
        int matched = parse(c, r->a, at, &exact);
        if (c->aborted)
            return 1;
        if (!matched && kont(c, k, end))
            return 1;
        if (c->aborted)
            return 1;
    }
    return 0;
}

static int parse_in(Canon *c, int32_t node, int32_t at, const Kont *k);

static int parse(Canon *c, int32_t node, int32_t at, const Kont *k)
{
    if (++c->depth > SREMRT_CANON_MAX_DEPTH)
        c->aborted = 1;
    int ok = c->aborted || parse_in(c, node, at, k);
    c->depth--;
    return ok;
}

static int parse_in(Canon *c, int32_t node, int32_t at, const Kont *k)
{
    const sremrt_canon_node *r = &c->p->nodes[node];
    if (!spend(c))
        return 1;
    switch ((sremrt_canon_kind)r->kind) {
    case SREMRT_CN_ATOM:
        return parse_atom(c, r, at, k);
    case SREMRT_CN_SEQ: {
        Kont then = {K_SEQ, r->b, 0, 0, 0, k};
        return parse(c, r->a, at, &then);
    }
    case SREMRT_CN_ALT:
        return parse(c, r->a, at, k) || c->aborted || parse(c, r->b, at, k);
    case SREMRT_CN_AND:
        return parse_and(c, node, at, k);
    case SREMRT_CN_NOT:
        return parse_not(c, r, at, k);
    case SREMRT_CN_REP:
        if (r->min > 0 || r->max != 0) {
            Kont first = {K_REP, node, 1, at, 0, k};
            if (parse(c, r->a, at, &first) || c->aborted)
                return 1;
        }
        return r->min == 0 && kont(c, k, at);
    case SREMRT_CN_EMPTY:
        return kont(c, k, at);
    }
    return 0;
}

static void regs_clear(Canon *c)
{
    for (int32_t r = 0; r < c->p->nregs; r++) {
        c->io->pos[r] = -1;
        c->io->regs[r] = NULL;
    }
}

/* Takes chain atom `a` at position at: its condition, then its register. */
static int chain_take(Canon *c, int32_t a, int32_t at)
{
    const sremrt_canon_node *x = &c->p->nodes[c->p->chain[a]];
    sremrt_canon_io *io = c->io;
    if (x->a >= 0 && !c->p->cond(x->a, io->ev[at], io->regs))
        return 0;
    if (x->b >= 0) {
        io->pos[x->b] = at;
        io->regs[x->b] = io->ev[at];
    }
    return 1;
}

/* stam: chains through atoms a.. after prev, ending at n - 1, in
 * lexicographic order of their indices. */
static int stam_from(Canon *c, int32_t a, int32_t prev)
{
    sremrt_canon_io *io = c->io;
    int32_t last = io->n - 1;
    int32_t at = a == c->p->nchain - 1 ? last : prev + 1;   /* the last atom ends the chain at the detection */
    for (; at <= last && at > prev; at++) {
        if (!spend(c))
            return 1;
        int32_t r = c->p->nodes[c->p->chain[a]].b;
        int32_t old = r >= 0 ? io->pos[r] : -1;
        const void *olde = r >= 0 ? io->regs[r] : NULL;
        if (chain_take(c, a, at) && (a == c->p->nchain - 1 || stam_from(c, a + 1, at)))
            return 1;
        if (r >= 0) {
            io->pos[r] = old;
            io->regs[r] = olde;
        }
    }
    return 0;
}

/* stnm: the one chain from j1: each atom at the first event after the last. */
static int stnm_from(Canon *c, int32_t j1)
{
    int32_t at = j1;
    if (!chain_take(c, 0, at))
        return 0;
    for (int32_t a = 1; a < c->p->nchain; a++) {
        do {
            if (++at >= c->io->n || !spend(c))
                return 0;
        } while (!chain_take(c, a, at));
    }
    return at == c->io->n - 1;
}

static int from_start(Canon *c, int32_t j)
{
    regs_clear(c);
    switch ((sremrt_canon_policy)c->p->policy) {
    case SREMRT_CANON_STRICT: {
        Kont end = {K_END, 0, 0, 0, 0, NULL};
        return parse(c, c->p->root, j, &end);
    }
    case SREMRT_CANON_STNM:
        return stnm_from(c, j);
    case SREMRT_CANON_STAM:
        if (c->p->nchain == 1)
            return j == c->io->n - 1 && chain_take(c, 0, j);
        return chain_take(c, 0, j) && stam_from(c, 1, j);
    }
    return 0;
}

/* Starts hi down to lo, the first that parses (sremrt_canon_find). */
static int32_t find_in(const sremrt_canon_pat *p, sremrt_canon_io *io, int32_t hi, int32_t lo)
{
    Canon c = {p, io, 0, 0, 0};
    if (io->budget <= 0)
        io->budget = SREMRT_CANON_BUDGET;
    for (int32_t j = hi; j >= lo && j >= io->first && j >= 0; j--) {
        int ok = from_start(&c, j);
        if (c.aborted)
            break;
        if (ok) {
            if (p->policy != SREMRT_CANON_STRICT)
                for (int32_t r = 0; r < p->nregs; r++)
                    io->bind[r] = io->pos[r];
            return j;
        }
    }
    for (int32_t r = 0; r < p->nregs; r++)
        io->bind[r] = -1;
    return c.aborted ? -2 : -1;
}

int32_t sremrt_canon_find(const sremrt_canon_pat *p, sremrt_canon_io *io)
{
    return find_in(p, io, io->n - 1, 0);
}

int32_t sremrt_canon_at(const sremrt_canon_pat *p, sremrt_canon_io *io, int32_t j)
{
    return j < io->n ? find_in(p, io, j, j) : -1;
}
