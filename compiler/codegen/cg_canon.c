/* cg_canon.c: a pattern's regex -> the static description of it that the
 * runtime's replay walks (runtime/canon.c), the condition of each atom with
 * registers given as events, and the code that fills a match record's start
 * and bindings from the events of the window (docs/codegen.md, "Start and
 * bindings"). */
#define _POSIX_C_SOURCE 200809L
#include "cg_impl.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sremrt/canon.h"

typedef struct Nodes {
    sremrt_canon_node *v;
    int n, cap;
    int32_t chain[EXPLORE_MAX_LENGTH * 4];
    int nchain;
} Nodes;

static int32_t add_node(Nodes *ns, int32_t kind, int32_t a, int32_t b, int32_t min, int32_t max)
{
    if (ns->n == ns->cap) {
        ns->cap = ns->cap ? 2 * ns->cap : 16;
        ns->v = realloc(ns->v, (size_t)ns->cap * sizeof *ns->v);
        if (!ns->v)
            abort();
    }
    ns->v[ns->n] = (sremrt_canon_node){kind, a, b, min, max};
    return ns->n++;
}

static int32_t clamp32(int64_t v) { return v > INT32_MAX ? INT32_MAX : (int32_t)v; }

static int32_t build(Nodes *ns, const AstRegex *r, int64_t window);

/* kids[from..) of a flattened operator, nested to the right: the order of
 * the parses is that of the n-ary operator. */
static int32_t build_fold(Nodes *ns, const AstRegex *r, int from, int32_t kind, int64_t window)
{
    int32_t left = build(ns, r->kids[from], window);
    if (from == r->nkids - 1)
        return left;
    int32_t right = build_fold(ns, r, from + 1, kind, window);
    return add_node(ns, kind, left, right, 0, 0);
}

static int32_t build(Nodes *ns, const AstRegex *r, int64_t window)
{
    switch (r->kind) {
    case RX_ATOM: {
        bool any = r->atom == ATOM_ANY || !r->cond;
        if (ns->nchain < (int)(sizeof ns->chain / sizeof ns->chain[0]))
            ns->chain[ns->nchain] = ns->n;
        ns->nchain++;
        return add_node(ns, SREMRT_CN_ATOM, any ? -1 : r->position - 1, r->reg, 0, 0);
    }
    case RX_SEQ:
        return build_fold(ns, r, 0, SREMRT_CN_SEQ, window);
    case RX_ALT:
        return build_fold(ns, r, 0, SREMRT_CN_ALT, window);
    case RX_AND:
        return build_fold(ns, r, 0, SREMRT_CN_AND, window);
    case RX_NOT:
        return add_node(ns, SREMRT_CN_NOT, build(ns, r->kids[0], window), -1, clamp32(window), 0);
    case RX_STAR:
        return add_node(ns, SREMRT_CN_REP, build(ns, r->kids[0], window), -1, 0, -1);
    case RX_PLUS:
        return add_node(ns, SREMRT_CN_REP, build(ns, r->kids[0], window), -1, 1, -1);
    case RX_OPT:
        return add_node(ns, SREMRT_CN_REP, build(ns, r->kids[0], window), -1, 0, 1);
    case RX_REPEAT:
        return add_node(ns, SREMRT_CN_REP, build(ns, r->kids[0], window), -1, clamp32(r->min),
                        r->max < 0 ? -1 : clamp32(r->max));
    }
    return add_node(ns, SREMRT_CN_EMPTY, -1, -1, 0, 0);
}

/* Every atom of r with a condition, by position (what P_pI_cc switches on). */
static void collect_atoms(const AstRegex *r, const AstRegex **atoms)
{
    if (r->kind == RX_ATOM) {
        atoms[r->position - 1] = r;
        return;
    }
    for (int k = 0; k < r->nkids; k++)
        collect_atoms(r->kids[k], atoms);
}

/* The most events a match of r spans, or -1 when unbounded (a star, a
 * complement, an unbounded repeat of something non-empty). */
static int64_t longest(const AstRegex *r)
{
    int64_t n = 0, k;
    switch (r->kind) {
    case RX_ATOM:
        return 1;
    case RX_SEQ:
    case RX_ALT:
        for (int i = 0; i < r->nkids; i++) {
            if ((k = longest(r->kids[i])) < 0)
                return -1;
            n = r->kind == RX_SEQ ? n + k : k > n ? k : n;
            if (n > CG_CANON_KEEP_MAX)
                return -1;   /* too long to matter */
        }
        return n;
    case RX_AND:   /* a span both match: as long as the shortest bound */
        n = -1;
        for (int i = 0; i < r->nkids; i++)
            if ((k = longest(r->kids[i])) >= 0 && (n < 0 || k < n))
                n = k;
        return n;
    case RX_NOT:
        return -1;
    case RX_OPT:
        return longest(r->kids[0]);
    case RX_STAR:
    case RX_PLUS:
        return longest(r->kids[0]) == 0 ? 0 : -1;
    case RX_REPEAT:
        if ((k = longest(r->kids[0])) <= 0)
            return k;
        return r->max < 0 || r->max > CG_CANON_KEEP_MAX / k ? -1 : k * r->max;
    }
    return -1;
}

/* Events a replay of p looks back at: its count window up to
 * CG_CANON_KEEP_MAX, else (time window, or none) CG_CANON_KEEP
 * (CG_CANON_KEEP_FW with --freestanding); a start further back is unknown.
 * A strict pattern whose matches are at most L events long needs only L,
 * rounded up to a power of two (`x:Placed Paid` two, not 256 per key). */
static int64_t canon_keep(const Cg *g, const AstPattern *p)
{
    int64_t keep, L = p->hdr.policy == POLICY_STRICT ? longest(p->body) : -1;
    if (p->hdr.window.kind != WIN_EVENTS)   /* firmware: RAM is dear, per key above all */
        keep = g->o->freestanding ? CG_CANON_KEEP_FW : CG_CANON_KEEP;
    else
        keep = p->hdr.window.value < CG_CANON_KEEP_MAX ? p->hdr.window.value : CG_CANON_KEEP_MAX;
    int64_t pow2 = 1;   /* a power of two: the rings' `% keep` is a mask */
    while (L >= 1 && pow2 < L)
        pow2 *= 2;
    return L >= 1 && pow2 < keep ? pow2 : keep;
}

/* The shared ring for p: keep, or for an unpartitioned gap chain whose
 * start is its tag (mode 1) and whose matches span more than that, up to
 * CG_CANON_KEEP_MAX events (hosted code), the span rounded up to a power
 * of two: its start events are then always at hand, so its batched
 * records need no test (cg_emit.c, put_tag_start), and it costs no copy
 * per call, since push_many copies into the ring only the events its
 * tags point at (hist_tag) when every start is a tag (B2 at w = 1,000:
 * 2,048 events, not 256). */
static int64_t tag_ring(const Cg *g, const AstPattern *p, const Chain *c, int64_t keep)
{
    int64_t span = c ? chain_span(c) : -1, pow2 = 1;
    if (g->canon_tag_now != 1 || p->partition_attr || g->o->freestanding || span <= keep ||
        span > CG_CANON_KEEP_MAX)
        return keep;
    while (pow2 < span)
        pow2 *= 2;
    return pow2;
}

/* Whether a pattern of start mode tag (canon_tag) reads the events the
 * ring keeps: the replay, a scan, a dsra's back, the runs' start (its start event and
 * bindings); a chain's tag and a one-atom pattern only their own. */
static bool reads_ring(int tag) { return tag == 0 || tag >= 3; }

/* Whether the shared ring grows to keep p's window (hosted, time window,
 * unpartitioned, start found by a replay or the runs): then a start is
 * never too far back. A chain whose tag gives the start needs no events. */
static bool grows(const Cg *g, const AstPattern *p, int tag)
{
    return !g->o->freestanding && !p->partition_attr && p->hdr.window.kind == WIN_TIME &&
           g->schema->ts_attr >= 0 && (tag == 0 || tag >= 5);
}

bool cg_canon_on(const Cg *g) { return g->canon_any; }

/* Where an unpartitioned chain without labels has its start already: the
 * tag of atom m-1 at the detection is the latest first index of a chain
 * through atoms 1..m-1 (stam), of the chains waiting for atom m (stnm):
 * the greatest j_1 of language.md 3.4 (chain.c's top comment says why the
 * latest is enough). A gap chain keeps, beside each end tag l[r], s[r],
 * the greatest start of a match of the prefix ending at l[r]: the greatest
 * start of a prefix match never decreases with its end (a gap `_{0,k}`
 * skips any events: the end q of the prefix before, for a later end,
 * either is in reach of it too or is followed by a later valid end q',
 * whose start is no smaller by induction), so the latest end carries the
 * greatest start (the first atom's match starts at its end: l[0] is its
 * own start, no s[0]). 1: that tag, 2: one atom, the event itself; 0: the
 * replay. What B1 and B2 cost: the tag read before the step and stored
 * beside its result (and for a gap chain a select per atom after the
 * second, or for B2's three atoms a store of l[0]: cg_emit.c, put_la) per
 * event, no replay. */
int cg_canon_scan_mode(const Plan *plan)
{
    const Chain *c = plan->chain;
    if (plan->strategy == STRATEGY_RUNS || plan->pattern->partition_attr || plan->pattern->nregs > 0 || !c)
        return 0;
    if (c->kind != CHAIN_GAPS)   /* stam, stnm: every event of the window is kept */
        return c->window_kind != WIN_EVENTS || c->window > CG_CANON_KEEP_MAX ? 0 : c->n == 1 ? 2 : 3;
    int64_t span = chain_span(c);
    if (plan->strategy != STRATEGY_TDFA)
        return 0;
    return span < 1 || span > CHAIN_SCAN_MAX ? 0 : c->n == 1 ? 2 : 3;
}

/* How put_scan_body reads the events: ev, the event at distance d (a
 * printf format taking d's name); far, the greatest distance there is an
 * event at (NULL: the span's); ret, what a start at distance d returns
 * (scan_in: its event, from which the caller has both). */
typedef struct ScanAccess {
    const char *ev, *far, *ret, *none;   /* none: what it returns when no start is found */
} ScanAccess;

/* A gap chain's part of one step of the scan's full pass, on event e at
 * distance d; nR is near[R]'s distance. */
static void put_scan_gap_atoms(Cg *g, int i, const Chain *c, const ScanAccess *x)
{
    FILE *out = g->canon.f;
    for (int r = 0; r + 1 < c->n; r++) {
        fprintf(out, "        if (d - n%d <= %" PRId64, r + 1, c->links[r + 1].gap + 1);
        if (c->links[r].cond)
            fprintf(out, " && %s_p%d_sc%d(e, NULL)", g->P, i, r);
        if (r == 0)
            fprintf(out, ")\n            return %s;\n", x->ret);
        else
            fprintf(out, ")\n            n%d = d;\n", r);
    }
}

/* Atom r's test on e in a stam/stnm scan step, after "if (" and the
 * conditions before it: " && " and the test, or nothing for `_`. */
static void put_scan_atom(Cg *g, int i, const Chain *c, int r, bool first)
{
    if (c->links[r].cond)
        fprintf(g->canon.f, "%s%s_p%d_sc%d(e, NULL)", first ? "" : " && ", g->P, i, r);
    else if (first)
        fputs("1", g->canon.f);
}

static void put_scan_stam(Cg *g, int i, const Chain *c)
{
    FILE *out = g->canon.f;
    bool stnm = c->kind == CHAIN_STNM;
    int m = c->n;
    for (int r = 0; r < m; r++) {
        bool last = r + 1 == m;   /* stam's ok(m-1) stays 1: i is after every p */
        if (last && !stnm)
            break;
        fputs("        if (", out);
        bool first = true;
        if (!stnm && r + 2 < m) {   /* stam: ok(m-1) is 1 */
            fprintf(out, "ok%d", r + 1);
            first = false;
        } else if (stnm && r == 0) {
            fputs("ok1", out);
            first = false;
        }
        put_scan_atom(g, i, c, r, first);
        if (r == 0)
            fputs(")\n            return p;\n", out);
        else if (!stnm)
            fprintf(out, ")\n            ok%d = 1;\n", r);
        else if (!last)
            fprintf(out, ")\n            ok%d = ok%d;\n", r, r + 1);
        else
            fprintf(out, ")\n            ok%d = 0;\n", r);
    }
}

/* The rest of one step of a scan's loop, on event e: a gap chain's
 * (x: how its scan reads the events) or a stam/stnm chain's (x NULL). */
static void put_scan_step(Cg *g, int i, const Chain *c, bool reads, const ScanAccess *x)
{
    FILE *out = g->canon.f;
    if (!reads)
        fputs("        (void)e;\n", out);
    if (x)
        put_scan_gap_atoms(g, i, c, x);
    else
        put_scan_stam(g, i, c);
    fputs("    }\n", out);
}

/* Atom r's test on the event at distance d (name dn) of a scan,
 * negated: "!" and the test, or "!1" for `_`. */
static void put_scan_not(Cg *g, int i, const Chain *c, int r, const char *dn, const ScanAccess *x)
{
    FILE *out = g->canon.f;
    if (!c->links[r].cond) {
        fputs("!1", out);
        return;
    }
    fprintf(out, "!%s_p%d_sc%d(", g->P, i, r);
    fprintf(out, x->ev, dn);
    fputs(", NULL)", out);
}

/* The scan's first try: from i back, the latest place of atom m-1 in
 * reach, then of atom m-2 in reach of that, down to atom 1. When each is
 * found, this chain's start is the greatest: for any match q_1 < .. <
 * q_m = i, by induction from the top, the greedy place of atom r is at
 * least q_r (q_r is in its reach, or before it). One test an event, no
 * bookkeeping. When an atom below m-1 has no place in reach (the latest
 * place of a later atom need not be in a match), the full pass goes on
 * from atom m-1's place: nothing after it can be part of a match's atoms
 * 1..m-2, so the pass's state there is its distance in n(m-2). */
static void put_scan_greedy(Cg *g, int i, const Chain *c, const ScanAccess *x)
{
    FILE *out = g->canon.f;
    int m = c->n, depth = 1;
    for (int r = m - 2; r >= 0; r--, depth++) {
        fprintf(out, "%*st = d + %" PRId64 ";\n", 4 * depth, "", c->links[r + 1].gap + 1);
        if (x->far)   /* no event before the stream's first */
            fprintf(out, "%*st = t < %s ? t : %s;\n", 4 * depth, "", x->far, x->far);
        if (c->links[r].cond) {   /* the latest place of atom r + 1 within t */
            fprintf(out, "%*sfor (d++; d <= t && ", 4 * depth, "");
            put_scan_not(g, i, c, r, "d", x);
            fprintf(out, "; d++) {\n%*s}\n", 4 * depth, "");
        } else {   /* `_`: the event just before */
            fprintf(out, "%*sd++;\n", 4 * depth, "");
        }
        fprintf(out, "%*sif (d <= t) {\n", 4 * depth, "");
        if (r == m - 2 && r > 0)
            fprintf(out, "%*sf = d + 1;   /* should a later atom fail */\n%*sn%d = d;\n", 4 * depth + 4, "",
                    4 * depth + 4, "", r);
    }
    fprintf(out, "%*sreturn %s;\n", 4 * depth, "", x->ret);
    for (depth--; depth >= 1; depth--)
        fprintf(out, "%*s}\n", 4 * depth, "");
}

/* Events a mask scan covers: one bit each in a uint32_t. */
enum { SCAN_MASK_BITS = 31 };

/* Where the compiler vectorises them (AVX2), scan_in of a three-atom
 * chain A G_1 B G_2 C tests A and B on each of the span's events before
 * the detection, a bit each, with no branch: the bits of the Bs in
 * reach, shifted down by 1 .. G_1 + 1 (doubling), are the places an A
 * may take, and the highest such A is the start (the nearest A in reach
 * of any B in reach, as the loops below find it). The loops' exits
 * depend on the data and mispredict (B2 at w = 10: about 2.3 a record,
 * most of its time over 59a9776); this costs more instructions (about
 * 60 a record against 36) and no mispredictions. Without AVX2 gcc does
 * not vectorise the tests well, so the loops stay. */
static void put_scan_masks(Cg *g, int i, const Chain *c)
{
    FILE *out = g->canon.f;
    int64_t n = chain_span(c) - 1, reach = c->links[1].gap + 1, cover = 1;
    fprintf(out, "#if defined(__AVX2__) && defined(__GNUC__)\n"
                 "    const %s_event *e = a - %" PRId64 ";   /* bit j: e[j] */\n"
                 "    uint32_t ma = 0, mb = 0, r;\n"
                 "    int j;\n"
                 "    for (j = 0; j < %" PRId64 "; j++)   /* an A has a B after it */\n"
                 "        ma |= (uint32_t)%s_p%d_sc0(&e[j], NULL) << j;\n"
                 "    for (j = %" PRId64 "; j < %" PRId64 "; j++)   /* the Bs in reach of a[0] */\n"
                 "        mb |= (uint32_t)%s_p%d_sc1(&e[j], NULL) << j;\n"
                 "    r = mb >> 1;\n",
            g->P, n, n - 1, g->P, i, n - (c->links[2].gap + 1), n, g->P, i);
    for (; 2 * cover <= reach; cover *= 2)
        fprintf(out, "    r |= r >> %" PRId64 ";\n", cover);
    if (cover < reach)
        fprintf(out, "    r |= r >> %" PRId64 ";\n", reach - cover);
    fputs("    r &= ma;   /* the places of an A in reach of a B in reach */\n"
          "    return r ? &e[31 - __builtin_clz(r)] : a;   /* a: not reached */\n"
          "#else\n", out);
}

/* The scan of a three-atom chain A G_1 B G_2 C (B2): the places of B in
 * reach of the detection, latest first, each with the first A in reach
 * of it. The start is the nearest A in reach of any of them; the reach
 * of a later B (farther back) ends farther back, and the events up to
 * hi, in reach of a nearer one, hold no A, so each B's search starts
 * after both hi and the B: every event is tested at most once for each
 * atom (the general scan's full pass tests again, from the failed B on,
 * what the greedy try saw). The first A found is the nearest: one nearer
 * in a later B's reach would be in this B's reach too. */
static void put_scan_three(Cg *g, int i, const Chain *c, const ScanAccess *x)
{
    FILE *out = g->canon.f;
    int64_t g1 = c->links[1].gap + 1, g2 = c->links[2].gap + 1;
    bool masks = !x->far && chain_span(c) > 1 && c->links[0].cond && c->links[1].cond && chain_span(c) - 1 <= SCAN_MASK_BITS;
    char far[CG_NAME_MAX + 32];
    if (masks)
        put_scan_masks(g, i, c);
    snprintf(far, sizeof far, "%s%s", x->far ? " && nb <= " : "", x->far ? x->far : "");
    fprintf(out, "    int64_t d, t, nb, hi%s;\n", x->far ? ", j" : "");
    fprintf(out, "    for (nb = 1; nb <= %" PRId64 "%s && ", g2, far);
    put_scan_not(g, i, c, 1, "nb", x);
    /* the latest B's reach by j from 1: a loop of known length, unrolled
       without a bound test per event */
    fputs("; nb++) {\n    }\n", out);
    if (!x->far) {   /* scan_in: each event a constant offset of the B, one test and return each */
        fprintf(out, "    const %s_event *b = &a[-nb];\n", g->P);
        for (int64_t j = 1; j <= g1; j++) {
            if (c->links[0].cond)
                fprintf(out, "    if (%s_p%d_sc0(&b[-%" PRId64 "], NULL))\n", g->P, i, j);
            fprintf(out, "%sreturn &b[-%" PRId64 "];\n", c->links[0].cond ? "        " : "    ", j);
            if (!c->links[0].cond)
                break;
        }
        fprintf(out, "    hi = nb + %" PRId64 ";\n", g1);
    } else {
        fprintf(out, "    for (j = 1; j <= %" PRId64 " && nb + j <= %s && ", g1, x->far);
        put_scan_not(g, i, c, 0, "(nb + j)", x);
        fprintf(out, "; j++) {\n    }\n"
                     "    d = nb + j;\n"
                     "    if (j <= %" PRId64 " && d <= %s)\n        return %s;\n"
                     "    hi = d - 1;\n", g1, x->far, x->ret);
    }
    fprintf(out, "    for (nb++; nb <= %" PRId64 "%s && ", g2, far);
    put_scan_not(g, i, c, 1, "nb", x);
    fprintf(out, "; nb++) {\n    }\n"
                 "    while (nb <= %" PRId64 "%s) {   /* the earlier Bs, rarely */\n"
                 "        t = nb + %" PRId64 ";\n", g2, far, g1);
    if (x->far)   /* no event before the stream's first */
        fprintf(out, "        t = t < %s ? t : %s;\n", x->far, x->far);
    fputs("        for (d = (hi > nb ? hi : nb) + 1; d <= t && ", out);   /* A after this B */
    put_scan_not(g, i, c, 0, "d", x);
    fprintf(out, "; d++) {\n        }\n"
                 "        if (d <= t)\n            return %s;\n"
                 "        hi = t;\n"
                 "        for (nb++; nb <= %" PRId64 "%s && ", x->ret, g2, far);
    put_scan_not(g, i, c, 1, "nb", x);
    fprintf(out, "; nb++) {\n        }\n    }\n"
                 "    return %s;   /* not reached: a detection has a start in reach */\n%s}\n\n", x->none,
            masks ? "#endif\n" : "");
}

/* The scan, in distances d back from the detection at i: the greedy try,
 * then the full pass from where it left off (three atoms: put_scan_three). */
static void put_scan_body(Cg *g, int i, const Chain *c, bool reads, const ScanAccess *x)
{
    FILE *out = g->canon.f;
    if (c->n == 3) {
        put_scan_three(g, i, c, x);
        return;
    }
    fputs("    int64_t d = 0, t, f = 1", out);
    for (int r = 1; r < c->n; r++)   /* -64: none in reach */
        fprintf(out, r + 1 < c->n ? ", n%d = -%d" : ", n%d = 0", r, 2 * CHAIN_SCAN_MAX);
    fputs(";\n", out);
    put_scan_greedy(g, i, c, x);
    fprintf(out, "    for (d = f; d < %" PRId64 "%s%s; d++) {\n        const %s_event *e = ", chain_span(c),
            x->far ? " && d <= " : "", x->far ? x->far : "", g->P);
    fprintf(out, x->ev, "d");
    fputs(";\n", out);
    put_scan_step(g, i, c, reads, x);
    fprintf(out, "    return %s;   /* not reached: a detection has a start in reach */\n}\n\n", x->none);
}

/* Pattern i's start at a detection at m->index: the greatest j such that
 * events j..i match its gap chain A_1 G_1 .. A_m (mode 3,
 * cg_canon_scan_mode). Backwards from i - 1, near[r] is the nearest
 * position after p where A_(r+1) .. A_m can match up to i (near[m-1] =
 * i): p can take atom r when A_r holds there and near[r+1] is within gap
 * G_r + 1 of it, and the nearest is the best such place, since every one
 * seen is after p. The first p atom 1 can take is the greatest start.
 * A few instructions an event, over the at most CHAIN_SCAN_MAX events of
 * a match, at detections only (the ring keeps them: canon_keep).
 * P_pI_scan_in does it on an array that holds the span (push_many's,
 * mostly: the batched records call it, B2 at w = 10), P_pI_scan on the
 * call's events and the ring. */
static void put_scan_gaps(Cg *g, int i, const char *name_of, const Chain *c)
{
    FILE *out = g->canon.f;
    const char *P = g->P;
    char name[CG_NAME_MAX], ev[CG_NAME_MAX + 32];
    int64_t L = chain_span(c);
    bool reads = false;
    for (int r = 0; r + 1 < c->n; r++)
        if (c->links[r].cond) {
            snprintf(name, sizeof name, "%s_p%d_sc%d", P, i, r);
            cg_emit_cond_fn(out, P, name, "const void *s", c->links[r].cond, REG_NONE, NULL, 1);
            reads = true;
        }
    fprintf(out, "/* Pattern %s's start event for a detection at a[0], whose last %" PRId64 "\n"
                 " * events a holds (cg_canon.c, put_scan). Not inlined: in push_many's\n"
                 " * loop its registers cost the step two instructions an event (B2). */\n"
                 "static %s_SCAN_NOINLINE const %s_event *%s_p%d_scan_in(const %s_event *a)\n{\n",
            name_of, L, P, P, P, i, P);
    ScanAccess in = {"&a[-%s]", NULL, "&a[-d]", "a"};
    put_scan_body(g, i, c, reads, &in);
    fprintf(out, "/* Pattern %s's start at a detection at m->index: scan_in when the\n"
                 " * call's array holds its last %" PRId64 " events, else through hist_at. */\n"
                 "static %s_SCAN_NOINLINE int64_t %s_p%d_scan(const %s_matcher *m)\n{\n"
                 "    const int64_t i = m->index;\n"
                 "    if (i - %" PRId64 " >= m->cur_base) {\n"
                 "        const %s_event *a = m->cur + (i - m->cur_base);\n"
                 "        return i - (a - %s_p%d_scan_in(a));\n"
                 "    }\n",
            name_of, L, P, P, i, P, L - 1, P, P, i);
    if (cg_canon_linear(g))   /* the call's first events follow the ring's (hist_open) */
        fprintf(out, "    if (i - %" PRId64 " >= 1) {   /* else the stream's first events: no event before 1 */\n"
                     "        const %s_event *a = &m->hist[i - m->hist_o];\n"
                     "        return i - (a - %s_p%d_scan_in(a));\n"
                     "    }\n",
                L - 1, P, P, i);
    snprintf(ev, sizeof ev, "%s_hist_at(m, i - %%s)", P);
    ScanAccess ring = {ev, "i - 1", "i - d", "0"};
    put_scan_body(g, i, c, reads, &ring);
}

/* Pattern i's start at a detection at m->index, for a stam or stnm chain
 * A_1 .. A_m within w events (language.md 3.3, mode 3): the greatest j_1
 * of a chain j_1 < .. < j_m = i, by one backward pass over the last w
 * events, at detections only (the ring keeps them: canon_keep). Call p
 * valid for atom r when some chain from p through A_r .. A_m ends at i
 * with A_r at p (valid for A_m: i alone). Then p is valid for A_r, r < m,
 * iff A_r holds at p and
 *   stam: some q > p is valid for A_(r+1) (any later place will do);
 *   stnm: the first q > p where A_(r+1) holds is valid for A_(r+1) (the
 *         chain from p takes that q and no other).
 * Backwards from i - 1, okR (R = r, 0-based) says that of the places
 * after p: stam, one is valid for atom R; stnm, the nearest one where
 * atom R holds is valid (i is, for the last atom; an earlier place where
 * it holds is not). At p, the atoms are taken in ascending order, so each
 * reads ok(R+1) of the places after p before p updates it. The first p
 * valid for A_1 is the greatest start: inside the window, since the
 * detection's own chain starts there or earlier. */
static void put_scan_chain(Cg *g, int i, const char *name_of, const Chain *c)
{
    FILE *out = g->canon.f;
    const char *P = g->P;
    char name[CG_NAME_MAX], cap[32];
    int m = c->n;
    bool stnm = c->kind == CHAIN_STNM;
    int64_t L = c->window;
    snprintf(cap, sizeof cap, g->canon_grow >= 0 ? "(uint64_t)m->hist_cap" : "%" PRId64 "u", g->canon_hist);
    bool reads = false;
    for (int r = 0; r + (stnm ? 0 : 1) < m; r++)   /* stnm tests the last atom too */
        if (c->links[r].cond) {
            snprintf(name, sizeof name, "%s_p%d_sc%d", P, i, r);
            cg_emit_cond_fn(out, P, name, "const void *s", c->links[r].cond, REG_NONE, NULL, 1);
            reads = true;
        }
    fprintf(out, "/* Pattern %s's start at a detection at m->index: a scan of its\n"
                 " * last %" PRId64 " events (cg_canon.c, put_scan); %s. Not\n"
                 " * inlined: in push_many's loop its registers cost the step two\n"
                 " * instructions an event (B2). */\n"
                 "static %s_SCAN_NOINLINE int64_t %s_p%d_scan(const %s_matcher *m)\n{\n"
                 "    const int64_t i = m->index, lo = i - %" PRId64 " > 1 ? i - %" PRId64 " : 1, base = m->cur_base;\n"
                 "    const %s_event *cur = m->cur;   /* the call's events from index base (INT64_MAX: none) */\n",
            name_of, L, stnm ? "okR: the next place of atom R is valid" : "okR: a later place is valid for atom R",
            P, P, i, P, L - 1, L - 1, P);
    for (int r = 1; r < m; r++)
        if (stnm || r + 1 < m)
            fprintf(out, "    int ok%d = %d;\n", r, r + 1 == m);
    /* the call's events, then the ring's: no select per event */
    fprintf(out, "    int64_t p = i - 1;\n"
                 "    for (; p >= lo && p >= base; p--) {\n"
                 "        const %s_event *e = &cur[p - base];\n", P);
    put_scan_step(g, i, c, reads, NULL);
    fprintf(out, "    for (; p >= lo; p--) {\n"
                 "        const %s_event *e = &m->hist[", P);
    if (cg_canon_linear(g))
        fputs("p - m->hist_o];\n", out);
    else
        fprintf(out, "(uint64_t)p %% %s];\n", cap);
    put_scan_step(g, i, c, reads, NULL);
    fputs("    return 0;   /* not reached: a detection has a start in reach (counted if it were) */\n}\n\n", out);
}

/* Pattern i's scan (mode 3): a gap chain's or a stam/stnm chain's. */
static void put_scan(Cg *g, int i, const char *name_of, const Chain *c)
{
    if (c->kind == CHAIN_GAPS)
        put_scan_gaps(g, i, name_of, c);
    else
        put_scan_chain(g, i, name_of, c);
}

/* Mode 4: a register-free dsra in the threaded run (one declaration):
 * each transition that completes a match knows how many events before
 * the event its greatest start is (DsraTrans.back1, determinize.c), so it
 * sets m->cn_tag to that number and the record's start is m->index -
 * m->cn_tag: a store per record, no replay, no scan (B1's dsra). A step
 * of the other layouts returns the state only, not the transition, so
 * they keep the scan or the replay. */
int cg_canon_back_mode(const Plan *plan)
{
    const AstPattern *p = plan->pattern;
    const Dsra *d = plan->min;
    if (plan->strategy != STRATEGY_DSRA || !d || p->partition_attr || p->nregs > 0 ||
        p->hdr.window.kind != WIN_EVENTS || p->hdr.window.value > CG_CANON_KEEP_MAX)
        return 0;
    for (int t = 0; t < d->ntrans; t++)
        if (d->states[d->trans[t].to].final && d->trans[t].back1 < 1)
            return 0;
    return 4;
}

/* Atoms of r that write a register (a label). */
static int labelled_atoms(const AstRegex *r)
{
    int n = r->kind == RX_ATOM && r->reg >= 0;
    for (int k = 0; k < r->nkids; k++)
        n += labelled_atoms(r->kids[k]);
    return n;
}

/* Whether p's one label is its first atom's, `x:A ...`: every parse from
 * a start j binds it to event j, and to no other (language.md 3.4: the
 * parse passes through a sequence's first item, and nothing else writes
 * the label), so the bindings are the start's. */
static bool label_at_start(const AstPattern *p)
{
    const AstRegex *r = p->body, *first = r->kind == RX_SEQ && r->nkids > 0 ? r->kids[0] : r;
    return p->nregs == 1 && first->kind == RX_ATOM && first->reg == 0 && labelled_atoms(r) == 1;
}

/* A runs pattern knows the start of its detections (runs.c.tpl,
 * rs_back: the greatest start of the runs that reach a final state, the
 * proof there), so no search over starts: 5, unpartitioned, without
 * labels or with one on its first atom (label_at_start), the start alone
 * (m->index - back, as a chain's tag: however far back), the label bound
 * to it; 6, else the parse from that start of its key's or the ring's
 * events, for its bindings (O(window) a record: `x:A _* [type == B &&
 * id == x.id]` within 1 h, 2,000 live runs, ran at 30 K events/s as 6,
 * 24 M as 5). Where the runs cannot tell (a run dropped for room, back
 * -1), the replay. */
int cg_canon_runs_mode(const Plan *plan)
{
    if (plan->strategy != STRATEGY_RUNS)
        return 0;
    const AstPattern *p = plan->pattern;
    return p->partition_attr || (p->nregs > 0 && !label_at_start(p)) ? 6 : 5;
}

int cg_canon_tag_mode(const Plan *plan)
{
    const Chain *c = plan->chain;
    const AstPattern *p = plan->pattern;
    if (!c || plan->strategy != STRATEGY_TDFA || (plan->min && plan->layout != LAYOUT_CHAIN) ||
        p->partition_attr || p->nregs > 0)
        return 0;
    return c->n == 1 ? 2 : 1;
}

bool cg_canon_keyed(const Cg *g, const AstPattern *p) { return g->canon_any && p->partition_attr; }

/* From this many patterns and episodes in a file on, P_pN_cc calls its
 * conditions through a table: a switch lets cc inline every condition
 * into every cc (100 12-atom patterns: 787 copies of 104 functions),
 * which pays off in a replay of one pattern (B1's dsra: 3% fewer
 * instructions per event) but not in cc's time for many. */
enum { CG_CANON_TABLE_MIN = 8 };

/* Atom k's condition function, each distinct text once in the file
 * (patterns of a file repeat conditions), and P_pN_cc, which the replay
 * calls. */
static void put_conditions(Cg *g, int i, const AstPattern *p)
{
    FILE *out = g->canon.f;
    const char *P = g->P;
    const AstRegex **atoms = calloc((size_t)p->natoms + 1, sizeof *atoms);
    const char **fns = calloc((size_t)p->natoms + 1, sizeof *fns);
    if (!atoms || !fns)
        abort();
    collect_atoms(p->body, atoms);
    char fname[CG_NAME_MAX];
    bool any = false;
    for (int k = 0; k < p->natoms; k++) {
        if (!atoms[k] || atoms[k]->atom == ATOM_ANY || !atoms[k]->cond)
            continue;
        snprintf(fname, sizeof fname, "%s_p%d_canon%d", P, i, k);
        fns[k] = cg_cond_fn_once(g, out, fname, "const void *const *regs", NULL, atoms[k]->cond, REG_EVENTS, NULL);
        any = true;
    }
    bool table = any && g->ndecls >= CG_CANON_TABLE_MIN;
    if (table) {
        fprintf(out, "static int (*const %s_p%d_cf[%d])(const %s_event *, const void *const *) = {", P, i,
                p->natoms, P);
        for (int k = 0; k < p->natoms; k++)
            fprintf(out, "%s%s", k ? ", " : "", fns[k] ? fns[k] : "NULL");
        fputs("};\n\n", out);
    }
    fprintf(out, "/* Atom k's condition on e (pattern %s), for the replay. */\n"
                 "static int %s_p%d_cc(int32_t k, const void *e, const void *const *regs)\n{\n",
            p->name, P, i);
    if (table) {
        fprintf(out, "    return k >= 0 && k < %d && %s_p%d_cf[k] ? %s_p%d_cf[k]((const %s_event *)e, regs) : 0;\n",
                p->natoms, P, i, P, i, P);
    } else if (any) {
        fputs("    switch (k) {\n", out);
        for (int k = 0; k < p->natoms; k++)
            if (fns[k])
                fprintf(out, "    case %d:\n        return %s((const %s_event *)e, regs);\n", k, fns[k], P);
        fputs("    }\n    return 0;\n", out);
    } else {
        fputs("    (void)k;\n    (void)e;\n    (void)regs;\n    return 0;\n", out);
    }
    fputs("}\n\n", out);
    free(atoms);
    free(fns);
}

/* The description of pattern i (its records' start and bindings) when the
 * replay applies; notes the history and registers it needs. */
void cg_emit_canon(Cg *g, int i, const Plan *plan)
{
    const AstPattern *p = plan->pattern;
    const Chain *gaps = plan->chain;
    if (!g->canon_pat) {
        size_t nd = (size_t)(g->ndecls > 0 ? g->ndecls : 1);
        g->canon_pat = arena_alloc(g->arena, nd * sizeof *g->canon_pat);
        g->canon_p = arena_alloc(g->arena, nd * sizeof *g->canon_p);
        g->canon_nregs = arena_alloc(g->arena, nd * sizeof *g->canon_nregs);
        g->canon_tag = arena_alloc(g->arena, nd * sizeof *g->canon_tag);
        g->canon_s = arena_alloc(g->arena, nd * sizeof *g->canon_s);
        g->canon_gaps = arena_alloc(g->arena, nd * sizeof *g->canon_gaps);
        g->canon_grow = -1;
        for (int d = 0; d < g->ndecls; d++) {
            g->canon_pat[d] = -1;
            g->canon_p[d] = NULL;
            g->canon_nregs[d] = 0;
        }
    }
    FILE *out = g->canon.f;
    const char *P = g->P;
    Nodes ns = {0};
    int32_t root = build(&ns, p->body, p->hdr.window.value);
    put_conditions(g, i, p);
    fprintf(out, "static const sremrt_canon_node %s_p%d_cn[] = {\n", P, i);
    for (int k = 0; k < ns.n; k++)
        fprintf(out, "    {%d, %d, %d, %d, %d},\n", ns.v[k].kind, ns.v[k].a, ns.v[k].b, ns.v[k].min, ns.v[k].max);
    fputs("};\n", out);
    bool chain = p->hdr.policy != POLICY_STRICT;
    if (chain) {
        fprintf(out, "static const int32_t %s_p%d_cchain[] = {", P, i);
        for (int k = 0; k < ns.nchain; k++)
            fprintf(out, "%s%d", k ? ", " : "", ns.chain[k]);
        fputs("};\n", out);
    }
    fprintf(out, "static const sremrt_canon_pat %s_p%d_canon = {%s_p%d_cn, %d, %s, ", P, i, P, i, root,
            p->hdr.policy == POLICY_STAM ? "SREMRT_CANON_STAM" : chain ? "SREMRT_CANON_STNM" : "SREMRT_CANON_STRICT");
    if (chain)
        fprintf(out, "%s_p%d_cchain, %d, ", P, i, ns.nchain);
    else
        fputs("NULL, 0, ", out);
    fprintf(out, "%d, %s_p%d_cc};\n", p->nregs, P, i);
    if (p->nregs > 0) {
        fprintf(out, "static const char *const %s_p%d_bn[] = {", P, i);
        for (int r = 0; r < p->nregs; r++) {
            fputs(r ? ", " : "", out);
            cg_put_c_string(out, p->regs[r].name);
        }
        fputs("};\n", out);
    }
    fputc('\n', out);
    free(ns.v);
    g->canon_pat[g->decl] = i;
    g->canon_p[g->decl] = p;
    g->canon_nregs[g->decl] = p->nregs;
    g->canon_tag[g->decl] = g->canon_tag_now;
    g->canon_s[g->decl] = g->canon_tag_now == 1 && g->tag_field[0] == 's';
    g->canon_gaps[g->decl] = g->canon_tag_now == 3 ? gaps : NULL;   /* scanned after the ring's code */
    g->canon_scan |= g->canon_tag_now == 3;
    g->canon_back |= g->canon_tag_now == 4;
    g->canon_runs |= g->canon_tag_now >= 5;
    g->canon_any = true;
    int64_t keep = canon_keep(g, p), ring = tag_ring(g, p, gaps, keep);
    if (!p->partition_attr && ring > g->canon_hist)
        g->canon_hist = ring;
    if (grows(g, p, g->canon_tag_now) && p->hdr.window.value > g->canon_grow) {
        g->canon_grow = p->hdr.window.value;
        g->canon_grow_decl = g->decl;
    }
    if (keep > g->canon_max)
        g->canon_max = keep;
    if (p->nregs > g->canon_regs)
        g->canon_regs = p->nregs;
    if (p->partition_attr) {   /* each key's last events, in a ring of its own */
        FILE *ty = g->types.f;
        fprintf(ty, "typedef struct %s_p%d_h {   /* pattern %s: a key's last %" PRId64 " events */\n"
                    "    int64_t n;   /* the key's events so far */\n"
                    "    int64_t idx[%" PRId64 "];   /* their global indices, by n %% %" PRId64 " */\n"
                    "    %s_event ev[%" PRId64 "];\n} %s_p%d_h;\n\n",
                P, i, p->name, keep, keep, keep, P, keep, P, i);
        fprintf(out, "/* The replay's events of pattern %s: its key's ring (m->cn_ring). */\n"
                     "static int32_t %s_p%d_gather(%s_matcher *m)\n{\n"
                     "    const %s_p%d_h *h = (const %s_p%d_h *)m->cn_ring;\n"
                     "    int32_t n = (int32_t)(h->n < %" PRId64 " ? h->n : %" PRId64 ");\n"
                     "    for (int32_t k = 0; k < n; k++) {\n"
                     "        int64_t x = (h->n - n + k) %% %" PRId64 ";\n"
                     "        m->cn_ev[k] = &h->ev[x];\n        m->cn_idx[k] = h->idx[x];\n    }\n"
                     "    return n;\n}\n\n",
                p->name, P, i, P, P, i, P, i, keep, keep, keep);
    }
}

/* Partitioned pattern i, in its key's block of push_each (at level): the
 * event into the key's ring, which the replay of a match then reads. */
void cg_canon_put_push(Cg *g, int i, const AstPattern *p, int level)
{
    Buf *pu = &g->push;
    int64_t keep = canon_keep(g, p);
    cg_line(pu, level, "%s_p%d_h *h = &m->p%d_h[slot];   /* the key's last events */", g->P, i, i);
    cg_line(pu, level, "if (inserted)");
    cg_line(pu, level + 1, "h->n = 0;");
    cg_line(pu, level, "h->idx[h->n %% %" PRId64 "] = m->index;", keep);
    cg_line(pu, level, "h->ev[h->n++ %% %" PRId64 "] = *e;", keep);
    cg_line(pu, level, "m->cn_ring = h;");
}

/* The per-declaration tables of the replay. */
/* Whether unpartitioned pattern d's replay reads a ring that grows. */
static bool gather_grows(const Cg *g, int d)
{
    return g->canon_grow >= 0 && grows(g, g->canon_p[d], g->canon_tag[d]);
}

/* The gather function of unpartitioned pattern d: its own when the ring
 * grows (put_gather_grow), else the one of its count of events, which
 * the patterns of that count share. */
static void put_gather_name(const Cg *g, FILE *out, int d)
{
    if (gather_grows(g, d))
        fprintf(out, "%s_gather_shared_%d", g->P, g->canon_pat[d]);
    else
        fprintf(out, "%s_gather_last_%" PRId64, g->P, canon_keep(g, g->canon_p[d]));
}

static void put_decl_tables(Cg *g, FILE *out)
{
    const char *P = g->P;
    fprintf(out, "/* Per declaration: the replay's description, window (kind: 0 none, 1\n"
                 " * events, 2 time), labels and where its events are. */\n"
                 "static const sremrt_canon_pat *const %s_canon_pat[%d] = {", P, g->ndecls);
    for (int d = 0; d < g->ndecls; d++) {
        fputs(d ? ", " : "", out);
        if (g->canon_pat[d] >= 0)
            fprintf(out, "&%s_p%d_canon", P, g->canon_pat[d]);
        else
            fputs("NULL", out);
    }
    if (g->schema->ts_attr >= 0) {   /* put_first reads it: time windows only */
        fprintf(out, "};\nstatic const int64_t %s_canon_win[%d][2] = {", P, g->ndecls);
        for (int d = 0; d < g->ndecls; d++) {
            const AstPattern *p = g->canon_pat[d] >= 0 ? g->canon_p[d] : NULL;
            fprintf(out, "%s{%d, %" PRId64 "}", d ? ", " : "", p ? (int)p->hdr.window.kind : 0,
                    p ? p->hdr.window.value : 0);
        }
    }
    fprintf(out, "};\nstatic const char *const *const %s_canon_names[%d] = {", P, g->ndecls);
    for (int d = 0; d < g->ndecls; d++) {
        fputs(d ? ", " : "", out);
        if (g->canon_pat[d] >= 0 && g->canon_nregs[d] > 0)
            fprintf(out, "%s_p%d_bn", P, g->canon_pat[d]);
        else
            fputs("NULL", out);
    }
    fprintf(out, "};\nstatic int32_t (*const %s_canon_gather[%d])(%s_matcher *) = {", P, g->ndecls, P);
    for (int d = 0; d < g->ndecls; d++) {
        fputs(d ? ", " : "", out);
        if (g->canon_pat[d] < 0)
            fputs("NULL", out);
        else if (g->canon_p[d]->partition_attr)
            fprintf(out, "%s_p%d_gather", P, g->canon_pat[d]);
        else
            put_gather_name(g, out, d);
    }
    fputs("};\n", out);
    if (g->canon_hist > 0 || g->canon_runs) {   /* tag starts are unpartitioned chains', runs any */
        fprintf(out, "static const uint8_t %s_canon_tag[%d] = {", P, g->ndecls);
        for (int d = 0; d < g->ndecls; d++)
            fprintf(out, "%s%d", d ? ", " : "", g->canon_pat[d] >= 0 ? g->canon_tag[d] : 0);
        fputs("};\n", out);
    }
    if (g->canon_scan) {   /* mode 3: the scan of each such pattern */
        fprintf(out, "static int64_t (*const %s_canon_scan[%d])(const %s_matcher *) = {", P, g->ndecls, P);
        for (int d = 0; d < g->ndecls; d++) {
            fputs(d ? ", " : "", out);
            if (g->canon_pat[d] >= 0 && g->canon_tag[d] == 3)
                fprintf(out, "%s_p%d_scan", P, g->canon_pat[d]);
            else
                fputs("NULL", out);
        }
        fputs("};\n", out);
    }
    fputc('\n', out);
}

/* The hosted ring's growth (g->canon_grow): before a push_many's events go
 * in, P_hist_fit doubles it until the newest event it would drop is out
 * of the longest time window of the call's last event (timestamps never
 * go backwards: every older one is out too). One check per call, the
 * timestamps of two events; a refused block is counted (memory) and the
 * ring stays, its records then counted without start. P_cn_fit grows a
 * replay's arrays the same way. */
static void put_grow(Cg *g, FILE *out)
{
    const char *P = g->P;
    Buf *f = &g->fields;
    cg_line(f, 0, "%s_event *hist;   /* hist0, or a block of the allocator hook */", P);
    cg_line(f, 0, "int64_t hist_cap;   /* its events */");
    cg_line(f, 0, "int hist_stuck;   /* a block refused: no more growth */");
    cg_line(f, 0, "const void **cn_ev;   /* cn_ev0, cn_idx0, or blocks of cn_cap from the hook */");
    cg_line(f, 0, "int64_t *cn_idx;");
    cg_line(f, 0, "int64_t cn_cap;");
    cg_line(&g->init, 0, "m->hist = m->hist0;   /* the ring of shared events, grown by hist_fit */");
    cg_line(&g->init, 0, "m->hist_cap = %" PRId64 ";", g->canon_hist);
    cg_line(&g->init, 0, "m->cn_ev = m->cn_ev0;");
    cg_line(&g->init, 0, "m->cn_idx = m->cn_idx0;");
    cg_line(&g->init, 0, "m->cn_cap = %" PRId64 ";", g->canon_max);
    cg_line(&g->freec, 0, "if (m->hist != m->hist0)");
    cg_line(&g->freec, 1, "sremrt_alloc_free(&m->cfg.alloc, m->hist, (size_t)m->hist_cap * sizeof *m->hist);");
    cg_line(&g->freec, 0, "m->hist = m->hist0;   /* freed twice: nothing more */");
    cg_line(&g->freec, 0, "m->hist_cap = %" PRId64 ";", g->canon_hist);
    cg_line(&g->freec, 0, "if (m->cn_ev != m->cn_ev0) {");
    cg_line(&g->freec, 1, "sremrt_alloc_free(&m->cfg.alloc, (void *)m->cn_ev, (size_t)m->cn_cap * sizeof *m->cn_ev);");
    cg_line(&g->freec, 1, "sremrt_alloc_free(&m->cfg.alloc, m->cn_idx, (size_t)m->cn_cap * sizeof *m->cn_idx);");
    cg_line(&g->freec, 1, "m->cn_ev = m->cn_ev0;");
    cg_line(&g->freec, 1, "m->cn_idx = m->cn_idx0;");
    cg_line(&g->freec, 1, "m->cn_cap = %" PRId64 ";", g->canon_max);
    cg_line(&g->freec, 0, "}");
    const AstAttr *ts = &g->schema->attrs[g->schema->ts_attr];
    fprintf(out,
            "/* Whether tj is out of the longest time window of ti. */\n"
            "static int %s_hist_out(uint64_t ti, uint64_t tj)\n{\n"
            "    return (int64_t)(ti - tj) > 0 && ti - tj > (uint64_t)%" PRId64 ";\n}\n\n",
            P, g->canon_grow);
    fprintf(out,
            "/* Before events[0..k) go into the ring: doubled until it keeps every\n"
            " * event within the longest time window of events[k - 1]. */\n"
            "static void %s_hist_fit(%s_matcher *m, const %s_event *events, size_t k)\n{\n"
            "    int64_t last = m->cur_base + (int64_t)k - 1, cap = m->hist_cap;\n"
            "    uint64_t tl = (uint64_t)events[k - 1].",
            P, P, P);
    cg_put_field(out, ts);
    fprintf(out, ";\n"
            "    while (!m->hist_stuck && last - cap >= 1) {\n"
            "        int64_t x = last - cap;   /* the newest event the ring would drop */\n"
            "        const %s_event *ex = x >= m->cur_base ? &events[x - m->cur_base] : &m->hist[x %% cap];\n"
            "        if (%s_hist_out(tl, (uint64_t)ex->",
            P, P);
    cg_put_field(out, ts);
    fprintf(out, "))\n            return;\n"
            "        %s_event *h = NULL;\n"
            "        if (cap <= (int64_t)(SIZE_MAX / 2 / sizeof *h))\n"
            "            h = (%s_event *)sremrt_alloc_get(&m->cfg.alloc, (size_t)(2 * cap) * sizeof *h, 0);\n"
            "        if (!h) {\n"
            "            m->ovf[%d][SREMRT_OVF_MEMORY]++;\n"
            "            m->hist_stuck = 1;\n"
            "            return;\n        }\n"
            "        for (int64_t y = m->cur_base - cap > 1 ? m->cur_base - cap : 1; y < m->cur_base; y++)\n"
            "            h[y %% (2 * cap)] = m->hist[y %% cap];\n"
            "        if (m->hist != m->hist0)\n"
            "            sremrt_alloc_free(&m->cfg.alloc, m->hist, (size_t)cap * sizeof *h);\n"
            "        m->hist = h;\n"
            "        m->hist_cap = cap *= 2;\n    }\n}\n\n",
            P, P, g->canon_grow_decl);
    fprintf(out,
            "/* A replay's arrays for n events (doubled); 0 if refused (counted). */\n"
            "static int %s_cn_fit(%s_matcher *m, int32_t decl, int64_t n)\n{\n"
            "    int64_t cap = m->cn_cap;\n"
            "    while (cap < n)\n        cap *= 2;\n"
            "    const void **ev = NULL;\n    int64_t *idx = NULL;\n"
            "    if (cap <= INT32_MAX) {\n"
            "        ev = (const void **)sremrt_alloc_get(&m->cfg.alloc, (size_t)cap * sizeof *ev, 0);\n"
            "        idx = (int64_t *)sremrt_alloc_get(&m->cfg.alloc, (size_t)cap * sizeof *idx, 0);\n    }\n"
            "    if (!ev || !idx) {\n"
            "        sremrt_alloc_free(&m->cfg.alloc, (void *)ev, (size_t)cap * sizeof *ev);\n"
            "        sremrt_alloc_free(&m->cfg.alloc, idx, (size_t)cap * sizeof *idx);\n"
            "        m->ovf[decl][SREMRT_OVF_MEMORY]++;\n        return 0;\n    }\n"
            "    if (m->cn_ev != m->cn_ev0) {\n"
            "        sremrt_alloc_free(&m->cfg.alloc, (void *)m->cn_ev, (size_t)m->cn_cap * sizeof *ev);\n"
            "        sremrt_alloc_free(&m->cfg.alloc, m->cn_idx, (size_t)m->cn_cap * sizeof *idx);\n    }\n"
            "    m->cn_ev = ev;\n    m->cn_idx = idx;\n    m->cn_cap = cap;\n    return 1;\n}\n\n",
            P, P);
}

/* Shared-ring pattern d with a growing ring: its events within its time
 * window and one before it (so the replay sees where the window begins),
 * as far back as the ring reaches. */
static void put_gather_grow(Cg *g, FILE *out, int d)
{
    const char *P = g->P;
    const AstPattern *p = g->canon_p[d];
    const AstAttr *ts = &g->schema->attrs[g->schema->ts_attr];
    fprintf(out,
            "/* The replay's events of pattern %s: those within its window and one\n"
            " * before, from the ring (grown to keep them). */\n"
            "static int32_t %s_gather_shared_%d(%s_matcher *m)\n{\n"
            "    int64_t i = m->index, lo = i;\n"
            "    uint64_t ti = (uint64_t)%s_hist_at(m, i)->",
            p->name, P, g->canon_pat[d], P, P);
    cg_put_field(out, ts);
    fprintf(out, ";\n"
            "    while (lo > 1 && %s_hist_has(m, lo - 1)) {\n"
            "        uint64_t tx = (uint64_t)%s_hist_at(m, --lo)->",
            P, P);
    cg_put_field(out, ts);
    fprintf(out, ";\n"
            "        if ((int64_t)(ti - tx) > 0 && ti - tx > (uint64_t)%" PRId64 ")\n            break;\n    }\n"
            "    if (i - lo + 1 > m->cn_cap && !%s_cn_fit(m, %d, i - lo + 1))\n"
            "        lo = i - m->cn_cap + 1;   /* counted: the start may be lost */\n"
            "    int32_t n = (int32_t)(i - lo + 1);\n"
            "    for (int32_t k = 0; k < n; k++) {\n"
            "        m->cn_idx[k] = lo + k;\n"
            "        m->cn_ev[k] = %s_hist_at(m, m->cn_idx[k]);\n    }\n"
            "    return n;\n}\n\n",
            p->hdr.window.value, P, d, P);
}

/* Whether every unpartitioned declaration's start is a chain's tag or
 * the event itself (no replay, no scan reads the ring's last H). */
static bool tags_only(const Cg *g)
{
    for (int d = 0; d < g->ndecls; d++)
        if (g->canon_pat[d] >= 0 && !g->canon_p[d]->partition_attr && reads_ring(g->canon_tag[d]))
            return false;
    return true;
}

/* Whether the shared ring keeps its events in the order of the stream,
 * event x at hist[x - hist_o] (put_linear): a ring of fixed size, read
 * by a replay or a scan, of at most CG_CANON_LINEAR_MAX events. */
bool cg_canon_linear(const Cg *g)
{
    return g->canon_hist > 0 && g->canon_hist <= CG_CANON_LINEAR_MAX && g->canon_grow < 0 && !tags_only(g);
}

/* The call's first events a linear ring takes before the call (hist_open),
 * so that a gap chain's scan at one of them reads a single array: its
 * span less one, the longest of the file's (0: no such scan). */
static int64_t scan_prefix(const Cg *g)
{
    int64_t s = 0;
    for (int d = 0; d < g->ndecls; d++) {
        const Chain *c = g->canon_pat[d] >= 0 ? g->canon_gaps[d] : NULL;
        if (c && c->kind == CHAIN_GAPS && !g->canon_p[d]->partition_attr && chain_span(c) - 1 > s)
            s = chain_span(c) - 1;
    }
    return s;
}

/* The events a linear ring has room for: the last H, as many again so
 * that events one at a time move the H once every H events, and the
 * call's first ones (scan_prefix). */
int64_t cg_canon_ring_cap(const Cg *g) { return 2 * g->canon_hist + scan_prefix(g); }

/* Before a call of n events (push_many, push): where they are, and for a
 * linear ring its first S of them after the ring's events (the caller
 * has made room: put_linear). */
static void put_open(Cg *g, FILE *out, int64_t S)
{
    const char *P = g->P;
    fprintf(out, "/* Before a call of n events: the events replays and scans read in place%s. */\n"
                 "static void %s_hist_open(%s_matcher *m, const %s_event *events, size_t n)\n{\n"
                 "    m->cur = events;\n"
                 "    m->cur_base = m->index + 1;\n",
            S > 0 ? ", and the\n * first of them after the ring's, so that a scan at one of them reads one\n * array (cg_canon.c, put_linear)" : "", P, P, P);
    if (S > 0)
        fprintf(out, "    int64_t u = m->cur_base - m->hist_o;   /* the ring's slots in use */\n"
                     "    if (u + %" PRId64 " > %" PRId64 ")\n"
                     "        u = %s_hist_rebase(m);\n"
                     "    if (n >= %" PRId64 "u)   /* a copy of constant length */\n"
                     "        memcpy(&m->hist[u], events, %" PRId64 " * sizeof *events);\n"
                     "    else\n"
                     "        memcpy(&m->hist[u], events, n * sizeof *events);\n",
                S, cg_canon_ring_cap(g), P, S, S);
    else
        fputs("    (void)n;\n", out);
    fputs("}\n\n", out);
}

/* The ring in the order of the stream (cg_canon_linear): event x at
 * hist[x - hist_o], the H before the call (cur_base) always among them,
 * since the H before hist_o + H at least are. A call of k >= H events
 * leaves its last H at hist[0], one copy of constant length (the modulo
 * ring cut it in two of variable length: B2 at w = 10, 0.38 instructions
 * an event); fewer go after the ring's, which moves its last H to
 * hist[0] when there is no room (at most once every H events). The
 * call's first S events go there before the call (hist_open), so a scan
 * at one of them reads one array, as scan_in does (P_pI_scan). */
static void put_linear(Cg *g, FILE *out)
{
    const char *P = g->P;
    int64_t H = g->canon_hist, S = scan_prefix(g), cap = cg_canon_ring_cap(g);
    fprintf(out, "/* No room after the ring's events: its last %" PRId64 " to hist[0]; the slots in use. */\n"
                 "static int64_t %s_hist_rebase(%s_matcher *m)\n{\n"
                 "    int64_t u = m->cur_base - m->hist_o;\n"
                 "    memmove(m->hist, &m->hist[u - %" PRId64 "], %" PRId64 " * sizeof m->hist[0]);\n"
                 "    m->hist_o = m->cur_base - %" PRId64 ";\n"
                 "    return %" PRId64 ";\n}\n\n",
            H, P, P, H, H, H, H);
    put_open(g, out, S);
    fprintf(out, "/* After a call: its k accepted events into the ring (cg_canon.c,\n"
                 " * put_linear). */\n"
                 "static void %s_hist_keep(%s_matcher *m, const %s_event *events, size_t k)\n{\n"
                 "    int64_t u = m->cur_base - m->hist_o;\n"
                 "    if (k >= %" PRId64 "u) {   /* the last H, at hist[0] */\n"
                 "        memcpy(m->hist, &events[k - %" PRId64 "u], %" PRId64 " * sizeof *events);\n"
                 "        m->hist_o = m->cur_base + (int64_t)k - %" PRId64 ";\n"
                 "    } else if (u + (int64_t)k > %" PRId64 ") {\n"
                 "        u = %s_hist_rebase(m);\n"
                 "        memcpy(&m->hist[u], events, k * sizeof *events);\n",
            P, P, P, H, H, H, H, cap, P);
    if (S > 0)   /* the first S are there already (hist_open) */
        fprintf(out, "    } else if (k > %" PRId64 "u) {\n"
                     "        memcpy(&m->hist[u + %" PRId64 "], &events[%" PRId64 "], (k - %" PRId64 "u) * sizeof *events);\n",
                S, S, S, S);
    else
        fputs("    } else {\n"
              "        memcpy(&m->hist[u], events, k * sizeof *events);\n", out);
    fputs("    }\n"
          "    m->cur = NULL;\n"
          "    m->cur_base = INT64_MAX;\n}\n\n", out);
}

/* hist_keep of a file whose starts are all tags (tags_only): a later
 * record starts at a later event or at what a tag holds now, since a tag
 * only ever takes the event's index or another tag's value (chain.h), and
 * the ring answers only for the last H (hist_has); so the call's events
 * that the tags point at among the last H go into the ring (distinct
 * slots), no others (B1 and B2 a few a call, not 100 or 256). The other
 * slots keep what they had, which only a checkpoint reads (and gives
 * back). */
static void put_keep_tags(Cg *g, FILE *out, const char *capu)
{
    const char *P = g->P;
    bool any = false;   /* a chain with tags (else one-atom patterns only) */
    for (int d = 0; d < g->ndecls; d++)
        any |= g->canon_pat[d] >= 0 && !g->canon_p[d]->partition_attr && g->canon_tag[d] == 1;
    if (any)
        fprintf(out, "/* The event of a tag (2^62 + index) into the ring, if it is one of\n"
                 " * the call's k events and of the stream's last %s (older ones start\n"
                 " * nothing ahead, and would take the slot of a newer one). */\n"
                 "static void %s_hist_tag(%s_matcher *m, const %s_event *events, size_t k, int64_t tag)\n{\n"
                 "    int64_t x = tag - (INT64_C(1) << 62) - m->cur_base;   /* its place in events */\n"
                 "    if (x >= 0 && x < (int64_t)k && (uint64_t)((int64_t)k - x) <= %s)\n"
                 "        m->hist[(uint64_t)(m->cur_base + x) %% %s] = events[x];\n}\n\n",
            capu, P, P, P, capu, capu);
    fprintf(out, "/* After a push_many: the events its tags point at into the ring\n"
                 " * (cg_canon.c, put_keep_tags). */\n"
                 "static void %s_hist_keep(%s_matcher *m, const %s_event *events, size_t k)\n{\n",
            P, P, P);
    for (int d = 0; d < g->ndecls; d++) {
        if (g->canon_pat[d] < 0 || g->canon_p[d]->partition_attr || g->canon_tag[d] != 1)
            continue;
        for (int s = 0; s < 1 + g->canon_s[d]; s++)
            fprintf(out, "    for (size_t r = 0; r < sizeof m->p%d.%c / sizeof m->p%d.%c[0]; r++)\n"
                         "        %s_hist_tag(m, events, k, m->p%d.%c[r]);\n",
                    g->canon_pat[d], "ls"[s], g->canon_pat[d], "ls"[s], P, g->canon_pat[d], "ls"[s]);
    }
    fputs("    (void)events;   /* no chain: one-atom patterns start at their event */\n"
          "    (void)k;\n"
          "    m->cur = NULL;\n"
          "    m->cur_base = INT64_MAX;\n}\n\n", out);
}

/* The shared ring of the unpartitioned patterns: fields, lookup, keep,
 * and each such pattern's gather. Its capacity: H, or m->hist_cap when
 * it grows (put_grow). */
static void put_shared(Cg *g, FILE *out)
{
    const char *P = g->P;
    int64_t H = g->canon_hist;
    bool grow = g->canon_grow >= 0;
    char cap[32], capu[32];
    snprintf(cap, sizeof cap, grow ? "m->hist_cap" : "%" PRId64, H);
    snprintf(capu, sizeof capu, grow ? "(size_t)m->hist_cap" : "%" PRId64 "u", H);
    Buf *f = &g->fields;
    bool linear = cg_canon_linear(g);
    if (linear) {
        cg_line(f, 0, "%s_event hist[%" PRId64 "];   /* the last %" PRId64 " events (and the call's first): x at hist[x - hist_o] */",
                P, cg_canon_ring_cap(g), H);
        cg_line(f, 0, "int64_t hist_o;   /* the index of hist[0]'s event */");
        cg_line(&g->init, 0, "m->hist_o = 1 - %" PRId64 ";   /* index 1 at hist[H]: n - H never below 0 */", H);
    } else {
        cg_line(f, 0, "%s_event hist%s[%" PRId64 "];   /* the last events, by index %% %s */", P, grow ? "0" : "",
                H, cap);
    }
    cg_line(f, 0, "const %s_event *cur;   /* the current push_many's events: cur[0] has index cur_base */", P);
    cg_line(f, 0, "int64_t cur_base;   /* INT64_MAX between calls */");
    cg_line(&g->init, 0, "m->cur_base = INT64_MAX;   /* no push_many under way */");
    if (grow)
        put_grow(g, out);
    fprintf(out,
            "/* The event of global index x, one of the last %s: in the current\n"
            " * push_many's array, or in the ring once that call returned. */\n"
            "static const %s_event *%s_hist_at(const %s_matcher *m, int64_t x)\n{\n"
            "    return x >= m->cur_base ? &m->cur[x - m->cur_base] : &m->hist[",
            cap, P, P, P);
    if (linear)
        fputs("x - m->hist_o];\n}\n\n", out);
    else
        fprintf(out, "(uint64_t)x %% %s];\n}\n\n", cap);
    if (grow)   /* the ring keeps the longest window: push_many's array holds no more */
        fprintf(out,
                "/* Whether the event of global index x is at hand (hist_at). */\n"
                "static int %s_hist_has(const %s_matcher *m, int64_t x)\n{\n"
                "    int64_t last = m->cur_base == INT64_MAX ? m->index : m->cur_base - 1;   /* the ring's */\n"
                "    return x >= 1 && x <= m->index && (x >= m->cur_base || x > last - %s);\n}\n\n",
                P, P, cap);
    else   /* what push has, though push_many's array may hold more: the same records either way */
        fprintf(out,
                "/* Whether the event of global index x is at hand (hist_at): one of the\n"
                " * last %s + 1, the ring and the event just pushed, whatever the call. */\n"
                "static int %s_hist_has(const %s_matcher *m, int64_t x)\n{\n"
                "    return x >= 1 && x <= m->index && m->index - x <= %s;\n}\n\n",
                cap, P, P, cap);
    fprintf(out,
            "/* The event of global index x, or NULL when it is not at hand. */\n"
            "static const %s_event *%s_hist_ev(const %s_matcher *m, int64_t x)\n{\n"
            "    return %s_hist_has(m, x) ? %s_hist_at(m, x) : NULL;\n}\n\n",
            P, P, P, P, P);
    if (linear) {
        put_linear(g, out);
    } else if (tags_only(g) && !grow) {
        put_open(g, out, 0);
        put_keep_tags(g, out, capu);
    } else {
        put_open(g, out, 0);
        fprintf(out,
                "/* After a push_many: the last of its k accepted events into the ring\n"
                " * (at most two copies: no division per event). */\n"
                "static void %s_hist_keep(%s_matcher *m, const %s_event *events, size_t k)\n{\n",
                P, P, P);
        if (grow)
            fprintf(out, "    if (k > 0)\n        %s_hist_fit(m, events, k);\n", P);
        fprintf(out,
                "    size_t t = k > %s ? k - %s : 0;\n"
                "    while (t < k) {\n"
                "        size_t at = (size_t)(((uint64_t)m->cur_base + t) %% %s), c = %s - at;\n"
                "        if (c > k - t)\n            c = k - t;\n"
                "        memcpy(&m->hist[at], &events[t], c * sizeof *events);\n"
                "        t += c;\n    }\n"
                "    m->cur = NULL;\n"
                "    m->cur_base = INT64_MAX;\n}\n\n",
                capu, capu, cap, capu);
    }
    for (int d = 0; d < g->ndecls; d++) {
        if (g->canon_pat[d] < 0 || g->canon_p[d]->partition_attr)
            continue;
        if (gather_grows(g, d)) {
            put_gather_grow(g, out, d);
            continue;
        }
        int64_t keep = canon_keep(g, g->canon_p[d]);
        bool done = false;   /* an earlier pattern's of the same count */
        for (int e = 0; e < d && !done; e++)
            done = g->canon_pat[e] >= 0 && !g->canon_p[e]->partition_attr && !gather_grows(g, e) &&
                   canon_keep(g, g->canon_p[e]) == keep;
        if (done)
            continue;
        fprintf(out,
                "/* A replay's events: the last %" PRId64 " of the stream. */\n"
                "static int32_t %s_gather_last_%" PRId64 "(%s_matcher *m)\n{\n"
                "    int64_t i = m->index;\n"
                "    int32_t n = (int32_t)(i < %" PRId64 " ? i : %" PRId64 ");\n"
                "    for (int32_t k = 0; k < n; k++) {\n"
                "        m->cn_idx[k] = i - n + 1 + k;\n"
                "        m->cn_ev[k] = %s_hist_at(m, m->cn_idx[k]);\n    }\n"
                "    return n;\n}\n\n",
                keep, P, keep, P, keep, keep, P);
    }
}

/* The window's first event among the gathered ones (time windows read
 * the timestamps; language.md 3.3). */
static void put_first(Cg *g, FILE *out)
{
    fputs("    int32_t first = 0;\n", out);
    if (g->schema->ts_attr < 0)
        return;
    fprintf(out, "    const int64_t *w = %s_canon_win[decl];\n"
                 "    if (w[0] == 2) {\n"
                 "        uint64_t ti = (uint64_t)((const %s_event *)m->cn_ev[n - 1])->", g->P, g->P);
    cg_put_field(out, &g->schema->attrs[g->schema->ts_attr]);
    fprintf(out, ";\n        while (first < n - 1) {\n"
                 "            uint64_t tj = (uint64_t)((const %s_event *)m->cn_ev[first])->", g->P);
    cg_put_field(out, &g->schema->attrs[g->schema->ts_attr]);
    fputs(";\n            if ((int64_t)(ti - tj) <= 0 || ti - tj <= (uint64_t)w[1])\n"
          "                break;\n"
          "            first++;\n        }\n"
          "    }\n", out);
}

/* The history's fields, the tables and P_canon_fill. */
void cg_emit_canon_end(Cg *g)
{
    if (!cg_canon_on(g))
        return;
    FILE *out = g->canon.f;
    const char *P = g->P;
    int R = g->canon_regs > 0 ? g->canon_regs : 1;
    Buf *f = &g->fields;
    cg_line(f, 0, "/* start and bindings: the events the replays read (cg_canon.c) */");
    if (g->canon_hist > 0)
        put_shared(g, out);
    if (g->canon_scan)
        fprintf(out, "#if defined(__GNUC__)\n#define %s_SCAN_NOINLINE __attribute__((noinline))\n#else\n"
                     "#define %s_SCAN_NOINLINE\n#endif\n\n", P, P);
    for (int d = 0; d < g->ndecls; d++)
        if (g->canon_pat[d] >= 0 && g->canon_gaps[d])
            put_scan(g, g->canon_pat[d], g->canon_p[d]->name, g->canon_gaps[d]);
    cg_line(f, 0, "const void *cn_ring;   /* the key ring of the partitioned pattern being stepped */");
    cg_line(f, 0, "int64_t cn_tag;   /* the start tag of the chain just stepped (canon_tag 1), its back (4), or the runs' (5, 6) */");
    const char *z = g->canon_grow >= 0 ? "0" : "";   /* growing: behind the pointers cn_ev, cn_idx */
    cg_line(f, 0, "const void *cn_ev%s[%" PRId64 "];   /* a replay's events */", z, g->canon_max);
    cg_line(f, 0, "int64_t cn_idx%s[%" PRId64 "];   /* their global indices */", z, g->canon_max);
    cg_line(f, 0, "int32_t cn_at[%d], cn_pos[%d];", R, R);
    cg_line(f, 0, "const void *cn_regs[%d], *cn_bev[%d];   /* cn_bev: the record's bind_events */", R, R);
    cg_line(f, 0, "int64_t cn_bind[%d];   /* the record's bind */", R);
    put_decl_tables(g, out);
    fprintf(out,
            "/* A match record of decl at the event just pushed: its start and\n"
            " * bindings, the canonical match (docs/language.md 3.4) found by a\n"
            " * replay over the window's events; start 0 (unknown, counted as the\n"
            " * \"start\" overflow) when the replay gave up or needed events that\n"
            " * were not kept. */\n"
            "static void %s_canon_fill(%s_matcher *m, int32_t decl, sremrt_record *r)\n{\n"
            "    const sremrt_canon_pat *p = %s_canon_pat[decl];\n"
            "    r->start = 0;\n    r->nbind = 0;\n    r->bind_names = NULL;\n    r->bind = NULL;\n"
            "    r->schema = NULL;\n    r->start_event = NULL;\n    r->bind_events = NULL;\n"
            "    r->events_missing = 0;\n"
            "    if (!p)\n        return;\n"
            "    r->schema = &%s_schema;\n",
            P, P, P, P);
    if (g->canon_runs)   /* modes 5 and 6: the runs' start, m->cn_tag events back (-1: the replay) */
        fprintf(out, "    int64_t back = %s_canon_tag[decl] >= 5 ? m->cn_tag : -1;\n", P);
    if (g->canon_hist > 0 && g->canon_runs)
        fprintf(out,
                "    if (%s_canon_tag[decl] == 5 && back >= 0) {   /* runs, unpartitioned, no label but the first atom's */\n"
                "        r->start = m->index - back;\n"
                "        r->start_event = %s_hist_ev(m, r->start);\n"
                "        r->events_missing = !r->start_event;\n"
                "        if (p->nregs == 1) {   /* label_at_start: bound to the start */\n"
                "            m->cn_bind[0] = r->start;\n"
                "            m->cn_bev[0] = r->start_event;\n"
                "            r->nbind = 1;\n"
                "            r->bind_names = %s_canon_names[decl];\n"
                "            r->bind = m->cn_bind;\n"
                "            r->bind_events = m->cn_bev;\n"
                "        }\n"
                "        return;\n    }\n",
                P, P, P);
    if (g->canon_hist > 0) {   /* tag starts are unpartitioned chains': in the shared ring */
        fprintf(out,
                "    if (%s_canon_tag[decl]%s) {   /* a chain's tag (m->cn_tag), the event itself, a scan, or a back */\n"
                "        r->start = %s_canon_tag[decl] == 2 ? m->index\n", P, g->canon_runs ? " - 1u < 4u" : "", P);
        if (g->canon_scan)
            fprintf(out, "                 : %s_canon_tag[decl] == 3 ? %s_canon_scan[decl](m)\n", P, P);
        if (g->canon_back)
            fprintf(out, "                 : %s_canon_tag[decl] == 4 ? m->index - m->cn_tag\n", P);
        fprintf(out,
                "                 : m->cn_tag - (INT64_C(1) << 62);\n"
                "        r->start_event = %s_hist_ev(m, r->start);\n"
                "        r->events_missing = !r->start_event;\n",
                P);
        if (g->canon_scan)   /* never seen: a detection's start is in the window */
            fputs("        if (!r->start)\n"
                  "            m->ovf[decl][SREMRT_OVF_START]++;\n", out);
        fputs("        return;\n    }\n", out);
    }
    fprintf(out, "    int32_t n = %s_canon_gather[decl](m);\n", P);
    put_first(g, out);
    fputs("    sremrt_canon_io io = {m->cn_ev, n, first, 0, m->cn_at, m->cn_pos, m->cn_regs};\n", out);
    if (g->canon_runs)   /* the one start (a start not kept: unknown, as the replay finds none) */
        fputs("    int32_t j = back >= n ? -1\n"
              "              : back >= 0 && p->nregs == 0 ? n - 1 - (int32_t)back\n"
              "              : back >= 0 ? sremrt_canon_at(p, &io, n - 1 - (int32_t)back) : -1;\n"
              "    if (j < first && j != -2 && back < n)   /* not the runs' (or a start out of the window): search */\n"
              "        j = sremrt_canon_find(p, &io);\n", out);
    else
        fputs("    int32_t j = sremrt_canon_find(p, &io);\n", out);
    fprintf(out,
            "    if (j >= 0) {\n        r->start = m->cn_idx[j];\n        r->start_event = m->cn_ev[j];\n    } else {\n"
            "        m->ovf[decl][SREMRT_OVF_START]++;   /* events not kept, or the replay's bounds */\n    }\n"
            "    if (p->nregs == 0)\n        return;\n"
            "    for (int32_t x = 0; x < p->nregs; x++) {\n"
            "        int ok = j >= 0 && m->cn_at[x] >= 0;\n"
            "        m->cn_bind[x] = ok ? m->cn_idx[m->cn_at[x]] : 0;\n"
            "        m->cn_bev[x] = ok ? m->cn_ev[m->cn_at[x]] : NULL;\n    }\n"
            "    r->nbind = p->nregs;\n    r->bind_names = %s_canon_names[decl];\n"
            "    r->bind = m->cn_bind;\n    r->bind_events = m->cn_bev;\n}\n\n",
            P);
    fprintf(out,
            "/* A record about to be written: one that names an event no longer kept\n"
            " * is counted when the host writes events (cfg.events), never silent. */\n"
            "static void %s_canon_lost(%s_matcher *m, int32_t decl, const sremrt_record *r)\n{\n"
            "    if (r->events_missing && m->cfg.events)\n"
            "        m->ovf[decl][SREMRT_OVF_EVENTS]++;\n}\n\n",
            P, P);
}
