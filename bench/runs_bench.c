/* runs_bench.c: events/s of one generated runs matcher on a seeded stream
 * (bench/runs.sh). Compiled once per matcher with -DPFX=name
 * -DHDR='"name.h"' against the schema
 *     S { type : enum { A, B, C }; id : int; v : int; t : timestamp(ms); }
 * The stream: type A, B, C with probabilities 1/4, 1/4, 1/2; id uniform in
 * [0, IDS); v uniform in [0, 100); t advancing 1 ms every 16 events (all
 * of 10 M events within an hour). Events go through PFX_push_many in
 * blocks of 256, in passes of at most N events until SECS seconds of CPU time have passed;
 * prints the median events/s of REPS passes, matches and overflows.
 *
 *   runs_bench N IDS REPS SECS   (prints "events/s EPS matches M overflow O events E") */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include HDR

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define N(x) CAT(PFX, x)

static void count(void *user, const sremrt_record *r)
{
    (void)r;
    ++*(long *)user;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);   /* CPU time: the machine may be shared */
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fputs("usage: runs_bench N IDS REPS SECS\n", stderr);
        return 2;
    }
    long n = atol(argv[1]), ids = atol(argv[2]);
    int reps = atoi(argv[3]);
    double secs = atof(argv[4]);
    N(_event) *ev = malloc((size_t)n * sizeof *ev);
    double *eps = malloc((size_t)reps * sizeof *eps);
    N(_matcher) *m = malloc(N(_matcher_size)());
    if (!ev || !eps || !m || ids < 1 || reps < 1)
        return 2;
    uint64_t seed = 0x9e3779b97f4a7c15u;
    for (long k = 0; k < n; k++) {
        uint64_t r = next_rand(&seed);
        ev[k].type = (r & 3) == 0 ? 0 : (r & 3) == 1 ? 1 : 2;
        ev[k].id = (int64_t)((r >> 8) % (uint64_t)ids);
        ev[k].v = (int64_t)((r >> 40) % 100);
        ev[k].t = k / 16;
    }
    long matches = 0, done = 0;
    uint64_t overflow = 0;
    for (int rep = 0; rep < reps; rep++) {
        N(_config) cfg;
        N(_config_default)(&cfg);
        cfg.record = count;
        matches = 0;
        cfg.user = &matches;
        if (N(_init)(m, &cfg) != 0)
            return 1;
        double t0 = now(), t = t0;
        done = 0;
        while (done < n && t - t0 < secs) {
            long end = done + 4096 < n ? done + 4096 : n;
            for (long k = done; k < end; k += 256)
                N(_push_many)(m, ev + k, (size_t)(end - k < 256 ? end - k : 256));
            done = end;
            t = now();
        }
        eps[rep] = (double)done / (t - t0);
        overflow = 0;
        for (int k = 0; k < SREMRT_OVF_KINDS; k++)
            overflow += N(_stats)(m)->overflow[k];
        N(_free)(m);
    }
    qsort(eps, (size_t)reps, sizeof *eps, cmp_double);
    printf("events/s %.0f matches %ld overflow %llu events %ld\n", eps[reps / 2], matches,
           (unsigned long long)overflow, done);
    free(ev);
    free(eps);
    free(m);
    return 0;
}
