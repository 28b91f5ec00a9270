/* test_time.c: ISO-8601 instants and durations (isotime.c) against hand-
 * computed vectors and a day-by-day counter; the reorder buffer
 * (reorder.c) against a quadratic oracle written from its definition. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>

#include "rt.h"

static int iso(const char *s, int64_t unit_ns, int64_t *out)
{
    return sremrt_parse_iso8601(s, strlen(s), unit_ns, out);
}

#define MS INT64_C(1000000)
#define S INT64_C(1000000000)

static void test_iso_vectors(void)
{
    int64_t v = 7;
    CU_ASSERT(iso("1970-01-01T00:00:00Z", S, &v) == 0 && v == 0);
    CU_ASSERT(iso("2023-11-14T22:13:20Z", S, &v) == 0 && v == 1700000000);
    CU_ASSERT(iso("2023-11-14T23:13:20.5+01:00", MS, &v) == 0 && v == INT64_C(1700000000500));
    CU_ASSERT(iso("2023-11-14t21:13:20.123456789-01:00", 1, &v) == 0 && v == INT64_C(1700000000123456789));
    CU_ASSERT(iso("2000-03-01T00:00:00z", S, &v) == 0 && v == 951868800);
    CU_ASSERT(iso("1969-12-31T23:59:59Z", S, &v) == 0 && v == -1);
    CU_ASSERT(iso("1969-12-31T23:59:59.999Z", MS, &v) == 0 && v == -1);
    CU_ASSERT(iso("0000-01-01T00:00:00Z", S, &v) == 0 && v == INT64_C(-62167219200));
    CU_ASSERT(iso("9999-12-31T23:59:59Z", S, &v) == 0 && v == INT64_C(253402300799));
    CU_ASSERT(iso("2024-02-29T00:00:00Z", S, &v) == 0 && v == 1709164800);
    CU_ASSERT(iso("2024-01-01T00:00:00.5000000000000Z", MS, &v) == 0 && v == INT64_C(1704067200500));
    CU_ASSERT(iso("2262-04-11T23:47:16.854775807Z", 1, &v) == 0 && v == INT64_MAX);
    CU_ASSERT(iso("1970-01-01T00:00:00Z", 60 * S, &v) == 0 && v == 0);   /* a unit above a second */
    CU_ASSERT(iso("1970-01-01T01:00:00Z", 3600 * S, &v) == 0 && v == 1);
    /* errors */
    CU_ASSERT_EQUAL(iso("2262-04-11T23:47:17Z", 1, &v), SREMRT_TIME_BIG);
    CU_ASSERT_EQUAL(iso("2024-01-01T00:00:00.5Z", S, &v), SREMRT_TIME_INEXACT);
    CU_ASSERT_EQUAL(iso("2024-01-01T00:00:00.0000000001Z", 1, &v), SREMRT_TIME_INEXACT);
    CU_ASSERT_EQUAL(iso("1970-01-01T00:01:30Z", 60 * S, &v), SREMRT_TIME_INEXACT);
    CU_ASSERT_EQUAL(iso("2024-01-01T00:00:00", S, &v), SREMRT_TIME_NO_ZONE);
    CU_ASSERT_EQUAL(iso("2023-02-29T00:00:00Z", S, &v), SREMRT_TIME_RANGE);
    CU_ASSERT_EQUAL(iso("1900-02-29T00:00:00Z", S, &v), SREMRT_TIME_RANGE);
    CU_ASSERT_EQUAL(iso("2024-13-01T00:00:00Z", S, &v), SREMRT_TIME_RANGE);
    CU_ASSERT_EQUAL(iso("2024-00-01T00:00:00Z", S, &v), SREMRT_TIME_RANGE);
    CU_ASSERT_EQUAL(iso("2024-04-31T00:00:00Z", S, &v), SREMRT_TIME_RANGE);
    CU_ASSERT_EQUAL(iso("2024-01-01T24:00:00Z", S, &v), SREMRT_TIME_RANGE);
    CU_ASSERT_EQUAL(iso("2024-01-01T00:60:00Z", S, &v), SREMRT_TIME_RANGE);
    CU_ASSERT_EQUAL(iso("2016-12-31T23:59:60Z", S, &v), SREMRT_TIME_RANGE);   /* no leap second */
    CU_ASSERT_EQUAL(iso("2024-01-01T00:00:00+24:00", S, &v), SREMRT_TIME_RANGE);
    CU_ASSERT_EQUAL(iso("2024-01-01T00:00:00+0200", S, &v), SREMRT_TIME_SYNTAX);
    CU_ASSERT_EQUAL(iso("2024-01-01 00:00:00Z", S, &v), SREMRT_TIME_SYNTAX);
    CU_ASSERT_EQUAL(iso("2024-1-01T00:00:00Z", S, &v), SREMRT_TIME_SYNTAX);
    CU_ASSERT_EQUAL(iso("2024-01-01T00:00:00.Z", S, &v), SREMRT_TIME_SYNTAX);
    CU_ASSERT_EQUAL(iso("2024-01-01T00:00:00Zx", S, &v), SREMRT_TIME_SYNTAX);
    CU_ASSERT_EQUAL(iso("2024-01-01T00:00Z", S, &v), SREMRT_TIME_SYNTAX);
    CU_ASSERT_EQUAL(iso("", S, &v), SREMRT_TIME_SYNTAX);
    CU_ASSERT_EQUAL(iso("2024-01-01T00:00:00Z", 0, &v), SREMRT_TIME_UNIT);
    CU_ASSERT_EQUAL(sremrt_parse_iso8601("2024-01-01T00:00:00Zjunk", 20, S, &v), 0);   /* n bytes only */
    CU_ASSERT_EQUAL(v, 1704067200);
    CU_ASSERT_STRING_EQUAL(sremrt_time_error(SREMRT_TIME_OK), "");
}

/* The oracle: days from 1970-01-01, counted a year and a month at a time. */
static int64_t count_days(int y, int m, int d)
{
    static const int md[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int64_t days = 0;
    for (int k = 1970; k < y; k++)
        days += (k % 4 == 0 && (k % 100 != 0 || k % 400 == 0)) ? 366 : 365;
    for (int k = y; k < 1970; k++)
        days -= (k % 4 == 0 && (k % 100 != 0 || k % 400 == 0)) ? 366 : 365;
    for (int k = 1; k < m; k++)
        days += md[k - 1] + (k == 2 && y % 4 == 0 && (y % 100 != 0 || y % 400 == 0));
    return days + d - 1;
}

static void test_iso_random(void)
{
    unsigned seed = 19u;
    srand(seed);
    for (int i = 0; i < 20000; i++) {
        int y = rand() % 10000, m = 1 + rand() % 12, d = 1 + rand() % 31;
        int h = rand() % 24, mi = rand() % 60, s = rand() % 60, ms = rand() % 1000;
        int oh = rand() % 24, om = rand() % 60, neg = rand() % 2;
        int leapy = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
        int valid = d <= (m == 2 ? 28 + leapy : (m == 4 || m == 6 || m == 9 || m == 11) ? 30 : 31);
        char text[64];
        int64_t v = 0;
        snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03d%c%02d:%02d", y, m, d, h, mi, s, ms,
                 neg ? '-' : '+', oh, om);
        int64_t east = (neg ? -1 : 1) * (oh * 3600 + mi * 0 + om * 60);
        int64_t want = (count_days(y, m, d) * 86400 + h * 3600 + mi * 60 + s - east) * 1000 + ms;
        int rc = iso(text, MS, &v);
        if (rc != (valid ? 0 : SREMRT_TIME_RANGE) || (valid && v != want))
            fprintf(stderr, "\nseed %u: %s: rc %d, got %lld, want %lld\n", seed, text, rc, (long long)v,
                    (long long)want);
        CU_ASSERT_EQUAL_FATAL(rc, valid ? 0 : SREMRT_TIME_RANGE);
        if (valid)
            CU_ASSERT_EQUAL_FATAL(v, want);
    }
}

static void test_duration(void)
{
    int64_t v = 0;
    CU_ASSERT(sremrt_parse_duration("2000", MS, &v) == 0 && v == 2000);
    CU_ASSERT(sremrt_parse_duration("0", MS, &v) == 0 && v == 0);
    CU_ASSERT(sremrt_parse_duration("2s", MS, &v) == 0 && v == 2000);
    CU_ASSERT(sremrt_parse_duration("500ms", MS, &v) == 0 && v == 500);
    CU_ASSERT(sremrt_parse_duration("3min", S, &v) == 0 && v == 180);
    CU_ASSERT(sremrt_parse_duration("1d", 1, &v) == 0 && v == INT64_C(86400000000000));
    CU_ASSERT(sremrt_parse_duration("3000us", MS, &v) == 0 && v == 3);
    CU_ASSERT_EQUAL(sremrt_parse_duration("2500us", MS, &v), SREMRT_TIME_INEXACT);
    CU_ASSERT_EQUAL(sremrt_parse_duration("2 s", MS, &v), SREMRT_TIME_UNIT);
    CU_ASSERT_EQUAL(sremrt_parse_duration("2sec", MS, &v), SREMRT_TIME_UNIT);
    CU_ASSERT_EQUAL(sremrt_parse_duration("-2", MS, &v), SREMRT_TIME_SYNTAX);
    CU_ASSERT_EQUAL(sremrt_parse_duration("s", MS, &v), SREMRT_TIME_SYNTAX);
    CU_ASSERT_EQUAL(sremrt_parse_duration("99999999999999999999", MS, &v), SREMRT_TIME_BIG);
    CU_ASSERT_EQUAL(sremrt_parse_duration("9999999999999d", 1, &v), SREMRT_TIME_BIG);
}

/* ---- reorder buffer ---------------------------------------------------------- */

#define NEV 300

/* What the buffer must do, from docs/language.md's words: event i is
 * released once an event j with ts_j > ts_i + D has arrived (j before i:
 * at once; none: at the end); an event older than one released before it
 * arrived is late. Released events come out in (ts, arrival) order. */
static int oracle(const int64_t *ts, int n, int64_t d, int *order, int *late)
{
    int rel[NEV], k = 0;
    for (int i = 0; i < n; i++) {   /* rel[i]: the arrival after which i is released */
        rel[i] = n;
        for (int j = 0; j < n && rel[i] == n; j++)
            if (ts[j] - ts[i] > d)
                rel[i] = j > i ? j : i;   /* one before it: at once */
    }
    for (int i = 0; i < n; i++) {
        late[i] = 0;
        for (int e = 0; e < i; e++)
            if (!late[e] && rel[e] < i && ts[e] > ts[i])
                late[i] = 1;
    }
    for (int i = 0; i < n; i++)
        if (!late[i])
            order[k++] = i;
    for (int a = 1; a < k; a++)   /* insertion sort: stable on (ts, arrival) */
        for (int b = a; b > 0 && ts[order[b - 1]] > ts[order[b]]; b--) {
            int t = order[b];
            order[b] = order[b - 1];
            order[b - 1] = t;
        }
    return k;
}

/* Feeds ts[] (line = position + 1) and collects the released lines. */
static int run_buffer(sremrt_reorder *r, const int64_t *ts, int n, int *got, int *late)
{
    int k = 0;
    rt_event e, out;
    int64_t line;
    memset(&e, 0, sizeof e);
    for (int i = 0; i < n; i++) {
        e.time = ts[i];
        e.id = i;
        int rc;
        while ((rc = sremrt_reorder_add(r, &e, i + 1)) == SREMRT_REORDER_FULL)
            while (sremrt_reorder_next(r, &out, &line))
                got[k++] = (int)line - 1;
        late[i] = rc == SREMRT_REORDER_LATE;
        while (sremrt_reorder_next(r, &out, &line)) {
            CU_ASSERT_EQUAL(out.id, line - 1);   /* the bytes travel with the line */
            got[k++] = (int)line - 1;
        }
    }
    sremrt_reorder_end(r);
    while (sremrt_reorder_next(r, &out, &line))
        got[k++] = (int)line - 1;
    return k;
}

static void test_reorder_random(void)
{
    unsigned seed = 1919u;
    sremrt_alloc a = sremrt_alloc_malloc();
    srand(seed);
    for (int round = 0; round < 400; round++) {
        int n = 1 + rand() % NEV, order[NEV], got[NEV], late[NEV], glate[NEV];
        int64_t ts[NEV], d = rand() % 4 == 0 ? 0 : rand() % 30, spread = 1 + rand() % 60, t = rand() % 100;
        for (int i = 0; i < n; i++) {   /* a clock with jitter of up to spread back */
            t += rand() % 3;
            ts[i] = t - rand() % spread;
        }
        sremrt_reorder r;
        CU_ASSERT_EQUAL_FATAL(sremrt_reorder_init(&r, &rt_sensor, d, &a), 0);
        int k = oracle(ts, n, d, order, late);
        int gk = run_buffer(&r, ts, n, got, glate);
        int same = gk == k && memcmp(got, order, (size_t)k * sizeof *got) == 0
                   && memcmp(glate, late, (size_t)n * sizeof *late) == 0;
        if (!same) {
            fprintf(stderr, "\nreorder: seed %u round %d (n %d, D %lld) differs from the oracle\n", seed,
                    round, n, (long long)d);
            for (int i = 0; i < n; i++)
                fprintf(stderr, "%d: ts %lld late %d/%d  out %d/%d\n", i, (long long)ts[i], late[i], glate[i],
                        i < k ? order[i] : -1, i < gk ? got[i] : -1);
        }
        CU_ASSERT_FATAL(same);
        CU_ASSERT_EQUAL(r.early, 0);
        sremrt_reorder_free(&r);
    }
}

static void test_reorder_edges(void)
{
    static const int64_t ts[] = {10, 10, 5, 15, 14, 20, 9, 26, 20, 20};
    /* D = 5: 15 releases 5 (15 - 5 > 5), not 10 (exactly D); 20 releases
     * 10, 10 (ties in arrival order) and 14, not 15; 9 is then late; 26
     * releases 15 and 20; a 20 after a 20 was released is fine (equal) and
     * goes at once; the end releases 26. */
    int got[10], late[10];
    sremrt_alloc a = sremrt_alloc_malloc();
    sremrt_reorder r;
    CU_ASSERT_EQUAL_FATAL(sremrt_reorder_init(&r, &rt_sensor, 5, &a), 0);
    int k = run_buffer(&r, ts, 10, got, late);
    static const int want[] = {2, 0, 1, 4, 3, 5, 8, 9, 7};   /* lines - 1 */
    CU_ASSERT_EQUAL(k, 9);
    CU_ASSERT(memcmp(got, want, sizeof want) == 0);
    CU_ASSERT(late[6] && !late[8] && !late[9]);   /* 9 late; 20 after 20 released: equal is fine */
    sremrt_reorder_free(&r);
    CU_ASSERT_EQUAL(sremrt_reorder_init(&r, &rt_sensor_nots, 5, &a), -1);   /* no timestamp */
    CU_ASSERT_EQUAL(sremrt_reorder_init(&r, &rt_sensor, -1, &a), -1);
}

/* A fixed buffer of 4 events with D large: the fifth forces the earliest out. */
static void test_reorder_fixed(void)
{
    static const int64_t ts[] = {3, 1, 2, 4, 0, 5};
    unsigned char mem[1024];
    int got[6], late[6];
    sremrt_reorder r;
    CU_ASSERT_FATAL(sremrt_reorder_bytes(&rt_sensor, 4) <= sizeof mem);
    CU_ASSERT_EQUAL_FATAL(sremrt_reorder_init_buf(&r, &rt_sensor, 100, mem + 1,
                                                  sremrt_reorder_bytes(&rt_sensor, 4)), 0);
    CU_ASSERT_EQUAL(r.cap, 4);
    int k = run_buffer(&r, ts, 6, got, late);
    /* 0 (line 5) finds it full: 1 goes early, then 0 is late (older than
     * 1) and not kept; 5 fits; the end releases 2, 3, 4, 5. */
    static const int want[] = {1, 2, 0, 3, 5};
    CU_ASSERT_EQUAL(k, 5);
    CU_ASSERT(memcmp(got, want, sizeof want) == 0);
    CU_ASSERT(late[4]);
    CU_ASSERT_EQUAL(r.early, 1);
    CU_ASSERT_EQUAL(r.peak, 4);
    CU_ASSERT_EQUAL(sremrt_reorder_init_buf(&r, &rt_sensor, 1, mem, 8), -1);   /* not one event */
}

void add_time_tests(void)
{
    CU_pSuite s = CU_add_suite("time", NULL, NULL);
    CU_add_test(s, "iso8601 vectors", test_iso_vectors);
    CU_add_test(s, "iso8601 against a day counter", test_iso_random);
    CU_add_test(s, "durations", test_duration);
    CU_add_test(s, "reorder against its definition", test_reorder_random);
    CU_add_test(s, "reorder edges", test_reorder_edges);
    CU_add_test(s, "reorder fixed capacity", test_reorder_fixed);
}
