/* host.c: what only a hosted build has (malloc, stdio streams, a clock)
 * wired into the runtime's hooks; firmware builds leave this file out. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sremrt/alloc.h"
#include "sremrt/out.h"
#include "sremrt/stats.h"

/* ---- allocator ----------------------------------------------------------------- */

static void *malloc_alloc(void *ctx, size_t size, size_t align)
{
    (void)ctx;
    /* malloc suits every C type's alignment, and no more is promised. */
    if (align > SREMRT_MAX_ALIGN || (align & (align - 1)) != 0)
        return NULL;
    return malloc(size ? size : 1);
}

static void malloc_free(void *ctx, void *p, size_t size)
{
    (void)ctx;
    (void)size;
    free(p);
}

sremrt_alloc sremrt_alloc_malloc(void)
{
    sremrt_alloc a;
    a.alloc = malloc_alloc;
    a.free = malloc_free;
    a.ctx = NULL;
    return a;
}

/* ---- streams ------------------------------------------------------------------- */

typedef struct file_ctx {
    FILE *f;
    int failed;
} file_ctx;

static void file_flush(void *ctx, const char *p, size_t n)
{
    file_ctx *fc = (file_ctx *)ctx;
    if (fwrite(p, 1, n, fc->f) != n)
        fc->failed = 1;
}

static void stream_flush(void *ctx, const char *p, size_t n)
{
    fwrite(p, 1, n, (FILE *)ctx);
}

void sremrt_sink_init_file(sremrt_sink *s, char *buf, size_t cap, FILE *out)
{
    sremrt_sink_init_flush(s, buf, cap, stream_flush, out);
}

int sremrt_record_write(FILE *out, sremrt_format f, const sremrt_record *r)
{
    char buf[256];
    file_ctx fc;
    sremrt_sink s;
    fc.f = out;
    fc.failed = 0;
    sremrt_sink_init_flush(&s, buf, sizeof buf, file_flush, &fc);
    sremrt_record_emit(&s, f, r);
    sremrt_sink_end(&s);
    return fc.failed ? EOF : 0;
}

int sremrt_write_error(FILE *out, sremrt_format f, int64_t line, const char *message)
{
    sremrt_record r = {0};
    r.kind = SREMRT_ERROR;
    r.line = line;
    r.message = message;
    return sremrt_record_write(out, f, &r);
}

int sremrt_stats_print(FILE *out, const sremrt_stats *st, double seconds)
{
    char buf[256];
    file_ctx fc;
    sremrt_sink s;
    fc.f = out;
    fc.failed = 0;
    sremrt_sink_init_flush(&s, buf, sizeof buf, file_flush, &fc);
    sremrt_stats_emit(&s, st, seconds);
    sremrt_sink_end(&s);
    return fc.failed ? EOF : 0;
}

/* ---- clock --------------------------------------------------------------------- */

double sremrt_clock_seconds(void)
{
#ifdef CLOCK_MONOTONIC
    struct timespec t;
    if (clock_gettime(CLOCK_MONOTONIC, &t) == 0)
        return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
#endif
    return (double)clock() / CLOCKS_PER_SEC;
}
