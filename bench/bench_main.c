/* bench_main.c: the benchmark driver (`make bench`, bench/run.sh): the
 * workloads of docs/workloads.md through every generated matcher of the entry
 * table (build/bench/entries.c) and, on the same streams in the same
 * process, the floors, naive matchers, Hyperscan and the reference
 * interpreter; then (--report) medians, ratios, tables and JSON.
 *
 * Streams, generated in memory with the bit-exact generator (xorshift64,
 * seed 88172645463325252, step first, type = x mod K): one-byte types
 * ('A' + type, what Hyperscan scans) for K = 10 and 26, N = 50 M, so the
 * golden counts apply; for B8 a K = 26 stream whose A has probability
 * p (per mille); 16-byte records {ts = i, type, val} for B7 (val, which
 * docs/workloads.md leaves open: the top 24 bits of the same x, in [0, 1)).
 *
 * A wrong answer is a failure, not a figure. Every row's count is checked:
 * against the golden count of docs/workloads.md when the row ran the full 50 M
 * stream and has one, else against the first matcher of its workload on
 * the same events (run on the row's prefix when the row ran a prefix);
 * every repetition must give the same count, no capacity may overflow,
 * and (--report) every process must agree. A failure prints FAILED and the
 * exit status is 1.
 *
 * Times are thread CPU time (these 2-CPU machines are shared; a
 * descheduled benchmark would otherwise report the other processes' share
 * as its slowness). Slow baselines (naive at large windows, one Hyperscan
 * call per event, the interpreter) run a prefix that fits the time budget.
 *
 * usage: bench [--full] [-r REPS] [-b REPS] [-n EVENTS] [--budget SECONDS] --raw FILE
 *   -r: repetitions of matchers and floors (2; --full 5), -b: of the
 *   baselines (1; --full 3); --budget: seconds a baseline repetition may
 *   take (0.5; --full 1; a matcher: 8x that)
 *        bench --report [--json FILE] [--md FILE] [--dat FILE] [--meta FILE]
 *              [--episodes FILE] [--explore FILE] RAW...
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "timing.h"

#include "baselines.h"
#include "bench.h"

#ifdef BENCH_INTERP
int bench_interp(const char *path, const uint8_t *ty, const bench_rec *rec, size_t n,
                 uint64_t *count);
#endif

enum { MAXREP = 64, GOLDEN_N = 50000000 };

/* ---- streams -------------------------------------------------------------------- */

#define SEED 88172645463325252ULL

static uint64_t xs_step(uint64_t x)
{
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
}

/* Event i: step first, then type = x mod K (docs/workloads.md). */
static void gen_bytes(uint8_t *ty, size_t n, uint32_t k)
{
    uint64_t x = SEED;
    size_t i;
    for (i = 0; i < n; i++) {
        x = xs_step(x);
        ty[i] = (uint8_t)('A' + x % k);
    }
}

/* B8: A with probability pm / 1000 (the top 53 bits of x as a fraction),
 * else one of the other 25 of K = 26 types (x mod 25). */
static void gen_rare(uint8_t *ty, size_t n, int pm)
{
    uint64_t x = SEED, lim = (uint64_t)((double)pm / 1000.0 * 9007199254740992.0);
    size_t i;
    for (i = 0; i < n; i++) {
        x = xs_step(x);
        ty[i] = (x >> 11) < lim ? 'A' : (uint8_t)('B' + x % 25);
    }
}

/* 16-byte records: ts = i, type = x mod K, val = top 24 bits of x. */
static void gen_recs(bench_rec *ev, size_t n, uint32_t k)
{
    uint64_t x = SEED;
    size_t i;
    for (i = 0; i < n; i++) {
        x = xs_step(x);
        ev[i].ts = i;
        ev[i].type = (uint32_t)(x % k);
        ev[i].val = (float)(x >> 40) * (1.0f / 16777216.0f);
    }
}

/* ---- timing, memory -------------------------------------------------------------- */

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Peak RSS since the last rss_reset (Linux: clear_refs 5 resets VmHWM). */
static void rss_reset(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (f) {
        fputs("5", f);
        fclose(f);
    }
}

static long rss_peak_kb(void)
{
    char line[256];
    long kb = 0;
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "VmHWM:", 6))
            kb = atol(line + 6);
    fclose(f);
    return kb;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        perror("malloc");
        exit(1);
    }
    return p;
}

volatile uint64_t bench_sink;

/* ---- golden counts (docs/workloads.md, N = 50 M) ------------------------------------------ */

typedef struct golden {
    const char *wl;
    int k;
    long w;
    uint64_t count;
} golden;

static const golden goldens[] = {
    /* end positions of A.{0,w-2}B.{0,w-2}C */
    {"B2", 26, 10, 178227}, {"B2", 10, 10, 2023093}, {"B2", 10, 50, 4970741},
    {"B2", 10, 100, 5002106}, {"B2", 26, 100, 1874401}, {"B2", 10, 1000, 5002280},
    {"B2", 26, 1000, 1922943},
    /* SEQ(A,B,C) stam, span <= w: matches (triples) */
    {"B3", 26, 10, 102103}, {"B3", 10, 10, 1797243}, {"B3", 10, 50, 58729025},
    {"B3", 10, 100, 242258859}, {"B3", 26, 100, 13796857}, {"B3", 10, 1000, 24905662059ULL},
    {"B3", 26, 1000, 1417798134},
    /* SEQ(A,B,C) stam within w: detections */
    {"B1", 26, 10, 85425}, {"B1", 10, 10, 1125196}, {"B1r", 26, 10, 85425},
    {"B1r", 10, 10, 1125196},
};

static const golden *find_golden(const char *wl, int k, long w)
{
    size_t i;
    for (i = 0; i < sizeof goldens / sizeof goldens[0]; i++)
        if (!strcmp(goldens[i].wl, wl) && goldens[i].k == k && goldens[i].w == w)
            return &goldens[i];
    return NULL;
}

/* ======== run mode ======================================================================= */

/* One stream and the rows run on it. */
typedef struct group {
    int k;
    int pm;                 /* B8: A per mille; 0: the uniform stream */
    const uint8_t *ty;      /* one-byte types, or NULL */
    const bench_rec *rec;   /* records, or NULL */
    size_t n;
} group;

enum jobkind {
    J_ENTRY, J_SUM8, J_DFA64, J_REC16, J_STAM, J_GAP, J_TRIPLES, J_KLEENE, J_REG3,
    J_HS, J_HS1, J_INTERP, J_CSTAM, J_CGAP
};

/* What one row runs. */
typedef struct job {
    enum jobkind kind;
    const bench_entry *e;   /* J_ENTRY */
    hsb *hs;                /* J_HS, J_HS1 */
    const char *srem;       /* J_INTERP */
    const uint8_t *atoms;   /* J_STAM */
    int m;
    long w;                 /* window or gap bound */
    double d;               /* J_REG3 */
} job;

typedef struct opts {
    int full, reps;
    int breps;              /* repetitions of the baselines (naive, hs, interp) */
    size_t n;               /* -n: events per stream (0: 50 M, records 10 M) */
    double budget;          /* seconds a slow baseline may take per repetition */
    double mbudget;         /* the same for a generated matcher */
    FILE *raw;
} opts;

static int failed;
static uint8_t dfa_table[64][256];

/* One pass of j over the first n events of g: thread CPU seconds. */
static double job_run(const job *j, const group *g, size_t n, bench_counts *c, uint64_t *ovf)
{
    double t0, t;
    void *m = NULL;
    memset(c, 0, sizeof *c);
    *ovf = 0;
    if (j->kind == J_ENTRY)
        m = j->e->ops->open_counts(c, 0);
    t0 = now();
    switch (j->kind) {
    case J_ENTRY:
        if (g->ty)
            j->e->ops->feed8(m, g->ty, n);
        else
            j->e->ops->feed(m, g->rec, n);
        break;
    case J_SUM8: bench_sink += base_sum8(g->ty, n); break;
    case J_DFA64: bench_sink += base_dfa64((const uint8_t(*)[256])dfa_table, g->ty, n); break;
    case J_REC16: bench_sink += base_rec16(g->rec, n); break;
    case J_STAM: c->matches = base_stam(g->ty, n, j->atoms, j->m, j->w); break;
    case J_GAP: c->matches = base_gap(g->ty, n, j->w); break;
    case J_TRIPLES: c->summary = base_triples(g->ty, n, j->w); break;
    case J_KLEENE: c->matches = base_kleene(g->ty, n, j->w); break;
    case J_REG3: c->matches = base_reg3(g->rec, n, j->d); break;
    case J_CSTAM: c->matches = base_counter_stam(g->ty, n, j->w); break;
    case J_CGAP: c->matches = base_counter_gap(g->ty, n, j->w); break;
    case J_HS: c->matches = hsb_scan(j->hs, g->ty, n, 65536, NULL, 1); break;
    case J_HS1: c->matches = hsb_scan(j->hs, g->ty, n, 1, NULL, 1); break;
    case J_INTERP:
#ifdef BENCH_INTERP
        if (bench_interp(j->srem, g->ty, g->rec, n, &c->matches) != 0) {
            printf("FAILED: the interpreter could not load %s\n", j->srem);
            failed = 1;
        }
#endif
        break;
    }
    t = now() - t0;
    if (j->kind == J_ENTRY) {
        *ovf = j->e->ops->close(m);
    }
    return t;
}

/* The count a row is judged by: matches for B3 (the summary), else
 * detections. */
static uint64_t main_count(const char *wl, const bench_counts *c)
{
    return !strcmp(wl, "B3") ? c->summary : c->matches;
}

/* ---- reference counts -------------------------------------------------------------- */

/* Every row of a workload (K, w, p) is compared with one reference count
 * on the same events: golden when it applies, else the count of an
 * oracle run on the row's events when none has counted them yet: the
 * fastest independent method of the workload measured so far in the
 * group (the naive matcher, Hyperscan; they run first) if it takes under
 * 10 s, else the fastest generated matcher. The first row of a workload
 * is its own reference. B8 and B1r fall back on the matchers of B1 and B2
 * for their first reference. */

static const char *ref_wl(const char *wl)
{
    if (!strcmp(wl, "B8s") || !strcmp(wl, "B1r"))
        return "B1";
    if (!strcmp(wl, "B8g"))
        return "B2";
    return wl;
}

typedef struct refc {           /* a reference count */
    char wl[16];
    int k, p;
    long w;
    size_t n;
    uint64_t count;
    char by[32];
} refc;

typedef struct oracle {         /* a method that can give one */
    char wl[16];
    int k, p;
    long w;
    job j;
    double ns;                  /* its ns/event */
    char name[32];
} oracle;

static refc refs[1024];
static int nrefs;
static oracle oracles[256];
static int noracles;

/* Forgets the references and oracles of the previous stream. */
static void refs_reset(void)
{
    nrefs = 0;
    noracles = 0;
}

static int same_wl(const char *a, const char *b, int k1, int k2, long w1, long w2, int p1, int p2)
{
    return !strcmp(a, b) && k1 == k2 && w1 == w2 && p1 == p2;
}

static const refc *find_ref(const char *wl, int k, long w, int p, size_t n)
{
    int i;
    for (i = 0; i < nrefs; i++)
        if (same_wl(refs[i].wl, wl, refs[i].k, k, refs[i].w, w, refs[i].p, p) && refs[i].n == n)
            return &refs[i];
    return NULL;
}

static const refc *add_ref(const char *wl, int k, long w, int p, size_t n, uint64_t count,
                           const char *by)
{
    refc *r;
    if (nrefs == (int)(sizeof refs / sizeof refs[0]))
        nrefs = 0;   /* forget: they are recomputed on demand */
    r = &refs[nrefs++];
    snprintf(r->wl, sizeof r->wl, "%s", wl);
    r->k = k;
    r->w = w;
    r->p = p;
    r->n = n;
    r->count = count;
    snprintf(r->by, sizeof r->by, "%s", by);
    return r;
}

static void add_oracle(const char *wl, int k, long w, int p, const job *j, double ns,
                       const char *name)
{
    oracle *o;
    if (noracles == (int)(sizeof oracles / sizeof oracles[0]) || j->kind == J_INTERP ||
        j->kind == J_HS1)
        return;
    o = &oracles[noracles++];
    snprintf(o->wl, sizeof o->wl, "%s", wl);
    o->k = k;
    o->w = w;
    o->p = p;
    o->j = *j;
    o->ns = ns;
    snprintf(o->name, sizeof o->name, "%s", name);
}

/* The reference count of (wl, k, w, p) on the first n events of g; NULL
 * when there is nothing to compute it with yet (fallback: may use the
 * matchers of B1, B2 for B8 and B1r). */
static const refc *get_ref_fb(const group *g, const char *wl, int k, long w, int p, size_t n,
                              int fallback)
{
    const refc *r = find_ref(wl, k, w, p, n);
    const oracle *best = NULL;
    bench_counts c;
    uint64_t ovf;
    int i;
    if (r)
        return r;
    /* an independent one (naive, Hyperscan) when it takes under 10 s */
    for (i = 0; i < noracles; i++)
        if (same_wl(oracles[i].wl, wl, oracles[i].k, k, oracles[i].w, w, oracles[i].p, p) &&
            oracles[i].j.kind != J_ENTRY && oracles[i].ns * (double)n < 10e9 &&
            (!best || oracles[i].ns < best->ns))
            best = &oracles[i];
    for (i = 0; i < noracles && !best; i++)
        if (same_wl(oracles[i].wl, wl, oracles[i].k, k, oracles[i].w, w, oracles[i].p, p) &&
            (!best || oracles[i].ns < best->ns))
            best = &oracles[i];
    if (best) {
        job_run(&best->j, g, n, &c, &ovf);
        return add_ref(wl, k, w, p, n, main_count(wl, &c), best->name);
    }
    if (fallback && strcmp(ref_wl(wl), wl)) {   /* B8, B1r: the B1 / B2 matchers */
        job j;
        memset(&j, 0, sizeof j);
        j.kind = J_ENTRY;
        for (i = 0; i < bench_n_entries; i++) {
            const bench_entry *e = &bench_entries[i];
            if (e->ops && !strcmp(e->workload, ref_wl(wl)) && e->k == k && e->w == w) {
                char by[32];
                j.e = e;
                job_run(&j, g, n, &c, &ovf);
                snprintf(by, sizeof by, "%s-%s", e->workload, e->strategy);
                return add_ref(wl, k, w, p, n, main_count(wl, &c), by);
            }
        }
    }
    return NULL;
}

static const refc *get_ref(const group *g, const char *wl, int k, long w, int p, size_t n)
{
    return get_ref_fb(g, wl, k, w, p, n, 1);
}

/* ---- rows ----------------------------------------------------------------------------- */

typedef struct row {
    const char *wl;
    int k;
    long w;
    int p;                  /* B7: selectivity %; B8: A per mille */
    const char *method;     /* tdfa, dsra, runs, auto, naive, hs, hs1, interp, sum8, ... */
    size_t n;
    uint64_t count, count2;
    double t[MAXREP];
    int reps;
    long state;             /* bytes per stream: matcher size + heap (hs: stream state) */
    long per_key;           /* bytes per partition key (B9p) */
    double comp_s;          /* Hyperscan compile seconds */
    long rss_kb;            /* process peak RSS during the row */
    double p50, p99, p50g;  /* B9: ns per push; p50g: per push in groups of 8 */
    char check[64];
} row;

static void row_write(const opts *o, const row *r)
{
    int i;
    fprintf(o->raw, "row wl=%s k=%d w=%ld p=%d m=%s n=%zu c=%" PRIu64 " c2=%" PRIu64
            " st=%ld pk=%ld comp=%.4f rss=%ld p50=%.2f p99=%.2f p50g=%.2f chk=%s t=", r->wl, r->k,
            r->w, r->p, r->method, r->n, r->count, r->count2, r->state, r->per_key, r->comp_s,
            r->rss_kb, r->p50, r->p99, r->p50g, r->check[0] ? r->check : "-");
    for (i = 0; i < r->reps; i++)
        fprintf(o->raw, "%s%.6f", i ? "," : "", r->t[i]);
    fputc('\n', o->raw);
    fflush(o->raw);
}

/* Checks r's count: golden, else the reference on the same events. */
static void row_check(const group *g, row *r, int is_entry)
{
    const golden *gd = g->pm == 0 && r->n == GOLDEN_N ? find_golden(r->wl, r->k, r->w) : NULL;
    const refc *rf;
    if (gd) {
        snprintf(r->check, sizeof r->check, "golden");
        if (r->count != gd->count) {
            printf("FAILED: %s K=%d w=%ld %s: %" PRIu64 ", golden count %" PRIu64 "\n", r->wl,
                   r->k, r->w, r->method, r->count, gd->count);
            failed = 1;
            snprintf(r->check, sizeof r->check, "WRONG(golden)");
        }
    } else {
        rf = get_ref_fb(g, r->wl, r->k, r->w, r->p, r->n, is_entry);
        if (!rf)
            rf = add_ref(r->wl, r->k, r->w, r->p, r->n, r->count, r->method);
        if (rf->count != r->count) {
            printf("FAILED: %s K=%d w=%ld p=%d %s: %" PRIu64 " on %zu events, %s counted %" PRIu64
                   "\n", r->wl, r->k, r->w, r->p, r->method, r->count, r->n, rf->by, rf->count);
            failed = 1;
            snprintf(r->check, sizeof r->check, "WRONG(=%s)", rf->by);
        } else if (!strcmp(rf->by, r->method)) {
            snprintf(r->check, sizeof r->check, "ref");
        } else {
            snprintf(r->check, sizeof r->check, "=%s", rf->by);
        }
    }
    /* B3 also detects: its detections must be B1's. */
    if (!strcmp(r->wl, "B3") && is_entry) {
        const refc *b1 = get_ref(g, "B1", r->k, r->w, 0, r->n);
        if (b1 && b1->count != r->count2) {
            printf("FAILED: B3 K=%d w=%ld %s: %" PRIu64 " detections, B1 %s %" PRIu64 "\n", r->k,
                   r->w, r->method, r->count2, b1->by, b1->count);
            failed = 1;
        }
    }
}

/* The events a row runs: all of g, or, when budget > 0 and a pass over
 * all would take longer, a prefix that fits: from the rate on 100,000
 * events, or for the interpreter (whose time grows faster than the
 * events) the longest of 500, 1,000, 2,000, ... events that fits. */
static size_t fit_prefix(const job *j, const group *g, double budget)
{
    size_t n, fit = 0;
    bench_counts c;
    uint64_t ovf;
    double t;
    if (budget <= 0)
        return g->n;
    if (j->kind != J_INTERP) {
        n = g->n < 100000 ? g->n : 100000;
        t = job_run(j, g, n, &c, &ovf);
        if (t * (double)g->n / (double)n <= budget)
            return g->n;
        fit = (size_t)((double)n * budget / (t > 1e-9 ? t : 1e-9));
        if (fit < n)
            fit = n;
        if (fit > 10000)
            fit -= fit % 10000;
        return fit < g->n ? fit : g->n;
    }
    for (n = 500;; n *= 2) {
        if (n > g->n)
            n = g->n;
        t = job_run(j, g, n, &c, &ovf);
        if (t > budget)
            return fit ? fit : n;
        fit = n;
        if (n == g->n || t > budget / 3)
            return fit;
    }
}

/* Runs and records one row: REPS passes over the events fit_prefix gives. */
/* One row being measured; its repetitions may alternate with another's. */
typedef struct meas {
    row r;
    const job *j;
    uint64_t first;
} meas;

static void meas_start(meas *m, const opts *o, const group *g, const job *j, const char *wl, int k,
                       long w, int p, const char *method, double budget)
{
    memset(m, 0, sizeof *m);
    m->j = j;
    m->r.wl = wl;
    m->r.k = k;
    m->r.w = w;
    m->r.p = p;
    m->r.method = method;
    m->r.n = fit_prefix(j, g, budget);
    m->r.reps = j->kind == J_ENTRY || budget <= 0 ? o->reps : o->breps;
}

/* Repetition i: its time, and its counts checked against the first's. */
static void meas_rep(meas *m, const group *g, int i)
{
    row *r = &m->r;
    bench_counts c;
    uint64_t ovf;
    r->t[i] = job_run(m->j, g, r->n, &c, &ovf);
    if (ovf) {
        printf("FAILED: %s K=%d w=%ld %s: %" PRIu64 " capacity overflows\n", r->wl, r->k, r->w,
               r->method, ovf);
        failed = 1;
    }
    if (i == 0) {
        m->first = main_count(r->wl, &c);
        r->count2 = c.matches;
        if (m->j->kind == J_ENTRY)
            r->state = (long)(m->j->e->ops->size() + c.heap_peak);
    } else if (main_count(r->wl, &c) != m->first) {
        printf("FAILED: %s K=%d w=%ld %s: repetition %d counted %" PRIu64 ", the first %" PRIu64 "\n",
               r->wl, r->k, r->w, r->method, i + 1, main_count(r->wl, &c), m->first);
        failed = 1;
    }
}

/* The median, the check, the progress line and the raw row. */
static void meas_end(meas *m, const opts *o, const group *g)
{
    row *r = &m->r;
    const job *j = m->j;
    double v[MAXREP], ns;
    r->rss_kb = rss_peak_kb();
    r->count = m->first;
    if (j->kind == J_HS || j->kind == J_HS1) {
        r->state = (long)hsb_stream_bytes(j->hs);
        r->comp_s = j->d;
    }
    memcpy(v, r->t, sizeof v);
    ns = median(v, r->reps) * 1e9 / (double)r->n;
    if (j->kind != J_SUM8 && j->kind != J_DFA64 && j->kind != J_REC16) {
        row_check(g, r, j->kind == J_ENTRY);
        add_oracle(r->wl, r->k, r->w, r->p, j, ns, r->method);
    }
    fprintf(stderr, "  %-4s K=%-2d w=%-5ld p=%-3d %-8s n=%-9zu %10.2f ns/event  %s\n", r->wl, r->k, r->w,
            r->p, r->method, r->n, ns, r->check);
    row_write(o, r);
}

static void measure(const opts *o, const group *g, const job *j, const char *wl, int k, long w,
                    int p, const char *method, double budget)
{
    meas m;
    int i;
    meas_start(&m, o, g, j, wl, k, w, p, method, budget);
    rss_reset();
    for (i = 0; i < m.r.reps; i++)
        meas_rep(&m, g, i);
    meas_end(&m, o, g);
}

/* ---- Hyperscan ------------------------------------------------------------------------- */

typedef struct hscache {
    char *regex;
    hsb *h;
    double secs;
    const char *why;
} hscache;

static hscache hsc[64];
static int nhsc;

/* Compiled once per process; NULL (and a skip line) when it cannot be. */
static hsb *hs_get(const char *regex, double *secs, const char **why)
{
    int i;
    for (i = 0; i < nhsc; i++)
        if (!strcmp(hsc[i].regex, regex)) {
            *secs = hsc[i].secs;
            *why = hsc[i].why;
            return hsc[i].h;
        }
    if (nhsc == (int)(sizeof hsc / sizeof hsc[0]))
        return NULL;
    hsc[nhsc].regex = xmalloc(strlen(regex) + 1);
    strcpy(hsc[nhsc].regex, regex);
    hsc[nhsc].why = NULL;
    hsc[nhsc].h = hsb_compile(regex, &hsc[nhsc].secs, &hsc[nhsc].why);
    *secs = hsc[nhsc].secs;
    *why = hsc[nhsc].why;
    return hsc[nhsc++].h;
}

/* The regex over one-byte types equivalent to a workload, in buf; 0 when
 * there is none worth compiling (and *why says so). */
static int hs_regex(const char *wl, long w, char *buf, size_t cap, const char **why)
{
    if (!strcmp(wl, "B2") || !strcmp(wl, "B8g")) {
        snprintf(buf, cap, "A.{0,%ld}B.{0,%ld}C", w - 2, w - 2);
        return 1;
    }
    if (!strcmp(wl, "B4k")) {
        snprintf(buf, cap, "AB{1,%ld}C", w - 2);
        return 1;
    }
    if (!strcmp(wl, "B1") || !strcmp(wl, "B8s")) {
        /* A, B, C with gaps g1 + g2 <= w - 3: one alternative per g1 */
        size_t len = 0;
        long g1;
        if (w > 100) {
            *why = "the regex is a union of w - 2 alternatives; not compiled above w = 100";
            return 0;
        }
        buf[0] = 0;
        for (g1 = 0; g1 <= w - 3 && len + 64 < cap; g1++) {
            len += (size_t)snprintf(buf + len, cap - len, "%sA", g1 ? "|" : "");
            if (g1)
                len += (size_t)snprintf(buf + len, cap - len, ".{%ld}", g1);
            len += (size_t)snprintf(buf + len, cap - len, "B");
            if (w - 3 - g1)
                len += (size_t)snprintf(buf + len, cap - len, ".{0,%ld}", w - 3 - g1);
            len += (size_t)snprintf(buf + len, cap - len, "C");
        }
        return 1;
    }
    *why = "no equivalent regex";
    return 0;
}

static void skip_row(const opts *o, const char *wl, int k, long w, int p, const char *method,
                     const char *why)
{
    char buf[200];
    size_t i;
    snprintf(buf, sizeof buf, "%s", why);
    for (i = 0; buf[i]; i++)
        if (buf[i] == ' ')
            buf[i] = '_';
    fprintf(o->raw, "skip wl=%s k=%d w=%ld p=%d m=%s why=%s\n", wl, k, w, p, method, buf);
    fprintf(stderr, "  %-4s K=%-2d w=%-5ld p=%-3d %-8s skipped: %s\n", wl, k, w, p, method, why);
}

static void hs_rows(const opts *o, const group *g, const char *wl, int k, long w, int p,
                    int per_event)
{
    static char re[1 << 16];
    const char *why = NULL;
    double secs = 0;
    hsb *h;
    job j;
    if (!hs_regex(wl, w, re, sizeof re, &why)) {
        skip_row(o, wl, k, w, p, "hs", why);
        return;
    }
    h = hs_get(re, &secs, &why);
    if (!h) {
        skip_row(o, wl, k, w, p, "hs", why ? why : "hs_compile failed");
        return;
    }
    memset(&j, 0, sizeof j);
    j.kind = J_HS;
    j.hs = h;
    j.d = secs;
    measure(o, g, &j, wl, k, w, p, "hs", o->budget);
    if (per_event) {
        j.kind = J_HS1;
        measure(o, g, &j, wl, k, w, p, "hs1", o->budget);
    }
}

/* ---- one group's rows ------------------------------------------------------------------------ */

static const uint8_t abc[] = {'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'};

static void floors(const opts *o, const group *g)
{
    job j;
    memset(&j, 0, sizeof j);
    if (g->ty) {
        j.kind = J_SUM8;
        measure(o, g, &j, "B0", g->k, 0, g->pm, "sum8", 0);
        j.kind = J_DFA64;
        measure(o, g, &j, "B0", g->k, 0, g->pm, "dfa64", 0);
    } else {
        j.kind = J_REC16;
        measure(o, g, &j, "B0", g->k, 0, g->pm, "rec16", 0);
    }
}

/* The naive matcher of a workload (none: kind J_ENTRY). */
static job naive_job(const char *wl, long w, double d)
{
    job j;
    memset(&j, 0, sizeof j);
    j.kind = J_ENTRY;
    j.w = w;
    j.atoms = abc;
    if (!strcmp(wl, "B1") || !strcmp(wl, "B8s")) {
        j.kind = J_STAM;
        j.m = 3;
    } else if (!strcmp(wl, "B4s5")) {
        j.kind = J_STAM;
        j.m = 5;
    } else if (!strcmp(wl, "B4s8")) {
        j.kind = J_STAM;
        j.m = 8;
    } else if (!strcmp(wl, "B2") || !strcmp(wl, "B8g")) {
        j.kind = J_GAP;
        j.w = w - 2;
    } else if (!strcmp(wl, "B3")) {
        j.kind = J_TRIPLES;
    } else if (!strcmp(wl, "B4k")) {
        j.kind = J_KLEENE;
    } else if (!strcmp(wl, "B7")) {
        j.kind = J_REG3;
        j.d = d;
    }
    return j;
}

static int has_hs(const char *wl)
{
    return !strcmp(wl, "B1") || !strcmp(wl, "B2") || !strcmp(wl, "B4k");
}

static int has_interp(const char *wl)
{
    return strcmp(wl, "B3") != 0 && strcmp(wl, "B9p") != 0 && strcmp(wl, "B1r") != 0;
}

/* The hand-written O(1) counter of B1 and B2 (and B8: the same patterns). */
static void counter_row(const opts *o, const group *g, const char *wl, int k, long w, int p)
{
    job j;
    memset(&j, 0, sizeof j);
    if (!strcmp(wl, "B1") || !strcmp(wl, "B8s")) {
        j.kind = J_CSTAM;
        j.w = w;
    } else if (!strcmp(wl, "B2") || !strcmp(wl, "B8g")) {
        j.kind = J_CGAP;
        j.w = w - 2;
    } else {
        return;
    }
    measure(o, g, &j, wl, k, w, p, "counter", o->budget);
}

/* The baselines of one workload (K, w, p): the naive matcher, Hyperscan,
 * the interpreter (srem: its pattern file). */
static void baselines(const opts *o, const group *g, const char *wl, int k, long w, int p,
                      double d, const char *srem)
{
    job j = naive_job(wl, w, d);
    if (j.kind != J_ENTRY)
        measure(o, g, &j, wl, k, w, p, "naive", o->budget);
    counter_row(o, g, wl, k, w, p);
    if (has_hs(wl) && g->ty)
        hs_rows(o, g, wl, k, w, p, !strcmp(wl, "B2"));
#ifdef BENCH_INTERP
    if (has_interp(wl) && srem) {
        memset(&j, 0, sizeof j);
        j.kind = J_INTERP;
        j.srem = srem;
        measure(o, g, &j, wl, k, w, p, "interp", o->budget);
    }
#else
    (void)has_interp;
    (void)srem;
#endif
}

/* The uniform streams: the floors, then per workload (K, w, p) of the
 * group's K and kind its baselines and every entry; the floors again. */
/* Entry i of bench_entries as workload wl, and the BENCH_BASELINE
 * commit's matcher of it (the entry right after, when there is one) with
 * repetitions alternating between the two, so that a change of load on
 * this shared machine weighs on both. Returns the entries used. */
static int measure_entries(const opts *o, const group *g, int i, const char *wl, int k, long w, int p)
{
    const bench_entry *e = &bench_entries[i], *b = NULL;
    job je, jb;
    meas me, mb;
    int r, n;
    if (i + 1 < bench_n_entries && bench_entries[i + 1].base && !e->base &&
        !strcmp(bench_entries[i + 1].workload, e->workload) && bench_entries[i + 1].k == e->k &&
        bench_entries[i + 1].w == e->w && bench_entries[i + 1].param == e->param)
        b = &bench_entries[i + 1];
    memset(&je, 0, sizeof je);
    memset(&jb, 0, sizeof jb);
    je.kind = jb.kind = J_ENTRY;
    je.e = e;
    jb.e = b;
    if (!e->ops)
        skip_row(o, wl, k, w, p, e->strategy, e->skip ? e->skip : "-");
    if (b && !b->ops)
        skip_row(o, wl, k, w, p, b->strategy, b->skip ? b->skip : "-");
    if (e->ops)
        meas_start(&me, o, g, &je, wl, k, w, p, e->strategy, o->mbudget);
    if (b && b->ops)
        meas_start(&mb, o, g, &jb, wl, k, w, p, b->strategy, o->mbudget);
    rss_reset();
    n = e->ops ? me.r.reps : 0;
    if (b && b->ops && mb.r.reps > n)
        n = mb.r.reps;
    for (r = 0; r < n; r++) {
        if (e->ops && r < me.r.reps)
            meas_rep(&me, g, r);
        if (b && b->ops && r < mb.r.reps)
            meas_rep(&mb, g, r);
    }
    if (e->ops)
        meas_end(&me, o, g);
    if (b && b->ops)
        meas_end(&mb, o, g);
    return b ? 2 : 1;
}

static void run_group(const opts *o, const group *g)
{
    int i, a;
    refs_reset();
    floors(o, g);
    for (i = 0; i < bench_n_entries; i++) {
        const bench_entry *e = &bench_entries[i];
        if (e->k != g->k || e->records != (g->rec != NULL) || !strcmp(e->workload, "B9p"))
            continue;
        /* before the first entry of its workload: the baselines */
        for (a = 0; a < i; a++)
            if (!strcmp(bench_entries[a].workload, e->workload) && bench_entries[a].k == e->k &&
                bench_entries[a].w == e->w && bench_entries[a].param == e->param)
                break;
        if (a == i)
            baselines(o, g, e->workload, e->k, e->w, e->param, e->arg, e->srem);
        i += measure_entries(o, g, i, e->workload, e->k, e->w, e->param) - 1;
    }
    floors(o, g);
}

/* B8: the K = 26, w = 100 matchers of B1 and B2 on a stream of rare As. */
static void run_rare(const opts *o, const group *g)
{
    static const char *const wls[] = {"B1", "B2"}, *const b8[] = {"B8s", "B8g"};
    int i, x;
    refs_reset();
    floors(o, g);
    for (x = 0; x < 2; x++) {
        {
            job j = naive_job(b8[x], 100, 0);
            measure(o, g, &j, b8[x], 26, 100, g->pm, "naive", o->budget);
            counter_row(o, g, b8[x], 26, 100, g->pm);
        }
        hs_rows(o, g, b8[x], 26, 100, g->pm, 0);
        for (i = 0; i < bench_n_entries; i++) {
            const bench_entry *e = &bench_entries[i];
            if (strcmp(e->workload, wls[x]) || e->k != 26 || e->w != 100)
                continue;
            i += measure_entries(o, g, i, b8[x], 26, 100, g->pm) - 1;
        }
    }
    floors(o, g);
}

/* ---- B9: latency of one push, state bytes ---------------------------------------------------- */

static double tsc_ns_per_tick;
static double tick_overhead;

static void calibrate_ticks(void)
{
    uint32_t *t = xmalloc(100000 * sizeof *t);
    double w0 = wall(), w1;
    uint64_t c0 = bench_tick_start(), c1;
    int i;
    do
        w1 = wall();
    while (w1 - w0 < 0.05);
    c1 = bench_tick_end();
    tsc_ns_per_tick = (w1 - w0) * 1e9 / (double)(c1 - c0);
    for (i = 0; i < 100000; i++) {
        uint64_t a = bench_tick_start(), b = bench_tick_end();
        t[i] = (uint32_t)(b - a);
    }
    qsort(t, 100000, sizeof *t, cmp_u32);
    tick_overhead = t[50000];
    free(t);
}

/* Percentile q of ticks (sorted in place) as ns per event: a group of per
 * events, less the timer's own cost. */
static double pct_ns(uint32_t *t, size_t n, double q, int per)
{
    size_t i = (size_t)(q * (double)(n - 1));
    return ((double)t[i] - tick_overhead) * tsc_ns_per_tick / per;
}

/* B9 row: n pushes (or hs_scan_stream calls) one event each, timed one by
 * one (p50, p99; the TSC here ticks in steps of ~10 ns) and in groups of
 * 8 (p50g: finer than the timer's step). */
static void lat_row(const opts *o, const group *g, const char *method, long w,
                    const bench_entry *e, hsb *h, size_t n)
{
    uint32_t *t = xmalloc(n * sizeof *t);
    row r;
    int pass;
    memset(&r, 0, sizeof r);
    r.wl = "B9";
    r.k = g->k;
    r.w = w;
    r.method = method;
    r.n = n;
    r.reps = 1;
    for (pass = 0; pass < 2; pass++) {
        int per = pass ? 8 : 1;
        bench_counts c;
        double t0 = now();
        uint64_t count;
        memset(&c, 0, sizeof c);
        if (e) {
            void *m = e->ops->open_counts(&c, 0);
            e->ops->lat8(m, g->ty, n, t, per);
            if (e->ops->close(m)) {
                printf("FAILED: B9 %s: capacity overflows\n", method);
                failed = 1;
            }
            count = c.matches;
            r.state = (long)(e->ops->size() + c.heap_peak);
        } else {
            count = hsb_scan(h, g->ty, n, 1, t, per);
            r.state = (long)hsb_stream_bytes(h);
        }
        if (pass == 0)
            r.t[0] = now() - t0;
        qsort(t, n / (size_t)per, sizeof *t, cmp_u32);
        if (per == 1) {
            r.p50 = pct_ns(t, n, 0.5, 1);
            r.p99 = pct_ns(t, n, 0.99, 1);
            r.count = count;
        } else {
            r.p50g = pct_ns(t, n / 8, 0.5, 8);
        }
    }
    {
        const char *wl = !strncmp(method, "B2", 2) || !strcmp(method, "hs") ? "B2" : "B1";
        const refc *rf = get_ref(g, wl, g->k, 10, 0, n);
        if (rf && rf->count != r.count) {
            printf("FAILED: B9 %s: %" PRIu64 ", %s %s %" PRIu64 "\n", method, r.count, wl, rf->by,
                   rf->count);
            failed = 1;
            snprintf(r.check, sizeof r.check, "WRONG");
        } else if (rf) {
            snprintf(r.check, sizeof r.check, "=%s-%s", wl, rf->by);
        }
    }
    fprintf(stderr, "  B9   %-14s p50 %.1f ns, p99 %.1f ns per push; p50 in groups of 8: %.2f "
            "ns (timer overhead %.0f ticks subtracted)\n", method, r.p50, r.p99, r.p50g,
            tick_overhead);
    row_write(o, &r);
    free(t);
}

/* One push per call on the K = 10 stream: the B1 and B2 matchers at
 * w = 10 and Hyperscan with one hs_scan_stream per event; then the state
 * bytes of a partitioned matcher per key. */
static void run_latency(const opts *o, const group *g)
{
    size_t n = g->n < 5000000 ? g->n : 5000000;
    char name[32];
    int i;
    calibrate_ticks();
    for (i = 0; i < bench_n_entries; i++) {
        const bench_entry *e = &bench_entries[i];
        if (e->ops && e->k == 10 && e->w == 10 && !e->records &&
            (!strcmp(e->workload, "B1") || !strcmp(e->workload, "B2"))) {
            snprintf(name, sizeof name, "%s-%s", e->workload, e->strategy);
            lat_row(o, g, name, 10, e, NULL, n);
        }
    }
    {
        static char re[256];
        const char *why = NULL;
        double secs;
        hsb *h;
        if (hs_regex("B2", 10, re, sizeof re, &why) && (h = hs_get(re, &secs, &why)) != NULL)
            lat_row(o, g, "hs", 10, NULL, h, n);
        else
            skip_row(o, "B9", 10, 10, 0, "hs", why ? why : "Hyperscan not available");
    }
    for (i = 0; i < bench_n_entries; i++) {
        const bench_entry *e = &bench_entries[i];
        if (!strcmp(e->workload, "B9p") && e->ops) {
            bench_counts c1, c2;
            void *m;
            row r;
            memset(&c1, 0, sizeof c1);
            memset(&c2, 0, sizeof c2);
            m = e->ops->open_counts(&c1, 1);
            e->ops->close(m);
            m = e->ops->open_counts(&c2, 1025);
            e->ops->close(m);
            memset(&r, 0, sizeof r);
            r.wl = "B9p";
            r.k = e->k;
            r.w = e->w;
            r.method = e->strategy;
            r.state = (long)(e->ops->size() + c1.heap_peak);
            r.per_key = (long)((c2.heap_peak - c1.heap_peak) / 1024);
            snprintf(r.check, sizeof r.check, "-");
            fprintf(stderr, "  B9p  %s: %ld bytes with one key, %ld bytes per key\n",
                    e->strategy, r.state, r.per_key);
            row_write(o, &r);
        }
    }
}

static int run_main(const opts *o)
{
    static const int ks[] = {10, 26}, pms[] = {100, 10, 1};
    size_t n8 = o->n ? o->n : GOLDEN_N, nrec = o->n ? o->n : o->full ? GOLDEN_N : 10000000;
    uint8_t *ty = xmalloc(n8);
    bench_rec *rec;
    group g;
    int x;
    base_dfa64_table(dfa_table);
    fprintf(o->raw, "meta reps=%d breps=%d full=%d hs=%d interp=%d\n", o->reps, o->breps, o->full,
            hsb_available(),
#ifdef BENCH_INTERP
            1
#else
            0
#endif
    );
    for (x = 0; x < 2; x++) {
        memset(&g, 0, sizeof g);
        g.k = ks[x];
        g.ty = ty;
        g.n = n8;
        gen_bytes(ty, n8, (uint32_t)g.k);
        fprintf(stderr, "bench: one-byte types, K = %d, N = %zu\n", g.k, g.n);
        run_group(o, &g);
        if (g.k == 10)
            run_latency(o, &g);
    }
    for (x = 0; x < 3; x++) {
        memset(&g, 0, sizeof g);
        g.k = 26;
        g.pm = pms[x];
        g.ty = ty;
        g.n = n8;
        gen_rare(ty, n8, g.pm);
        fprintf(stderr, "bench: B8, p(A) = %d/1000, N = %zu\n", g.pm, g.n);
        run_rare(o, &g);
    }
    free(ty);
    rec = xmalloc(nrec * sizeof *rec);
    memset(&g, 0, sizeof g);
    g.k = 10;
    g.rec = rec;
    g.n = nrec;
    gen_recs(rec, nrec, 10);
    fprintf(stderr, "bench: 16-byte records, K = 10, N = %zu\n", g.n);
    run_group(o, &g);
    free(rec);
    fprintf(o->raw, "end failed=%d peak_rss_kb=%ld\n", failed, rss_peak_kb());
    printf("%s\n", failed ? "bench: FAILED (see above)" : "bench: all counts checked");
    return failed;
}

/* ======== report mode ===================================================================== */

/* One row of the report: the same row of every process, pooled. */
typedef struct agg {
    char wl[16], method[32];
    int k, p;
    long w;
    size_t n;               /* the first process's event count */
    int n_varies;           /* prefix rows: the processes ran different prefixes */
    uint64_t count, count2;
    double ns[MAXREP * 8];  /* ns/event of every repetition of every process */
    int nns, procs;
    long state, per_key, rss_kb;
    double comp_s, p50[8], p99[8], p50g[8];
    int nlat;
    char check[64];
    char skip[200];
    const bench_entry *e;   /* the matcher, when it is one */
} agg;

static agg *aggs;
static int naggs, aggs_cap;
static int rep_fail;

static agg *agg_get(const char *wl, int k, long w, int p, const char *method)
{
    int i;
    for (i = 0; i < naggs; i++)
        if (!strcmp(aggs[i].wl, wl) && aggs[i].k == k && aggs[i].w == w && aggs[i].p == p &&
            !strcmp(aggs[i].method, method))
            return &aggs[i];
    if (naggs == aggs_cap) {
        aggs_cap = aggs_cap ? 2 * aggs_cap : 256;
        aggs = realloc(aggs, (size_t)aggs_cap * sizeof *aggs);
        if (!aggs)
            abort();
    }
    memset(&aggs[naggs], 0, sizeof aggs[naggs]);
    snprintf(aggs[naggs].wl, sizeof aggs[naggs].wl, "%s", wl);
    snprintf(aggs[naggs].method, sizeof aggs[naggs].method, "%s", method);
    aggs[naggs].k = k;
    aggs[naggs].w = w;
    aggs[naggs].p = p;
    for (i = 0; i < bench_n_entries; i++) {
        const bench_entry *e = &bench_entries[i];
        const char *ew = !strcmp(wl, "B8s") ? "B1" : !strcmp(wl, "B8g") ? "B2" : wl;
        if (!strcmp(e->workload, ew) && e->k == k && e->w == w &&
            (e->param == p || ew != wl) && !strcmp(e->strategy, method))
            aggs[naggs].e = e;
    }
    return &aggs[naggs++];
}

/* "key=value" of a raw line, as text (NULL: absent). */
static const char *field(const char *line, const char *key, char *buf, size_t cap)
{
    size_t kl = strlen(key);
    const char *s = line;
    while ((s = strstr(s, key)) != NULL) {
        if ((s == line || s[-1] == ' ') && s[kl] == '=') {
            size_t l = strcspn(s + kl + 1, " \n");
            if (l >= cap)
                l = cap - 1;
            memcpy(buf, s + kl + 1, l);
            buf[l] = 0;
            return buf;
        }
        s += kl;
    }
    return NULL;
}

static long lfield(const char *line, const char *key)
{
    char b[64];
    return field(line, key, b, sizeof b) ? atol(b) : 0;
}

static double dfield(const char *line, const char *key)
{
    char b[64];
    return field(line, key, b, sizeof b) ? atof(b) : 0;
}

static int read_raw(const char *path)
{
    static char line[1 << 16];
    char wl[16], m[32], b[64];
    FILE *f = fopen(path, "r");
    int ended = 0;
    if (!f) {
        perror(path);
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        int isrow = !strncmp(line, "row ", 4), isskip = !strncmp(line, "skip ", 5);
        agg *a;
        if (!strncmp(line, "end ", 4)) {
            ended = 1;
            if (lfield(line, "failed"))
                rep_fail = 1;
            continue;
        }
        if (!isrow && !isskip)
            continue;
        field(line, "wl", wl, sizeof wl);
        field(line, "m", m, sizeof m);
        a = agg_get(wl, (int)lfield(line, "k"), lfield(line, "w"), (int)lfield(line, "p"), m);
        if (isskip) {
            field(line, "why", a->skip, sizeof a->skip);
            for (char *c = a->skip; *c; c++)
                if (*c == '_')
                    *c = ' ';
            continue;
        }
        {
            size_t n = (size_t)strtoull(field(line, "n", b, sizeof b) ? b : "0", NULL, 10);
            uint64_t c = strtoull(field(line, "c", b, sizeof b) ? b : "0", NULL, 10);
            const char *t;
            char tb[MAXREP * 16];
            field(line, "chk", b, sizeof b);
            if (a->procs == 0) {
                a->n = n;
                a->count = c;
                a->count2 = strtoull(field(line, "c2", b, sizeof b) ? b : "0", NULL, 10);
                a->state = lfield(line, "st");
                a->per_key = lfield(line, "pk");
                a->comp_s = dfield(line, "comp");
                field(line, "chk", a->check, sizeof a->check);
            } else if (n != a->n) {
                a->n_varies = 1;
            } else if (c != a->count) {
                printf("FAILED: %s K=%d w=%ld p=%d %s: %" PRIu64 " in one process, %" PRIu64
                       " in another, on the same %zu events\n", a->wl, a->k, a->w, a->p,
                       a->method, c, a->count, n);
                rep_fail = 1;
            }
            if (!strncmp(b, "WRONG", 5))
                snprintf(a->check, sizeof a->check, "%s", b);
            if (lfield(line, "rss") > a->rss_kb)
                a->rss_kb = lfield(line, "rss");
            if (a->nlat < 8 && (dfield(line, "p50") != 0 || dfield(line, "p99") != 0)) {
                a->p50[a->nlat] = dfield(line, "p50");
                a->p50g[a->nlat] = dfield(line, "p50g");
                a->p99[a->nlat++] = dfield(line, "p99");
            }
            t = field(line, "t", tb, sizeof tb);
            while (t && *t && a->nns < MAXREP * 8 && n > 0) {
                a->ns[a->nns++] = atof(t) * 1e9 / (double)n;
                t = strchr(t, ',');
                if (t)
                    t++;
            }
            a->procs++;
        }
    }
    fclose(f);
    if (!ended) {
        printf("FAILED: %s: the benchmark process did not finish\n", path);
        rep_fail = 1;
    }
    return 0;
}

static double agg_ns(agg *a)
{
    double v[MAXREP * 8];
    memcpy(v, a->ns, (size_t)a->nns * sizeof *v);
    return median(v, a->nns);
}

static const agg *find_agg(const char *wl, int k, long w, int p, const char *method)
{
    int i;
    for (i = 0; i < naggs; i++)
        if (!strcmp(aggs[i].wl, wl) && aggs[i].k == k && aggs[i].w == w && aggs[i].p == p &&
            !strcmp(aggs[i].method, method) && aggs[i].nns > 0)
            return &aggs[i];
    return NULL;
}

static double ns_of(const char *wl, int k, long w, int p, const char *method)
{
    const agg *a = find_agg(wl, k, w, p, method);
    return a ? agg_ns((agg *)a) : 0;
}

static int is_matcher(const char *m)
{
    return !strcmp(m, "tdfa") || !strcmp(m, "dsra") || !strcmp(m, "runs") || !strcmp(m, "auto");
}

/* A matcher the BENCH_BASELINE commit's sremc emitted: "S@COMMIT". */
static int is_base(const char *m)
{
    return strchr(m, '@') != NULL;
}

/* Whether the strategy sremc chose is the method's (a baseline's "S@COMMIT": S). */
static int same_strategy(const char *chosen, const char *method)
{
    size_t len = strcspn(method, "@");
    return strlen(chosen) == len && !strncmp(chosen, method, len);
}

/* ns/event of the baseline's matcher of a's strategy (0: none). */
static double base_ns(const agg *a)
{
    size_t len = strlen(a->method);
    int i;
    for (i = 0; i < naggs; i++)
        if (!strcmp(aggs[i].wl, a->wl) && aggs[i].k == a->k && aggs[i].w == a->w &&
            aggs[i].p == a->p && aggs[i].nns && !strncmp(aggs[i].method, a->method, len) &&
            aggs[i].method[len] == '@')
            return agg_ns(&aggs[i]);
    return 0;
}

/* The fastest generated matcher of a workload (0: none measured). */
static double best_matcher_ns(const char *wl, int k, long w, int p)
{
    double best = 0;
    int i;
    for (i = 0; i < naggs; i++)
        if (!strcmp(aggs[i].wl, wl) && aggs[i].k == k && aggs[i].w == w && aggs[i].p == p &&
            is_matcher(aggs[i].method) && aggs[i].nns) {
            double ns = agg_ns(&aggs[i]);
            if (best == 0 || ns < best)
                best = ns;
        }
    return best;
}

/* The floor a workload's speed is compared with: the table DFA for
 * one-byte types, the record sum for records. */
static double floor_ns(const agg *a)
{
    int rec = !strcmp(a->wl, "B7") || !strcmp(a->wl, "B1r");
    int p = !strncmp(a->wl, "B8", 2) ? a->p : 0;
    return ns_of("B0", a->k, 0, p, rec ? "rec16" : "dfa64");
}

static void ratio(char *buf, size_t cap, double base_ns, double ns)
{
    if (base_ns > 0 && ns > 0)
        snprintf(buf, cap, "%.2f", base_ns / ns);
    else
        snprintf(buf, cap, "-");
}

static const char *const wl_title[][2] = {
    {"B1", "B1: `within w events policy stam { A B C }`, detections"},
    {"B2", "B2: gap-bounded `A _{0,w-2} B _{0,w-2} C` (no window), end positions"},
    {"B3", "B3: all stam matches of `A B C` within w counted (explore summary), matches"},
    {"B4s5", "B4: `within 100 events policy stam { A B C D E }`, K = 26"},
    {"B4s8", "B4: `within 100 events policy stam { A B C D E F G H }`, K = 26"},
    {"B4k", "B4: Kleene `within 100 events { A B+ C }` (contiguous), K = 26"},
    {"B7", "B7: registers `x:A y:[type == B && val > x.val + d] [type == C && val > y.val]`, "
           "within 3 events, 16-byte records, K = 10; p = selectivity of the first predicate in %"},
    {"B1r", "B1 on 16-byte records (ts read by push), K = 10"},
    {"B8s", "B8: B1 at K = 26, w = 100 on streams of rare As; p = p(A) per mille"},
    {"B8g", "B8: B2 at K = 26, w = 100 on streams of rare As; p = p(A) per mille"},
};

static void md_workload(FILE *o, const char *wl)
{
    int i, any = 0;
    for (i = 0; i < naggs; i++) {
        agg *a = &aggs[i];
        char fl[16], hs[16], nv[16], ct[16], ip[16], xb[16], size[24] = "", obj[24] = "", tab[24] = "",
             sc[16] = "", cc[16] = "", comp[16] = "";
        double ns;
        if (strcmp(a->wl, wl))
            continue;
        if (!any) {
            size_t t;
            for (t = 0; t < sizeof wl_title / sizeof wl_title[0]; t++)
                if (!strcmp(wl_title[t][0], wl))
                    fprintf(o, "\n#### %s\n\n", wl_title[t][1]);
            fprintf(o, "| K | w | p | method | events | count | check | ns/event | M events/s "
                       "| x floor | x hs | x naive | x counter | x interp | x base | state B | C KB "
                       "| .o KB | table B | sremc s | cc s | hs compile s | peak RSS MB |\n");
            fprintf(o, "|---:|---:|---:|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:"
                       "|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            any = 1;
        }
        if (a->nns == 0) {
            fprintf(o, "| %d | %ld | %d | %s | | | skipped: %s | | | | | | | | | | %s | | | %s | | | |\n",
                    a->k, a->w, a->p, a->method, a->skip,
                    a->e && a->e->c_bytes ? (snprintf(size, sizeof size, "%.0f",
                                                      (double)a->e->c_bytes / 1024), size) : "",
                    a->e && a->e->sremc_s > 0 ? (snprintf(sc, sizeof sc, "%.2f", a->e->sremc_s), sc)
                                              : "");
            continue;
        }
        ns = agg_ns(a);
        snprintf(fl, sizeof fl, "-");
        snprintf(hs, sizeof hs, "-");
        snprintf(nv, sizeof nv, "-");
        snprintf(ct, sizeof ct, "-");
        snprintf(ip, sizeof ip, "-");
        snprintf(xb, sizeof xb, "-");
        if (is_matcher(a->method))
            ratio(xb, sizeof xb, base_ns(a), ns);
        if (is_matcher(a->method) || is_base(a->method)) {
            ratio(fl, sizeof fl, floor_ns(a), ns);
            ratio(hs, sizeof hs, ns_of(a->wl, a->k, a->w, a->p, "hs"), ns);
            ratio(nv, sizeof nv, ns_of(a->wl, a->k, a->w, a->p, "naive"), ns);
            ratio(ct, sizeof ct, ns_of(a->wl, a->k, a->w, a->p, "counter"), ns);
            ratio(ip, sizeof ip, ns_of(a->wl, a->k, a->w, a->p, "interp"), ns);
        }
        if (a->e) {
            snprintf(size, sizeof size, "%.1f", (double)a->e->c_bytes / 1024);
            snprintf(obj, sizeof obj, "%.1f", (double)a->e->text_bytes / 1024);
            snprintf(tab, sizeof tab, "%ld", a->e->rodata_bytes);
            snprintf(sc, sizeof sc, "%.2f", a->e->sremc_s);
            snprintf(cc, sizeof cc, "%.2f", a->e->cc_s);
        }
        if (a->comp_s > 0)
            snprintf(comp, sizeof comp, "%.2f", a->comp_s);
        fprintf(o, "| %d | %ld | %d | %s%s%s | %s%zu | %" PRIu64 " | %s | %.2f | %.1f | %s | %s | %s "
                   "| %s | %s | %s | %ld | %s | %s | %s | %s | %s | %s | %.0f |\n",
                a->k, a->w, a->p, a->method,
                a->e && a->e->chosen && !same_strategy(a->e->chosen, a->method) ? " -> " : "",
                a->e && a->e->chosen && !same_strategy(a->e->chosen, a->method) ? a->e->chosen : "",
                a->n_varies ? "~" : "", a->n, a->count, a->check, ns, 1e3 / ns, fl, hs, nv, ct, ip,
                xb, a->state, size, obj, tab, sc, cc, comp, (double)a->rss_kb / 1024);
    }
}

/* ---- targets ------------------------------------------------------------------------------ */

typedef struct target {
    char what[160];
    char figure[200];
    int met;                /* 1 met, 0 missed, -1 not measured */
} target;

static target targets[32];
static int ntargets;

static target *tnew(const char *what)
{
    target *t = &targets[ntargets++];
    snprintf(t->what, sizeof t->what, "%s", what);
    t->met = -1;
    snprintf(t->figure, sizeof t->figure, "not measured");
    return t;
}

static void eval_targets(void)
{
    static const int ks[] = {10, 26};
    int i, x;
    target *t;

    /* tdfa B1 at least the table-DFA floor, flat in w */
    t = tnew("tdfa, B1 on one-byte types: >= the 64-state table-DFA floor, flat in w (max/min "
             "ns over w per K <= 1.3)");
    for (x = 0; x < 2; x++) {
        double worst = 1e9, lo = 1e9, hi = 0;
        int n = 0;
        for (i = 0; i < naggs; i++) {
            agg *a = &aggs[i];
            if (!strcmp(a->wl, "B1") && !strcmp(a->method, "tdfa") && a->k == ks[x] && a->nns) {
                double r = floor_ns(a) / agg_ns(a);
                if (r < worst)
                    worst = r;
                if (agg_ns(a) < lo)
                    lo = agg_ns(a);
                if (agg_ns(a) > hi)
                    hi = agg_ns(a);
                n++;
            }
        }
        if (n) {
            size_t l = x ? strlen(t->figure) : 0;
            if (!x)
                t->met = 1;
            t->met = t->met && worst >= 1.0 && hi / lo <= 1.3;
            snprintf(t->figure + l, sizeof t->figure - l, "%sK = %d: worst %.2fx the floor's speed, "
                     "%.2f-%.2f ns/event over w (max/min %.2f)", x ? "; " : "", ks[x], worst, lo,
                     hi, hi / lo);
        }
    }
    t = tnew("tdfa, B2 (gap-bounded) on one-byte types: >= the table-DFA floor");
    {
        double worst = 1e9;
        int n = 0, nskip = 0;
        for (i = 0; i < naggs; i++) {
            agg *a = &aggs[i];
            if (!strcmp(a->wl, "B2") && !strcmp(a->method, "tdfa")) {
                if (!a->nns) {
                    nskip++;
                    continue;
                }
                if (floor_ns(a) / agg_ns(a) < worst)
                    worst = floor_ns(a) / agg_ns(a);
                n++;
            }
        }
        if (n) {
            t->met = worst >= 1.0 && nskip == 0;
            snprintf(t->figure, sizeof t->figure, "worst %.2fx the floor's speed where tdfa "
                     "compiles; %d of %d (K, w) over the state budget", worst, nskip, n + nskip);
        }
    }
    t = tnew("B2 dense windows (K = 10, w >= 100): >= 5x Hyperscan streaming (best strategy "
             "per w)");
    {
        double worst = 1e9;
        char by[160] = "";
        for (i = 0; i < naggs; i++) {
            agg *a = &aggs[i];
            double hs, best;
            if (strcmp(a->wl, "B2") || a->k != 10 || a->w < 100 || strcmp(a->method, "hs") ||
                !a->nns)
                continue;
            hs = agg_ns(a);
            best = best_matcher_ns("B2", 10, a->w, 0);
            if (best <= 0) {
                worst = 0;
                snprintf(by, sizeof by, "w = %ld: no matcher measured", a->w);
            } else if (hs / best < worst) {
                worst = hs / best;
                snprintf(by, sizeof by, "w = %ld: %.1f ns/event against Hyperscan's %.1f", a->w,
                         best, hs);
            }
        }
        if (worst < 1e9) {
            t->met = worst >= 5;
            snprintf(t->figure, sizeof t->figure, "worst %.2fx Hyperscan's speed (%s)", worst, by);
        }
    }
    t = tnew("tdfa compile time at w = 1,000 under 1 s (sremc + cc; Hyperscan beside it)");
    {
        char buf[200] = "";
        size_t len = 0;
        int ok = 1, n = 0;
        for (i = 0; i < bench_n_entries && len < 150; i++) {
            const bench_entry *e = &bench_entries[i];
            if (e->w != 1000 || strcmp(e->strategy, "tdfa") ||
                (strcmp(e->workload, "B1") && strcmp(e->workload, "B2")))
                continue;
            if (!e->ops)
                len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s K=%d: %s", n ? "; " : "",
                                        e->workload, e->k, "over the state budget");
            else
                len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s K=%d %.2f s",
                                        n ? "; " : "", e->workload, e->k, e->sremc_s + e->cc_s);
            if (!e->ops || e->sremc_s + e->cc_s >= 1.0)
                ok = 0;
            n++;
        }
        for (i = 0; i < naggs; i++)
            if (!strcmp(aggs[i].wl, "B2") && aggs[i].w == 1000 && aggs[i].k == 10 &&
                !strcmp(aggs[i].method, "hs") && aggs[i].comp_s > 0 && len < 170)
                len += (size_t)snprintf(buf + len, sizeof buf - len, "; hs (B2) %.2f s",
                                        aggs[i].comp_s);
        if (n) {
            t->met = ok;
            snprintf(t->figure, sizeof t->figure, "%s", buf);
        }
    }
    /* flat in w per K, as for B1: K = 26 has fewer matches, so its rows
       are faster at every w, which is no slope in w */
    t = tnew("B3 (all stam matches counted): >= 100 M events/s, flat in w (max/min ns over w per K <= 1.3)");
    {
        double hi_all = 0, flat = 0;
        int n = 0, shown = 0;
        for (x = 0; x < 2; x++) {
            double lo = 1e9, hi = 0;
            for (i = 0; i < naggs; i++) {
                agg *a = &aggs[i];
                if (!strcmp(a->wl, "B3") && is_matcher(a->method) && a->k == ks[x] && a->nns) {
                    double ns = agg_ns(a);
                    lo = ns < lo ? ns : lo;
                    hi = ns > hi ? ns : hi;
                    n++;
                }
            }
            if (hi > 0) {
                size_t l = shown++ ? strlen(t->figure) : 0;
                hi_all = hi > hi_all ? hi : hi_all;
                flat = hi / lo > flat ? hi / lo : flat;
                snprintf(t->figure + l, sizeof t->figure - l, "%sK = %d: %.1f-%.1f M events/s (max/min ns %.2f)",
                         l ? "; " : "", ks[x], 1e3 / hi, 1e3 / lo, hi / lo);
            }
        }
        if (n)
            t->met = 1e3 / hi_all >= 100 && flat <= 1.3;
    }
    t = tnew("B7 registers: >= half the 16-byte record floor (best strategy per selectivity)");
    {
        double worst = 1e9;
        char by[96] = "";
        for (i = 0; i < naggs; i++) {
            agg *a = &aggs[i];
            double best;
            if (strcmp(a->wl, "B0") || strcmp(a->method, "rec16") || !a->nns)
                continue;
            for (x = 0; x < naggs; x++) {
                agg *b7 = &aggs[x];
                if (strcmp(b7->wl, "B7") || strcmp(b7->method, "naive"))
                    continue;
                best = best_matcher_ns("B7", b7->k, b7->w, b7->p);
                if (best > 0 && agg_ns(a) / best < worst) {
                    worst = agg_ns(a) / best;
                    snprintf(by, sizeof by, "p = %d%%: %.2f ns/event, floor %.2f", b7->p, best,
                             agg_ns(a));
                }
            }
        }
        if (worst < 1e9) {
            t->met = worst >= 0.5;
            snprintf(t->figure, sizeof t->figure, "worst %.3fx the floor's speed (%s)", worst, by);
        }
    }
    t = tnew("no matcher slower than the BENCH_BASELINE commit's by more than 10% (x base >= 0.9)");
    {
        double worst = 1e9;
        char by[96] = "";
        for (i = 0; i < naggs; i++) {
            agg *a = &aggs[i];
            double b = a->nns && is_matcher(a->method) ? base_ns(a) : 0;
            if (b > 0 && b / agg_ns(a) < worst) {
                worst = b / agg_ns(a);
                snprintf(by, sizeof by, "%s K=%d w=%ld p=%d %s: %.2f ns/event, baseline %.2f", a->wl,
                         a->k, a->w, a->p, a->method, agg_ns(a), b);
            }
        }
        if (worst < 1e9) {
            t->met = worst >= 0.9;
            snprintf(t->figure, sizeof t->figure, "worst %.2fx (%s)", worst, by);
        }
    }
    t = tnew("B9: push overhead <= 5 ns/event at p50 (tdfa, one push per event, timed in "
             "groups of 8)");
    {
        double worst = 0;
        char by[64] = "";
        for (i = 0; i < naggs; i++) {
            agg *a = &aggs[i];
            if (!strcmp(a->wl, "B9") && a->nlat && strstr(a->method, "tdfa")) {
                double v[8];
                memcpy(v, a->p50g, sizeof v);
                if (median(v, a->nlat) > worst) {
                    worst = median(v, a->nlat);
                    snprintf(by, sizeof by, "%s", a->method);
                }
            }
        }
        if (worst > 0) {
            t->met = worst <= 5;
            snprintf(t->figure, sizeof t->figure, "worst p50 %.1f ns (%s)", worst, by);
        }
    }
}

/* ---- JSON -------------------------------------------------------------------------------- */

static void json_str(FILE *o, const char *s)
{
    fputc('"', o);
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(o, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(o, "\\u%04x", *s);
        else
            fputc(*s, o);
    }
    fputc('"', o);
}

/* A JSON-lines file as the elements of an array (nothing if absent). */
static void json_lines(FILE *o, const char *path)
{
    static char line[1 << 16];
    FILE *f = path ? fopen(path, "r") : NULL;
    int first = 1;
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        size_t l = strlen(line);
        while (l && (line[l - 1] == '\n' || line[l - 1] == '\r' || line[l - 1] == ' '))
            line[--l] = 0;
        if (!l)
            continue;
        fprintf(o, "%s\n    %s", first ? "" : ",", line);
        first = 0;
    }
    fclose(f);
}

static void write_json(const char *path, const char *meta, const char *episodes,
                       const char *explore, int procs)
{
    FILE *o = fopen(path, "w"), *m;
    int i;
    char line[512];
    if (!o) {
        perror(path);
        return;
    }
    fprintf(o, "{\n  \"meta\": {\"processes\": %d", procs);
    if (meta && (m = fopen(meta, "r")) != NULL) {
        while (fgets(line, sizeof line, m)) {
            char *eq = strchr(line, '=');
            size_t l = strlen(line);
            if (!eq)
                continue;
            if (l && line[l - 1] == '\n')
                line[l - 1] = 0;
            *eq = 0;
            fprintf(o, ", ");
            json_str(o, line);
            fprintf(o, ": ");
            json_str(o, eq + 1);
        }
        fclose(m);
    }
    fprintf(o, "},\n  \"rows\": [");
    for (i = 0; i < naggs; i++) {
        agg *a = &aggs[i];
        double ns = a->nns ? agg_ns(a) : 0, v[8];
        fprintf(o, "%s\n    {\"workload\": \"%s\", \"k\": %d, \"w\": %ld, \"p\": %d, \"method\": ",
                i ? "," : "", a->wl, a->k, a->w, a->p);
        json_str(o, a->method);
        if (!a->nns) {
            fprintf(o, ", \"skipped\": ");
            json_str(o, a->skip);
        } else {
            fprintf(o, ", \"events\": %zu, \"prefix_varies\": %s, \"count\": %" PRIu64
                       ", \"check\": ", a->n, a->n_varies ? "true" : "false", a->count);
            json_str(o, a->check);
            fprintf(o, ", \"samples\": %d, \"ns_per_event\": %.4f, \"m_events_per_s\": %.3f", a->nns,
                    ns, ns > 0 ? 1e3 / ns : 0);
            if (is_matcher(a->method) && base_ns(a) > 0)
                fprintf(o, ", \"x_base\": %.4f", base_ns(a) / ns);
            if (is_matcher(a->method) || is_base(a->method)) {
                const char *bl[] = {"hs", "hs1", "naive", "counter", "interp"};
                size_t b;
                double f = floor_ns(a);
                if (f > 0)
                    fprintf(o, ", \"x_floor\": %.4f", f / ns);
                if (strcmp(a->wl, "B7") && strcmp(a->wl, "B1r")) {
                    double s8 = ns_of("B0", a->k, 0, !strncmp(a->wl, "B8", 2) ? a->p : 0, "sum8");
                    if (s8 > 0)
                        fprintf(o, ", \"x_sum8\": %.4f", s8 / ns);
                }
                for (b = 0; b < sizeof bl / sizeof bl[0]; b++) {
                    double x = ns_of(a->wl, a->k, a->w, a->p, bl[b]);
                    if (x > 0)
                        fprintf(o, ", \"x_%s\": %.4f", bl[b], x / ns);
                }
            }
        }
        if (a->state)
            fprintf(o, ", \"state_bytes\": %ld", a->state);
        if (!strcmp(a->wl, "B9p"))
            fprintf(o, ", \"bytes_per_key\": %ld", a->per_key);
        if (a->rss_kb)
            fprintf(o, ", \"peak_rss_kb\": %ld", a->rss_kb);
        if (a->comp_s > 0)
            fprintf(o, ", \"hs_compile_s\": %.4f", a->comp_s);
        if (a->nlat) {
            memcpy(v, a->p50, sizeof v);
            fprintf(o, ", \"p50_ns\": %.2f", median(v, a->nlat));
            memcpy(v, a->p99, sizeof v);
            fprintf(o, ", \"p99_ns\": %.2f", median(v, a->nlat));
            memcpy(v, a->p50g, sizeof v);
            fprintf(o, ", \"p50_groups_of_8_ns\": %.2f", median(v, a->nlat));
        }
        if (a->e) {
            fprintf(o, ", \"strategy_used\": ");
            json_str(o, a->e->chosen);
            fprintf(o, ", \"c_bytes\": %ld, \"object_bytes\": %ld, \"rodata_bytes\": %ld, \"sremc_s\": %.3f"
                       ", \"cc_s\": %.3f", a->e->c_bytes, a->e->text_bytes, a->e->rodata_bytes,
                    a->e->sremc_s, a->e->cc_s);
            if (a->e->base) {
                fprintf(o, ", \"baseline\": ");
                json_str(o, a->e->base);
            }
        }
        fputc('}', o);
    }
    fprintf(o, "\n  ],\n  \"targets\": [");
    for (i = 0; i < ntargets; i++) {
        fprintf(o, "%s\n    {\"target\": ", i ? "," : "");
        json_str(o, targets[i].what);
        fprintf(o, ", \"met\": %s, \"figure\": ",
                targets[i].met < 0 ? "null" : targets[i].met ? "true" : "false");
        json_str(o, targets[i].figure);
        fputc('}', o);
    }
    fprintf(o, "\n  ],\n  \"episodes\": [");
    json_lines(o, episodes);
    fprintf(o, "\n  ],\n  \"explore\": [");
    json_lines(o, explore);
    fprintf(o, "\n  ]\n}\n");
    fclose(o);
}

/* ns/event against w at K = 10 for the plot (bench/window.gp). */
static void write_dat(const char *path)
{
    static const struct {
        const char *wl, *m;
    } cols[] = {
        {"B1", "tdfa"}, {"B1", "dsra"}, {"B1", "runs"}, {"B1", "naive"}, {"B1", "counter"},
        {"B2", "tdfa"}, {"B2", "runs"}, {"B2", "naive"}, {"B2", "counter"}, {"B2", "hs"},
        {"B3", "auto"},
    };
    long ws[32];
    int nw = 0, i, j, c;
    FILE *o = fopen(path, "w");
    if (!o) {
        perror(path);
        return;
    }
    for (i = 0; i < naggs; i++)
        if ((!strcmp(aggs[i].wl, "B1") || !strcmp(aggs[i].wl, "B2") || !strcmp(aggs[i].wl, "B3")) &&
            aggs[i].k == 10) {
            for (j = 0; j < nw && ws[j] != aggs[i].w; j++)
                ;
            if (j == nw && nw < 32)
                ws[nw++] = aggs[i].w;
        }
    for (i = 1; i < nw; i++)   /* sort */
        for (j = i; j > 0 && ws[j - 1] > ws[j]; j--) {
            long t = ws[j];
            ws[j] = ws[j - 1];
            ws[j - 1] = t;
        }
    fprintf(o, "# w");
    for (c = 0; c < (int)(sizeof cols / sizeof cols[0]); c++)
        fprintf(o, " %s-%s", cols[c].wl, cols[c].m);
    fprintf(o, " dfa64-floor\n");
    for (i = 0; i < nw; i++) {
        fprintf(o, "%ld", ws[i]);
        for (c = 0; c < (int)(sizeof cols / sizeof cols[0]); c++) {
            double ns = ns_of(cols[c].wl, 10, ws[i], 0, cols[c].m);
            if (ns > 0)
                fprintf(o, " %.4f", ns);
            else
                fprintf(o, " ?");
        }
        fprintf(o, " %.4f\n", ns_of("B0", 10, 0, 0, "dfa64"));
    }
    fclose(o);
}

static void write_md(FILE *o, int procs, int reps, int breps)
{
    static const char *const wls[] = {"B1", "B2", "B3", "B4s5", "B4s8", "B4k", "B7", "B1r",
                                      "B8s", "B8g"};
    static const struct {
        int k, pm;
        const char *name;
    } streams[] = {{10, 0, "one-byte types, K = 10"}, {26, 0, "one-byte types, K = 26"},
                   {26, 100, "K = 26, p(A) = 0.1"}, {26, 10, "K = 26, p(A) = 0.01"},
                   {26, 1, "K = 26, p(A) = 0.001"}};
    size_t s;
    int i;
    fprintf(o, "Medians of %d process(es) x %d repetition(s) (baselines: %d); "
               "\"x floor\", \"x hs\", \"x naive\", \"x counter\", "
               "\"x interp\": the matcher's speed over that one's, same run, same events "
               "(> 1: the matcher is faster). Floor: the 64-state table DFA (one-byte types) or "
               "the 16-byte record sum (records). check: golden = the docs/workloads.md count; ref = "
               "the workload's first row, its reference; =X: equal to X's count on the same "
               "events. events with ~: prefix chosen per process by the time budget. "
               "S@COMMIT: the matcher of strategy S emitted by the sremc of that commit "
               "(BENCH_BASELINE); x base: the matcher's speed over it. table B: the object's "
               "read-only data (.rodata*).\n", procs, reps, breps);
    fprintf(o, "\n#### B0: floors (M events/s)\n\n| stream | byte sum | 64-state table DFA "
               "| 16-byte record sum |\n|---|---:|---:|---:|\n");
    for (s = 0; s < sizeof streams / sizeof streams[0]; s++) {
        double a = ns_of("B0", streams[s].k, 0, streams[s].pm, "sum8");
        double b = ns_of("B0", streams[s].k, 0, streams[s].pm, "dfa64");
        if (a > 0)
            fprintf(o, "| %s | %.0f | %.0f | |\n", streams[s].name, 1e3 / a, 1e3 / b);
    }
    if (ns_of("B0", 10, 0, 0, "rec16") > 0)
        fprintf(o, "| 16-byte records, K = 10 | | | %.0f |\n", 1e3 / ns_of("B0", 10, 0, 0, "rec16"));
    for (s = 0; s < sizeof wls / sizeof wls[0]; s++)
        md_workload(o, wls[s]);
    fprintf(o, "\n#### B9: one event per call, K = 10, w = 10 (timer overhead subtracted; "
               "the TSC here ticks in steps of about 10 ns, so single-call figures are "
               "multiples of it; \"p50, groups of 8\" times 8 consecutive calls)\n\n"
               "| matcher | events | p50 ns | p99 ns | p50 ns, groups of 8 | state bytes per stream "
               "| check |\n|---|---:|---:|---:|---:|---:|---|\n");
    for (i = 0; i < naggs; i++)
        if (!strcmp(aggs[i].wl, "B9") && aggs[i].nlat) {
            double v[8], p50, p99, p50g;
            memcpy(v, aggs[i].p50, sizeof v);
            p50 = median(v, aggs[i].nlat);
            memcpy(v, aggs[i].p99, sizeof v);
            p99 = median(v, aggs[i].nlat);
            memcpy(v, aggs[i].p50g, sizeof v);
            p50g = median(v, aggs[i].nlat);
            fprintf(o, "| %s | %zu | %.1f | %.1f | %.2f | %ld | %s |\n", aggs[i].method, aggs[i].n,
                    p50, p99, p50g, aggs[i].state, aggs[i].check);
        }
    for (i = 0; i < naggs; i++)
        if (!strcmp(aggs[i].wl, "B9p"))
            fprintf(o, "\nPartitioned `B1` (`partition by key`, K = %d, w = %ld, %s): %ld bytes "
                       "with one key, %ld bytes per further key.\n", aggs[i].k, aggs[i].w,
                    aggs[i].method, aggs[i].state, aggs[i].per_key);
    fprintf(o, "\n#### Targets (issue 7, docs/design.md)\n\n| target | measured | met |\n|---|---|---|\n");
    for (i = 0; i < ntargets; i++)
        fprintf(o, "| %s | %s | %s |\n", targets[i].what, targets[i].figure,
                targets[i].met < 0 ? "not measured" : targets[i].met ? "**met**" : "**missed**");
}

static int report_main(int argc, char **argv)
{
    const char *json = NULL, *md = NULL, *dat = NULL, *meta = NULL, *epi = NULL, *exp = NULL;
    int a, procs = 0, reps = 0, breps = 0;
    for (a = 2; a < argc; a++) {
        if (!strcmp(argv[a], "--json") && a + 1 < argc)
            json = argv[++a];
        else if (!strcmp(argv[a], "--md") && a + 1 < argc)
            md = argv[++a];
        else if (!strcmp(argv[a], "--dat") && a + 1 < argc)
            dat = argv[++a];
        else if (!strcmp(argv[a], "--meta") && a + 1 < argc)
            meta = argv[++a];
        else if (!strcmp(argv[a], "--episodes") && a + 1 < argc)
            epi = argv[++a];
        else if (!strcmp(argv[a], "--explore") && a + 1 < argc)
            exp = argv[++a];
        else if (argv[a][0] == '-') {
            fprintf(stderr, "bench --report: unknown option %s\n", argv[a]);
            return 2;
        } else {
            FILE *f = fopen(argv[a], "r");
            char line[256];
            if (f && fgets(line, sizeof line, f)) {
                reps = (int)lfield(line, "reps");
                breps = (int)lfield(line, "breps");
            }
            if (f)
                fclose(f);
            if (read_raw(argv[a]) != 0)
                return 1;
            procs++;
        }
    }
    if (procs == 0) {
        fprintf(stderr, "bench --report: no raw files\n");
        return 2;
    }
    eval_targets();
    write_md(stdout, procs, reps, breps);
    if (md) {
        FILE *o = fopen(md, "w");
        if (o) {
            write_md(o, procs, reps, breps);
            fclose(o);
        }
    }
    if (json)
        write_json(json, meta, epi, exp, procs);
    if (dat)
        write_dat(dat);
    printf("\n%s\n", rep_fail ? "bench: FAILED (see above)" : "bench: all counts checked");
    return rep_fail;
}

/* ======== main ============================================================================== */

int main(int argc, char **argv)
{
    opts o;
    const char *raw = NULL;
    int a, rc;
    if (argc > 1 && !strcmp(argv[1], "--report"))
        return report_main(argc, argv);
    memset(&o, 0, sizeof o);
    o.reps = 2;
    o.breps = 1;
    o.budget = 0.5;
    o.mbudget = 4.0;
    for (a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--full")) {
            o.full = 1;
            o.reps = 5;
            o.breps = 3;
            o.budget = 1.0;
            o.mbudget = 8.0;
        } else if (!strcmp(argv[a], "-r") && a + 1 < argc)
            o.reps = atoi(argv[++a]);
        else if (!strcmp(argv[a], "-n") && a + 1 < argc)
            o.n = (size_t)strtoull(argv[++a], NULL, 10);
        else if (!strcmp(argv[a], "--budget") && a + 1 < argc)
            o.mbudget = 8 * (o.budget = atof(argv[++a]));
        else if (!strcmp(argv[a], "--raw") && a + 1 < argc)
            raw = argv[++a];
        else {
            fprintf(stderr, "usage: %s [--full] [-r REPS] [-b REPS] [-n EVENTS] [--budget SECONDS] --raw FILE\n"
                            "       %s --report [--json F] [--md F] [--dat F] [--meta F] "
                            "[--episodes F] [--explore F] RAW...\n", argv[0], argv[0]);
            return 2;
        }
    }
    if (!raw || o.reps < 1 || o.reps > MAXREP || o.breps < 1 || o.breps > MAXREP) {
        fprintf(stderr, "bench: --raw FILE needed, -r in 1..%d\n", MAXREP);
        return 2;
    }
    o.raw = fopen(raw, "w");
    if (!o.raw) {
        perror(raw);
        return 1;
    }
    rc = run_main(&o);
    fclose(o.raw);
    return rc;
}
