/* explore_bench.c: events/s of the explore counting algorithms (default,
 * bf, rc, ic) as the window grows, on a synthetic stream of 6 event types
 * (uniform, seeded), pattern <A,B,C>, extensions and variations. Slow
 * algorithms run under a time budget per cell and report the rate over the
 * prefix they got through. Rates are per second of CPU time (the process
 * clock), so a busy machine skews them less. Not a test: the numbers go
 * to docs/explore.md.
 *
 *   cc -O2 -std=c99 -Iruntime/include bench/explore_bench.c lib/libsremrt.a -o build/explore_bench
 *   ./build/explore_bench [events] [budget-seconds]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sremrt/sremrt.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct cell {
    double rate;        /* events/s */
    long done;          /* events processed */
    uint64_t total;     /* matches counted */
} cell;

static cell run(const int32_t *types, const int64_t *ts, long n, sremrt_explore_policy pol,
                sremrt_explore_window win, int64_t w, sremrt_explore_algo algo, double budget)
{
    static const int32_t abc[] = {0, 1, 2};
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_explore_config cfg;
    sremrt_explore ex;
    sremrt_explore_part part;
    cell c;
    double t0, t1;
    long i;
    uint64_t sink = 0;
    memset(&cfg, 0, sizeof cfg);
    cfg.pattern = abc;
    cfg.m = 3;
    cfg.nvalues = 6;
    cfg.policy = pol;
    cfg.window = win;
    cfg.width = w;
    cfg.extensions = cfg.variations = 1;
    cfg.confidence = 0.2;
    cfg.algo = algo;
    cfg.capacity = win == SREMRT_EXPLORE_EVENTS ? w : 8 * w;
    if (sremrt_explore_init(&ex, &cfg, &heap) || sremrt_explore_part_init(&ex, &part, &heap)) {
        fprintf(stderr, "init failed\n");
        exit(1);
    }
    t0 = now();
    t1 = t0;
    for (i = 0; i < n; i++) {
        sink += (uint64_t)sremrt_explore_push(&ex, &part, ts[i], types[i], NULL);
        if ((i & 1023) == 1023) {
            t1 = now();
            if (t1 - t0 > budget) {
                i++;
                break;
            }
        }
    }
    t1 = now();
    c.done = i;
    c.rate = (double)i / (t1 - t0);
    c.total = sremrt_ptrie_total(&ex.trie) + (sink & 0);
    if (ex.inexact)
        fprintf(stderr, "warning: ring overflow (%llu)\n", (unsigned long long)ex.overflows);
    sremrt_explore_part_free(&part);
    sremrt_explore_free(&ex);
    return c;
}

int main(int argc, char **argv)
{
    static const int64_t widths[] = {100, 300, 1000, 3000, 10000};
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    double budget = argc > 2 ? atof(argv[2]) : 5.0;
    int32_t *types = malloc((size_t)n * sizeof *types);
    int64_t *ts = malloc((size_t)n * sizeof *ts);
    uint64_t x = 0x2545F4914F6CDD1Du;
    long i;
    int pol, wi, a, win;
    if (!types || !ts)
        return 1;
    for (i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        types[i] = (int32_t)(x % 6);
        ts[i] = i;   /* one event per time unit: time window D = count window D+1 */
    }
    printf("%ld events, 6 types, pattern <A,B,C>, extensions+variations, budget %.0f s/cell\n",
           n, budget);
    for (win = 0; win < 2; win++)
        for (pol = 0; pol < 2; pol++) {
            printf("\n%s, %s window\n%8s", pol ? "stnm" : "stam", win ? "time" : "count", "w");
            for (a = 0; a < SREMRT_EXPLORE_ALGOS; a++)
                printf(" %14s", sremrt_explore_algo_name((sremrt_explore_algo)a));
            printf("   matches counted\n");
            for (wi = 0; wi < (int)(sizeof widths / sizeof widths[0]); wi++) {
                uint64_t total = 0;
                printf("%8lld", (long long)widths[wi]);
                for (a = 0; a < SREMRT_EXPLORE_ALGOS; a++) {
                    cell c = run(types, ts, n, (sremrt_explore_policy)pol,
                                 win ? SREMRT_EXPLORE_TIME : SREMRT_EXPLORE_EVENTS,
                                 win ? widths[wi] - 1 : widths[wi], (sremrt_explore_algo)a, budget);
                    printf(" %13.3gM%s", c.rate / 1e6, c.done < n ? "*" : " ");
                    if (c.done == n)
                        total = c.total;
                    fflush(stdout);
                }
                printf("   %llu\n", (unsigned long long)total);
            }
        }
    printf("\n* = time budget hit: rate over the events processed\n");
    free(types);
    free(ts);
    return 0;
}
