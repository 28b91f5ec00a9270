/* diff_codegen.c: random patterns (tests/diff/gen.h) -> batched .srem files
 * -> `sremc build --strategy S` programs run on random CSV streams, each
 * record compared with the reference interpreter. Usage:
 *   diff_codegen SREMC WORKDIR [NPATTERNS [SEED [BATCH]]]
 * NPATTERNS (default 1000) is multiplied by SREMC_DIFF_SCALE; BATCH
 * patterns (default 250) go into one program, built with -O0. Prints the
 * seed, the pattern and the stream of the first mismatch, then both
 * minimized (tests/diff/shrink.h).
 * Warning gate: every batch is built with -Wall -Wextra -pedantic -Werror
 * (sremc build adds -std=c99), by $CC (default cc) and by clang in turn,
 * and the patterns that need no timestamp are built once more on a schema
 * without one (built only: records then carry no ts). Last, a program
 * with thousands of live runs (many_runs): growing run sets, --max-runs. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "chain.h"
#include "frontend.h"
#include "../diff/gen.h"
#include "../diff/shrink.h"
#include "interp.h"
#include "strategy.h"

enum { STREAMS = 6, LEN = 40, MAX_STATES = 3000, SHRINK_CALLS = 400, NSINGLE = 30, NCHAIN = 32, NBACK = 24, NRUNS1 = 24,
       NTHREE = 16 };

static const char *const strategies[] = {"auto", "tdfa", "dsra", "runs"};

/* The --layout of strategy s's batch b (see the batches below). */
static const char *layout_of(int s, int b)
{
    static const char *const tdfa[] = {"table", "tree", "chain", "nodes"}, *const dsra[] = {"nodes", "tree"};
    return s == 1 ? tdfa[b % 4] : s == 2 ? dsra[b % 2] : "auto";
}

/* More CFLAGS of strategy s's batch b: every other runs batch takes the
 * table step where it has a direct-coded one (docs/codegen.md, "runs"),
 * so that both are compared with the interpreter. */
static const char *runs_cflags(int s, int b)
{
    return s == 3 && b % 2 ? "-DSREMRT_RUNS_NO_DIRECT" : "";
}

/* GEN_SCHEMA without its timestamp: what the timestamp-free builds use. */
#define GEN_SCHEMA_NO_TS "schema E { t : enum { A, B, C }; v : int; k : int; u : string; }\n"
#define WARN_CFLAGS "-O0 -Wall -Wextra -pedantic -Werror"

/* The compiler of build job k: $CC (default cc) and clang in turn, so both
 * see every strategy's code (clang where it is installed). */
static const char *cc_of(int k)
{
    static int clang = -1;
    if (clang < 0)
        clang = system("command -v clang >/dev/null 2>&1") == 0;
    const char *cc = getenv("CC");
    return k % 2 && clang ? "clang" : cc && cc[0] ? cc : "cc";
}

/* What a program said at one index of one pattern: a match record, its
 * start (0: not given) and its "bind" object as written ("": none). */
typedef struct Got {
    bool hit;
    int  start;
    char bind[160];
} Got;

/* A pattern's absent records (docs/language.md 3.7), in output order, as
 * "INDEX:START{BIND};" each (BIND: the "bind" object, "" when none). */
typedef struct Absent {
    char text[4096];
} Absent;

typedef struct Pat {
    char src[2048];    /* the generated file (schema + pattern p) */
    char body[2048];   /* "pattern pN ..." */
    bool ok[4];        /* strategy applies and fits */
    bool no_ts;        /* auto applies on GEN_SCHEMA_NO_TS too */
    int  chosen;       /* the strategy auto picks */
} Pat;

static int run(const char *cmd)
{
    int rc = system(cmd);
    return rc;
}

/* Writes n events as dir/stream.csv; its path in csv. */
static bool write_csv(const char *dir, const Value *values, int n, char *csv, size_t size)
{
    snprintf(csv, size, "%s/stream.csv", dir);
    return gen_write_csv(csv, values, n);
}

/* A match record's start and "bind" object into g. */
static void parse_what_matched(const char *line, Got *g)
{
    g->hit = true;
    const char *at = strstr(line, "\"start\":");
    g->start = at ? atoi(at + 8) : 0;
    g->bind[0] = '\0';
    at = strstr(line, "\"bind\":{");
    if (at) {
        const char *end = strchr(at, '}');
        size_t len = end ? (size_t)(end - at) + 1 : strlen(at);
        if (len >= sizeof g->bind)
            len = sizeof g->bind - 1;
        memcpy(g->bind, at, len);
        g->bind[len] = '\0';
    }
}

/* Runs prog on n events; got[i * LEN + e] for pattern p(first + i) (or,
 * with first < 0, for the pattern named "p": i = 0). The exit status. */
static void add_absent(const char *line, int idx, Absent *a)
{
    Got g;
    parse_what_matched(line, &g);
    size_t len = strlen(a->text);
    snprintf(a->text + len, sizeof a->text - len, "%d:%d%s;", idx, g.start, g.bind);
}

static int run_program(const char *prog, const char *dir, const Value *values, int n, int first, int count,
                       Got *got, Absent *abs)
{
    char csv[512], cmd[1200];
    memset(got, 0, (size_t)count * LEN * sizeof *got);
    memset(abs, 0, (size_t)count * sizeof *abs);
    if (!write_csv(dir, values, n, csv, sizeof csv))
        return -1;
    snprintf(cmd, sizeof cmd, "%s --format jsonl --flush-absent %s", prog, csv);
    FILE *out = popen(cmd, "r");
    if (!out)
        return -1;
    char line[1024];
    static const char single[] = "{\"kind\":\"match\",\"name\":\"p\",\"index\":";
    static const char single_absent[] = "{\"kind\":\"absent\",\"name\":\"p\",\"index\":";
    while (fgets(line, sizeof line, out)) {
        int pi, idx;
        if (first < 0 && strncmp(line, single_absent, sizeof single_absent - 1) == 0) {
            add_absent(line, atoi(line + sizeof single_absent - 1), &abs[0]);
        } else if (first >= 0 && sscanf(line, "{\"kind\":\"absent\",\"name\":\"p%d\",\"index\":%d", &pi, &idx) == 2) {
            if (pi >= first && pi < first + count)
                add_absent(line, idx, &abs[pi - first]);
        } else if (first < 0) {
            if (strncmp(line, single, sizeof single - 1) == 0 && (idx = atoi(line + sizeof single - 1)) >= 1 &&
                idx <= n)
                parse_what_matched(line, &got[idx - 1]);
        } else if (sscanf(line, "{\"kind\":\"match\",\"name\":\"p%d\",\"index\":%d", &pi, &idx) == 2 &&
                   pi >= first && pi < first + count && idx >= 1 && idx <= n) {
            parse_what_matched(line, &got[(size_t)(pi - first) * LEN + (size_t)idx - 1]);
        }
    }
    return pclose(out);
}

/* Whether the generated code must give p's records a start: always on
 * these streams, shorter than the events a replay keeps (CG_CANON_KEEP,
 * docs/codegen.md "Start and bindings"). */
static bool start_required(const AstPattern *p)
{
    (void)p;
    return LEN <= 256;
}

/* Records whose start and bind were compared with interp_canonical. */
static long canon_compared;

/* The "bind" object of a canonical match, as a program writes it ("" for
 * a pattern without labels). */
static void bind_text(const AstPattern *p, const int *bind, char *want, size_t size)
{
    int len = 0;
    want[0] = '\0';
    if (p->nregs == 0)
        return;
    len = snprintf(want, size, "\"bind\":{");
    for (int r = 0, first = 1; r < p->nregs && r < 64; r++)
        if (bind[r] >= 0) {
            len += snprintf(want + len, size - (size_t)len, "%s\"%s\":%d", first ? "" : ",", p->regs[r].name,
                            bind[r] + 1);
            first = 0;
        }
    snprintf(want + len, size - (size_t)len, "}");
}

/* p's absent records by the reference (interp_absent, interp_canonical),
 * in the order a program writes them under --flush-absent: by the event
 * that closes the window (the end of input last), then by the match. */
static void absent_want(const AstPattern *p, const Stream *st, Absent *want)
{
    int at[LEN], bind[64];
    size_t len = 0;
    interp_absent(p, st, NULL, at);
    want->text[0] = '\0';
    for (int k = 0; k <= st->n; k++)
        for (int i = 0; i < st->n; i++) {
            if (at[i] != k)
                continue;
            CanonMatch cm = {-1, bind};
            char b[160];
            interp_canonical(p, st, NULL, i, &cm);
            bind_text(p, bind, b, sizeof b);
            len += (size_t)snprintf(want->text + len, sizeof want->text - len, "%d:%d%s;", k < st->n ? k + 1 : st->n,
                                    cm.start + 1, b);
        }
}

/* Whether the records of p agree with the reference: detections as
 * interp_detect, and, where a record gives a start (which it must where
 * start_required), start and bind as interp_canonical. A pattern
 * with absent: its absent records as absent_want. The first difference
 * is described in why. */
static bool records_agree_ids(const AstPattern *p, const Stream *st, const Got *g, const Absent *abs, char *why,
                              size_t size);

/* records_agree_ids on the stream with u's values as the ids the file
 * compiled into ast gives them (gen_string_ids), as its program reads them. */
static bool records_agree(const Ast *ast, const AstPattern *p, const Stream *st, const Got *g, const Absent *abs,
                          char *why, size_t size)
{
    Value ids[LEN * GEN_NATTRS];
    memcpy(ids, st->values, sizeof(Value) * GEN_NATTRS * (size_t)st->n);
    gen_string_ids(ast->strings, ast->nstrings, ids, st->n);
    Stream s = {st->n, st->nattrs, ids};
    return records_agree_ids(p, &s, g, abs, why, size);
}

static bool records_agree_ids(const AstPattern *p, const Stream *st, const Got *g, const Absent *abs, char *why,
                              size_t size)
{
    bool det[LEN];
    int bind[64];
    if (p->absent.present) {   /* absent records only */
        static Absent want;
        absent_want(p, st, &want);
        for (int e = 0; e < st->n; e++)
            if (g[e].hit) {
                snprintf(why, size, "a match record at index %d of a pattern with absent", e + 1);
                return false;
            }
        canon_compared++;
        if (strcmp(want.text, abs->text) != 0) {
            snprintf(why, size, "absent records: interp %.180s, generated %.180s", want.text, abs->text);
            return false;
        }
        return true;
    }
    interp_detect(p, st, NULL, det);
    for (int e = 0; e < st->n; e++) {
        if (det[e] != g[e].hit) {
            snprintf(why, size, "at index %d: interp %d, generated %d", e + 1, det[e], g[e].hit);
            return false;
        }
        if (!det[e] || (g[e].start == 0 && !start_required(p)))
            continue;
        CanonMatch cm = {-1, bind};
        interp_canonical(p, st, NULL, e, &cm);
        char want[160];
        bind_text(p, bind, want, sizeof want);
        canon_compared++;
        if (g[e].start != cm.start + 1 || strcmp(want, g[e].bind) != 0) {
            snprintf(why, size, "at index %d: interp start %d %s, generated start %d %s", e + 1, cm.start + 1, want,
                     g[e].start, g[e].bind);
            return false;
        }
    }
    return true;
}

/* One batch program to build. */
typedef struct Job {
    char path[512], prog[512], cmd[2048];
    int  npatterns;
    bool built;
} Job;

/* Builds every job with patterns, GEN_DIFF_JOBS (default 2) at a time. */
static void build_all(Job *jobs, int n)
{
    const char *env = getenv("GEN_DIFF_JOBS");
    int par = env && atoi(env) > 0 ? atoi(env) : 2, running = 0;
    pid_t *pids = calloc((size_t)n, sizeof *pids);
    fflush(NULL);
    for (int i = 0, next = 0; next < n || running > 0;) {
        if (next < n && running < par) {
            Job *j = &jobs[next++];
            if (j->npatterns == 0)
                continue;
            pid_t pid = fork();
            if (pid == 0)
                _exit(system(j->cmd) == 0 ? 0 : 1);
            if (pid < 0) {
                j->built = run(j->cmd) == 0;
                continue;
            }
            pids[next - 1] = pid;
            running++;
            continue;
        }
        int status;
        pid_t pid = wait(&status);
        if (pid < 0)
            break;
        running--;
        for (i = 0; i < n; i++)
            if (pids[i] == pid)
                jobs[i].built = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }
    free(pids);
}

/* Whether the one-pattern file src is a chain (chain.h) that pred accepts. */
static bool chain_that(const char *src, bool (*pred)(const Chain *c))
{
    Arena arena;
    arena_init(&arena);
    Diag diag;
    diag_init(&diag, "chain.srem", src, strlen(src));
    Ast *ast = frontend_parse_check("chain.srem", src, strlen(src), &arena, &diag);
    bool yes = false;
    for (int d = 0; diag.nerrors == 0 && d < ast->ndecls; d++)
        if (ast->decls[d].kind == DECL_PATTERN) {
            Chain *c = chain_of(ast->decls[d].u.pattern, &arena);
            yes = c && pred(c);
        }
    diag_free(&diag);
    arena_free(&arena);
    return yes;
}

/* Without a `_` first: a batched push_many then skips its idle stretches. */
static bool skips_idle(const Chain *c) { return c->links[0].cond != NULL; }

static bool is_chain(const char *src) { return chain_that(src, skips_idle); }

/* A stam or stnm chain: its start is a scan of the window's events in
 * every layout but the chain's tags (cg_canon.c, mode 3). */
static bool policy_kind(const Chain *c) { return c->kind != CHAIN_GAPS; }

static bool is_policy_chain(const char *src) { return chain_that(src, policy_kind); }

/* The minimizer's predicate: the one-pattern file src, built under the
 * strategy (rebuilt only when src changes), disagrees with the
 * interpreter on the events or exits non-zero. */
typedef struct Oracle {
    const char *sremc, *dir;
    int         strategy;
    const char *layout;
    const char *extra;       /* more sremc options ("--no-accel"), or NULL */
    bool        bin;         /* fed as --input bin records (push_many in runs), not CSV */
    char       *built_src;   /* what prog was built from */
    bool        built;
    const char *cflags;      /* more CFLAGS ("-DSREMRT_RUNS_NO_DIRECT"), or NULL */
} Oracle;

/* text into the file at path; false if it cannot be opened. */
static bool write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fputs(text, f);
    return fclose(f) == 0;
}

/* Whether this machine runs AVX2 code: then the tables' programs fed
 * through push_many are built with -mavx2, where a three-atom gap
 * chain's scan_in is the branch-free mask scan (cg_canon.c,
 * put_scan_masks); the others keep the loops. */
static bool avx2(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    static int has = -1;
    if (has < 0)
        has = __builtin_cpu_supports("avx2") && system("echo 'int x;' | cc -mavx2 -x c -c -o /dev/null - 2>/dev/null") == 0;
    return has;
#else
    return false;
#endif
}

static const char *mask_cflags(const Oracle *o)
{
    return o->bin && strcmp(o->layout, "table") == 0 && avx2() ? "-O0 -mavx2" : "-O0";
}

/* Programs whose generated code has the mask scan (put_scan_masks). */
static int mask_scans;

/* Whether src's generated code has the mask scan: counted, so that the
 * summary says the random chains reach it. */
static void count_mask_scan(const Oracle *o, const char *src)
{
    char path[512], c[512], cmd[1400], line[256];
    snprintf(path, sizeof path, "%s/mask.srem", o->dir);
    snprintf(c, sizeof c, "%s/mask.c", o->dir);
    FILE *f;
    if (!write_text(path, src))
        return;
    snprintf(cmd, sizeof cmd, "%s emit --strategy %s --layout %s %s %s -o %s 2>/dev/null", o->sremc,
             strategies[o->strategy], o->layout, o->extra ? o->extra : "", path, c);
    if (run(cmd) != 0 || !(f = fopen(c, "r")))
        return;
    while (fgets(line, sizeof line, f))
        if (strstr(line, "the Bs in reach of a[0]")) {
            mask_scans++;
            break;
        }
    fclose(f);
}

static bool codegen_fails(const char *src, const Value *values, int n, void *ctx)
{
    Oracle *o = ctx;
    char path[512], prog[512], cmd[2048];
    snprintf(path, sizeof path, "%s/shrink.srem", o->dir);
    snprintf(prog, sizeof prog, "%s/shrink", o->dir);
    if (!o->built_src || strcmp(o->built_src, src) != 0) {
        free(o->built_src);
        o->built_src = strdup(src);
        if (!write_text(path, src))
            return false;
        snprintf(cmd, sizeof cmd, "CFLAGS='%s %s' %s build --strategy %s --layout %s %s --max-states %d --max-code-kb 1000000 %s -o %s 2>/dev/null",
                 mask_cflags(o), o->cflags ? o->cflags : "", o->sremc, strategies[o->strategy], o->layout,
                 o->extra ? o->extra : "", MAX_STATES, path, prog);
        o->built = run(cmd) == 0;
    }
    if (!o->built)
        return false;
    Got got[LEN];
    static Absent abs;
    char runner[1100];   /* run_bin.sh PROG: the CSV converted, then read as bin */
    snprintf(runner, sizeof runner, "sh %s/run_bin.sh %s", o->dir, prog);
    if (run_program(o->bin ? runner : prog, o->dir, values, n, -1, 1, got, &abs) != 0)
        return true;
    Arena arena;
    arena_init(&arena);
    Diag diag;
    diag_init(&diag, path, src, strlen(src));
    Ast *ast = frontend_parse_check(path, src, strlen(src), &arena, &diag);
    bool fails = false;
    char why[400];
    for (int d = 0; diag.nerrors == 0 && d < ast->ndecls; d++)
        if (ast->decls[d].kind == DECL_PATTERN) {
            Stream st = {n, GEN_NATTRS, values};
            fails = !records_agree(ast, ast->decls[d].u.pattern, &st, got, &abs, why, sizeof why);
        }
    diag_free(&diag);
    arena_free(&arena);
    return fails;
}

/* The one-pattern file src built as o says against the interpreter on
 * three random streams; what: the program's kind, in a mismatch report.
 * Returns the failures (a mismatch is shrunk and printed). */
static int one_file(Oracle *o, const char *src, const char *what, unsigned long long seed, int i, Rng *r,
                    Value *values, int *compared)
{
    int failures = 0;
    for (int k = 0; k < 3 && !failures; k++) {
        gen_stream(r, LEN, values);
        ++*compared;
        if (codegen_fails(src, values, LEN, o)) {
            fprintf(stderr, "MISMATCH %s%s, seed %llu, pattern %d\n%s\nstream:\n", what,
                    o->extra ? " (--no-accel)" : "", seed, i, src);
            shrink_print_stream(stderr, values, LEN);
            char title[200];
            snprintf(title, sizeof title, "codegen differential, %s, pattern from seed", what);
            shrink_report(title, seed, src, values, LEN, codegen_fails, o, SHRINK_CALLS);
            failures++;
        }
    }
    free(o->built_src);
    return failures;
}

/* Whether src's runs program has a direct-coded dense step (pN_dstep). */
static bool runs_direct(const char *sremc, const char *dir, const char *src)
{
    char path[512], cmd[1600];
    snprintf(path, sizeof path, "%s/direct.srem", dir);
    if (!write_text(path, src))
        return false;
    snprintf(cmd, sizeof cmd, "%s %s --strategy runs -o %s/direct.c 2>/dev/null && grep -q '_dstep(' %s/direct.c",
             sremc, path, dir, dir);
    return run(cmd) == 0;
}

/* Thousands of live runs (issue 14): NMANY As with distinct keys in a
 * seeded order, two Cs (each forks every run of p1 in one event), then a
 * B for every key in another order, v in 1..3 (3: no y.v). Hosted run
 * sets grow: with the default options nothing is dropped, and every B
 * matches p0, and p1 when its v is a C's. With --max-runs MANY_LIMIT only the first
 * MANY_LIMIT As' runs fit, in p0 and p1 alike, and the forks at the Cs do
 * not (the set is full of p1's runs that stay): the stats count
 * 2 (NMANY - MANY_LIMIT) + 2 MANY_LIMIT dropped runs, p1 has no record
 * and p0 has the records of the Bs whose A fit. */
enum { NMANY = 5000, MANY_LIMIT = 100 };
static const char many_src[] = GEN_SCHEMA
    "pattern p0 on E within 1 h { x:A _* [t == B && k == x.k] }\n"
    "pattern p1 on E within 1 h { x:A _* y:C _* [t == B && k == x.k && v == y.v] }\n";

/* A seeded permutation of 1..n in perm. */
static void shuffle(Rng *r, int *perm, int n)
{
    for (int i = 0; i < n; i++)
        perm[i] = i + 1;
    for (int i = n - 1; i > 0; i--) {
        int j = rng_int(r, 0, i), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
}

/* Runs prog OPTS on dir/stream.csv (n events): got[p * n + e] for pattern
 * pP, *dropped from the stats' "runs N" (0 without one). The exit status. */
/* Runs the many-runs program: the records in got, the runs dropped, and
 * in *nostart the match records without start when nothing else was lost
 * (-1: something else was). */
static int run_many(const char *prog, const char *opts, const char *dir, int n, bool *got, long long *dropped,
                    long long *nostart)
{
    char cmd[2048], line[512];
    snprintf(cmd, sizeof cmd, "%s --format jsonl --stats %s %s/stream.csv 2>%s/many.stats", prog, opts, dir, dir);
    memset(got, 0, 2 * (size_t)n);
    FILE *out = popen(cmd, "r");
    if (!out)
        return -1;
    int pi, idx;
    while (fgets(line, sizeof line, out))
        if (sscanf(line, "{\"kind\":\"match\",\"name\":\"p%d\",\"index\":%d", &pi, &idx) == 2 && pi >= 0 &&
            pi < 2 && idx >= 1 && idx <= n)
            got[(size_t)pi * (size_t)n + (size_t)idx - 1] = true;
    int rc = pclose(out);
    snprintf(cmd, sizeof cmd, "%s/many.stats", dir);
    FILE *st = fopen(cmd, "r");
    *dropped = 0;
    *nostart = 0;
    while (st && fgets(line, sizeof line, st)) {
        if (strncmp(line, "overflows", 9) != 0)
            continue;
        const char *k = strstr(line, "(runs "), *s = strstr(line, "start ");
        if (k)
            *dropped = atoll(k + 6);
        long long all = atoll(line + 9);
        *nostart = s ? (atoll(s + 6) == all ? all : -1) : all == 0 ? 0 : -1;
    }
    if (st)
        fclose(st);
    return rc;
}

/* The many-runs test above; the number of failures. */
static int many_runs(const char *sremc, const char *dir, uint64_t seed)
{
    int n = 2 * NMANY + 2, fails = 0, *perm = malloc(sizeof(int) * NMANY);
    Value *values = calloc((size_t)n * GEN_NATTRS, sizeof *values);
    bool *got = malloc(2 * (size_t)n), *want = malloc(2 * (size_t)n);
    char path[512], prog[512], cmd[2048], csv[512];
    Rng r = {seed};
    if (!perm || !values || !got || !want)
        return 1;
    for (int pass = 0, e = 0; pass < 2; pass++) {
        shuffle(&r, perm, NMANY);
        for (int i = 0; i < NMANY; i++, e++) {
            Value *v = values + (size_t)(e + 2 * pass) * GEN_NATTRS;
            v[GEN_T].i = pass ? 1 : 0;   /* A, then B */
            v[GEN_K].i = perm[i];
            v[GEN_V].i = pass ? rng_int(&r, 1, 3) : 0;
        }
    }
    for (int c = 0; c < 2; c++) {   /* the Cs, after the As */
        Value *v = values + (size_t)(NMANY + c) * GEN_NATTRS;
        v[GEN_T].i = 2;
        v[GEN_V].i = c + 1;
    }
    for (int e = 0; e < n; e++)   /* all within the hour */
        values[(size_t)e * GEN_NATTRS + GEN_TIME].i = e / 4;
    snprintf(path, sizeof path, "%s/many.srem", dir);
    snprintf(prog, sizeof prog, "%s/many", dir);
    FILE *f = fopen(path, "w");
    if (!f || fputs(many_src, f) < 0 || fclose(f) != 0 || !write_csv(dir, values, n, csv, sizeof csv))
        return 1;
    snprintf(cmd, sizeof cmd, "CFLAGS=-O1 %s build --strategy runs %s -o %s", sremc, path, prog);
    if (run(cmd) != 0) {
        fprintf(stderr, "FAIL: %s\n", cmd);
        return 1;
    }
    /* the oracle, from the stream's making (the interpreter agrees, but
       takes seconds on it): every B matches p0, and p1 when its v is a C's */
    memset(want, 0, 2 * (size_t)n);
    for (int e = NMANY + 2; e < n; e++) {
        want[e] = true;
        want[n + e] = values[(size_t)e * GEN_NATTRS + GEN_V].i <= 2;
    }
    long long dropped, nostart;
    int rc = run_many(prog, "", dir, n, got, &dropped, &nostart);
    /* exit 0, or 3 for records left without start only: a replay from an A
       thousands of events back can exceed its step bound (counted, not a
       run dropped) */
    bool status_ok = rc == 0 || (WIFEXITED(rc) && WEXITSTATUS(rc) == 3 && nostart > 0);
    if (!status_ok || dropped != 0 || memcmp(got, want, 2 * (size_t)n) != 0) {
        fprintf(stderr, "FAIL many runs, seed %llu: exit %d, %lld runs dropped, %lld without start, records %s\n",
                (unsigned long long)seed, rc, dropped, nostart,
                memcmp(got, want, 2 * (size_t)n) ? "wrong" : "right");
        fails++;
    }
    long long nostart_all = nostart;
    /* the limit: p0 keeps the runs of the first MANY_LIMIT As */
    bool *kept = calloc((size_t)NMANY + 1, 1);
    for (int e = 0; e < MANY_LIMIT; e++)
        kept[values[(size_t)e * GEN_NATTRS + GEN_K].i] = true;
    snprintf(cmd, sizeof cmd, "--max-runs %d", MANY_LIMIT);
    rc = run_many(prog, cmd, dir, n, got, &dropped, &nostart);
    long long want_dropped = 2LL * (NMANY - MANY_LIMIT) + 2LL * MANY_LIMIT;
    int bad = -1;
    for (int e = 0; e < n && bad < 0; e++) {
        const Value *v = values + (size_t)e * GEN_NATTRS;
        if (got[e] != (want[e] && kept[v[GEN_K].i]) || got[n + e])
            bad = e;
    }
    /* exit 0, or 3 where dropped runs make an error record */
    if (!WIFEXITED(rc) || (WEXITSTATUS(rc) != 0 && WEXITSTATUS(rc) != 3) || dropped != want_dropped || bad >= 0) {
        fprintf(stderr, "FAIL many runs under --max-runs %d, seed %llu: status %d, %lld runs dropped (want %lld), "
                "first wrong record at index %d\n", MANY_LIMIT, (unsigned long long)seed, rc, dropped,
                want_dropped, bad + 1);
        fails++;
    }
    printf("diff_codegen: %d events with up to %d live runs per pattern, seed %llu: %s (%lld records without "
           "start: the replay's bounds)\n", n, 3 * NMANY, (unsigned long long)seed,
           fails ? "FAIL" : "every record, none dropped; under --max-runs, the records of the runs that fit and the "
           "drops counted", nostart_all);
    free(kept);
    free(perm);
    free(values);
    free(got);
    free(want);
    return fails;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s SREMC WORKDIR [NPATTERNS [SEED [BATCH]]]\n", argv[0]);
        return 2;
    }
    const char *sremc = argv[1], *dir = argv[2];
    int npat = (argc > 3 ? atoi(argv[3]) : 1000) * diff_scale();
    uint64_t seed = argc > 4 ? strtoull(argv[4], NULL, 0) : 20240601u;
    int batch = argc > 5 ? atoi(argv[5]) : 250;
    if (npat < 1 || batch < 1) {
        fprintf(stderr, "%s: NPATTERNS and BATCH must be positive\n", argv[0]);
        return 2;
    }
    Rng r = {seed};
    Pat *pats = calloc((size_t)npat, sizeof *pats);
    Got *got = malloc((size_t)batch * LEN * sizeof *got);
    Absent *abs = malloc((size_t)batch * sizeof *abs);
    if (!pats || !got || !abs)
        return 2;
    for (int i = 0; i < npat; i++) {
        GenOpts o = {0};
        int kind = i % 4;
        o.registers = kind >= 1;
        o.complement = kind == 3;
        o.intersection = kind != 1;
        o.time_window = kind == 2 || kind == 0;
        o.partition = i % 3 == 0;
        o.policies = i % 5 == 0;
        o.chains = i % 5 == 2;
        o.max_depth = 3;
        o.max_window = 5;
        if (i % 5 == 3)   /* often with an absent clause */
            gen_pattern_absent(&r, &o, pats[i].src, sizeof pats[i].src);
        else
            gen_pattern(&r, &o, pats[i].src, sizeof pats[i].src);
        const char *p = strstr(pats[i].src, "pattern p ");
        if (!p)
            p = "";
        snprintf(pats[i].body, sizeof pats[i].body, "pattern p%d %s", i, p[0] ? p + 10 : "");
        for (int s = 0; s < 4; s++)
            pats[i].ok[s] = p[0] && gen_applies(pats[i].src, s, MAX_STATES, s == 0 ? &pats[i].chosen : NULL);
        char no_ts[sizeof pats[i].src + sizeof GEN_SCHEMA_NO_TS];
        snprintf(no_ts, sizeof no_ts, "%s%s", GEN_SCHEMA_NO_TS, pats[i].src + strlen(GEN_SCHEMA));
        pats[i].no_ts = pats[i].ok[0] && gen_applies(no_ts, 0, MAX_STATES, NULL);
    }
    int failures = 0, compared = 0, programs = 0;
    Value *values = malloc(sizeof(Value) * LEN * GEN_NATTRS);
    /* every batch file first, then their builds, two at a time; jobs
       4 * nbatches on are the timestamp-free builds */
    int nbatches = (npat + batch - 1) / batch, njobs = 5 * nbatches;
    Job *jobs = calloc((size_t)njobs, sizeof *jobs);
    for (int s = 0; s < 4; s++)
        for (int b = 0; b < nbatches; b++) {
            Job *j = &jobs[s * nbatches + b];
            int b0 = b * batch;
            snprintf(j->path, sizeof j->path, "%s/b_%s_%d.srem", dir, strategies[s], b0);
            snprintf(j->prog, sizeof j->prog, "%s/b_%s_%d", dir, strategies[s], b0);
            FILE *f = fopen(j->path, "w");
            if (!f)
                return 2;
            fputs(GEN_SCHEMA, f);
            /* a forced strategy that auto picks builds the same code:
               programs of forced strategies take the other patterns; but
               forced tdfa and dsra take all, with the layouts auto does
               not always use: tdfa --layout table, tree, chain and nodes
               in turn (auto prefers tables to chains without start tags,
               so the gap chains are mostly built by --layout chain), dsra
               nodes and tree */
            for (int i = b0; i < b0 + batch && i < npat; i++)
                if (pats[i].ok[s] && (s <= 2 || !pats[i].ok[0] || pats[i].chosen != s)) {
                    fprintf(f, "%s\n", pats[i].body);
                    j->npatterns++;
                }
            fclose(f);
            /* the matcher as 1, 2 and 3 translation units in turn (cg_split) */
            snprintf(j->cmd, sizeof j->cmd,
                     "CC=%s CFLAGS='" WARN_CFLAGS " %s' %s build --strategy %s --layout %s --max-states %d --max-code-kb 1000000 "
                     "--cc-parts %d %s -o %s 2>%s.log", cc_of(s * nbatches + b), runs_cflags(s, b), sremc, strategies[s],
                     layout_of(s, b), MAX_STATES, 1 + b % 3, j->path, j->prog, j->prog);
        }
    for (int b = 0; b < nbatches; b++) {
        Job *j = &jobs[4 * nbatches + b];
        snprintf(j->path, sizeof j->path, "%s/b_nots_%d.srem", dir, b * batch);
        snprintf(j->prog, sizeof j->prog, "%s/b_nots_%d", dir, b * batch);
        FILE *f = fopen(j->path, "w");
        if (!f)
            return 2;
        fputs(GEN_SCHEMA_NO_TS, f);
        for (int i = b * batch; i < (b + 1) * batch && i < npat; i++)
            if (pats[i].no_ts) {
                fprintf(f, "%s\n", pats[i].body);
                j->npatterns++;
            }
        fclose(f);
        snprintf(j->cmd, sizeof j->cmd, "CC=%s CFLAGS='" WARN_CFLAGS "' %s build --max-states %d --cc-parts %d %s -o %s 2>%s.log",
                 cc_of(b + 1), sremc, MAX_STATES, 1 + (b + 1) % 2, j->path, j->prog, j->prog);
    }
    build_all(jobs, njobs);
    for (int s = 0; s < 4 && !failures; s++) {
        for (int b0 = 0; b0 < npat && !failures; b0 += batch) {
            const Job *j = &jobs[s * nbatches + b0 / batch];
            const char *path = j->path, *prog = j->prog;
            char cmd[2048];
            if (j->npatterns == 0)
                continue;
            if (!j->built) {
                fprintf(stderr, "FAIL: %s\n", j->cmd);
                snprintf(cmd, sizeof cmd, "tail -40 %s.log >&2", prog);
                run(cmd);
                failures++;
                break;
            }
            programs++;
            /* the batch, checked in-process, for the oracle */
            size_t len;
            char *src = frontend_read_file(path, &len);
            Arena arena;
            arena_init(&arena);
            Diag diag;
            diag_init(&diag, path, src, len);
            Ast *ast = frontend_parse_check(path, src, len, &arena, &diag);
            for (int k = 0; k < STREAMS && !failures; k++) {
                gen_stream(&r, LEN, values);
                int prc = run_program(prog, dir, values, LEN, b0, batch, got, abs);
                if (prc != 0) {
                    fprintf(stderr, "FAIL: %s on %s/stream.csv exited with %d\n", prog, dir, prc);
                    failures++;
                }
                Stream st = {LEN, GEN_NATTRS, values};
                for (int d = 0; d < ast->ndecls && !failures; d++) {
                    if (ast->decls[d].kind != DECL_PATTERN)
                        continue;
                    const AstPattern *p = ast->decls[d].u.pattern;
                    int pi = atoi(p->name + 1);
                    const Got *g = got + (size_t)(pi - b0) * LEN;
                    char why[400];
                    compared++;
                    if (!records_agree(ast, p, &st, g, abs + (pi - b0), why, sizeof why)) {
                        fprintf(stderr, "MISMATCH strategy %s seed %llu: %s %s\n%s\nstream:\n", strategies[s],
                                (unsigned long long)seed, p->name, why, pats[pi].body);
                        shrink_print_stream(stderr, values, LEN);
                        char what[128];
                        snprintf(what, sizeof what, "codegen differential, strategy %s, pattern %d from seed",
                                 strategies[s], pi);
                        Oracle o = {sremc, dir, s, layout_of(s, b0 / batch), NULL, false, NULL, false, runs_cflags(s, b0 / batch)};
                        shrink_report(what, seed, pats[pi].src, values, LEN, codegen_fails, &o, SHRINK_CALLS);
                        free(o.built_src);
                        failures++;
                    }
                }
            }
            diag_free(&diag);
            arena_free(&arena);
            free(src);
        }
    }
    /* Files of one pattern: push_many is then the pattern's threaded run
       function (tree layout), which the batches never build, with the
       start state's skip (cg_accel.c) and, every other pattern, without
       it (--no-accel): both paths against the interpreter. */
    int singles = 0;
    for (int i = 0; i < npat && singles < NSINGLE * diff_scale() && !failures; i++) {
        if (!pats[i].ok[0] || (pats[i].chosen != STRATEGY_TDFA && pats[i].chosen != STRATEGY_DSRA))
            continue;
        Oracle o = {sremc, dir, 0, "tree", singles % 2 ? "--no-accel" : NULL, false, NULL, false, NULL};
        failures += one_file(&o, pats[i].src, "one-pattern program (threaded)", (unsigned long long)seed, i, &r,
                             values, &compared);
        singles++;
    }
    /* Starts without a replay (cg_canon.c): register-free patterns with a
       count window up to 12, often stam and stnm chains, one a file,
       forced dsra (the threaded run: each transition that completes a
       match knows how far back its greatest start is, mode 4) and, for a
       chain, forced tdfa --layout table (a backward scan at the
       detection, mode 3); seeds of their own, after the others'. */
    int backs = 0;
    Rng rb = {seed ^ 0x6261636bu};
    for (int i = 0; backs < NBACK * diff_scale() && i < 100 * NBACK * diff_scale() && !failures; i++) {
        GenOpts go = {0};
        go.intersection = i % 2 == 0;
        go.complement = i % 4 == 1;
        go.policies = true;
        go.chains = true;
        go.max_depth = 3;
        go.max_window = 12;
        char src[sizeof pats[0].src];
        gen_pattern(&rb, &go, src, sizeof src);
        if (!strstr(src, " events") || !gen_applies(src, 2, MAX_STATES, NULL))
            continue;
        Oracle o = {sremc, dir, 2, "tree", NULL, false, NULL, false, NULL};
        failures += one_file(&o, src, "one-pattern dsra program (start by back)", (unsigned long long)seed, i, &rb,
                             values, &compared);
        if (!failures && is_policy_chain(src) && gen_applies(src, 1, MAX_STATES, NULL)) {
            Oracle t = {sremc, dir, 1, "table", NULL, false, NULL, false, NULL};
            failures += one_file(&t, src, "one-chain tdfa table program (start by scan)", (unsigned long long)seed,
                                 i, &rb, values, &compared);
        }
        backs++;
    }
    /* Files of one register-free runs pattern (its pN_eval, where the
       batches' files of many take the file's shared vector), every other
       compiled with -DSREMRT_RUNS_NO_DIRECT: the direct-coded dense step
       and the table one against the interpreter; seeds of their own. A
       run in which no pattern reaches the direct-coded step fails. */
    int rsingles = 0, rdirect = 0;
    Rng rr = {seed ^ 0x72756e73u};
    for (int i = 0; rsingles < NRUNS1 * diff_scale() && i < 100 * NRUNS1 * diff_scale() && !failures; i++) {
        GenOpts go = {0};
        go.intersection = i % 2 == 0;
        go.complement = i % 4 == 1;
        go.policies = i % 3 != 2;
        go.chains = i % 3 == 0;
        go.time_window = i % 2 == 1;
        go.max_depth = 3;
        go.max_window = 8;
        char src[sizeof pats[0].src];
        gen_pattern(&rr, &go, src, sizeof src);
        if (!gen_applies(src, 3, MAX_STATES, NULL))
            continue;
        bool direct = runs_direct(sremc, dir, src), tables = rsingles % 2;
        rdirect += direct && !tables;
        Oracle o = {sremc, dir, 3, "auto", NULL, false, NULL, false, tables ? "-DSREMRT_RUNS_NO_DIRECT" : NULL};
        failures += one_file(&o, src,
                             direct && !tables ? "one-pattern runs program (direct-coded step)"
                                               : "one-pattern runs program (table step)",
                             (unsigned long long)seed, i, &rr, values, &compared);
        rsingles++;
    }
    if (!failures && rdirect == 0) {
        fprintf(stderr, "FAIL: no one-pattern runs program took the direct-coded step, seed %llu\n",
                (unsigned long long)seed);
        failures++;
    }
    /* Files of one chain: push_many is batched and skips the events of
       an idle chain (cg_accel.c); with and without (--no-accel) in turn,
       fed as --input bin records, which the program hands to push_many in
       runs (CSV goes through push, one event at a time). --convert-bin
       takes no string attribute, so u is an enum of the same values
       there (equal as strings are, the same records). */
    char wrapper[600];
    snprintf(wrapper, sizeof wrapper, "%s/run_bin.sh", dir);
    FILE *wf = fopen(wrapper, "w");
    if (wf) {
        fputs("# run_bin.sh PROG OPTIONS... CSV: PROG OPTIONS on the CSV's events as --input bin records\n"
              "prog=$1; shift; opts=\"\"\n"
              "while [ $# -gt 1 ]; do opts=\"$opts $1\"; shift; done\n"
              "\"$prog\" --convert-bin \"$1.bin\" \"$1\" 2>/dev/null && exec \"$prog\" $opts --input bin \"$1.bin\"\n",
              wf);
        fclose(wf);
    }
    int chains = 0;
    for (int i = 0; i < npat && chains < NCHAIN * diff_scale() && !failures; i++) {
        static const char str[] = "u : string;", en[] = "u : enum { a, b, c, \"d d\" };";
        char src[sizeof pats[i].src + sizeof en];
        const char *at = strstr(pats[i].src, str);
        if (!pats[i].ok[1] || !at)
            continue;
        snprintf(src, sizeof src, "%.*s%s%s", (int)(at - pats[i].src), pats[i].src, en, at + strlen(str));
        if (!is_chain(src))
            continue;
        /* every other pair in tables: a short gap chain's start is then
           its scan's, whose first try (the span in push_many's array)
           only push_many runs */
        Oracle o = {sremc, dir, 1, chains % 4 < 2 ? "chain" : "table", chains % 2 ? "--no-accel" : NULL, true, NULL,
                    false, NULL};
        failures += one_file(&o, src, "one-chain program", (unsigned long long)seed, i, &r, values, &compared);
        if (strcmp(mask_cflags(&o), "-O0") != 0)
            count_mask_scan(&o, src);
        if (!o.built) {   /* codegen_fails says nothing of a file that does not build */
            fprintf(stderr, "FAIL one-chain program does not build, seed %llu, pattern %d\n%s\n",
                    (unsigned long long)seed, i, src);
            failures++;
        }
        chains++;
    }
    /* Three-atom gap chains `X _{0,g1} Y _{0,g2} Z` of every span up to
       32, one a file, in tables fed to push_many: their start is
       scan_in's, the mask scan where the machine has AVX2 (the random
       chains above reach it rarely); seeds of their own. */
    static const char *const atoms[] = {"[t == A]", "[t == B]", "[t != C]", "[v > 2]", "[v < 4 && t != A]",
                                        "[k == 1 || t == C]", "[u == \"a\"]"};
    const int natoms = (int)(sizeof atoms / sizeof *atoms);
    int threes = 0;
    Rng r3 = {seed ^ 0x6d61736bu};
    for (int i = 0; threes < NTHREE * diff_scale() && !failures; i++) {
        static const char str[] = "u : string;", en[] = "u : enum { a, b, c, \"d d\" };";   /* --input bin */
        const char *at = strstr(GEN_SCHEMA, str);
        char src[sizeof pats[0].src];
        int g1 = rng_int(&r3, 0, 14), g2 = rng_int(&r3, 0, 29 - g1);
        snprintf(src, sizeof src, "%.*s%s%spattern p on E { %s _{0,%d} %s _{0,%d} %s }\n", (int)(at - GEN_SCHEMA),
                 GEN_SCHEMA, en, at + strlen(str), atoms[rng_int(&r3, 0, natoms - 1)], g1,
                 atoms[rng_int(&r3, 0, natoms - 1)], g2, atoms[rng_int(&r3, 0, natoms - 1)]);
        Oracle o = {sremc, dir, 1, "table", threes % 2 ? "--no-accel" : NULL, true, NULL, false, NULL};
        failures += one_file(&o, src, "one three-atom gap chain in tables", (unsigned long long)seed, i, &r3, values,
                             &compared);
        if (strcmp(mask_cflags(&o), "-O0") != 0)
            count_mask_scan(&o, src);
        if (!o.built) {
            fprintf(stderr, "FAIL three-atom gap chain does not build, seed %llu, pattern %d\n%s\n",
                    (unsigned long long)seed, i, src);
            failures++;
        }
        threes++;
    }
    if (!failures && avx2() && threes > 0 && mask_scans == 0) {   /* what the loop above is for */
        fprintf(stderr, "FAIL: no three-atom gap chain reached the mask scan, seed %llu\n", (unsigned long long)seed);
        failures++;
    }
    /* the timestamp-free builds: built only, checked last so that a
       warning there does not hide a mismatch */
    int nots = 0;
    for (int k = 4 * nbatches; k < njobs; k++) {
        if (jobs[k].npatterns == 0)
            continue;
        nots += jobs[k].npatterns;
        if (!jobs[k].built) {
            fprintf(stderr, "FAIL (timestamp-free schema): %s\n", jobs[k].cmd);
            char cmd[1100];
            snprintf(cmd, sizeof cmd, "tail -40 %s.log >&2", jobs[k].prog);
            run(cmd);
            failures++;
            break;
        }
    }
    if (!failures)
        failures += many_runs(sremc, dir, seed);
    int napply[4] = {0};
    for (int i = 0; i < npat; i++)
        for (int s = 0; s < 4; s++)
            napply[s] += pats[i].ok[s];
    int nbuilt[4] = {0};
    for (int k = 0; k < 4 * nbatches; k++)
        nbuilt[k / nbatches] += jobs[k].npatterns;
    printf("diff_codegen: seed %llu, %d random patterns (scale %d); applies: auto %d, tdfa %d, dsra %d, runs %d; "
           "built: auto %d, forced tdfa %d (all, --layout table, tree, chain and nodes), dsra %d (all, "
           "--layout nodes and tree), runs %d (where auto picks another), %d on a schema without a timestamp "
           "(built only); warning-free under $CC and clang; %d programs of up to %d patterns and %d of one "
           "pattern (half --no-accel), %d of one chain (half --no-accel), %d of one three-atom gap chain in tables (%d of "
           "both with the mask scan, -mavx2), %d of one register-free dsra pattern and %d of one "
           "register-free runs pattern (%d of them direct-coded, the others by the table step), %d pattern-stream "
           "comparisons (%ld records' start and bind), %d failures\n",
           (unsigned long long)seed, npat, diff_scale(), napply[0], napply[1], napply[2], napply[3], nbuilt[0],
           nbuilt[1], nbuilt[2], nbuilt[3], nots, programs, batch, singles, chains, threes, mask_scans, backs, rsingles,
           rdirect, compared, canon_compared,
           failures);
    free(pats);
    free(jobs);
    free(got);
    free(abs);
    free(values);
    return failures ? 1 : 0;
}
