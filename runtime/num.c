/* num.c: decimal text -> int64_t and double, bit-identical to strtoll's and
 * strtod's answers in the C locale. Floats: Clinger's exact fast path, then
 * the Eisel-Lemire method (one or two 64x128-bit products with a table of
 * powers of five, num_pow5.h); the rare texts it cannot decide (a possible
 * tie, a subnormal, a mantissa cut at 19 digits that leaves doubt) and the
 * non-decimal forms go to strtod itself, so no answer is ever approximate. */
#include "sremrt/num.h"

#include <ctype.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "num_pow5.h"

#define MAX_DIGITS 19   /* significant digits a uint64_t always holds */
#define CANON_DIGITS 780 /* digits that decide a double: more than 767 */

/* ---- integers ---------------------------------------------------------------- */

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SWAR 1
/* The 8 bytes at s, when all are digits, as their value (SWAR: eight
 * digits in one 64-bit word, first digit in the low byte); -1 otherwise. */
static int64_t eight_digits(const char *s)
{
    uint64_t x;
    memcpy(&x, s, sizeof x);
    if ((x & 0xF0F0F0F0F0F0F0F0u) != 0x3030303030303030u ||
        ((x + 0x0606060606060606u) & 0xF0F0F0F0F0F0F0F0u) != 0x3030303030303030u)
        return -1;
    x -= 0x3030303030303030u;
    x = (x * 10 + (x >> 8)) & 0x00FF00FF00FF00FFu;       /* pairs: 10 d0 + d1, ... */
    x = (x * 100 + (x >> 16)) & 0x0000FFFF0000FFFFu;     /* fours */
    return (int64_t)((x & 0xFFFFFFFFu) * 10000 + (x >> 32));
}
#endif

/* Digits left to right with the range checked at each: the general case,
 * from v after the digits before s. */
static int digits_checked(const char *s, const char *end, uint64_t v, int neg, int64_t *out)
{
    uint64_t limit = (uint64_t)INT64_MAX + (uint64_t)neg;
    for (; s < end; s++) {
        unsigned d = (unsigned)(unsigned char)*s - '0';
        if (d > 9)
            return SREMRT_NUM_SYNTAX;
        if (v > (limit - d) / 10)
            return SREMRT_NUM_RANGE;
        v = v * 10 + d;
    }
    *out = neg ? (v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v) : (int64_t)v;
    return SREMRT_NUM_OK;
}

int sremrt_parse_i64(const char *s, size_t n, int64_t *out)
{
    const char *end = s + n;
    uint64_t v = 0;
    int neg = 0;
    if (n && (*s == '+' || *s == '-')) {
        neg = *s == '-';
        s++;
    }
    if (s == end)
        return SREMRT_NUM_SYNTAX;
    if (end - s > 18)
        return digits_checked(s, end, 0, neg, out);
    /* at most 18 digits: no overflow, only the bytes to check */
#ifdef SWAR
    while (end - s >= 8) {
        int64_t d8 = eight_digits(s);
        if (d8 < 0)
            return SREMRT_NUM_SYNTAX;
        v = v * 100000000u + (uint64_t)d8;
        s += 8;
    }
#endif
    for (; s < end; s++) {
        unsigned d = (unsigned)(unsigned char)*s - '0';
        if (d > 9)
            return SREMRT_NUM_SYNTAX;
        v = v * 10 + d;
    }
    *out = neg ? -(int64_t)v : (int64_t)v;
    return SREMRT_NUM_OK;
}

/* ---- 128-bit arithmetic ------------------------------------------------------- */

typedef struct { uint64_t hi, lo; } u128;

#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 wide;
static u128 mul64(uint64_t a, uint64_t b)
{
    wide p = (wide)a * b;
    u128 r;
    r.hi = (uint64_t)(p >> 64);
    r.lo = (uint64_t)p;
    return r;
}
#else
/* Four 32x32-bit products, for compilers without a 128-bit type. */
static u128 mul64(uint64_t a, uint64_t b)
{
    uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    u128 r;
    r.lo = (mid << 32) | (ll & 0xffffffffu);
    r.hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    return r;
}
#endif

static int leading_zeros(uint64_t x)
{
#if defined(__GNUC__)
    return __builtin_clzll(x);
#else
    int n = 0;
    while (!(x & ((uint64_t)1 << 63))) {
        x <<= 1;
        n++;
    }
    return n;
#endif
}

/* ---- decimal to binary ---------------------------------------------------------- */

static double make_double(int neg, uint64_t bits)
{
    double d;
    bits |= (uint64_t)neg << 63;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* w * 10^q (w > 0) as IEEE bits, or -1 when the products cannot decide.
 * With V the exact 5^q * 2^-e of the table and T = floor(V): the exact
 * product X = w' * V (w' = w normalized) lies in [P, P + 2^64) for the
 * computed P = w' * T. When the bits below the rounding position cannot
 * carry from that gap, and the round bit is 0, or 1 with something below
 * it, the rounding is known; anything else (a possible tie) gives up. */
static int64_t eisel_lemire(uint64_t w, int64_t q)
{
    const uint64_t *t;
    uint64_t hi, mid, low_bits, m;
    int lz, upper, shift;
    int64_t biased;
    u128 a, b;
    if (q < SREMRT_POW5_MIN)
        return 0;                                  /* below half the least subnormal */
    if (q > SREMRT_POW5_MAX)
        return (int64_t)0x7ff << 52;               /* infinity */
    t = sremrt_pow5_v[q - SREMRT_POW5_MIN];
    lz = leading_zeros(w);
    w <<= lz;
    a = mul64(w, t[0]);                            /* P = a * 2^64 + b */
    b = mul64(w, t[1]);
    mid = a.lo + b.hi;
    hi = a.hi + (mid < a.lo);
    upper = (int)(hi >> 63);
    shift = 9 + upper;                             /* keeps 53 bits and a round bit */
    low_bits = hi & (((uint64_t)1 << shift) - 1);
    if (low_bits == ((uint64_t)1 << shift) - 1 && mid == UINT64_MAX)
        return -1;                                 /* the gap could carry into the kept bits */
    m = hi >> shift;
    if (m & 1) {
        if (low_bits == 0 && mid == 0)
            return -1;                             /* maybe exactly half: a tie */
    }
    /* value = m * 2^(shift + 128 + e + q - lz); after rounding, M * 2^(E) */
    biased = (int64_t)shift + 128 + sremrt_pow5_e[q - SREMRT_POW5_MIN] + q - lz + 1 + 52 + 1023;
    if (biased <= 0)
        return -1;                                 /* subnormal: other precision */
    m = (m >> 1) + (m & 1);
    if (m == (uint64_t)1 << 53) {
        m >>= 1;
        biased++;
    }
    if (biased >= 0x7ff)
        return (int64_t)0x7ff << 52;
    return (biased << 52) | (int64_t)(m & (((uint64_t)1 << 52) - 1));
}

/* The parts of a decimal number: up to 19 significant digits in w, the
 * exponent of its last digit, and whether digits were cut. */
typedef struct {
    const char *digits0;   /* first byte of the digits (integer part) */
    const char *mant_end;  /* end of the mantissa (digits and '.') */
    int neg;
    int truncated;         /* nonzero significant digits beyond w */
    uint64_t w;
    int64_t q;             /* value = w * 10^q (+ what was cut) */
    int64_t exp;           /* the explicit exponent, clamped */
} decimal;

static int is_digit(char c)
{
    return (unsigned)(unsigned char)c - '0' < 10;
}

/* Reads [sign] digits [. digits] [e [sign] digits]: 0, or -1 if the text is
 * not exactly that. */
static int scan_decimal(const char *s, const char *end, decimal *d)
{
    int nd = 0, any = 0, point = 0;
    int64_t dropped = 0;   /* integer digits not in w, fraction digits in w */
    d->neg = 0;
    d->truncated = 0;
    d->w = 0;
    d->exp = 0;
    if (s < end && (*s == '+' || *s == '-')) {
        d->neg = *s == '-';
        s++;
    }
    d->digits0 = s;
    for (; s < end; s++) {
        char c = *s;
        if (is_digit(c)) {
            any = 1;
            if (nd < MAX_DIGITS) {
                if (d->w || c != '0')
                    nd++;
                d->w = d->w * 10 + (uint64_t)(c - '0');
                dropped -= point;
            } else {
                d->truncated |= c != '0';
                dropped += !point;
            }
        } else if (c == '.' && !point) {
            point = 1;
        } else {
            break;
        }
    }
    d->mant_end = s;
    if (!any)
        return -1;
    if (s < end && (*s == 'e' || *s == 'E')) {
        int eneg = 0;
        s++;
        if (s < end && (*s == '+' || *s == '-')) {
            eneg = *s == '-';
            s++;
        }
        if (s == end || !is_digit(*s))
            return -1;
        for (; s < end && is_digit(*s); s++)
            if (d->exp < 100000000)      /* far past any double: clamp */
                d->exp = d->exp * 10 + (*s - '0');
        if (eneg)
            d->exp = -d->exp;
    }
    if (s != end)
        return -1;
    d->q = d->exp + dropped;
    return 0;
}

/* strtod on a NUL-terminated copy of at most cap - 1 bytes; the whole
 * text must be read and must not start with a blank. */
static int via_strtod(const char *s, size_t n, double *out)
{
    char buf[SREMRT_NUM_TEXT_MAX + 1], *end;
    double v;
    if (n == 0 || n > SREMRT_NUM_TEXT_MAX || isspace((unsigned char)*s))
        return SREMRT_NUM_SYNTAX;
    memcpy(buf, s, n);
    buf[n] = '\0';
    v = strtod(buf, &end);
    if (end != buf + n)
        return SREMRT_NUM_SYNTAX;
    *out = v;
    return SREMRT_NUM_OK;
}

/* Writes the decimal e into p; returns the end. */
static char *put_exponent(char *p, int64_t e)
{
    char tmp[24];
    int k = 0;
    uint64_t u = e < 0 ? (uint64_t)0 - (uint64_t)e : (uint64_t)e;
    *p++ = 'e';
    if (e < 0)
        *p++ = '-';
    do
        tmp[k++] = (char)('0' + u % 10);
    while (u /= 10);
    while (k)
        *p++ = tmp[--k];
    return p;
}

/* A decimal of any length as a short text of the same double for strtod:
 * its first CANON_DIGITS significant digits, then a '1' when a nonzero digit
 * was cut (no halfway point between doubles has that many digits, so the
 * rounding stays the same), and the exponent of the last digit written. */
static double canonical_strtod(const decimal *d)
{
    char buf[CANON_DIGITS + 40], *p = buf;
    const char *s;
    int nd = 0, sticky = 0, point = 0;
    int64_t e = d->exp;   /* minus each fraction digit written */
    if (d->neg)
        *p++ = '-';
    for (s = d->digits0; s < d->mant_end; s++) {
        if (*s == '.') {
            point = 1;
        } else if (nd < CANON_DIGITS && (nd || *s != '0')) {
            *p++ = *s;
            nd++;
            e -= point;
        } else if (nd < CANON_DIGITS) {
            e -= point;          /* a leading zero of the fraction */
        } else {
            sticky |= *s != '0';
            e += !point;         /* an integer digit cut off */
        }
    }
    if (nd == 0)
        *p++ = '0';
    if (sticky) {
        *p++ = '1';
        e--;
    }
    *put_exponent(p, e) = '\0';
    return strtod(buf, NULL);
}

#if FLT_EVAL_METHOD == 0
static const double exact_p10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* The common text, [-]digits[.digits] with at most 15 digits and no
 * exponent, by Clinger's exact path: 0, or -1 for any other text. */
static int plain_decimal(const char *s, const char *end, double *out)
{
    const char *p = s + (s < end && *s == '-'), *first = p, *point;
    uint64_t w = 0;
    unsigned d;
    size_t frac = 0;
    for (; p < end && (d = (unsigned)(unsigned char)*p - '0') < 10; p++)
        w = w * 10 + d;        /* wraps past 19 digits: refused below */
    point = p;
    if (p < end && *p == '.')
        for (p++; p < end && (d = (unsigned)(unsigned char)*p - '0') < 10; p++)
            w = w * 10 + d;
    frac = point < p ? (size_t)(p - point) - 1 : 0;
    if (p != end || (size_t)(point - first) + frac - 1 >= 15)
        return -1;             /* more text, no digit, or over 15 digits */
    *out = frac ? (double)w / exact_p10[frac] : (double)w;
    if (s < first)
        *out = -*out;
    return 0;
}
#endif

int sremrt_parse_f64(const char *s, size_t n, double *out)
{
    decimal d;
    int64_t bits, bits_up;
#if FLT_EVAL_METHOD == 0
    if (plain_decimal(s, s + n, out) == 0)
        return SREMRT_NUM_OK;
#endif
    if (scan_decimal(s, s + n, &d) != 0)
        return via_strtod(s, n, out);
    if (d.w == 0 && !d.truncated) {
        *out = make_double(d.neg, 0);
        return SREMRT_NUM_OK;
    }
#if FLT_EVAL_METHOD == 0
    /* Clinger: w and 10^|q| exact doubles, one correctly rounded operation */
    if (!d.truncated && d.w <= (uint64_t)1 << 53 && d.q >= -22 && d.q <= 22) {
        double v = (double)d.w;
        v = d.q < 0 ? v / exact_p10[-d.q] : v * exact_p10[d.q];
        *out = d.neg ? -v : v;
        return SREMRT_NUM_OK;
    }
#endif
    bits = eisel_lemire(d.w, d.q);
    if (bits >= 0 && d.truncated) {
        /* the value lies in [w, w + 1) * 10^q: both ends must agree */
        bits_up = eisel_lemire(d.w + 1, d.q);
        if (bits_up != bits)
            bits = -1;
    }
    if (bits < 0) {
        *out = canonical_strtod(&d);
        return SREMRT_NUM_OK;
    }
    *out = make_double(d.neg, (uint64_t)bits);
    return SREMRT_NUM_OK;
}

/* ---- prefix scanners ------------------------------------------------------------ */

const char *sremrt_scan_i64(const char *s, int64_t *out)
{
    const char *p = s + (*s == '+' || *s == '-'), *d0 = p;
    uint64_t v = 0;
    unsigned d;
    while ((d = (unsigned)(unsigned char)*p - '0') < 10) {
        v = v * 10 + d;        /* wraps past 19 digits: refused below */
        p++;
    }
    if (p == d0 || p - d0 > 18)
        return NULL;
    *out = *s == '-' ? -(int64_t)v : (int64_t)v;
    return p;
}

const char *sremrt_scan_f64(const char *s, double *out)
{
#if FLT_EVAL_METHOD == 0
    const char *p = s + (*s == '-'), *d0 = p;
    uint64_t w = 0;
    unsigned d;
    size_t digits, frac = 0;
    while ((d = (unsigned)(unsigned char)*p - '0') < 10) {
        w = w * 10 + d;        /* wraps past 19 digits: refused below */
        p++;
    }
    digits = (size_t)(p - d0);
    if (*p == '.') {
        const char *f0 = ++p;
        while ((d = (unsigned)(unsigned char)*p - '0') < 10) {
            w = w * 10 + d;
            p++;
        }
        frac = (size_t)(p - f0);
        digits += frac;
    }
    if (digits - 1 >= 15)
        return NULL;           /* no digit, or more than Clinger's path takes */
    *out = frac ? (double)w / exact_p10[frac] : (double)w;
    if (s < d0)
        *out = -*out;
    return p;
#else
    (void)s;
    (void)out;
    return NULL;
#endif
}
