/* test_csv.c: the CSV reader against every input rule of docs/language.md
 * section 6, as transcripts of events, bad lines and fatal errors. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>

#include "rt.h"

static void put_event(FILE *out, int64_t line, const rt_event *e)
{
    const sremrt_attr *type = &rt_sensor.attrs[0];
    fprintf(out, "%lld: %s|%lld|%g|%d|%lld\n", (long long)line,
            e->type >= 0 && e->type < type->nvalues ? type->values[e->type] : "?",
            (long long)e->id, e->value, e->ok, (long long)e->time);
}

/* Reads all of data[0..n) with the given line capacity (0: default) and
 * returns "LINE: fields" per event, "LINE: ! reason" per bad line,
 * "LINE: FATAL reason" and "END"; free() it. */
static char *transcript_n(const sremrt_schema *s, const char *data, size_t n, size_t line_cap)
{
    sremrt_csv_config cfg = {0, 0};
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_csv r;
    rt_event e;
    char *text = NULL;
    size_t size;
    FILE *in = rt_mem(data, n), *out = open_memstream(&text, &size);
    int rc;
    cfg.line_cap = line_cap;
    rc = sremrt_csv_open(&r, s, in, &cfg, &heap);
    while (rc != SREMRT_READ_END && rc != SREMRT_READ_FATAL) {
        rc = sremrt_csv_next(&r, &e);
        if (rc == SREMRT_READ_EVENT)
            put_event(out, sremrt_csv_line(&r), &e);
        else if (rc == SREMRT_READ_BAD)
            fprintf(out, "%lld: ! %s\n", (long long)sremrt_csv_line(&r), sremrt_csv_message(&r));
    }
    if (rc == SREMRT_READ_FATAL)
        fprintf(out, "%lld: FATAL %s\n", (long long)sremrt_csv_line(&r), sremrt_csv_message(&r));
    else
        fputs("END\n", out);
    sremrt_csv_close(&r);
    fclose(in);
    fclose(out);
    return text;
}

#define CHECK_CSV_CAP(input, cap, want)                                          \
    do {                                                                         \
        char *t_ = transcript_n(&rt_sensor, (input), sizeof(input) - 1, (cap));  \
        ASSERT_STR(t_, (want));                                                  \
        free(t_);                                                                \
    } while (0)
#define CHECK_CSV(input, want) CHECK_CSV_CAP(input, 0, want)

#define HDR "type,id,value,ok,time\n"

static void test_basic(void)
{
    CHECK_CSV(HDR "T,1,2.5,true,100\nH,2,-3,false,200\n",
              "2: T|1|2.5|1|100\n3: H|2|-3|0|200\nEND\n");
    /* no line break after the last event */
    CHECK_CSV(HDR "T,1,2.5,1,100", "2: T|1|2.5|1|100\nEND\n");
    /* a header and nothing else, with or without its line break */
    CHECK_CSV(HDR, "END\n");
    CHECK_CSV("type,id,value,ok,time", "END\n");
}

static void test_header_order_and_extra_columns(void)
{
    CHECK_CSV("time,note,ok,id,value,type,\"x, y\"\n"
              "100,anything at all,1,7,0.5,H,\"q \"\"w\"\"\"\n",
              "2: H|7|0.5|1|100\nEND\n");
    /* header names quoted or padded */
    CHECK_CSV(" \"type\" ,\tid\t, value ,\"ok\",time\n T ,1,2,0,3\n", "2: T|1|2|0|3\nEND\n");
    /* a quote inside an unquoted (ignored) field is data */
    CHECK_CSV("type,id,value,ok,time,size\nT,1,2,0,3,5\" screen\n", "2: T|1|2|0|3\nEND\n");
}

static void test_header_fatal(void)
{
    CHECK_CSV("type,id,value,ok\nT,1,2,0\n", "1: FATAL CSV header lacks attribute \"time\"\n");
    CHECK_CSV("id,value,ok,time\n", "1: FATAL CSV header lacks attribute \"type\"\n");
    /* names are case-sensitive */
    CHECK_CSV("Type,id,value,ok,time\n", "1: FATAL CSV header lacks attribute \"type\"\n");
    CHECK_CSV("type,id,value,ok,time,id\n", "1: FATAL duplicate column \"id\" in CSV header\n");
    CHECK_CSV("", "1: FATAL no CSV header: the input is empty\n");
    CHECK_CSV("\n  \n\t\n", "4: FATAL no CSV header: the input is empty\n");
    /* blank lines before the header are skipped: it is on line 3 */
    CHECK_CSV("\n \n" "type,id,value,ok\n", "3: FATAL CSV header lacks attribute \"time\"\n");
    CHECK_CSV("type,\"id,value,ok,time\n", "1: FATAL CSV header: unterminated quoted field\n");
    CHECK_CSV("type,id\0,value,ok,time\n", "1: FATAL CSV header: NUL byte in line\n");
    CHECK_CSV_CAP("type,id,value,ok,time,a_long_extra_column\n", 16,
                  "1: FATAL CSV header: line longer than the limit\n");
}

static void test_fatal_is_sticky(void)
{
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_csv r;
    rt_event e;
    FILE *in = RT_STR("id\n1\n");
    CU_ASSERT_EQUAL(sremrt_csv_open(&r, &rt_sensor, in, NULL, &heap), SREMRT_READ_FATAL);
    CU_ASSERT_EQUAL(sremrt_csv_next(&r, &e), SREMRT_READ_FATAL);
    ASSERT_STR(sremrt_csv_message(&r), "CSV header lacks attribute \"type\"");
    sremrt_csv_close(&r);
    fclose(in);
}

/* A refused header gives the buffers back at once: a program that exits
 * with status 3 right after leaks nothing; close is then a no-op. */
static void test_fatal_frees(void)
{
    static size_t mem[256];   /* aligned, so the first block has no padding */
    sremrt_csv_config cfg = {64, 8};
    sremrt_arena ar;
    sremrt_alloc hook;
    sremrt_csv r;
    rt_event e;
    FILE *in = RT_STR("id\n1\n");
    sremrt_arena_init(&ar, mem, sizeof mem);
    hook = sremrt_arena_hook(&ar);
    CU_ASSERT_EQUAL(sremrt_csv_open(&r, &rt_sensor, in, &cfg, &hook), SREMRT_READ_FATAL);
    CU_ASSERT(ar.peak > 0);
    CU_ASSERT_EQUAL(ar.used, 0);
    ASSERT_STR(sremrt_csv_message(&r), "CSV header lacks attribute \"type\"");
    CU_ASSERT_EQUAL(sremrt_csv_line(&r), 1);
    CU_ASSERT_EQUAL(sremrt_csv_next(&r, &e), SREMRT_READ_FATAL);
    sremrt_csv_close(&r);
    CU_ASSERT_EQUAL(ar.used, 0);
    fclose(in);
}

static void test_too_many_columns(void)
{
    char buf[4096];
    sremrt_csv_config cfg = {64, 6};
    sremrt_csv r;
    FILE *in = RT_STR("type,id,value,ok,time,a,b\n");
    CU_ASSERT_EQUAL(sremrt_csv_open_buf(&r, &rt_sensor, in, &cfg, buf, sizeof buf),
                    SREMRT_READ_FATAL);
    ASSERT_STR(sremrt_csv_message(&r), "CSV header has more columns than the limit");
    fclose(in);
}

static void test_enums(void)
{
    CHECK_CSV(HDR "DTS fault,1,0,0,1\n"
                  "\"DTS fault\",2,0,0,2\n"
                  "  DTS fault\t,3,0,0,3\n"
                  "\"a, \"\"b\"\"\",4,0,0,4\n"
                  "\"two\nlines\",5,0,0,5\n"
                  "X,6,0,0,6\n"
                  "t,7,0,0,7\n"
                  "\" T\",8,0,0,8\n",
              "2: DTS fault|1|0|0|1\n3: DTS fault|2|0|0|2\n4: DTS fault|3|0|0|3\n"
              "5: a, \"b\"|4|0|0|4\n6: two\nlines|5|0|0|5\n"
              "8: ! attribute type: \"X\" is not a value of its enum\n"
              "9: ! attribute type: \"t\" is not a value of its enum\n"
              "10: ! attribute type: \" T\" is not a value of its enum\nEND\n");
}

static void test_bools(void)
{
    CHECK_CSV(HDR "T,1,0,true,1\nT,2,0,false,2\nT,3,0,1,3\nT,4,0,0,4\n"
                  "T,5,0,TRUE,5\nT,6,0,False,6\nT,7,0,yes,7\nT,8,0,2,8\nT,9,0,,9\n",
              "2: T|1|0|1|1\n3: T|2|0|0|2\n4: T|3|0|1|3\n5: T|4|0|0|4\n"
              "6: T|5|0|1|5\n7: T|6|0|0|6\n"
              "8: ! attribute ok: \"yes\" is not a bool (true, false, 1 or 0)\n"
              "9: ! attribute ok: \"2\" is not a bool (true, false, 1 or 0)\n"
              "10: ! attribute ok: \"\" is not a bool (true, false, 1 or 0)\nEND\n");
}

static void test_ints(void)
{
    CHECK_CSV(HDR "T,-7,0,0,1\nT,+5,0,0,2\nT,9223372036854775807,0,0,3\n"
                  "T,-9223372036854775808,0,0,4\nT,9223372036854775808,0,0,5\n"
                  "T,-9223372036854775809,0,0,6\nT,1.0,0,0,7\nT,0x10,0,0,8\nT,,0,0,9\n"
                  "T,1 2,0,0,10\nT,-,0,0,11\nT,\"42\",0,0,12\n",
              "2: T|-7|0|0|1\n3: T|5|0|0|2\n4: T|9223372036854775807|0|0|3\n"
              "5: T|-9223372036854775808|0|0|4\n"
              "6: ! attribute id: \"9223372036854775808\" is out of the int64 range\n"
              "7: ! attribute id: \"-9223372036854775809\" is out of the int64 range\n"
              "8: ! attribute id: \"1.0\" is not an int\n"
              "9: ! attribute id: \"0x10\" is not an int\n"
              "10: ! attribute id: \"\" is not an int\n"
              "11: ! attribute id: \"1 2\" is not an int\n"
              "12: ! attribute id: \"-\" is not an int\n"
              "13: T|42|0|0|12\nEND\n");
}

static void test_floats(void)
{
    CHECK_CSV(HDR "T,1,3.5,0,1\nT,1,1e-3,0,2\nT,1,-0.25,0,3\nT,1,7,0,4\nT,1,1.5x,0,5\n"
                  "T,1,,0,6\nT,1,\" 1.5\",0,7\nT,1,\"2.5\",0,8\nT,1,1.5.2,0,9\n",
              "2: T|1|3.5|0|1\n3: T|1|0.001|0|2\n4: T|1|-0.25|0|3\n5: T|1|7|0|4\n"
              "6: ! attribute value: \"1.5x\" is not a float\n"
              "7: ! attribute value: \"\" is not a float\n"
              "8: ! attribute value: \" 1.5\" is not a float\n"
              "9: T|1|2.5|0|8\n"
              "10: ! attribute value: \"1.5.2\" is not a float\nEND\n");
}

static void test_timestamps(void)
{
    CHECK_CSV(HDR "T,1,0,0,1700000007000\nT,1,0,0,-5\nT,1,0,0,12.5\nT,1,0,0,99999999999999999999\n"
                  "T,1,0,0,2023-11-14T22:13:27Z\nT,1,0,0,\" 2023-11-14T23:13:27.25+01:00 \"\n"
                  "T,1,0,0,2023-11-14T22:13:27.0005Z\nT,1,0,0,2023-11-14T22:13:27\n"
                  "T,1,0,0,2023-11-31T22:13:27Z\nT,1,0,0,2023-11-14 22:13:27Z\n",
              "2: T|1|0|0|1700000007000\n3: T|1|0|0|-5\n"
              "4: ! attribute time: \"12.5\" is not a timestamp (an integer or an ISO-8601 time)\n"
              "5: ! attribute time: \"99999999999999999999\" is out of the int64 range\n"
              "6: T|1|0|0|1700000007000\n7: ! attribute time: \" 2023-11-14T23:13:27.25+01:00 \" "
              "is not a timestamp (an integer or an ISO-8601 time)\n"
              "8: ! attribute time: \"2023-11-14T22:13:27.0005Z\" is not a whole number of the timestamp's unit\n"
              "9: ! attribute time: \"2023-11-14T22:13:27\" has no time zone (Z or an offset like +02:00)\n"
              "10: ! attribute time: \"2023-11-31T22:13:27Z\" is not a valid date and time\n"
              "11: ! attribute time: \"2023-11-14 22:13:27Z\" is not a timestamp (an integer or an ISO-8601 time)\nEND\n");
}

static void test_long_value_in_message(void)
{
    CHECK_CSV(HDR "T,123456789012345678901234567890123456789012345678901234567890,0,0,1\n",
              "2: ! attribute id: \"1234567890123456789012345678901234567890...\" "
              "is out of the int64 range\nEND\n");
}

static void test_quoting(void)
{
    /* every field quoted; spaces outside the quotes ignored */
    CHECK_CSV(HDR "\"T\",\"1\",\"2.5\",\"true\",\"100\"\n  \"H\"  ,\t\"2\"\t,3,0,4\n",
              "2: T|1|2.5|1|100\n3: H|2|3|0|4\nEND\n");
    /* a line break inside quotes: the event is on its first line, and the
     * next one's line number counts the extra line */
    CHECK_CSV("type,id,value,ok,time,note\n"
              "T,1,0,0,1,\"first\nsecond\nthird\"\n"
              "H,2,0,0,2,plain\n",
              "2: T|1|0|0|1\n5: H|2|0|0|2\nEND\n");
    /* a quoted comma and doubled quotes stay inside one field */
    CHECK_CSV("type,id,value,ok,time,note\nT,1,0,0,1,\"a, \"\"b\"\", c\"\n",
              "2: T|1|0|0|1\nEND\n");
    /* an empty quoted field is a value, not a blank line */
    CHECK_CSV(HDR "\"\"\n", "2: ! expected 5 fields, got 1\nEND\n");
}

static void test_quote_errors(void)
{
    CHECK_CSV(HDR "\"T\"x,1,0,0,1\nH,2,0,0,2\n",
              "2: ! unexpected character after a closing quote\n3: H|2|0|0|2\nEND\n");
    /* an unterminated quote swallows the rest: reported at its first line */
    CHECK_CSV(HDR "T,1,0,0,1\nT,\"2,0,0,2\nH,3,0,0,3\n",
              "2: T|1|0|0|1\n3: ! unterminated quoted field\nEND\n");
}

static void test_crlf(void)
{
    CHECK_CSV("type,id,value,ok,time\r\nT,1,2.5,true,100\r\nH,2,3,0,200\r\n",
              "2: T|1|2.5|1|100\n3: H|2|3|0|200\nEND\n");
    /* a final \r with no \n, spaces before \r\n, a quoted field before \r\n */
    CHECK_CSV("type,id,value,ok,time\r\nT,1,2.5,true,100  \r\nH,2,3,0,\"200\"\r\nT,3,0,0,3\r",
              "2: T|1|2.5|1|100\n3: H|2|3|0|200\n4: T|3|0|0|3\nEND\n");
    /* \r\n inside quotes is one line break: the enum value "two\nlines" */
    CHECK_CSV("type,id,value,ok,time\r\n\"two\r\nlines\",1,0,0,1\r\nT,2,0,0,2\r\n",
              "2: two\nlines|1|0|0|1\n4: T|2|0|0|2\nEND\n");
    /* blank \r\n lines are blank */
    CHECK_CSV("type,id,value,ok,time\r\n\r\n  \r\nT,1,0,0,1\r\n", "4: T|1|0|0|1\nEND\n");
}

static void test_blank_lines(void)
{
    CHECK_CSV(HDR "\nT,1,0,0,1\n   \n\t \t\n\nH,2,0,0,2\n\n", "3: T|1|0|0|1\n7: H|2|0|0|2\nEND\n");
}

static void test_field_counts(void)
{
    CHECK_CSV(HDR "T,1,0,0\nT,1,0,0,1,extra\nT,1,0,0,1,\nT,1,0,0,5\n",
              "2: ! expected 5 fields, got 4\n3: ! expected 5 fields, got 6\n"
              "4: ! expected 5 fields, got 6\n5: T|1|0|0|5\nEND\n");
    /* every field is counted */
    CHECK_CSV(HDR "T,1,0,0,1,a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z\n",
              "2: ! expected 5 fields, got 31\nEND\n");
}

static void test_overlong(void)
{
    /* the limit counts a record's bytes: 24 fit, 25 do not */
    CHECK_CSV_CAP(HDR "T,1,0.25,true,1234567890\n"     /* 24 bytes */
                      "T,1,0.25,true,12345678901\n"    /* 25 bytes */
                      "H,2,0,0,2\n", 24,
                  "2: T|1|0.25|1|1234567890\n3: ! line longer than 24 bytes\n4: H|2|0|0|2\nEND\n");
    /* an overlong quoted field resynchronizes at the next line break */
    CHECK_CSV_CAP("type,id,value,ok,time,note\n"
                  "T,1,0,0,1,\"0123456789\n0123456789012345678901234567890\"\n"
                  "H,2,0,0,2,x\n", 32,
                  "2: ! line longer than 32 bytes\n4: H|2|0|0|2\nEND\n");
    /* a break inside quotes that itself does not fit: the next line is kept */
    CHECK_CSV_CAP("type,id,value,ok,time,note\n"
                  "T,1,0,0,1,\"01234567890123456789012\nH,2,0,0,2,x\n", 32,
                  "2: ! line longer than 32 bytes\n3: H|2|0|0|2\nEND\n");
}

static void test_nul_bytes(void)
{
    static const char data[] = HDR "T,1,0,0,1\nT,1\0,0,0,2\n\"H\0\",2,0,0,3\nH,4,0,0,4\n";
    char *t = transcript_n(&rt_sensor, data, sizeof data - 1, 0);
    ASSERT_STR(t, "2: T|1|0|0|1\n3: ! NUL byte in line\n4: ! NUL byte in line\n5: H|4|0|0|4\nEND\n");
    free(t);
}

static void test_bom(void)
{
    CHECK_CSV("\xEF\xBB\xBFtype,id,value,ok,time\nT,1,0,0,1\n", "2: T|1|0|0|1\nEND\n");
    /* not a BOM: the bytes stay part of the first name */
    CHECK_CSV("\xEF\xBBtype,id,value,ok,time\n", "1: FATAL CSV header lacks attribute \"type\"\n");
}

static void test_no_timestamp_schema(void)
{
    char *t = transcript_n(&rt_sensor_nots, "type,id,value,ok\nH,3,1,1\n",
                           strlen("type,id,value,ok\nH,3,1,1\n"), 0);
    ASSERT_STR(t, "2: H|3|1|1|0\nEND\n");
    free(t);
}

static void test_caller_buffer(void)
{
    static char buf[1024];
    sremrt_csv_config cfg = {64, 8};
    sremrt_csv r;
    rt_event e;
    size_t need = sremrt_csv_bytes(&cfg);
    FILE *in = RT_STR(HDR "H,9,1.5,1,77\n");
    CU_ASSERT(need <= sizeof buf);
    CU_ASSERT_EQUAL(sremrt_csv_open_buf(&r, &rt_sensor, in, &cfg, buf, need - 8),
                    SREMRT_READ_FATAL);
    ASSERT_STR(sremrt_csv_message(&r), "CSV reader: buffer too small");
    /* an odd address: the reader aligns inside the buffer */
    CU_ASSERT_EQUAL(sremrt_csv_open_buf(&r, &rt_sensor, in, &cfg, buf + 1, need), 0);
    CU_ASSERT_EQUAL(sremrt_csv_next(&r, &e), SREMRT_READ_EVENT);
    CU_ASSERT_EQUAL(e.id, 9);
    CU_ASSERT_EQUAL(e.time, 77);
    CU_ASSERT_EQUAL(sremrt_csv_next(&r, &e), SREMRT_READ_END);
    CU_ASSERT_EQUAL(sremrt_csv_next(&r, &e), SREMRT_READ_END);
    sremrt_csv_close(&r);   /* nothing to free: no effect */
    fclose(in);
}

static void test_out_of_memory(void)
{
    unsigned char mem[64];
    sremrt_arena ar;
    sremrt_alloc hook;
    sremrt_csv r;
    FILE *in = RT_STR(HDR);
    sremrt_arena_init(&ar, mem, sizeof mem);
    hook = sremrt_arena_hook(&ar);
    CU_ASSERT_EQUAL(sremrt_csv_open(&r, &rt_sensor, in, NULL, &hook), SREMRT_READ_FATAL);
    ASSERT_STR(sremrt_csv_message(&r), "CSV reader: out of memory for its buffers");
    CU_ASSERT_EQUAL(ar.failures, 1);
    fclose(in);
}

/* The loop a generated program's main runs: read, check the timestamp
 * order, count, write error records; the exit status comes from stats. */
static void test_main_loop(void)
{
    static const char input[] = HDR "T,1,0,0,1600\nT,2,0,0,1500\nT,x,0,0,1700\nH,3,0,0,1600\n";
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_csv r;
    sremrt_tsorder order;
    sremrt_stats st;
    rt_event e;
    char msg[SREMRT_CSV_MSG_CAP], *errs = NULL;
    size_t size;
    FILE *in = RT_STR(input), *err = open_memstream(&errs, &size);
    int rc;
    sremrt_tsorder_init(&order);
    sremrt_stats_init(&st);
    CU_ASSERT_EQUAL_FATAL(sremrt_csv_open(&r, &rt_sensor, in, NULL, &heap), 0);
    while ((rc = sremrt_csv_next(&r, &e)) != SREMRT_READ_END && rc != SREMRT_READ_FATAL) {
        if (rc == SREMRT_READ_EVENT &&
            sremrt_tsorder_event(&order, &rt_sensor, &e, msg, sizeof msg) == 0) {
            st.events++;
            continue;
        }
        st.rejected++;
        sremrt_write_error(err, SREMRT_JSONL, sremrt_csv_line(&r),
                           rc == SREMRT_READ_EVENT ? msg : sremrt_csv_message(&r));
    }
    sremrt_csv_close(&r);
    fclose(in);
    fclose(err);
    ASSERT_STR(errs, "{\"kind\":\"error\",\"line\":3,\"message\":\"timestamp goes backwards (1500 < 1600)\"}\n"
                     "{\"kind\":\"error\",\"line\":4,\"message\":\"attribute id: \\\"x\\\" is not an int\"}\n");
    CU_ASSERT_EQUAL(st.events, 2);
    CU_ASSERT_EQUAL(st.rejected, 2);
    CU_ASSERT_EQUAL(sremrt_stats_exit_status(&st), 3);
    free(errs);
}

void add_csv_tests(void)
{
    CU_pSuite s = CU_add_suite("csv", NULL, NULL);
    CU_add_test(s, "basic", test_basic);
    CU_add_test(s, "header order, extra columns", test_header_order_and_extra_columns);
    CU_add_test(s, "header fatal", test_header_fatal);
    CU_add_test(s, "fatal is sticky", test_fatal_is_sticky);
    CU_add_test(s, "fatal frees", test_fatal_frees);
    CU_add_test(s, "too many columns", test_too_many_columns);
    CU_add_test(s, "enums", test_enums);
    CU_add_test(s, "bools", test_bools);
    CU_add_test(s, "ints", test_ints);
    CU_add_test(s, "floats", test_floats);
    CU_add_test(s, "timestamps", test_timestamps);
    CU_add_test(s, "long value in message", test_long_value_in_message);
    CU_add_test(s, "quoting", test_quoting);
    CU_add_test(s, "quote errors", test_quote_errors);
    CU_add_test(s, "crlf", test_crlf);
    CU_add_test(s, "blank lines", test_blank_lines);
    CU_add_test(s, "field counts", test_field_counts);
    CU_add_test(s, "overlong", test_overlong);
    CU_add_test(s, "nul bytes", test_nul_bytes);
    CU_add_test(s, "bom", test_bom);
    CU_add_test(s, "schema without timestamp", test_no_timestamp_schema);
    CU_add_test(s, "caller buffer", test_caller_buffer);
    CU_add_test(s, "out of memory", test_out_of_memory);
    CU_add_test(s, "a generated main's loop", test_main_loop);
}
