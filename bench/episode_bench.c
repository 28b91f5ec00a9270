/* episode_bench.c: ns/event of the episode counters (runtime/episode.c)
 * for k = 3, 5, 7 on a synthetic stream: event types uniform over k + 2
 * values (seeded), so two types in k + 2 satisfy no element; the element
 * masks come from a table indexed by type, as generated code computes them.
 * Rates are per second of CPU time (the process clock). Not a test: the
 * numbers go to docs/episodes.md.
 *
 *   cc -O2 -std=c99 -Iruntime/include bench/episode_bench.c lib/libsremrt.a -o build/episode_bench
 *   ./build/episode_bench [events]
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

static uint64_t rng(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

typedef struct row {
    const char *name;
    sremrt_episode_freq freq;
    uint32_t flags;
    int repeat;          /* element 2 repeats element 1's type: <A,A,C,...> */
    long events;         /* how many to run (the costly one gets fewer) */
} row;

/* One measurement: ns/event, frequency, exactness, configurations. */
static void measure(const row *r, int k, sremrt_episode_window win, int64_t width, int32_t cap,
                    const uint8_t *types, long n)
{
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_episode_config cfg;
    sremrt_episode ep;
    uint32_t mask_of[16];
    int t, m;
    long i;
    double t0, t1;
    memset(&cfg, 0, sizeof cfg);
    cfg.k = k;
    cfg.freq = r->freq;
    cfg.window = win;
    cfg.width = width;
    cfg.flags = r->flags;
    cfg.list_cap = cap;
    for (t = 0; t < 16; t++) {
        mask_of[t] = 0;
        for (m = 0; m < k; m++) {
            int want = r->repeat && m == 1 ? 0 : m;   /* element m+1 is type `want` */
            if (t == want)
                mask_of[t] |= 1u << m;
        }
    }
    if (sremrt_episode_init(&ep, &cfg, &heap) != 0) {
        printf("init failed\n");
        return;
    }
    if (n > r->events)
        n = r->events;
    t0 = now();
    /* Time windows: two events per time unit (equal timestamps). */
    for (i = 0; i < n; i++)
        sremrt_episode_push(&ep, i + 1, i >> 1, mask_of[types[i]]);
    t1 = now();
    printf("| %d | %s | %s %lld | %.1f | %lld | %s | %d |\n", k, r->name,
           win == SREMRT_EPISODE_TIME ? "time" : "events", (long long)width,
           (t1 - t0) * 1e9 / (double)n, (long long)ep.freq, ep.exact ? "yes" : "no", (int)ep.peak);
    sremrt_episode_free(&ep);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 20000000L;
    static const row rows[] = {
        {"nonoverlapped", SREMRT_EPISODE_NONOVERLAPPED, 0, 0, 1L << 40},
        {"distinct, exclusive flag", SREMRT_EPISODE_DISTINCT, SREMRT_EPISODE_EXCLUSIVE, 0, 1L << 40},
        {"distinct, no flag", SREMRT_EPISODE_DISTINCT, 0, 0, 1L << 40},
        {"nonoverlapped <A,A,..>", SREMRT_EPISODE_NONOVERLAPPED, 0, 1, 1L << 40},
        {"distinct <A,A,..>", SREMRT_EPISODE_DISTINCT, 0, 1, 20000},
    };
    static const int64_t widths[] = {10, 100, 1000};
    uint8_t *types = malloc((size_t)n);
    uint64_t seed = 42;
    int k, w;
    size_t r;
    long i;
    if (!types)
        return 1;
    printf("| k | counter | window | ns/event | freq | exact | configurations |\n");
    printf("|---|---|---|---|---|---|---|\n");
    for (k = 3; k <= 7; k += 2) {
        for (i = 0; i < n; i++)
            types[i] = (uint8_t)(rng(&seed) % (uint64_t)(k + 2));
        for (r = 0; r < sizeof rows / sizeof rows[0]; r++) {
            /* lists as long as the window: no overflow */
            for (w = 0; w < 3; w++)
                measure(&rows[r], k, SREMRT_EPISODE_EVENTS, widths[w], (int32_t)widths[w], types, n);
            measure(&rows[r], k, SREMRT_EPISODE_TIME, 50, 128, types, n);
        }
    }
    free(types);
    return 0;
}
