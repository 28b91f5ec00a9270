/* explore_step.c: the generated counting step of one explore clause (the
 * matcher's pattern p0, not partitioned) -> the explore bench's
 * xb_step_ops, so bench/explore_bench.c can time it beside the runtime's
 * algorithms on the same records. Compiled once per clause with
 * -DPFX=name -DSRC='"name.c"': it includes the generated C, whose step
 * (PFX_p0_xpush) is static, and feeds the clause's state in the matcher
 * directly, without the pattern's own matching, in locals as a program's
 * push loop keeps it (PFX_p0_xload, PFX_p0_xstep, PFX_p0_xsave). */
#include <stdio.h>
#include <stdlib.h>

#include SRC

#include "bench.h"

#define XS_CAT_(a, b) a##b
#define XS_CAT(a, b) XS_CAT_(a, b)
#define XS(x) XS_CAT(PFX, x)

static void *xs_open(void)
{
    XS(_matcher) *m = malloc(sizeof *m);
    if (!m || XS(_init)(m, NULL) != 0) {
        fprintf(stderr, "explore_step: init failed\n");
        exit(1);
    }
    return m;
}

/* The events through the step as a program's push loop runs it: the
 * state in locals (xload, xstep per event, xsave). The counts come from
 * the trie (p's node, every candidate's nodes); detections are the events
 * where p's node gained (pf, a local), one compare per event. */
static void xs_run(void *vm, const bench_rec *ev, size_t n, xb_step_totals *t)
{
    XS(_matcher) *m = vm;
    sremrt_explore *ex = &m->p0_ex;
    const sremrt_ptrie_node *nd;
    sremrt_explore_step step;
    XS(_p0_xl) l;
    uint64_t pf, det = t->detections;
    size_t i;
    int32_t v;
    XS(_p0_xload)(ex, &m->p0_xp, &l, m->p0_xslack);
    pf = l.pf;
    for (i = 0; i < n; i++) {
        XS(_p0_xstep)(ex, &m->p0_xp, &l, (int64_t)ev[i].ts, (int32_t)ev[i].type, &step);
        det += l.pf != pf;
        pf = l.pf;
    }
    XS(_p0_xsave)(ex, &m->p0_xp, &l);
    nd = ex->trie.nodes;
    t->detections = det;
    t->pattern = nd[ex->pattern_node].freq;
    t->extension = t->variation = 0;
    for (v = 0; v < ex->cfg.nvalues; v++) {
        t->extension += ex->ext_node[v] >= 0 ? nd[ex->ext_node[v]].freq : 0;
        t->variation += ex->var_node[v] >= 0 ? nd[ex->var_node[v]].freq : 0;
    }
    t->trie = sremrt_ptrie_total(&ex->trie);
}

static uint64_t xs_close(void *vm)
{
    XS(_matcher) *m = vm;
    uint64_t ovf = m->p0_ex.overflows + (uint64_t)(m->p0_ex.may_wrap != 0);
    XS(_free)(m);
    free(m);
    return ovf;
}

const xb_step_ops XS(_step_ops) = {xs_open, xs_run, xs_close};
