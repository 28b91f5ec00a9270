/* @@PREFIX@@_main.c: the program `sremc build` wraps around @@HEADER@@:
 * events from CSV or binary input -> records (LANGUAGE.md section 6). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "@@HEADER@@"
#include "sremrt/sremrt.h"

static const char usage[] =
    "usage: %s [--format text|jsonl] [--input csv|bin] [--strict] [--stats]\n"
    "       [--max-keys N] [--max-runs N] [FILE]\n"
    "Reads events (CSV with a header by default; standard input without FILE)\n"
    "and writes the records of the patterns of @@SOURCE@@.\n"
    "exit status: 0 all lines accepted, 3 some rejected, 2 usage errors\n";

static void write_record(void *user, const sremrt_record *r)
{
    sremrt_record_write(stdout, *(const sremrt_format *)user, r);
}

int main(int argc, char **argv)
{
    sremrt_format format = SREMRT_TEXT;
    int bin = 0, strict = 0, stats = 0, status = 0;
    const char *path = NULL;
    long max_keys = 0, max_runs = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--format") == 0 && v && (!strcmp(v, "text") || !strcmp(v, "jsonl"))) {
            format = strcmp(v, "jsonl") == 0 ? SREMRT_JSONL : SREMRT_TEXT;
            i++;
        } else if (strcmp(a, "--input") == 0 && v && (!strcmp(v, "csv") || !strcmp(v, "bin"))) {
            bin = strcmp(v, "bin") == 0;
            i++;
        } else if ((strcmp(a, "--max-keys") == 0 || strcmp(a, "--max-runs") == 0) && v && atol(v) > 0) {
            *(a[6] == 'k' ? &max_keys : &max_runs) = atol(v);
            i++;
        } else if (strcmp(a, "--strict") == 0) {
            strict = 1;
        } else if (strcmp(a, "--stats") == 0) {
            stats = 1;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            printf(usage, argv[0]);
            return 0;
        } else if ((a[0] != '-' || strcmp(a, "-") == 0) && !path) {
            path = a;
        } else {
            fprintf(stderr, "%s: bad argument '%s'\n", argv[0], a);
            fprintf(stderr, usage, argv[0]);
            return 2;
        }
    }
    FILE *in = stdin;
    if (path && strcmp(path, "-") != 0 && !(in = fopen(path, bin ? "rb" : "r"))) {
        perror(path);
        return 2;
    }

    @@PREFIX@@_config cfg;
    @@PREFIX@@_config_default(&cfg);
    cfg.record = write_record;
    cfg.user = &format;
    if (max_keys > 0)
        cfg.max_keys = (int32_t)max_keys;
    if (max_runs > 0)
        cfg.max_runs = (int32_t)max_runs;
    @@PREFIX@@_matcher *m = malloc(@@PREFIX@@_matcher_size());
    if (!m || @@PREFIX@@_init(m, &cfg) != 0) {
        fprintf(stderr, "%s: cannot set up the matcher (out of memory or runtime ABI mismatch)\n", argv[0]);
        return 2;
    }
    sremrt_alloc hook = sremrt_alloc_malloc();
    sremrt_csv csv;
    sremrt_bin br;
    uint64_t bad = 0;   /* malformed lines: the matcher counts the rest */
    double start = sremrt_clock_seconds();
    if (bin) {
        sremrt_bin_open(&br, &@@PREFIX@@_schema, in);
    } else if (sremrt_csv_open(&csv, &@@PREFIX@@_schema, in, NULL, &hook) != 0) {
        sremrt_write_error(stderr, format, sremrt_csv_line(&csv), sremrt_csv_message(&csv));
        fflush(stdout);
        return 3;
    }
    for (;;) {
        @@PREFIX@@_event e;
        int rc = bin ? sremrt_bin_next(&br, &e) : sremrt_csv_next(&csv, &e);
        int64_t line = bin ? sremrt_bin_line(&br) : sremrt_csv_line(&csv);
        if (rc == SREMRT_READ_END)
            break;
        if (rc == SREMRT_READ_EVENT) {
            if (@@PREFIX@@_push(m, &e) == 0)
                continue;
            fflush(stdout);
            sremrt_write_error(stderr, format, line, @@PREFIX@@_error(m));
        } else {
            fflush(stdout);
            sremrt_write_error(stderr, format, line,
                               bin ? sremrt_bin_message(&br) : sremrt_csv_message(&csv));
            bad++;
            if (rc == SREMRT_READ_FATAL) {
                status = 3;
                break;
            }
        }
        if (strict) {
            status = 3;
            break;
        }
    }
    @@PREFIX@@_finish(m);
    sremrt_stats st = *@@PREFIX@@_stats(m);
    st.rejected += bad;
    if (stats)
        sremrt_stats_print(stderr, &st, sremrt_clock_seconds() - start);
    if (status == 0)
        status = sremrt_stats_exit_status(&st);
    if (!bin)
        sremrt_csv_close(&csv);
    @@PREFIX@@_free(m);
    free(m);
    if (in != stdin)
        fclose(in);
    return fflush(stdout) == 0 ? status : 1;
}
