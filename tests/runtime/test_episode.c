/* test_episode.c: episode frequencies against docs/language.md section 4, the
 * contract: brute-force oracles (every occurrence enumerated, then the
 * largest set of pairwise non-overlapped, or pairwise event-disjoint,
 * occurrences found by exhaustive search), the paper's examples, every
 * known counterexample as a regression case, seeded random streams (with
 * repeated and overlapping elements, equal timestamps, tight and loose
 * windows, partitions), and the budget and capacity limits. The oracles
 * share no code with runtime/episode.c. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>

#include "rt.h"

/* ---- the oracle ------------------------------------------------------- */

#ifndef OR_MAXN
#define OR_MAXN 14       /* events per substream (at most 20: memo of 2^n) */
#endif
#define OR_MAXK 4
#define OR_MAXOCC 16384

typedef struct or_ev {
    int64_t pos, ts;
    uint32_t mask;
} or_ev;

typedef struct or_case {
    int k;
    int time;                /* time window (else count window) */
    int64_t width;
    int n;
    or_ev ev[OR_MAXN];
} or_case;

typedef struct or_occ {
    uint32_t set;            /* bit i: event i is in the occurrence */
    int first, last;
} or_occ;

typedef struct or_state {
    const or_case *c;
    or_occ occ[OR_MAXOCC];       /* in order of first event */
    int nocc;
    int overflow;
    int from[OR_MAXN + 1];       /* occ[from[i] .. from[i+1]-1] start at event i */
    signed char memo[1 << OR_MAXN];
    int best[OR_MAXN + 1];
} or_state;

/* b after a; differences in uint64 so that extreme values do not overflow. */
static int or_window(const or_case *c, int a, int b)
{
    if (c->time)
        return (uint64_t)c->ev[b].ts - (uint64_t)c->ev[a].ts <= (uint64_t)c->width;
    return (uint64_t)c->ev[b].pos - (uint64_t)c->ev[a].pos <= (uint64_t)c->width - 1u;
}

/* Every occurrence: i_1 < ... < i_k, event i_m satisfies element m. */
static void or_enum(or_state *s, int m, int from, int first, uint32_t set)
{
    const or_case *c = s->c;
    int i;
    if (m == c->k) {
        int last = 31;
        while (!(set >> last & 1u))
            last--;
        if (!or_window(c, first, last))
            return;
        if (s->nocc == OR_MAXOCC) {
            s->overflow = 1;
            return;
        }
        s->occ[s->nocc].set = set;
        s->occ[s->nocc].first = first;
        s->occ[s->nocc].last = last;
        s->nocc++;
        return;
    }
    for (i = from; i < c->n; i++)
        if (c->ev[i].mask >> m & 1u)
            or_enum(s, m + 1, i + 1, m == 0 ? i : first, set | (1u << i));
}

/* Most pairwise disjoint occurrences inside `avail` among those ending at
 * or before `end`: the lowest available event is either unused or the
 * first event of an occurrence; memoized on avail. */
static int or_pack(or_state *s, uint32_t avail, int end)
{
    int lo, j, best;
    if (!avail)
        return 0;
    if (s->memo[avail] >= 0)
        return s->memo[avail];
    lo = 0;
    while (!(avail >> lo & 1u))
        lo++;
    best = or_pack(s, avail & ~(1u << lo), end);
    for (j = s->from[lo]; j < s->from[lo + 1]; j++) {
        const or_occ *o = &s->occ[j];
        if (o->last <= end && (o->set & avail) == o->set) {
            int v = 1 + or_pack(s, avail & ~o->set, end);
            if (v > best)
                best = v;
        }
    }
    s->memo[avail] = (signed char)best;
    return best;
}

/* Most occurrences ending at or before `end`, each starting after the
 * previous one ended: best[a + 1] = the most that start after event a,
 * the max over the first one chosen, filled from the back. */
static int or_chain(or_state *s, int end)
{
    int a, j;
    for (a = s->c->n - 1; a >= -1; a--) {
        int b = 0;
        for (j = 0; j < s->nocc; j++) {
            const or_occ *o = &s->occ[j];
            if (o->first > a && o->last <= end && 1 + s->best[o->last + 1] > b)
                b = 1 + s->best[o->last + 1];
        }
        s->best[a + 1] = b;
    }
    return s->best[0];
}

/* The occurrence a nonoverlapped record names when the frequency grows
 * at event end (docs/language.md 6): among the enumerated occurrences that
 * end at end and begin after event prev (-1: none counted yet), the one
 * whose list of events is the greatest in lexicographic order. Fills
 * out[0..k-1] with event numbers (0-based); 0 if there is none. */
static int or_canonical(const or_state *s, int end, int prev, int *out)
{
    int j, m, i, found = 0, cand[OR_MAXK];
    for (j = 0; j < s->nocc; j++) {
        const or_occ *o = &s->occ[j];
        int greater = !found;
        if (o->last != end || o->first <= prev)
            continue;
        for (i = 0, m = 0; i < s->c->n; i++)
            if (o->set >> i & 1u)
                cand[m++] = i;
        for (m = 0; m < s->c->k && !greater; m++) {
            if (cand[m] != out[m]) {
                greater = cand[m] > out[m];
                break;
            }
        }
        if (greater)
            memcpy(out, cand, sizeof cand);
        found = 1;
    }
    return found;
}

/* The global index the random streams pass with each substream position:
 * not the position, so that the occurrence shows which one was recorded. */
static int64_t or_index(int64_t pos)
{
    return pos * 3 + 1;
}

/* The counter's occurrence after a push returned 1 against or_canonical
 * (in or_index terms). 1 if they agree. */
static int occurrence_ok(const sremrt_episode *ep, const or_state *s, int end, int *prev)
{
    int want[OR_MAXK], m, ok;
    sremrt_record rec;
    if (!or_canonical(s, end, *prev, want))
        return 0;
    sremrt_episode_record(ep, SREMRT_EPISODE, "e", &rec);
    ok = ep->noccurrence == s->c->k && rec.occurrence == ep->occurrence && rec.noccurrence == s->c->k;
    for (m = 0; ok && m < s->c->k; m++)
        ok = ep->occurrence[m] == or_index(s->c->ev[want[m]].pos);
    if (!ok) {
        fprintf(stderr, "\noccurrence at event %d: want", end + 1);
        for (m = 0; m < s->c->k; m++)
            fprintf(stderr, " %lld", (long long)or_index(s->c->ev[want[m]].pos));
        fprintf(stderr, ", got");
        for (m = 0; m < ep->noccurrence; m++)
            fprintf(stderr, " %lld", (long long)ep->occurrence[m]);
        fprintf(stderr, "\n");
    }
    *prev = end;
    return ok;
}

/* want[i]: the frequency after event i. Returns -1 if the case is too big. */
static int oracle(or_state *s, const or_case *c, int distinct, int64_t *want)
{
    int i, j;
    s->c = c;
    s->nocc = 0;
    s->overflow = 0;
    or_enum(s, 0, 0, 0, 0);
    if (s->overflow)
        return -1;
    for (i = 0, j = 0; i <= c->n; i++) {
        while (j < s->nocc && s->occ[j].first < i)
            j++;
        s->from[i] = j;
    }
    for (i = 0; i < c->n; i++) {
        if (distinct) {
            memset(s->memo, -1, (size_t)1 << c->n);
            want[i] = or_pack(s, (i == 31 ? 0xffffffffu : (1u << (i + 1)) - 1u), i);
        } else {
            want[i] = or_chain(s, i);
        }
    }
    return 0;
}

/* ---- driving a counter ------------------------------------------------ */

static sremrt_episode_config make_cfg(const or_case *c, int distinct, int32_t cap, int32_t budget)
{
    sremrt_episode_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.k = c->k;
    cfg.freq = distinct ? SREMRT_EPISODE_DISTINCT : SREMRT_EPISODE_NONOVERLAPPED;
    cfg.window = c->time ? SREMRT_EPISODE_TIME : SREMRT_EPISODE_EVENTS;
    cfg.width = c->width;
    cfg.list_cap = cap;
    cfg.budget = budget;
    return cfg;
}

static void print_case(const or_case *c, int distinct)
{
    int i;
    fprintf(stderr, "  k=%d %s window=%s %lld, events (pos ts mask):", c->k,
            distinct ? "distinct" : "nonoverlapped", c->time ? "time" : "count", (long long)c->width);
    for (i = 0; i < c->n; i++)
        fprintf(stderr, " (%lld %lld %#x)", (long long)c->ev[i].pos, (long long)c->ev[i].ts,
                (unsigned)c->ev[i].mask);
    fprintf(stderr, "\n");
}

/* Runs c through a fresh counter; 1 if every step matches want (and the
 * counter stayed exact), else prints what differs and returns 0. */
static int run_case(const or_case *c, int distinct, const int64_t *want, const char *what)
{
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_episode_config cfg = make_cfg(c, distinct, OR_MAXN + 2, 512);
    sremrt_episode ep;
    int i, ok = 1;
    if (sremrt_episode_init(&ep, &cfg, &heap) != 0) {
        fprintf(stderr, "\n%s: init failed\n", what);
        return 0;
    }
    for (i = 0; i < c->n && ok; i++) {
        int64_t before = ep.freq;
        int r = sremrt_episode_push(&ep, c->ev[i].pos, c->ev[i].ts, c->ev[i].mask);
        if (ep.freq != want[i] || r != (ep.freq > before) || !ep.exact) {
            fprintf(stderr, "\n%s: after event %d: freq %lld (want %lld), push %d, exact %d\n",
                    what, i + 1, (long long)ep.freq, (long long)want[i], r, ep.exact);
            print_case(c, distinct);
            ok = 0;
        }
    }
    sremrt_episode_free(&ep);
    return ok;
}

/* A case from a string of event types ('A' + t) and elements given as
 * strings of the types they accept ("A", "AB", ...); positions 1..n;
 * timestamps ts[] or 1..n. */
static void build(or_case *c, const char *events, const int64_t *ts, const char *const *elems, int k,
                  int time, int64_t width)
{
    int i, m;
    memset(c, 0, sizeof *c);
    c->k = k;
    c->time = time;
    c->width = width;
    c->n = (int)strlen(events);
    for (i = 0; i < c->n; i++) {
        c->ev[i].pos = i + 1;
        c->ev[i].ts = ts ? ts[i] : i + 1;
        for (m = 0; m < k; m++)
            if (strchr(elems[m], events[i]))
                c->ev[i].mask |= 1u << m;
    }
}

/* Final frequency of a case through a counter with the given limits. */
static int64_t final_freq(const or_case *c, int distinct, int32_t cap, int32_t budget, int *exact)
{
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_episode_config cfg = make_cfg(c, distinct, cap, budget);
    sremrt_episode ep;
    int64_t f;
    int i;
    CU_ASSERT_EQUAL_FATAL(sremrt_episode_init(&ep, &cfg, &heap), 0);
    for (i = 0; i < c->n; i++)
        sremrt_episode_push(&ep, c->ev[i].pos, c->ev[i].ts, c->ev[i].mask);
    f = ep.freq;
    if (exact)
        *exact = ep.exact;
    sremrt_episode_free(&ep);
    return f;
}

/* Checks a fixed case both against the oracle and against expected final
 * frequencies (distinct, nonoverlapped; -1: not given). */
static void check_fixed(const or_case *c, int64_t want_distinct, int64_t want_nonover, const char *what)
{
    static or_state s;
    int64_t want[OR_MAXN];
    int d;
    for (d = 0; d <= 1; d++) {
        int64_t given = d ? want_distinct : want_nonover;
        CU_ASSERT_EQUAL_FATAL(oracle(&s, c, d, want), 0);
        if (given >= 0) {
            if (want[c->n - 1] != given)
                fprintf(stderr, "\n%s: the oracle says %lld, the paper %lld\n", what,
                        (long long)want[c->n - 1], (long long)given);
            CU_ASSERT_EQUAL(want[c->n - 1], given);
        }
        CU_ASSERT(run_case(c, d, want, what));
    }
}

/* ---- the paper's examples and the known counterexamples --------------- */

/* Figure 3: (A,1) (C,2) (A,3) (D,4) (A,5) (C,6) (A,7) (C,8) (B,9) (B,10),
 * episode <A,A,B>: distinct 2 for tau 9, 1 for tau 7; nonoverlapped 1. */
static void test_paper_figure3(void)
{
    static const char *const aab[] = {"A", "A", "B"};
    or_case c;
    build(&c, "ACADACACBB", NULL, aab, 3, 1, 9);
    check_fixed(&c, 2, 1, "figure 3, tau 9");
    build(&c, "ACADACACBB", NULL, aab, 3, 1, 7);
    check_fixed(&c, 1, 1, "figure 3, tau 7");
}

/* Equal timestamps: <B,C>, tau 1, (B,2) (C,2) has frequency 1 (the
 * printed ONCE, ordering OccMap entries by timestamp, finds none). */
static void test_equal_timestamps(void)
{
    static const char *const bc[] = {"B", "C"};
    static const int64_t ts[] = {2, 2};
    static const int64_t ts3[] = {5, 5, 5, 5};
    or_case c;
    build(&c, "BC", ts, bc, 2, 1, 1);
    check_fixed(&c, 1, 1, "<B,C> equal timestamps");
    build(&c, "BC", ts, bc, 2, 1, 0);
    check_fixed(&c, 1, 1, "<B,C> tau 0");
    /* C before B at the same time is no occurrence. */
    build(&c, "CB", ts, bc, 2, 1, 1);
    check_fixed(&c, 0, 0, "<B,C> reversed");
    build(&c, "BCBC", ts3, bc, 2, 1, 0);
    check_fixed(&c, 2, 2, "<B,C> four at one time");
}

/* ONCE+ as printed clears the whole map when a top-down search fails:
 * <A,B,C>, tau 3, A1 B2 A3 A4 C5 B6 C7 has frequency 1, ONCE+ says 0. */
static void test_onceplus_clear(void)
{
    static const char *const abc[] = {"A", "B", "C"};
    or_case c;
    build(&c, "ABAACBC", NULL, abc, 3, 1, 3);
    check_fixed(&c, 1, -1, "ONCE+ clear");
}

/* ONCE+ as printed tests < tau where the definition says <= tau. */
static void test_window_bound(void)
{
    static const char *const ab[] = {"A", "B"};
    static const int64_t ts[] = {10, 13};
    or_case c;
    build(&c, "AB", ts, ab, 2, 1, 3);
    check_fixed(&c, 1, 1, "span == tau");
    build(&c, "AB", ts, ab, 2, 1, 2);
    check_fixed(&c, 0, 0, "span > tau");
    build(&c, "AB", NULL, ab, 2, 0, 2);
    check_fixed(&c, 1, 1, "2 events within 2 events");
    build(&c, "AXB", NULL, ab, 2, 0, 2);
    check_fixed(&c, 0, 0, "3 events within 2 events");
}

/* Committing to a counted occurrence is not exact once elements repeat:
 * <A,B,A>, tau 4, A1 B2 A3 B4 A5 A6: 2 by <1,2,5> and <3,4,6>; a greedy
 * that commits <1,2,3> gets 1. */
static void test_repeated_commit(void)
{
    static const char *const aba[] = {"A", "B", "A"};
    or_case c;
    build(&c, "ABABAA", NULL, aba, 3, 1, 4);
    check_fixed(&c, 2, 1, "<A,B,A> commit");
}

/* Extending the oldest partial occurrence is wrong when it expires first:
 * <A,B,C>, tau 3, (A,0) (A,2) (B,3) (C,4): 1, by <2,3,4>. */
static void test_oldest_first(void)
{
    static const char *const abc[] = {"A", "B", "C"};
    static const int64_t ts[] = {0, 2, 3, 4};
    or_case c;
    build(&c, "AABC", ts, abc, 3, 1, 3);
    check_fixed(&c, 1, 1, "oldest first");
}

/* Counting an occurrence as soon as one ends is wrong when its events can
 * play other elements: elements {A}, {A,B}, {C}; A1 A2 C3 B4 C5 B6 C7 has
 * 2 (<1,4,5>, <2,6,7>); counting <1,2,3> at C3 leaves 1. */
static void test_count_at_once(void)
{
    static const char *const el[] = {"A", "AB", "C"};
    or_case c;
    build(&c, "AACBCBC", NULL, el, 3, 0, 100);
    check_fixed(&c, 2, 1, "count at once");
}

/* The leftmost occurrence is not always the one to count when a free
 * event may play two elements: <A,B,A,C>, within 6 events,
 * A1 B2 A3 B4 A5 C6 A7 C8: 2 by <1,2,5,6> and <3,4,7,8>; counting the
 * leftmost <1,2,3,6> leaves 1. */
static void test_leftmost_multi(void)
{
    static const char *const el[] = {"A", "B", "A", "C"};
    or_case c;
    build(&c, "ABABACAC", NULL, el, 4, 0, 6);
    check_fixed(&c, 2, 1, "leftmost with repeated A");
    build(&c, "ABABACAC", NULL, el, 4, 0, 5);
    check_fixed(&c, 1, 1, "leftmost with repeated A, tighter");
}

/* k = 1, k = 2 with one element twice, and an element accepting anything. */
static void test_small(void)
{
    static const char *const a[] = {"A"};
    static const char *const aa[] = {"A", "A"};
    static const char *const any[] = {"ABC", "B", "ABC"};
    or_case c;
    build(&c, "AXAAXA", NULL, a, 1, 0, 1);
    check_fixed(&c, 4, 4, "<A>");
    build(&c, "AAAAA", NULL, aa, 2, 0, 2);
    check_fixed(&c, 2, 2, "<A,A> within 2");
    build(&c, "AAAAA", NULL, aa, 2, 0, 5);
    check_fixed(&c, 2, 2, "<A,A> within 5");
    build(&c, "ABBCBA", NULL, any, 3, 0, 4);
    check_fixed(&c, -1, -1, "<_,B,_>");
}

/* ---- seeded random cases ---------------------------------------------- */

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static int rng_below(uint64_t *s, int n)
{
    return (int)(rng_next(s) % (uint64_t)n);
}

/* One random stream: 2-4 event types, k 1-4 elements, each usually one
 * type (repeats allowed: <A,A,B>, <A,B,A>) and sometimes a set of types
 * (overlapping conditions); equal timestamps; tight and loose windows;
 * gaps in positions (events of no element skipped); up to 3 partitions,
 * each its own substream and counter. */
typedef struct rnd_stream {
    int k, time, nparts;
    int64_t width;
    int n;
    int64_t ts[OR_MAXN * 3];
    int part[OR_MAXN * 3];
    uint32_t mask[OR_MAXN * 3];
} rnd_stream;

static void rnd_make(uint64_t *s, rnd_stream *r, int dense)
{
    int types = 2 + rng_below(s, dense ? 2 : 3), m, i;
    uint32_t elem[OR_MAXK];
    int64_t t = rng_below(s, 4) == 0 ? INT64_MAX - 100 : (int64_t)rng_below(s, 1000) - 500;
    r->k = 1 + rng_below(s, 4);
    if (r->k == 1 && rng_below(s, 2))
        r->k = 2 + rng_below(s, 3);
    for (m = 0; m < r->k; m++) {
        if (rng_below(s, 4) >= (dense ? 2 : 1))
            elem[m] = 1u << rng_below(s, types);
        else
            elem[m] = (uint32_t)(1 + rng_below(s, (1 << types) - 1));
    }
    if (dense && r->k < 3)
        r->k = 3 + rng_below(s, 2);
    r->nparts = !dense && rng_below(s, 4) == 0 ? 2 + rng_below(s, 2) : 1;
    r->n = dense ? OR_MAXN - 4 + rng_below(s, 5) : 1 + rng_below(s, r->nparts == 1 ? 12 : 24);
    r->time = rng_below(s, 2);
    if (r->time)
        r->width = rng_below(s, 3) == 0 ? 1000 : rng_below(s, 9);
    else
        r->width = rng_below(s, 3) == 0 ? 1000 : 1 + rng_below(s, 9);
    if (t == INT64_MAX - 100)
        t -= 3 * r->n;
    for (i = 0; i < r->n; i++) {
        int type = rng_below(s, types + 1);   /* types: an event of no element */
        static const int step[] = {0, 0, 1, 1, 2, 3};
        t += step[rng_below(s, 6)];
        r->ts[i] = t;
        r->part[i] = rng_below(s, r->nparts);
        r->mask[i] = 0;
        for (m = 0; m < r->k; m++)
            if (type < types && (elem[m] >> type & 1u))
                r->mask[i] |= 1u << m;
    }
}

/* The substream of partition p as an oracle case; positions count every
 * event of the substream, but events of no element are sometimes left
 * out (so positions have gaps, as when generated code skips them). */
static void rnd_part(const rnd_stream *r, int p, uint64_t *s, or_case *c)
{
    int i;
    int64_t pos = 0;
    memset(c, 0, sizeof *c);
    c->k = r->k;
    c->time = r->time;
    c->width = r->width;
    for (i = 0; i < r->n; i++) {
        if (r->part[i] != p)
            continue;
        pos++;
        if (r->mask[i] == 0 && rng_below(s, 2))
            continue;
        if (c->n == OR_MAXN)
            break;
        c->ev[c->n].pos = pos;
        c->ev[c->n].ts = r->ts[i];
        c->ev[c->n].mask = r->mask[i];
        c->n++;
    }
}

/* Feeds the whole stream to one counter per partition, interleaved as it
 * arrives, and checks each against its oracle after every event. */
/* What the random cases exercised (SREMRT_EPISODE_STATS=1 prints it). */
static struct {
    long cases, skipped, counters, used_configs, switched_back;
    int32_t peak;
} rnd_seen;

static int rnd_check(uint64_t seed, int distinct, int dense)
{
    static or_state s[3];   /* one per partition: the occurrences are checked as they are counted */
    sremrt_alloc heap = sremrt_alloc_malloc();
    uint64_t st = seed;
    rnd_stream r;
    or_case c[3];
    int64_t want[3][OR_MAXN];
    sremrt_episode ep[3];
    int at[3] = {0, 0, 0}, prev[3] = {-1, -1, -1}, p, ok = 1, more = 1;
    rnd_make(&st, &r, dense);
    for (p = 0; p < r.nparts; p++) {
        sremrt_episode_config cfg;
        rnd_part(&r, p, &st, &c[p]);
        if (oracle(&s[p], &c[p], distinct, want[p]) != 0) {
            while (--p >= 0)
                sremrt_episode_free(&ep[p]);
            rnd_seen.skipped++;
            return 1;   /* too many occurrences for the oracle: skip */
        }
        cfg = make_cfg(&c[p], distinct, OR_MAXN + 2, 512);
        CU_ASSERT_EQUAL_FATAL(sremrt_episode_init(&ep[p], &cfg, &heap), 0);
    }
    /* Round-robin over the partitions: independent counters. */
    while (more && ok) {
        more = 0;
        for (p = 0; p < r.nparts && ok; p++) {
            const or_ev *e;
            int64_t before;
            int ret;
            if (at[p] == c[p].n)
                continue;
            more = 1;
            e = &c[p].ev[at[p]];
            before = ep[p].freq;
            ret = sremrt_episode_push_index(&ep[p], e->pos, e->ts, e->mask, or_index(e->pos));
            if (ret == 1 && !distinct && !occurrence_ok(&ep[p], &s[p], at[p], &prev[p])) {
                fprintf(stderr, "seed %llu, partition %d\n", (unsigned long long)seed, p);
                print_case(&c[p], distinct);
                ok = 0;
            }
            if (ep[p].freq != want[p][at[p]] || ret != (ep[p].freq > before) || !ep[p].exact) {
                fprintf(stderr, "\nseed %llu, partition %d of %d, after event %d: freq %lld (want %lld), "
                        "push %d, exact %d\n", (unsigned long long)seed, p, r.nparts, at[p] + 1,
                        (long long)ep[p].freq, (long long)want[p][at[p]], ret, ep[p].exact);
                print_case(&c[p], distinct);
                ok = 0;
            }
            at[p]++;
        }
    }
    rnd_seen.cases++;
    for (p = 0; p < r.nparts; p++) {
        rnd_seen.counters++;
        if (ep[p].peak > 0)
            rnd_seen.used_configs++;
        if (ep[p].peak > 0 && ep[p].configs == 0)
            rnd_seen.switched_back++;
        if (ep[p].peak > rnd_seen.peak)
            rnd_seen.peak = ep[p].peak;
        sremrt_episode_free(&ep[p]);
    }
    return ok;
}

#ifndef RANDOM_CASES
#define RANDOM_CASES 12000
#endif
#ifndef RANDOM_DENSE
#define RANDOM_DENSE 3000
#endif

static void random_cases(int distinct, int dense, int cases)
{
    const char *env = getenv("SREMRT_EPISODE_SEED");
    uint64_t base = env ? strtoull(env, NULL, 0) : 20240611u;
    int i, failed = 0;
    memset(&rnd_seen, 0, sizeof rnd_seen);
    for (i = 0; i < cases && failed < 3; i++)
        if (!rnd_check(base * 1000003u + (uint64_t)i, distinct, dense))
            failed++;
    if (failed)
        fprintf(stderr, "(base seed %llu; rerun with SREMRT_EPISODE_SEED)\n", (unsigned long long)base);
    if (getenv("SREMRT_EPISODE_STATS"))
        fprintf(stderr, "\n%s%s: %ld cases (%ld skipped), %ld counters, %ld used configurations "
                "(%ld back on the OccMap at the end), at most %d at once\n",
                distinct ? "distinct" : "nonoverlapped", dense ? " (dense)" : "", rnd_seen.cases, rnd_seen.skipped,
                rnd_seen.counters, rnd_seen.used_configs, rnd_seen.switched_back, (int)rnd_seen.peak);
    CU_ASSERT_EQUAL(failed, 0);
}

static void test_random_nonoverlapped(void)
{
    random_cases(0, 0, RANDOM_CASES);
}

static void test_random_distinct(void)
{
    random_cases(1, 0, RANDOM_CASES);
}

/* Longer streams, more elements accepting several types: many
 * configurations at once, so that pruning by dominance is exercised. */
static void test_random_dense(void)
{
    random_cases(0, 1, RANDOM_DENSE);
    random_cases(1, 1, RANDOM_DENSE);
}

/* ---- limits, memory, misuse ------------------------------------------- */

/* A budget too small to hold the alternatives: inexact, a lower bound,
 * and counted; an exact result on the same stream with the default. */
static void test_budget(void)
{
    static const char *const aba[] = {"A", "B", "A"};
    static or_state s;
    or_case c;
    int64_t want[OR_MAXN];
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_episode_config cfg;
    sremrt_episode ep;
    int i, exact;
    build(&c, "ABABAABABAABAB", NULL, aba, 3, 0, 6);
    CU_ASSERT_EQUAL_FATAL(oracle(&s, &c, 1, want), 0);
    cfg = make_cfg(&c, 1, 16, 1);
    CU_ASSERT_EQUAL_FATAL(sremrt_episode_init(&ep, &cfg, &heap), 0);
    for (i = 0; i < c.n; i++) {
        sremrt_episode_push(&ep, c.ev[i].pos, c.ev[i].ts, c.ev[i].mask);
        CU_ASSERT(ep.freq <= want[i]);
    }
    CU_ASSERT_EQUAL(ep.exact, 0);
    CU_ASSERT(ep.budget_exceeded > 0);
    CU_ASSERT(ep.configs <= 1);
    sremrt_episode_free(&ep);
    CU_ASSERT_EQUAL(final_freq(&c, 1, 0, 0, &exact), want[c.n - 1]);
    CU_ASSERT_EQUAL(exact, 1);
}

/* Lists too short: entries dropped, counted, inexact, a lower bound. */
static void test_list_overflow(void)
{
    static const char *const abc[] = {"A", "B", "C"};
    static const char *const aab[] = {"A", "A", "B"};
    static or_state s;
    or_case c;
    int64_t want[OR_MAXN];
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_episode_config cfg;
    sremrt_episode ep;
    sremrt_stats st;
    int i, d;
    for (d = 0; d < 2; d++) {
        build(&c, d ? "AAAAAABBB" : "AAAABBBCCC", NULL, d ? aab : abc, 3, 0, 100);
        CU_ASSERT_EQUAL_FATAL(oracle(&s, &c, 1, want), 0);
        cfg = make_cfg(&c, 1, 2, 0);
        CU_ASSERT_EQUAL_FATAL(sremrt_episode_init(&ep, &cfg, &heap), 0);
        for (i = 0; i < c.n; i++) {
            sremrt_episode_push(&ep, c.ev[i].pos, c.ev[i].ts, c.ev[i].mask);
            CU_ASSERT(ep.freq <= want[i]);
        }
        CU_ASSERT_EQUAL(want[c.n - 1], 3);
        CU_ASSERT(ep.freq < 3);
        CU_ASSERT_EQUAL(ep.exact, 0);
        CU_ASSERT(ep.overflows > 0);
        sremrt_stats_init(&st);
        sremrt_episode_add_stats(&ep, &st);
        CU_ASSERT_EQUAL(st.overflow[SREMRT_OVF_OCCMAP], ep.overflows);
        CU_ASSERT_EQUAL(st.overflow[SREMRT_OVF_BUDGET], ep.budget_exceeded);
        sremrt_episode_free(&ep);
    }
}

/* SREMRT_EPISODE_EXCLUSIVE: no configuration memory; a mask with two
 * bits anyway is reported, not a memory error. */
static void test_exclusive_flag(void)
{
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_episode_config cfg;
    sremrt_episode ep;
    memset(&cfg, 0, sizeof cfg);
    cfg.k = 3;
    cfg.freq = SREMRT_EPISODE_DISTINCT;
    cfg.window = SREMRT_EPISODE_EVENTS;
    cfg.width = 10;
    cfg.flags = SREMRT_EPISODE_EXCLUSIVE;
    CU_ASSERT(sremrt_episode_bytes(&cfg) < 16 * 2 * 64 + 256);
    CU_ASSERT_EQUAL_FATAL(sremrt_episode_init(&ep, &cfg, &heap), 0);
    CU_ASSERT_PTR_NULL(ep.pool);
    CU_ASSERT_EQUAL(sremrt_episode_push(&ep, 1, 0, 1), 0);
    CU_ASSERT_EQUAL(sremrt_episode_push(&ep, 2, 0, 2), 0);
    CU_ASSERT_EQUAL(sremrt_episode_push(&ep, 3, 0, 4), 1);
    CU_ASSERT_EQUAL(ep.exact, 1);
    CU_ASSERT_EQUAL(sremrt_episode_push(&ep, 4, 0, 3), 0);   /* A and B at once */
    CU_ASSERT_EQUAL(ep.exact, 0);
    CU_ASSERT_EQUAL(ep.budget_exceeded, 1);
    sremrt_episode_free(&ep);
}

static void test_push_order(void)
{
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_episode_config cfg;
    sremrt_episode ep;
    memset(&cfg, 0, sizeof cfg);
    cfg.k = 2;
    cfg.freq = SREMRT_EPISODE_DISTINCT;
    cfg.window = SREMRT_EPISODE_TIME;
    cfg.width = 5;
    CU_ASSERT_EQUAL_FATAL(sremrt_episode_init(&ep, &cfg, &heap), 0);
    CU_ASSERT_EQUAL(sremrt_episode_push(&ep, 5, 100, 1), 0);
    CU_ASSERT_EQUAL(sremrt_episode_push(&ep, 5, 100, 2), -1);   /* same position */
    CU_ASSERT_EQUAL(sremrt_episode_push(&ep, 6, 99, 2), -1);    /* time backwards */
    CU_ASSERT_EQUAL(ep.rejected, 2);
    CU_ASSERT_EQUAL(sremrt_episode_push(&ep, 9, 105, 2), 1);
    CU_ASSERT_EQUAL(ep.events, 2);
    sremrt_episode_reset(&ep);
    CU_ASSERT_EQUAL(ep.freq, 0);
    CU_ASSERT_EQUAL(ep.rejected, 0);
    CU_ASSERT_EQUAL(sremrt_episode_push(&ep, 1, 0, 1), 0);      /* earlier is fine after reset */
    CU_ASSERT_EQUAL(sremrt_episode_push(&ep, 2, 5, 2), 1);
    sremrt_episode_free(&ep);
    /* A counter whose init failed refuses events, reset or not. */
    CU_ASSERT_EQUAL(sremrt_episode_push(&ep, 1, 0, 1), -1);
    sremrt_episode_reset(&ep);
    CU_ASSERT_EQUAL(sremrt_episode_push(&ep, 2, 0, 1), -1);
}

static void test_config_check(void)
{
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_episode_config cfg;
    sremrt_episode ep;
    memset(&cfg, 0, sizeof cfg);
    cfg.k = 3;
    cfg.window = SREMRT_EPISODE_EVENTS;
    cfg.width = 1;
    CU_ASSERT_PTR_NULL(sremrt_episode_check(&cfg));
    cfg.width = 0;
    CU_ASSERT_PTR_NOT_NULL(sremrt_episode_check(&cfg));
    CU_ASSERT_EQUAL(sremrt_episode_bytes(&cfg), 0);
    CU_ASSERT_EQUAL(sremrt_episode_init(&ep, &cfg, &heap), -1);
    cfg.window = SREMRT_EPISODE_TIME;
    CU_ASSERT_PTR_NULL(sremrt_episode_check(&cfg));
    cfg.width = -1;
    CU_ASSERT_PTR_NOT_NULL(sremrt_episode_check(&cfg));
    cfg.width = 1;
    cfg.k = 0;
    CU_ASSERT_PTR_NOT_NULL(sremrt_episode_check(&cfg));
    cfg.k = 33;
    CU_ASSERT_PTR_NOT_NULL(sremrt_episode_check(&cfg));
    cfg.k = 32;
    CU_ASSERT_PTR_NULL(sremrt_episode_check(&cfg));
    cfg.budget = -1;
    CU_ASSERT_PTR_NOT_NULL(sremrt_episode_check(&cfg));
    cfg.budget = 0;
    cfg.list_cap = SREMRT_EPISODE_MAX_CAP + 1;
    CU_ASSERT_PTR_NOT_NULL(sremrt_episode_check(&cfg));
    cfg.list_cap = 0;
    cfg.freq = (sremrt_episode_freq)7;
    CU_ASSERT_PTR_NOT_NULL(sremrt_episode_check(&cfg));
}

/* A caller's buffer of exactly sremrt_episode_bytes, at an odd address,
 * and an arena; too small a buffer fails cleanly. */
static void test_memory(void)
{
    static unsigned char buf[1 << 16];
    static const char *const aab[] = {"A", "A", "B"};
    sremrt_episode_config cfg;
    sremrt_episode ep;
    sremrt_arena ar;
    sremrt_alloc hook;
    or_case c;
    size_t bytes;
    int i, d;
    build(&c, "ACADACACBB", NULL, aab, 3, 1, 9);
    for (d = 0; d < 2; d++) {
        cfg = make_cfg(&c, d, 8, 4);
        bytes = sremrt_episode_bytes(&cfg);
        CU_ASSERT_FATAL(bytes > 0 && bytes + 1 <= sizeof buf);
        CU_ASSERT_EQUAL(sremrt_episode_init_buf(&ep, &cfg, buf + 1, bytes - 8), -1);
        CU_ASSERT_EQUAL(sremrt_episode_init_buf(&ep, &cfg, NULL, bytes), -1);
        CU_ASSERT_EQUAL_FATAL(sremrt_episode_init_buf(&ep, &cfg, buf + 1, bytes), 0);
        for (i = 0; i < c.n; i++)
            sremrt_episode_push(&ep, c.ev[i].pos, c.ev[i].ts, c.ev[i].mask);
        CU_ASSERT_EQUAL(ep.freq, d ? 2 : 1);
        sremrt_episode_free(&ep);   /* a caller's buffer: nothing to give back */

        sremrt_arena_init(&ar, buf, sizeof buf);
        hook = sremrt_arena_hook(&ar);
        CU_ASSERT_EQUAL_FATAL(sremrt_episode_init(&ep, &cfg, &hook), 0);
        for (i = 0; i < c.n; i++)
            sremrt_episode_push(&ep, c.ev[i].pos, c.ev[i].ts, c.ev[i].mask);
        CU_ASSERT_EQUAL(ep.freq, d ? 2 : 1);
        sremrt_episode_free(&ep);
        CU_ASSERT_EQUAL(ar.used, 0);
        sremrt_arena_init(&ar, buf, bytes / 2);
        hook = sremrt_arena_hook(&ar);
        CU_ASSERT_EQUAL(sremrt_episode_init(&ep, &cfg, &hook), -1);
        CU_ASSERT_EQUAL(ar.failures, 1);
    }
}

/* Extreme timestamps and positions: the window arithmetic must not
 * overflow. */
static void test_extremes(void)
{
    static const char *const ab[] = {"A", "B"};
    const int64_t lo[] = {INT64_MIN, INT64_MAX};
    const int64_t near[] = {INT64_MAX - 5, INT64_MAX};
    or_case c;
    build(&c, "AB", lo, ab, 2, 1, INT64_MAX);
    check_fixed(&c, 0, 0, "span 2^64 - 1");
    build(&c, "AB", near, ab, 2, 1, 5);
    check_fixed(&c, 1, 1, "near INT64_MAX");
    build(&c, "AB", NULL, ab, 2, 0, INT64_MAX);
    c.ev[0].pos = INT64_MIN + 1;
    c.ev[1].pos = INT64_MAX;
    check_fixed(&c, 0, 0, "positions 2^64 - 2 apart");
}

/* k = 32: the mask's top bit is the last element. */
static void test_k32(void)
{
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_episode_config cfg;
    sremrt_episode ep;
    int d, m, rounds;
    for (d = 0; d < 2; d++) {
        memset(&cfg, 0, sizeof cfg);
        cfg.k = 32;
        cfg.freq = d ? SREMRT_EPISODE_DISTINCT : SREMRT_EPISODE_NONOVERLAPPED;
        cfg.window = SREMRT_EPISODE_EVENTS;
        cfg.width = 40;
        CU_ASSERT_EQUAL_FATAL(sremrt_episode_init(&ep, &cfg, &heap), 0);
        for (rounds = 0; rounds < 2; rounds++)
            for (m = 0; m < 32; m++)
                sremrt_episode_push(&ep, rounds * 32 + m + 1, 0, 1u << m);
        CU_ASSERT_EQUAL(ep.freq, 2);
        sremrt_episode_reset(&ep);
        for (m = 0; m < 32; m++)   /* every event satisfies every element */
            sremrt_episode_push(&ep, m + 1, 0, 0xffffffffu);
        CU_ASSERT_EQUAL(ep.freq, 1);
        CU_ASSERT_EQUAL(ep.exact, 1);
        sremrt_episode_free(&ep);
    }
}

/* Records: kind, name, freq, "exact":false when inexact. */
static void test_record(void)
{
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_episode_config cfg;
    sremrt_episode ep;
    sremrt_record rec;
    char buf[256];
    memset(&cfg, 0, sizeof cfg);
    cfg.k = 1;
    cfg.window = SREMRT_EPISODE_EVENTS;
    cfg.width = 1;
    CU_ASSERT_EQUAL_FATAL(sremrt_episode_init(&ep, &cfg, &heap), 0);
    sremrt_episode_record(&ep, SREMRT_EPISODE, "cell_out", &rec);
    CU_ASSERT_PTR_NULL(rec.occurrence);   /* none counted yet */
    CU_ASSERT_EQUAL(sremrt_episode_push_index(&ep, 3, 7, 1, 42), 1);
    sremrt_episode_record(&ep, SREMRT_EPISODE, "cell_out", &rec);
    rec.index = 42;
    rec.key = "12";
    sremrt_record_format(buf, sizeof buf, SREMRT_JSONL, &rec);
    ASSERT_STR(buf, "{\"kind\":\"episode\",\"name\":\"cell_out\",\"index\":42,\"key\":\"12\",\"freq\":1,"
                    "\"occurrence\":[42]}\n");
    ep.exact = 0;
    sremrt_episode_record(&ep, SREMRT_ALERT, "cell_out", &rec);
    rec.index = 42;
    sremrt_record_format(buf, sizeof buf, SREMRT_JSONL, &rec);
    ASSERT_STR(buf, "{\"kind\":\"alert\",\"name\":\"cell_out\",\"index\":42,\"freq\":1,\"exact\":false}\n");
    sremrt_episode_free(&ep);
}

void add_episode_tests(void)
{
    CU_pSuite s = CU_add_suite("episode", NULL, NULL);
    CU_add_test(s, "paper figure 3", test_paper_figure3);
    CU_add_test(s, "equal timestamps", test_equal_timestamps);
    CU_add_test(s, "ONCE+ clears the map", test_onceplus_clear);
    CU_add_test(s, "window bound <= tau", test_window_bound);
    CU_add_test(s, "repeated elements: no committing", test_repeated_commit);
    CU_add_test(s, "oldest partial first is wrong", test_oldest_first);
    CU_add_test(s, "counting at once is wrong", test_count_at_once);
    CU_add_test(s, "leftmost with two-element events", test_leftmost_multi);
    CU_add_test(s, "small episodes", test_small);
    CU_add_test(s, "random nonoverlapped vs brute force", test_random_nonoverlapped);
    CU_add_test(s, "random distinct vs brute force", test_random_distinct);
    CU_add_test(s, "random dense streams vs brute force", test_random_dense);
    CU_add_test(s, "budget", test_budget);
    CU_add_test(s, "list overflow", test_list_overflow);
    CU_add_test(s, "exclusive flag", test_exclusive_flag);
    CU_add_test(s, "push order", test_push_order);
    CU_add_test(s, "config check", test_config_check);
    CU_add_test(s, "memory", test_memory);
    CU_add_test(s, "extreme values", test_extremes);
    CU_add_test(s, "k = 32", test_k32);
    CU_add_test(s, "records", test_record);
}
