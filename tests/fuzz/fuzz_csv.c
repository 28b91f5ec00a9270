/* fuzz_csv.c: libFuzzer driver for a generated program's input path: any
 * bytes -> the CSV reader (runtime/csv.c; built with -DFUZZ_JSONL, the
 * JSON Lines reader, runtime/jsonl.c: build/fuzz_jsonl) -> the matcher
 * sremc generated from tests/fuzz/csv_schema.srem (prefix fcsv), records
 * formatted as a program would write them. Besides crashes, leaks and
 * undefined behaviour it checks what the reader promises: every call
 * consumes input, line numbers grow and stay inside the input, decoded
 * values lie in their type's range, messages are set, records are one
 * valid line each. */
#define _POSIX_C_SOURCE 200809L   /* fmemopen */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fcsv.h"
#include "sremrt/sremrt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The reader under test, behind one set of names. */
#ifdef FUZZ_JSONL
typedef sremrt_jsonl reader;
typedef sremrt_jsonl_config reader_config;
#define READER_MSG_CAP SREMRT_JSONL_MSG_CAP
#define SMALL_CONFIG {64, 16}   /* line cap, block */
#define reader_bytes(cfg) sremrt_jsonl_bytes(&fcsv_schema, cfg)
#define reader_open sremrt_jsonl_open
#define reader_open_buf sremrt_jsonl_open_buf
#define reader_next sremrt_jsonl_next
#define reader_line sremrt_jsonl_line
#define reader_message sremrt_jsonl_message
#define reader_close sremrt_jsonl_close
#else
typedef sremrt_csv reader;
typedef sremrt_csv_config reader_config;
#define READER_MSG_CAP SREMRT_CSV_MSG_CAP
#define SMALL_CONFIG {64, 8}    /* line cap, columns */
#define reader_bytes(cfg) sremrt_csv_bytes(cfg)
#define reader_open sremrt_csv_open
#define reader_open_buf sremrt_csv_open_buf
#define reader_next sremrt_csv_next
#define reader_line sremrt_csv_line
#define reader_message sremrt_csv_message
#define reader_close sremrt_csv_close
#endif

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "fuzz_csv: %s:%d: check failed: %s\n", \
                                          __FILE__, __LINE__, #c); abort(); } } while (0)

/* Length of the valid UTF-8 sequence at p[0..n), or 0. */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
    size_t len, i;
    uint32_t cp;
    if (p[0] < 0x80)
        return 1;
    if (p[0] >= 0xC2 && p[0] <= 0xDF)
        len = 2, cp = p[0] & 0x1Fu;
    else if (p[0] >= 0xE0 && p[0] <= 0xEF)
        len = 3, cp = p[0] & 0x0Fu;
    else if (p[0] >= 0xF0 && p[0] <= 0xF4)
        len = 4, cp = p[0] & 0x07u;
    else
        return 0;
    if (len > n)
        return 0;
    for (i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3Fu);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

/* A record as written: one line, valid UTF-8 (bad input bytes are shown as
 * U+FFFD), no C0 control byte but the final newline (DEL passes, as JSON
 * allows); JSONL an object. */
static void check_line(const char *buf, size_t n, size_t cap, int json)
{
    const unsigned char *p = (const unsigned char *)buf;
    size_t i = 0;
    CHECK(n < cap);
    CHECK(n >= 2 && p[n - 1] == '\n');
    if (json)
        CHECK(p[0] == '{' && p[n - 2] == '}');
    while (i < n - 1) {
        size_t k = utf8_seq(p + i, n - 1 - i);
        CHECK(k > 0);
        CHECK(p[i] >= 0x20);
        i += k;
    }
}

static void check_record(const sremrt_record *r)
{
    char buf[4096];
    size_t n = sremrt_record_format(buf, sizeof buf, SREMRT_JSONL, r);
    check_line(buf, n, sizeof buf, 1);
    n = sremrt_record_format(buf, sizeof buf, SREMRT_TEXT, r);
    check_line(buf, n, sizeof buf, 0);
}

typedef struct Run {
    int64_t last_index;   /* index of the last match record */
    uint64_t pushed;      /* events given to the matcher */
} Run;

static void on_record(void *user, const sremrt_record *r)
{
    Run *run = user;
    if (r->kind == SREMRT_ERROR && r->overflow) {
        check_record(r);   /* the end-of-input overflow record: max_keys, max_runs are small */
        return;
    }
    CHECK(r->kind == SREMRT_MATCH);
    CHECK(r->index >= 1 && (uint64_t)r->index == run->pushed + 1);
    CHECK(r->index >= run->last_index);
    run->last_index = r->index;
    check_record(r);
}

static void check_error(int64_t line, const char *message)
{
    sremrt_record r;
    memset(&r, 0, sizeof r);
    r.kind = SREMRT_ERROR;
    r.line = line;
    r.message = message;
    CHECK(message && message[0] && strlen(message) < READER_MSG_CAP);
    check_record(&r);
}

static void check_event(const fcsv_event *e)
{
    CHECK(e->type >= 0 && e->type < fcsv_schema.attrs[0].nvalues);
    CHECK(e->ok == 0 || e->ok == 1);
}

/* Reads the whole input with one configuration; with a matcher, pushes
 * the accepted events into it. */
static void read_all(const uint8_t *data, size_t size, const reader_config *cfg,
                     void *buf, size_t bytes, fcsv_matcher *m, Run *run)
{
    sremrt_alloc hook = sremrt_alloc_malloc();
    reader r;
    int64_t lines = 1, last = 0;
    size_t i, calls = 0;
    uint64_t accepted = 0;
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in)
        return;   /* fmemopen refuses size 0 on some C libraries */
    for (i = 0; i < size; i++)
        lines += data[i] == '\n';
    int rc = buf ? reader_open_buf(&r, &fcsv_schema, in, cfg, buf, bytes)
                 : reader_open(&r, &fcsv_schema, in, cfg, &hook);
    if (rc != 0) {
        CHECK(rc == SREMRT_READ_FATAL);
        CHECK(reader_line(&r) >= 1 && reader_line(&r) <= lines);
        check_error(reader_line(&r), reader_message(&r));
        CHECK(reader_next(&r, &(fcsv_event){0}) == SREMRT_READ_FATAL);
    } else {
        for (;;) {
            fcsv_event e;
            rc = reader_next(&r, &e);
            CHECK(++calls <= size + 1);   /* each record takes at least one byte */
            if (rc == SREMRT_READ_END)
                break;
            CHECK(rc == SREMRT_READ_EVENT || rc == SREMRT_READ_BAD);
            int64_t line = reader_line(&r);
            CHECK(line > last && line <= lines);
            last = line;
            if (rc == SREMRT_READ_BAD) {
                check_error(line, reader_message(&r));
                continue;
            }
            check_event(&e);
            accepted++;
            if (m && fcsv_push(m, &e) == 0)
                run->pushed++;
            else if (m)
                check_error(line, fcsv_error(m));
        }
        CHECK(reader_next(&r, &(fcsv_event){0}) == SREMRT_READ_END);
    }
    if (m) {
        const sremrt_stats *st = fcsv_stats(m);
        CHECK(st->events == run->pushed && st->events + st->rejected == accepted);
    }
    reader_close(&r);
    fclose(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* Small capacities put the line and column limits within reach. */
    static const reader_config small = SMALL_CONFIG;
    static unsigned char small_buf[1024];
    fcsv_config cfg;
    Run run = {0, 0};
    fcsv_matcher *m = malloc(fcsv_matcher_size());
    CHECK(m);
    fcsv_config_default(&cfg);
    cfg.record = on_record;
    cfg.user = &run;
    cfg.max_keys = 4;
    cfg.max_runs = 8;
    CHECK(fcsv_init(m, &cfg) == 0);
    read_all(data, size, NULL, NULL, 0, m, &run);
    fcsv_finish(m);
    fcsv_free(m);
    free(m);

    CHECK(reader_bytes(&small) <= sizeof small_buf);
    read_all(data, size, &small, small_buf + 1, sizeof small_buf - 1, NULL, NULL);
    return 0;
}
