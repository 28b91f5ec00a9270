/* diff_state.c: checkpoints of generated programs. Random patterns
 * (tests/diff/gen.h: registers, count and time windows, partitions,
 * policies, chains) with random episodes and explore clauses -> one
 * program per strategy and layout, run on random streams twice: whole,
 * and cut after k records (--checkpoint), then restored in a new process
 * (--restore) on the whole stream. The oracle is the whole run: the
 * restored run's records are its records with index > k and its
 * summaries, its error records and exit status are the same. Also: save,
 * load, save gives the same bytes; the checkpoint of another program, a
 * truncated one and one with a byte changed are refused (exit 2). Usage:
 *   diff_state SREMC WORKDIR [NPROGRAMS [SEED]]
 * NPROGRAMS (default 8, one per strategy and layout) is multiplied by
 * SREMC_DIFF_SCALE; the first is built with ASan and UBSan where cc has
 * them. A failure prints the seed, the program and the
 * stream. */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "../diff/gen.h"
#include "../diff/shrink.h"

/* Every run of a program is bounded: a wrong state must not hang the test. */
#define TIMEOUT "timeout 60 "

enum { NPAT = 24, LEN = 160, STREAMS = 3, CUTS = 3, MAX_STATES = 3000 };

static const char *const strategies[] = {"auto", "tdfa", "dsra", "runs"};

/* Program b's strategy (index in strategies[]) and layout. */
static const struct {
    int strategy;
    const char *layout;
} configs[] = {{0, "auto"}, {1, "table"}, {1, "tree"}, {1, "chain"}, {1, "nodes"}, {2, "nodes"}, {2, "tree"},
               {3, "auto"}};
enum { NCONFIGS = sizeof configs / sizeof configs[0] };

/* Options of the runs, in turn: the defaults, and small tables whose
 * overflows the checkpoint must carry. */
static const char *const run_opts[] = {"", "--max-keys 2 --max-runs 3", "--occmap-cap 2 --distinct-budget 2",
                                       "--explore-algo ic", "--explore-algo rc --explore-cap 3", "--explore-algo bf",
                                       "--flush-absent"};
enum { NOPTS = sizeof run_opts / sizeof run_opts[0] };

static const char *const tnames[] = {"A", "B", "C"};

/* None (half the time), `partition by k`, or a composite key over k, t and u. */
static const char *part_clause(Rng *r)
{
    static const char *const clauses[] = {"", "", " partition by k", " partition by k, t", " partition by u, k, t"};
    return clauses[rng_int(r, 0, 4)];
}

/* An episode of 1..3 elements over t, maybe partitioned, with a count or
 * time window and either frequency; episode 0 is distinct with a repeated
 * element, so its counter keeps configurations (docs/episodes.md). */
static void put_episode(FILE *f, Rng *r, int j)
{
    fprintf(f, "episode e%d on E%s within %d %s frequency %s {", j, part_clause(r),
            rng_int(r, 2, 6), rng_int(r, 0, 1) ? "events" : "s",
            j == 0 || rng_int(r, 0, 1) ? "distinct" : "nonoverlapped");
    if (j == 0)
        fprintf(f, " %s", tnames[rng_int(r, 0, 2)]);
    for (int k = rng_int(r, 1, 3); k > 0; k--)
        fprintf(f, " %s", j == 0 ? "A" : tnames[rng_int(r, 0, 2)]);
    fprintf(f, " }%s\n", rng_int(r, 0, 1) ? " alert when count >= 2;" : "");
}

/* A pattern with an explore clause: a sequence of 2..3 values of t. */
static void put_explore(char *buf, size_t size, Rng *r, int i)
{
    int n = snprintf(buf, size, "pattern x%d on E%s within %d %s policy %s {", i,
                     part_clause(r), rng_int(r, 3, 8), rng_int(r, 0, 1) ? "events" : "s",
                     rng_int(r, 0, 1) ? "stam" : "stnm");
    for (int k = rng_int(r, 2, 3); k > 0; k--)
        n += snprintf(buf + n, size - (size_t)n, " %s", tnames[rng_int(r, 0, 2)]);
    snprintf(buf + n, size - (size_t)n, " } explore extensions variations confidence 0.%d;\n", rng_int(r, 1, 9));
}

/* Program b's .srem file: the patterns its strategy plans, then the
 * episodes and an explore clause. The patterns written. */
static int write_program(const char *path, Rng *r, int b)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(GEN_SCHEMA, f);
    int s = configs[b % NCONFIGS].strategy, npat = 0;
    char src[2048 + sizeof GEN_SCHEMA], body[2048];
    for (int i = 0; i < NPAT; i++) {
        GenOpts o = {0};
        int kind = rng_int(r, 0, 3);
        o.registers = kind >= 1;
        o.complement = kind == 3;
        o.intersection = kind != 1;
        o.time_window = kind != 1;
        o.partition = rng_int(r, 0, 2) == 0;
        o.policies = rng_int(r, 0, 4) == 0;
        o.chains = rng_int(r, 0, 4) == 0;
        o.max_depth = 3;
        o.max_window = 5;
        if (i % 4 == 1)   /* pending absences are state too */
            gen_pattern_absent(r, &o, src, sizeof src);
        else
            gen_pattern(r, &o, src, sizeof src);
        const char *p = strstr(src, "pattern p ");
        if (p && gen_applies(src, s, MAX_STATES, NULL)) {
            fprintf(f, "pattern p%d %s\n", i, p + 10);
            npat++;
        }
    }
    /* many live runs: self-loops under a window (the heap), a keyed state */
    static const char *const hot[] = {
        "pattern h0 on E within 6 s { x:A _* [t == B && v == x.v] }\n",
        "pattern h1 on E within 9 s partition by k { x:A _* y:B _* [t == C && v >= x.v && v <= y.v] }\n",
        "pattern h2 on E within 12 events { x:A _* y:[t == B && v != x.v] _* [t == C && v == y.v] }\n",
        "pattern h3 on E within 9 s partition by k { x:A } absent [t == B && v == x.v]\n",
        "pattern h4 on E within 7 events { A B } absent [t == C]\n"};
    for (size_t h = 0; h < sizeof hot / sizeof hot[0]; h++) {
        snprintf(src, sizeof src, "%s%s", GEN_SCHEMA, hot[h]);
        if (gen_applies(src, s, MAX_STATES, NULL))
            fputs(hot[h], f);
    }
    for (int j = 0; j < 3; j++)
        put_episode(f, r, j);
    put_explore(body, sizeof body, r, 0);
    snprintf(src, sizeof src, "%s%s", GEN_SCHEMA, body);
    if (gen_applies(src, s, MAX_STATES, NULL))
        fputs(body, f);
    return fclose(f) == 0 ? npat : -1;
}

/* The whole of a file (NUL-terminated; *len its bytes), or NULL. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0;) {
        n += got;
        if (n + 1 == cap) {
            char *more = realloc(buf, cap *= 2);
            if (!more)
                free(buf);
            buf = more;
        }
    }
    fclose(f);
    if (buf)
        buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

/* Runs cmd (a shell command); its exit status, or -1. */
static int status_of(const char *cmd)
{
    int rc = system(cmd);
    return rc != -1 && WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* The whole run's stdout lines that a run restored after k records must
 * print: records of index > k, and those without an index (summaries). */
static char *after(const char *text, long k)
{
    char *out = malloc(strlen(text) + 1), *o = out;
    for (const char *line = text; out && *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) + 1 : strlen(line);
        const char *at = strstr(line, "\"index\":");
        /* end of input: summaries (no index) and --flush-absent's records (no ts) */
        const char *ts = strstr(line, "\"ts\":");
        static const char absent[] = "{\"kind\":\"absent\"";
        bool end_of_input = strncmp(line, absent, sizeof absent - 1) == 0 && (!ts || ts > line + n);
        if (!at || at > line + n || atol(at + 8) > k || end_of_input) {
            memcpy(o, line, n);
            o += n;
        }
        line += n;
    }
    if (out)
        *o = '\0';
    return out;
}

static int failures;

static void fail(uint64_t seed, const char *dir, int b, const char *opts, long k, const char *what)
{
    failures++;
    fprintf(stderr, "diff_state: FAIL (seed %llu): %s\n  program %s/s%d.srem (%s --layout %s), options '%s', "
                    "checkpoint after %ld records of %s/s%d.csv\n",
            (unsigned long long)seed, what, dir, b, strategies[configs[b % NCONFIGS].strategy],
            configs[b % NCONFIGS].layout, opts, k, dir, b);
}

/* Two files' bytes are the same. */
static int same_file(const char *a, const char *b)
{
    size_t na, nb;
    char *x = slurp(a, &na), *y = slurp(b, &nb);
    int same = x && y && na == nb && memcmp(x, y, na) == 0;
    free(x);
    free(y);
    return same;
}

/* A damaged copy of checkpoint ck: cut to a random length, or with a
 * random byte changed. */
static int damage(const char *ck, const char *out, Rng *r, int cut)
{
    size_t n;
    char *buf = slurp(ck, &n);
    FILE *f = buf ? fopen(out, "wb") : NULL;
    if (!f) {
        free(buf);
        return -1;
    }
    if (cut)
        n = (size_t)rng_int(r, 0, (int)n - 1);
    else
        buf[rng_int(r, 0, (int)n - 1)] ^= (char)(1 << rng_int(r, 0, 7));
    fwrite(buf, 1, n, f);
    free(buf);
    return fclose(f) == 0 ? 0 : -1;
}

/* Program b on one stream: the whole run, then CUTS checkpoints; returns
 * the comparisons made. */
static int check_stream(const char *dir, int b, const char *other, Rng *r, uint64_t seed, const Value *values)
{
    char csv[600], part[600], cmd[4000], prog[600], ck[600], ck2[600], bad[600], o1[600], o2[600];
    const char *opts = run_opts[rng_int(r, 0, NOPTS - 1)];
    int compared = 0;
    snprintf(prog, sizeof prog, "%s/s%d", dir, b);
    snprintf(csv, sizeof csv, "%s/s%d.csv", dir, b);
    snprintf(part, sizeof part, "%s/s%d.part.csv", dir, b);
    snprintf(ck, sizeof ck, "%s/s%d.ck", dir, b);
    snprintf(ck2, sizeof ck2, "%s/s%d.ck2", dir, b);
    snprintf(bad, sizeof bad, "%s/s%d.bad", dir, b);
    snprintf(o1, sizeof o1, "%s/s%d.whole", dir, b);
    snprintf(o2, sizeof o2, "%s/s%d.restored", dir, b);
    if (!gen_write_csv(csv, values, LEN))
        return 0;
    snprintf(cmd, sizeof cmd, TIMEOUT "%s --format jsonl %s %s >%s.out 2>%s.err", prog, opts, csv, o1, o1);
    int whole = status_of(cmd);
    char out_name[700], err_name[700];
    snprintf(out_name, sizeof out_name, "%s.out", o1);
    snprintf(err_name, sizeof err_name, "%s.err", o1);
    char *wout = slurp(out_name, NULL), *werr = slurp(err_name, NULL);
    for (int c = 0; c < CUTS && wout && werr; c++) {
        long k = c == 0 ? 0 : c == 1 ? LEN : rng_int(r, 1, LEN - 1);
        if (!gen_write_csv(part, values, (int)k))
            break;
        snprintf(cmd, sizeof cmd, TIMEOUT "%s --format jsonl %s --checkpoint %s %s >/dev/null 2>&1", prog, opts, ck, part);
        status_of(cmd);
        snprintf(cmd, sizeof cmd, TIMEOUT "%s --format jsonl %s --restore %s %s >%s.out 2>%s.err", prog, opts, ck, csv, o2,
                 o2);
        int restored = status_of(cmd);
        snprintf(out_name, sizeof out_name, "%s.out", o2);
        snprintf(err_name, sizeof err_name, "%s.err", o2);
        char *rout = slurp(out_name, NULL), *rerr = slurp(err_name, NULL), *want = after(wout, k);
        compared++;
        if (!rout || !rerr || !want || strcmp(rout, want) != 0)
            fail(seed, dir, b, opts, k, "the restored run's records are not the whole run's after k");
        else if (strcmp(rerr, werr) != 0 || restored != whole)
            fail(seed, dir, b, opts, k, "the restored run's error records or exit status differ");
        free(rout);
        free(rerr);
        free(want);
        /* save, load, save: restored and saved again at the same point */
        snprintf(cmd, sizeof cmd, TIMEOUT "%s --format jsonl %s --restore %s --checkpoint %s %s >/dev/null 2>&1", prog, opts,
                 ck, ck2, part);
        if (status_of(cmd) < 0 || !same_file(ck, ck2))
            fail(seed, dir, b, opts, k, "save, load, save gives other bytes");
        /* refused: another program's, cut, changed */
        const char *why[] = {"another program's checkpoint", "a truncated checkpoint", "a changed checkpoint"};
        for (int d = 0; d < 3; d++) {
            if (d == 0) {
                if (!other)
                    continue;
                snprintf(cmd, sizeof cmd, TIMEOUT "%s --format jsonl %s --checkpoint %s %s >/dev/null 2>&1", other, opts, bad,
                         part);
                status_of(cmd);
            } else if (damage(ck, bad, r, d == 1) != 0) {
                continue;
            }
            snprintf(cmd, sizeof cmd, TIMEOUT "%s --format jsonl %s --restore %s %s >/dev/null 2>%s.err", prog, opts, bad,
                     csv, o2);
            if (status_of(cmd) != 2) {
                char msg[120];
                snprintf(msg, sizeof msg, "%s was not refused with exit status 2", why[d]);
                fail(seed, dir, b, opts, k, msg);
            }
        }
    }
    free(wout);
    free(werr);
    return compared;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: diff_state SREMC WORKDIR [NPROGRAMS [SEED]]\n");
        return 2;
    }
    const char *sremc = argv[1], *dir = argv[2];
    int nprog = (argc > 3 ? atoi(argv[3]) : NCONFIGS) * diff_scale();
    uint64_t seed = argc > 4 ? strtoull(argv[4], NULL, 10) : 17;
    char cmd[2000], path[600];
    snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
    if (status_of(cmd) != 0)
        return 2;
    Rng r = {seed};
    int npat = 0, built = 0;
    int sanitizers = status_of("echo 'int main(void){return 0;}' | cc -fsanitize=address,undefined -x c - "
                               "-o /dev/null 2>/dev/null") == 0;
    for (int b = 0; b < nprog; b++) {   /* build them all first: each one's foreign checkpoints are the next's */
        snprintf(path, sizeof path, "%s/s%d.srem", dir, b);
        int n = write_program(path, &r, b);
        /* the first program under ASan and UBSan: loads of cut and changed checkpoints too */
        snprintf(cmd, sizeof cmd, "CFLAGS='-O0 %s' %s build --strategy %s --layout %s --max-states %d --max-code-kb 1000000 "
                                  "%s -o %s/s%d 2>%s/s%d.log",
                 b == 0 && sanitizers ? "-g -fsanitize=address,undefined -fno-sanitize-recover=all" : "", sremc,
                 strategies[configs[b % NCONFIGS].strategy], configs[b % NCONFIGS].layout, MAX_STATES, path,
                 dir, b, dir, b);
        if (n < 0 || status_of(cmd) != 0) {
            fprintf(stderr, "diff_state: FAIL (seed %llu): %s does not build (%s/s%d.log)\n", (unsigned long long)seed,
                    path, dir, b);
            failures++;
            continue;
        }
        npat += n;
        built++;
    }
    Value *values = malloc(sizeof(Value) * LEN * GEN_NATTRS);
    long compared = 0;
    for (int b = 0; b < nprog && values; b++) {
        char other[600];
        snprintf(other, sizeof other, "%s/s%d", dir, (b + 1) % nprog);
        for (int s = 0; s < STREAMS; s++) {
            gen_stream(&r, LEN, values);
            compared += check_stream(dir, b, nprog > 1 ? other : NULL, &r, seed, values);
        }
    }
    free(values);
    printf("diff_state: %d programs (%d patterns and 4 declarations each on average), %ld checkpoints restored, "
           "%d failures (seed %llu)\n",
           built, built ? npat / built : 0, compared, failures, (unsigned long long)seed);
    return failures ? 1 : 0;
}
