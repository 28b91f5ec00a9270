/* test_out.c: the record writers: JSONL byte for byte as docs/language.md
 * section 6 shows it, the text lines, escaping, truncation and streams. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>

#include "rt.h"

static char line[1024];

static const char *jsonl(const sremrt_record *r)
{
    size_t n = sremrt_record_format(line, sizeof line, SREMRT_JSONL, r);
    CU_ASSERT(n < sizeof line);
    CU_ASSERT_EQUAL(n, strlen(line));
    return line;
}

static const char *text(const sremrt_record *r)
{
    size_t n = sremrt_record_format(line, sizeof line, SREMRT_TEXT, r);
    CU_ASSERT(n < sizeof line);
    return line;
}

static sremrt_record rec(sremrt_kind kind, const char *name, int64_t index, int64_t ts,
                         const char *key)
{
    sremrt_record r;
    memset(&r, 0, sizeof r);
    r.kind = kind;
    r.name = name;
    r.index = index;
    r.has_ts = 1;
    r.ts = ts;
    r.key = key;
    return r;
}

static const char *const seq[] = {"TempRise", "FanStart", "PressureAlert"};
static const char *const label_x[] = {"x"};
static const char *const label_xy[] = {"x", "y"};
static const int64_t bind_fire[] = {5};
static const int64_t bind_rising[] = {3, 7};
static const int64_t occ_cell[] = {30, 38, 42};

/* The seven example records of docs/language.md section 6, in its order. */
static void spec_records(sremrt_record out[7])
{
    out[0] = rec(SREMRT_MATCH, "fire", 7, 1700000007000, NULL);
    out[0].start = 5;
    out[0].nbind = 1;
    out[0].bind_names = label_x;
    out[0].bind = bind_fire;
    out[1] = rec(SREMRT_MATCH, "rising", 9, 1700000009000, "42");
    out[1].start = 3;
    out[1].nbind = 2;
    out[1].bind_names = label_xy;
    out[1].bind = bind_rising;
    out[2] = rec(SREMRT_EPISODE, "cell_out", 42, 1700003120, "12");
    out[2].freq = 3;
    out[2].occurrence = occ_cell;
    out[2].noccurrence = 3;
    out[3] = rec(SREMRT_ALERT, "cell_out", 80, 1700006400, "12");
    out[3].freq = 10;
    out[4] = rec(SREMRT_SUGGEST, "overheat", 10, 1700000600, NULL);
    out[4].candidate = SREMRT_VARIATION;
    out[4].sequence = seq;
    out[4].nsequence = 3;
    out[4].freq = 4;
    out[4].confidence = 0.4;
    out[5] = rec(SREMRT_SUMMARY, "cell_out", 0, 0, "12");
    out[5].has_ts = 0;
    out[5].events = 1000;
    out[5].freq = 7;
    memset(&out[6], 0, sizeof out[6]);
    out[6].kind = SREMRT_ERROR;
    out[6].line = 17;
    out[6].message = "timestamp goes backwards (1500 < 1600)";
}

static void test_spec_examples(void)
{
    static const char *const want[7] = {
        ("{\"kind\":\"match\",\"name\":\"fire\",\"index\":7,\"ts\":1700000007000,"
         "\"start\":5,\"bind\":{\"x\":5}}\n"),
        ("{\"kind\":\"match\",\"name\":\"rising\",\"index\":9,\"ts\":1700000009000,\"key\":\"42\","
         "\"start\":3,\"bind\":{\"x\":3,\"y\":7}}\n"),
        ("{\"kind\":\"episode\",\"name\":\"cell_out\",\"index\":42,\"ts\":1700003120,\"key\":\"12\","
         "\"freq\":3,\"occurrence\":[30,38,42]}\n"),
        "{\"kind\":\"alert\",\"name\":\"cell_out\",\"index\":80,\"ts\":1700006400,\"key\":\"12\",\"freq\":10}\n",
        ("{\"kind\":\"suggest\",\"name\":\"overheat\",\"index\":10,\"ts\":1700000600,"
         "\"candidate\":\"variation\",\"sequence\":[\"TempRise\",\"FanStart\",\"PressureAlert\"],"
         "\"freq\":4,\"confidence\":0.4}\n"),
        "{\"kind\":\"summary\",\"name\":\"cell_out\",\"key\":\"12\",\"events\":1000,\"freq\":7}\n",
        "{\"kind\":\"error\",\"line\":17,\"message\":\"timestamp goes backwards (1500 < 1600)\"}\n",
    };
    sremrt_record r[7];
    int i;
    spec_records(r);
    for (i = 0; i < 7; i++)
        ASSERT_STR(jsonl(&r[i]), want[i]);
}

static void test_text_lines(void)
{
    static const char *const want[7] = {
        "match fire index=7 ts=1700000007000 start=5 bind.x=5\n",
        "match rising index=9 ts=1700000009000 key=42 start=3 bind.x=3 bind.y=7\n",
        "episode cell_out index=42 ts=1700003120 key=12 freq=3 occurrence=[30,38,42]\n",
        "alert cell_out index=80 ts=1700006400 key=12 freq=10\n",
        ("suggest overheat index=10 ts=1700000600 variation=<TempRise FanStart PressureAlert>"
         " freq=4 confidence=0.4\n"),
        "summary cell_out key=12 events=1000 freq=7\n",
        "error line 17: timestamp goes backwards (1500 < 1600)\n",
    };
    sremrt_record r[7];
    int i;
    spec_records(r);
    for (i = 0; i < 7; i++)
        ASSERT_STR(text(&r[i]), want[i]);
}

static void test_optional_fields(void)
{
    sremrt_record r = rec(SREMRT_MATCH, "fire", 7, 0, NULL);
    r.has_ts = 0;
    ASSERT_STR(jsonl(&r), "{\"kind\":\"match\",\"name\":\"fire\",\"index\":7}\n");
    ASSERT_STR(text(&r), "match fire index=7\n");
    /* exact only when false: episode, alert, summary */
    r = rec(SREMRT_EPISODE, "e", 5, -3, "k");
    r.freq = 2;
    r.inexact = 1;
    ASSERT_STR(jsonl(&r), "{\"kind\":\"episode\",\"name\":\"e\",\"index\":5,\"ts\":-3,\"key\":\"k\","
                          "\"freq\":2,\"exact\":false}\n");
    ASSERT_STR(text(&r), "episode e index=5 ts=-3 key=k freq=2 exact=false\n");
    r.kind = SREMRT_ALERT;
    ASSERT_STR(jsonl(&r), "{\"kind\":\"alert\",\"name\":\"e\",\"index\":5,\"ts\":-3,\"key\":\"k\","
                          "\"freq\":2,\"exact\":false}\n");
    r = rec(SREMRT_SUMMARY, "e", 0, 0, NULL);
    r.has_ts = 0;
    r.events = 0;
    r.freq = 0;
    r.inexact = 1;
    ASSERT_STR(jsonl(&r), "{\"kind\":\"summary\",\"name\":\"e\",\"events\":0,\"freq\":0,\"exact\":false}\n");
    ASSERT_STR(text(&r), "summary e events=0 freq=0 exact=false\n");
    /* a summary is about no event: no index, no ts even if set */
    r.has_ts = 1;
    r.ts = 5;
    ASSERT_STR(text(&r), "summary e events=0 freq=0 exact=false\n");
    /* match records have no exact field */
    r = rec(SREMRT_MATCH, "m", 1, 2, NULL);
    r.inexact = 1;
    ASSERT_STR(jsonl(&r), "{\"kind\":\"match\",\"name\":\"m\",\"index\":1,\"ts\":2}\n");
}

static void test_suggest(void)
{
    static const char *const one[] = {"DTS fault"};
    sremrt_record r = rec(SREMRT_SUGGEST, "p", 3, 0, "ignored");
    r.has_ts = 0;
    r.candidate = SREMRT_EXTENSION;
    r.sequence = one;
    r.nsequence = 1;
    r.freq = 1;
    r.confidence = 1.0 / 3;
    ASSERT_STR(jsonl(&r), "{\"kind\":\"suggest\",\"name\":\"p\",\"index\":3,\"candidate\":\"extension\","
                          "\"sequence\":[\"DTS fault\"],\"freq\":1,\"confidence\":0.3333333333333333}\n");
    ASSERT_STR(text(&r), "suggest p index=3 extension=<\"DTS fault\"> freq=1 "
                         "confidence=0.3333333333333333\n");
    r.confidence = 1;
    r.nsequence = 0;
    ASSERT_STR(jsonl(&r), "{\"kind\":\"suggest\",\"name\":\"p\",\"index\":3,\"candidate\":\"extension\","
                          "\"sequence\":[],\"freq\":1,\"confidence\":1}\n");
    r.confidence = 0.1 + 0.2;   /* needs 17 digits to read back */
    ASSERT_STR(jsonl(&r), "{\"kind\":\"suggest\",\"name\":\"p\",\"index\":3,\"candidate\":\"extension\","
                          "\"sequence\":[],\"freq\":1,\"confidence\":0.30000000000000004}\n");
}

static void test_escaping(void)
{
    sremrt_record r = rec(SREMRT_MATCH, "m", 1, 2, "a \"b\"\\c\n\t\x01");
    ASSERT_STR(jsonl(&r), "{\"kind\":\"match\",\"name\":\"m\",\"index\":1,\"ts\":2,"
                          "\"key\":\"a \\\"b\\\"\\\\c\\n\\t\\u0001\"}\n");
    ASSERT_STR(text(&r), "match m index=1 ts=2 key=\"a \\\"b\\\"\\\\c\\n\\t\\u0001\"\n");
    /* UTF-8 passes through; invalid bytes become U+FFFD */
    r.key = "caf\xC3\xA9 \xFF|\xC3|\xED\xA0\x80|\xE2\x82\xAC";
    ASSERT_STR(jsonl(&r), "{\"kind\":\"match\",\"name\":\"m\",\"index\":1,\"ts\":2,"
                          "\"key\":\"caf\xC3\xA9 \\ufffd|\\ufffd|\\ufffd\\ufffd\\ufffd|\xE2\x82\xAC\"}\n");
    /* text: plain words unquoted, the rest quoted; empty is quoted */
    r.key = "caf\xC3\xA9";
    ASSERT_STR(text(&r), "match m index=1 ts=2 key=caf\xC3\xA9\n");
    r.key = "";
    ASSERT_STR(text(&r), "match m index=1 ts=2 key=\"\"\n");
    ASSERT_STR(jsonl(&r), "{\"kind\":\"match\",\"name\":\"m\",\"index\":1,\"ts\":2,\"key\":\"\"}\n");
    r.key = "x=y";
    ASSERT_STR(text(&r), "match m index=1 ts=2 key=\"x=y\"\n");
    /* messages: JSON-escaped; in text only control bytes are */
    memset(&r, 0, sizeof r);
    r.kind = SREMRT_ERROR;
    r.line = 3;
    r.message = "attribute type: \"a\nb\" is not a value of its enum";
    ASSERT_STR(jsonl(&r), "{\"kind\":\"error\",\"line\":3,\"message\":"
                          "\"attribute type: \\\"a\\nb\\\" is not a value of its enum\"}\n");
    ASSERT_STR(text(&r), "error line 3: attribute type: \"a\\nb\" is not a value of its enum\n");
    r.message = "bad \xFF byte";
    ASSERT_STR(text(&r), "error line 3: bad \xEF\xBF\xBD byte\n");
}

/* A declaration's overflow record: name, message and the kinds counted,
 * no line. */
static void test_overflow_record(void)
{
    uint64_t n[SREMRT_OVF_KINDS] = {0};
    sremrt_record r;
    memset(&r, 0, sizeof r);
    r.kind = SREMRT_ERROR;
    r.name = "rising";
    r.message = "overflow: 1900 events of new keys dropped (--max-keys)";
    r.overflow = n;
    n[SREMRT_OVF_KEYS] = 1900;
    n[SREMRT_OVF_MEMORY] = 2;
    ASSERT_STR(jsonl(&r), "{\"kind\":\"error\",\"name\":\"rising\",\"message\":\"overflow: 1900 events of new "
                          "keys dropped (--max-keys)\",\"overflow\":{\"keys\":1900,\"memory\":2}}\n");
    ASSERT_STR(text(&r), "error rising: overflow: 1900 events of new keys dropped (--max-keys)\n");
    r.name = "a b";
    ASSERT_STR(text(&r), "error \"a b\": overflow: 1900 events of new keys dropped (--max-keys)\n");
}

static void test_extreme_numbers(void)
{
    sremrt_record r = rec(SREMRT_MATCH, "m", INT64_MAX, INT64_MIN, NULL);
    ASSERT_STR(jsonl(&r), "{\"kind\":\"match\",\"name\":\"m\",\"index\":9223372036854775807,"
                          "\"ts\":-9223372036854775808}\n");
    r.kind = SREMRT_SUGGEST;
    r.index = 0;
    r.ts = 0;
    r.has_ts = 0;
    r.confidence = NAN;   /* JSON has no NaN or infinity */
    ASSERT_STR(jsonl(&r), "{\"kind\":\"suggest\",\"name\":\"m\",\"index\":0,\"candidate\":\"extension\","
                          "\"sequence\":[],\"freq\":0,\"confidence\":null}\n");
    r.confidence = -INFINITY;
    ASSERT_STR(jsonl(&r), "{\"kind\":\"suggest\",\"name\":\"m\",\"index\":0,\"candidate\":\"extension\","
                          "\"sequence\":[],\"freq\":0,\"confidence\":null}\n");
    r.confidence = 1e-7;
    ASSERT_STR(jsonl(&r), "{\"kind\":\"suggest\",\"name\":\"m\",\"index\":0,\"candidate\":\"extension\","
                          "\"sequence\":[],\"freq\":0,\"confidence\":1e-07}\n");
}

/* start on match records only when given; bind in label order, absent
 * labels left out, {} when none is bound. */
static void test_start_bind(void)
{
    static const char *const labels[] = {"x", "y", "z"};
    int64_t b[3] = {4, 0, 9};
    sremrt_record r = rec(SREMRT_MATCH, "m", 9, 0, "k");
    r.has_ts = 0;
    r.start = 4;
    ASSERT_STR(jsonl(&r), "{\"kind\":\"match\",\"name\":\"m\",\"index\":9,\"key\":\"k\",\"start\":4}\n");
    ASSERT_STR(text(&r), "match m index=9 key=k start=4\n");
    r.nbind = 3;
    r.bind_names = labels;
    r.bind = b;
    ASSERT_STR(jsonl(&r), "{\"kind\":\"match\",\"name\":\"m\",\"index\":9,\"key\":\"k\",\"start\":4,"
                          "\"bind\":{\"x\":4,\"z\":9}}\n");
    ASSERT_STR(text(&r), "match m index=9 key=k start=4 bind.x=4 bind.z=9\n");
    b[0] = b[2] = 0;
    ASSERT_STR(jsonl(&r), "{\"kind\":\"match\",\"name\":\"m\",\"index\":9,\"key\":\"k\",\"start\":4,"
                          "\"bind\":{}}\n");
    ASSERT_STR(text(&r), "match m index=9 key=k start=4 bind={}\n");
    /* start 0: not given */
    r.start = 0;
    r.nbind = 0;
    ASSERT_STR(jsonl(&r), "{\"kind\":\"match\",\"name\":\"m\",\"index\":9,\"key\":\"k\"}\n");
    /* only match records carry start and bind */
    r.kind = SREMRT_ALERT;
    r.start = 4;
    r.nbind = 3;
    r.freq = 1;
    ASSERT_STR(jsonl(&r), "{\"kind\":\"alert\",\"name\":\"m\",\"index\":9,\"key\":\"k\",\"freq\":1}\n");
}

/* The occurrence is an episode record's only: alerts never carry it. */
static void test_occurrence(void)
{
    static const int64_t one[] = {INT64_MAX};
    sremrt_record r = rec(SREMRT_EPISODE, "e", 5, 7, NULL);
    r.freq = 1;
    r.occurrence = one;
    r.noccurrence = 1;
    ASSERT_STR(jsonl(&r), "{\"kind\":\"episode\",\"name\":\"e\",\"index\":5,\"ts\":7,\"freq\":1,"
                          "\"occurrence\":[9223372036854775807]}\n");
    ASSERT_STR(text(&r), "episode e index=5 ts=7 freq=1 occurrence=[9223372036854775807]\n");
    r.kind = SREMRT_ALERT;
    ASSERT_STR(jsonl(&r), "{\"kind\":\"alert\",\"name\":\"e\",\"index\":5,\"ts\":7,\"freq\":1}\n");
    ASSERT_STR(text(&r), "alert e index=5 ts=7 freq=1\n");
    r.kind = SREMRT_MATCH;
    ASSERT_STR(jsonl(&r), "{\"kind\":\"match\",\"name\":\"e\",\"index\":5,\"ts\":7}\n");
}

/* --events: every attribute type as the CSV reader reads it, enum names
 * escaped, start first, then the bound labels in order. */
static void test_events(void)
{
    static const char *const labels[] = {"x", "y", "z"};
    int64_t b[3] = {2, 0, 3};
    rt_event e1 = {3, -12, 0.1, 1, 1700000005000};   /* type a, "b" */
    rt_event e2 = {0, 42, 25, 0, 6};
    rt_event e3 = {4, INT64_MIN, -1e-300, 1, -1};    /* type two\nlines */
    const void *be[3];
    sremrt_record r = rec(SREMRT_MATCH, "m", 3, -1, NULL);
    be[0] = &e2;
    be[1] = &e1;   /* absent (bind 0): not written */
    be[2] = &e3;
    r.start = 1;
    r.start_event = &e1;
    r.nbind = 3;
    r.bind_names = labels;
    r.bind = b;
    r.bind_events = be;
    /* without a schema: no events, whatever the pointers */
    ASSERT_STR(jsonl(&r), "{\"kind\":\"match\",\"name\":\"m\",\"index\":3,\"ts\":-1,\"start\":1,"
                          "\"bind\":{\"x\":2,\"z\":3}}\n");
    r.schema = &rt_sensor;
    ASSERT_STR(jsonl(&r),
               "{\"kind\":\"match\",\"name\":\"m\",\"index\":3,\"ts\":-1,\"start\":1,"
               "\"bind\":{\"x\":2,\"z\":3},\"events\":{"
               "\"start\":{\"type\":\"a, \\\"b\\\"\",\"id\":-12,\"value\":0.1,\"ok\":true,\"time\":1700000005000},"
               "\"x\":{\"type\":\"T\",\"id\":42,\"value\":25,\"ok\":false,\"time\":6},"
               "\"z\":{\"type\":\"two\\nlines\",\"id\":-9223372036854775808,\"value\":-1e-300,"
               "\"ok\":true,\"time\":-1}}}\n");
    ASSERT_STR(text(&r),
               "match m index=3 ts=-1 start=1 bind.x=2 bind.z=3\n"
               "  start type=\"a, \\\"b\\\"\" id=-12 value=0.1 ok=true time=1700000005000\n"
               "  x type=T id=42 value=25 ok=false time=6\n"
               "  z type=\"two\\nlines\" id=-9223372036854775808 value=-1e-300 ok=true time=-1\n");
    /* a schema without timestamp; an enum index outside its values; no
     * bound event pointers: the start event alone */
    e1.type = 7;
    e1.value = 0.1 + 0.2;
    r.schema = &rt_sensor_nots;
    r.has_ts = 0;
    r.bind_events = NULL;
    ASSERT_STR(jsonl(&r),
               "{\"kind\":\"match\",\"name\":\"m\",\"index\":3,\"start\":1,"
               "\"bind\":{\"x\":2,\"z\":3},\"events\":{"
               "\"start\":{\"type\":null,\"id\":-12,\"value\":0.30000000000000004,\"ok\":true}}}\n");
    ASSERT_STR(text(&r), "match m index=3 start=1 bind.x=2 bind.z=3\n"
                         "  start type=null id=-12 value=0.30000000000000004 ok=true\n");
    /* no start: an empty events object */
    r.start = 0;
    r.nbind = 0;
    ASSERT_STR(jsonl(&r), "{\"kind\":\"match\",\"name\":\"m\",\"index\":3,\"events\":{}}\n");
}

static void test_truncation(void)
{
    char small[16];
    sremrt_record r = rec(SREMRT_MATCH, "fire", 7, 1700000007000, NULL);
    size_t n = sremrt_record_format(small, sizeof small, SREMRT_JSONL, &r);
    CU_ASSERT_EQUAL(n, strlen("{\"kind\":\"match\",\"name\":\"fire\",\"index\":7,\"ts\":1700000007000}\n"));
    ASSERT_STR(small, "{\"kind\":\"match\"");
    /* a zero-size buffer is only measured */
    CU_ASSERT_EQUAL(sremrt_record_format(NULL, 0, SREMRT_JSONL, &r), n);
}

/* Longer than record_write's stack buffer: it must stream, not cut. */
static void test_write_stream(void)
{
    static const char *names[40];
    char *mem = NULL, want[2048];
    size_t size, n;
    sremrt_record r = rec(SREMRT_SUGGEST, "long", 1, 2, NULL);
    FILE *f = open_memstream(&mem, &size);
    int i;
    for (i = 0; i < 40; i++)
        names[i] = "an_event_type_with_a_long_name";
    r.sequence = names;
    r.nsequence = 40;
    r.confidence = 0.5;
    n = sremrt_record_format(want, sizeof want, SREMRT_JSONL, &r);
    CU_ASSERT(n > 1000 && n < sizeof want);
    CU_ASSERT_EQUAL(sremrt_record_write(f, SREMRT_JSONL, &r), 0);
    CU_ASSERT_EQUAL(sremrt_write_error(f, SREMRT_TEXT, 4, "timestamp goes backwards (1 < 2)"), 0);
    fclose(f);
    strcat(want, "error line 4: timestamp goes backwards (1 < 2)\n");
    ASSERT_STR(mem, want);
    free(mem);
}

/* The forecast records of docs/language.md 3.6 and 6: probabilities from
 * units of 1e-4 as the shortest decimal, no "freq". */
static void test_forecast(void)
{
    sremrt_record r = rec(SREMRT_FORECAST, "overheat", 812, 1700000812, "3");
    r.fc_from = 3;
    r.fc_to = 10;
    r.fc_prob = 5300;
    ASSERT_STR(jsonl(&r), "{\"kind\":\"forecast\",\"name\":\"overheat\",\"index\":812,\"ts\":1700000812,"
                          "\"key\":\"3\",\"type\":\"interval\",\"from\":3,\"to\":10,\"prob\":0.53}\n");
    ASSERT_STR(text(&r), "forecast overheat index=812 ts=1700000812 key=3 type=interval from=3 to=10 prob=0.53\n");
    r = rec(SREMRT_FORECAST, "overheat2", 812, 0, NULL);
    r.has_ts = 0;
    r.fc_within = 1;
    r.fc_from = r.fc_to = 10;
    r.fc_prob = 7100;
    r.fc_positive = 1;
    ASSERT_STR(jsonl(&r), "{\"kind\":\"forecast\",\"name\":\"overheat2\",\"index\":812,\"type\":\"within\","
                          "\"k\":10,\"prob\":0.71,\"positive\":true}\n");
    const int32_t e4[] = {0, 1, 10, 999, 1000, 5001, 9999, 10000};
    const char *const want[] = {"0", "0.0001", "0.001", "0.0999", "0.1", "0.5001", "0.9999", "1"};
    for (int k = 0; k < 8; k++) {
        char expect[64];
        r.fc_prob = e4[k];
        r.fc_positive = 0;
        snprintf(expect, sizeof expect, "prob=%s positive=false\n", want[k]);
        const char *t = text(&r);
        CU_ASSERT(strlen(t) >= strlen(expect) && strcmp(t + strlen(t) - strlen(expect), expect) == 0);
    }
}

/* The absent record of docs/language.md 3.7 and 6: a match's fields under
 * kind "absent", no "freq"; the --flush-absent one has no ts. */
static void test_absent(void)
{
    static const int64_t bind_x[] = {2};
    sremrt_record r = rec(SREMRT_ABSENT, "unpaid", 4, 1900, "2");
    r.start = 2;
    r.nbind = 1;
    r.bind_names = label_x;
    r.bind = bind_x;
    ASSERT_STR(jsonl(&r), "{\"kind\":\"absent\",\"name\":\"unpaid\",\"index\":4,\"ts\":1900,\"key\":\"2\","
                          "\"start\":2,\"bind\":{\"x\":2}}\n");
    ASSERT_STR(text(&r), "absent unpaid index=4 ts=1900 key=2 start=2 bind.x=2\n");
    r.has_ts = 0;
    r.index = 5;
    ASSERT_STR(text(&r), "absent unpaid index=5 key=2 start=2 bind.x=2\n");
}

void add_out_tests(void)
{

    CU_pSuite s = CU_add_suite("out", NULL, NULL);
    CU_add_test(s, "docs/language.md examples, JSONL", test_spec_examples);
    CU_add_test(s, "text lines", test_text_lines);
    CU_add_test(s, "absent records", test_absent);
    CU_add_test(s, "optional fields", test_optional_fields);
    CU_add_test(s, "suggest", test_suggest);
    CU_add_test(s, "escaping", test_escaping);
    CU_add_test(s, "extreme numbers", test_extreme_numbers);
    CU_add_test(s, "overflow record", test_overflow_record);
    CU_add_test(s, "start and bind", test_start_bind);
    CU_add_test(s, "episode occurrence", test_occurrence);
    CU_add_test(s, "events", test_events);
    CU_add_test(s, "truncation", test_truncation);
    CU_add_test(s, "write to a stream", test_write_stream);
    CU_add_test(s, "forecast records", test_forecast);
}
