/* sink.c: bytes and numbers -> a caller buffer or a flushing buffer, so
 * every text the runtime writes is built without stdio or allocation. */
#include "sremrt/sink.h"

#include <string.h>
#ifndef SREMRT_FREESTANDING
#include <stdio.h>
#include <stdlib.h>
#endif

void sremrt_sink_init_buf(sremrt_sink *s, char *buf, size_t cap)
{
    s->buf = buf;
    s->cap = cap;
    s->len = 0;
    s->total = 0;
    s->flush = NULL;
    s->ctx = NULL;
}

void sremrt_sink_init_flush(sremrt_sink *s, char *buf, size_t cap,
                            void (*flush)(void *ctx, const char *p, size_t n), void *ctx)
{
    sremrt_sink_init_buf(s, buf, cap);
    s->flush = flush;
    s->ctx = ctx;
}

size_t sremrt_sink_end(sremrt_sink *s)
{
    if (s->flush) {
        if (s->len)
            s->flush(s->ctx, s->buf, s->len);
        s->len = 0;
    } else if (s->cap) {
        s->buf[s->len] = '\0';   /* len <= cap - 1 in buffer mode */
    }
    return s->total;
}

void sremrt_sink_putc(sremrt_sink *s, char c)
{
    s->total++;
    if (s->flush) {
        if (s->len == s->cap && s->cap) {
            s->flush(s->ctx, s->buf, s->len);
            s->len = 0;
        }
        if (s->cap)
            s->buf[s->len++] = c;
        else
            s->flush(s->ctx, &c, 1);
    } else if (s->len + 1 < s->cap) {
        s->buf[s->len++] = c;
    }
}

/* The n bytes of p as pieces: the bytes kept and the flushes are those
 * of n putc calls (a full buffer is flushed when a byte follows), at a
 * copy instead of a call a byte (match records: a third of their cost). */
void sremrt_sink_putn(sremrt_sink *s, const char *p, size_t n)
{
    size_t i, k;
    if (s->flush && s->cap) {
        s->total += n;
        for (; n > 0; p += k, n -= k) {
            if (s->len == s->cap) {
                s->flush(s->ctx, s->buf, s->len);
                s->len = 0;
            }
            k = s->cap - s->len < n ? s->cap - s->len : n;
            memcpy(s->buf + s->len, p, k);
            s->len += k;
        }
    } else if (!s->flush) {   /* the first cap - 1 bytes */
        s->total += n;
        k = s->len + 1 < s->cap ? s->cap - 1 - s->len : 0;
        k = k < n ? k : n;
        if (k > 0)
            memcpy(s->buf + s->len, p, k);
        s->len += k;
    } else {
        for (i = 0; i < n; i++)
            sremrt_sink_putc(s, p[i]);
    }
}

void sremrt_sink_puts(sremrt_sink *s, const char *str)
{
    sremrt_sink_putn(s, str, strlen(str));
}

void sremrt_sink_u64(sremrt_sink *s, uint64_t v)
{
    char digits[20];
    int n = 20;
    do {
        digits[--n] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    sremrt_sink_putn(s, digits + n, (size_t)(20 - n));
}

void sremrt_sink_i64(sremrt_sink *s, int64_t v)
{
    if (v < 0) {
        sremrt_sink_putc(s, '-');
        /* -(v + 1) + 1 avoids overflowing on INT64_MIN */
        sremrt_sink_u64(s, (uint64_t)-(v + 1) + 1u);
    } else {
        sremrt_sink_u64(s, (uint64_t)v);
    }
}

#ifndef SREMRT_FREESTANDING
/* The shortest of %.15g, %.16g, %.17g that reads back as v. */
static void f64_digits(sremrt_sink *s, double v)
{
    char tmp[40];
    int prec;
    for (prec = 15; prec < 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, v);
        if (strtod(tmp, NULL) == v)
            break;
    }
    if (prec == 17)
        snprintf(tmp, sizeof tmp, "%.17g", v);
    sremrt_sink_puts(s, tmp);
}

/* The shortest of %.6g .. %.9g that reads back, as the readers read a
 * float32 (the nearest double, rounded to float), as v; 9 always does.
 * Whole numbers below 1e9 keep their digits (16777220, not 1.677722e+07). */
static void f32_digits(sremrt_sink *s, float v)
{
    char tmp[40];
    int prec;
    for (prec = 6; prec < 9; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, (double)v);
        if ((float)strtod(tmp, NULL) == v)
            break;
    }
    if (prec == 9 || (v > -1e9f && v < 1e9f && v == (float)(int32_t)v))
        snprintf(tmp, sizeof tmp, "%.9g", (double)v);
    sremrt_sink_puts(s, tmp);
}
#else
/* Firmware, without snprintf: 9 significant digits in %g's style (a float
 * reads back exactly; a double to about 1e-9 relative). */
static void f64_digits(sremrt_sink *s, double v)
{
    char d[9];
    int e = 8, nd = 9, i;
    uint64_t n;
    if (v == 0.0) {
        sremrt_sink_putc(s, '0');
        return;
    }
    if (v < 0) {
        sremrt_sink_putc(s, '-');
        v = -v;
    }
    while (v >= 1e9) {   /* bring v into [1e8, 1e9): v = n 10^(e-8) */
        v /= 10;
        e++;
    }
    while (v < 1e8) {
        v *= 10;
        e--;
    }
    n = (uint64_t)(v + 0.5);
    if (n >= 1000000000u) {
        n /= 10;
        e++;
    }
    while (nd > 1 && n % 10 == 0) {
        n /= 10;
        nd--;
    }
    for (i = nd - 1; i >= 0; i--, n /= 10)
        d[i] = (char)('0' + n % 10);
    if (e < -4 || e >= 9) {   /* d.ddde+XX */
        sremrt_sink_putc(s, d[0]);
        if (nd > 1) {
            sremrt_sink_putc(s, '.');
            sremrt_sink_putn(s, d + 1, (size_t)nd - 1);
        }
        sremrt_sink_puts(s, e < 0 ? "e-" : "e+");
        if (e < 0)
            e = -e;
        if (e < 10)
            sremrt_sink_putc(s, '0');
        sremrt_sink_u64(s, (uint64_t)e);
    } else if (e >= 0) {      /* ddd.ddd */
        for (i = 0; i <= e; i++)
            sremrt_sink_putc(s, i < nd ? d[i] : '0');
        if (nd > e + 1) {
            sremrt_sink_putc(s, '.');
            sremrt_sink_putn(s, d + e + 1, (size_t)(nd - e - 1));
        }
    } else {                  /* 0.000ddd */
        sremrt_sink_puts(s, "0.");
        for (i = -1; i > e; i--)
            sremrt_sink_putc(s, '0');
        sremrt_sink_putn(s, d, (size_t)nd);
    }
}

/* No shortest-text search here (freestanding has no strtod): the float's
 * value as a double, f64_digits' 17 significant digits, which read back
 * as the same float32 (exact, only longer than the hosted text). */
static void f32_digits(sremrt_sink *s, float v)
{
    f64_digits(s, v);
}
#endif

void sremrt_sink_f64(sremrt_sink *s, double v)
{
    if (v != v || v - v != 0.0) {   /* NaN or infinity */
        sremrt_sink_puts(s, "null");
        return;
    }
    f64_digits(s, v);
}

void sremrt_sink_f32(sremrt_sink *s, float v)
{
    if (v != v || v - v != 0.0f) {   /* NaN or infinity */
        sremrt_sink_puts(s, "null");
        return;
    }
    f32_digits(s, v);
}

/* Length of the valid UTF-8 sequence at p (1..4), or 0 if invalid. */
static size_t utf8_len(const unsigned char *p)
{
    size_t n, i;
    unsigned c = p[0];
    uint32_t cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    for (i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80)   /* also stops at the NUL terminator */
            return 0;
        cp = cp << 6 | (p[i] & 0x3Fu);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;   /* overlong form, beyond Unicode, or a surrogate */
    return n;
}

static void put_escape(sremrt_sink *s, unsigned char c)
{
    static const char hex[] = "0123456789abcdef";
    switch (c) {
    case '"': sremrt_sink_puts(s, "\\\""); break;
    case '\\': sremrt_sink_puts(s, "\\\\"); break;
    case '\n': sremrt_sink_puts(s, "\\n"); break;
    case '\r': sremrt_sink_puts(s, "\\r"); break;
    case '\t': sremrt_sink_puts(s, "\\t"); break;
    case '\b': sremrt_sink_puts(s, "\\b"); break;
    case '\f': sremrt_sink_puts(s, "\\f"); break;
    default:
        sremrt_sink_puts(s, "\\u00");
        sremrt_sink_putc(s, hex[c >> 4]);
        sremrt_sink_putc(s, hex[c & 15]);
    }
}

/* JSON escapes everything JSON needs; text mode only control bytes, and
 * shows invalid UTF-8 as the replacement character itself. */
static void put_escaped(sremrt_sink *s, const char *str, int json)
{
    const unsigned char *p = (const unsigned char *)str;
    while (*p) {
        size_t n = utf8_len(p);
        if (n == 0) {
            sremrt_sink_puts(s, json ? "\\ufffd" : "\xEF\xBF\xBD");
            p++;
        } else if (*p < 0x20 || (json && (*p == '"' || *p == '\\'))) {
            put_escape(s, *p++);
        } else {
            sremrt_sink_putn(s, (const char *)p, n);
            p += n;
        }
    }
}

void sremrt_sink_json_str(sremrt_sink *s, const char *str)
{
    sremrt_sink_putc(s, '"');
    put_escaped(s, str, 1);
    sremrt_sink_putc(s, '"');
}

void sremrt_sink_text(sremrt_sink *s, const char *str)
{
    put_escaped(s, str, 0);
}

static int is_plain_word(const char *str)
{
    const unsigned char *p = (const unsigned char *)str;
    if (!*p)
        return 0;
    while (*p) {
        size_t n = utf8_len(p);
        if (n == 0 || *p <= ' ' || *p == 0x7F || strchr("\"\\=<>", *p))
            return 0;
        p += n;
    }
    return 1;
}

void sremrt_sink_word(sremrt_sink *s, const char *str)
{
    if (is_plain_word(str))
        sremrt_sink_puts(s, str);
    else
        sremrt_sink_json_str(s, str);
}
