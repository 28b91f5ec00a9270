/* test_bin.c: binary input: whole records become events, a truncated last
 * record and out-of-range enum/bool values become error records. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>

#include "rt.h"

static rt_event ev(int32_t type, int64_t id, uint8_t ok, int64_t time)
{
    rt_event e;
    memset(&e, 0, sizeof e);
    e.type = type;
    e.id = id;
    e.value = 0.5;
    e.ok = ok;
    e.time = time;
    return e;
}

static void test_records(void)
{
    rt_event in[3], out;
    sremrt_bin r;
    FILE *f;
    in[0] = ev(0, 1, 1, 100);
    in[1] = ev(2, 2, 0, 200);
    in[2] = ev(4, 3, 1, 300);
    f = rt_mem((const char *)in, sizeof in);
    sremrt_bin_open(&r, &rt_sensor, f);
    CU_ASSERT_EQUAL(sremrt_bin_next(&r, &out), SREMRT_READ_EVENT);
    CU_ASSERT_EQUAL(memcmp(&out, &in[0], sizeof out), 0);
    CU_ASSERT_EQUAL(sremrt_bin_line(&r), 1);
    CU_ASSERT_EQUAL(sremrt_bin_next(&r, &out), SREMRT_READ_EVENT);
    CU_ASSERT_EQUAL(sremrt_bin_next(&r, &out), SREMRT_READ_EVENT);
    CU_ASSERT_EQUAL(out.time, 300);
    CU_ASSERT_EQUAL(sremrt_bin_line(&r), 3);
    CU_ASSERT_EQUAL(sremrt_bin_next(&r, &out), SREMRT_READ_END);
    CU_ASSERT_EQUAL(sremrt_bin_next(&r, &out), SREMRT_READ_END);
    fclose(f);
}

static void test_empty(void)
{
    rt_event out;
    sremrt_bin r;
    FILE *f = rt_mem("", 0);
    sremrt_bin_open(&r, &rt_sensor, f);
    CU_ASSERT_EQUAL(sremrt_bin_next(&r, &out), SREMRT_READ_END);
    fclose(f);
}

static void test_truncated(void)
{
    rt_event in[2], out;
    sremrt_bin r;
    char want[64];
    FILE *f;
    in[0] = ev(1, 1, 1, 100);
    in[1] = ev(1, 2, 1, 200);
    f = rt_mem((const char *)in, sizeof in[0] + 5);
    sremrt_bin_open(&r, &rt_sensor, f);
    CU_ASSERT_EQUAL(sremrt_bin_next(&r, &out), SREMRT_READ_EVENT);
    CU_ASSERT_EQUAL(sremrt_bin_next(&r, &out), SREMRT_READ_BAD);
    CU_ASSERT_EQUAL(sremrt_bin_line(&r), 2);
    sprintf(want, "truncated record: 5 of %u bytes", (unsigned)sizeof(rt_event));
    ASSERT_STR(sremrt_bin_message(&r), want);
    CU_ASSERT_EQUAL(sremrt_bin_next(&r, &out), SREMRT_READ_END);
    fclose(f);
}

static void test_bad_values(void)
{
    rt_event in[4], out;
    sremrt_bin r;
    FILE *f;
    in[0] = ev(5, 1, 1, 100);    /* 5 values: index 5 is out */
    in[1] = ev(-1, 2, 0, 200);
    in[2] = ev(0, 3, 2, 300);
    in[3] = ev(3, 4, 0, 400);
    f = rt_mem((const char *)in, sizeof in);
    sremrt_bin_open(&r, &rt_sensor, f);
    CU_ASSERT_EQUAL(sremrt_bin_next(&r, &out), SREMRT_READ_BAD);
    ASSERT_STR(sremrt_bin_message(&r), "attribute type: 5 is not an index of its enum");
    CU_ASSERT_EQUAL(sremrt_bin_next(&r, &out), SREMRT_READ_BAD);
    ASSERT_STR(sremrt_bin_message(&r), "attribute type: -1 is not an index of its enum");
    CU_ASSERT_EQUAL(sremrt_bin_next(&r, &out), SREMRT_READ_BAD);
    ASSERT_STR(sremrt_bin_message(&r), "attribute ok: 2 is not a bool (0 or 1)");
    CU_ASSERT_EQUAL(sremrt_bin_line(&r), 3);
    CU_ASSERT_EQUAL(sremrt_bin_next(&r, &out), SREMRT_READ_EVENT);
    CU_ASSERT_EQUAL(out.id, 4);
    CU_ASSERT_EQUAL(sremrt_bin_next(&r, &out), SREMRT_READ_END);
    fclose(f);
}

void add_bin_tests(void)
{
    CU_pSuite s = CU_add_suite("bin", NULL, NULL);
    CU_add_test(s, "records", test_records);
    CU_add_test(s, "empty", test_empty);
    CU_add_test(s, "truncated last record", test_truncated);
    CU_add_test(s, "bad values", test_bad_values);
}
