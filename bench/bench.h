/* bench.h: what the benchmark driver (bench/bench_main.c) shares with the
 * per-matcher adapters (bench/adapter.c, compiled once per generated
 * matcher) and the entry table run.sh generates (build/bench/entries.c). */
#ifndef BENCH_H
#define BENCH_H

#include <stddef.h>
#include <stdint.h>

/* The 16-byte record of docs/workloads.md. */
typedef struct bench_rec {
    uint64_t ts;
    uint32_t type;
    float val;
} bench_rec;

/* What one pass of a matcher counted. */
typedef struct bench_counts {
    uint64_t matches;      /* match records (detections) */
    uint64_t summary;      /* explore: the summary record's freq (matches of p) */
    uint64_t heap_now;     /* bytes the matcher holds from its allocator hook */
    uint64_t heap_peak;    /* the most it held at once */
} bench_counts;

/* One generated matcher. Events are one-byte types ('A' + type, as
 * Hyperscan sees them: feed8, lat8) or 16-byte records (feed); both work
 * on every matcher. open, feed and close come first and keep their
 * signatures for bench/explore_bench.c. */
typedef struct bench_ops {
    void *(*open)(uint64_t *count);        /* count: match records go here */
    void (*feed)(void *m, const bench_rec *ev, size_t n);
    uint64_t (*close)(void *m);            /* finish; returns the overflows */
    /* open with every count and the allocator's bytes in *c; max_keys 0:
     * the default */
    void *(*open_counts)(bench_counts *c, int32_t max_keys);
    void (*feed8)(void *m, const uint8_t *ty, size_t n);
    /* one push per event, timed in groups of `per` pushes: ticks[i] = TSC
     * ticks of pushes i * per .. i * per + per - 1 (n a multiple of per) */
    void (*lat8)(void *m, const uint8_t *ty, size_t n, uint32_t *ticks, int per);
    size_t (*size)(void);                  /* NAME_matcher_size() */
} bench_ops;

/* The generated counting step of one explore clause alone (bench/explore_step.c,
 * for bench/explore_bench.c): what the events counted, and the trie's total. */
typedef struct xb_step_totals {
    uint64_t pattern, extension, variation, detections, trie;
} xb_step_totals;

typedef struct xb_step_ops {
    void *(*open)(void);
    void (*run)(void *m, const bench_rec *ev, size_t n, xb_step_totals *t);
    uint64_t (*close)(void *m);            /* returns FIFO overflows + may-wrap */
} xb_step_ops;

/* Time stamps around one call, in TSC ticks where there is a TSC (the
 * fences keep the call between them), else in nanoseconds. */
#if defined(__x86_64__) && defined(__GNUC__)
static inline uint64_t bench_tick_start(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi)::"memory");
    return (uint64_t)hi << 32 | lo;
}
static inline uint64_t bench_tick_end(void)
{
    uint32_t lo, hi, aux;
    __asm__ __volatile__("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux)::"memory");
    (void)aux;
    return (uint64_t)hi << 32 | lo;
}
#define BENCH_HAVE_TSC 1
#else
#include <time.h>
static inline uint64_t bench_tick_start(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}
#define bench_tick_end bench_tick_start
#define BENCH_HAVE_TSC 0
#endif

typedef struct bench_entry {
    const char *workload;   /* B1, B2, B3, B4s5, B4s8, B4k, B7, B9p, B1r */
    int k;                  /* number of event types */
    long w;                 /* count window (B2: span bound, gaps of w - 2) */
    int param;              /* B7: selectivity in percent; else 0 */
    double arg;             /* B7: d in `val > x.val + d`; else 0 */
    const char *strategy;   /* tdfa, dsra, runs, auto */
    const char *chosen;     /* the strategy sremc used (auto: its choice) */
    int records;            /* 1: 16-byte records; 0: one-byte types */
    const char *skip;       /* NULL, or why this combination is not measured */
    const bench_ops *ops;   /* NULL when skipped */
    const char *srem;       /* the pattern file it was generated from */
    long c_bytes;           /* size of the generated .c (0: none) */
    long text_bytes;        /* code size of its object (text + data) */
    double sremc_s;         /* wall seconds sremc took to emit it */
    double cc_s;            /* wall seconds to compile it */
    long rodata_bytes;      /* its object's read-only data (.rodata*): the tables */
    const char *base;       /* NULL, or the BENCH_BASELINE commit whose sremc emitted it
                               (strategy is then "S@COMMIT") */
} bench_entry;

extern const bench_entry bench_entries[];
extern const int bench_n_entries;

#endif
