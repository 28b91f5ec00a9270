/* cg_accel.c: a tdfa or dsra state that most events leave unchanged, or
 * an idle chain -> a C skip function that passes over those events in
 * blocks (acceleration).
 *
 * Hyperscan's "acceleration", for the automata of cg_tree.c: in a state
 * whose tree reads no register (the start state of most patterns), an
 * event that leads to a plain self-loop (no detection, no start tag to
 * move) changes nothing but the counters, the timestamp rule's last value
 * and the history ring. The skip function tests blocks of events without
 * a branch per event and jumps to the first that leaves the state (or goes
 * back in time); the counters move by the number skipped, and the ring
 * gets the last skipped events it holds, so the matcher's state is the
 * one stepping would have left. The layout only has to call it at the top
 * of the state's code: cg_accel_state says whether a state qualifies
 * (never under sremc --no-accel, which the differential tests compare).
 *
 * A dsra or tdfa of a strict sequence of L single-event atoms (B7's `x:A
 * y:[type == B && val > x.val + d] [type == C && val > y.val]`, a count
 * window of at least L; a tagged tdfa's start state without slots) skips
 * more: a run started at s detects at s + L - 1 or
 * never, so in the start state a block of 64 events needs stepping only
 * where the register-free conjuncts of the L atoms hold at L consecutive
 * events (a candidate). Without one, the runs started in the block's first
 * 65 - L events cannot detect, and the state there is the start state
 * again; the next block overlaps it by L - 1 events. With one, the skip
 * stops at the candidate's first event and the automaton steps.
 *
 * The same for a chain (cg_chain.c) in a batched push_many: while no tag
 * can give a detection any more (P_pI_idle), only an event where the first
 * atom holds can start one, so the others are skipped; a tag they would
 * have moved is one that cannot detect, and stays so. */
#define _POSIX_C_SOURCE 200809L
#include "cg_impl.h"
#include "eval.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Nodes of a tree the skip function evaluates without branches: every
 * node costs one line, so a bigger tree is not worth it. A strict
 * sequence's blocks (SEQ_BLOCK events, a byte each: a bit per atom) are
 * of at most SEQ_MAX_LEN atoms, each tested through at most SEQ_MAX_CONJ
 * conjuncts. */
enum { ACCEL_MAX_NODES = 64, ACCEL_BLOCK = 16, SEQ_BLOCK = 64, SEQ_MAX_LEN = 8, SEQ_MAX_CONJ = 4 };

/* Whether transition t is a self-loop of q that an event can take
 * unnoticed: no detection and (tagged tdfa) no start tag to move. */
static bool accel_stays(const Dsra *d, int q, int t)
{
    const DsraTrans *tr = &d->trans[t];
    const DsraState *to = &d->states[tr->to];
    if (tr->from != q || tr->to != q || to->final)
        return false;
    return !d->tagged || to->nmembers == 0 || !tr->tags;
}

bool cg_accel_state(const Cg *g, const Dsra *d, int q)
{
    const DsraState *st = &d->states[q];
    if (g->o->no_accel || st->nnodes == 0 || st->nnodes > ACCEL_MAX_NODES)
        return false;
    for (int a = 0; a < st->natoms; a++)
        if (d->mt->atoms[st->atoms[a]].regs)
            return false;   /* the ring would have to be current */
    for (int n = 0; n < st->nnodes; n++)
        if (st->nodes[n].atom < 0 && accel_stays(d, q, st->nodes[n].trans))
            return true;
    return false;
}

/* The value of node n as a C operand, in name[n]: 1 when the event
 * leaves the state (or stays with a side effect), 0 when it stays
 * unnoticed. Inner nodes become locals after their children, as selects
 * on the atoms' values, so the test has no branch. */
static void put_node(FILE *out, const char *ind, const Dsra *d, int q, int n, char (*name)[24])
{
    const DsraNode *nd = &d->states[q].nodes[n];
    if (name[n][0])
        return;
    if (nd->atom < 0) {
        snprintf(name[n], sizeof name[n], "%d", accel_stays(d, q, nd->trans) ? 0 : 1);
        return;
    }
    put_node(out, ind, d, q, nd->hi, name);
    put_node(out, ind, d, q, nd->lo, name);
    const char *hi = name[nd->hi], *lo = name[nd->lo];
    if (strcmp(hi, lo) == 0)
        memcpy(name[n], hi, sizeof name[n]);
    else if (strcmp(hi, "1") == 0 && strcmp(lo, "0") == 0)
        snprintf(name[n], sizeof name[n], "a%d", nd->atom);
    else if (strcmp(hi, "0") == 0 && strcmp(lo, "1") == 0)
        snprintf(name[n], sizeof name[n], "!a%d", nd->atom);
    else {
        snprintf(name[n], sizeof name[n], "n%d", n);
        fprintf(out, "%sint n%d = a%d ? %s : %s;\n", ind, n, nd->atom, hi, lo);
    }
}

/* The leave test of one event e: atoms once each, then the tree; for a
 * chain (d NULL), its first atom. */
static void put_leave(FILE *out, const char *ind, const Cg *g, int i, const Dsra *d, int q)
{
    if (!d) {
        fprintf(out, "%sint leave = %s_p%d_c0(e, NULL);\n", ind, g->P, i);
        return;
    }
    const DsraState *st = &d->states[q];
    for (int a = 0; a < st->natoms; a++)
        fprintf(out, "%sint a%d = %s_p%d_a%d(e, s);\n", ind, st->atoms[a], g->P, i, st->atoms[a]);
    char (*name)[24] = calloc((size_t)st->nnodes, sizeof *name);
    if (!name)
        abort();
    put_node(out, ind, d, q, 0, name);
    fprintf(out, "%sint leave = %s;\n", ind, name[0]);
    free(name);
}

/* One event at a time up to index `lim` (C text): stops at the first
 * event that leaves or goes back in time, jumping to done. */
static void put_scalar(FILE *out, const Cg *g, int i, const Dsra *d, int q, const AstAttr *ts, const char *lim)
{
    fprintf(out, "    for (; j < %s; j++) {\n        const %s_event *e = &events[j];\n", lim, g->P);
    put_leave(out, "        ", g, i, d, q);
    fputs("        if (leave", out);
    if (ts) {
        fputs(" || e->", out);
        cg_put_field(out, ts);
        fputs(" < last", out);
    }
    fputs(")\n            goto done;\n", out);
    if (ts) {
        fputs("        last = e->", out);
        cg_put_field(out, ts);
        fputs(";\n", out);
    }
    fputs("    }\n", out);
}

/* Whether e reads a register or calls an extern function. */
static bool reads_more(const AstExpr *e)
{
    if (!e)
        return false;
    if (e->kind == EX_REGATTR || e->kind == EX_CALL)
        return true;
    return reads_more(e->lhs) || reads_more(e->rhs);
}

/* The top-level conjuncts of cond that read only the event, into out
 * (at most SEQ_MAX_CONJ); how many. Each is necessary for cond: the whole
 * condition holds only if every conjunct does (a failed evaluation fails
 * the whole, docs/language.md 3.2). */
static int event_conjuncts(const AstExpr *cond, const AstExpr **out, int n)
{
    if (!cond)
        return n;
    if (cond->kind == EX_AND)
        return event_conjuncts(cond->rhs, out, event_conjuncts(cond->lhs, out, n));
    if (n < SEQ_MAX_CONJ && !reads_more(cond))
        out[n++] = cond;
    return n;
}

/* L when pattern p is a strict sequence of 2 <= L <= SEQ_MAX_LEN
 * single-event atoms under a count window of at least L events, matched
 * by a dsra or tdfa whose start state holds no run (a tagged tdfa's: no
 * slot), and an atom has a conjunct to test; else 0. */
static int strict_length(const Dsra *d, const AstPattern *p)
{
    const AstRegex *b = p ? p->body : NULL;
    if (!b || (d->tagged && d->states[0].nmembers > 0) || b->kind != RX_SEQ || b->nkids < 2 ||
        b->nkids > SEQ_MAX_LEN || p->hdr.policy != POLICY_STRICT || p->hdr.window.kind != WIN_EVENTS ||
        p->hdr.window.value < b->nkids)
        return 0;
    int tested = 0;
    for (int t = 0; t < b->nkids; t++) {
        const AstExpr *c[SEQ_MAX_CONJ];
        if (b->kids[t]->kind != RX_ATOM)
            return 0;
        tested += event_conjuncts(b->kids[t]->cond, c, 0);
    }
    return tested ? b->nkids : 0;
}

int cg_accel_seq(const Cg *g, const Dsra *d, const AstPattern *p)
{
    return g->threaded && cg_accel_state(g, d, 0) ? strict_length(d, p) : 0;
}

/* The enum attribute every conjunct of the sequence reads, if they read
 * one and nothing else (`type == B`): then a table by its value gives an
 * event's byte; else NULL. */
static const AstAttr *only_enum(const AstExpr *e, const AstAttr *a, bool *other)
{
    if (!e)
        return a;
    if (e->kind == EX_ATTR) {
        if (e->attr->kind != ATTR_ENUM || (a && a != e->attr))
            *other = true;
        return e->attr;
    }
    return only_enum(e->rhs, only_enum(e->lhs, a, other), other);
}

static const AstAttr *seq_enum(const AstPattern *p)
{
    const AstAttr *a = NULL;
    bool other = false;
    for (int t = 0; t < p->body->nkids; t++) {
        const AstExpr *c[SEQ_MAX_CONJ];
        int nc = event_conjuncts(p->body->kids[t]->cond, c, 0);
        for (int k = 0; k < nc; k++)
            a = only_enum(c[k], a, &other);
    }
    return other ? NULL : a;
}

/* P_pI_seq_tab[v]: the byte of an event whose enum a is v (the conjuncts
 * evaluated by eval.c, the reference's own evaluation); [nvalues]: of any
 * other value, which equals no value of the enum (enums compare with ==
 * and != only). */
static void emit_seq_table(Cg *g, int i, const AstPattern *p, const AstAttr *a)
{
    const AstSchema *sc = g->schema;
    Value *ev = calloc((size_t)sc->nattrs, sizeof *ev);
    if (!ev)
        abort();
    EvalCtx cx = {ev, NULL, NULL, NULL};
    fprintf(g->code.f, "/* Bit t: atom t's conjuncts on the event alone hold, by the value of %s. */\n"
                       "static const uint8_t %s_p%d_seq_tab[%d] = {",
            a->name, g->P, i, a->nvalues + 1);
    for (int v = 0; v <= a->nvalues; v++) {
        unsigned byte = 0;
        ev[a->index].i = v;
        for (int t = 0; t < p->body->nkids; t++) {
            const AstExpr *c[SEQ_MAX_CONJ];
            int nc = event_conjuncts(p->body->kids[t]->cond, c, 0), k = 0;
            while (k < nc && eval_cond(c[k], &cx))
                k++;
            byte |= (unsigned)(k == nc) << t;
        }
        fprintf(g->code.f, "%s%u", v ? ", " : "", byte);
    }
    fputs("};\n\n", g->code.f);
    free(ev);
}

/* The conjunct functions P_pI_sT_C of the sequence's atoms (cg_cond.c). */
static void emit_seq_conds(Cg *g, int i, const AstPattern *p)
{
    char fname[CG_NAME_MAX];
    const AstAttr *a = seq_enum(p);
    if (a) {
        emit_seq_table(g, i, p, a);
        return;
    }
    for (int t = 0; t < p->body->nkids; t++) {
        const AstExpr *c[SEQ_MAX_CONJ];
        int nc = event_conjuncts(p->body->kids[t]->cond, c, 0);
        for (int k = 0; k < nc; k++) {
            snprintf(fname, sizeof fname, "%s_p%d_s%d_%d", g->P, i, t, k);
            cg_emit_cond_fn(g->code.f, g->P, fname, "const void *const *regs", c[k], REG_EVENTS, NULL, 0);
        }
    }
}

/* The blocks of a strict sequence of L atoms: a byte per event, bit t
 * when atom t's conjuncts hold; a block has a candidate when the bits of
 * L consecutive bytes line up. Loops with no branch that compilers
 * vectorize (the atoms, the timestamps going back, the candidates: apart,
 * as one loop they are not); the first candidate is looked for only in a
 * block that has one, and a block with a step back is stepped. */
static void put_seq_blocks(FILE *out, const Cg *g, int i, const AstPattern *p, int L, const AstAttr *ts)
{
    /* f[-8..-1]: no atom holds there (the words of the first ends read them) */
    fprintf(out, "    uint8_t fb[%d] = {0}, *f = fb + 8;\n", SEQ_BLOCK + 8);
    /* unrolled: at -O2 (sremc build's), which vectorizes none of these
       loops, the loop's own instructions were a third of the block's */
    fprintf(out, "    while (n - j >= %d) {\n        const %s_event *ev = events + j;\n"
                 "        unsigned cand;\n        uint64_t cands = 0;\n"
                 "#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 8)\n#pragma GCC unroll 8\n#endif\n"
                 "        for (unsigned b = 0; b < %d; b++) {\n"
                 "            const %s_event *e = &ev[b];\n            f[b] = (uint8_t)(",
            SEQ_BLOCK, g->P, SEQ_BLOCK, g->P);
    const AstAttr *a = seq_enum(p);
    for (int t = 0; t < L && !a; t++) {
        const AstExpr *c[SEQ_MAX_CONJ];
        int nc = event_conjuncts(p->body->kids[t]->cond, c, 0);
        fputs(t ? "\n                | " : "", out);
        fputs(nc > 1 || t ? "(" : "", out);
        for (int k = 0; k < nc; k++)
            fprintf(out, "%s%s_p%d_s%d_%d(e, NULL)", k ? " & " : "", g->P, i, t, k);
        fprintf(out, "%s%s", nc ? "" : "1", nc > 1 || t ? ")" : "");
        if (t)
            fprintf(out, " << %d", t);
    }
    if (a) {   /* a load and a select: no compare per atom */
        fprintf(out, "%s_p%d_seq_tab[(uint32_t)e->", g->P, i);
        cg_put_field(out, a);
        fprintf(out, " < %du ? (uint32_t)e->", a->nvalues);
        cg_put_field(out, a);
        fprintf(out, " : %du]", a->nvalues);
    }
    fputs(");\n        }\n", out);
    /* an end at byte b needs atom t's bit in byte b - (L - 1 - t): 8 ends
       a word (a shift moves a byte's bit t to bit L - 1 of the same byte;
       what it carries into the next byte lands below that bit) */
    fprintf(out, "        for (unsigned w = 0; w < %d; w += 8)\n            cands |= %s_p%d_word(f + w)", SEQ_BLOCK,
            g->P, i);
    for (int t = 0; t < L - 1; t++)
        fprintf(out, " & %s_p%d_word(f + w - %d) << %d", g->P, i, L - 1 - t, L - 1 - t);
    fprintf(out, ";\n        cand = (unsigned)(cands >> %d & UINT64_C(0x0101010101010101) ? 1u << %d : 0u);\n", L - 1,
            L - 1);
    if (ts) {   /* 4 a turn, each timestamp loaded once */
        fprintf(out, "        unsigned back = 0;\n        int64_t prev = last;\n"
                     "        for (unsigned b = 0; b < %d; b += 4) {\n            const %s_event *e = &ev[b];\n",
                SEQ_BLOCK, g->P);
        for (int u = 0; u < 4; u++) {
            fprintf(out, "%s%d = e[%d].", u ? ", t" : "            int64_t t", u, u);
            cg_put_field(out, ts);
        }
        fputs(";\n            back |= (unsigned)(t0 < prev) | (unsigned)(t1 < t0) | (unsigned)(t2 < t1) | "
              "(unsigned)(t3 < t2);\n            prev = t3;\n        }\n"
              "        if (back)\n            goto done;   /* stepped: the rule rejects it */\n", out);
    }
    /* a block with candidates keeps their starts (s->seq_*), so that the
       calls after the first candidate's steps go to the next at once */
    fprintf(out, "        if (cand >> %d & 1u) {   /* stop at the first candidate's first event */\n"
                 "            uint64_t starts = 0;\n            for (unsigned w = 0; w < %d; w += 8) {\n"
                 "                uint64_t c = %s_p%d_word(f + w)",
            L - 1, SEQ_BLOCK, g->P, i);
    /* 8 ends at a time: the bytes as words (a shift moves a byte's bit t
       to bit L - 1 of the same byte; what it carries into the next byte
       lands below that bit), bit L - 1 of each byte gathered by a
       multiplication */
    for (int t = 0; t < L - 1; t++)
        fprintf(out, " & %s_p%d_word(f + w - %d) << %d", g->P, i, L - 1 - t, L - 1 - t);
    fprintf(out, ";\n                starts |= ((c >> %d & UINT64_C(0x0101010101010101)) * UINT64_C(0x0102040810204080) >> 56)"
                 " << w;\n            }\n            starts >>= %d;   /* ends to starts */\n",
            L - 1, L - 1);
    fprintf(out, "            s->seq_cand = starts;\n            s->seq_base = s->pos + 1 + (int64_t)(j - k);\n"
                 "            s->seq_end = s->seq_base + %d;\n            j += %s_p%d_low(starts);\n"
                 "            goto done;\n        }\n",
            SEQ_BLOCK + 1 - L, g->P, i);
    if (ts) {
        fprintf(out, "        last = ev[%d].", SEQ_BLOCK - L);
        cg_put_field(out, ts);
        fputs(";\n", out);
    }
    fprintf(out, "        j += %d;   /* the last %d events start runs the next block tests */\n    }\n",
            SEQ_BLOCK - (L - 1), L - 1);
}

/* Where the last block with candidates left the next start (its events
 * passed the timestamp rule when it was tested): at it, or past the
 * block's tested starts, without testing again. */
static void put_seq_known(FILE *out, const Cg *g, int i, const AstAttr *ts)
{
    fprintf(out, "    int64_t at = s->pos + 1;   /* events[k]'s position */\n"
                 "    if (k < n && at >= s->seq_base && at < s->seq_end) {\n"
                 "        uint64_t rest = s->seq_cand >> (at - s->seq_base);\n"
                 "        size_t to = rest ? %s_p%d_low(rest) : (size_t)(s->seq_end - at);\n"
                 "        j = k + (n - k < to ? n - k : to);\n        if (rest)\n            goto done;\n",
            g->P, i);
    if (ts) {
        fputs("        if (j > k)\n            last = events[j - 1].", out);
        cg_put_field(out, ts);
        fputs(";\n", out);
    }
    fputs("    }\n", out);
}

/* The leave test's blocks of state q, after the first events one at a
 * time: a bit per event that leaves, no branch until the block's end. */
static void put_leave_blocks(FILE *out, const Cg *g, int i, const Dsra *d, int q, const AstAttr *ts)
{
    const char *P = g->P;
    /* the first events one at a time: where the state is left within a few
     * events (a start event 1 in 10), a block would test events in vain */
    fprintf(out, "    size_t lim = n - j > %d ? j + %d : n;\n", ACCEL_BLOCK, ACCEL_BLOCK);
    put_scalar(out, g, i, d, q, ts, "lim");
    /* blocks: a bit per event that leaves, no branch until the block's end */
    fprintf(out, "    while (n - j >= %d) {\n        uint32_t stop = 0;\n        for (unsigned b = 0; b < %d; b++) {\n"
                 "            const %s_event *e = &events[j + b];\n",
            ACCEL_BLOCK, ACCEL_BLOCK, P);
    put_leave(out, "            ", g, i, d, q);
    if (ts) {
        fputs("            int back = e->", out);
        cg_put_field(out, ts);
        fputs(" < (b ? events[j + b - 1].", out);
        cg_put_field(out, ts);
        fputs(" : last);\n            stop |= (uint32_t)(leave | back) << b;\n", out);
    } else {
        fputs("            stop |= (uint32_t)leave << b;\n", out);
    }
    /* the first stop without a loop that mispredicts where a builtin has it */
    fputs("        }\n        if (stop) {\n#if defined(__GNUC__)\n            j += (size_t)__builtin_ctz(stop);\n#else\n"
          "            while (!(stop & 1u)) {\n                stop >>= 1;\n                j++;\n            }\n#endif\n"
          "            goto done;\n        }\n",
          out);
    if (ts) {
        fprintf(out, "        last = events[j + %d].", ACCEL_BLOCK - 1);
        cg_put_field(out, ts);
        fputs(";\n", out);
    }
    fprintf(out, "        j += %d;\n    }\n", ACCEL_BLOCK);
}

/* The skip function of state q of d (d NULL: of an idle chain); p: the
 * pattern, for a strict sequence's blocks. */
static void emit_skip(Cg *g, int i, const Dsra *d, int q, const AstPattern *p)
{
    FILE *out = g->code.f;
    const char *P = g->P;
    int H = d && d->kind == DSRA_DSRA ? d->history : 0;
    const AstAttr *ts = g->schema->ts_attr >= 0 ? &g->schema->attrs[g->schema->ts_attr] : NULL;
    int L = d && q == 0 ? strict_length(d, p) : 0;

    if (L) {
        emit_seq_conds(g, i, p);
        fprintf(out, "/* The index of the lowest bit set in x (not 0). */\nstatic unsigned %s_p%d_low(uint64_t x)\n{\n"
                     "#if defined(__GNUC__)\n    return (unsigned)__builtin_ctzll(x);\n#else\n    unsigned b = 0;\n"
                     "    while (!(x >> b & 1u))\n        b++;\n    return b;\n#endif\n}\n\n"
                     "/* The 8 bytes at p as a word, p[0] lowest (one load where the host is little-endian). */\n"
                     "static inline uint64_t %s_p%d_word(const uint8_t *p)\n{\n"
                     "    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |\n"
                     "           (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;\n}\n\n",
                P, i, P, i);
    }
    if (L)
        fprintf(out,
                "/* State 0 of a strict sequence of %d atoms: events[k..] skipped\n"
                " * (acceleration) in blocks where no %d consecutive events pass the\n"
                " * atoms' tests on the event alone: the first index at or after k where\n"
                " * such a candidate starts%s, or n. Counters, %sring as if stepped. */\n",
                L, L, ts ? " or a block goes back in time" : "", ts ? "the last timestamp and the " : "the ");
    else if (d)
        fprintf(out,
                "/* State %d: events[k..] that keep it without a detection, skipped\n"
                " * (acceleration): the first index at or after k whose event leaves\n"
                " * the state%s, or n. Counters, %sring as if stepped. */\n",
                q, ts ? " or goes back in time" : "", ts ? "the last timestamp and the " : "the ");
    else
        fprintf(out,
                "/* An idle chain: events[k..] where atom 1 does not hold, skipped\n"
                " * (acceleration): the first index at or after k whose event starts a\n"
                " * chain%s, or n. Counters%s as if stepped. */\n",
                ts ? " or goes back in time" : "", ts ? " and the last timestamp" : "");
    fprintf(out, "static size_t %s_p%d_skip%d(%s_matcher *m, %s_p%d_st *s, const %s_event *events, size_t k, size_t n)\n{\n",
            P, i, q, P, P, i, P);
    fputs("    size_t j = k;\n", out);
    if (ts) {
        fputs("    int64_t last = m->order.last;\n    if (!m->order.seen)\n        return k;   /* the first event sets the rule */\n", out);
    }
    if (L) {   /* at once: blocks pass over the events that leave the state but start no candidate */
        put_seq_known(out, g, i, ts);
        put_seq_blocks(out, g, i, p, L, ts);
    }
    else
        put_leave_blocks(out, g, i, d, q, ts);
    /* the tail, one event at a time */
    put_scalar(out, g, i, d, q, ts, "n");
    fputs("done:\n    if (j == k)\n        return k;\n", out);
    fputs("    m->stats.events += j - k;\n    m->index += (int64_t)(j - k);\n    s->pos += (int64_t)(j - k);\n", out);
    if (ts) {
        /* the block loop kept last at the end of whole blocks; the
         * stopping block's prefix passed the rule too */
        fputs("    m->order.last = events[j - 1].", out);
        cg_put_field(out, ts);
        fputs(";\n", out);
    }
    if (H > 0)
        fprintf(out, "    /* the ring holds the last %d events: the skipped ones it keeps */\n"
                     "    for (size_t r = j - k > %d ? j - %d : k; r < j; r++)\n"
                     "        s->ring[(s->pos - (int64_t)(j - 1 - r)) %% %d] = events[r];\n",
                H, H, H, H);
    fputs("    return j;\n}\n\n", out);
}

void cg_emit_accel(Cg *g, int i, const Dsra *d, int q, const AstPattern *p)
{
    emit_skip(g, i, d, q, p);
}

bool cg_accel_chain(const Cg *g, const Chain *c)
{
    return !g->o->no_accel && c->links[0].cond != NULL;
}

void cg_emit_accel_chain(Cg *g, int i)
{
    emit_skip(g, i, NULL, 0, NULL);
}
