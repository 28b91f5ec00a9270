/* test_misc.c: the small modules: ABI check, schema lookups and checks,
 * field access (float32 too), timestamp order, stats report, sinks. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>

#include "rt.h"

/* What a generated file does at file scope; compiling is the test. */
SREMRT_ABI_REQUIRE(rt_test, 11);

static void test_abi(void)
{
    CU_ASSERT_EQUAL(sremrt_abi_version(), SREMRT_ABI_VERSION);
    CU_ASSERT_EQUAL(sremrt_abi_check(SREMRT_ABI_VERSION), 0);
    CU_ASSERT_EQUAL(sremrt_abi_check(SREMRT_ABI_VERSION + 1), -1);
}

static void test_schema_lookup(void)
{
    const sremrt_attr *type = &rt_sensor.attrs[0];
    CU_ASSERT_EQUAL(sremrt_schema_find(&rt_sensor, "value", 5), 2);
    CU_ASSERT_EQUAL(sremrt_schema_find(&rt_sensor, "valuex", 5), 2);   /* only len bytes */
    CU_ASSERT_EQUAL(sremrt_schema_find(&rt_sensor, "val", 3), -1);
    CU_ASSERT_EQUAL(sremrt_schema_find(&rt_sensor, "Time", 4), -1);
    CU_ASSERT_EQUAL(sremrt_enum_find(type, "DTS fault", 9), 2);
    CU_ASSERT_EQUAL(sremrt_enum_find(type, "DTS", 3), -1);
    CU_ASSERT_EQUAL(sremrt_enum_find(type, "H", 1), 1);
}

static void test_schema_check(void)
{
    static const char *const vals[] = {"A"};
    sremrt_attr attrs[2] = {
        {"a", SREMRT_ENUM, 0, 1, vals},
        {"t", SREMRT_TIMESTAMP, 8, 0, NULL},
    };
    sremrt_schema s = {"S", 2, attrs, 1, 16, 1};
    sremrt_schema unnamed_ts = {"S", 5, NULL, -1, sizeof(rt_event), 0};
    char msg[80];
    unnamed_ts.attrs = rt_sensor.attrs;
    CU_ASSERT_EQUAL(sremrt_schema_check(&rt_sensor, msg, sizeof msg), 0);
    CU_ASSERT_EQUAL(sremrt_schema_check(&rt_sensor_nots, msg, sizeof msg), 0);
    CU_ASSERT_EQUAL(sremrt_schema_check(&unnamed_ts, msg, sizeof msg), -1);
    ASSERT_STR(msg, "attribute time: timestamp attribute not named by ts_attr");
    CU_ASSERT_EQUAL(sremrt_schema_check(&s, msg, sizeof msg), 0);
    ASSERT_STR(msg, "");
    s.event_size = 15;
    CU_ASSERT_EQUAL(sremrt_schema_check(&s, msg, sizeof msg), -1);
    ASSERT_STR(msg, "attribute t: offset outside the event struct");
    s.event_size = 16;
    s.ts_attr = 0;
    CU_ASSERT_EQUAL(sremrt_schema_check(&s, msg, sizeof msg), -1);
    ASSERT_STR(msg, "attribute a: timestamp index names a non-timestamp");
    s.ts_attr = 2;
    CU_ASSERT_EQUAL(sremrt_schema_check(&s, msg, sizeof msg), -1);
    ASSERT_STR(msg, "timestamp index out of range");
    s.ts_attr = 1;
    attrs[0].nvalues = 0;
    CU_ASSERT_EQUAL(sremrt_schema_check(&s, msg, sizeof msg), -1);
    ASSERT_STR(msg, "attribute a: enum without values");
}

static void test_field_access(void)
{
    const sremrt_attr *a = rt_sensor.attrs;
    rt_event e;
    memset(&e, 0, sizeof e);
    sremrt_attr_set_int(&a[0], &e, 3);
    sremrt_attr_set_int(&a[1], &e, -5);
    sremrt_attr_set_float(&a[2], &e, 2.5);
    sremrt_attr_set_int(&a[3], &e, 7);   /* any non-zero is true */
    sremrt_attr_set_int(&a[4], &e, 1600);
    CU_ASSERT_EQUAL(e.type, 3);
    CU_ASSERT_EQUAL(e.id, -5);
    CU_ASSERT_DOUBLE_EQUAL(e.value, 2.5, 0);
    CU_ASSERT_EQUAL(e.ok, 1);
    CU_ASSERT_EQUAL(e.time, 1600);
    CU_ASSERT_EQUAL(sremrt_attr_int(&a[0], &e), 3);
    CU_ASSERT_EQUAL(sremrt_attr_int(&a[3], &e), 1);
    CU_ASSERT_EQUAL(sremrt_attr_int(&a[2], &e), 2);
    CU_ASSERT_DOUBLE_EQUAL(sremrt_attr_float(&a[1], &e), -5.0, 0);
    CU_ASSERT_EQUAL(sremrt_event_ts(&rt_sensor, &e), 1600);
    CU_ASSERT_EQUAL(sremrt_event_ts(&rt_sensor_nots, &e), 0);
}

/* The 16-byte record {int64 ts; int32 type; float val} of a float32
 * schema: values stored rounded to nearest (ties to even), read back
 * widened exactly; printed as the shortest text that reads back. */
static void test_float32(void)
{
    typedef struct rec {
        int64_t ts;
        int32_t type;
        float val;
    } rec;
    static const char *const vals[] = {"A", "B"};
    static const sremrt_attr attrs[] = {
        {"ts", SREMRT_TIMESTAMP, offsetof(rec, ts), 0, NULL},
        {"type", SREMRT_ENUM, offsetof(rec, type), 2, vals},
        {"val", SREMRT_FLOAT32, offsetof(rec, val), 0, NULL},
    };
    static const sremrt_schema sch = {"Rec", 3, attrs, 0, sizeof(rec), 1};
    static const struct { double in; float stored; const char *text; } cases[] = {
        {0.1, 0.1f, "0.1"},
        {16777217.0, 16777216.0f, "16777216"},         /* halfway: to even */
        {16777219.0, 16777220.0f, "16777220"},
        {0.30000001192092896, 0.3f, "0.3"},
        {-2.5, -2.5f, "-2.5"},
        {3.4028234663852886e38, 3.4028234663852886e38f, "3.4028235e+38"},
        {1e-45, 1.4e-45f, "1.4013e-45"},                /* the least subnormal */
        {1e39, 0.0f, "null"},                          /* beyond the range: infinity */
    };
    char msg[80], buf[40];
    rec r;
    sremrt_sink s;
    CU_ASSERT_EQUAL(sizeof(rec), 16);
    CU_ASSERT_EQUAL(sremrt_schema_check(&sch, msg, sizeof msg), 0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memset(&r, 0, sizeof r);
        sremrt_attr_set_float(&attrs[2], &r, cases[i].in);
        if (cases[i].stored != 0.0f) {
            CU_ASSERT(r.val == cases[i].stored);
            CU_ASSERT(sremrt_attr_float(&attrs[2], &r) == (double)cases[i].stored);
        } else {
            CU_ASSERT(r.val > 3.4028234663852886e38f);
        }
        sremrt_sink_init_buf(&s, buf, sizeof buf);
        sremrt_sink_f32(&s, r.val);
        sremrt_sink_end(&s);
        ASSERT_STR(buf, cases[i].text);
    }
    sremrt_attr_set_int(&attrs[2], &r, 16777217);
    CU_ASSERT(r.val == 16777216.0f);
    CU_ASSERT_EQUAL(sremrt_attr_int(&attrs[2], &r), 16777216);
    CU_ASSERT_EQUAL(sremrt_attr_int(&attrs[0], &r), 0);
}

static void test_tsorder(void)
{
    sremrt_tsorder t;
    rt_event e;
    char msg[64];
    sremrt_tsorder_init(&t);
    CU_ASSERT_EQUAL(sremrt_tsorder_accept(&t, 1600, msg, sizeof msg), 0);
    CU_ASSERT_EQUAL(sremrt_tsorder_accept(&t, 1600, msg, sizeof msg), 0);   /* equal is fine */
    CU_ASSERT_EQUAL(sremrt_tsorder_accept(&t, 1500, msg, sizeof msg), -1);
    ASSERT_STR(msg, "timestamp goes backwards (1500 < 1600)");
    /* the rejected event does not move the bar */
    CU_ASSERT_EQUAL(sremrt_tsorder_accept(&t, 1550, msg, sizeof msg), -1);
    ASSERT_STR(msg, "timestamp goes backwards (1550 < 1600)");
    CU_ASSERT_EQUAL(sremrt_tsorder_accept(&t, 1700, NULL, 0), 0);
    CU_ASSERT_EQUAL(sremrt_tsorder_accept(&t, -1, NULL, 0), -1);
    /* the first event may have any timestamp */
    sremrt_tsorder_init(&t);
    CU_ASSERT_EQUAL(sremrt_tsorder_accept(&t, INT64_MIN, msg, sizeof msg), 0);
    /* on events */
    sremrt_tsorder_init(&t);
    memset(&e, 0, sizeof e);
    e.time = 10;
    CU_ASSERT_EQUAL(sremrt_tsorder_event(&t, &rt_sensor, &e, msg, sizeof msg), 0);
    e.time = 9;
    CU_ASSERT_EQUAL(sremrt_tsorder_event(&t, &rt_sensor, &e, msg, sizeof msg), -1);
    ASSERT_STR(msg, "timestamp goes backwards (9 < 10)");
    CU_ASSERT_EQUAL(sremrt_tsorder_event(&t, &rt_sensor_nots, &e, msg, sizeof msg), 0);
}

static void test_stats(void)
{
    sremrt_stats st;
    char buf[256];
    sremrt_stats_init(&st);
    st.events = 1000000;
    sremrt_stats_format(buf, sizeof buf, &st, 0.5);
    ASSERT_STR(buf, "events     1000000\nevents/s   2000000\nrejected   0\noverflows  0\n");
    CU_ASSERT_EQUAL(sremrt_stats_exit_status(&st), 0);
    st.overflow[SREMRT_OVF_BUDGET] = 1;   /* something dropped: status 3 too */
    CU_ASSERT_EQUAL(sremrt_stats_exit_status(&st), 3);
    st.overflow[SREMRT_OVF_BUDGET] = 0;
    st.rejected = 3;
    st.overflow[SREMRT_OVF_KEYS] = 5;
    st.overflow[SREMRT_OVF_RUNS] = 2;
    sremrt_stats_format(buf, sizeof buf, &st, 0);
    ASSERT_STR(buf, "events     1000000\nevents/s   -\nrejected   3\n"
                    "overflows  7 (keys 5, runs 2)\n");
    CU_ASSERT_EQUAL(sremrt_stats_overflows(&st), 7);
    CU_ASSERT_EQUAL(sremrt_stats_exit_status(&st), 3);
    ASSERT_STR(sremrt_overflow_name(SREMRT_OVF_MEMORY), "memory");
    ASSERT_STR(sremrt_overflow_name(SREMRT_OVF_KEYS), "keys");
    ASSERT_STR(sremrt_overflow_name(SREMRT_OVF_START), "start");
    ASSERT_STR(sremrt_overflow_name(SREMRT_OVF_KINDS), "?");
    CU_ASSERT(sremrt_clock_seconds() > 0);
}

/* An overflow record's message: the kinds counted, in enum order, each
 * with the option that raises its limit; cut like snprintf. */
static void test_overflow_message(void)
{
    uint64_t n[SREMRT_OVF_KINDS] = {0};
    char buf[400], tiny[12];
    n[SREMRT_OVF_KEYS] = 1900;
    CU_ASSERT_EQUAL(sremrt_overflow_format(buf, sizeof buf, n), strlen(buf));
    ASSERT_STR(buf, "overflow: 1900 events of new keys dropped (--max-keys)");
    n[SREMRT_OVF_MEMORY] = 1;
    n[SREMRT_OVF_RUNS] = 3;
    sremrt_overflow_format(buf, sizeof buf, n);
    ASSERT_STR(buf, "overflow: 1900 events of new keys dropped (--max-keys), 3 runs dropped (--max-runs), "
                    "1 blocks of memory refused (--max-memory)");
    CU_ASSERT_EQUAL(sremrt_overflow_format(tiny, sizeof tiny, n), strlen(buf));
    ASSERT_STR(tiny, "overflow: 1");
}

static void test_stats_print(void)
{
    sremrt_stats st;
    char *mem = NULL;
    size_t size;
    FILE *f = open_memstream(&mem, &size);
    sremrt_stats_init(&st);
    st.events = 3;
    st.overflow[SREMRT_OVF_MEMORY] = 1;
    CU_ASSERT_EQUAL(sremrt_stats_print(f, &st, 2.0), 0);
    fclose(f);
    ASSERT_STR(mem, "events     3\nevents/s   2\nrejected   0\noverflows  1 (memory 1)\n");
    free(mem);
}

static void collect(void *ctx, const char *p, size_t n)
{
    FILE *f = (FILE *)ctx;
    fwrite(p, 1, n, f);
    fputc('|', f);   /* marks each flush */
}

static void test_sink(void)
{
    char small[4], *mem = NULL;
    size_t size;
    sremrt_sink s;
    FILE *f;
    sremrt_sink_init_buf(&s, small, sizeof small);
    sremrt_sink_puts(&s, "abcdef");
    CU_ASSERT_EQUAL(sremrt_sink_end(&s), 6);
    ASSERT_STR(small, "abc");
    f = open_memstream(&mem, &size);
    sremrt_sink_init_flush(&s, small, sizeof small, collect, f);
    sremrt_sink_puts(&s, "abcdef");
    sremrt_sink_i64(&s, -12);
    CU_ASSERT_EQUAL(sremrt_sink_end(&s), 9);
    fclose(f);
    ASSERT_STR(mem, "abcd|ef-1|2|");
    free(mem);
}

/* putn against putc a byte at a time: random pieces into buffers of 0 to
 * 9 bytes, flushing (each flush marked) and not: the same bytes, flushes
 * and totals. */
static void test_sink_pieces(void)
{
    static const char text[] = "match abc index=941 ts=940 start=939\n{\"kind\":\"match\"}";
    unsigned long long x = 2463534242ull;
    int round, cap, flushing;
    for (round = 0; round < 200; round++)
        for (cap = 0; cap < 10; cap++)
            for (flushing = 0; flushing < 2; flushing++) {
                char b1[10], b2[10], *m1 = NULL, *m2 = NULL;
                size_t z1, z2, t1, t2;
                FILE *f1 = open_memstream(&m1, &z1), *f2 = open_memstream(&m2, &z2);
                sremrt_sink s1, s2;
                int piece;
                if (flushing) {
                    sremrt_sink_init_flush(&s1, b1, (size_t)cap, collect, f1);
                    sremrt_sink_init_flush(&s2, b2, (size_t)cap, collect, f2);
                } else {
                    sremrt_sink_init_buf(&s1, cap ? b1 : NULL, (size_t)cap);
                    sremrt_sink_init_buf(&s2, cap ? b2 : NULL, (size_t)cap);
                }
                for (piece = 0; piece < 6; piece++) {
                    size_t at, n, i;
                    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                    at = (size_t)(x % (sizeof text - 1));
                    n = (size_t)(x >> 20) % (sizeof text - at);
                    sremrt_sink_putn(&s1, text + at, n);
                    for (i = 0; i < n; i++)
                        sremrt_sink_putc(&s2, text[at + i]);
                    if (piece == 3) {
                        sremrt_sink_i64(&s1, (int64_t)(x >> 1) * (x & 1 ? -1 : 1));
                        sremrt_sink_i64(&s2, (int64_t)(x >> 1) * (x & 1 ? -1 : 1));
                    }
                }
                t1 = sremrt_sink_end(&s1);
                t2 = sremrt_sink_end(&s2);
                CU_ASSERT_EQUAL(t1, t2);
                CU_ASSERT_EQUAL(s1.len, s2.len);
                if (!flushing && cap)
                    ASSERT_STR(b1, b2);
                fclose(f1);
                fclose(f2);
                ASSERT_STR(m1, m2);
                free(m1);
                free(m2);
            }
}

void add_misc_tests(void)
{
    CU_pSuite s = CU_add_suite("misc", NULL, NULL);
    CU_add_test(s, "abi", test_abi);
    CU_add_test(s, "schema lookup", test_schema_lookup);
    CU_add_test(s, "schema check", test_schema_check);
    CU_add_test(s, "field access", test_field_access);
    CU_add_test(s, "float32", test_float32);
    CU_add_test(s, "timestamp order", test_tsorder);
    CU_add_test(s, "stats", test_stats);
    CU_add_test(s, "overflow message", test_overflow_message);
    CU_add_test(s, "stats print", test_stats_print);
    CU_add_test(s, "sink", test_sink);
    CU_add_test(s, "sink: putn's pieces as putc's bytes", test_sink_pieces);
}
