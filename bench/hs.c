/* hs.c: Hyperscan (libhs, Debian libhyperscan-dev) as a benchmark
 * baseline: a regex over one-byte types, streaming mode, end positions
 * counted in the match callback. Built with -DBENCH_HS when bench/run.sh
 * finds <hs/hs.h>; without it every entry point says Hyperscan is missing
 * and the driver reports its rows as skipped. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "baselines.h"

#ifdef BENCH_HS
#include <hs/hs.h>

struct hsb {
    hs_database_t *db;
    hs_scratch_t *scratch;
    size_t stream_bytes;
};

int hsb_available(void)
{
    return 1;
}

static double wall(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

hsb *hsb_compile(const char *regex, double *secs, const char **why)
{
    static char msg[256];
    hs_compile_error_t *err = NULL;
    hsb *h = calloc(1, sizeof *h);
    double t0 = wall();
    if (!h)
        abort();
    /* DOTALL: '.' is any byte, as `_` is any event. */
    if (hs_compile(regex, HS_FLAG_DOTALL, HS_MODE_STREAM, NULL, &h->db, &err) != HS_SUCCESS) {
        snprintf(msg, sizeof msg, "hs_compile: %s", err ? err->message : "failed");
        hs_free_compile_error(err);
        free(h);
        *why = msg;
        return NULL;
    }
    *secs = wall() - t0;
    if (hs_alloc_scratch(h->db, &h->scratch) != HS_SUCCESS ||
        hs_stream_size(h->db, &h->stream_bytes) != HS_SUCCESS) {
        hs_free_database(h->db);
        free(h);
        *why = "hs_alloc_scratch failed";
        return NULL;
    }
    return h;
}

size_t hsb_stream_bytes(const hsb *h)
{
    return h->stream_bytes;
}

static int on_match(unsigned int id, unsigned long long from, unsigned long long to,
                    unsigned int flags, void *ctx)
{
    (void)id;
    (void)from;
    (void)to;
    (void)flags;
    ++*(uint64_t *)ctx;
    return 0;
}

uint64_t hsb_scan(hsb *h, const uint8_t *ty, size_t n, size_t chunk, uint32_t *ticks, int per)
{
    hs_stream_t *s = NULL;
    uint64_t count = 0;
    size_t i;
    int j;
    if (hs_open_stream(h->db, 0, &s) != HS_SUCCESS)
        abort();
    if (ticks)
        for (i = 0; i + (size_t)per <= n; i += (size_t)per) {
            uint64_t t0 = bench_tick_start(), t1;
            for (j = 0; j < per; j++)
                hs_scan_stream(s, (const char *)ty + i + j, 1, 0, h->scratch, on_match, &count);
            t1 = bench_tick_end();
            ticks[i / (size_t)per] = (uint32_t)(t1 - t0);
        }
    else
        for (i = 0; i < n; i += chunk)
            hs_scan_stream(s, (const char *)ty + i, (unsigned)(n - i < chunk ? n - i : chunk), 0,
                           h->scratch, on_match, &count);
    hs_close_stream(s, h->scratch, on_match, &count);
    return count;
}

void hsb_free(hsb *h)
{
    if (h) {
        hs_free_scratch(h->scratch);
        hs_free_database(h->db);
        free(h);
    }
}

#else

int hsb_available(void)
{
    return 0;
}

hsb *hsb_compile(const char *regex, double *secs, const char **why)
{
    (void)regex;
    *secs = 0;
    *why = "Hyperscan not installed (apt-get install libhyperscan-dev)";
    return NULL;
}

size_t hsb_stream_bytes(const hsb *h)
{
    (void)h;
    return 0;
}

uint64_t hsb_scan(hsb *h, const uint8_t *ty, size_t n, size_t chunk, uint32_t *ticks, int per)
{
    (void)h;
    (void)ty;
    (void)n;
    (void)chunk;
    (void)ticks;
    (void)per;
    return 0;
}

void hsb_free(hsb *h)
{
    (void)h;
}

#endif
