/* bench.h: what the benchmark driver (bench/bench_main.c) shares with the
 * per-matcher adapters (bench/adapter.c, compiled once per generated
 * matcher) and the entry table run.sh generates (build/bench/entries.c). */
#ifndef BENCH_H
#define BENCH_H

#include <stddef.h>
#include <stdint.h>

/* The 16-byte record of WORKLOADS.md. */
typedef struct bench_rec {
    uint64_t ts;
    uint32_t type;
    float val;
} bench_rec;

typedef struct bench_ops {
    void *(*open)(uint64_t *count);        /* count: match records go here */
    void (*feed)(void *m, const bench_rec *ev, size_t n);
    uint64_t (*close)(void *m);            /* returns the overflows */
} bench_ops;

typedef struct bench_entry {
    const char *pattern;    /* "seq" or "reg" */
    int k;                  /* number of event types */
    long w;                 /* count window */
    const char *strategy;   /* tdfa, dsra, runs */
    const char *skip;       /* NULL, or why this combination is not measured */
    const bench_ops *ops;   /* NULL when skipped */
    long c_bytes;           /* size of the generated .c (0: none) */
    double compile_s;       /* wall seconds to compile it (0: not compiled) */
} bench_entry;

extern const bench_entry bench_entries[];
extern const int bench_n_entries;

#endif
