/* profile_main.c: one generated matcher over the docs/workloads.md stream of
 * one-byte types (or, -DPROFILE_RECORDS, of 16-byte records {ts, type,
 * val} as bench_main.c makes them), for a profiler (bench/profile.sh runs
 * it under callgrind): PFX_bench_ops of the adapter it is linked with.
 *   profile_main K EVENTS [PM [REPS]]   prints the match records; PM
 *   (one-byte types, K = 26): B8's stream, A with probability PM / 1000,
 *   else one of the other 25 types (bench_main.c's gen_rare), 0: the
 *   uniform stream; REPS: also the median thread CPU ns per event of REPS
 *   feeds of a new matcher (bench/ab.sh) */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "timing.h"

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
        fprintf(stderr, "usage: %s K EVENTS [PM [REPS]]\n", argv[0]);
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
    int reps = argc > 4 ? atoi(argv[4]) : 1, r;
    double t[64];
    reps = reps < 1 ? 1 : reps > 64 ? 64 : reps;
    for (r = 0; r < reps; r++) {   /* each a new matcher over the same events */
        bench_counts cr = {0};
        m = ops->open_counts(&cr, 0);
        t[r] = now();
#ifdef PROFILE_RECORDS
        ops->feed(m, rec, n);
#else
        ops->feed8(m, ty, n);
#endif
        t[r] = (now() - t[r]) * 1e9 / (double)(n ? n : 1);
        ops->close(m);
        c = cr;
    }
#ifdef PROFILE_RECORDS
    free(rec);
#endif
    printf("%" PRIu64 " match records, %" PRIu64 " summary freq over %zu events\n", c.matches,
           c.summary, n);
    if (argc > 4)
        printf("%.3f ns/event (median of %d)\n", median(t, reps), reps);
    free(ty);
    return 0;
}
