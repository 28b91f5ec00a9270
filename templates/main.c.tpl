@@# main.c.tpl: the main that `sremc build` adds, NAME_main.c (cg_emit_main in
@@# compiler/codegen/cg_emit.c fills it; syntax: templates/README.md). Holes:
@@#   PREFIX   the matcher's prefix;  HEADER: its .h
@@#   SOURCE   the .srem file's name, fit for a C string and a comment
@@#   VERSION  sremc's version (--version of the program)
@@#   ROUTE_ATTR the attribute every declaration is partitioned by, or -1
/* @@PREFIX@@_main.c: the program `sremc build` wraps around @@HEADER@@:
 * events from CSV or binary input -> records (docs/language.md section 6). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* fsync and fileno for checkpoints, where there are */
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "@@HEADER@@"
#include "sremrt/sremrt.h"
#include "sremrt/nats.h"
#include "sremrt/state.h"
#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#define HAVE_FSYNC 1
#endif

/* The program's options: the parser below and --help both read this table. */
enum {
    OPT_FORMAT, OPT_INPUT, OPT_EVENTS, OPT_STRICT, OPT_STATS, OPT_MAX_KEYS, OPT_MAX_RUNS, OPT_MAX_MEMORY, OPT_DISTINCT_BUDGET,
    OPT_OCCMAP_CAP, OPT_EXPLORE_ALGO, OPT_EXPLORE_CAP, OPT_TRIE, OPT_TRIE_DOT, OPT_HELP, OPT_VERSION,
    OPT_CONVERT_BIN, OPT_CHECKPOINT, OPT_CHECKPOINT_EVERY, OPT_RESTORE,
    OPT_NATS, OPT_STREAM, OPT_PARTITION, OPT_RESULTS, OPT_CKPT_BUCKET, OPT_CKPT_SECS,
    OPT_IDLE, OPT_NATS_PUBLISH, OPT_PARTITIONS, OPT_BATCH, OPT_RUN_ID, NOPT
};
static const struct option_spec {
    const char *name, *arg, *help;
    long max;   /* numeric options: largest value accepted */
} options[NOPT] = {
    {"--format", "text|jsonl", "record format: text (default, for people) or jsonl (one JSON object a line)", 0},
    {"--input", "csv|bin", "event input: csv (default; a header line naming the attributes) or bin\n"
                           "(raw @@PREFIX@@_event records)", 0},
    {"--events", NULL, "match records also carry their start event and bound events, with\n"
                       "their attributes (\"events\"; text: indented lines after the record)", 0},
    {"--strict", NULL, "stop at the first bad line (exit status 3)", 0},
    {"--stats", NULL, "print the matcher's statistics to standard error at the end", 0},
    {"--max-keys", "N", "partition keys per partitioned pattern or episode, a hard limit\n"
                        "(the tables grow as keys arrive)", 1L << 28},
    {"--max-runs", "N", "live runs per runs pattern and partition, a hard limit", 2147483647L},
    {"--max-memory", "N", "bytes the matcher may take (suffix K, M or G: KiB, MiB, GiB); growth\n"
                          "past it is refused", 0},
    {"--distinct-budget", "N", "distinct episodes: work kept per episode and partition when one\n"
                               "event can satisfy two elements; past it records say exact=false", SREMRT_EPISODE_MAX_BUDGET},
    {"--occmap-cap", "N", "distinct episodes: events kept per OccMap list; past it records\n"
                          "say exact=false", SREMRT_EPISODE_MAX_CAP},
    {"--explore-algo", "NAME", "explore counting: default, bf, rc or ic; all are exact, they differ in\n"
                                           "speed (default: per-event cost independent of the window)", 0},
    {"--explore-cap", "N", "explore: window entries kept per partition (default: the count\n"
                           "window, else 65536)", 2147483647L},
    {"--trie", NULL, "print the explore clauses' pattern tries to standard output at the end", 0},
    {"--trie-dot", "FILE", "write the pattern tries as Graphviz dot to FILE at the end", 0},
    {"--help", NULL, "print this help and exit (also -h)", 0},
    {"--version", NULL, "print the version and exit", 0},
    {"--convert-bin", "OUT", "instead of matching, write the events to OUT (- for standard output)\n"
                             "as the binary records of --input bin; rejected lines are reported\n"
                             "and left out", 0},
    {"--checkpoint", "FILE", "save the matcher's state to FILE (atomically: FILE.tmp, then renamed)\n"
                             "at the end of input, and every N records with --checkpoint-every", 0},
    {"--checkpoint-every", "N", "with --checkpoint: also every N input records", 2147483647L},
    {"--restore", "FILE", "start from the checkpoint in FILE: its first k input records (k\n"
                          "saved in it) are skipped, the rest matched as if never stopped", 0},
    {"--nats", "URLS", "NATS JetStream mode (docs/SCALING.md): match partition P of stream S\n"
                       "from the servers URLS (comma-separated), exactly once", 0},
    {"--stream", "S", "--nats, --nats-publish: base name of the streams: partition P is\n"
                      "stream S_P (subject S.P), its results S_OUT_P (subject S.out.P)", 0},
    {"--partition", "P/N", "--nats: the partition to match, 0 <= P < N", 0},
    {"--results", "SUBJECT", "--nats: publish results on SUBJECT (a stream must hold it)\n"
                             "instead of S.out.P", 0},
    {"--checkpoint-bucket", "B", "--nats: key-value bucket of the checkpoints (default S_ckpt)", 0},
    {"--checkpoint-secs", "X", "--nats: a checkpoint at most every X seconds (default 5; 0: after\n"
                               "every fetched batch)", 0},
    {"--idle", "X", "--nats: stop after X seconds without input, all the stream holds\n"
                    "matched (default: never)", 0},
    {"--nats-publish", "URLS", "instead of matching, publish the events to the N partition streams\n"
                               "of S (created if missing), each to partition fnv1a32(key) mod N", 0},
    {"--partitions", "N", "--nats-publish: number of partitions (default 1)", 65536},
    {"--batch", "N", "--nats-publish: events per message (default 1000)", 1000000},
    {"--run-id", "ID", "--nats-publish: message id prefix (default: pid and time); the same ID\n"
                       "on a rerun after a crash lets JetStream drop batches already stored", 0},
};

static void usage(FILE *out, const char *prog)
{
    @@PREFIX@@_config cfg;
    @@PREFIX@@_config_default(&cfg);
    fprintf(out, "usage: %s [OPTIONS] [FILE]\n"
                 "Reads events (standard input without FILE or with -) and writes the records\n"
                 "of the patterns of @@SOURCE@@ to standard output; error records\n"
                 "go to standard error.\n\noptions:\n", prog);
    for (int i = 0; i < NOPT; i++) {
        char left[40];
        snprintf(left, sizeof left, "%s%s%s", options[i].name, options[i].arg ? " " : "",
                 options[i].arg ? options[i].arg : "");
        fprintf(out, "  %-24s ", left);
        for (const char *h = options[i].help; *h; h++) {   /* indent continuation lines */
            if (*h == '\n')
                fputs("\n                           ", out);
            else
                fputc(*h, out);
        }
        long def = i == OPT_MAX_KEYS ? cfg.max_keys : i == OPT_MAX_RUNS ? cfg.max_runs
                 : i == OPT_DISTINCT_BUDGET ? cfg.distinct_budget : i == OPT_OCCMAP_CAP ? cfg.occmap_cap : 0;
        if (def > 0)   /* 0: the runtime's default, which the help text gives */
            fprintf(out, " (default %ld)", def);
        else if (i == OPT_MAX_KEYS || i == OPT_MAX_RUNS || i == OPT_MAX_MEMORY)   /* 0: no limit */
            fputs(" (default: no limit)", out);
        fputc('\n', out);
    }
    fputs("\nAnything dropped for lack of capacity (a limit above, memory) is reported at\n"
          "the end: one overflow error record per pattern or episode, with the counts.\n"
          "\nexit status: 0 all lines accepted and nothing dropped; 3 some line rejected,\n"
          "something dropped, a fatal input error, a write error on the output or\n"
          "on a checkpoint; 2 usage errors, FILE or the --trie-dot file cannot be\n"
          "opened, or the --restore checkpoint is missing, damaged or another program's;\n"
          "4 (--nats) fenced off by another instance of the same partition\n", out);
#ifdef SREMRT_NATS
    fputs("\nNATS JetStream (--nats, --nats-publish): built in\n", out);
#else
    fputs("\nNATS JetStream (--nats, --nats-publish): not built in (sremc build found no libnats)\n", out);
#endif
}

/* Where records go: error records (overflows) to standard error, the
 * rest to standard output, whose first write error is kept. */
typedef struct output {
    sremrt_format format;
    int events;   /* --events: match records carry their events */
    int failed;   /* a write to standard output failed */
    int err;      /* its errno */
} output;

/* Flushes standard output, keeping the errno of its first failure (a
 * later flush of a stream already in error says nothing more). */
static void flush_out(output *o)
{
    errno = 0;
    if ((fflush(stdout) != 0 || ferror(stdout)) && !o->failed) {
        o->failed = 1;
        o->err = errno;
    }
}

static void write_record(void *user, const sremrt_record *r)
{
    output *o = (output *)user;
    if (r->kind == SREMRT_ERROR) {
        flush_out(o);   /* the records before it first, on a shared terminal */
        sremrt_record_write(stderr, o->format, r);
        return;
    }
    sremrt_record copy;
    if (r->schema && !o->events) {   /* the matcher fills it; --events writes it */
        copy = *r;
        copy.schema = NULL;
        r = &copy;
    }
    errno = 0;
    if (sremrt_record_write(stdout, o->format, r) != 0 && !o->failed) {
        o->failed = 1;
        o->err = errno;
    }
}

/* Standard output flushed: 0, or -1 with the write error reported. */
static int check_output(const char *prog, output *o)
{
    flush_out(o);
    if (!o->failed)
        return 0;
    fprintf(stderr, "%s: write error on standard output: %s\n", prog, o->err ? strerror(o->err) : "unknown error");
    return -1;
}

/* --max-memory: bytes, with an optional K, M or G (binary) suffix; 0 if bad. */
static size_t parse_bytes(const char *v)
{
    char *end = NULL;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    size_t shift = 0;
    if (end == v || errno || v[0] == '-')
        return 0;
    if (*end == 'K' || *end == 'k')
        shift = 10;
    else if (*end == 'M' || *end == 'm')
        shift = 20;
    else if (*end == 'G' || *end == 'g')
        shift = 30;
    if (shift)
        end++;
    if (*end || n > ((unsigned long long)SIZE_MAX >> shift))
        return 0;
    return (size_t)(n << shift);
}

/* --convert-bin: the events of in (CSV, or bin with --input bin) as raw
 * @@PREFIX@@_event records into out_path, without matching. A line the
 * reader or the timestamp rule rejects gets its error record, as in a
 * matching run, and is left out: `--input bin` on the output then gives
 * the records of the CSV run, with the same indices. Exit status as for
 * matching; OUT not writable: 2 before reading, a write error: 3. */
static int convert_bin(const char *out_path, FILE *in, int bin, sremrt_format format, int strict)
{
    FILE *out = strcmp(out_path, "-") == 0 ? stdout : fopen(out_path, "wb");
    if (!out) {
        perror(out_path);
        return 2;
    }
    sremrt_alloc hook = sremrt_alloc_malloc();
    sremrt_csv csv;
    sremrt_bin br;
    sremrt_tsorder order;
    char why[128];
    int status = 0, wrote = 1;
    sremrt_tsorder_init(&order);
    if (bin)
        sremrt_bin_open(&br, &@@PREFIX@@_schema, in);
    int opened = bin || sremrt_csv_open(&csv, &@@PREFIX@@_schema, in, NULL, &hook) == 0;
    int rc = opened ? SREMRT_READ_EVENT : SREMRT_READ_FATAL;
    while (rc != SREMRT_READ_END && wrote && !(status && strict)) {
        @@PREFIX@@_event e;
        const char *msg = why;
        if (rc != SREMRT_READ_FATAL)
            rc = bin ? sremrt_bin_next(&br, &e) : sremrt_csv_next(&csv, &e);
        if (rc == SREMRT_READ_EVENT && sremrt_tsorder_event(&order, &@@PREFIX@@_schema, &e, why, sizeof why) == 0)
            wrote = fwrite(&e, sizeof e, 1, out) == 1;
        else if (rc != SREMRT_READ_END) {
            if (rc != SREMRT_READ_EVENT)
                msg = bin ? sremrt_bin_message(&br) : sremrt_csv_message(&csv);
            sremrt_write_error(stderr, format, bin ? sremrt_bin_line(&br) : sremrt_csv_line(&csv), msg);
            status = 3;
            if (rc == SREMRT_READ_FATAL)
                break;
        }
    }
    if (!bin && opened)
        sremrt_csv_close(&csv);
    if (fflush(out) != 0 || ferror(out) || !wrote || (out != stdout && fclose(out) != 0)) {
        perror(out_path);
        status = 3;
    }
    return status;
}

/* --nats and --nats-publish (runtime/nats/nats.c; docs/SCALING.md). */
static size_t nats_push(void *m, const void *events, size_t n)
{
    return @@PREFIX@@_push_many((@@PREFIX@@_matcher *)m, (const @@PREFIX@@_event *)events, n);
}

static const char *nats_error(void *m)
{
    return @@PREFIX@@_error((@@PREFIX@@_matcher *)m);
}

static size_t nats_state_size(void *m)
{
    return @@PREFIX@@_state_size((const @@PREFIX@@_matcher *)m);
}

static int nats_state_save(void *m, void *buf, size_t n)
{
    return @@PREFIX@@_state_save((const @@PREFIX@@_matcher *)m, buf, n);
}

static int nats_state_load(void *m, const void *buf, size_t n)
{
    return @@PREFIX@@_state_load((@@PREFIX@@_matcher *)m, buf, n);
}

/* The values of the NATS options into c; NULL, or what is wrong. */
static const char *nats_option(int k, const char *v, sremrt_nats_conf *c)
{
    char *end = NULL;
    double x;
    switch (k) {
    case OPT_NATS:
    case OPT_NATS_PUBLISH:
        c->urls = v;
        return NULL;
    case OPT_STREAM:
        c->stream = v;
        return v[strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")] || !*v
             ? "--stream needs a name of letters, digits, '_' and '-'" : NULL;
    case OPT_PARTITION:
        if (sscanf(v, "%d/%d", &c->partition, &c->npartitions) != 2 || c->partition < 0
            || c->npartitions < 1 || c->partition >= c->npartitions)
            return "--partition needs P/N with 0 <= P < N";
        return NULL;
    case OPT_RESULTS:
        c->results = v;
        return NULL;
    case OPT_CKPT_BUCKET:
        c->bucket = v;
        return NULL;
    case OPT_RUN_ID:
        c->run_id = v;
        return NULL;
    default:   /* OPT_CKPT_SECS, OPT_IDLE */
        x = strtod(v, &end);
        if (end == v || *end || !(x >= 0 && x < 1e9))
            return "--checkpoint-secs and --idle need a number of seconds";
        if (k == OPT_IDLE)
            c->idle = x;
        else
            c->checkpoint_secs = x > 0 ? x : -1;
        return NULL;
    }
}

/* --nats-publish (in: the events) or --nats (cfg: the matcher's): the
 * run's exit status, or 2 when not built in. */
static int nats_main(const char *prog, sremrt_nats_conf *c, @@PREFIX@@_config *cfg, FILE *in, int bin, int strict)
{
#ifdef SREMRT_NATS
    if (!cfg)
        return sremrt_nats_publish(c, &@@PREFIX@@_schema, @@ROUTE_ATTR@@, in, bin, strict);
    sremrt_nats *s = sremrt_nats_new(c);
    @@PREFIX@@_matcher *m = malloc(@@PREFIX@@_matcher_size());
    cfg->record = sremrt_nats_record;
    cfg->user = s;
    if (!s || !m || @@PREFIX@@_init(m, cfg) != 0) {
        fprintf(stderr, "%s: cannot set up the matcher (out of memory or runtime ABI mismatch)\n", prog);
        free(m);
        sremrt_nats_free(s);
        return 2;
    }
    sremrt_nats_matcher mt = {&@@PREFIX@@_schema, m, nats_push, nats_error, nats_state_size, nats_state_save,
                              nats_state_load};
    int rc = sremrt_nats_run(s, &mt);
    @@PREFIX@@_free(m);   /* no finish: the stream has no end, summaries would depend on when it stops */
    free(m);
    sremrt_nats_free(s);
    return rc;
#else
    (void)c, (void)cfg, (void)in, (void)bin, (void)strict;
    (void)nats_push, (void)nats_error, (void)nats_state_size, (void)nats_state_save, (void)nats_state_load;
    fprintf(stderr, "%s: NATS JetStream is not built in (sremc build found no libnats)\n", prog);
    return 2;
#endif
}

/* A program's checkpoint file: "SREMPROG", the input records read (events
 * given to the matcher and malformed lines) and the malformed ones, as
 * little-endian u64, then the matcher's state (NAME_state_save). */
enum { CKPT_HEAD = 24 };

static void put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* --checkpoint: the state after `records` input records into path.tmp,
 * flushed to the disk, then renamed over path, so path always holds a
 * whole checkpoint. 0, or -1 (reported). */
static int save_checkpoint(const char *prog, const char *path, const @@PREFIX@@_matcher *m, uint64_t records,
                           uint64_t bad)
{
    size_t n = @@PREFIX@@_state_size(m);
    unsigned char *buf = malloc(CKPT_HEAD + n);
    char tmp[4096];
    int rc = -1;
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        fprintf(stderr, "%s: %s: checkpoint path too long\n", prog, path);
        free(buf);
        return -1;
    }
    if (!buf) {
        fprintf(stderr, "%s: %s: out of memory for the checkpoint\n", prog, path);
        return -1;
    }
    memcpy(buf, "SREMPROG", 8);
    put_u64(buf + 8, records);
    put_u64(buf + 16, bad);
    int err = @@PREFIX@@_state_save(m, buf + CKPT_HEAD, n);
    FILE *f = err ? NULL : fopen(tmp, "wb");
    if (err)
        fprintf(stderr, "%s: %s: %s\n", prog, path, sremrt_state_strerror(err));
    else if (!f)
        perror(tmp);
    else {
        int ok = fwrite(buf, 1, CKPT_HEAD + n, f) == CKPT_HEAD + n && fflush(f) == 0;
#ifdef HAVE_FSYNC
        ok = ok && fsync(fileno(f)) == 0;
#endif
        ok = fclose(f) == 0 && ok;
        if (ok && rename(tmp, path) == 0)
            rc = 0;
        else {
            perror(path);
            remove(tmp);
        }
    }
    free(buf);
    return rc;
}

/* --restore: path's state into m (fresh from init), *records and *bad
 * from it. 0, or -1 (reported: missing, unreadable, corrupt, foreign). */
static int load_checkpoint(const char *prog, const char *path, @@PREFIX@@_matcher *m, uint64_t *records,
                           uint64_t *bad)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0;
    if (!f) {
        perror(path);
        return -1;
    }
    int bad_read = 0;
    for (;;) {   /* the whole file */
        if (len == cap) {
            unsigned char *more = realloc(buf, cap = cap ? 2 * cap : 65536);
            if (!more) {
                bad_read = 1;
                break;
            }
            buf = more;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    bad_read |= ferror(f) != 0;
    fclose(f);
    int err = bad_read ? 0 : len < CKPT_HEAD || memcmp(buf, "SREMPROG", 8) != 0
                                 ? SREMRT_STATE_EFORMAT : @@PREFIX@@_state_load(m, buf + CKPT_HEAD, len - CKPT_HEAD);
    if (bad_read)
        fprintf(stderr, "%s: %s: read error\n", prog, path);
    else if (err)
        fprintf(stderr, "%s: %s: cannot restore: %s\n", prog, path, sremrt_state_strerror(err));
    else {
        *records = get_u64(buf + 8);
        *bad = get_u64(buf + 16);
        const sremrt_stats *st = @@PREFIX@@_stats(m);   /* the records are the matcher's and the bad lines */
        if (*bad > *records || *records - *bad != st->events + st->rejected) {
            fprintf(stderr, "%s: %s: cannot restore: %s\n", prog, path, sremrt_state_strerror(SREMRT_STATE_EFORMAT));
            err = SREMRT_STATE_EFORMAT;
        }
    }
    free(buf);
    return bad_read || err ? -1 : 0;
}

static int bad_usage(const char *prog, const char *fmt, const char *what)
{
    fprintf(stderr, "%s: ", prog);
    fprintf(stderr, fmt, what);
    fprintf(stderr, "\nTry '%s --help' for more information.\n", prog);
    return 2;
}

int main(int argc, char **argv)
{
    const char *prog = argc > 0 && argv[0] ? argv[0] : "@@PREFIX@@";
    sremrt_format format = SREMRT_TEXT;
    size_t max_memory = 0;
    int bin = 0, events = 0, strict = 0, stats = 0, status = 0;
    const char *path = NULL;
    long num[NOPT] = {0};   /* numeric options given */
    int algo = SREMRT_EXPLORE_DEFAULT, trie = 0;
    const char *trie_dot = NULL, *convert = NULL, *checkpoint = NULL, *restore = NULL;
    sremrt_nats_conf nc = {0};
    int publish = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int k = 0;
        if (strcmp(a, "-h") == 0)
            a = "--help";
        while (k < NOPT && strcmp(a, options[k].name) != 0)
            k++;
        if (k == NOPT) {
            if ((a[0] != '-' || strcmp(a, "-") == 0) && !path) {
                path = a;
                continue;
            }
            return bad_usage(prog, a[0] == '-' ? "unknown option '%s'" : "unexpected operand '%s'", a);
        }
        const char *v = NULL;
        if (options[k].arg) {
            if (i + 1 >= argc)
                return bad_usage(prog, "option '%s' needs a value", a);
            v = argv[++i];
        }
        char *end = NULL;
        switch (k) {
        case OPT_FORMAT:
            if (strcmp(v, "text") != 0 && strcmp(v, "jsonl") != 0)
                return bad_usage(prog, "--format is text or jsonl, not '%s'", v);
            format = strcmp(v, "jsonl") == 0 ? SREMRT_JSONL : SREMRT_TEXT;
            break;
        case OPT_INPUT:
            if (strcmp(v, "csv") != 0 && strcmp(v, "bin") != 0)
                return bad_usage(prog, "--input is csv or bin, not '%s'", v);
            bin = strcmp(v, "bin") == 0;
            break;
        case OPT_EVENTS:
            events = 1;
            break;
        case OPT_STRICT:
            strict = 1;
            break;
        case OPT_STATS:
            stats = 1;
            break;
        case OPT_MAX_KEYS:
        case OPT_MAX_RUNS:
        case OPT_CHECKPOINT_EVERY:
        case OPT_DISTINCT_BUDGET:
        case OPT_OCCMAP_CAP:
        case OPT_EXPLORE_CAP: {
            errno = 0;
            long n = strtol(v, &end, 10);
            if (end == v || *end || errno || n < 1 || n > options[k].max) {
                char msg[160];
                snprintf(msg, sizeof msg, "%s needs an integer from 1 to %ld, not '%.40s'", a, options[k].max, v);
                return bad_usage(prog, "%s", msg);
            }
            num[k] = n;
            break;
        }
        case OPT_MAX_MEMORY:
            if ((max_memory = parse_bytes(v)) == 0)
                return bad_usage(prog, "--max-memory needs a positive number of bytes (suffix K, M or G), not '%s'", v);
            break;
        case OPT_EXPLORE_ALGO:
            if ((algo = sremrt_explore_algo_parse(v)) < 0)
                return bad_usage(prog, "--explore-algo is default, bf, rc or ic, not '%s'", v);
            break;
        case OPT_TRIE:
            trie = 1;
            break;
        case OPT_TRIE_DOT:
            trie_dot = v;
            break;
        case OPT_CONVERT_BIN:
            convert = v;
            break;
        case OPT_PARTITIONS:
        case OPT_BATCH: {
            long n = strtol(v, &end, 10);
            if (end == v || *end || n < 1 || n > options[k].max)
                return bad_usage(prog, "%s needs a positive integer in range", a);
            *(k == OPT_BATCH ? &nc.batch : &nc.npartitions) = (int)n;
            break;
        }
        case OPT_NATS: case OPT_STREAM: case OPT_PARTITION: case OPT_RESULTS: case OPT_CKPT_BUCKET:
        case OPT_CKPT_SECS: case OPT_IDLE: case OPT_NATS_PUBLISH: case OPT_RUN_ID: {
            const char *why = nats_option(k, v, &nc);
            if (why)
                return bad_usage(prog, "%s", why);
            publish |= k == OPT_NATS_PUBLISH;
            break;
        }
        case OPT_CHECKPOINT:
            checkpoint = v;
            break;
        case OPT_RESTORE:
            restore = v;
            break;
        case OPT_HELP:
            usage(stdout, prog);
            return 0;
        default: /* OPT_VERSION */
            printf("%s: the patterns of @@SOURCE@@, generated by sremc @@VERSION@@ (runtime ABI %d)\n",
                   prog, SREMRT_ABI_VERSION);
            return 0;
        }
    }
    nc.prog = prog;
    nc.format = format;
    nc.events = events;
    nc.csv = !bin;
    if (nc.urls && (!nc.stream || (!publish && !nc.npartitions)))
        return bad_usage(prog, "%s", publish ? "--nats-publish needs --stream" : "--nats needs --stream and --partition");
    if (!nc.urls && (nc.stream || nc.npartitions))
        return bad_usage(prog, "%s", "--stream, --partition, --partitions: only with --nats or --nats-publish");
    if (nc.urls && (checkpoint || restore || convert))
        return bad_usage(prog, "%s", "--nats and --nats-publish keep no --checkpoint or --restore file and convert nothing");
    if (nc.urls && !publish && path)
        return bad_usage(prog, "--nats reads no FILE ('%s'): its input is the partition's stream", path);
    if (publish && !nc.npartitions)
        nc.npartitions = 1;
    if (num[OPT_CHECKPOINT_EVERY] && !checkpoint)
        return bad_usage(prog, "%s needs --checkpoint FILE", "--checkpoint-every");
    if (convert && (checkpoint || restore))
        return bad_usage(prog, "%s matches nothing: no --checkpoint or --restore with it", "--convert-bin");
    FILE *in = stdin;
    if (path && strcmp(path, "-") != 0 && !(in = fopen(path, bin ? "rb" : "r"))) {
        perror(path);
        return 2;
    }
    if (publish) {
        int rc = nats_main(prog, &nc, NULL, in, bin, strict);
        if (in != stdin)
            fclose(in);
        return rc;
    }
    if (convert) {
        int rc = convert_bin(convert, in, bin, format, strict);
        if (in != stdin)
            fclose(in);
        return rc;
    }
    FILE *dot = NULL;   /* opened before any input is read: a bad path costs nothing */
    if (trie_dot && !(dot = fopen(trie_dot, "w"))) {
        perror(trie_dot);
        if (in != stdin)
            fclose(in);
        return 2;
    }

    output out = {format, events, 0, 0};
    sremrt_alloc hook = sremrt_alloc_malloc();
    sremrt_alloc_limit limit;   /* --max-memory: the matcher's memory, not the reader's */
    sremrt_alloc_limit_init(&limit, &hook, max_memory);
    @@PREFIX@@_config cfg;
    @@PREFIX@@_config_default(&cfg);
    cfg.record = write_record;
    cfg.user = &out;
    cfg.alloc = sremrt_alloc_limit_hook(&limit);
    if (num[OPT_MAX_KEYS])
        cfg.max_keys = (int32_t)num[OPT_MAX_KEYS];
    if (num[OPT_MAX_RUNS])
        cfg.max_runs = (int32_t)num[OPT_MAX_RUNS];
    cfg.distinct_budget = (int32_t)num[OPT_DISTINCT_BUDGET];
    cfg.occmap_cap = (int32_t)num[OPT_OCCMAP_CAP];
    cfg.explore_algo = algo;
    cfg.explore_cap = num[OPT_EXPLORE_CAP];
    if (nc.urls)
        return nats_main(prog, &nc, &cfg, NULL, bin, strict);
    @@PREFIX@@_matcher *m = malloc(@@PREFIX@@_matcher_size());
    if (!m || @@PREFIX@@_init(m, &cfg) != 0) {
        fprintf(stderr, "%s: cannot set up the matcher (out of memory or runtime ABI mismatch)\n", argv[0]);
        return 2;
    }
    sremrt_csv csv;
    sremrt_bin br;
    uint64_t bad = 0;   /* malformed lines: the matcher counts the rest */
    uint64_t records = 0, skip = 0;   /* input records read; --restore: the first skip of them were */
    if (restore && load_checkpoint(prog, restore, m, &skip, &bad) != 0) {
        @@PREFIX@@_free(m);
        free(m);
        if (in != stdin)
            fclose(in);
        if (dot)
            fclose(dot);
        return 2;
    }
    double start = sremrt_clock_seconds();
    if (bin) {
        sremrt_bin_open(&br, &@@PREFIX@@_schema, in);
    } else if (sremrt_csv_open(&csv, &@@PREFIX@@_schema, in, NULL, &hook) != 0) {
        sremrt_write_error(stderr, format, sremrt_csv_line(&csv), sremrt_csv_message(&csv));
        flush_out(&out);
        @@PREFIX@@_free(m);   /* the reader freed its own buffers */
        free(m);
        if (in != stdin)
            fclose(in);
        if (dot)
            fclose(dot);
        return 3;
    }
    while (!out.failed) {   /* a write error on the output ends the run */
        @@PREFIX@@_event e;
        int rc = bin ? sremrt_bin_next(&br, &e) : sremrt_csv_next(&csv, &e);
        int64_t line = bin ? sremrt_bin_line(&br) : sremrt_csv_line(&csv);
        if (rc == SREMRT_READ_END)
            break;
        if (rc != SREMRT_READ_FATAL && ++records <= skip)
            continue;   /* --restore: the checkpoint has it (and its error record was written) */
        if (rc != SREMRT_READ_EVENT || @@PREFIX@@_push(m, &e) != 0) {
            flush_out(&out);
            if (rc == SREMRT_READ_EVENT) {
                sremrt_write_error(stderr, format, line, @@PREFIX@@_error(m));
            } else {
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
        if (num[OPT_CHECKPOINT_EVERY] && records % (uint64_t)num[OPT_CHECKPOINT_EVERY] == 0) {
            flush_out(&out);   /* the records before it are out when it is */
            if (save_checkpoint(prog, checkpoint, m, records, bad) != 0) {
                status = 3;   /* a run that cannot keep its checkpoints stops */
                checkpoint = NULL;
                break;
            }
        }
    }
    if (records < skip) {
        fprintf(stderr, "%s: %s: the input has %llu records, fewer than the checkpoint's %llu\n", prog,
                restore, (unsigned long long)records, (unsigned long long)skip);
        status = 2;
    } else if (checkpoint) {   /* the state after the last record, before finish's summaries */
        flush_out(&out);
        if (save_checkpoint(prog, checkpoint, m, records, bad) != 0)
            status = 3;
    }
    @@PREFIX@@_finish(m);
    flush_out(&out);   /* records before the report on a shared terminal */
    if (trie) {
        char buf[4096];
        sremrt_sink s;
        sremrt_sink_init_file(&s, buf, sizeof buf, stdout);
        @@PREFIX@@_trie_emit(m, &s, 0);
        sremrt_sink_end(&s);
    }
    if (dot) {
        int bad_dot = @@PREFIX@@_trie_dot(m, dot) != 0;
        if (fclose(dot) != 0 || bad_dot) {
            perror(trie_dot);
            status = 3;
        }
    }
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
    return check_output(prog, &out) == 0 ? status : 3;
}
