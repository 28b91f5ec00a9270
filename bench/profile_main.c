/* profile_main.c: one generated matcher over the docs/workloads.md stream of
 * one-byte types (or, -DPROFILE_RECORDS, of 16-byte records {ts, type,
 * val} as bench_main.c makes them), for a profiler (bench/profile.sh runs
 * it under callgrind): PFX_bench_ops of the adapter it is linked with.
 *   profile_main K EVENTS [PM]   prints the match records; PM (one-byte
 *   types, K = 26): B8's stream, A with probability PM / 1000, else one of
 *   the other 25 types (bench_main.c's gen_rare) */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
extern const bench_ops CAT(PFX, _bench_ops);

int main(int argc, char **argv)
{
    const bench_ops *ops = &CAT(PFX, _bench_ops);
    uint32_t k = argc > 1 ? (uint32_t)atoi(argv[1]) : 10;
    size_t n = argc > 2 ? (size_t)strtoull(argv[2], NULL, 10) : 5000000, i;
    int pm = argc > 3 ? atoi(argv[3]) : 0;
    uint64_t lim = (uint64_t)((double)pm / 1000.0 * 9007199254740992.0);
    uint64_t x = 88172645463325252ULL;
    uint8_t *ty = malloc(n ? n : 1);
    bench_counts c = {0};
    void *m;
    if (!ty || k < 1 || k > 26) {
        fprintf(stderr, "usage: %s K EVENTS\n", argv[0]);
        return 2;
    }
#ifdef PROFILE_RECORDS
    bench_rec *rec = malloc(n * sizeof *rec + 1);
    if (!rec)
        return 1;
#endif
    for (i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        ty[i] = (uint8_t)('A' + x % k);
        if (pm > 0)
            ty[i] = (x >> 11) < lim ? 'A' : (uint8_t)('B' + x % 25);
#ifdef PROFILE_RECORDS
        rec[i].ts = i;
        rec[i].type = (uint32_t)(x % k);
        rec[i].val = (float)(x >> 40) * (1.0f / 16777216.0f);
#endif
    }
    m = ops->open_counts(&c, 0);
#ifdef PROFILE_RECORDS
    ops->feed(m, rec, n);
    free(rec);
#else
    ops->feed8(m, ty, n);
#endif
    ops->close(m);
    printf("%" PRIu64 " match records, %" PRIu64 " summary freq over %zu events\n", c.matches,
           c.summary, n);
    free(ty);
    return 0;
}
