/* bin.c: a stream of raw event structs -> events, with truncated records
 * and out-of-range enum/bool values turned into error records; one at a
 * time (sremrt_bin) or in runs of records in place (sremrt_bin_blocks). */
#include "sremrt/bin.h"

#include <string.h>

#include "sremrt/sink.h"

void sremrt_bin_open(sremrt_bin *r, const sremrt_schema *s, FILE *in)
{
    r->schema = s;
    r->in = in;
    r->record = 0;
    r->done = 0;
    r->msg[0] = '\0';
}

static int truncated(sremrt_bin *r, size_t got)
{
    sremrt_sink s;
    sremrt_sink_init_buf(&s, r->msg, sizeof r->msg);
    sremrt_sink_puts(&s, "truncated record: ");
    sremrt_sink_u64(&s, got);
    sremrt_sink_puts(&s, " of ");
    sremrt_sink_u64(&s, r->schema->event_size);
    sremrt_sink_puts(&s, " bytes");
    sremrt_sink_end(&s);
    return SREMRT_READ_BAD;
}

static int bad_value(sremrt_bin *r, const sremrt_attr *a, int64_t v, const char *what)
{
    sremrt_sink s;
    sremrt_sink_init_buf(&s, r->msg, sizeof r->msg);
    sremrt_sink_puts(&s, "attribute ");
    sremrt_sink_puts(&s, a->name);
    sremrt_sink_puts(&s, ": ");
    sremrt_sink_i64(&s, v);
    sremrt_sink_puts(&s, what);
    sremrt_sink_end(&s);
    return SREMRT_READ_BAD;
}

static int check_values(sremrt_bin *r, const void *event)
{
    int i;
    for (i = 0; i < r->schema->nattrs; i++) {
        const sremrt_attr *a = &r->schema->attrs[i];
        int64_t v;
        if (a->type != SREMRT_ENUM && a->type != SREMRT_BOOL)
            continue;
        v = sremrt_attr_int(a, event);
        if (a->type == SREMRT_ENUM && (v < 0 || v >= a->nvalues))
            return bad_value(r, a, v, " is not an index of its enum");
        if (a->type == SREMRT_BOOL && v > 1)
            return bad_value(r, a, v, " is not a bool (0 or 1)");
    }
    return SREMRT_READ_EVENT;
}

int sremrt_bin_next(sremrt_bin *r, void *event)
{
    size_t got;
    if (r->done)
        return SREMRT_READ_END;
    got = fread(event, 1, r->schema->event_size, r->in);
    if (got == r->schema->event_size) {
        r->record++;
        return check_values(r, event);
    }
    if (ferror(r->in)) {
        strcpy(r->msg, "read error");
        return SREMRT_READ_FATAL;
    }
    r->done = 1;
    if (got == 0)
        return SREMRT_READ_END;
    r->record++;
    return truncated(r, got);
}

int64_t sremrt_bin_line(const sremrt_bin *r)
{
    return r->record;
}

const char *sremrt_bin_message(const sremrt_bin *r)
{
    return r->msg;
}

/* ---- runs of records in place -------------------------------------------------- */

/* A run: read, checked, then pushed while still in cache. Reading beat
 * mapping the file (docs/PERFORMANCE.md, "Ingest"): a page fault per 64 KiB
 * of a mapping costs more than the kernel's copy into a buffer in cache. */
#define RUN_BYTES 65536

static uint32_t max_u32(uint32_t x, uint32_t y)
{
    return x > y ? x : y;
}

/* The largest of the 4 values at f, f + size, ... */
static uint32_t max4(const unsigned char *f, size_t size)
{
    uint32_t v[4];
    memcpy(&v[0], f, 4);
    memcpy(&v[1], f + size, 4);
    memcpy(&v[2], f + 2 * size, 4);
    memcpy(&v[3], f + 3 * size, 4);
    return max_u32(max_u32(v[0], v[1]), max_u32(v[2], v[3]));
}

/* The largest enum index, as unsigned (negative: huge), of n records of
 * `size` bytes from f: eight a turn in two chains, without a branch (at
 * -O2 the loop's own instructions were a quarter of four a turn). */
static uint32_t max_enum(const unsigned char *f, size_t size, size_t n)
{
    uint32_t mx = 0, my = 0, v;
    size_t i = 0;
    for (; i + 8 <= n; i += 8, f += 8 * size) {
        mx = max_u32(mx, max4(f, size));
        my = max_u32(my, max4(f + 4 * size, size));
    }
    for (mx = max_u32(mx, my); i < n; i++, f += size) {
        memcpy(&v, f, 4);
        mx = max_u32(mx, v);
    }
    return mx;
}

static uint32_t max_bool(const unsigned char *f, size_t size, size_t n)
{
    uint32_t mx = 0;
    size_t i;
    for (i = 0; i < n; i++, f += size)
        mx = max_u32(mx, f[0]);
    return mx;
}

/* Whether any of the n records at p holds a value of enum or bool a out of
 * range: the common case (none) costs a few instructions a record. */
static int any_bad(const sremrt_attr *a, size_t size, const unsigned char *p, size_t n)
{
    if (a->type == SREMRT_BOOL)
        return max_bool(p + a->offset, size, n) > 1;
    return max_enum(p + a->offset, size, n) >= (uint32_t)a->nvalues;
}

/* How many of the n records at p, a prefix, hold enum indices and bools in
 * range. */
static size_t valid_prefix(const sremrt_schema *s, const unsigned char *p, size_t n)
{
    size_t ok = n, size = s->event_size;
    int k;
    for (k = 0; k < s->nattrs; k++) {
        const sremrt_attr *a = &s->attrs[k];
        size_t lo = 0, hi;
        if ((a->type != SREMRT_ENUM && a->type != SREMRT_BOOL) || !any_bad(a, size, p, ok))
            continue;
        while (ok - lo > 1) {   /* [0, lo) good, a bad one in [lo, ok): halve */
            hi = lo + (ok - lo) / 2;
            if (any_bad(a, size, p, hi))
                ok = hi;
            else
                lo = hi;
        }
        ok = lo;
    }
    return ok;
}

int sremrt_bin_blocks_open(sremrt_bin_blocks *r, const sremrt_schema *s, FILE *in,
                           const sremrt_alloc *a)
{
    memset(r, 0, sizeof *r);
    sremrt_bin_open(&r->rec, s, in);
    r->run = RUN_BYTES / s->event_size ? RUN_BYTES / s->event_size : 1;
    r->buf = (unsigned char *)sremrt_alloc_get(a, r->run * s->event_size, 16);
    if (!r->buf) {
        strcpy(r->rec.msg, "binary reader: out of memory for its buffer");
        return SREMRT_READ_FATAL;
    }
    r->alloc = *a;
    return 0;
}

/* Read buffer: keeps the partial record, fills the rest; 0 or FATAL. */
static int fill(sremrt_bin_blocks *r)
{
    size_t cap = r->run * r->rec.schema->event_size;
    memmove(r->buf, r->buf + r->pos, r->end - r->pos);
    r->end -= r->pos;
    r->pos = 0;
    r->end += fread(r->buf + r->end, 1, cap - r->end, r->rec.in);
    if (r->end < cap) {
        if (ferror(r->rec.in)) {
            strcpy(r->rec.msg, "read error");
            return SREMRT_READ_FATAL;
        }
        r->eof = 1;
    }
    return 0;
}

int sremrt_bin_blocks_next(sremrt_bin_blocks *r, const void **events, size_t *n)
{
    size_t size = r->rec.schema->event_size, k;
    const unsigned char *p;
    if (r->rec.done)
        return SREMRT_READ_END;
    if (!r->eof && r->end - r->pos < r->run * size && fill(r) != 0)
        return SREMRT_READ_FATAL;
    r->first = r->rec.record + 1;
    if (r->end - r->pos < size) {
        r->rec.done = 1;
        if (r->end == r->pos)
            return SREMRT_READ_END;
        r->rec.record++;
        return truncated(&r->rec, r->end - r->pos);
    }
    p = r->buf + r->pos;
    k = (r->end - r->pos) / size;
    if (k > r->run)
        k = r->run;
    if ((k = valid_prefix(r->rec.schema, p, k)) == 0) {   /* the first is bad: say why */
        r->rec.record++;
        r->pos += size;
        return check_values(&r->rec, p);
    }
    *events = p;
    *n = k;
    r->rec.record += (int64_t)k;
    r->pos += k * size;
    return SREMRT_READ_EVENT;
}

int64_t sremrt_bin_blocks_line(const sremrt_bin_blocks *r)
{
    return r->first;
}

const char *sremrt_bin_blocks_message(const sremrt_bin_blocks *r)
{
    return r->rec.msg;
}

void sremrt_bin_blocks_close(sremrt_bin_blocks *r)
{
    if (r->buf && r->alloc.alloc)
        sremrt_alloc_free(&r->alloc, r->buf, r->run * r->rec.schema->event_size);
    r->buf = NULL;
}
