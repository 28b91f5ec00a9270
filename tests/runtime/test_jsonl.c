/* test_jsonl.c: the JSON Lines reader against the input rules of
 * docs/language.md section 6, as transcripts of events and bad lines;
 * its numbers against strtod and strtoll on seeded random and
 * adversarial text. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "rt.h"

static void put_event(FILE *out, int64_t line, const rt_event *e)
{
    const sremrt_attr *type = &rt_sensor.attrs[0];
    fprintf(out, "%lld: %s|%lld|%.17g|%d|%lld\n", (long long)line,
            e->type >= 0 && e->type < type->nvalues ? type->values[e->type] : "?",
            (long long)e->id, e->value, e->ok, (long long)e->time);
}

/* Reads all of data[0..n) with the given line capacity and block (0:
 * defaults): "LINE: fields" per event, "LINE: ! reason" per bad line,
 * "END" or "LINE: FATAL reason"; free() it. */
static char *transcript_n(const char *data, size_t n, size_t line_cap, size_t block)
{
    sremrt_jsonl_config cfg = {0, 0};
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_jsonl r;
    rt_event e;
    char *text = NULL;
    size_t size;
    FILE *in = rt_mem(data, n), *out = open_memstream(&text, &size);
    int rc;
    cfg.line_cap = line_cap;
    cfg.block = block;
    rc = sremrt_jsonl_open(&r, &rt_sensor, in, &cfg, &heap);
    while (rc != SREMRT_READ_END && rc != SREMRT_READ_FATAL) {
        rc = sremrt_jsonl_next(&r, &e);
        if (rc == SREMRT_READ_EVENT)
            put_event(out, sremrt_jsonl_line(&r), &e);
        else if (rc == SREMRT_READ_BAD)
            fprintf(out, "%lld: ! %s\n", (long long)sremrt_jsonl_line(&r), sremrt_jsonl_message(&r));
    }
    if (rc == SREMRT_READ_FATAL)
        fprintf(out, "%lld: FATAL %s\n", (long long)sremrt_jsonl_line(&r), sremrt_jsonl_message(&r));
    else
        fputs("END\n", out);
    sremrt_jsonl_close(&r);
    fclose(in);
    fclose(out);
    return text;
}

#define CHECK_JL_CAP(input, cap, block, want)                                    \
    do {                                                                         \
        char *t_ = transcript_n((input), sizeof(input) - 1, (cap), (block));     \
        ASSERT_STR(t_, (want));                                                  \
        free(t_);                                                                \
    } while (0)
#define CHECK_JL(input, want) CHECK_JL_CAP(input, 0, 0, want)

#define EV(type, id, value, ok, time) \
    "{\"type\":\"" type "\",\"id\":" id ",\"value\":" value ",\"ok\":" ok ",\"time\":" time "}"

static void test_basic(void)
{
    CHECK_JL(EV("T", "1", "2.5", "true", "100") "\n" EV("H", "2", "-3", "false", "200") "\n",
             "1: T|1|2.5|1|100\n2: H|2|-3|0|200\nEND\n");
    /* no line break after the last event; \r\n line ends; spaces anywhere */
    CHECK_JL(EV("T", "1", "2.5", "true", "100"), "1: T|1|2.5|1|100\nEND\n");
    CHECK_JL(" { \"type\" : \"H\" ,\t\"id\":7 , \"value\" : 1e2, \"ok\":false,\"time\":5 } \r\n",
             "1: H|7|100|0|5\nEND\n");
    CHECK_JL("", "END\n");
    /* blank lines are skipped but counted */
    CHECK_JL("\n  \r\n\t\n" EV("T", "1", "0", "true", "9") "\n\n",
             "4: T|1|0|1|9\nEND\n");
    /* a byte order mark before the first line */
    CHECK_JL("\xEF\xBB\xBF" EV("T", "1", "0", "true", "9"), "1: T|1|0|1|9\nEND\n");
}

static void test_keys(void)
{
    /* any order, and the order changing from line to line */
    CHECK_JL("{\"time\":3,\"ok\":true,\"value\":0.5,\"id\":-4,\"type\":\"H\"}\n"
             EV("T", "1", "2", "false", "4") "\n",
             "1: H|-4|0.5|1|3\n2: T|1|2|0|4\nEND\n");
    /* extra keys with any value are ignored */
    CHECK_JL("{\"note\":{\"a\":[1,2,{\"b\":null}],\"c\":\"}\"},\"type\":\"T\",\"x\":[],\"id\":1,"
             "\"y\":{},\"value\":2,\"ok\":true,\"z\":-0.5e-3,\"time\":3,\"w\":\"\\u00e9\\\"\"}\n",
             "1: T|1|2|1|3\nEND\n");
    /* escapes in keys and enum values */
    CHECK_JL("{\"\\u0074ype\":\"two\\nlines\",\"id\":1,\"value\":2,\"ok\":true,\"t\\u0069me\":3}\n"
             "{\"type\":\"a, \\\"b\\\"\",\"id\":1,\"value\":2,\"ok\":true,\"time\":4}\n"
             "{\"type\":\"DTS\\u0020fault\",\"id\":1,\"value\":2,\"ok\":true,\"time\":5}\n",
             "1: two\nlines|1|2|1|3\n2: a, \"b\"|1|2|1|4\n3: DTS fault|1|2|1|5\nEND\n");
    /* names are case-sensitive; a key with an escaped NUL names nothing */
    CHECK_JL("{\"Type\":\"T\",\"id\":1,\"value\":2,\"ok\":true,\"time\":3}\n"
             "{\"ty\\u0000pe\":\"T\",\"type\":\"T\",\"id\":1,\"value\":2,\"ok\":true,\"time\":3}\n",
             "1: ! missing key \"type\"\n2: T|1|2|1|3\nEND\n");
    CHECK_JL("{\"type\":\"T\",\"id\":1,\"value\":2,\"ok\":true}\n{}\n",
             "1: ! missing key \"time\"\n2: ! missing key \"type\"\nEND\n");
    CHECK_JL("{\"type\":\"T\",\"id\":1,\"id\":2,\"value\":2,\"ok\":true,\"time\":3}\n",
             "1: ! duplicate key \"id\"\nEND\n");
}

static void test_values(void)
{
    CHECK_JL(EV("T", "1.5", "0", "true", "1") "\n"
             EV("T", "1", "0", "true", "1e3") "\n"
             EV("T", "\"1\"", "0", "true", "1") "\n"
             EV("T", "9223372036854775808", "0", "true", "1") "\n"
             EV("T", "-9223372036854775808", "0", "true", "1") "\n"
             EV("X", "1", "0", "true", "1") "\n"
             EV("T", "1", "0", "1", "1") "\n"
             EV("T", "1", "\"2\"", "true", "1") "\n"
             "{\"type\":3,\"id\":1,\"value\":2,\"ok\":true,\"time\":3}\n"
             EV("T", "1", "null", "true", "1") "\n",
             "1: ! attribute id: \"1.5\" is not an int\n"
             "2: ! attribute time: \"1e3\" is not a timestamp (an integer or an ISO-8601 time)\n"
             "3: ! attribute id: \"1\" is not an int\n"
             "4: ! attribute id: \"9223372036854775808\" is out of the int64 range\n"
             "5: T|-9223372036854775808|0|1|1\n"
             "6: ! attribute type: \"X\" is not a value of its enum\n"
             "7: ! attribute ok: \"1\" is not a bool (true or false)\n"
             "8: ! attribute value: \"2\" is not a float\n"
             "9: ! attribute type: \"3\" is not a value of its enum (a string)\n"
             "10: ! attribute value: \"null\" is not a float\n"
             "END\n");
    /* JSON numbers only: no leading zeros, '+', bare '.', hex, inf */
    CHECK_JL(EV("T", "01", "0", "true", "1") "\n" EV("T", "1", "+1", "true", "1") "\n"
             EV("T", "1", ".5", "true", "1") "\n" EV("T", "1", "1.", "true", "1") "\n"
             EV("T", "1", "0x10", "true", "1") "\n" EV("T", "1", "inf", "true", "1") "\n"
             EV("T", "1", "1e", "true", "1") "\n" EV("T", "-0", "-0.0", "false", "0") "\n",
             "1: ! expected ',' or '}' after a value\n"
             "2: ! expected a JSON value\n"
             "3: ! expected a JSON value\n"
             "4: ! expected a JSON value\n"
             "5: ! expected ',' or '}' after a value\n"
             "6: ! expected a JSON value\n"
             "7: ! expected a JSON value\n"
             "8: T|0|-0|0|0\n"
             "END\n");
}

/* Timestamps as ISO-8601 strings, as in CSV (docs/language.md 2):
 * 2023-11-14T22:13:20Z is 1700000000 s; rt_sensor's unit is ms. */
static void test_iso_times(void)
{
    CHECK_JL(EV("T", "1", "0", "true", "\"2023-11-14T22:13:20.5Z\"") "\n"
             EV("T", "2", "0", "true", "\"2023-11-14T23:13:20.500+01:00\"") "\n"
             EV("T", "3", "0", "true", "\"2023-11-14T22:13:21\"") "\n"
             EV("T", "4", "0", "true", "\"2023-11-14T22:13:21.0005Z\"") "\n"
             EV("T", "5", "0", "true", "\"2023-02-29T00:00:00Z\"") "\n"
             EV("T", "6", "0", "true", "\"soon\"") "\n"
             EV("T", "7", "0", "true", "\"2023-11-14T22:13:22\\u005a\"") "\n"
             EV("T", "8", "0", "true", "1700000003000") "\n",
             "1: T|1|0|1|1700000000500\n"
             "2: T|2|0|1|1700000000500\n"
             "3: ! attribute time: \"2023-11-14T22:13:21\" has no time zone (Z or an offset like +02:00)\n"
             "4: ! attribute time: \"2023-11-14T22:13:21.0005Z\" is not a whole number of the timestamp's unit\n"
             "5: ! attribute time: \"2023-02-29T00:00:00Z\" is not a valid date and time\n"
             "6: ! attribute time: \"soon\" is not a timestamp (an integer or an ISO-8601 time)\n"
             "7: T|7|0|1|1700000002000\n"
             "8: T|8|0|1|1700000003000\nEND\n");
}

static void test_syntax(void)
{
    CHECK_JL("[1]\n\"x\"\n" EV("T", "1", "0", "true", "1") " x\n"
             "{\"type\" \"T\"}\n{\"type\":\"T\" \"id\":1}\n{type:\"T\"}\n"
             "{\"type\":\"T\n{\"type\":\"T\x01\"}\n{\"type\":\"\\x\"}\n"
             "{\"type\":\"\\udc00\"}\n{\"a\":[1,}\n"
             "{\"a\":" "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[" "}\n"
             "{\"a\":{\"b\" 1}}\n{\"a\":tru}\n{\"a\":1,}\n",
             "1: ! not a JSON object\n"
             "2: ! not a JSON object\n"
             "3: ! unexpected text after the object\n"
             "4: ! expected ':' after key \"type\"\n"
             "5: ! expected ',' or '}' after a value\n"
             "6: ! expected a key (a string) in the object\n"
             "7: ! unterminated string\n"
             "8: ! control character in a string\n"
             "9: ! bad escape in a string\n"
             "10: ! bad escape in a string\n"
             "11: ! expected a JSON value\n"
             "12: ! value nested too deep\n"
             "13: ! expected ':' after a key\n"
             "14: ! expected a JSON value\n"
             "15: ! expected a key (a string) in the object\n"
             "END\n");
    /* a NUL byte is not white space */
    CHECK_JL("{\"type\":\"T\",\0\"id\":1}\n", "1: ! expected a key (a string) in the object\nEND\n");
}

static void test_long_lines(void)
{
    /* line_cap 60, blocks of 7 bytes: lines straddle many reads */
    CHECK_JL_CAP(EV("T", "1", "2.5", "true", "100") "\n"
                 "{\"type\":\"T\",\"id\":1,\"value\":2,\"ok\":true,\"time\":3,\"pad\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}\n"
                 EV("H", "2", "-3", "false", "200") "\n"
                 "{\"pad\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"",
                 60, 7,
                 "1: T|1|2.5|1|100\n2: ! line longer than 60 bytes\n3: H|2|-3|0|200\n"
                 "4: ! line longer than 60 bytes\nEND\n");
    /* a line of exactly the limit passes */
    CHECK_JL_CAP(EV("T", "1", "2.5", "true", "100") "\n", 52, 1,
                 "1: T|1|2.5|1|100\nEND\n");
    CHECK_JL_CAP(EV("T", "1", "2.5", "true", "100") "\n", 51, 1,
                 "1: ! line longer than 51 bytes\nEND\n");
}

static void test_buffer(void)
{
    char small[64], big[1 << 16];
    sremrt_jsonl_config cfg = {100, 100};
    sremrt_jsonl r;
    rt_event e;
    FILE *in = RT_STR(EV("T", "1", "2.5", "true", "100"));
    CU_ASSERT_EQUAL(sremrt_jsonl_open_buf(&r, &rt_sensor, in, &cfg, small, sizeof small),
                    SREMRT_READ_FATAL);
    CU_ASSERT_EQUAL(sremrt_jsonl_next(&r, &e), SREMRT_READ_FATAL);
    CU_ASSERT(sremrt_jsonl_bytes(&rt_sensor, &cfg) <= sizeof big);
    CU_ASSERT_EQUAL(sremrt_jsonl_open_buf(&r, &rt_sensor, in, &cfg, big + 1,
                                          sremrt_jsonl_bytes(&rt_sensor, &cfg)), 0);
    CU_ASSERT_EQUAL(sremrt_jsonl_next(&r, &e), SREMRT_READ_EVENT);
    CU_ASSERT_EQUAL(e.time, 100);
    CU_ASSERT_EQUAL(sremrt_jsonl_next(&r, &e), SREMRT_READ_END);
    sremrt_jsonl_close(&r);
    fclose(in);
}

/* Enum values with UTF-8 and a quote: raw bytes before and after an
 * escape are copied as they are, \u escapes become UTF-8. */
static void test_utf8_values(void)
{
    typedef struct word_event { int32_t w; } word_event;
    static const char *const words[] = {"caf\xc3\xa9", "\xc3\xa9t\xc3\xa9 \"q\""};
    static const sremrt_attr attrs[] = {{"w", SREMRT_ENUM, 0, 2, words}};
    static const sremrt_schema schema = {"Word", 1, attrs, -1, sizeof(word_event), 0};
    static const char input[] = "{\"w\":\"caf\xc3\xa9\"}\n{\"w\":\"caf\\u00e9\"}\n"
                                "{\"w\":\"\xc3\xa9t\xc3\xa9 \\\"q\\\"\"}\n{\"w\":\"\\u00e9t\xc3\xa9 \\u0022q\\\"\"}\n"
                                "{\"w\":\"caf\xc3\xa9 \"}\n";
    static const int32_t want[] = {0, 0, 1, 1};
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_jsonl r;
    word_event e;
    FILE *in = rt_mem(input, sizeof input - 1);
    int i;
    CU_ASSERT_EQUAL_FATAL(sremrt_jsonl_open(&r, &schema, in, NULL, &heap), 0);
    for (i = 0; i < 4; i++) {
        CU_ASSERT_EQUAL(sremrt_jsonl_next(&r, &e), SREMRT_READ_EVENT);
        CU_ASSERT_EQUAL(e.w, want[i]);
    }
    CU_ASSERT_EQUAL(sremrt_jsonl_next(&r, &e), SREMRT_READ_BAD);
    ASSERT_STR(sremrt_jsonl_message(&r), "attribute w: \"caf\xc3\xa9 \" is not a value of its enum");
    CU_ASSERT_EQUAL(sremrt_jsonl_next(&r, &e), SREMRT_READ_END);
    sremrt_jsonl_close(&r);
    fclose(in);
}

/* String attributes: interned into the reader's table as the CSV reader
 * does (the same string, the same id, escaped or not); without a table, a
 * table that is full, a non-string, or a NUL: the line is rejected. */
static void test_strings(void)
{
    typedef struct user_event { int64_t u; int64_t n; } user_event;
    static const sremrt_attr attrs[] = {{"u", SREMRT_STRING, 0, 0, NULL}, {"n", SREMRT_INT, 8, 0, NULL}};
    static const sremrt_schema schema = {"User", 2, attrs, -1, sizeof(user_event), 0};
    static const char input[] = "{\"u\":\"alice\",\"n\":1}\n{\"n\":2,\"u\":\"bob\"}\n"
                                "{\"u\":\"\\u0061lice\",\"n\":3}\n{\"u\":\"caf\xc3\xa9 \\\"q\\\"\",\"n\":4}\n"
                                "{\"u\":\"caf\\u00e9 \\u0022q\\\"\",\"n\":5}\n{\"u\":7,\"n\":6}\n"
                                "{\"u\":\"a\\u0000b\",\"n\":7}\n{\"u\":\"carol\",\"n\":8}\n";
    static const int64_t want[] = {0, 1, 0, 2, 2};
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_strtab t;
    sremrt_jsonl r;
    user_event e;
    FILE *in = rt_mem(input, sizeof input - 1);
    int i;
    CU_ASSERT_EQUAL_FATAL(sremrt_strtab_init(&t, &heap, 3), 0);
    CU_ASSERT_EQUAL_FATAL(sremrt_jsonl_open(&r, &schema, in, NULL, &heap), 0);
    CU_ASSERT_PTR_NULL(r.strings);   /* the caller sets it */
    r.strings = &t;
    for (i = 0; i < 5; i++) {
        CU_ASSERT_EQUAL(sremrt_jsonl_next(&r, &e), SREMRT_READ_EVENT);
        CU_ASSERT_EQUAL(e.u, want[i]);
        CU_ASSERT_EQUAL(e.n, i + 1);
    }
    CU_ASSERT_STRING_EQUAL(sremrt_strtab_get(&t, 2, NULL), "caf\xc3\xa9 \"q\"");
    CU_ASSERT_EQUAL(sremrt_jsonl_next(&r, &e), SREMRT_READ_BAD);
    ASSERT_STR(sremrt_jsonl_message(&r), "attribute u: \"7\" is not a string");
    CU_ASSERT_EQUAL(sremrt_jsonl_next(&r, &e), SREMRT_READ_BAD);
    ASSERT_STR(sremrt_jsonl_message(&r), "attribute u: \"a\\u0000b\" has a NUL byte");
    CU_ASSERT_EQUAL(sremrt_jsonl_next(&r, &e), SREMRT_READ_BAD);   /* a fourth string, max 3 */
    ASSERT_STR(sremrt_jsonl_message(&r), "attribute u: \"carol\" does not fit: the string table is full");
    CU_ASSERT_EQUAL(sremrt_jsonl_next(&r, &e), SREMRT_READ_END);
    sremrt_jsonl_close(&r);
    fclose(in);
    in = rt_mem(input, sizeof input - 1);   /* no table: rejected */
    CU_ASSERT_EQUAL_FATAL(sremrt_jsonl_open(&r, &schema, in, NULL, &heap), 0);
    CU_ASSERT_EQUAL(sremrt_jsonl_next(&r, &e), SREMRT_READ_BAD);
    ASSERT_STR(sremrt_jsonl_message(&r), "attribute u: \"alice\" is a string, and the reader has no string table");
    sremrt_jsonl_close(&r);
    fclose(in);
    sremrt_strtab_free(&t);
}

/* ---- numbers against strtod and strtoll -------------------------------------- */

static uint64_t rng_state;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* A random JSON number: digits around the fast path's limits (15-20
 * significant digits, exponents near +-22 and the double range's ends),
 * halfway cases, or the shortest text of a random double. */
static void random_number(char *buf, size_t cap)
{
    static const int exps[] = {0, 5, 15, 21, 22, 23, 30, 280, 300, 307, 308, 309, 320, 323, 324, 330};
    char digits[48];
    int kind = (int)(rng() % 4), i, n, at;
    size_t k = 0;
    if (kind == 0) {   /* a random bit pattern, printed exactly or nearly */
        uint64_t bits = rng();
        double d;
        memcpy(&d, &bits, sizeof d);
        if (d != d || d - d != 0)
            d = 1.5;
        snprintf(buf, cap, rng() % 2 ? "%.17g" : "%.15g", d);
        return;
    }
    n = 1 + (int)(rng() % (kind == 1 ? 22 : 40));
    for (i = 0; i < n; i++)   /* kind 3: ...5000...: a halfway case */
        digits[i] = (char)('0' + (kind == 3 && i >= 16 ? (i == 16 ? 5 : 0) : rng() % 10));
    digits[0] = (char)('1' + rng() % 9);
    at = rng() % 2 ? 1 + (int)(rng() % (unsigned)n) : n;   /* digits before the point */
    if (rng() % 2)
        buf[k++] = '-';
    memcpy(buf + k, digits, (size_t)at);
    k += (size_t)at;
    if (at < n) {
        buf[k++] = '.';
        memcpy(buf + k, digits + at, (size_t)(n - at));
        k += (size_t)(n - at);
    }
    buf[k] = '\0';
    if (rng() % 3)
        snprintf(buf + k, cap - k, rng() % 2 ? "e%d" : "E%d",
                 (rng() % 2 ? -1 : 1) * exps[rng() % (sizeof exps / sizeof exps[0])]);
}

/* Reads one line holding `text` as value (a float) or id (an int). */
static int read_one(const char *text, int as_int, rt_event *e)
{
    char line[256];
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_jsonl r;
    FILE *in;
    int rc;
    snprintf(line, sizeof line, "{\"type\":\"T\",\"id\":%s,\"value\":%s,\"ok\":true,\"time\":1}",
             as_int ? text : "0", as_int ? "0" : text);
    in = RT_STR(line);
    sremrt_jsonl_open(&r, &rt_sensor, in, NULL, &heap);
    rc = sremrt_jsonl_next(&r, e);
    sremrt_jsonl_close(&r);
    fclose(in);
    return rc;
}

static void test_numbers_differential(void)
{
    static const char *const fixed[] = {
        "0", "-0", "1", "0.1", "2.2250738585072011e-308", "2.2250738585072014e-308",
        "4.9406564584124654e-324", "1.7976931348623157e308", "1.7976931348623159e308",
        "1e23", "9007199254740993", "9007199254740992", "9007199254740991.5",
        "8.98846567431158e307", "123456789012345678901234567890", "1e-400", "1e400",
        "0.30000000000000004", "7.2057594037927933e16", "3.0000000000000004440892098500626",
        "1e22", "1e-22", "123456789012345e-22", "123456789012345e22"
    };
    const char *seed_env = getenv("SREMRT_TEST_SEED");
    uint64_t seed = seed_env ? strtoull(seed_env, NULL, 10) : 20261202;
    int i, n = (int)(sizeof fixed / sizeof fixed[0]), fails = 0;
    rng_state = seed ? seed : 1;
    for (i = 0; i < n + 200000 && fails < 5; i++) {
        char text[128];
        rt_event e;
        double want;
        if (i < n)
            snprintf(text, sizeof text, "%s", fixed[i]);
        else
            random_number(text, sizeof text);
        want = strtod(text, NULL);
        if (read_one(text, 0, &e) != SREMRT_READ_EVENT ||
            memcmp(&e.value, &want, sizeof want) != 0) {
            fprintf(stderr, "\njsonl number %s: got %.17g, strtod %.17g (seed %" PRIu64 ")\n",
                    text, e.value, want, seed);
            fails++;
        }
    }
    CU_ASSERT_EQUAL(fails, 0);
    /* integers: random lengths and the int64 edges, against strtoll */
    for (i = 0; i < 20000 && fails < 5; i++) {
        char text[40];
        rt_event e;
        int len = 1 + (int)(rng() % 20), k, rc;
        long long want;
        char *end;
        k = rng() % 2 ? snprintf(text, sizeof text, "-") : 0;
        text[k++] = (char)('1' + rng() % 9);
        while (k < len + 1)
            text[k++] = (char)('0' + rng() % 10);
        text[k] = '\0';
        if (i < 2)
            snprintf(text, sizeof text, i ? "-9223372036854775809" : "9223372036854775807");
        errno = 0;
        want = strtoll(text, &end, 10);
        rc = read_one(text, 1, &e);
        if (errno == ERANGE ? rc != SREMRT_READ_BAD : rc != SREMRT_READ_EVENT || e.id != want) {
            fprintf(stderr, "\njsonl int %s: rc %d, got %lld (seed %" PRIu64 ")\n", text, rc,
                    (long long)e.id, seed);
            fails++;
        }
    }
    CU_ASSERT_EQUAL(fails, 0);
}

void add_jsonl_tests(void)
{
    CU_pSuite s = CU_add_suite("jsonl", NULL, NULL);
    CU_add_test(s, "basic", test_basic);
    CU_add_test(s, "keys: order, extra, escapes, missing", test_keys);
    CU_add_test(s, "values by type", test_values);
    CU_add_test(s, "ISO-8601 timestamps", test_iso_times);
    CU_add_test(s, "syntax errors", test_syntax);
    CU_add_test(s, "long lines and small blocks", test_long_lines);
    CU_add_test(s, "caller buffer", test_buffer);
    CU_add_test(s, "UTF-8 and escapes in enum values", test_utf8_values);
    CU_add_test(s, "string attributes into the string table", test_strings);
    CU_add_test(s, "numbers against strtod, strtoll", test_numbers_differential);
}
