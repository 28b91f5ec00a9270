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

/* One line per record ("N: id" or "N: ! message") and "END", read one
 * at a time (by_runs 0) or in runs of records in place; free() it. */
static char *bin_transcript(FILE *f, int by_runs)
{
    sremrt_alloc heap = sremrt_alloc_malloc();
    char *text = NULL;
    size_t size;
    FILE *out = open_memstream(&text, &size);
    int rc;
    if (!by_runs) {
        sremrt_bin r;
        rt_event e;
        sremrt_bin_open(&r, &rt_sensor, f);
        while ((rc = sremrt_bin_next(&r, &e)) != SREMRT_READ_END) {
            if (rc == SREMRT_READ_EVENT)
                fprintf(out, "%lld: %lld\n", (long long)sremrt_bin_line(&r), (long long)e.id);
            else
                fprintf(out, "%lld: ! %s\n", (long long)sremrt_bin_line(&r), sremrt_bin_message(&r));
        }
    } else {
        sremrt_bin_blocks r;
        const void *run;
        size_t n, i;
        CU_ASSERT_EQUAL_FATAL(sremrt_bin_blocks_open(&r, &rt_sensor, f, &heap), 0);
        while ((rc = sremrt_bin_blocks_next(&r, &run, &n)) != SREMRT_READ_END) {
            CU_ASSERT(rc == SREMRT_READ_EVENT || rc == SREMRT_READ_BAD);
            for (i = 0; rc == SREMRT_READ_EVENT && i < n; i++) {
                const rt_event *e = (const rt_event *)run + i;
                CU_ASSERT_EQUAL((uintptr_t)e % sizeof(int64_t), 0);   /* in place, aligned */
                fprintf(out, "%lld: %lld\n", (long long)sremrt_bin_blocks_line(&r) + (long long)i,
                        (long long)e->id);
            }
            if (rc == SREMRT_READ_BAD)
                fprintf(out, "%lld: ! %s\n", (long long)sremrt_bin_blocks_line(&r),
                        sremrt_bin_blocks_message(&r));
        }
        CU_ASSERT_EQUAL(sremrt_bin_blocks_next(&r, &run, &n), SREMRT_READ_END);
        sremrt_bin_blocks_close(&r);
    }
    fputs("END\n", out);
    fclose(out);
    return text;
}

/* Runs of records in place, from a regular file and from a memory
 * stream, against the record-at-a-time reader: 5,000 records
 * (several runs), bad values here and there, a truncated last record. */
static void test_blocks(void)
{
    enum { N = 5000 };
    static rt_event in[N];
    int i, cut, file;
    for (i = 0; i < N; i++)
        in[i] = ev(i % 5, i + 1, (uint8_t)(i % 2), 100 + i);
    in[0].type = 7;
    in[1637].ok = 3;
    in[1638].type = -2;
    in[4000].ok = 9;
    in[4000].type = 5;
    for (cut = 0; cut < 2; cut++) {
        size_t bytes = sizeof in - (cut ? 3 : 0);
        FILE *ref = rt_mem((const char *)in, bytes);
        char *want = bin_transcript(ref, 0);
        fclose(ref);
        CU_ASSERT_PTR_NOT_NULL(strstr(want, "4001: ! attribute type: 5 is not an index of its enum\n"));
        CU_ASSERT_PTR_NOT_NULL(strstr(want, cut ? "5000: ! truncated record" : "5000: 5000\nEND"));
        for (file = 0; file < 2; file++) {
            FILE *f = file ? tmpfile() : rt_mem((const char *)in, bytes);
            char *got;
            CU_ASSERT_PTR_NOT_NULL_FATAL(f);
            if (file) {
                CU_ASSERT_EQUAL(fwrite(in, 1, bytes, f), bytes);
                rewind(f);
            }
            got = bin_transcript(f, 1);
            ASSERT_STR(got, want);
            free(got);
            fclose(f);
        }
        free(want);
    }
}

/* One bad value at each place of the runs' check (eight records a turn,
 * then one at a time): enum and bool, too high and negative, in streams
 * of 1 to 41 records, runs against the record-at-a-time reader. */
static void test_bad_each_place(void)
{
    enum { MAXN = 41 };
    static rt_event in[MAXN];
    int n, at, kind, i;
    for (n = 1; n <= MAXN; n += 4)
        for (at = 0; at < n; at++)
            for (kind = 0; kind < 3; kind++) {
                FILE *ref, *f;
                char *want, *got;
                for (i = 0; i < n; i++)
                    in[i] = ev(i % 5, i + 1, (uint8_t)(i % 2), 100 + i);
                if (kind == 0)
                    in[at].type = 5;
                else if (kind == 1)
                    in[at].type = -1;
                else
                    in[at].ok = 2;
                ref = rt_mem((const char *)in, (size_t)n * sizeof *in);
                f = rt_mem((const char *)in, (size_t)n * sizeof *in);
                want = bin_transcript(ref, 0);
                got = bin_transcript(f, 1);
                CU_ASSERT_PTR_NOT_NULL(strstr(want, " ! attribute "));
                ASSERT_STR(got, want);
                free(want);
                free(got);
                fclose(ref);
                fclose(f);
            }
}

void add_bin_tests(void)
{
    CU_pSuite s = CU_add_suite("bin", NULL, NULL);
    CU_add_test(s, "records", test_records);
    CU_add_test(s, "empty", test_empty);
    CU_add_test(s, "truncated last record", test_truncated);
    CU_add_test(s, "bad values", test_bad_values);
    CU_add_test(s, "runs in place, file and stream", test_blocks);
    CU_add_test(s, "runs: a bad value at each place of the check", test_bad_each_place);
}
