/* adapter.c: one generated matcher behind the driver's bench_ops. Compiled
 * once per matcher with -DPFX=name -DHDR='"name.h"' (bench/run.sh); the
 * matcher itself is another translation unit, as a user would build it, so
 * each event costs one call of PFX_push.
 *
 * The schema is the 16-byte record {ts, type, val} by default (with a
 * float32 val it is the record's layout, and the records are pushed in
 * place: IN_PLACE);
 * -DBENCH_BYTES: {type} only (one-byte types), -DBENCH_KEY: and an int
 * `key` (always 0 here: one partition). The matcher's memory comes through
 * a counting allocator hook, so the driver can report state bytes.
 * feed8 and feed (the throughput rows) go through PFX_push_many in
 * batches of 256 when -DBENCH_PUSH_MANY says the header has it; lat8 (B9)
 * always pushes one event per call. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include HDR

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define N(x) CAT(PFX, x)

typedef struct adapter {
    N(_matcher) *m;
    uint64_t *matches;     /* match records */
    uint64_t *summary;     /* the summary record's freq */
    bench_counts *c;       /* heap bytes go here (own when opened by open) */
    bench_counts own;
    int64_t ts;            /* feed8 on a record schema: ts = event number */
} adapter;

static void on_record(void *user, const sremrt_record *r)
{
    adapter *a = user;
    if (r->kind == SREMRT_MATCH)
        ++*a->matches;
    else if (r->kind == SREMRT_SUMMARY)
        *a->summary += (uint64_t)r->freq;
}

static void *count_alloc(void *ctx, size_t size, size_t align)
{
    adapter *a = ctx;
    void *p;
    if (align > SREMRT_MAX_ALIGN)
        return NULL;
    p = malloc(size ? size : 1);
    if (p) {
        a->c->heap_now += size;
        if (a->c->heap_now > a->c->heap_peak)
            a->c->heap_peak = a->c->heap_now;
    }
    return p;
}

static void count_free(void *ctx, void *p, size_t size)
{
    adapter *a = ctx;
    if (p) {
        a->c->heap_now -= size;
        free(p);
    }
}

static void *bopen_counts(bench_counts *c, int32_t max_keys)
{
    N(_config) cfg;
    adapter *a = calloc(1, sizeof *a);
    if (!a || !(a->m = malloc(N(_matcher_size)()))) {
        perror("malloc");
        exit(1);
    }
    a->c = c ? c : &a->own;
    a->matches = &a->c->matches;
    a->summary = &a->c->summary;
    N(_config_default)(&cfg);
    cfg.record = on_record;
    cfg.user = a;
    cfg.alloc.alloc = count_alloc;
    cfg.alloc.free = count_free;
    cfg.alloc.ctx = a;
    if (max_keys > 0)
        cfg.max_keys = max_keys;
    if (N(_init)(a->m, &cfg) != 0) {
        fprintf(stderr, "bench: init failed\n");
        exit(1);
    }
    return a;
}

static void *bopen(uint64_t *count)
{
    adapter *a = bopen_counts(NULL, 0);
    a->matches = count;
    return a;
}

static void reject(adapter *a, size_t i)
{
    fprintf(stderr, "bench: event %zu rejected: %s\n", i, N(_error)(a->m));
    exit(1);
}

/* Whether NAME_event is the record itself ({int64 ts; int32 type; float
 * val}: a float32 val, B7): then the records go to the matcher where they
 * lie, as a host holding them would pass them (the matcher is another
 * translation unit), and no event is copied. A constant: the compiler
 * keeps one branch. */
#ifndef BENCH_BYTES
#define IN_PLACE (sizeof(N(_event)) == sizeof(bench_rec) && offsetof(N(_event), ts) == offsetof(bench_rec, ts) && \
                  offsetof(N(_event), type) == offsetof(bench_rec, type) &&                                  \
                  offsetof(N(_event), val) == offsetof(bench_rec, val) &&                                    \
                  sizeof(((N(_event) *)0)->val) == sizeof(float))
#else
#define IN_PLACE 0
#endif

#ifdef BENCH_PUSH_MANY
static void bfeed(void *ap, const bench_rec *ev, size_t n)
{
    enum { BATCH = 256 };
    adapter *a = ap;
    N(_matcher) *m = a->m;
    N(_event) e[BATCH];
    size_t i, j, c;
    if (IN_PLACE) {
        if (N(_push_many)(m, (const N(_event) *)(const void *)ev, n) != n)
            reject(a, 0);
        return;
    }
    memset(e, 0, sizeof e);
    for (i = 0; i < n; i += c) {
        c = n - i < BATCH ? n - i : BATCH;
        for (j = 0; j < c; j++) {
#ifndef BENCH_BYTES
            e[j].ts = (int64_t)ev[i + j].ts;
            e[j].val = ev[i + j].val;
#endif
            e[j].type = (int32_t)ev[i + j].type;
        }
        if (N(_push_many)(m, e, c) != c)
            reject(a, i);
    }
}
#else
static void bfeed(void *ap, const bench_rec *ev, size_t n)
{
    adapter *a = ap;
    N(_matcher) *m = a->m;
    N(_event) e = {0};
    size_t i;
    for (i = 0; i < n; i++) {
        if (IN_PLACE) {
            if (N(_push)(m, (const N(_event) *)(const void *)&ev[i]) != 0)
                reject(a, i);
            continue;
        }
#ifndef BENCH_BYTES
        e.ts = (int64_t)ev[i].ts;
        e.val = ev[i].val;
#endif
        e.type = (int32_t)ev[i].type;
        if (N(_push)(m, &e) != 0)
            reject(a, i);
    }
}
#endif

#ifdef BENCH_PUSH_MANY
/* Batches of 256 events through PFX_push_many (when the header has it:
 * bench/run.sh defines BENCH_PUSH_MANY). */
static void bfeed8(void *ap, const uint8_t *ty, size_t n)
{
    enum { BATCH = 256 };
    adapter *a = ap;
    N(_matcher) *m = a->m;
    N(_event) e[BATCH];
    size_t i, j, c;
    memset(e, 0, sizeof e);
    for (i = 0; i < n; i += c) {
        c = n - i < BATCH ? n - i : BATCH;
        for (j = 0; j < c; j++) {
#ifndef BENCH_BYTES
            e[j].ts = a->ts++;
#endif
            e[j].type = (int32_t)ty[i + j] - 'A';
        }
        if (N(_push_many)(m, e, c) != c)
            reject(a, i);
    }
}
#else
static void bfeed8(void *ap, const uint8_t *ty, size_t n)
{
    adapter *a = ap;
    N(_matcher) *m = a->m;
    N(_event) e = {0};
    size_t i;
    for (i = 0; i < n; i++) {
#ifndef BENCH_BYTES
        e.ts = a->ts++;
#endif
        e.type = (int32_t)ty[i] - 'A';
        if (N(_push)(m, &e) != 0)
            reject(a, i);
    }
}
#endif

static void blat8(void *ap, const uint8_t *ty, size_t n, uint32_t *ticks, int per)
{
    adapter *a = ap;
    N(_matcher) *m = a->m;
    N(_event) e = {0};
    size_t i;
    int j, rc = 0;
    for (i = 0; i + (size_t)per <= n; i += (size_t)per) {
        uint64_t t0 = bench_tick_start(), t1;
        for (j = 0; j < per; j++) {
#ifndef BENCH_BYTES
            e.ts = a->ts++;
#endif
            e.type = (int32_t)ty[i + (size_t)j] - 'A';
            rc |= N(_push)(m, &e);
        }
        t1 = bench_tick_end();
        ticks[i / (size_t)per] = (uint32_t)(t1 - t0);
        if (rc != 0)
            reject(a, i);
    }
}

static uint64_t bclose(void *ap)
{
    adapter *a = ap;
    uint64_t ovf;
    N(_finish)(a->m);
    ovf = sremrt_stats_overflows(N(_stats)(a->m));
    N(_free)(a->m);
    free(a->m);
    free(a);
    return ovf;
}

static size_t bsize(void)
{
    return N(_matcher_size)();
}

const bench_ops N(_bench_ops) = { bopen, bfeed, bclose, bopen_counts, bfeed8, blat8, bsize };
