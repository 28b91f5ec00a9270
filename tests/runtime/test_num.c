/* test_num.c: sremrt_parse_f64 and sremrt_parse_i64 against the C library's
 * strtod and strtoll (the oracles) on fixed adversarial texts and on seeded
 * random ones: ordinary decimals, printed doubles, exact and near halfway
 * points between doubles, subnormals, long and 19-20 digit mantissas, huge
 * exponents. SREMC_DIFF_SCALE multiplies the counts (make check-num-long);
 * SREMC_NUM_SEED picks the seed, which a failure prints. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "rt.h"

#define TEXT_CAP 1200
#define BASE_COUNT 150000   /* random texts per generator at scale 1 */

static uint64_t rng_state;
static unsigned long seed_used;
static long failures;

static uint64_t rnd(void)
{
    /* xorshift64*: small, seeded, the same on every host */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Du;
}

static int below(int n)
{
    return (int)(rnd() % (uint64_t)n);
}

static long scaled(long n)
{
    const char *s = getenv("SREMC_DIFF_SCALE");
    long k = s ? atol(s) : 1;
    return n * (k > 0 ? k : 1);
}

static void seed_rng(void)
{
    const char *s = getenv("SREMC_NUM_SEED");
    seed_used = s ? strtoul(s, NULL, 10) : 20261202ul;
    rng_state = (uint64_t)seed_used * 0x9E3779B97F4A7C15u + 1;
}

/* ---- the oracles ------------------------------------------------------------- */

static int oracle_f64(const char *s, size_t n, double *out)
{
    char buf[TEXT_CAP + 1], *end;
    if (n == 0 || isspace((unsigned char)s[0]) || memchr(s, '\0', n))
        return SREMRT_NUM_SYNTAX;
    memcpy(buf, s, n);
    buf[n] = '\0';
    *out = strtod(buf, &end);
    return end == buf + n ? SREMRT_NUM_OK : SREMRT_NUM_SYNTAX;
}

static int oracle_i64(const char *s, size_t n, int64_t *out)
{
    char buf[TEXT_CAP + 1], *end;
    long long v;
    if (n == 0 || isspace((unsigned char)s[0]) || memchr(s, '\0', n))
        return SREMRT_NUM_SYNTAX;
    memcpy(buf, s, n);
    buf[n] = '\0';
    errno = 0;
    v = strtoll(buf, &end, 10);
    if (end == buf)
        return SREMRT_NUM_SYNTAX;
    if (errno == ERANGE)
        return SREMRT_NUM_RANGE;   /* the digits read so far overflowed */
    if (end != buf + n)
        return SREMRT_NUM_SYNTAX;
    *out = v;
    return SREMRT_NUM_OK;
}

/* ---- comparisons --------------------------------------------------------------- */

static void fail(const char *what, const char *s, size_t n, const char *detail)
{
    if (failures++ < 10)
        fprintf(stderr, "\n%s differs on \"%.*s\" (%zu bytes, seed %lu): %s\n", what,
                n > 200 ? 200 : (int)n, s, n, seed_used, detail);
}

/* The prefix scanners on the text followed by a ',' and random bytes: when
 * one reads the whole text, its value must be the oracle's; it may refuse
 * (NULL) or stop early on a text outside its simple form. */
static void check_scan(const char *s, size_t n)
{
    char buf[TEXT_CAP + 16], detail[160];
    const char *e;
    int64_t want_i = 0, got_i = 0;
    double want_f = 0, got_f = 0;
    size_t k;
    if (n > TEXT_CAP)
        return;
    memcpy(buf, s, n);
    buf[n] = rnd() & 1 ? ',' : '\n';
    for (k = n + 1; k < sizeof buf && k < n + 16; k++)
        buf[k] = (char)('0' + rnd() % 10);   /* digits after the end must not count */
    e = sremrt_scan_i64(buf, &got_i);
    if (e && e > buf + n) {
        fail("scan_i64", s, n, "read past the text");
    } else if (e == buf + n && (oracle_i64(s, n, &want_i) != SREMRT_NUM_OK || got_i != want_i)) {
        snprintf(detail, sizeof detail, "%lld, strtoll %lld", (long long)got_i, (long long)want_i);
        fail("scan_i64", s, n, detail);
    }
    e = sremrt_scan_f64(buf, &got_f);
    if (e && e > buf + n) {
        fail("scan_f64", s, n, "read past the text");
    } else if (e == buf + n && (oracle_f64(s, n, &want_f) != SREMRT_NUM_OK ||
                                memcmp(&got_f, &want_f, sizeof got_f) != 0)) {
        snprintf(detail, sizeof detail, "%a, strtod %a", got_f, want_f);
        fail("scan_f64", s, n, detail);
    }
}

static void check_f64(const char *s, size_t n)
{
    double want = 0, got = 0;
    char detail[160];
    int rw = oracle_f64(s, n, &want);
    int rg = sremrt_parse_f64(s, n, &got);
    check_scan(s, n);
    /* a text past the documented length refuses hex and nan forms only */
    if (rg != rw && !(rg == SREMRT_NUM_SYNTAX && n > SREMRT_NUM_TEXT_MAX)) {
        snprintf(detail, sizeof detail, "returns %d, strtod says %d", rg, rw);
        fail("parse_f64", s, n, detail);
    } else if (rw == SREMRT_NUM_OK && rg == SREMRT_NUM_OK && memcmp(&got, &want, sizeof got) != 0) {
        snprintf(detail, sizeof detail, "%a, strtod %a", got, want);
        fail("parse_f64", s, n, detail);
    }
}

static void check_i64(const char *s, size_t n)
{
    int64_t want = 0, got = 0;
    char detail[160];
    int rw = oracle_i64(s, n, &want);
    int rg = sremrt_parse_i64(s, n, &got);
    if (rg != rw || (rw == SREMRT_NUM_OK && got != want)) {
        snprintf(detail, sizeof detail, "returns %d (%lld), strtoll says %d (%lld)", rg,
                 (long long)got, rw, (long long)want);
        fail("parse_i64", s, n, detail);
    }
}

static void check_str(const char *s)
{
    check_f64(s, strlen(s));
    check_i64(s, strlen(s));
}

/* ---- fixed texts ------------------------------------------------------------------ */

static const char *const fixed[] = {
    "0", "-0", "+0", "00", "0.0", "-0.0e5", "1", "-1", "+1", "61.5", "1700000004000",
    ".5", "5.", "-.5", "+.5e-3", ".", "-", "+", "", "e5", "1e", "1e+", "1e-", "1.5.2",
    "1..5", " 1", "1 ", "\t1", "1\t", "1,5", "1_000", "0x10", "0X1p-3", "-0x1.8p1", "0x",
    "0x.p1", "inf", "-inf", "+INF", "Infinity", "-infinity", "infinit", "infx", "nan",
    "-NaN", "nan()", "nan(123)", "nan(abc_DEF)", "nan(", "nan(1 2)", "nanx",
    "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "-9223372036854775809", "99999999999999999999", "99999999999999999999x",
    "-99999999999999999999x", "00000000000000000000000000001", "+-1", "--1", "1e5x",
    "9007199254740992", "9007199254740993", "9007199254740994", "9007199254740995",
    "1e23", "8.98846567431158e307", "1.7976931348623157e308", "1.7976931348623158e308",
    "1.7976931348623159e308", "1e308", "1e309", "-1e309", "1e-307", "2.2250738585072011e-308",
    "2.2250738585072012e-308", "2.2250738585072014e-308", "4.9406564584124654e-324",
    "2.4703282292062327e-324", "2.4703282292062328e-324", "2.47032822920623272e-324",
    "1e-324", "3e-324", "1e-400", "1e99999999999999999999", "1e-99999999999999999999",
    "0e99999999999999999999", "0.000000000000000000000000000000000000000000001e45",
    "100000000000000000000000000000000000000000000e-45", "7.038531e-26",
    "1.00000000000000011102230246251565404236316680908203125",
    "1.00000000000000011102230246251565404236316680908203124",
    "1.00000000000000011102230246251565404236316680908203126",
    "0.1", "0.2", "0.3", "0.30000000000000004", "123456789012345678", "1234567890123456789",
    "12345678901234567890", "123456789012345678901", "18446744073709551615",
    "18446744073709551616", "9999999999999999999e-10", "10000000000000000000e-10",
    "1a", "a1", "1\n", "1e1e1",
};

static void test_fixed(void)
{
    size_t i;
    failures = 0;
    for (i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        check_str(fixed[i]);
    /* a NUL inside the text, and bytes past n that must not be read */
    check_f64("1\0002", 3);
    check_i64("1\0002", 3);
    check_f64("12345", 2);
    check_i64("12345", 2);
    CU_ASSERT_EQUAL(failures, 0);
}

/* ---- random texts ---------------------------------------------------------------- */

static size_t put_digits(char *p, int n, int first_nonzero)
{
    int i;
    for (i = 0; i < n; i++)
        p[i] = (char)('0' + (i == 0 && first_nonzero ? 1 + below(9) : below(10)));
    return (size_t)n;
}

/* [sign] digits [. digits] [e [sign] exp], the parts in adversarial sizes. */
static size_t random_decimal(char *s)
{
    size_t n = 0;
    int k = below(10);
    if (k == 0)
        s[n++] = '-';
    else if (k == 1)
        s[n++] = '+';
    if (below(4) == 0) {
        int zeros = 1 + below(4);     /* leading zeros */
        while (zeros--)
            s[n++] = '0';
    }
    n += put_digits(s + n, below(4) == 0 ? below(3) : 1 + below(below(3) ? 20 : 40), 1);
    if (below(2)) {
        s[n++] = '.';
        n += put_digits(s + n, below(3) ? below(20) : below(60), 0);
    }
    if (below(3)) {
        int e = below(3) ? below(700) - 350 : below(2000) - 1000;
        n += (size_t)sprintf(s + n, below(2) ? "e%d" : "E%+d", e);
    }
    return n;
}

/* A double of random bits (finite), printed in one of several ways. */
static size_t random_printed(char *s)
{
    uint64_t bits = rnd();
    double d;
    int k = below(6);
    if (below(8) == 0)
        bits &= ~((uint64_t)0x7ff << 52);         /* a subnormal */
    memcpy(&d, &bits, sizeof d);
    if (!isfinite(d))
        d = 1.5;
    if (k == 0)
        return (size_t)sprintf(s, "%.17g", d);
    if (k == 1)
        return (size_t)sprintf(s, "%.*g", 1 + below(17), d);
    if (k == 2)
        return (size_t)sprintf(s, "%.*e", 15 + below(6), d);
    if (k == 3)
        return (size_t)sprintf(s, "%a", d);
    if (k == 4)
        return (size_t)sprintf(s, "%.*f", below(20), d);
    return (size_t)sprintf(s, "%.16e", d);
}

#if LDBL_MANT_DIG >= 64
/* The exact midpoint of a random double and the next one (long double holds
 * it), in full or cut to a few more digits than a double needs, perhaps
 * nudged in its last digit: the texts that decide round-half-even. */
static size_t random_halfway(char *s)
{
    uint64_t bits = rnd() & ~((uint64_t)1 << 63);
    double d, up;
    long double mid;
    size_t n;
    if (below(4) == 0)
        bits &= ~((uint64_t)0x7ff << 52);
    memcpy(&d, &bits, sizeof d);
    if (!isfinite(d) || d == DBL_MAX) {
        d = 1.0;
        memcpy(&bits, &d, sizeof d);
    }
    bits++;                                      /* the next double up */
    memcpy(&up, &bits, sizeof up);
    mid = ((long double)d + (long double)up) / 2;
    n = (size_t)snprintf(s, TEXT_CAP, "%.*Le", below(2) ? 800 : 16 + below(10), mid);
    if (below(2)) {
        char *e = strchr(s, 'e');
        char *last = e - 1;
        if (*last >= '1' && *last <= '8')
            *last = (char)(*last + (below(2) ? 1 : -1));
    }
    return n;
}
#endif

/* An integer text: mostly digits near the int64 limits, some with junk. */
static size_t random_integer(char *s)
{
    size_t n = 0;
    int k = below(3);
    if (k == 0)
        s[n++] = '-';
    else if (k == 1 && below(2))
        s[n++] = '+';
    n += put_digits(s + n, 1 + below(below(2) ? 21 : 8), below(2));
    if (below(20) == 0)
        s[n++] = (char)" x.e-"[below(5)];
    return n;
}

static void test_random(void)
{
    char s[TEXT_CAP + 64];
    long i, count = scaled(BASE_COUNT);
    failures = 0;
    seed_rng();
    for (i = 0; i < count; i++) {
        size_t n = random_decimal(s);
        check_f64(s, n);
        check_i64(s, n);
        check_f64(s, random_printed(s));
        n = random_integer(s);
        check_i64(s, n);
        check_f64(s, n);
    }
    CU_ASSERT_EQUAL(failures, 0);
}

static void test_halfway(void)
{
#if LDBL_MANT_DIG >= 64
    char s[TEXT_CAP + 64];
    long i, count = scaled(BASE_COUNT / 3);
    failures = 0;
    seed_rng();
    for (i = 0; i < count; i++)
        check_f64(s, random_halfway(s));
    CU_ASSERT_EQUAL(failures, 0);
#endif
}

/* Mantissas of 19 and 20 digits around the powers of ten and 2^64, and very
 * long ones (the exact strtod fallback on a shortened text). */
static void test_long_mantissas(void)
{
    char s[TEXT_CAP + 64];
    long i, count = scaled(BASE_COUNT / 3);
    failures = 0;
    seed_rng();
    for (i = 0; i < count; i++) {
        size_t n = put_digits(s, 19 + below(2), 1);
        n += (size_t)sprintf(s + n, "e%d", below(660) - 345);
        check_f64(s, n);
        n = put_digits(s, 1, 1);
        s[n++] = '.';
        n += put_digits(s + n, 700 + below(300), 0);
        n += (size_t)sprintf(s + n, "e%d", below(660) - 330);
        check_f64(s, n);
    }
    CU_ASSERT_EQUAL(failures, 0);
}

void add_num_tests(void)
{
    CU_pSuite s = CU_add_suite("num", NULL, NULL);
    CU_add_test(s, "adversarial texts", test_fixed);
    CU_add_test(s, "random decimals, printed doubles, integers", test_random);
    CU_add_test(s, "halfway points", test_halfway);
    CU_add_test(s, "long mantissas", test_long_mantissas);
}
