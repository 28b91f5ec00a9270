/* test_explore.c: every counting algorithm (default, bf, rc, ic) against
 * an independent brute-force oracle on seeded random streams and patterns:
 * both policies; count, time and no windows; partitions. The oracle reads
 * docs/language.md section 5 literally: it enumerates every increasing index
 * list of the substream, keeps those with the right types and window (and,
 * under stnm, those taking the first event of the next type at every
 * step), and derives trie counts and suggestions from the definitions.
 * It shares no code with the runtime's algorithms.
 *
 * EXPLORE_SEED=N changes the base seed, EXPLORE_CASES=N the number of
 * cases per policy; a failure prints the seed and the case. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>

#include "rt.h"

#define MAXN 22          /* events per stream */
#define MAXM 10          /* pattern length: up to 8 takes stam_small, above it the loops */
#define MAXV 6           /* enum values */
#define MAXP 3           /* partitions */

typedef struct ocase {
    int n, m, nvalues, nparts;
    int type[MAXN], part[MAXN];
    int64_t ts[MAXN];
    int32_t pat[MAXM];
    int policy;                  /* 0 stam, 1 stnm */
    int window;                  /* sremrt_explore_window */
    int64_t width;
    int ext, var;
    double conf;
} ocase;

/* ---- random cases ------------------------------------------------------------------ */

static uint64_t rnd_state;

static uint64_t rnd(void)
{
    /* splitmix64 */
    uint64_t z = (rnd_state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static int rnd_int(int lo, int hi)   /* lo..hi inclusive */
{
    return lo + (int)(rnd() % (uint64_t)(hi - lo + 1));
}

static void make_case(ocase *c, uint64_t seed, int policy, int window)
{
    static const double confs[] = {0.0, 0.1, 0.2, 0.25, 1.0 / 3.0, 0.5, 1.0};
    int i;
    int64_t t = rnd_int(-5, 5);
    rnd_state = seed;
    memset(c, 0, sizeof *c);
    c->policy = policy;
    c->window = window;
    c->nvalues = rnd_int(2, MAXV);
    c->m = rnd_int(2, rnd_int(0, 3) ? 4 : MAXM);   /* now and then long: m > 8 takes the loops */
    for (i = 0; i < c->m; i++)   /* repeated types allowed; few values: more repeats */
        c->pat[i] = rnd_int(0, rnd_int(0, 3) ? c->nvalues - 1 : 1);
    c->n = rnd_int(1, MAXN);
    c->nparts = rnd_int(0, 2) ? 1 : rnd_int(2, MAXP);
    for (i = 0; i < c->n; i++) {
        c->type[i] = rnd_int(0, c->nvalues - 1);
        c->part[i] = rnd_int(0, c->nparts - 1);
        t += rnd_int(0, 2) ? rnd_int(0, 3) : 0;   /* equal timestamps are frequent */
        c->ts[i] = t;
    }
    c->width = window == SREMRT_EXPLORE_EVENTS ? rnd_int(1, 9) : rnd_int(1, 10);
    c->ext = rnd_int(0, 3) != 0;
    c->var = !c->ext || rnd_int(0, 3) != 0;
    c->conf = confs[rnd_int(0, 6)];
}

static void print_case(const ocase *c, uint64_t seed, int ncase, const char *algo, int at,
                       const char *what)
{
    static const char *const wins[] = {"none", "events", "time"};
    int i;
    fprintf(stderr, "\nexplore mismatch: seed=%llu case=%d algo=%s %s at event %d\n",
            (unsigned long long)seed, ncase, algo, what, at + 1);
    fprintf(stderr, "  policy=%s window=%s width=%lld ext=%d var=%d conf=%g nvalues=%d\n",
            c->policy ? "stnm" : "stam", wins[c->window], (long long)c->width, c->ext, c->var,
            c->conf, c->nvalues);
    fprintf(stderr, "  pattern=<");
    for (i = 0; i < c->m; i++)
        fprintf(stderr, "%s%c", i ? " " : "", 'A' + c->pat[i]);
    fprintf(stderr, ">\n  stream (type/part@ts):");
    for (i = 0; i < c->n; i++)
        fprintf(stderr, " %c/%d@%lld", 'A' + c->type[i], c->part[i], (long long)c->ts[i]);
    fprintf(stderr, "\n");
}

/* ---- the oracle -------------------------------------------------------------------- */

/* Matches of seq[0..len-1] ending at event e: index lists i_1 < ... < i_len
 * = e over e's partition, built left to right, each checked in full. */
typedef struct olist {
    const ocase *c;
    const int *seq;
    int len, e;
    int idx[MAXM + 1];
} olist;

static int same_part(const ocase *c, int a, int b)
{
    return c->part[a] == c->part[b];
}

/* Substream position of event i (1-based). */
static int64_t sub_pos(const ocase *c, int i)
{
    int j, p = 0;
    for (j = 0; j <= i; j++)
        p += same_part(c, j, i);
    return p;
}

static int list_ok(const olist *o)
{
    const ocase *c = o->c;
    int r, j, first = o->idx[0], e = o->e;
    for (r = 0; r < o->len; r++)
        if (c->type[o->idx[r]] != o->seq[r] || !same_part(c, o->idx[r], e))
            return 0;
    if (c->window == SREMRT_EXPLORE_EVENTS && sub_pos(c, e) - sub_pos(c, first) + 1 > c->width)
        return 0;
    if (c->window == SREMRT_EXPLORE_TIME && c->ts[e] - c->ts[first] > c->width)
        return 0;
    if (c->policy == 1)   /* stnm: i_r+1 is the first event of type seq[r+1] after i_r */
        for (r = 0; r + 1 < o->len; r++)
            for (j = o->idx[r] + 1; j < o->idx[r + 1]; j++)
                if (same_part(c, j, e) && c->type[j] == o->seq[r + 1])
                    return 0;
    return 1;
}

static uint64_t enumerate(olist *o, int r, int from)
{
    uint64_t n = 0;
    int i;
    if (r == o->len - 1) {
        o->idx[r] = o->e;
        return o->e >= from && list_ok(o);
    }
    for (i = from; i < o->e; i++) {
        o->idx[r] = i;
        n += enumerate(o, r + 1, i + 1);
    }
    return n;
}

static uint64_t oracle_matches(const ocase *c, const int *seq, int len, int e)
{
    olist o;
    o.c = c;
    o.seq = seq;
    o.len = len;
    o.e = e;
    return enumerate(&o, 0, 0);
}

/* Counted sequences of the oracle's trie: p, then <p,X> and <p',X> per X. */
typedef struct otrie {
    int nseq;
    int seq[1 + 2 * MAXV][MAXM + 1];
    int len[1 + 2 * MAXV];
    uint64_t freq[1 + 2 * MAXV];
    int suggested[1 + 2 * MAXV];
} otrie;

static int in_pattern(const ocase *c, int v)
{
    int k;
    for (k = 0; k < c->m; k++)
        if (c->pat[k] == v)
            return 1;
    return 0;
}

static void otrie_init(otrie *t, const ocase *c)
{
    int v, k;
    memset(t, 0, sizeof *t);
    /* slot 0: p; slot 1+2v: <p, v>; slot 2+2v: <p', v> */
    t->nseq = 1 + 2 * c->nvalues;
    for (k = 0; k < c->m; k++)
        t->seq[0][k] = c->pat[k];
    t->len[0] = c->m;
    for (v = 0; v < c->nvalues; v++) {
        for (k = 0; k < c->m; k++)
            t->seq[1 + 2 * v][k] = t->seq[2 + 2 * v][k] = c->pat[k];
        t->seq[1 + 2 * v][c->m] = v;
        t->len[1 + 2 * v] = c->m + 1;
        t->seq[2 + 2 * v][c->m - 1] = v;
        t->len[2 + 2 * v] = c->m;
    }
}

static uint64_t otrie_total(const otrie *t)
{
    uint64_t s = 0;
    int i;
    for (i = 0; i < t->nseq; i++)
        s += t->freq[i];
    return s;
}

/* count(q): matches of every counted sequence that has q as a prefix. */
static uint64_t otrie_count(const otrie *t, const int32_t *q, int qlen)
{
    uint64_t s = 0;
    int i, k;
    for (i = 0; i < t->nseq; i++) {
        if (t->len[i] < qlen)
            continue;
        for (k = 0; k < qlen && t->seq[i][k] == q[k]; k++)
            ;
        if (k == qlen)
            s += t->freq[i];
    }
    return s;
}

/* ---- one case against one algorithm ------------------------------------------------ */

typedef struct oevent {
    uint64_t pattern, ext, var;
    int nsug;
    int sug_slot[2 * MAXV];
    uint64_t sug_freq[2 * MAXV];
    double sug_conf[2 * MAXV];
} oevent;

/* Expected per-event results and final trie of a case. */
typedef struct oresult {
    oevent ev[MAXN];
    otrie trie;
} oresult;

static void oracle_run(const ocase *c, oresult *res)
{
    otrie *t = &res->trie;
    int e, v, i;
    otrie_init(t, c);
    for (e = 0; e < c->n; e++) {
        oevent *o = &res->ev[e];
        int x = c->type[e];
        uint64_t total;
        memset(o, 0, sizeof *o);
        if (x == c->pat[c->m - 1])
            o->pattern = oracle_matches(c, t->seq[0], t->len[0], e);
        if (!in_pattern(c, x)) {
            if (c->ext)
                o->ext = oracle_matches(c, t->seq[1 + 2 * x], t->len[1 + 2 * x], e);
            if (c->var)
                o->var = oracle_matches(c, t->seq[2 + 2 * x], t->len[2 + 2 * x], e);
        }
        t->freq[0] += o->pattern;
        t->freq[1 + 2 * x] += o->ext;
        t->freq[2 + 2 * x] += o->var;
        /* every candidate, after all updates: extensions, then variations,
         * each in enum order */
        total = otrie_total(t);
        for (i = 0; i < 2; i++)
            for (v = 0; v < c->nvalues; v++) {
                int slot = 1 + 2 * v + i;
                double conf;
                if (in_pattern(c, v) || t->freq[slot] == 0 || t->suggested[slot])
                    continue;
                conf = (double)t->freq[slot] / (double)total;
                if (conf >= c->conf) {
                    t->suggested[slot] = 1;
                    o->sug_slot[o->nsug] = slot;
                    o->sug_freq[o->nsug] = t->freq[slot];
                    o->sug_conf[o->nsug] = conf;
                    o->nsug++;
                }
            }
    }
}

/* Runs the runtime on the case; 0 if it agrees with the oracle. */
static int check_algo(const ocase *c, const oresult *want, sremrt_explore_algo algo, uint64_t seed,
                      int ncase)
{
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_explore_config cfg;
    sremrt_explore ex;
    sremrt_explore_part parts[MAXP];
    sremrt_explore_step st;
    const char *name = sremrt_explore_algo_name(algo);
    int e, i, p, bad = 0;
    memset(&cfg, 0, sizeof cfg);
    cfg.pattern = c->pat;
    cfg.m = c->m;
    cfg.nvalues = c->nvalues;
    cfg.policy = c->policy ? SREMRT_EXPLORE_STNM : SREMRT_EXPLORE_STAM;
    cfg.window = (sremrt_explore_window)c->window;
    cfg.width = c->width;
    cfg.extensions = c->ext;
    cfg.variations = c->var;
    cfg.confidence = c->conf;
    cfg.algo = algo;
    /* default sizing (N entries for a count window) or just enough */
    cfg.capacity = c->window == SREMRT_EXPLORE_EVENTS && seed % 2 ? 0 : MAXN;
    if (sremrt_explore_init(&ex, &cfg, &heap) != 0) {
        print_case(c, seed, ncase, name, 0, "init failed");
        return 1;
    }
    for (p = 0; p < c->nparts; p++)
        if (sremrt_explore_part_init(&ex, &parts[p], &heap) != 0)
            bad = 1;
    for (e = 0; e < c->n && !bad; e++) {
        const oevent *o = &want->ev[e];
        int ns = sremrt_explore_push(&ex, &parts[c->part[e]], c->ts[e], c->type[e], &st);
        if (st.pattern != o->pattern || st.extension != o->ext || st.variation != o->var) {
            print_case(c, seed, ncase, name, e, "counts");
            fprintf(stderr, "  wanted p=%llu ext=%llu var=%llu, got p=%llu ext=%llu var=%llu\n",
                    (unsigned long long)o->pattern, (unsigned long long)o->ext,
                    (unsigned long long)o->var, (unsigned long long)st.pattern,
                    (unsigned long long)st.extension, (unsigned long long)st.variation);
            bad = 1;
            break;
        }
        if (ns != o->nsug) {
            print_case(c, seed, ncase, name, e, "number of suggestions");
            fprintf(stderr, "  wanted %d, got %d\n", o->nsug, ns);
            bad = 1;
            break;
        }
        for (i = 0; i < ns; i++) {
            int slot = 1 + 2 * st.suggest[i].type + (st.suggest[i].candidate == SREMRT_VARIATION);
            if (slot != o->sug_slot[i] || st.suggest[i].freq != o->sug_freq[i] ||
                st.suggest[i].confidence != o->sug_conf[i]) {
                print_case(c, seed, ncase, name, e, "suggestion");
                bad = 1;
            }
        }
    }
    /* the final trie: every node's count and freq */
    for (i = 0; i < ex.trie.count && !bad; i++) {
        int32_t q[MAXM + 1];
        int32_t len = sremrt_ptrie_sequence(&ex.trie, i, q, MAXM + 1);
        uint64_t freq = 0;
        int s, k;
        for (s = 0; s < want->trie.nseq; s++) {
            if (want->trie.len[s] != len)
                continue;
            for (k = 0; k < len && want->trie.seq[s][k] == q[k]; k++)
                ;
            if (k == len && len > 0 && (s == 0 || !in_pattern(c, q[len - 1])))
                freq = want->trie.freq[s];
        }
        if (ex.trie.nodes[i].count != otrie_count(&want->trie, q, len) ||
            ex.trie.nodes[i].freq != freq) {
            print_case(c, seed, ncase, name, c->n - 1, "final trie");
            bad = 1;
        }
    }
    if (!bad && (ex.inexact || ex.may_wrap)) {
        print_case(c, seed, ncase, name, c->n - 1, "flags");
        bad = 1;
    }
    for (p = 0; p < c->nparts; p++)
        sremrt_explore_part_free(&parts[p]);
    sremrt_explore_free(&ex);
    return bad;
}

/* The same with a tiny window ring: until an entry is dropped for lack of
 * room the counts stay exact (dropping dead starts loses nothing), after
 * that they may only be lower, and the state says so. */
static int check_small(const ocase *c, const oresult *want, sremrt_explore_algo algo, uint64_t seed,
                       int ncase, int64_t capacity)
{
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_explore_config cfg;
    sremrt_explore ex;
    sremrt_explore_part parts[MAXP];
    sremrt_explore_step st;
    int e, p, bad = 0;
    memset(&cfg, 0, sizeof cfg);
    cfg.pattern = c->pat;
    cfg.m = c->m;
    cfg.nvalues = c->nvalues;
    cfg.policy = c->policy ? SREMRT_EXPLORE_STNM : SREMRT_EXPLORE_STAM;
    cfg.window = (sremrt_explore_window)c->window;
    cfg.width = c->width;
    cfg.extensions = c->ext;
    cfg.variations = c->var;
    cfg.confidence = c->conf;
    cfg.algo = algo;
    cfg.capacity = capacity;
    if (sremrt_explore_init(&ex, &cfg, &heap) != 0)
        return 1;
    for (p = 0; p < c->nparts; p++)
        if (sremrt_explore_part_init(&ex, &parts[p], &heap) != 0)
            bad = 1;
    for (e = 0; e < c->n && !bad; e++) {
        const oevent *o = &want->ev[e];
        int exact = ex.overflows == 0;
        sremrt_explore_push(&ex, &parts[c->part[e]], c->ts[e], c->type[e], &st);
        if (exact ? st.pattern != o->pattern || st.extension != o->ext || st.variation != o->var
                  : st.pattern > o->pattern || st.extension > o->ext || st.variation > o->var) {
            print_case(c, seed, ncase, sremrt_explore_algo_name(algo), e,
                       exact ? "counts (small ring, nothing dropped)" : "counts above exact");
            fprintf(stderr, "  capacity %lld\n", (long long)capacity);
            bad = 1;
        }
    }
    if (!bad && ex.inexact != (ex.overflows > 0))
        bad = 1;
    for (p = 0; p < c->nparts; p++)
        sremrt_explore_part_free(&parts[p]);
    sremrt_explore_free(&ex);
    return bad;
}

static uint64_t env_u64(const char *name, uint64_t dflt)
{
    const char *s = getenv(name);
    return s && *s ? strtoull(s, NULL, 10) : dflt;
}

/* Cases per policy: 6/13 count windows, 6/13 time windows, 1/13 none. */
static void run_policy(int policy)
{
    uint64_t base = env_u64("EXPLORE_SEED", 20240601u) + (uint64_t)policy * 1000003u;
    int ncases = (int)env_u64("EXPLORE_CASES", 13000);
    int i, a, failures = 0, matches = 0, windowed = 0, binding = 0;
    static oresult want, open;
    for (i = 0; i < ncases && failures < 3; i++) {
        static const int windows[13] = {1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 0};
        ocase c;
        uint64_t seed = base + (uint64_t)i;
        int e;
        make_case(&c, seed, policy, windows[i % 13]);
        oracle_run(&c, &want);
        for (e = 0; e < c.n; e++)
            matches += want.ev[e].pattern || want.ev[e].ext || want.ev[e].var;
        if (c.window != SREMRT_EXPLORE_UNBOUNDED) {
            /* does the window change anything here? */
            ocase u = c;
            u.window = SREMRT_EXPLORE_UNBOUNDED;
            oracle_run(&u, &open);
            windowed++;
            binding += memcmp(open.trie.freq, want.trie.freq, sizeof want.trie.freq) != 0;
        }
        for (a = 0; a < SREMRT_EXPLORE_ALGOS; a++) {
            failures += check_algo(&c, &want, (sremrt_explore_algo)a, seed, i);
            if (c.window != SREMRT_EXPLORE_UNBOUNDED || a != SREMRT_EXPLORE_DEFAULT)
                failures += check_small(&c, &want, (sremrt_explore_algo)a, seed, i, 1 + i % 4);
        }
    }
    CU_ASSERT_EQUAL(failures, 0);
    /* the cases must exercise something: matches, and windows that bind */
    CU_ASSERT(matches > ncases);
    CU_ASSERT(binding > windowed / 5);
    if (getenv("UNIT_VERBOSE"))
        fprintf(stderr, "\n  %s: %d cases x 4 algorithms (+ small rings), %d windowed, %d where "
                "the window changes the counts, %d events with matches\n",
                policy ? "stnm" : "stam", i, windowed, binding, matches);
}

static void test_random_stam(void)
{
    run_policy(0);
}

static void test_random_stnm(void)
{
    run_policy(1);
}

/* Longer streams, beyond the oracle's reach: the algorithms against each
 * other (rc as reference; bf too under stnm), with rings wrapping around,
 * runs of equal timestamps and a few partitions. */
static void test_long_streams(void)
{
    int policy, w, a, round;
    for (round = 0; round < 6; round++)
        for (policy = 0; policy < 2; policy++)
            for (w = 1; w <= 2; w++) {
                sremrt_alloc heap = sremrt_alloc_malloc();
                sremrt_explore ex[SREMRT_EXPLORE_ALGOS];
                sremrt_explore_part parts[SREMRT_EXPLORE_ALGOS][2];
                sremrt_explore_config cfg;
                int32_t pat[5];
                int i, m, nv, fail = 0;
                int64_t ts = 0;
                uint64_t total;
                rnd_state = 777u + (uint64_t)round * 31u + (uint64_t)policy * 7u + (uint64_t)w;
                m = rnd_int(2, 5);
                nv = rnd_int(3, 6);
                for (i = 0; i < m; i++)
                    pat[i] = rnd_int(0, nv - 2);
                memset(&cfg, 0, sizeof cfg);
                cfg.pattern = pat;
                cfg.m = m;
                cfg.nvalues = nv;
                cfg.policy = (sremrt_explore_policy)policy;
                cfg.window = (sremrt_explore_window)w;
                cfg.width = rnd_int(5, 60);
                cfg.extensions = cfg.variations = 1;
                cfg.confidence = 0.2;
                cfg.capacity = 4096;
                for (a = 0; a < SREMRT_EXPLORE_ALGOS; a++) {
                    cfg.algo = (sremrt_explore_algo)a;
                    CU_ASSERT_EQUAL_FATAL(sremrt_explore_init(&ex[a], &cfg, &heap), 0);
                    CU_ASSERT_EQUAL_FATAL(sremrt_explore_part_init(&ex[a], &parts[a][0], &heap), 0);
                    CU_ASSERT_EQUAL_FATAL(sremrt_explore_part_init(&ex[a], &parts[a][1], &heap), 0);
                }
                for (i = 0; i < 3000 && !fail; i++) {
                    int32_t t = rnd_int(0, nv - 1);
                    int p = rnd_int(0, 3) == 0;
                    sremrt_explore_step ref, got;
                    ts += rnd_int(0, 2);
                    sremrt_explore_push(&ex[SREMRT_EXPLORE_RC], &parts[SREMRT_EXPLORE_RC][p], ts, t, &ref);
                    for (a = 0; a < SREMRT_EXPLORE_ALGOS; a++) {
                        if (a == SREMRT_EXPLORE_RC || (a == SREMRT_EXPLORE_BF && policy == 0))
                            continue;
                        sremrt_explore_push(&ex[a], &parts[a][p], ts, t, &got);
                        if (got.pattern != ref.pattern || got.extension != ref.extension ||
                            got.variation != ref.variation || got.nsuggest != ref.nsuggest) {
                            fprintf(stderr, "\nlong stream: round %d policy %d window %d algo %s event %d\n",
                                    round, policy, w, sremrt_explore_algo_name((sremrt_explore_algo)a), i);
                            fail = 1;
                        }
                    }
                }
                CU_ASSERT_EQUAL(fail, 0);
                total = sremrt_ptrie_total(&ex[SREMRT_EXPLORE_RC].trie);
                CU_ASSERT(total > 0);
                for (a = 0; a < SREMRT_EXPLORE_ALGOS; a++) {
                    if (a != SREMRT_EXPLORE_BF || policy == 1)
                        CU_ASSERT_EQUAL(sremrt_ptrie_total(&ex[a].trie), total);
                    CU_ASSERT_EQUAL(ex[a].inexact, 0);
                    sremrt_explore_part_free(&parts[a][0]);
                    sremrt_explore_part_free(&parts[a][1]);
                    sremrt_explore_free(&ex[a]);
                }
            }
}

void add_explore_tests(void)
{
    CU_pSuite s = CU_add_suite("explore", NULL, NULL);
    CU_add_test(s, "random cases vs brute force (stam)", test_random_stam);
    CU_add_test(s, "random cases vs brute force (stnm)", test_random_stnm);
    CU_add_test(s, "long streams, algorithms agree", test_long_streams);
}
