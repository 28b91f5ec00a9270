@@# main.c.tpl: the main that `sremc build` adds, NAME_main.c (cg_emit_main in
@@# compiler/codegen/cg_emit.c fills it; syntax: templates/README.md). Holes:
@@#   PREFIX   the matcher's prefix;  HEADER: its .h
@@#   SOURCE   the .srem file's name, fit for a C string and a comment
@@#   VERSION  sremc's version (--version of the program)
@@#   ROUTE_ATTR the attribute every declaration is partitioned by, or -1
/* @@PREFIX@@_main.c: the program `sremc build` wraps around @@HEADER@@:
 * events from CSV, JSON Lines or binary input -> records (docs/language.md
 * section 6). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* pthreads (--threads); fsync and fileno for checkpoints */
#endif
#include <errno.h>
#include <pthread.h>
#ifdef __GLIBC__
#include <stdio_ext.h>   /* __fsetlocking */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "@@HEADER@@"
#include "sremrt/fc_model.h"
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
    OPT_CONVERT_BIN, OPT_THREADS, OPT_CHECKPOINT, OPT_CHECKPOINT_EVERY, OPT_RESTORE, OPT_FORECAST_EMIT,
    OPT_FORECAST_STATS, OPT_TRAIN_FIRST, OPT_FC_TRAIN, OPT_MAX_DELAY,
    OPT_NATS, OPT_STREAM, OPT_PARTITION, OPT_RESULTS, OPT_CKPT_BUCKET, OPT_CKPT_SECS,
    OPT_IDLE, OPT_NATS_PUBLISH, OPT_PARTITIONS, OPT_BATCH, OPT_RUN_ID, OPT_FLUSH_ABSENT, NOPT
};
static const struct option_spec {
    const char *name, *arg, *help;
    long max;   /* numeric options: largest value accepted */
} options[NOPT] = {
    {"--format", "text|jsonl", "record format: text (default, for people) or jsonl (one JSON object a line)", 0},
    {"--input", "csv|jsonl|bin", "event input: csv (default; a header line naming the attributes),\n"
                                 "jsonl (one JSON object a line) or bin (raw @@PREFIX@@_event records)", 0},
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
    {"--threads", "N", "match on N threads (default 1), the keys of partitioned declarations\n"
                       "spread over them; the same records as on one; the rest runs on the\n"
                       "first; --max-keys, --max-memory, --checkpoint, --restore,\n"
                       "--forecast-stats, --train-first, --max-delay: one thread", 256},
    {"--checkpoint", "FILE", "save the matcher's state to FILE (atomically: FILE.tmp, then renamed)\n"
                             "at the end of input, and every N records with --checkpoint-every", 0},
    {"--checkpoint-every", "N", "with --checkpoint: also every N input records", 2147483647L},
    {"--restore", "FILE", "start from the checkpoint in FILE: its first k input records (k\n"
                          "saved in it) are skipped, the rest matched as if never stopped", 0},
    {"--forecast-emit", "changes|every", "forecast patterns: a forecast record when the key's forecast\n"
                                         "changes (default), or after every event", 0},
    {"--forecast-stats", NULL, "forecast patterns: score every event's forecast against the key's\n"
                               "next detection and end with a forecast_summary record each", 0},
    {"--train-first", "N", "forecast patterns compiled without --model: learn on the first N\n"
                           "events, then forecast with the tables learned", 1L << 62},
    {"--fc-train", "MODEL", "instead of matching, count the symbols of the forecast patterns and\n"
                            "write the model to MODEL (what 'sremc train' runs)", 0},
    {"--max-delay", "D", "accept events up to D late (D in the timestamp's unit, or with a\n"
                         "unit: 2s, 500ms): held back and fed to the patterns in timestamp\n"
                         "order once an event more than D later arrives", 0},
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
    {"--flush-absent", NULL, "patterns with 'absent': at the end of input, an absent record for\n"
                             "each match whose window is still open and unmet", 0},
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
struct fctrain;
struct fcscore;

typedef struct output {
    sremrt_format format;
    int events;   /* --events: match records carry their events */
    int failed;   /* a write to standard output failed */
    int err;      /* its errno */
    struct fctrain *train;   /* --fc-train */
    struct fcscore *stats;     /* --forecast-stats */
} output;

static int fcscore_record(output *o, const sremrt_record *r);

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

/* r as written: the matcher fills r->schema, and only --events writes
 * the events it describes (else a copy without it, in *copy). */
static const sremrt_record *visible(const output *o, const sremrt_record *r, sremrt_record *copy)
{
    if (!r->schema || o->events)
        return r;
    *copy = *r;
    copy->schema = NULL;
    return copy;
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
    if (o->stats && fcscore_record(o, r))
        return;   /* a forecast that did not change, or a match it scored */
    r = visible(o, r, &copy);
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

/* The event reader of --input: one event at a time (bin at speed: run_bin). */
enum { INPUT_CSV, INPUT_JSONL, INPUT_BIN };
typedef struct reader {
    int kind;
    sremrt_csv csv;
    sremrt_jsonl jsonl;
    sremrt_bin bin;
} reader;

/* 0, or SREMRT_READ_FATAL (a refused CSV header, no memory) with
 * reader_line and reader_message set and nothing left to close. */
static int reader_open(reader *rd, int kind, FILE *in)
{
    sremrt_alloc hook = sremrt_alloc_malloc();
    rd->kind = kind;
    if (kind == INPUT_BIN) {
        sremrt_bin_open(&rd->bin, &@@PREFIX@@_schema, in);
        return 0;
    }
    if (kind == INPUT_JSONL)
        return sremrt_jsonl_open(&rd->jsonl, &@@PREFIX@@_schema, in, NULL, &hook);
    return sremrt_csv_open(&rd->csv, &@@PREFIX@@_schema, in, NULL, &hook);
}

static int reader_next(reader *rd, @@PREFIX@@_event *e)
{
    return rd->kind == INPUT_BIN ? sremrt_bin_next(&rd->bin, e)
         : rd->kind == INPUT_JSONL ? sremrt_jsonl_next(&rd->jsonl, e) : sremrt_csv_next(&rd->csv, e);
}

static int64_t reader_line(const reader *rd)
{
    return rd->kind == INPUT_BIN ? sremrt_bin_line(&rd->bin)
         : rd->kind == INPUT_JSONL ? sremrt_jsonl_line(&rd->jsonl) : sremrt_csv_line(&rd->csv);
}

static const char *reader_message(const reader *rd)
{
    return rd->kind == INPUT_BIN ? sremrt_bin_message(&rd->bin)
         : rd->kind == INPUT_JSONL ? sremrt_jsonl_message(&rd->jsonl) : sremrt_csv_message(&rd->csv);
}

static void reader_close(reader *rd)
{
    if (rd->kind == INPUT_JSONL)
        sremrt_jsonl_close(&rd->jsonl);
    else if (rd->kind == INPUT_CSV)
        sremrt_csv_close(&rd->csv);
}

/* --input bin: the records in place (read in blocks)
 * in runs to push_many; the error records and exit status of the loop in
 * main, which reads every other input. */
static int run_bin(@@PREFIX@@_matcher *m, FILE *in, output *out, int strict, uint64_t *bad)
{
    sremrt_alloc hook = sremrt_alloc_malloc();
    sremrt_bin_blocks br;
    int rc = sremrt_bin_blocks_open(&br, &@@PREFIX@@_schema, in, &hook);
    while (rc != SREMRT_READ_END && !out->failed) {
        const void *run;
        size_t n = 0, done = 0;
        if (rc != SREMRT_READ_FATAL)
            rc = sremrt_bin_blocks_next(&br, &run, &n);
        while (rc == SREMRT_READ_EVENT && (done += @@PREFIX@@_push_many(m, (const @@PREFIX@@_event *)run + done, n - done)) < n) {
            flush_out(out);   /* event done was rejected: why, then go on after it */
            sremrt_write_error(stderr, out->format, sremrt_bin_blocks_line(&br) + (int64_t)done, @@PREFIX@@_error(m));
            done++;
            if (strict) {
                sremrt_bin_blocks_close(&br);
                return 3;
            }
        }
        if (rc == SREMRT_READ_BAD || rc == SREMRT_READ_FATAL) {
            flush_out(out);
            sremrt_write_error(stderr, out->format, sremrt_bin_blocks_line(&br), sremrt_bin_blocks_message(&br));
            (*bad)++;
            if (rc == SREMRT_READ_FATAL || strict) {
                sremrt_bin_blocks_close(&br);
                return 3;
            }
        }
    }
    sremrt_bin_blocks_close(&br);
    return 0;
}

/* --convert-bin: the events of in (CSV, JSONL, or bin with --input bin) as raw
 * @@PREFIX@@_event records into out_path, without matching. A line the
 * reader or the timestamp rule rejects gets its error record, as in a
 * matching run, and is left out: `--input bin` on the output then gives
 * the records of the CSV run, with the same indices. Exit status as for
 * matching; OUT not writable: 2 before reading, a write error: 3. */
static int convert_bin(const char *out_path, FILE *in, int input, sremrt_format format, int strict)
{
    FILE *out = strcmp(out_path, "-") == 0 ? stdout : fopen(out_path, "wb");
    if (!out) {
        perror(out_path);
        return 2;
    }
    reader rd;
    sremrt_tsorder order;
    char why[128];
    int status = 0, wrote = 1;
    sremrt_tsorder_init(&order);
    int opened = reader_open(&rd, input, in) == 0;
    int rc = opened ? SREMRT_READ_EVENT : SREMRT_READ_FATAL;
    while (rc != SREMRT_READ_END && wrote && !(status && strict)) {
        @@PREFIX@@_event e;
        const char *msg = why;
        if (rc != SREMRT_READ_FATAL)
            rc = reader_next(&rd, &e);
        if (rc == SREMRT_READ_EVENT && sremrt_tsorder_event(&order, &@@PREFIX@@_schema, &e, why, sizeof why) == 0)
            wrote = fwrite(&e, sizeof e, 1, out) == 1;
        else if (rc != SREMRT_READ_END) {
            if (rc != SREMRT_READ_EVENT)
                msg = reader_message(&rd);
            sremrt_write_error(stderr, format, reader_line(&rd), msg);
            status = 3;
            if (rc == SREMRT_READ_FATAL)
                break;
        }
    }
    if (opened)
        reader_close(&rd);
    if (fflush(out) != 0 || ferror(out) || !wrote || (out != stdout && fclose(out) != 0)) {
        perror(out_path);
        status = 3;
    }
    return status;
}

/* ---- --threads: shards of the partition keys, one matcher per thread ---- */

/* The reader hands the workers batches of this many events (tests build
 * with -DSREMC_BATCH_EVENTS=5 to cross many batches); NSLOTS batches are
 * in flight (read, matched, merged). */
#ifndef SREMC_BATCH_EVENTS
#define SREMC_BATCH_EVENTS 4096
#endif
#define BATCH_EVENTS SREMC_BATCH_EVENTS
#define NSLOTS 4

/* A growing byte buffer: records as text, each after its rec_head. */
typedef struct text_buf {
    char *p;
    size_t len, cap;
    int oom;   /* a record did not fit in memory */
} text_buf;

/* Before each record's text: where it goes in the single-thread order
 * (major, then minor), its length and its stream. */
typedef struct rec_head {
    int64_t major, minor;
    uint32_t len;
    uint32_t to_stderr;
} rec_head;

static void text_put(void *ctx, const char *p, size_t n)
{
    text_buf *b = (text_buf *)ctx;
    if (b->len + n > b->cap && !b->oom) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n)
            cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q)
            b->oom = 1;
        else {
            b->p = q;
            b->cap = cap;
        }
    }
    if (!b->oom) {
        memcpy(b->p + b->len, p, n);
        b->len += n;
    }
}

/* Appends one record, keyed, to b. */
static void text_record(text_buf *b, sremrt_format format, int64_t major, int64_t minor, const sremrt_record *r)
{
    char buf[256];
    sremrt_sink s;
    rec_head h = {major, minor, 0, r->kind == SREMRT_ERROR};
    size_t at = b->len;
    text_put(b, (const char *)&h, sizeof h);
    sremrt_sink_init_flush(&s, buf, sizeof buf, text_put, b);
    sremrt_record_emit(&s, format, r);
    sremrt_sink_end(&s);
    if (!b->oom) {
        h.len = (uint32_t)(b->len - at - sizeof h);
        memcpy(b->p + at, &h, sizeof h);
    }
}

/* One batch of events and, per worker, the records it made of them. */
typedef struct slot {
    @@PREFIX@@_event ev[BATCH_EVENTS];
    size_t n;
    int pending;     /* workers still on it */
    text_buf *out;   /* [threads] */
    text_buf errs;   /* error records of lines after its events (rec_head'ed) */
} slot;

typedef struct pool pool;

typedef struct worker {
    pool *pool;      /* NULL: one thread, records written at once */
    output *out;
    int id;
    int finishing;   /* finish: summaries and overflows, keyed by declaration */
    @@PREFIX@@_matcher *m;
    text_buf *cur;   /* where its records go now */
    pthread_t thread;
} worker;

struct pool {
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    uint64_t published;   /* batches handed out: batch b is in slots[b % NSLOTS] */
    int quit;
    int threads;
    slot *slots;          /* [NSLOTS] */
    worker **w;           /* [threads]; w[0] the caller's */
    @@PREFIX@@_matcher **m;   /* [threads]; m[0] the caller's */
};

/* A worker's record callback: the record as text into its buffer, keyed
 * by the single-thread order: during push, index then declaration (the
 * records of one event and declaration all come from one worker); at the
 * end, declaration then the partition's first event, overflow records
 * last. */
static void shard_record(void *user, const sremrt_record *r)
{
    worker *w = (worker *)user;
    sremrt_record copy;
    if (!w->pool) {
        write_record(w->out, r);
        return;
    }
    r = visible(w->out, r, &copy);
    if (!w->finishing)
        text_record(w->cur, w->out->format, r->index, r->decl, r);
    else if (r->kind == SREMRT_ERROR)
        text_record(w->cur, w->out->format, INT64_MAX, r->decl, r);
    else
        text_record(w->cur, w->out->format, r->decl, r->index, r);
}

static void *worker_main(void *arg)
{
    worker *w = (worker *)arg;
    pool *p = w->pool;
    for (uint64_t b = 0;; b++) {
        pthread_mutex_lock(&p->mu);
        while (p->published <= b && !p->quit)
            pthread_cond_wait(&p->work, &p->mu);
        int stop = p->published <= b;
        pthread_mutex_unlock(&p->mu);
        if (stop)
            return NULL;
        slot *s = &p->slots[b % NSLOTS];
        w->cur = &s->out[w->id];
        @@PREFIX@@_push_many(w->m, s->ev, s->n);   /* the reader took out what goes backwards */
        pthread_mutex_lock(&p->mu);
        if (--s->pending == 0)
            pthread_cond_signal(&p->done);
        pthread_mutex_unlock(&p->mu);
    }
}

/* Writes the keyed records of bufs[0..n-1] (each in key order) in key
 * order, as write_record would have; empties them. */
static void merge_write(output *o, text_buf *bufs, int n)
{
    size_t at[256] = {0};
    int lost = 0;
    for (int i = 0; i < n; i++)
        lost |= bufs[i].oom;
    while (!lost) {
        int best = -1;
        rec_head h, bh = {0, 0, 0, 0};
        for (int i = 0; i < n; i++) {
            if (at[i] >= bufs[i].len)
                continue;
            memcpy(&h, bufs[i].p + at[i], sizeof h);
            if (best < 0 || h.major < bh.major || (h.major == bh.major && h.minor < bh.minor)) {
                best = i;
                bh = h;
            }
        }
        if (best < 0)
            break;
        const char *text = bufs[best].p + at[best] + sizeof bh;
        at[best] += sizeof bh + bh.len;
        if (bh.to_stderr) {
            flush_out(o);   /* the records before it first, on a shared terminal */
            fwrite(text, 1, bh.len, stderr);
            continue;
        }
        errno = 0;
        if (fwrite(text, 1, bh.len, stdout) != bh.len && !o->failed) {
            o->failed = 1;
            o->err = errno;
        }
    }
    if (lost && !o->failed) {   /* records lost (a buffer cut mid-record): the run ends */
        o->failed = 1;
        o->err = ENOMEM;
    }
    for (int i = 0; i < n; i++) {
        bufs[i].len = 0;
        bufs[i].oom = 0;
    }
}

/* Waits for batch b's workers, then writes its records and error records. */
static void drain(pool *p, output *o, uint64_t b)
{
    slot *s = &p->slots[b % NSLOTS];
    pthread_mutex_lock(&p->mu);
    while (s->pending > 0)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
    merge_write(o, s->out, p->threads);
    merge_write(o, &s->errs, 1);
    s->n = 0;
}

static void publish(pool *p, slot *s)
{
    pthread_mutex_lock(&p->mu);
    s->pending = p->threads;
    p->published++;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
}

/* The error record of a rejected line, after the events already batched. */
static void batch_error(slot *s, sremrt_format format, int64_t line, const char *message)
{
    sremrt_record r;
    memset(&r, 0, sizeof r);
    r.kind = SREMRT_ERROR;
    r.line = line;
    r.message = message;
    text_record(&s->errs, format, 0, 0, &r);
}

/* The input, read in this thread and matched by p's workers: the events
 * in batches (a rejected line ends one: its error record comes after the
 * records of the events before it), each batch's records written in the
 * single-thread order once every worker is done with it. Returns the
 * exit status of the input (3: a line rejected under --strict or a fatal
 * error), *bad the lines rejected. */
static int shard_read(pool *p, output *o, reader *rd, int strict, uint64_t *bad)
{
    sremrt_tsorder order;
    uint64_t filling = 0, merged = 0;
    int status = 0, more = 1;
    sremrt_tsorder_init(&order);
    while (more && !o->failed) {
        if (filling - merged == NSLOTS)
            drain(p, o, merged++);
        slot *s = &p->slots[filling % NSLOTS];
        while (s->n < BATCH_EVENTS) {
            @@PREFIX@@_event *e = &s->ev[s->n];
            char why[96];   /* as the matcher's error */
            int rc = reader_next(rd, e);
            int64_t line = reader_line(rd);
            if (rc == SREMRT_READ_END) {
                more = 0;
                break;
            }
            if (rc == SREMRT_READ_EVENT && s->errs.len > 0) {
                /* the error records stay after this batch's records: the event starts the next */
                slot *next = &p->slots[(filling + 1) % NSLOTS];
                publish(p, s);
                if (++filling - merged == NSLOTS)
                    drain(p, o, merged++);
                next->ev[0] = *e;
                s = next;
                e = &s->ev[0];
            }
            if (rc == SREMRT_READ_EVENT && sremrt_tsorder_event(&order, &@@PREFIX@@_schema, e, why, sizeof why) == 0) {
                s->n++;
                continue;
            }
            batch_error(s, o->format, line, rc == SREMRT_READ_EVENT ? why : reader_message(rd));
            ++*bad;
            if (rc == SREMRT_READ_FATAL || strict) {
                status = 3;
                more = 0;
                break;
            }
        }
        publish(p, s);
        filling++;
    }
    while (merged < filling)
        drain(p, o, merged++);
    return status;
}

/* Stops p's workers (after the batches published) and waits for them. */
static void stop_workers(pool *p, int started)
{
    pthread_mutex_lock(&p->mu);
    p->quit = 1;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < started; i++)
        pthread_join(p->w[i]->thread, NULL);
}

/* Gives back what run_sharded took (not lead nor its matcher). */
static void pool_free(pool *p)
{
    for (int i = 1; p->m && p->w && i < p->threads; i++) {
        if (p->m[i]) {
            @@PREFIX@@_free(p->m[i]);
            free(p->m[i]);
        }
        free(p->w[i]);
    }
    for (int k = 0; p->slots && k < NSLOTS; k++) {
        for (int i = 0; p->slots[k].out && i < p->threads; i++)
            free(p->slots[k].out[i].p);
        free(p->slots[k].out);
        free(p->slots[k].errs.p);
    }
    free(p->slots);
    free(p->w);
    free(p->m);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->done);
}

/* Sets up threads - 1 more matchers beside m (lead's, its shard 0 set),
 * each with its thread. 0, or -1 (p freed) when memory or a thread is
 * refused. */
static int pool_start(pool *p, int threads, const @@PREFIX@@_config *cfg, @@PREFIX@@_matcher *m, worker *lead)
{
    memset(p, 0, sizeof *p);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    p->threads = threads;
    p->slots = calloc(NSLOTS, sizeof *p->slots);
    p->w = calloc((size_t)threads, sizeof *p->w);
    p->m = calloc((size_t)threads, sizeof *p->m);
    int ok = p->slots && p->w && p->m;
    for (int k = 0; ok && k < NSLOTS; k++)
        ok = (p->slots[k].out = calloc((size_t)threads, sizeof *p->slots[k].out)) != NULL;
    if (ok) {
        p->w[0] = lead;
        p->m[0] = m;
    }
    for (int i = 1; ok && i < threads; i++) {
        @@PREFIX@@_config c = *cfg;
        @@PREFIX@@_matcher *mi = malloc(@@PREFIX@@_matcher_size());
        c.user = p->w[i] = calloc(1, sizeof *p->w[i]);
        c.alloc = sremrt_alloc_malloc();   /* no --max-memory here: no shared count */
        if (!mi || !p->w[i]) {
            free(mi);
            ok = 0;
            break;
        }
        *p->w[i] = (worker){.pool = p, .out = lead->out, .id = i, .m = mi};
        ok = @@PREFIX@@_init(mi, &c) == 0 && @@PREFIX@@_set_shard(mi, i, threads) == 0;
        p->m[i] = mi;   /* init failed or not, free gives its memory back */
    }
    int started = 0;
    if (ok) {
        lead->pool = p;
        for (; started < threads; started++)
            if (pthread_create(&p->w[started]->thread, NULL, worker_main, p->w[started]) != 0)
                break;
    }
    if (ok && started == threads)
        return 0;
    stop_workers(p, started);
    lead->pool = NULL;
    pool_free(p);
    return -1;
}

/* With threads, stdio locks each stream at each call, a getc per byte for
 * the CSV reader; only this thread does I/O, so where the C library can,
 * it leaves the locking out. */
static void stdio_unlocked(FILE *in)
{
#ifdef __GLIBC__
    __fsetlocking(in, FSETLOCKING_BYCALLER);
    __fsetlocking(stdout, FSETLOCKING_BYCALLER);
    __fsetlocking(stderr, FSETLOCKING_BYCALLER);
#else
    (void)in;
#endif
}

/* --threads: the input matched on p's threads, then the end of the run
 * (finish_shards); its records in the single-thread order. Returns
 * shard_read's status. */
static int run_sharded(pool *p, output *o, reader *rd, int strict, uint64_t *bad)
{
    int status = shard_read(p, o, rd, strict, bad);
    stop_workers(p, p->threads);
    for (int i = 0; i < p->threads; i++) {   /* the batches are written: their buffers are free */
        p->w[i]->finishing = 1;
        p->w[i]->cur = &p->slots[0].out[i];
    }
    @@PREFIX@@_finish_shards(p->m, p->threads);
    merge_write(o, p->slots[0].out, p->threads);
    p->w[0]->pool = NULL;
    pool_free(p);
    return status;
}

/* Whether the schema has a string attribute: --nats refuses it (a string
 * travels as an id of one matcher's table, which a publisher does not
 * share). */
static int schema_has_strings(void)
{
    for (int a = 0; a < @@PREFIX@@_schema.nattrs; a++)
        if (@@PREFIX@@_schema.attrs[a].type == SREMRT_STRING)
            return 1;
    return 0;
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

/* --fc-train: per forecast pattern, its counts and, per substream (slot),
 * its last symbols newest first; the matcher hands each event's symbol. */
typedef struct fctrain_ring {
    uint16_t recent[SREMRT_FC_MAX_ORDER + 1];
    uint32_t len;
} fctrain_ring;

typedef struct fctrain {
    const @@PREFIX@@_forecast_info *info;
    int32_t n;
    sremrt_fc_counts **counts;   /* [n] */
    fctrain_ring **rings;             /* [n][cap[p]] */
    int32_t *cap;
    int failed;                  /* out of memory */
} fctrain;

static void fctrain_symbol(fctrain *t, int32_t decl, int32_t slot, uint32_t symbol)
{
    int32_t p = 0;
    while (p < t->n && t->info[p].decl != decl)
        p++;
    if (p == t->n || slot < 0)
        return;
    if (slot >= t->cap[p]) {   /* a new key: the rings double */
        int32_t cap = t->cap[p] ? t->cap[p] : 8;
        while (cap <= slot)
            cap *= 2;
        fctrain_ring *r = realloc(t->rings[p], (size_t)cap * sizeof *r);
        if (!r) {
            t->failed = 1;
            return;
        }
        memset(r + t->cap[p], 0, (size_t)(cap - t->cap[p]) * sizeof *r);
        t->rings[p] = r;
        t->cap[p] = cap;
    }
    fctrain_ring *r = &t->rings[p][slot];
    uint32_t keep = t->info[p].order + 1;
    memmove(r->recent + 1, r->recent, (keep - 1) * sizeof r->recent[0]);
    r->recent[0] = (uint16_t)symbol;
    if (r->len < keep)
        r->len++;
    if (sremrt_fc_counts_add(t->counts[p], r->recent, r->len) != 0)
        t->failed = 1;
}

static int fctrain_setup(fctrain *t)
{
    memset(t, 0, sizeof *t);
    t->n = @@PREFIX@@_forecast_patterns(&t->info);
    t->counts = calloc((size_t)t->n + 1, sizeof *t->counts);
    t->rings = calloc((size_t)t->n + 1, sizeof *t->rings);
    t->cap = calloc((size_t)t->n + 1, sizeof *t->cap);
    if (!t->counts || !t->rings || !t->cap)
        return -1;
    for (int32_t p = 0; p < t->n; p++)
        if (!(t->counts[p] = sremrt_fc_counts_new(t->info[p].nsym, t->info[p].order)))
            return -1;
    return 0;
}

/* The model file: 0, or -1 (reported) when it cannot be written. */
static int fctrain_write(const fctrain *t, const char *path)
{
    FILE *f = fopen(path, "w");
    int rc = f && !t->failed ? sremrt_fc_model_begin(f) : -1;
    for (int32_t p = 0; p < t->n && rc == 0; p++)
        rc = sremrt_fc_model_pattern(f, t->info[p].name, t->info[p].hash, t->counts[p]);
    if (rc == 0)
        rc = sremrt_fc_model_end(f);
    if (f && fclose(f) != 0)
        rc = -1;
    if (rc != 0)
        fprintf(stderr, "%s: %s\n", path, t->failed ? "out of memory while counting" : strerror(errno));
    return rc;
}

/* --train-first: the tables of every pattern compiled without them, from
 * the counts so far (the forecasting core, as sremc does it at compile
 * time), handed to the matcher; flats[p] keeps them. The number of
 * patterns that got tables, or -1 (reported) on an error. */
static int fctrain_tables(fctrain *t, @@PREFIX@@_matcher *m, sremrt_fc_flat **flats, const char *prog)
{
    int done = 0;
    for (int32_t p = 0; p < t->n; p++) {
        const @@PREFIX@@_forecast_info *f = &t->info[p];
        if (f->tables || !f->next)
            continue;
        sremrt_fc_params pp;
        sremrt_fc_params_default(&pp);
        pp.order = f->order;
        pp.pmin = f->pmin;
        pp.alpha = f->alpha;
        pp.gamma = f->gamma;
        pp.r = f->r;
        sremrt_fc_spec spec;
        memset(&spec, 0, sizeof spec);
        spec.kind = f->within ? SREMRT_FC_WITHIN : SREMRT_FC_INTERVAL;
        spec.theta = f->theta;
        spec.horizon = f->horizon;
        spec.max_spread = f->max_spread;
        spec.k = f->k;
        sremrt_fc_automaton a = {f->nstates, f->nsym, 0, f->next, f->final};
        char err[256] = "out of memory";
        sremrt_fc_pst *pst = sremrt_fc_pst_learn(t->counts[p], &pp, err, sizeof err);
        sremrt_fc_ctx *x = pst ? sremrt_fc_ctx_build(pst, 4096) : NULL;
        sremrt_fc_table *tb = x ? sremrt_fc_table_build(&a, x, &spec) : NULL;
        flats[p] = tb ? sremrt_fc_flatten(x, tb) : NULL;
        sremrt_fc_table_free(tb);
        sremrt_fc_ctx_free(x);
        sremrt_fc_pst_free(pst);
        if (!flats[p] || @@PREFIX@@_forecast_set_tables(m, f->decl, flats[p]) != 0) {
            fprintf(stderr, "%s: --train-first: pattern %s: %s\n", prog, f->name, err);
            return -1;
        }
        done++;
    }
    return done;
}

static void fctrain_release(fctrain *t)
{
    for (int32_t p = 0; p < t->n; p++) {
        if (t->counts)
            sremrt_fc_counts_free(t->counts[p]);
        if (t->rings)
            free(t->rings[p]);
    }
    free(t->counts);
    free(t->rings);
    free(t->cap);
}

/* --forecast-stats: the matcher gives a forecast after every event (it is
 * told "every"); per forecast pattern and key the event waits, between its
 * symbol and the end of the push, for its forecast record, then goes to
 * the core's scorer (sremrt_fc_score_event). Records are printed as
 * --forecast-emit asks. */
typedef struct fcscore_key {
    int pending;              /* an event waits for its forecast */
    int detected;
    sremrt_fc_forecast f;     /* its forecast; none when no record came */
    sremrt_fc_forecast last;  /* the last one printed (changes) */
} fcscore_key;

typedef struct fcscore {
    const @@PREFIX@@_forecast_info *info;
    int32_t n;
    int every;                /* --forecast-emit every */
    int64_t index;            /* the event being pushed */
    sremrt_fc_score **score;  /* [n] */
    int64_t *match_index;     /* [n] the index of its last match record */
    fcscore_key **keys;            /* [n][cap[p]] */
    int32_t *cap;
    int32_t *cur;             /* [n] the slot of the event being pushed, -1 */
    int failed;
} fcscore;

static int32_t fc_find_pattern(const @@PREFIX@@_forecast_info *info, int32_t n, int32_t decl)
{
    int32_t p = 0;
    while (p < n && info[p].decl != decl)
        p++;
    return p < n ? p : -1;
}

/* The slot's entry, the table doubled when the key is new (NULL: no memory). */
static fcscore_key *fcscore_keystate(fcscore *s, int32_t p, int32_t slot)
{
    if (slot >= s->cap[p]) {
        int32_t cap = s->cap[p] ? s->cap[p] : 8;
        while (cap <= slot)
            cap *= 2;
        fcscore_key *k = realloc(s->keys[p], (size_t)cap * sizeof *k);
        if (!k)
            return NULL;
        memset(k + s->cap[p], 0, (size_t)(cap - s->cap[p]) * sizeof *k);
        for (int32_t j = s->cap[p]; j < cap; j++)
            k[j].last.none = 1;
        s->keys[p] = k;
        s->cap[p] = cap;
    }
    return &s->keys[p][slot];
}

static void fcscore_symbol(fcscore *s, int32_t decl, int32_t slot)
{
    int32_t p = fc_find_pattern(s->info, s->n, decl);
    fcscore_key *k = p >= 0 && slot >= 0 ? fcscore_keystate(s, p, slot) : NULL;
    if (!k) {
        s->failed = 1;
        return;
    }
    s->cur[p] = slot;
    k->pending = 1;
    k->detected = s->match_index[p] == s->index;
    memset(&k->f, 0, sizeof k->f);
    k->f.none = 1;
}

static int fc_same_forecast(const sremrt_fc_forecast *a, const sremrt_fc_forecast *b)
{
    return a->none == b->none && (a->none || (a->from == b->from && a->to == b->to && a->prob == b->prob &&
                                              a->positive == b->positive));
}

/* A record on its way out: 1 to leave it unprinted (a forecast that did
 * not change, under --forecast-emit changes). */
static int fcscore_record(output *o, const sremrt_record *r)
{
    fcscore *s = o->stats;
    int32_t p = r->kind == SREMRT_MATCH || r->kind == SREMRT_FORECAST ? fc_find_pattern(s->info, s->n, r->decl) : -1;
    if (p < 0)
        return 0;
    if (r->kind == SREMRT_MATCH) {
        s->match_index[p] = r->index;
        return 0;
    }
    if (s->cur[p] < 0)
        return 0;
    fcscore_key *k = &s->keys[p][s->cur[p]];
    k->f.none = 0;
    k->f.from = r->fc_within ? 1 : (uint32_t)r->fc_from;
    k->f.to = (uint32_t)r->fc_to;
    k->f.prob = r->fc_prob / 10000.0;
    k->f.positive = r->fc_positive;
    int same = fc_same_forecast(&k->f, &k->last);
    k->last = k->f;
    return same && !s->every;
}

/* After each push: the events of the push to the scorers. */
static void fcscore_flush(fcscore *s)
{
    for (int32_t p = 0; p < s->n; p++) {
        if (s->cur[p] < 0)
            continue;
        fcscore_key *k = &s->keys[p][s->cur[p]];
        if (k->f.none)
            k->last = k->f;   /* none: the next forecast is a change */
        if (k->pending && sremrt_fc_score_event(s->score[p], (uint32_t)s->cur[p], k->detected, &k->f) != 0)
            s->failed = 1;
        k->pending = 0;
        s->cur[p] = -1;
    }
}

static int fcscore_setup(fcscore *s, int every)
{
    memset(s, 0, sizeof *s);
    s->every = every;
    s->n = @@PREFIX@@_forecast_patterns(&s->info);
    s->score = calloc((size_t)s->n + 1, sizeof *s->score);
    s->match_index = calloc((size_t)s->n + 1, sizeof *s->match_index);
    s->keys = calloc((size_t)s->n + 1, sizeof *s->keys);
    s->cap = calloc((size_t)s->n + 1, sizeof *s->cap);
    s->cur = calloc((size_t)s->n + 1, sizeof *s->cur);
    if (!s->score || !s->match_index || !s->keys || !s->cap || !s->cur)
        return -1;
    for (int32_t p = 0; p < s->n; p++) {
        s->cur[p] = -1;
        if (!(s->score[p] = sremrt_fc_score_new(s->info[p].within ? SREMRT_FC_WITHIN : SREMRT_FC_INTERVAL)))
            return -1;
    }
    return 0;
}

/* One "forecast_summary" record per forecast pattern, on standard output;
 * flats: the tables --train-first learned, or NULL. */
static void fcscore_print(const fcscore *s, sremrt_format format, sremrt_fc_flat *const *flats)
{
    for (int32_t p = 0; p < s->n; p++) {
        sremrt_fc_summary u;
        sremrt_fc_score_summary(s->score[p], &u);
        int json = format == SREMRT_JSONL;
        const char *q = json ? "\"" : "", *sep = json ? ",\"" : " ", *eq = json ? "\":" : "=";
        if (json)
            printf("{\"kind\":\"forecast_summary\",\"name\":\"%s\"", s->info[p].name);
        else
            printf("forecast_summary %s", s->info[p].name);
        printf("%stype%s%s%s%s", sep, eq, q, s->info[p].within ? "within" : "interval", q);
        printf("%sevents%s%llu%sforecasts%s%llu%sscored%s%llu%sunscored%s%llu%sdetections%s%llu", sep, eq,
               (unsigned long long)u.events, sep, eq, (unsigned long long)u.forecasts, sep, eq,
               (unsigned long long)u.scored, sep, eq, (unsigned long long)u.unscored, sep, eq,
               (unsigned long long)u.detections);
        if (s->info[p].within)
            printf("%stp%s%llu%sfp%s%llu%stn%s%llu%sfn%s%llu%sprecision%s%.4g%srecall%s%.4g%sf1%s%.4g%smcc%s%.4g",
                   sep, eq, (unsigned long long)u.tp, sep, eq, (unsigned long long)u.fp, sep, eq,
                   (unsigned long long)u.tn, sep, eq, (unsigned long long)u.fn, sep, eq, u.precision, sep, eq,
                   u.recall, sep, eq, u.f1, sep, eq, u.mcc);
        else
            printf("%shits%s%llu%sprecision%s%.4g%smean_spread%s%.4g%smean_distance%s%.4g%sunpredicted%s%.4g",
                   sep, eq, (unsigned long long)u.hits, sep, eq, u.precision, sep, eq, u.mean_spread, sep, eq,
                   u.mean_distance, sep, eq, u.unpredicted_ratio);
        int exact = s->info[p].exact || (flats && flats[p] && flats[p]->exact);
        printf("%sexact%s%s%s\n", sep, eq, exact ? "true" : "false", json ? "}" : "");
    }
}

static void fcscore_release(fcscore *s)
{
    for (int32_t p = 0; p < s->n; p++) {
        if (s->score)
            sremrt_fc_score_free(s->score[p]);
        if (s->keys)
            free(s->keys[p]);
    }
    free(s->score);
    free(s->match_index);
    free(s->keys);
    free(s->cap);
    free(s->cur);
}

/* The matcher's symbol callback: to the trainer or the scorer. */
static void fc_on_symbol(void *user, int32_t decl, int32_t slot, uint32_t symbol)
{
    output *o = ((worker *)user)->out;   /* cfg.user is the lead worker (forecasting runs one thread) */
    if (o->train)
        fctrain_symbol(o->train, decl, slot, symbol);
    if (o->stats)
        fcscore_symbol(o->stats, decl, slot);
}

/* Pushes one event: 0, or 1 with its error record (the input line) written. */
static int push_one(@@PREFIX@@_matcher *m, output *out, const @@PREFIX@@_event *e, int64_t line)
{
    if (out->stats)   /* --forecast-stats: the event's forecast waits for the end of its push */
        out->stats->index = (int64_t)@@PREFIX@@_stats(m)->events + 1;
    int rejected = @@PREFIX@@_push(m, e) != 0;
    if (out->stats)
        fcscore_flush(out->stats);
    if (!rejected)
        return 0;
    flush_out(out);
    sremrt_write_error(stderr, out->format, line, @@PREFIX@@_error(m));
    return 1;
}

/* --max-delay: offers e (NULL at the end) to the reorder buffer and pushes
 * what it releases; a late event goes to the matcher at once, which
 * rejects it as out of order. Returns the events rejected. */
static int push_delayed(@@PREFIX@@_matcher *m, output *out, sremrt_reorder *ro,
                        const @@PREFIX@@_event *e, int64_t line)
{
    @@PREFIX@@_event d;
    int64_t dline;
    int bad = 0, rc = SREMRT_REORDER_HELD;
    while (e && (rc = sremrt_reorder_add(ro, e, line)) == SREMRT_REORDER_FULL)
        if (sremrt_reorder_next(ro, &d, &dline))   /* no memory: the earliest goes early */
            bad += push_one(m, out, &d, dline);
    if (e && rc == SREMRT_REORDER_LATE)
        bad += push_one(m, out, e, line);
    while (sremrt_reorder_next(ro, &d, &dline))
        bad += push_one(m, out, &d, dline);
    return bad;
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
    int input = INPUT_CSV, events = 0, strict = 0, stats = 0, status = 0;
    const char *path = NULL;
    long num[NOPT] = {0};   /* numeric options given */
    int algo = SREMRT_EXPLORE_DEFAULT, trie = 0;
    const char *trie_dot = NULL, *convert = NULL, *checkpoint = NULL, *restore = NULL, *fc_model = NULL;
    const char *delay = NULL;
    sremrt_nats_conf nc = {0};
    int publish = 0;
    int64_t max_delay = -1;   /* --max-delay in timestamp units; -1: none */
    long train_first = 0;
    int fc_every = 0, fc_score = 0, flush_absent = 0;
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
            if (strcmp(v, "csv") != 0 && strcmp(v, "jsonl") != 0 && strcmp(v, "bin") != 0)
                return bad_usage(prog, "--input is csv, jsonl or bin, not '%s'", v);
            input = strcmp(v, "bin") == 0 ? INPUT_BIN : strcmp(v, "jsonl") == 0 ? INPUT_JSONL : INPUT_CSV;
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
        case OPT_FLUSH_ABSENT:
            flush_absent = 1;
            break;
        case OPT_TRAIN_FIRST:
        case OPT_MAX_KEYS:
        case OPT_MAX_RUNS:
        case OPT_CHECKPOINT_EVERY:
        case OPT_DISTINCT_BUDGET:
        case OPT_OCCMAP_CAP:
        case OPT_EXPLORE_CAP:
        case OPT_THREADS: {
            errno = 0;
            long n = strtol(v, &end, 10);
            if (end == v || *end || errno || n < 1 || n > options[k].max) {
                char msg[160];
                snprintf(msg, sizeof msg, "%s needs an integer from 1 to %ld, not '%.40s'", a, options[k].max, v);
                return bad_usage(prog, "%s", msg);
            }
            num[k] = n;
            if (k == OPT_TRAIN_FIRST)
                train_first = n;
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
        case OPT_FORECAST_EMIT:
            if (strcmp(v, "changes") != 0 && strcmp(v, "every") != 0)
                return bad_usage(prog, "--forecast-emit is changes or every, not '%s'", v);
            fc_every = strcmp(v, "every") == 0;
            break;
        case OPT_FC_TRAIN:
            fc_model = v;
            break;
        case OPT_FORECAST_STATS:
            fc_score = 1;
            break;
        case OPT_MAX_DELAY:
            if (@@PREFIX@@_schema.ts_attr < 0)
                return bad_usage(prog, "--max-delay needs a timestamp attribute, and schema %s has none",
                                 @@PREFIX@@_schema.name);
            if (sremrt_parse_duration(v, @@PREFIX@@_schema.ts_unit_ns, &max_delay) != 0)
                return bad_usage(prog, "--max-delay needs a count of timestamp units or a whole "
                                       "duration of them (2s, 500ms; units ns us ms s min h d), not '%s'", v);
            delay = v;
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
    nc.csv = input != INPUT_BIN;
    if (nc.urls && (!nc.stream || (!publish && !nc.npartitions)))
        return bad_usage(prog, "%s", publish ? "--nats-publish needs --stream" : "--nats needs --stream and --partition");
    if (!nc.urls && (nc.stream || nc.npartitions))
        return bad_usage(prog, "%s", "--stream, --partition, --partitions: only with --nats or --nats-publish");
    if (nc.urls && (checkpoint || restore || convert))
        return bad_usage(prog, "%s", "--nats and --nats-publish keep no --checkpoint or --restore file and convert nothing");
    if (nc.urls && schema_has_strings())
        return bad_usage(prog, "%s", "--nats and --nats-publish carry no string attributes (their ids belong to one matcher's table)");
    if (nc.urls && input == INPUT_JSONL)
        return bad_usage(prog, "%s", "--nats and --nats-publish carry CSV or bin events, not --input jsonl");
    if (nc.urls && (delay || fc_model || fc_score || train_first || num[OPT_THREADS] > 1))
        return bad_usage(prog, "%s", "--nats and --nats-publish take no --max-delay, --threads or forecast training and scoring");
    if (nc.urls && !publish && path)
        return bad_usage(prog, "--nats reads no FILE ('%s'): its input is the partition's stream", path);
    if (publish && !nc.npartitions)
        nc.npartitions = 1;
    if (num[OPT_CHECKPOINT_EVERY] && !checkpoint)
        return bad_usage(prog, "%s needs --checkpoint FILE", "--checkpoint-every");
    if ((fc_score || train_first || fc_model) && (checkpoint || restore))   /* nor the scores, counts or tables learned */
        return bad_usage(prog, "%s score, count or learn over the whole input: no --checkpoint or --restore with them",
                         "--forecast-stats, --train-first and --fc-train");
    if (delay && (checkpoint || restore))   /* a checkpoint does not hold the events held back */
        return bad_usage(prog, "%s holds events a checkpoint does not save: no --checkpoint or --restore with it",
                         "--max-delay");
    if (convert && (checkpoint || restore))
        return bad_usage(prog, "%s matches nothing: no --checkpoint or --restore with it", "--convert-bin");
    if (convert && delay)
        return bad_usage(prog, "%s", "--max-delay does not apply to --convert-bin");
    FILE *in = stdin;
    if (path && strcmp(path, "-") != 0 && !(in = fopen(path, input == INPUT_BIN ? "rb" : "r"))) {
        perror(path);
        return 2;
    }
    if (publish) {
        int rc = nats_main(prog, &nc, NULL, in, input == INPUT_BIN, strict);
        if (in != stdin)
            fclose(in);
        return rc;
    }
    if (convert) {
        int rc = convert_bin(convert, in, input, format, strict);
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

    output out = {format, events, 0, 0, NULL, NULL};
    worker lead = {.out = &out};   /* its pool, with --threads: records merged, else written at once */
    pool shards;
    sremrt_alloc hook = sremrt_alloc_malloc();
    sremrt_alloc_limit limit;   /* --max-memory: the matcher's memory, not the reader's */
    sremrt_alloc_limit_init(&limit, &hook, max_memory);
    @@PREFIX@@_config cfg;
    @@PREFIX@@_config_default(&cfg);
    cfg.record = shard_record;
    cfg.user = &lead;
    cfg.alloc = sremrt_alloc_limit_hook(&limit);
    if (num[OPT_MAX_KEYS])
        cfg.max_keys = (int32_t)num[OPT_MAX_KEYS];
    if (num[OPT_MAX_RUNS])
        cfg.max_runs = (int32_t)num[OPT_MAX_RUNS];
    cfg.distinct_budget = (int32_t)num[OPT_DISTINCT_BUDGET];
    cfg.occmap_cap = (int32_t)num[OPT_OCCMAP_CAP];
    cfg.explore_algo = algo;
    cfg.explore_cap = num[OPT_EXPLORE_CAP];
    cfg.forecast_every = fc_every;
    cfg.flush_absent = flush_absent;
    cfg.events = events;   /* a record whose events are not at hand is counted */
    if (nc.urls)
        return nats_main(prog, &nc, &cfg, NULL, input == INPUT_BIN, strict);
    fctrain trainer;
    fcscore scorer;
    sremrt_fc_flat **flats = NULL;   /* --train-first: the tables learned */
    if (train_first && !fc_model) {   /* counting first, forecasting after */
        if (fctrain_setup(&trainer) != 0 || !(flats = calloc((size_t)trainer.n + 1, sizeof *flats))) {
            fprintf(stderr, "%s: out of memory\n", prog);
            return 2;
        }
        out.train = &trainer;
        cfg.symbol = fc_on_symbol;
    }
    if (fc_model) {   /* training: symbols counted, no records */
        if (fctrain_setup(&trainer) != 0) {
            fprintf(stderr, "%s: out of memory\n", prog);
            return 2;
        }
        cfg.record = NULL;
        out.train = &trainer;
        cfg.symbol = fc_on_symbol;
    }
    if (fc_score && !fc_model) {   /* every event's forecast scored, printed as asked */
        if (fcscore_setup(&scorer, fc_every) != 0) {
            fprintf(stderr, "%s: out of memory\n", prog);
            return 2;
        }
        out.stats = &scorer;
        cfg.symbol = fc_on_symbol;
        cfg.forecast_every = 1;
    }
    @@PREFIX@@_matcher *m = malloc(@@PREFIX@@_matcher_size());
    if (!m || @@PREFIX@@_init(m, &cfg) != 0) {
        fprintf(stderr, "%s: cannot set up the matcher (out of memory or runtime ABI mismatch)\n", argv[0]);
        return 2;
    }
    reader rd;
    long threads = num[OPT_THREADS] ? num[OPT_THREADS] : 1;
    lead.m = m;
    cfg.strings = @@PREFIX@@_strtab(m);   /* every thread's matcher: the reader's string ids */
    if (threads > 1 && (cfg.max_keys > 0 || max_memory > 0 || checkpoint || restore || fc_model || fc_score ||
                        train_first || delay || @@PREFIX@@_set_shard(m, 0, (int32_t)threads) != 0 ||
                        pool_start(&shards, (int)threads, &cfg, m, &lead) != 0)) {
        /* limits counted over all keys, one state to checkpoint, the forecast
           trainer and scorer (one thread's callbacks), the reorder buffer
           (one reader's), or nothing to spread */
        @@PREFIX@@_set_shard(m, 0, 1);
        threads = 1;
    }
    if (threads > 1)
        stdio_unlocked(in);
    sremrt_reorder ro;   /* --max-delay */
    if (delay)
        sremrt_reorder_init(&ro, &@@PREFIX@@_schema, max_delay, &hook);
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
    if (reader_open(&rd, input, in) != 0) {   /* bin: the sharded run's reader */
        sremrt_write_error(stderr, format, reader_line(&rd), reader_message(&rd));
        flush_out(&out);
        if (threads > 1) {
            stop_workers(&shards, (int)threads);
            lead.pool = NULL;
            pool_free(&shards);
        }
        if (delay)
            sremrt_reorder_free(&ro);
        @@PREFIX@@_free(m);   /* the reader freed its own buffers */
        free(m);
        if (in != stdin)
            fclose(in);
        if (dot)
            fclose(dot);
        return 3;
    }
    if (input == INPUT_CSV)
        rd.csv.strings = @@PREFIX@@_strtab(m);
    else if (input == INPUT_JSONL)
        rd.jsonl.strings = @@PREFIX@@_strtab(m);
    /* bin in runs to push_many, unless checkpoints count the records one by
       one, or the reorder buffer, the forecast scorer or --train-first take
       each event */
    int runs_of_bin = threads == 1 && input == INPUT_BIN && !restore && !checkpoint && !delay && !out.stats &&
                      !flats;
    if (threads > 1)
        status = run_sharded(&shards, &out, &rd, strict, &bad);   /* finish included */
    else if (runs_of_bin)
        status = run_bin(m, in, &out, strict, &bad);
    while (threads == 1 && !runs_of_bin && !out.failed) {   /* a write error on the output ends the run */
        @@PREFIX@@_event e;
        int rc = reader_next(&rd, &e);
        int64_t line = reader_line(&rd);
        if (rc == SREMRT_READ_END)
            break;
        if (rc != SREMRT_READ_FATAL && ++records <= skip)
            continue;   /* --restore: the checkpoint has it (and its error record was written) */
        int rejected = 1;
        if (rc == SREMRT_READ_EVENT) {
            rejected = delay ? push_delayed(m, &out, &ro, &e, line) : push_one(m, &out, &e, line);
            if (flats && out.train && (long)@@PREFIX@@_stats(m)->events >= train_first) {
                out.train = NULL;   /* learned: the tables from here on */
                if (fctrain_tables(&trainer, m, flats, prog) < 0)
                    status = 3;
            }
        } else {
            flush_out(&out);
            sremrt_write_error(stderr, format, line, reader_message(&rd));
            bad++;
            if (rc == SREMRT_READ_FATAL) {
                status = 3;
                break;
            }
        }
        if (rejected && strict) {
            status = 3;
            break;
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
    if (threads == 1 && records < skip) {
        fprintf(stderr, "%s: %s: the input has %llu records, fewer than the checkpoint's %llu\n", prog,
                restore, (unsigned long long)records, (unsigned long long)skip);
        status = 2;
    } else if (threads == 1 && checkpoint) {   /* the state after the last record, before finish's summaries */
        flush_out(&out);
        if (save_checkpoint(prog, checkpoint, m, records, bad) != 0)
            status = 3;
    }
    if (delay) {   /* end of input: the events held are due */
        sremrt_reorder_end(&ro);
        push_delayed(m, &out, &ro, NULL, 0);   /* --strict too: they were accepted */
        if (ro.early) {
            flush_out(&out);
            fprintf(stderr, "%s: --max-delay: out of memory, %llu events fed before their delay\n",
                    prog, (unsigned long long)ro.early);
            status = 3;
        }
        sremrt_reorder_free(&ro);
    }
    @@PREFIX@@_finish(m);   /* once: after run_sharded, nothing */
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
    if (fc_model) {
        if (fctrain_write(&trainer, fc_model) != 0)
            status = 2;
        fctrain_release(&trainer);
    }
    if (out.stats) {
        fcscore_print(&scorer, format, flats);
        if (scorer.failed)
            fprintf(stderr, "%s: out of memory while scoring forecasts\n", prog);
        fcscore_release(&scorer);
    }
    reader_close(&rd);
    @@PREFIX@@_free(m);
    free(m);
    if (flats) {
        for (int32_t p = 0; p < trainer.n; p++)
            sremrt_fc_flat_free(flats[p]);
        free(flats);
        fctrain_release(&trainer);
    }
    if (in != stdin)
        fclose(in);
    return check_output(prog, &out) == 0 ? status : 3;
}
