/* adapter.c: one generated matcher behind the driver's bench_ops. Compiled
 * once per matcher with -DPFX=name -DHDR='"name.h"' (bench/run.sh); the
 * matcher itself is another translation unit, as a user would build it, so
 * each event costs one call of PFX_push. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include HDR

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define N(x) CAT(PFX, x)

static void on_record(void *user, const sremrt_record *r)
{
    if (r->kind == SREMRT_MATCH)
        ++*(uint64_t *)user;
}

static void *bopen(uint64_t *count)
{
    N(_config) cfg;
    N(_matcher) *m = malloc(N(_matcher_size)());
    if (!m) {
        perror("malloc");
        exit(1);
    }
    N(_config_default)(&cfg);
    cfg.record = on_record;
    cfg.user = count;
    if (N(_init)(m, &cfg) != 0) {
        fprintf(stderr, "bench: init failed\n");
        exit(1);
    }
    return m;
}

static void bfeed(void *mp, const bench_rec *ev, size_t n)
{
    N(_matcher) *m = mp;
    N(_event) e;
    size_t i;
    for (i = 0; i < n; i++) {
        e.ts = (int64_t)ev[i].ts;
        e.type = (int32_t)ev[i].type;
        e.val = ev[i].val;
        if (N(_push)(m, &e) != 0) {
            fprintf(stderr, "bench: event %zu rejected: %s\n", i, N(_error)(m));
            exit(1);
        }
    }
}

static uint64_t bclose(void *mp)
{
    N(_matcher) *m = mp;
    const sremrt_stats *st;
    uint64_t ovf;
    N(_finish)(m);
    st = N(_stats)(m);
    ovf = sremrt_stats_overflows(st);
    N(_free)(m);
    free(m);
    return ovf;
}

const bench_ops N(_bench_ops) = { bopen, bfeed, bclose };
