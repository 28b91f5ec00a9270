/* explore_bench.c: events/s of the explore counting algorithms (default, ic,
 * rc, bf) as the count window grows, beside the generated matcher of the
 * same pattern without the explore clause, on the same in-memory stream,
 * with every algorithm's totals checked against the others.
 *
 * Stream (per K, like the trie paper's synthetic streams of 6, 10 and 11
 * types): the docs/workloads.md generator (xorshift64, seed 88172645463325252,
 * type = x mod K), 16-byte records {ts = i, type, val} (bench/bench.h).
 * Pattern p = <A,B,C>, extensions and variations over the other K - 3
 * types, `within w events`, stam and stnm, one partition; every event goes
 * through sremrt_explore_push with a step record (what a generated matcher
 * needs for the suggestions), reading ts and type from the records.
 *
 * The matcher: bench/explore.sh has bin/sremc compile `pattern xp on Rec
 * within w events policy P { A B C }` (no explore clause) per (K, w,
 * policy) and links it here through bench/adapter.c; this file lists them
 * with XB_MATCHERS (a file of XB_MATCHER(K, w, policy, prefix) lines).
 * Compiled without it, the matcher column is empty.
 *
 * Generated: the counting step sremc generates for the same pattern with
 * `explore extensions variations confidence 0.2` (what a program runs for
 * --explore-algo default), fed the same records directly, without the
 * pattern's own matching (bench/explore_step.c; XB_STEP(K, w, policy,
 * prefix) lines in the same file). Its totals are checked like bf's.
 *
 * Rates are over the events after the first w (the window is full: the
 * steady state), in thread CPU time, median of the repetitions. bf, rc and
 * ic (whose cost grows with w) run a prefix when slow: the first
 * repetition stops after a time budget and the others run the same prefix;
 * a method whose first w events alone take over the fill limit is not run.
 *
 * Checks (exit 1, "FAILED"): every repetition gives the same totals; the
 * totals of pattern matches, extension matches and variation matches of
 * bf, rc and ic equal the default's on the prefix both ran, and so do the
 * trie's total and the events with a pattern match (detections); those
 * detections equal the matcher's match records; no FIFO overflow.
 *
 *   cc -O2 -std=c99 -Wall -Wextra -Ibench -Iruntime/include bench/explore_bench.c lib/libsremrt.a -o build/explore_bench
 *   ./build/explore_bench [-n EVENTS] [-r REPS] [-b SECONDS] [--full] [--json FILE]
 * -b: the time budget per repetition of bf, rc and ic (default 0.06 s,
 * 0.6 s with --full); the fill limit is 5 times that.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "timing.h"

#include "bench.h"
#include "sremrt/sremrt.h"

/* ---- matchers ------------------------------------------------------------------ */

typedef struct xb_matcher {
    int k;
    long w;
    int policy;              /* sremrt_explore_policy */
    const bench_ops *ops;
} xb_matcher;

/* The generated counting step of the same clause with an explore clause
 * (bench/explore_step.c). */
typedef struct xb_step {
    int k;
    long w;
    int policy;
    const xb_step_ops *ops;
} xb_step;

#ifdef XB_MATCHERS
#define XB_MATCHER(k, w, pol, name) extern const bench_ops name##_bench_ops;
#define XB_STEP(k, w, pol, name) extern const xb_step_ops name##_step_ops;
#include XB_MATCHERS
#undef XB_MATCHER
#undef XB_STEP
#define XB_MATCHER(k, w, pol, name) {k, w, pol, &name##_bench_ops},
#define XB_STEP(k, w, pol, name)
static const xb_matcher matchers[] = {
#include XB_MATCHERS
    {0, 0, 0, NULL}
};
#undef XB_MATCHER
#undef XB_STEP
#define XB_MATCHER(k, w, pol, name)
#define XB_STEP(k, w, pol, name) {k, w, pol, &name##_step_ops},
static const xb_step steps[] = {
#include XB_MATCHERS
    {0, 0, 0, NULL}
};
#undef XB_MATCHER
#undef XB_STEP
#else
static const xb_matcher matchers[] = {{0, 0, 0, NULL}};
static const xb_step steps[] = {{0, 0, 0, NULL}};
#endif

static const bench_ops *find_matcher(int k, long w, int pol)
{
    const xb_matcher *m;
    for (m = matchers; m->ops; m++)
        if (m->k == k && m->w == w && m->policy == pol)
            return m->ops;
    return NULL;
}

static const xb_step_ops *find_step(int k, long w, int pol)
{
    const xb_step *m;
    for (m = steps; m->ops; m++)
        if (m->k == k && m->w == w && m->policy == pol)
            return m->ops;
    return NULL;
}

/* ---- stream, timing ------------------------------------------------------------ */

#define SEED 88172645463325252ULL

static void gen_fill(bench_rec *ev, long n, uint32_t k)
{
    uint64_t x = SEED;
    long j;
    for (j = 0; j < n; j++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        ev[j].ts = (uint64_t)j;
        ev[j].type = (uint32_t)(x % k);
        ev[j].val = (float)(x >> 40) * (1.0f / 16777216.0f);
    }
}

/* ---- methods: the four algorithms and the matcher --------------------------------- */

enum { M_BF, M_RC, M_IC, M_DEFAULT, M_GEN, M_MATCHER, NMETHODS };
static const char *const method_name[NMETHODS] = {"bf", "rc", "ic", "default", "generated", "matcher"};
static const sremrt_explore_algo method_algo[M_MATCHER] = {
    SREMRT_EXPLORE_BF, SREMRT_EXPLORE_RC, SREMRT_EXPLORE_IC, SREMRT_EXPLORE_DEFAULT
};

/* What a run counted so far. */
typedef struct totals {
    uint64_t pattern, extension, variation;   /* matches ending at the events */
    uint64_t detections;                      /* events with a pattern match */
    uint64_t trie;                            /* the trie's total */
} totals;

typedef struct cell {
    int k;
    long w;
    sremrt_explore_policy policy;
    const bench_rec *ev;
    long n;
} cell;

typedef struct state {
    int method;
    const cell *c;
    totals t;
    /* explore */
    sremrt_explore ex;
    sremrt_explore_part part;
    /* matcher */
    const bench_ops *ops;
    void *m;
    uint64_t count;
    /* generated step */
    const xb_step_ops *gen;
} state;

static void st_open(state *s, int method, const cell *c)
{
    static const int32_t abc[] = {0, 1, 2};
    memset(s, 0, sizeof *s);
    s->method = method;
    s->c = c;
    if (method == M_MATCHER) {
        s->ops = find_matcher(c->k, c->w, (int)c->policy);
        s->m = s->ops->open(&s->count);
    } else if (method == M_GEN) {
        s->gen = find_step(c->k, c->w, (int)c->policy);
        s->m = s->gen->open();
    } else {
        sremrt_alloc heap = sremrt_alloc_malloc();
        sremrt_explore_config cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.pattern = abc;
        cfg.m = 3;
        cfg.nvalues = c->k;
        cfg.policy = c->policy;
        cfg.window = SREMRT_EXPLORE_EVENTS;
        cfg.width = c->w;
        cfg.extensions = cfg.variations = 1;
        cfg.confidence = 0.2;
        cfg.algo = method_algo[method];
        cfg.capacity = 0;    /* w entries: never full under a count window */
        if (sremrt_explore_init(&s->ex, &cfg, &heap) ||
            sremrt_explore_part_init(&s->ex, &s->part, &heap)) {
            fprintf(stderr, "explore_bench: init failed\n");
            exit(1);
        }
    }
}

/* Events a..b-1. */
static void st_run(state *s, long a, long b)
{
    const bench_rec *ev = s->c->ev;
    long i;
    if (s->method == M_MATCHER) {
        s->ops->feed(s->m, ev + a, (size_t)(b - a));
        s->t.detections = s->count;
        return;
    }
    if (s->method == M_GEN) {
        xb_step_totals t = {s->t.pattern, s->t.extension, s->t.variation, s->t.detections, s->t.trie};
        s->gen->run(s->m, ev + a, (size_t)(b - a), &t);
        s->t.pattern = t.pattern, s->t.extension = t.extension, s->t.variation = t.variation;
        s->t.detections = t.detections, s->t.trie = t.trie;
        return;
    }
    {
        sremrt_explore *ex = &s->ex;
        sremrt_explore_part *part = &s->part;
        sremrt_explore_step step;
        totals t = s->t;
        for (i = a; i < b; i++) {
            sremrt_explore_push(ex, part, (int64_t)ev[i].ts, (int32_t)ev[i].type, &step);
            t.pattern += step.pattern;
            t.extension += step.extension;
            t.variation += step.variation;
            t.detections += step.pattern != 0;
        }
        t.trie = sremrt_ptrie_total(&ex->trie);
        s->t = t;
    }
}

/* Closes s; returns its capacity overflows. */
static uint64_t st_close(state *s)
{
    uint64_t ovf;
    if (s->method == M_MATCHER)
        return s->ops->close(s->m);
    if (s->method == M_GEN)
        return s->gen->close(s->m);
    ovf = s->ex.overflows + (uint64_t)(s->ex.may_wrap != 0);
    sremrt_explore_part_free(&s->part);
    sremrt_explore_free(&s->ex);
    return ovf;
}

/* ---- measuring ----------------------------------------------------------------------- */

#define MAXCHK 8

typedef struct meas {
    int run;                 /* 0: not run (fill too slow, or no matcher) */
    long n;                  /* events run; the rate is over events w..n-1 */
    double rate;             /* events/s, median */
    totals t;                /* after n events */
    int nchk;
    long chk_at[MAXCHK];
    totals chk[MAXCHK];
    int consistent;
    uint64_t overflows;
} meas;

/* The first repetition runs the first w events (untimed; given up past
 * fill_cap s), then timed events until n_max or `budget` s; the others run
 * the same prefix. Totals are read at the checkpoints in the first. */
static meas measure(int method, const cell *c, long n_max, double budget, double fill_cap,
                    int reps, const long *chk, int nchk)
{
    meas r;
    double t[16];
    int rep, i;
    long w0 = c->w < n_max / 2 ? c->w : n_max / 2;
    memset(&r, 0, sizeof r);
    r.consistent = 1;
    for (rep = 0; rep < reps; rep++) {
        state s;
        long at = 0, chunk = 16;
        double t0 = now(), tt = 0, c0;
        int timing = 0;
        st_open(&s, method, c);
        if (rep == 0) {
            while (at < n_max) {
                long end = at + chunk < n_max ? at + chunk : n_max;
                if (!timing && end > w0)
                    end = w0;
                for (i = 0; i < nchk; i++)
                    if (chk[i] > at && chk[i] < end)
                        end = chk[i];
                c0 = now();
                st_run(&s, at, end);
                at = end;
                for (i = 0; i < nchk; i++)
                    if (chk[i] == at && r.nchk < MAXCHK) {
                        r.chk_at[r.nchk] = at;
                        r.chk[r.nchk++] = s.t;
                    }
                if (timing)
                    tt += now() - c0;
                else if (now() - t0 > fill_cap) {
                    st_close(&s);
                    return r;   /* not run */
                }
                if (!timing && at == w0) {
                    timing = 1;
                    t0 = now();
                    continue;
                }
                if (timing && tt > budget)
                    break;
                if (now() - c0 < budget / 50 && chunk < (1L << 20))
                    chunk *= 2;
            }
            r.n = at;
            r.t = s.t;
        } else {
            st_run(&s, 0, w0);
            c0 = now();
            st_run(&s, w0, r.n);
            tt = now() - c0;
            if (memcmp(&s.t, &r.t, sizeof s.t) != 0)
                r.consistent = 0;
        }
        t[rep] = tt;
        r.overflows += st_close(&s);
    }
    r.run = 1;
    r.rate = (double)(r.n - w0) / median(t, reps);
    return r;
}

/* Totals of `method` after P events: from its run, or by running again. */
static totals totals_on(int method, const cell *c, const meas *m, long P)
{
    state s;
    int i;
    if (m->n == P)
        return m->t;
    for (i = 0; i < m->nchk; i++)
        if (m->chk_at[i] == P)
            return m->chk[i];
    st_open(&s, method, c);
    st_run(&s, 0, P);
    st_close(&s);
    return s.t;
}

/* ---- output ------------------------------------------------------------------------------ */

static FILE *json;
static int failed;

/* The B5 target (issue 18): the generated step at least 100 M events/s at
 * every cell, flat in w (max/min at most 1.3 per K and policy). */
#define B5_GOAL 100e6
#define B5_FLAT 1.3
static struct { int k, pol; double lo, hi; long lo_w; } b5[8];
static int nb5, b5_timed_all = 1;

static void b5_note(const cell *c, const meas *m)
{
    int i, pol = c->policy == SREMRT_EXPLORE_STAM ? 0 : 1;
    if (!m->run || m->n < c->n) {   /* not run, or on a prefix only */
        b5_timed_all = 0;
        return;
    }
    for (i = 0; i < nb5 && (b5[i].k != c->k || b5[i].pol != pol); i++)
        ;
    if (i == nb5) {
        if (nb5 == (int)(sizeof b5 / sizeof b5[0]))
            return;
        nb5++;
        b5[i].k = c->k, b5[i].pol = pol, b5[i].lo = m->rate, b5[i].hi = m->rate, b5[i].lo_w = c->w;
    }
    if (m->rate < b5[i].lo)
        b5[i].lo = m->rate, b5[i].lo_w = c->w;
    if (m->rate > b5[i].hi)
        b5[i].hi = m->rate;
}

static void b5_report(void)
{
    int i, met = b5_timed_all && nb5 > 0, worst = -1;
    double flat = 0;
    for (i = 0; i < nb5; i++) {
        if (worst < 0 || b5[i].lo < b5[worst].lo)
            worst = i;
        if (b5[i].hi / b5[i].lo > flat)
            flat = b5[i].hi / b5[i].lo;
        met = met && b5[i].lo >= B5_GOAL && b5[i].hi / b5[i].lo <= B5_FLAT;
    }
    if (worst < 0) {
        printf("\nB5 target: not measured (no generated step ran)\n");
        return;
    }
    printf("\nB5 target (the generated step at least %.0f M events/s, max/min over w at most %.1f "
           "per K and policy): %s; slowest %.1f M events/s (K = %d, %s, w = %ld), max/min %.2f%s\n",
           B5_GOAL / 1e6, B5_FLAT, met ? "met" : "missed", b5[worst].lo / 1e6, b5[worst].k,
           b5[worst].pol ? "stnm" : "stam", b5[worst].lo_w, flat,
           b5_timed_all ? "" : " (some cells timed on a prefix only)");
}

static const char *pol_name(sremrt_explore_policy p)
{
    return p == SREMRT_EXPLORE_STAM ? "stam" : "stnm";
}

static void fail(const cell *c, const char *what)
{
    printf("FAILED: K=%d %s w=%ld: %s\n", c->k, pol_name(c->policy), c->w, what);
    failed = 1;
}

/* "12.3" (M events/s), "0.0123 [40k]" when run on a prefix (timed over
 * 40,000 events), "-" not run. */
static const char *fmt_rate(char *buf, size_t cap, const meas *m, const cell *c)
{
    long timed = m->n - (c->w < c->n / 2 ? c->w : c->n / 2);
    if (!m->run)
        snprintf(buf, cap, "-");
    else if (m->n < c->n && timed >= 1000)
        snprintf(buf, cap, "%.3g [%ldk]", m->rate / 1e6, (timed + 500) / 1000);
    else if (m->n < c->n)
        snprintf(buf, cap, "%.3g [%ld]", m->rate / 1e6, timed);
    else
        snprintf(buf, cap, "%.3g", m->rate / 1e6);
    return buf;
}

static void bench_cell(const cell *c, int reps, double scale)
{
    meas m[NMETHODS];
    long chk[NMETHODS], n = c->n;
    int a, nchk = 0;
    char buf[NMETHODS][48], what[200];
    /* slowest first: each later method records its totals where the
     * earlier ones stopped */
    for (a = 0; a < NMETHODS; a++) {
        int cheap = a == M_DEFAULT || a == M_GEN || a == M_MATCHER;
        if ((a == M_MATCHER && !find_matcher(c->k, c->w, (int)c->policy)) ||
            (a == M_GEN && !find_step(c->k, c->w, (int)c->policy))) {
            memset(&m[a], 0, sizeof m[a]);
            continue;
        }
        m[a] = measure(a, c, n, cheap ? 5.0 * scale : 0.06 * scale, cheap ? 60.0 : 0.3 * scale,
                       reps, chk, nchk);
        if (m[a].run)
            chk[nchk++] = m[a].n;
        if (m[a].run && !m[a].consistent)
            fail(c, "repetitions disagree");
        if (m[a].overflows)
            fail(c, "FIFO overflow or may-wrap");
    }
    /* Every algorithm and the generated step against the default, on the
     * prefix both ran. */
    for (a = 0; a < M_MATCHER; a++) {
        long P;
        totals x, d;
        if (!m[a].run || a == M_DEFAULT)
            continue;
        P = m[a].n < m[M_DEFAULT].n ? m[a].n : m[M_DEFAULT].n;
        x = totals_on(a, c, &m[a], P);
        d = totals_on(M_DEFAULT, c, &m[M_DEFAULT], P);
        if (memcmp(&x, &d, sizeof x) != 0) {
            snprintf(what, sizeof what, "after %ld events %s counted %" PRIu64 "/%" PRIu64 "/%" PRIu64
                     " (pattern/extensions/variations), default %" PRIu64 "/%" PRIu64 "/%" PRIu64,
                     P, method_name[a], x.pattern, x.extension, x.variation, d.pattern,
                     d.extension, d.variation);
            fail(c, what);
        }
    }
    if (m[M_DEFAULT].t.trie != m[M_DEFAULT].t.pattern + m[M_DEFAULT].t.extension +
                                   m[M_DEFAULT].t.variation)
        fail(c, "trie total differs from the counts pushed");
    if (m[M_MATCHER].run) {
        long P = m[M_MATCHER].n < m[M_DEFAULT].n ? m[M_MATCHER].n : m[M_DEFAULT].n;
        totals x = totals_on(M_MATCHER, c, &m[M_MATCHER], P);
        totals d = totals_on(M_DEFAULT, c, &m[M_DEFAULT], P);
        if (x.detections != d.detections) {
            snprintf(what, sizeof what, "after %ld events the matcher detected %" PRIu64
                     ", explore has pattern matches at %" PRIu64 " events", P, x.detections,
                     d.detections);
            fail(c, what);
        }
    }
    printf("| %d | %s | %ld | %s | %s | %s | %s | %s | %s | %s | %" PRIu64 " | %" PRIu64 " | %" PRIu64
           " | %" PRIu64 " |\n",
           c->k, pol_name(c->policy), c->w, fmt_rate(buf[M_MATCHER], 48, &m[M_MATCHER], c),
           fmt_rate(buf[M_GEN], 48, &m[M_GEN], c), fmt_rate(buf[M_DEFAULT], 48, &m[M_DEFAULT], c),
           m[M_MATCHER].run ? (snprintf(what, sizeof what, "%.2f",
                                        m[M_MATCHER].rate / m[M_DEFAULT].rate), what) : "-",
           fmt_rate(buf[M_IC], 48, &m[M_IC], c), fmt_rate(buf[M_RC], 48, &m[M_RC], c),
           fmt_rate(buf[M_BF], 48, &m[M_BF], c), m[M_DEFAULT].t.detections,
           m[M_DEFAULT].t.pattern, m[M_DEFAULT].t.extension, m[M_DEFAULT].t.variation);
    fflush(stdout);
    b5_note(c, &m[M_GEN]);
    if (json)
        for (a = 0; a < NMETHODS; a++) {
            fprintf(json, "{\"bench\":\"explore\",\"types\":%d,\"policy\":\"%s\",\"window\":%ld,"
                          "\"method\":\"%s\",\"run\":%s", c->k, pol_name(c->policy), c->w,
                    method_name[a], m[a].run ? "true" : "false");
            if (m[a].run) {
                fprintf(json, ",\"events\":%ld,\"timed_events\":%ld,\"events_per_s\":%.0f,"
                              "\"detections\":%" PRIu64, m[a].n,
                        m[a].n - (c->w < n / 2 ? c->w : n / 2), m[a].rate, m[a].t.detections);
                if (a != M_MATCHER)
                    fprintf(json, ",\"pattern\":%" PRIu64 ",\"extensions\":%" PRIu64
                                  ",\"variations\":%" PRIu64, m[a].t.pattern, m[a].t.extension,
                            m[a].t.variation);
            }
            fprintf(json, "}\n");
        }
}

int main(int argc, char **argv)
{
    static const int ks[] = {6, 10, 11};
    static const long quick_ws[] = {100, 1000, 10000};
    static const long full_ws[] = {100, 300, 1000, 3000, 10000};
    long n = 0;
    int reps = 0, full = 0, a, ki, wi, pol, nw, npos = 0;
    double budget = 0;
    const long *ws;
    double scale;
    bench_rec *ev;
    for (a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "-n") && a + 1 < argc)
            n = atol(argv[++a]);
        else if (!strcmp(argv[a], "-r") && a + 1 < argc)
            reps = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--full"))
            full = 1;
        else if (!strcmp(argv[a], "--json") && a + 1 < argc) {
            json = fopen(argv[++a], "w");
            if (!json) {
                perror(argv[a]);
                return 2;
            }
        } else if (!strcmp(argv[a], "-b") && a + 1 < argc) {
            budget = atof(argv[++a]);
        } else if (argv[a][0] >= '0' && argv[a][0] <= '9' && npos < 2) {
            /* the older usage: explore_bench [events] [budget-seconds] */
            if (npos++ == 0)
                n = atol(argv[a]);
            else
                budget = atof(argv[a]);
        } else {
            fprintf(stderr, "usage: %s [-n EVENTS] [-r REPS] [-b SECONDS] [--full] [--json FILE]\n",
                    argv[0]);
            return 2;
        }
    }
    if (n <= 0)
        n = 1000000;
    if (reps <= 0)
        reps = full ? 5 : 3;
    if (reps > 16)
        reps = 16;
    scale = budget > 0 ? budget / 0.06 : full ? 10.0 : 1.0;
    ws = full ? full_ws : quick_ws;
    nw = full ? 5 : 3;
    ev = malloc((size_t)n * sizeof *ev);
    if (!ev) {
        perror("explore_bench: malloc");
        return 1;
    }
    printf("Explore: p = <A,B,C>, extensions and variations, within w events, %ld events "
           "per stream (K uniform types), median of %d repetitions, thread CPU time.\n", n, reps);
    printf("M events/s over the events after the first w; [N]: timed on N events only "
           "(time budget; k = thousand); -: not run (filling the window alone took over %.1f s). "
           "Counts: the default's, over all %ld events.\n\n", 0.3 * scale, n);
    printf("| K | policy | w | matcher, no explore | generated | default | matcher / default | ic | rc | bf "
           "| detections | pattern matches | extension matches | variation matches |\n");
    printf("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (ki = 0; ki < (int)(sizeof ks / sizeof ks[0]); ki++) {
        gen_fill(ev, n, (uint32_t)ks[ki]);
        for (pol = 0; pol < 2; pol++)
            for (wi = 0; wi < nw; wi++) {
                cell c;
                c.k = ks[ki];
                c.w = ws[wi];
                c.policy = pol ? SREMRT_EXPLORE_STNM : SREMRT_EXPLORE_STAM;
                c.ev = ev;
                c.n = n;
                bench_cell(&c, reps, scale);
            }
    }
    b5_report();
    printf("\n%s\n", failed ? "explore: FAILED (see above)" : "explore: all totals checked");
    if (json)
        fclose(json);
    free(ev);
    return failed;
}
