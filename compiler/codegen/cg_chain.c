/* cg_chain.c: stam/stnm and gap-bounded chains (chain.h) -> straight-line steps over latest-position tags. */
#define _POSIX_C_SOURCE 200809L
#include "cg_impl.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- tdfa as chains --------------------------------------------------------------------- */

/* Condition of link r as a C expression: a call of its atom, or 1 for `_`. */
static void put_link(Cg *g, int i, const Chain *c, int r, FILE *out)
{
    if (c->links[r].cond)
        fprintf(out, "%s_p%d_c%d(e, NULL)", g->P, i, r);
    else
        fputs("1", out);
}

/* "to = mK ? from : to" as `to ^= (to ^ from) & -mK`: gcc turns a ?: here
 * into a branch, which mispredicts on unpredictable streams. */
static void put_select(FILE *out, int k, const char *to, const char *from)
{
    fprintf(out, "    %s ^= (%s ^ %s) & -(int64_t)m%d;\n", to, to, from, k);
}

/* Positions of a chain step start at 2^62 (the state's pos plus that), so
 * that 0, "none", is further from any of them than a window or gap can
 * reach, and the window and gap tests need no test of "none". */
#define CHAIN_BASE "(INT64_C(1) << 62)"
static const int64_t chain_reach = INT64_C(1) << 61;

static void put_step(Cg *g, int i, const Chain *c, bool st);

/* A chain (chain.h) as a step without a state: the tags l[r] (positions,
 * 0 = none) and, under a time window, t[r] (the timestamps of the same
 * starts), updated from the last link down by branch-free selects. */
void cg_emit_chain(Cg *g, int i, const Plan *plan)
{
    const Chain *c = plan->chain;
    const AstPattern *p = plan->pattern;
    FILE *out = g->code.f, *ty = g->types.f;
    const char *P = g->P;
    int n = c->n, T = n > 1 ? n - 1 : 1;
    bool time = c->window_kind == WIN_TIME && g->schema->ts_attr >= 0;
    static const char *const what[] = {"stam: latest start of a chain through atoms 1..r+1",
                                       "stnm: latest start of the chains waiting after atom r+1",
                                       "latest end of a match through atom r+1"};

    fprintf(ty, "/* Pattern %s: one substream's matcher state. */\ntypedef struct %s_p%d_st {\n", p->name, P, i);
    fputs("    int64_t pos;   /* events of the substream so far */\n", ty);
    fprintf(ty, "    int64_t l[%d];   /* per r, as 2^62 + position (0: none): %s */\n", T, what[c->kind]);
    if (time)
        fprintf(ty, "    int64_t t[%d];   /* per r: the timestamp of that start */\n", T);
    bool st = g->canon_tag_now == 1 && c->kind == CHAIN_GAPS;   /* start tags beside the end tags */
    if (st && n > 2)   /* l[0]'s is l[0] itself: a match of atom 1 starts where it ends */
        fprintf(ty, "    int64_t s[%d];   /* s[r-1]: the greatest start of a match ending at l[r] */\n", n - 2);
    /* a detection's start (cg_canon.c): this field before the step, which
     * the caller reads (no copy in the step: B1 and B2 pay per event) */
    snprintf(g->tag_field, sizeof g->tag_field, "%s[%d]", st && n > 2 ? "s" : "l", st && n > 2 ? n - 3 : n - 2);
    fprintf(ty, "} %s_p%d_st;\n\n", P, i);

    fprintf(out, "/* Chain layout: %d atoms, one tag each (chain.h); no automaton state. */\n", n);
    char name[CG_NAME_MAX];
    for (int r = 0; r < n; r++)
        if (c->links[r].cond) {
            snprintf(name, sizeof name, "%s_p%d_c%d", P, i, r);
            fprintf(out, "/* atom %d */\n", r + 1);
            cg_emit_cond_fn(out, P, name, "const void *s", c->links[r].cond, REG_NONE, NULL, 1);
        }
    /* a 3-atom gap chain's callers keep its one start tag s[0] (cg_emit.c:
     * push a select per event, the batched push_many l[0] before each
     * event in an array, s[0] set once per block): not a select in the
     * step on every event, which cost B2 4 instructions of about 40 */
    g->tag_la = st && n == 3;
    put_step(g, i, c, st && !g->tag_la);
}

/* The step of chain c (st: with its start tags s). */
static void put_step(Cg *g, int i, const Chain *c, bool st)
{
    FILE *out = g->code.f;
    const char *P = g->P;
    int n = c->n;
    bool time = c->window_kind == WIN_TIME && g->schema->ts_attr >= 0;
    fprintf(out, "/* One event of the substream: 1 on a detection%s. */\n"
                 "static inline int %s_p%d_step(%s_p%d_st *s, const %s_event *e)\n{\n"
                 "    int64_t now = ++s->pos + " CHAIN_BASE ";\n",
            g->tag_la ? " (s[0] is the caller's)" : "", P, i, P, i, P);
    if (time) {
        fputs("    int64_t ts = e->", out);
        cg_put_field(out, &g->schema->attrs[g->schema->ts_attr]);
        fputs(";\n", out);
    }
    bool reads = false;   /* some atom reads the event (else e goes unused) */
    for (int r = 0; r < n; r++) {
        fprintf(out, "    int c%d = ", r);
        put_link(g, i, c, r, out);
        fputs(";\n", out);
        reads |= c->links[r].cond != NULL;
    }
    if (!reads && !time)
        fputs("    (void)e;\n", out);
    for (int r = 0; r + 1 < n; r++) {
        fprintf(out, "    int64_t l%d = s->l[%d];\n", r, r);
        if (time)
            fprintf(out, "    int64_t t%d = s->t[%d];\n", r, r);
    }
    for (int r = 1; st && r + 1 < n; r++)
        fprintf(out, "    int64_t s%d = s->s[%d];\n", r, r - 1);
    if (n == 1) {
        fprintf(out, "    (void)now;\n%s    return c0;\n}\n\n", time ? "    (void)ts;\n" : "");
        return;
    }
    /* the detection: the last atom after the latest chain (or match)
     * through the others, inside the window (or the gap: at most k events
     * between, so now - l <= k + 1, as l < now) */
    int L = n - 2;
    fprintf(out, "    int hit = c%d", n - 1);
    if (c->kind == CHAIN_GAPS) {
        if (c->links[n - 1].gap >= 0)   /* 0 is then out of reach */
            fprintf(out, " & ((uint64_t)(now - l%d) <= (uint64_t)INT64_C(%" PRId64 "))", L,
                    c->links[n - 1].gap + 1);
        else
            fprintf(out, " & (l%d != 0)", L);
    } else if (time) {
        fprintf(out, " & (l%d != 0) & ((uint64_t)ts - (uint64_t)t%d <= (uint64_t)INT64_C(%" PRId64 "))", L, L,
                c->window);
    } else if (c->window_kind == WIN_EVENTS && c->window < chain_reach) {
        fprintf(out, " & ((uint64_t)(now - l%d) < (uint64_t)INT64_C(%" PRId64 "))", L, c->window);
    } else {   /* no window, or one beyond any stream */
        fprintf(out, " & (l%d != 0)", L);
    }
    fputs(";\n", out);
    if (c->kind == CHAIN_STNM)   /* the chains after atom m-1 are done */
        fprintf(out, "    l%d &= (int64_t)c%d - 1;\n", L, n - 1);
    for (int r = n - 2; r >= 1; r--) {
        fprintf(out, "    int m%d = c%d", r, r);
        if (c->kind == CHAIN_STNM || (c->kind == CHAIN_GAPS && c->links[r].gap < 0))
            fprintf(out, " & (l%d != 0)", r - 1);
        else if (c->kind == CHAIN_GAPS)
            fprintf(out, " & ((uint64_t)(now - l%d) <= (uint64_t)INT64_C(%" PRId64 "))", r - 1,
                    c->links[r].gap + 1);
        fputs(";\n", out);
        char lr[16], lq[16];
        snprintf(lr, sizeof lr, "l%d", r);
        snprintf(lq, sizeof lq, "l%d", r - 1);
        put_select(out, r, lr, c->kind == CHAIN_GAPS ? "now" : lq);
        if (time) {
            snprintf(lr, sizeof lr, "t%d", r);
            snprintf(lq, sizeof lq, "t%d", r - 1);
            put_select(out, r, lr, lq);
        }
        if (st) {   /* the greatest start grows with the end (cg_canon.c); s0 would be l0 */
            snprintf(lr, sizeof lr, "s%d", r);
            snprintf(lq, sizeof lq, "%s%d", r > 1 ? "s" : "l", r - 1);
            put_select(out, r, lr, lq);
        }
        if (c->kind == CHAIN_STNM)
            fprintf(out, "    l%d &= (int64_t)c%d - 1;\n", r - 1, r);
    }
    fputs("    int m0 = c0;\n", out);
    put_select(out, 0, "l0", "now");
    if (time)
        put_select(out, 0, "t0", "ts");
    for (int r = 0; r + 1 < n; r++) {
        if (st && r > 0)
            fprintf(out, "    s->s[%d] = s%d;\n", r - 1, r);
        fprintf(out, "    s->l[%d] = l%d;\n", r, r);
        if (time)
            fprintf(out, "    s->t[%d] = t%d;\n", r, r);
    }
    fputs("    return hit;\n}\n\n", out);
}

/* Whether tag r of c (l[r], t[r] read as C operands) can give no
 * detection any more from the next event on (`next`, its position as a
 * tag): out of the window, or of the gap of the link that reads it (an
 * unbounded gap or no window: only "none" is out). A tag moves only by
 * copies of another, so a dead one stays dead. */
static bool dead_reads_next(const Chain *c, int r, bool time)
{
    if (c->kind == CHAIN_GAPS)
        return c->links[r + 1].gap >= 0;
    return !time && c->window_kind == WIN_EVENTS && c->window < chain_reach;
}

static void put_dead(FILE *out, const Chain *c, int r, bool time)
{
    int64_t gap = c->links[r + 1].gap;
    if (c->kind == CHAIN_GAPS && gap >= 0)
        fprintf(out, "((uint64_t)(next - s->l[%d]) > (uint64_t)INT64_C(%" PRId64 "))", r, gap + 1);
    else if (c->kind != CHAIN_GAPS && time)
        fprintf(out, "((s->l[%d] == 0) | ((uint64_t)last - (uint64_t)s->t[%d] > (uint64_t)INT64_C(%" PRId64 ")))", r,
                r, c->window);
    else if (c->kind != CHAIN_GAPS && c->window_kind == WIN_EVENTS && c->window < chain_reach)
        fprintf(out, "((uint64_t)(next - s->l[%d]) >= (uint64_t)INT64_C(%" PRId64 "))", r, c->window);
    else
        fprintf(out, "(s->l[%d] == 0)", r);
}

/* P_pI_idle(s[, last]): 1 when no tag can detect any more, so that only
 * an event where atom 1 holds matters (the skip of cg_accel.c); last is
 * the timestamp of the last event, under a time window. */
void cg_emit_chain_idle(Cg *g, int i, const Chain *c)
{
    FILE *out = g->code.f;
    bool time = c->window_kind == WIN_TIME && g->schema->ts_attr >= 0;
    fprintf(out, "/* Whether no tag can give a detection any more (acceleration). */\n"
                 "static inline int %s_p%d_idle(const %s_p%d_st *s%s)\n{\n",
            g->P, i, g->P, i, time ? ", int64_t last" : "");
    if (c->n == 1) {
        fprintf(out, "    (void)s;\n%s    return 1;\n}\n\n", time ? "    (void)last;\n" : "");
        return;
    }
    bool next = false;
    for (int r = 0; r + 1 < c->n; r++)
        next |= dead_reads_next(c, r, time);
    if (next)
        fputs("    int64_t next = s->pos + 1 + " CHAIN_BASE ";\n", out);
    fputs("    return ", out);
    for (int r = 0; r + 1 < c->n; r++) {
        fputs(r ? "\n        & " : "", out);
        put_dead(out, c, r, time);
    }
    fputs(";\n}\n\n", out);
}

/* The statement at the top of a batched push_many's block: an idle chain
 * skips to the next event where atom 1 holds (st: its state, a local). */
void cg_put_chain_skip(Cg *g, int i, const Chain *c, FILE *out, const char *st)
{
    bool time = c->window_kind == WIN_TIME && g->schema->ts_attr >= 0;
    fprintf(out, "        if (%s_p%d_idle(&%s%s)) {   /* acceleration */\n"
                 "            done = %s_p%d_skip0(m, &%s, events, done, n);\n"
                 "            if (done == n)\n                break;\n        }\n",
            g->P, i, st, time ? ", m->order.last" : "", g->P, i, st);
}
