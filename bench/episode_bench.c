/* episode_bench.c: ns/event of the exact episode counters (runtime/episode.c)
 * beside two baselines, on one synthetic stream per k, frequencies checked.
 *
 * Stream (per k): the docs/workloads.md generator (xorshift64, seed
 * 88172645463325252, type = x mod K) with K = k + 2 types, ts = i (one event
 * per time unit), so two types in k + 2 satisfy no element. Episodes:
 * <E_1..E_k> with E_m = type m - 1 ("distinct elements": every event
 * satisfies at most one element, the OccMap fast path for distinct, with
 * SREMRT_EPISODE_EXCLUSIVE), and for k = 3 also <A,A,B> (A satisfies E_1
 * and E_2: the configuration path of distinct); for k = 5 also a stream in
 * which E_k's type is 64 times rarer (the others stay), where partial
 * occurrences pile up until the window drops them. Time windows of D units.
 * The element masks come from a table indexed by type, as generated code
 * computes them; every event is pushed, mask 0 or not.
 *
 * Methods, each on the same stream in the same run:
 *   runtime  sremrt_episode_push per event;
 *   naive    one automaton per start: every event of E_1 starts a partial
 *            match, every event advances each live one whose next element
 *            it satisfies, matches older than the window are dropped;
 *            nonoverlapped: the first to complete counts and all are
 *            cleared (the earliest-ending occurrence: exact); distinct: an
 *            event joins only the oldest partial match waiting for it (or
 *            starts one), so that counted occurrences share no event (a
 *            lower bound: committing events oldest-first is not exact,
 *            docs/episodes.md);
 *   brute    exhaustive search at every event of E_k: nonoverlapped, is
 *            there an occurrence ending here that starts after the last one
 *            counted (interval scheduling by earliest end: exact);
 *            distinct, the lexicographically first occurrence of unused
 *            events ending here (the greedy docs/episodes.md proves exact
 *            when every event satisfies at most one element; for <A,A,B>
 *            exact too, as the two As of an occurrence are interchangeable:
 *            it is a matching of each B to two As of its window, windows
 *            sliding monotonically, where oldest-first is optimal).
 * A method that would take too long runs a prefix: the first repetition
 * stops at its time budget (CPU: brute 0.04 s, naive 0.1 s, runtime 0.2 s;
 * 10 times that with --full) and the others run the same prefix.
 *
 * Checks (exit 1, "FAILED"), each pair of methods on the prefix both ran
 * (a method is run again, untimed, when it stopped elsewhere): all
 * repetitions give the same frequency; runtime = brute (for <A,A,B>
 * distinct, where the budget may cut configurations, runtime <= brute once
 * inexact); nonoverlapped: naive = brute = runtime; distinct: naive <=
 * brute, and naive <= runtime where the runtime is exact; the runtime never
 * loses exactness otherwise (its lists hold window + 1 entries).
 *
 * Times are thread CPU time. Build and run (bench/episodes.sh does this):
 *   cc -O2 -std=c99 -Wall -Wextra -Iruntime/include bench/episode_bench.c lib/libsremrt.a -o build/episode_bench
 *   ./build/episode_bench [-n EVENTS] [-r REPS] [--full] [--json FILE]
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "timing.h"

#include "sremrt/sremrt.h"

/* ---- stream, timing ----------------------------------------------------------- */

#define SEED 88172645463325252ULL
#define MAXK 11

typedef struct stream {
    long n;
    int k, ntypes;
    uint8_t *types;          /* types[i]; ts(i) = i */
} stream;

/* rare: the type of E_k (k - 1) is kept one time in 64 only, else it
 * becomes type k, which satisfies no element. */
static void stream_fill(stream *s, int k, int rare)
{
    uint64_t x = SEED;
    long i;
    s->k = k;
    s->ntypes = k + 2;
    for (i = 0; i < s->n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        s->types[i] = (uint8_t)(x % (uint64_t)s->ntypes);
        if (rare && s->types[i] == k - 1 && ((x >> 40) & 63u) != 0)
            s->types[i] = (uint8_t)k;
    }
}

/* ---- a row: one episode, one frequency, one window ------------------------------ */

typedef struct row {
    int k;
    sremrt_episode_freq freq;
    int repeat;              /* <A,A,B>: elements 1 and 2 are both type 0 */
    int rare;                /* the stream has E_k 64 times rarer */
    int64_t width;           /* D, time units */
    uint32_t mask_of[MAXK + 2];
    const stream *s;
} row;

static void row_masks(row *r)
{
    int t, m;
    for (t = 0; t < r->k + 2; t++) {
        r->mask_of[t] = 0;
        for (m = 0; m < r->k; m++) {
            int want = r->repeat ? (m == 0 ? 0 : m - 1) : m;   /* element m + 1 is type `want` */
            if (t == want)
                r->mask_of[t] |= 1u << m;
        }
    }
}

/* Free events a list can hold: one per time unit of the window, so no
 * overflow (ts = i), capped by the runtime's maximum. */
static int32_t safe_cap(const row *r)
{
    return r->width + 1 < SREMRT_EPISODE_MAX_CAP ? (int32_t)(r->width + 1) : SREMRT_EPISODE_MAX_CAP;
}

static void runtime_config(const row *r, sremrt_episode_config *cfg, int32_t cap)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->k = r->k;
    cfg->freq = r->freq;
    cfg->window = SREMRT_EPISODE_TIME;
    cfg->width = r->width;
    cfg->flags = r->repeat ? 0 : SREMRT_EPISODE_EXCLUSIVE;
    cfg->list_cap = cap;
}

/* ---- methods -------------------------------------------------------------------- */

typedef struct method {
    const char *name;
    void *(*open)(const row *r);
    void (*run)(void *st, long a, long b);   /* events a..b-1 */
    int64_t (*freq)(void *st);
    int (*exact)(void *st);
    void (*close)(void *st);
} method;

static void *xmalloc(size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (!p) {
        perror("episode_bench: calloc");
        exit(1);
    }
    return p;
}

/* runtime */

typedef struct rt_state {
    sremrt_episode ep;
    const row *r;
} rt_state;

static void *rt_open(const row *r)
{
    rt_state *st = xmalloc(sizeof *st);
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_episode_config cfg;
    runtime_config(r, &cfg, safe_cap(r));
    st->r = r;
    if (sremrt_episode_init(&st->ep, &cfg, &heap) != 0) {
        fprintf(stderr, "episode_bench: sremrt_episode_init failed (%s)\n",
                sremrt_episode_check(&cfg) ? sremrt_episode_check(&cfg) : "memory");
        exit(1);
    }
    return st;
}

static void rt_run(void *p, long a, long b)
{
    rt_state *st = p;
    sremrt_episode *ep = &st->ep;
    const uint8_t *ty = st->r->s->types;
    const uint32_t *mask_of = st->r->mask_of;
    long i;
    for (i = a; i < b; i++)
        sremrt_episode_push(ep, i + 1, i, mask_of[ty[i]]);
}

static int64_t rt_freq(void *p) { return ((rt_state *)p)->ep.freq; }
static int rt_exact(void *p) { return ((rt_state *)p)->ep.exact; }

static void rt_close(void *p)
{
    rt_state *st = p;
    sremrt_episode_free(&st->ep);
    free(st);
}

/* naive: one automaton per start. Live partial matches in start order, in
 * a[lo..hi): stage (elements matched) and the positions they used. */

typedef struct naive_state {
    const row *r;
    int64_t freq;
    long lo, hi, cap;
    int32_t *stage;
    int32_t *pos;            /* pos[j * k + m]: event of element m + 1 */
} naive_state;

static void *naive_open(const row *r)
{
    naive_state *st = xmalloc(sizeof *st);
    long cap = r->width + 2 < r->s->n + 1 ? (long)r->width + 2 : r->s->n + 1;
    st->r = r;
    st->cap = 2 * cap;       /* compaction happens when hi reaches the end */
    st->stage = xmalloc((size_t)st->cap * sizeof *st->stage);
    st->pos = xmalloc((size_t)st->cap * (size_t)r->k * sizeof *st->pos);
    return st;
}

static void naive_compact(naive_state *st)
{
    long n = st->hi - st->lo;
    int k = st->r->k;
    memmove(st->stage, st->stage + st->lo, (size_t)n * sizeof *st->stage);
    memmove(st->pos, st->pos + (size_t)st->lo * (size_t)k, (size_t)n * (size_t)k * sizeof *st->pos);
    st->lo = 0;
    st->hi = n;
}

static void naive_run(void *vp, long a, long b)
{
    naive_state *st = vp;
    const row *r = st->r;
    const uint8_t *ty = r->s->types;
    int k = r->k, distinct = r->freq == SREMRT_EPISODE_DISTINCT;
    long e, j;
    for (e = a; e < b; e++) {
        uint32_t mask = r->mask_of[ty[e]];
        int used = 0;
        /* Starts older than the window can no longer end an occurrence
         * (dead entries, stage 0, go as well). */
        while (st->lo < st->hi && (st->stage[st->lo] == 0 ||
                                   st->pos[(size_t)st->lo * (size_t)k] < e - r->width))
            st->lo++;
        if (!mask)
            continue;
        for (j = st->lo; j < st->hi; j++) {
            int32_t s = st->stage[j];
            if (s == 0 || !((mask >> s) & 1u))
                continue;
            if (s + 1 == k) {
                st->freq++;
                if (!distinct) {
                    st->lo = st->hi = 0;   /* the next occurrence starts after e */
                } else {
                    st->stage[j] = 0;      /* done: its events are used */
                }
                used = 1;
                break;
            }
            st->pos[(size_t)j * (size_t)k + (size_t)s] = (int32_t)e;
            st->stage[j] = s + 1;
            if (distinct) {                /* an event joins one partial match */
                used = 1;
                break;
            }
        }
        if (!used && (mask & 1u)) {
            if (st->hi == st->cap)
                naive_compact(st);
            st->stage[st->hi] = 1;
            st->pos[(size_t)st->hi * (size_t)k] = (int32_t)e;
            st->hi++;
        }
    }
}

static int64_t naive_freq(void *p) { return ((naive_state *)p)->freq; }
static int always_exact(void *p) { (void)p; return 1; }

static void naive_close(void *p)
{
    naive_state *st = p;
    free(st->stage);
    free(st->pos);
    free(st);
}

/* brute: exhaustive search for an occurrence ending at each event of E_k. */

typedef struct brute_state {
    const row *r;
    int64_t freq;
    long last;               /* nonoverlapped: end of the last occurrence counted */
    uint8_t *used;           /* distinct: events in a counted occurrence */
    int32_t occ[MAXK];
} brute_state;

static void *brute_open(const row *r)
{
    brute_state *st = xmalloc(sizeof *st);
    st->r = r;
    st->last = -1;
    st->used = xmalloc((size_t)r->s->n);
    return st;
}

/* nonoverlapped: an event of element j + 1 at a position in [lo, hi],
 * with an occurrence of elements 1..j before it from lo on. */
static int brute_back(const brute_state *st, int j, long hi, long lo)
{
    const uint8_t *ty = st->r->s->types;
    long i;
    for (i = hi; i >= lo + j; i--)
        if ((st->r->mask_of[ty[i]] >> j) & 1u && (j == 0 || brute_back(st, j - 1, i - 1, lo)))
            return 1;
    return 0;
}

/* distinct: the first unused event of element j + 1 in [from, end) that an
 * occurrence of unused events of elements j + 2..k-1 follows before end;
 * fills occ[j..k-2]. */
static int brute_fwd(brute_state *st, int j, long from, long end)
{
    const uint8_t *ty = st->r->s->types;
    int k = st->r->k;
    long i;
    for (i = from; i < end - (k - 2 - j); i++)
        if (!st->used[i] && (st->r->mask_of[ty[i]] >> j) & 1u &&
            (j == k - 2 || brute_fwd(st, j + 1, i + 1, end))) {
            st->occ[j] = (int32_t)i;
            return 1;
        }
    return 0;
}

static void brute_run(void *vp, long a, long b)
{
    brute_state *st = vp;
    const row *r = st->r;
    const uint8_t *ty = r->s->types;
    int k = r->k, m;
    long e;
    for (e = a; e < b; e++) {
        long lo = e - (long)r->width > 0 ? e - (long)r->width : 0;   /* ts(i) = i */
        if (!((r->mask_of[ty[e]] >> (k - 1)) & 1u))
            continue;
        if (r->freq == SREMRT_EPISODE_NONOVERLAPPED) {
            if (lo <= st->last)
                lo = st->last + 1;
            if (brute_back(st, k - 2, e - 1, lo)) {
                st->freq++;
                st->last = e;
            }
        } else if (brute_fwd(st, 0, lo, e)) {
            st->freq++;
            for (m = 0; m < k - 1; m++)
                st->used[st->occ[m]] = 1;
            st->used[e] = 1;
        }
    }
}

static int64_t brute_freq(void *p) { return ((brute_state *)p)->freq; }

static void brute_close(void *p)
{
    brute_state *st = p;
    free(st->used);
    free(st);
}

static const method m_runtime = {"runtime", rt_open, rt_run, rt_freq, rt_exact, rt_close};
static const method m_naive = {"naive", naive_open, naive_run, naive_freq, always_exact, naive_close};
static const method m_brute = {"brute", brute_open, brute_run, brute_freq, always_exact, brute_close};

/* ---- measuring ---------------------------------------------------------------------- */

#define MAXCHK 4

typedef struct meas {
    long n;                  /* events run (a prefix when the budget stopped it) */
    double ns;               /* median ns/event */
    int64_t freq;            /* after n events */
    int exact;
    int nchk;
    long chk_at[MAXCHK];     /* frequency after chk_at[i] events (those <= n) */
    int64_t chk_freq[MAXCHK];
    int chk_exact[MAXCHK];
    int consistent;          /* every repetition gave the same frequency */
} meas;

/* The first repetition runs until n_max events or `budget` s of CPU; the
 * others run the same prefix. Frequencies are read at the checkpoints in
 * the first repetition. */
static meas measure(const method *mt, const row *r, long n_max, double budget, int reps,
                    const long *chk, int nchk)
{
    meas res;
    double t[16];
    int rep, c;
    memset(&res, 0, sizeof res);
    res.consistent = 1;
    for (rep = 0; rep < reps; rep++) {
        void *st = mt->open(r);
        long at = 0, chunk = 256;
        double t0 = now(), t1;
        if (rep == 0) {
            /* Chunks between checkpoints; the chunk grows while cheap. */
            while (at < n_max) {
                long end = at + chunk < n_max ? at + chunk : n_max;
                double c0 = now();
                for (c = 0; c < nchk; c++)
                    if (chk[c] > at && chk[c] < end)
                        end = chk[c];
                mt->run(st, at, end);
                at = end;
                for (c = 0; c < nchk; c++)
                    if (chk[c] == at && res.nchk < MAXCHK) {
                        res.chk_at[res.nchk] = at;
                        res.chk_freq[res.nchk] = mt->freq(st);
                        res.chk_exact[res.nchk] = mt->exact(st);
                        res.nchk++;
                    }
                t1 = now();
                if (t1 - t0 > budget)
                    break;
                if (t1 - c0 < budget / 50 && chunk < (1L << 20))
                    chunk *= 2;
            }
            res.n = at;
        } else {
            mt->run(st, 0, res.n);
        }
        t1 = now();
        t[rep] = t1 - t0;
        if (rep == 0) {
            res.freq = mt->freq(st);
            res.exact = mt->exact(st);
        } else if (mt->freq(st) != res.freq) {
            res.consistent = 0;
        }
        mt->close(st);
    }
    res.ns = res.n ? median(t, reps) * 1e9 / (double)res.n : 0;
    return res;
}

/* Frequency of m at n events (-1: not measured there). */
static int64_t freq_at(const meas *m, long n, int *exact)
{
    int i;
    if (m->n == n) {
        *exact = m->exact;
        return m->freq;
    }
    for (i = 0; i < m->nchk; i++)
        if (m->chk_at[i] == n) {
            *exact = m->chk_exact[i];
            return m->chk_freq[i];
        }
    return -1;
}

/* ---- output ---------------------------------------------------------------------------- */

static FILE *json;
static int failed;

static void fail(const char *what, const row *r)
{
    printf("FAILED: k=%d %s%s window %" PRId64 ": %s\n", r->k,
           r->freq == SREMRT_EPISODE_DISTINCT ? "distinct" : "nonoverlapped",
           r->repeat ? " <A,A,B>" : r->rare ? " E_k rare" : "", r->width, what);
    failed = 1;
}

static const char *row_elements(const row *r)
{
    return r->repeat ? "<A,A,B>" : r->rare ? "distinct, E_k 1/64" : "distinct";
}

static void emit_json(const row *r, const char *mname, const meas *m, size_t bytes)
{
    if (!json)
        return;
    fprintf(json, "{\"bench\":\"episodes\",\"k\":%d,\"frequency\":\"%s\",\"elements\":\"%s\","
                  "\"window\":%" PRId64 ",\"method\":\"%s\",\"events\":%ld,\"ns_per_event\":%.3f,"
                  "\"events_per_s\":%.0f,\"freq\":%" PRId64 ",\"exact\":%s",
            r->k, r->freq == SREMRT_EPISODE_DISTINCT ? "distinct" : "nonoverlapped",
            r->repeat ? "AAB" : r->rare ? "distinct_rare_last" : "distinct", r->width, mname,
            m->n, m->ns, m->ns > 0 ? 1e9 / m->ns : 0.0,
            m->freq, m->exact ? "true" : "false");
    if (bytes)
        fprintf(json, ",\"bytes\":%zu", bytes);
    fprintf(json, "}\n");
}

/* "12.3" or "12.3 [40k]" when run on a prefix. */
static const char *fmt_ns(char *buf, size_t cap, const meas *m, long n)
{
    if (m->n == 0)
        snprintf(buf, cap, "-");
    else if (m->n < n)
        snprintf(buf, cap, "%.4g [%ldk]", m->ns, (m->n + 500) / 1000);
    else
        snprintf(buf, cap, "%.4g", m->ns);
    return buf;
}

/* Frequency of mt after P events: from m's run, or by running it again
 * (untimed) when P is not one of the points m recorded. */
static int64_t freq_on(const method *mt, const row *r, const meas *m, long P, int *exact)
{
    int64_t f = freq_at(m, P, exact);
    void *st;
    if (f >= 0)
        return f;
    st = mt->open(r);
    mt->run(st, 0, P);
    f = mt->freq(st);
    *exact = mt->exact(st);
    mt->close(st);
    return f;
}

static long min_l(long a, long b)
{
    return a < b ? a : b;
}

/* One row: brute first (it sets the prefix the others are checked on), then
 * naive, then the runtime; then the checks, each on the prefix both
 * methods ran. */
static void bench_row(const row *r, long n, int reps, double scale)
{
    meas b, nv, rt;
    long chk[2], p1, p2, p3;
    int64_t fb1, fb, fn, fr, fr3, fn3;
    int ignore, er, er3;
    char s1[48], s2[48], s3[48], s4[96];
    sremrt_episode_config cfg;
    int distinct = r->freq == SREMRT_EPISODE_DISTINCT;

    b = measure(&m_brute, r, n, 0.04 * scale, reps, NULL, 0);
    chk[0] = b.n;
    nv = measure(&m_naive, r, n, 0.1 * scale, reps, chk, 1);
    chk[1] = nv.n;
    rt = measure(&m_runtime, r, n, 0.2 * scale, reps, chk, 2);
    runtime_config(r, &cfg, safe_cap(r));

    if (!b.consistent || !nv.consistent || !rt.consistent)
        fail("repetitions disagree", r);
    /* runtime = brute; the runtime only ever inexact by a budget cut
     * (<A,A,B>), and then a lower bound */
    p1 = min_l(b.n, rt.n);
    fb1 = freq_on(&m_brute, r, &b, p1, &ignore);
    fr = freq_on(&m_runtime, r, &rt, p1, &er);
    if (er ? fr != fb1 : !r->repeat || fr > fb1) {
        snprintf(s4, sizeof s4, "after %ld events runtime %" PRId64 "%s, brute %" PRId64, p1, fr,
                 er ? "" : " (inexact)", fb1);
        fail(s4, r);
    }
    /* naive = brute (nonoverlapped), naive <= brute (distinct) */
    p2 = min_l(b.n, nv.n);
    fb = freq_on(&m_brute, r, &b, p2, &ignore);
    fn = freq_on(&m_naive, r, &nv, p2, &ignore);
    if (distinct ? fn > fb : fn != fb) {
        snprintf(s4, sizeof s4, "after %ld events naive %" PRId64 ", brute %" PRId64, p2, fn, fb);
        fail(s4, r);
    }
    /* naive against the runtime on the longer prefix they share */
    p3 = min_l(nv.n, rt.n);
    fn3 = freq_on(&m_naive, r, &nv, p3, &ignore);
    fr3 = freq_on(&m_runtime, r, &rt, p3, &er3);
    if (distinct ? er3 && fn3 > fr3 : fn3 != fr3) {
        snprintf(s4, sizeof s4, "after %ld events naive %" PRId64 ", runtime %" PRId64, p3, fn3, fr3);
        fail(s4, r);
    }
    if (!rt.exact && !r->repeat)
        fail("runtime inexact (list overflow)", r);

    if (!distinct)
        snprintf(s4, sizeof s4, "all equal");
    else
        snprintf(s4, sizeof s4, "%s; naive %.1f%%",
                 er ? "= brute" : fr == fb1 ? "inexact, = brute" : "< brute: budget cut",
                 fr3 > 0 ? 100.0 * (double)fn3 / (double)fr3 : 100.0);
    printf("| %d | %s | %s | %" PRId64 " | %s | %.1f | %s | %s | %" PRId64 "%s | %s |\n",
           r->k, distinct ? "distinct" : "nonoverlapped", row_elements(r), r->width,
           fmt_ns(s1, sizeof s1, &rt, n), rt.ns > 0 ? 1e3 / rt.ns : 0.0,
           fmt_ns(s2, sizeof s2, &nv, n), fmt_ns(s3, sizeof s3, &b, n), rt.freq,
           rt.exact ? "" : " (lower bound)", s4);
    fflush(stdout);
    emit_json(r, "runtime", &rt, sremrt_episode_bytes(&cfg));
    emit_json(r, "naive", &nv, 0);
    emit_json(r, "brute", &b, 0);
}

/* Memory per episode (sremrt_episode_bytes) at the default list capacity
 * (64); per window, the longest list the distinct counter (exclusive
 * elements) held on this stream, the bytes with that capacity, and whether
 * the default capacity stayed exact. */
static void memory_table(stream *s, const int *ks, int nk, const int64_t *ws, int nw)
{
    int ki, wi;
    printf("\nMemory per episode and partition (sremrt_episode_bytes). Per window: the longest "
           "list of the distinct counter (distinct elements) on the first 1 M events, the bytes "
           "with that list capacity, and whether the default capacity (64) stays exact:\n\n");
    printf("| k | nonoverlapped | distinct, exclusive, cap 64 | distinct, no flag, cap 64, "
           "budget 32 |");
    for (wi = 0; wi < nw; wi++)
        printf(" D = %" PRId64 " |", ws[wi]);
    printf("\n|---:|---:|---:|---:|");
    for (wi = 0; wi < nw; wi++)
        printf("---|");
    printf("\n");
    for (ki = 0; ki < nk; ki++) {
        row r;
        sremrt_episode_config cfg;
        size_t b_no, b_ex, b_gen, b_need;
        memset(&r, 0, sizeof r);
        r.k = ks[ki];
        r.s = s;
        r.width = 100;
        r.freq = SREMRT_EPISODE_NONOVERLAPPED;
        runtime_config(&r, &cfg, 0);
        b_no = sremrt_episode_bytes(&cfg);
        r.freq = SREMRT_EPISODE_DISTINCT;
        runtime_config(&r, &cfg, 0);
        b_ex = sremrt_episode_bytes(&cfg);
        cfg.flags = 0;
        b_gen = sremrt_episode_bytes(&cfg);
        printf("| %d | %zu B | %.1f KB | %.0f KB |", r.k, b_no, (double)b_ex / 1024,
               (double)b_gen / 1024);
        stream_fill(s, r.k, 0);
        row_masks(&r);
        for (wi = 0; wi < nw; wi++) {
            rt_state *st;
            sremrt_episode def;
            sremrt_alloc heap = sremrt_alloc_malloc();
            long i, n = s->n < 1000000 ? s->n : 1000000;
            int32_t peak = 0, j;
            r.width = ws[wi];
            st = rt_open(&r);
            runtime_config(&r, &cfg, 0);
            if (sremrt_episode_init(&def, &cfg, &heap) != 0) {
                fprintf(stderr, "episode_bench: init failed\n");
                exit(1);
            }
            for (i = 0; i < n; i++) {
                uint32_t mask = r.mask_of[s->types[i]];
                sremrt_episode_push(&st->ep, i + 1, i, mask);
                sremrt_episode_push(&def, i + 1, i, mask);
                for (j = 0; j < r.k - 1; j++)
                    if (st->ep.occ.len[j] > peak)
                        peak = st->ep.occ.len[j];
            }
            runtime_config(&r, &cfg, peak > 0 ? peak : 1);
            b_need = sremrt_episode_bytes(&cfg);
            printf(" %d, %.1f KB, %s |", (int)peak, (double)b_need / 1024,
                   def.exact ? "exact" : "inexact");
            if (json)
                fprintf(json, "{\"bench\":\"episodes\",\"k\":%d,\"frequency\":\"distinct\","
                              "\"elements\":\"distinct\",\"window\":%" PRId64 ",\"method\":\"memory\","
                              "\"bytes_nonoverlapped\":%zu,\"bytes_distinct_cap64\":%zu,"
                              "\"bytes_distinct_general_cap64\":%zu,\"longest_list\":%d,"
                              "\"bytes_distinct_longest\":%zu,\"cap64_exact\":%s,\"events\":%ld}\n",
                        r.k, r.width, b_no, b_ex, b_gen, (int)peak, b_need,
                        def.exact ? "true" : "false", n);
            sremrt_episode_free(&def);
            rt_close(st);
        }
        printf("\n");
        fflush(stdout);
    }
}

int main(int argc, char **argv)
{
    static const int ks[] = {3, 5, 7, 9, 11};
    static const int64_t ws[] = {10, 100, 1000, 10000, 100000};
    long n = 0;
    int reps = 0, full = 0, a, ki, wi, f;
    double scale;
    stream s;
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
        } else if (argv[a][0] >= '0' && argv[a][0] <= '9' && n == 0) {
            n = atol(argv[a]);   /* the older usage: episode_bench [events] */
        } else {
            fprintf(stderr, "usage: %s [-n EVENTS] [-r REPS] [--full] [--json FILE]\n", argv[0]);
            return 2;
        }
    }
    if (n <= 0)
        n = full ? 10000000 : 1000000;
    if (reps <= 0)
        reps = full ? 5 : 3;
    if (reps > 16)
        reps = 16;
    scale = full ? 10.0 : 1.0;
    s.n = n;
    s.types = xmalloc((size_t)n);

    printf("Episodes: %ld events per stream (K = k + 2 uniform types, ts = i), median of %d "
           "repetitions, thread CPU time.\n", n, reps);
    printf("ns/event of each method; [Nk]: run on the first N thousand events only (time "
           "budget). freq: the runtime's frequency after the events it ran.\n\n");
    printf("| k | frequency | elements | window D | runtime ns/event | runtime M events/s "
           "| naive ns/event | brute ns/event | freq | check |\n");
    printf("|---:|---|---|---:|---:|---:|---:|---:|---:|---|\n");
    /* Per k: distinct elements; for k = 3 also <A,A,B>; for k = 5 also a
     * stream where E_k is rare (partial matches pile up). */
    for (ki = 0; ki < (int)(sizeof ks / sizeof ks[0]); ki++) {
        int nf = 2 + 2 * (ks[ki] == 3 || ks[ki] == 5);
        stream_fill(&s, ks[ki], 0);
        for (f = 0; f < nf; f++)
            for (wi = 0; wi < (int)(sizeof ws / sizeof ws[0]); wi++) {
                row r;
                if (f == 2 && wi == 0 && ks[ki] == 5)
                    stream_fill(&s, ks[ki], 1);
                memset(&r, 0, sizeof r);
                r.k = ks[ki];
                r.freq = f % 2 ? SREMRT_EPISODE_DISTINCT : SREMRT_EPISODE_NONOVERLAPPED;
                r.repeat = f >= 2 && ks[ki] == 3;
                r.rare = f >= 2 && ks[ki] == 5;
                r.width = ws[wi];
                r.s = &s;
                row_masks(&r);
                bench_row(&r, n, reps, scale);
            }
    }
    memory_table(&s, ks, (int)(sizeof ks / sizeof ks[0]), ws, (int)(sizeof ws / sizeof ws[0]));
    printf("\n%s\n", failed ? "episodes: FAILED (see above)" : "episodes: all frequencies checked");
    if (json)
        fclose(json);
    free(s.types);
    return failed;
}
