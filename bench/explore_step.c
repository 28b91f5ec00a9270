/* explore_step.c: the generated counting step of one explore clause (the
 * matcher's pattern p0, not partitioned) -> the explore bench's
 * xb_step_ops, so bench/explore_bench.c can time it beside the runtime's
 * algorithms on the same records. Compiled once per clause with
 * -DPFX=name -DSRC='"name.c"': it includes the generated C, whose step
 * (PFX_p0_xpush) is static, and feeds the clause's state in the matcher
 * directly, without the pattern's own matching. */
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

static void xs_run(void *vm, const bench_rec *ev, size_t n, xb_step_totals *t)
{
    XS(_matcher) *m = vm;
    sremrt_explore_step step;
    size_t i;
    for (i = 0; i < n; i++) {
        XS(_p0_xpush)(&m->p0_ex, &m->p0_xp, (int64_t)ev[i].ts, (int32_t)ev[i].type, &step);
        t->pattern += step.pattern;
        t->extension += step.extension;
        t->variation += step.variation;
        t->detections += step.pattern != 0;
    }
    t->trie = sremrt_ptrie_total(&m->p0_ex.trie);
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
