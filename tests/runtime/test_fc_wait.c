/* test_fc_wait.c: waiting times, the decision rule and the table
 * (runtime/fc_wait.c, fc_ctx.c) against closed forms, hand-computed
 * intervals, brute force over every future, and simulation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "fc_test.h"
#include "rt.h"

sremrt_fc_ctx *fc_iid(const double *dist, uint32_t nsym)
{
    sremrt_fc_ctx *x = calloc(1, sizeof *x);
    uint32_t s;
    CU_ASSERT_PTR_NOT_NULL_FATAL(x);
    x->ncontexts = 1;
    x->nsym = nsym;
    x->exact = 1;
    x->next = calloc(nsym, sizeof *x->next);
    x->prob = malloc(nsym * sizeof *x->prob);
    CU_ASSERT_FATAL(x->next && x->prob);
    for (s = 0; s < nsym; s++)
        x->prob[s] = dist[s];
    return x;
}

/* `A B` over {A = 0, B = 1}: 0 nothing useful seen, 1 last was A, 2 just
 * saw A B (final; it then behaves as 0). */
static const int32_t ab_next[] = {1, 0, 1, 2, 1, 0};
static const uint8_t ab_final[] = {0, 0, 1};
static const sremrt_fc_automaton ab_dfa = {3, 2, 0, ab_next, ab_final};

/* P(W = n) from the start: pq (p^(n-1) - q^(n-1)) / (p - q); (n-1)/2^n at p = 1/2.
 * From "last was A": p^(n-1) q. */
static void test_closed_form_ab(void)
{
    static const double ps[] = {0.3, 0.5, 0.8, 0.01};
    size_t i;
    for (i = 0; i < sizeof ps / sizeof ps[0]; i++) {
        double p = ps[i], q = 1 - p, dist[2];
        uint32_t n, h = 60;
        sremrt_fc_ctx *x;
        double *wt;
        dist[0] = p;
        dist[1] = q;
        x = fc_iid(dist, 2);
        wt = sremrt_fc_waiting_times(&ab_dfa, x, h);
        CU_ASSERT_PTR_NOT_NULL_FATAL(wt);
        for (n = 1; n <= h; n++) {
            double w0 = p == 0.5 ? (n - 1) / pow(2, n)
                                 : p * q * (pow(p, n - 1) - pow(q, n - 1)) / (p - q);
            double w1 = pow(p, n - 1) * q;
            CU_ASSERT_DOUBLE_EQUAL(wt[0 * h + n - 1], w0, 1e-12);
            CU_ASSERT_DOUBLE_EQUAL(wt[1 * h + n - 1], w1, 1e-12);
            CU_ASSERT_DOUBLE_EQUAL(wt[2 * h + n - 1], w0, 1e-12);   /* after a detection: afresh */
        }
        if (p == 0.3) {   /* the research notes' worked numbers */
            sremrt_fc_spec sp;
            sremrt_fc_forecast f;
            CU_ASSERT_DOUBLE_EQUAL(wt[3], .1659, 1e-12);
            CU_ASSERT_DOUBLE_EQUAL(wt[h + 2], .063, 1e-12);
            memset(&sp, 0, sizeof sp);
            sp.kind = SREMRT_FC_INTERVAL;
            sp.theta = .5;
            sp.horizon = h;
            sp.max_spread = h;
            f = sremrt_fc_decide(wt, &sp);   /* W0: [2, 4], .21 + .21 + .1659 */
            CU_ASSERT_EQUAL(f.from, 2);
            CU_ASSERT_EQUAL(f.to, 4);
            CU_ASSERT_DOUBLE_EQUAL(f.prob, .5859, 1e-12);
        }
        free(wt);
        sremrt_fc_ctx_free(x);
    }
}

/* `a + b + c + d + e` under any distribution: detected at the next event. */
static void test_any_symbol(void)
{
    static const int32_t next[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    static const uint8_t final[] = {0, 1};
    static const sremrt_fc_automaton any = {2, 5, 0, next, final};
    static const double dist[5] = {.2, .2, .2, .2, .2};
    sremrt_fc_ctx *x = fc_iid(dist, 5);
    double *wt = sremrt_fc_waiting_times(&any, x, 5);
    uint32_t n;
    CU_ASSERT_PTR_NOT_NULL_FATAL(wt);
    for (n = 0; n < 5; n++) {
        CU_ASSERT_DOUBLE_EQUAL(wt[n], n == 0, 1e-15);
        CU_ASSERT_DOUBLE_EQUAL(wt[5 + n], n == 0, 1e-15);
    }
    free(wt);
    sremrt_fc_ctx_free(x);
}

static sremrt_fc_spec interval_spec(double theta, uint32_t horizon, uint32_t max_spread)
{
    sremrt_fc_spec s;
    memset(&s, 0, sizeof s);
    s.kind = SREMRT_FC_INTERVAL;
    s.theta = theta;
    s.horizon = horizon;
    s.max_spread = max_spread;
    return s;
}

/* Wayeb's test distribution (forecasting.md section 4 (c)). */
static void test_interval_rule(void)
{
    static const double wt[] = {0, .2, .3, .1, .1, .1, .1, .05, .05, 0};
    static const struct {
        double theta;
        uint32_t from, to;
        double prob;
    } want[] = {
        {.3, 3, 3, .3}, {.5, 2, 3, .5}, {.6, 2, 4, .6}, {.7, 2, 5, .7},
        {.9, 2, 7, .9}, {.95, 2, 8, .95}, {1.0, 2, 9, 1.0},
    };
    size_t i;
    for (i = 0; i < sizeof want / sizeof want[0]; i++) {
        sremrt_fc_spec sp = interval_spec(want[i].theta, 10, 10);
        sremrt_fc_forecast f = sremrt_fc_decide(wt, &sp);
        CU_ASSERT_EQUAL(f.none, 0);
        CU_ASSERT_EQUAL(f.positive, 1);
        CU_ASSERT_EQUAL(f.from, want[i].from);
        CU_ASSERT_EQUAL(f.to, want[i].to);
        CU_ASSERT_DOUBLE_EQUAL(f.prob, want[i].prob, 1e-12);
    }
    {
        sremrt_fc_spec sp = interval_spec(.7, 10, 2);   /* [2, 5] spreads 3 */
        CU_ASSERT_EQUAL(sremrt_fc_decide(wt, &sp).none, 1);
        sp.max_spread = 3;
        CU_ASSERT_EQUAL(sremrt_fc_decide(wt, &sp).none, 0);
        sp.theta = 1.0 + 1e-9;   /* beyond the mass */
        CU_ASSERT_EQUAL(sremrt_fc_decide(wt, &sp).none, 1);
    }
    {
        static const double flat[] = {.25, .25, .25, .25};
        sremrt_fc_spec sp = interval_spec(.5, 4, 4);
        sremrt_fc_forecast f = sremrt_fc_decide(flat, &sp);
        CU_ASSERT_EQUAL(f.from, 1);   /* the earliest of three */
        CU_ASSERT_EQUAL(f.to, 2);
    }
    {
        /* equal spread: the higher probability wins over the earlier start */
        static const double two[] = {.3, .2, .1, .45};
        sremrt_fc_spec sp = interval_spec(.4, 4, 4);
        sremrt_fc_forecast f = sremrt_fc_decide(two, &sp);
        CU_ASSERT_EQUAL(f.from, 4);
        CU_ASSERT_EQUAL(f.to, 4);
        sp.theta = .5;   /* [1,2] .5, [3,4] .55 */
        f = sremrt_fc_decide(two, &sp);
        CU_ASSERT_EQUAL(f.from, 3);
        CU_ASSERT_EQUAL(f.to, 4);
        CU_ASSERT_DOUBLE_EQUAL(f.prob, .55, 1e-15);
    }
}

static void test_within_rule(void)
{
    /* W1 of `A B` at p = 0.3: .7, .21, .063, ...; within 2 = .91 */
    static const double w1[] = {.7, .21, .063, .0189};
    sremrt_fc_spec sp;
    sremrt_fc_forecast f;
    memset(&sp, 0, sizeof sp);
    sp.kind = SREMRT_FC_WITHIN;
    sp.horizon = 4;
    sp.k = 2;
    sp.theta = .9;
    f = sremrt_fc_decide(w1, &sp);
    CU_ASSERT_DOUBLE_EQUAL(f.prob, .91, 1e-12);
    CU_ASSERT_EQUAL(f.positive, 1);
    CU_ASSERT_EQUAL(f.none, 0);
    CU_ASSERT_EQUAL(f.from, 1);
    CU_ASSERT_EQUAL(f.to, 2);
    sp.theta = .95;
    f = sremrt_fc_decide(w1, &sp);
    CU_ASSERT_EQUAL(f.positive, 0);
    CU_ASSERT_EQUAL(f.none, 0);
    sp.theta = .91;   /* .7 + .21 is 0.9099999999999999: the tolerance */
    CU_ASSERT_EQUAL(sremrt_fc_decide(w1, &sp).positive, 1);
}

/* decide() against all intervals, on random distributions (some with
 * zeros and ties). */
static void test_interval_brute(void)
{
    uint64_t seed = 0x5eed0002;
    int round;
    for (round = 0; round < 3000; round++) {
        uint64_t at = seed;
        double wt[24], total = 0, theta;
        uint32_t h = 1 + (uint32_t)(fc_rand(&seed) % 24), n, a, b, spread;
        sremrt_fc_spec sp;
        sremrt_fc_forecast f;
        int found = 0;
        uint32_t bf = 0, bt = 0;
        double bp = 0;
        for (n = 0; n < h; n++) {
            uint64_t k = fc_rand(&seed) % 8;
            wt[n] = k < 2 ? 0 : (double)(k % 4) / 8;   /* few values: ties happen */
            total += wt[n];
        }
        for (n = 0; n < h; n++)
            wt[n] *= fc_unit(&seed) < .9 ? 1 / (total + 0.5) : 1 / (total > 0 ? total : 1);
        theta = 0.05 + 0.95 * fc_unit(&seed);
        spread = (uint32_t)(fc_rand(&seed) % (h + 1));
        sp = interval_spec(theta, h, spread);
        f = sremrt_fc_decide(wt, &sp);
        for (a = 0; a < h; a++)
            for (b = a; b < h; b++) {
                double sum = 0;
                for (n = a; n <= b; n++)
                    sum += wt[n];
                if (sum < theta - SREMRT_FC_TOLERANCE)
                    continue;
                if (!found || b - a < bt - bf || (b - a == bt - bf && sum > bp + SREMRT_FC_TOLERANCE)) {
                    found = 1;
                    bf = a;
                    bt = b;
                    bp = sum;
                }
            }
        if (found && bt - bf > spread)
            found = 0;
        if (f.none != !found || (found && (f.from != bf + 1 || f.to != bt + 1))) {
            fprintf(stderr, "\ninterval brute force: seed %llu round %d: got none %d [%u, %u], want %d [%u, %u]\n",
                    (unsigned long long)at, round, f.none, f.from, f.to, found, bf + 1, bt + 1);
            CU_FAIL("decide differs from brute force");
            return;
        }
        if (found)
            CU_ASSERT_DOUBLE_EQUAL(f.prob, bp, 1e-12);
    }
}


/* ---- brute force over every future ---------------------------------------------- */

/* A random small automaton: some symbols impossible in some states. */
typedef struct small_dfa {
    int32_t next[6 * 3];
    uint8_t final[6];
    sremrt_fc_automaton a;
} small_dfa;

static void random_dfa(small_dfa *d, uint64_t *seed, uint32_t nsym)
{
    uint32_t n = 1 + (uint32_t)(fc_rand(seed) % 6), q, s;
    for (q = 0; q < n; q++) {
        d->final[q] = fc_rand(seed) % 3 == 0;
        for (s = 0; s < nsym; s++)
            d->next[q * nsym + s] = fc_rand(seed) % 7 == 0 ? -1 : (int32_t)(fc_rand(seed) % n);
    }
    d->a.nstates = n;
    d->a.nsym = nsym;
    d->a.start = (uint32_t)(fc_rand(seed) % n);
    d->a.next = d->next;
    d->a.final = d->final;
}

/* A pst with an irregular shape: learned on a short stream of a random
 * order-2 source. */
static sremrt_fc_pst *random_pst(uint64_t *seed, uint32_t nsym, uint32_t order)
{
    double dist[9][3];
    uint16_t seq[3000];
    uint32_t i, s, n = 300 + (uint32_t)(fc_rand(seed) % 2700);
    sremrt_fc_params p;
    sremrt_fc_counts *c;
    sremrt_fc_pst *t;
    for (i = 0; i < 9; i++) {
        double total = 0;
        for (s = 0; s < nsym; s++)
            total += dist[i][s] = fc_unit(seed) * fc_unit(seed) + 0.01;
        for (s = 0; s < nsym; s++)
            dist[i][s] /= total;
    }
    seq[0] = 0;
    seq[1] = 1 % nsym;
    for (i = 2; i < n; i++)
        seq[i] = fc_draw(seed, dist[seq[i - 1] * nsym + seq[i - 2] < 9 ? seq[i - 1] * nsym + seq[i - 2] : 0], nsym);
    c = fc_count_seq(seq, n, nsym, order, 1);
    sremrt_fc_params_default(&p);
    p.order = order;
    p.pmin = 0.01;
    p.r = 1.2;
    t = sremrt_fc_pst_learn(c, &p, NULL, 0);
    sremrt_fc_counts_free(c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    return t;
}

/* The brute force's model: where the next symbol's distribution comes from. */
typedef struct oracle {
    const sremrt_fc_automaton *a;
    const sremrt_fc_pst *t;
    int by_label;            /* 0: the whole true history; 1: Wayeb's label rule */
    uint32_t h;
    double *wt;
} oracle;

/* The label of a pst node, newest first, into buf; returns its length. */
static uint32_t label_of(const sremrt_fc_pst *t, uint32_t node, uint16_t *buf)
{
    uint32_t d = sremrt_fc_pst_depth(t, node), i;
    for (i = d; i > 0; i--, node = (uint32_t)sremrt_fc_pst_parent(t, node))
        buf[i - 1] = sremrt_fc_pst_symbol(t, node);
    return d;
}

/* Every future of length n + 1 .. h from state q: hist[0..len) is the true
 * history newest first (label rule: the node's label), with room before it. */
static void enumerate(const oracle *o, uint32_t q, uint16_t *hist, uint32_t len, uint32_t n, double mass)
{
    uint32_t nsym = o->a->nsym, s, node = sremrt_fc_pst_find(o->t, hist, len);
    double total = 0;
    for (s = 0; s < nsym; s++)
        if (o->a->next[q * nsym + s] >= 0)
            total += sremrt_fc_pst_prob(o->t, node, (uint16_t)s);
    for (s = 0; s < nsym && total > 0; s++) {
        int32_t to = o->a->next[q * nsym + s];
        double p;
        if (to < 0)
            continue;
        p = mass * sremrt_fc_pst_prob(o->t, node, (uint16_t)s) / total;
        if (o->a->final[to])
            o->wt[n] += p;
        else if (n + 1 < o->h) {
            hist[-1] = (uint16_t)s;
            if (o->by_label) {   /* forget what is older than the next node's label */
                uint32_t next = sremrt_fc_pst_find(o->t, hist - 1, len + 1);
                enumerate(o, (uint32_t)to, hist - 1, sremrt_fc_pst_depth(o->t, next), n + 1, p);
            } else
                enumerate(o, (uint32_t)to, hist - 1, len + 1, n + 1, p);
        }
    }
}

static int close_to(const double *got, const double *want, uint32_t h, double tol)
{
    uint32_t n;
    for (n = 0; n < h; n++)
        if (!(fabs(got[n] - want[n]) <= tol))
            return 0;
    return 1;
}

/* Closure mode: from random (state, history) pairs, the recursion equals
 * the enumeration with the pst applied to the true history; node mode:
 * from every (state, node) pair, the enumeration with the label rule. */
static void test_brute_force(void)
{
    uint64_t seed = 0x5eed0003;
    int round, closures = 0;
    for (round = 0; round < 150; round++) {
        uint64_t at = seed;
        uint32_t nsym = 2 + (uint32_t)(fc_rand(&seed) % 2), h = 1 + (uint32_t)(fc_rand(&seed) % 8);
        small_dfa d;
        sremrt_fc_pst *t;
        sremrt_fc_ctx *x, *nodes;
        double *wt, *wn, want[8];
        uint16_t buf[40];
        uint32_t k, q, s, i;
        random_dfa(&d, &seed, nsym);
        t = random_pst(&seed, nsym, 1 + (uint32_t)(fc_rand(&seed) % 3));
        x = sremrt_fc_ctx_build(t, 100000);
        nodes = sremrt_fc_ctx_build(t, 0);   /* no budget: node mode */
        CU_ASSERT_FATAL(x && nodes);
        CU_ASSERT_EQUAL(x->exact, 1);
        CU_ASSERT_EQUAL(nodes->exact, 0);
        CU_ASSERT_EQUAL(nodes->ncontexts, sremrt_fc_pst_nodes(t));
        closures += sremrt_fc_pst_nodes(t) > 1;
        wt = sremrt_fc_waiting_times(&d.a, x, h);
        wn = sremrt_fc_waiting_times(&d.a, nodes, h);
        CU_ASSERT_FATAL(wt && wn);
        for (k = 0; k < 20; k++) {
            /* a random history, oldest first into the context automaton */
            uint32_t len = (uint32_t)(fc_rand(&seed) % 7), c = x->start;
            oracle o = {&d.a, t, 0, h, want};
            for (i = 0; i < len; i++) {
                buf[39 - i] = (uint16_t)(fc_rand(&seed) % nsym);
                c = x->next[c * nsym + buf[39 - i]];
            }
            for (s = 0; s < nsym; s++)   /* the context's distribution is the pst's for the history */
                CU_ASSERT_EQUAL(x->prob[c * nsym + s],
                                sremrt_fc_pst_prob(t, sremrt_fc_pst_find(t, buf + 40 - len, len), (uint16_t)s));
            q = (uint32_t)(fc_rand(&seed) % d.a.nstates);
            memset(want, 0, sizeof want);
            enumerate(&o, q, buf + 40 - len, len, 0, 1.0);
            if (!close_to(wt + ((size_t)q * x->ncontexts + c) * h, want, h, 1e-12)) {
                fprintf(stderr, "\nclosure brute force: seed %llu round %d\n", (unsigned long long)at, round);
                CU_FAIL("closure waiting times differ from enumeration");
                break;
            }
        }
        for (q = 0; q < d.a.nstates; q++)
            for (k = 0; k < nodes->ncontexts; k++) {
                oracle o = {&d.a, t, 1, h, want};
                uint32_t len = label_of(t, k, buf + 24);
                memset(want, 0, sizeof want);
                enumerate(&o, q, buf + 24, len, 0, 1.0);
                if (!close_to(wn + ((size_t)q * nodes->ncontexts + k) * h, want, h, 1e-12)) {
                    fprintf(stderr, "\nnode-mode brute force: seed %llu round %d\n", (unsigned long long)at, round);
                    CU_FAIL("node-mode waiting times differ from enumeration");
                    q = d.a.nstates;
                    break;
                }
            }
        free(wt);
        free(wn);
        sremrt_fc_ctx_free(x);
        sremrt_fc_ctx_free(nodes);
        sremrt_fc_pst_free(t);
    }
    CU_ASSERT(closures > 100);   /* most trees had structure to close */
}


/* Monte Carlo: histories drawn from the pst applied to the true history,
 * through `A C` over {a, b, c}; the first-hit histogram within 4 standard
 * errors of the recursion's distribution, from the start and from "last
 * was a" after a warm-up. */
static void test_monte_carlo(void)
{
    static const int32_t next[] = {1, 0, 0, 1, 0, 2, 1, 0, 0};
    static const uint8_t final[] = {0, 0, 1};
    static const sremrt_fc_automaton ac = {3, 3, 0, next, final};
    static const double src[3][3] = {{.2, .3, .5}, {.6, .2, .2}, {.1, .1, .8}};
    enum { H = 12, RUNS = 100000 };
    uint64_t seed = 0x5eed0007;
    uint16_t seq[20000], buf[64];
    sremrt_fc_counts *c;
    sremrt_fc_params p;
    sremrt_fc_pst *t;
    sremrt_fc_ctx *x;
    double *wt;
    uint32_t i, run, start;
    sremrt_fc_params_default(&p);
    seq[0] = 0;
    for (i = 1; i < 20000; i++)   /* an order-1 source */
        seq[i] = fc_draw(&seed, src[seq[i - 1]], 3);
    c = fc_count_seq(seq, 20000, 3, 3, 1);
    t = sremrt_fc_pst_learn(c, &p, NULL, 0);
    x = sremrt_fc_ctx_build(t, 4096);
    CU_ASSERT_FATAL(t && x && x->exact);
    wt = sremrt_fc_waiting_times(&ac, x, H);
    CU_ASSERT_PTR_NOT_NULL_FATAL(wt);
    for (start = 0; start < 2; start++) {
        /* start 1: history "c a" (a newest): state 1 */
        uint32_t c0 = start ? x->next[x->next[x->start * 3 + 2] * 3 + 0] : x->start, q0 = start;
        uint32_t hits[H] = {0}, n;
        const double *w = wt + ((size_t)q0 * x->ncontexts + c0) * H;
        for (run = 0; run < RUNS; run++) {
            uint32_t len = 0, q = q0;
            if (start) {
                buf[63] = 2;
                buf[62] = 0;
                len = 2;
            }
            for (n = 0; n < H; n++) {
                double d[3];
                uint32_t node = sremrt_fc_pst_find(t, buf + 64 - len, len), s;
                for (s = 0; s < 3; s++)
                    d[s] = sremrt_fc_pst_prob(t, node, (uint16_t)s);
                s = fc_draw(&seed, d, 3);
                buf[64 - ++len] = (uint16_t)s;
                q = (uint32_t)next[q * 3 + s];
                if (final[q]) {
                    hits[n]++;
                    break;
                }
            }
        }
        for (n = 0; n < H; n++) {
            double got = (double)hits[n] / RUNS, se = sqrt(w[n] * (1 - w[n]) / RUNS);
            if (fabs(got - w[n]) > 4 * se + 1e-12)
                fprintf(stderr, "\nmonte carlo start %u n %u: %g, recursion %g (se %g)\n", start, n + 1, got, w[n], se);
            CU_ASSERT(fabs(got - w[n]) <= 4 * se + 1e-12);
        }
    }
    free(wt);
    sremrt_fc_ctx_free(x);
    sremrt_fc_pst_free(t);
    sremrt_fc_counts_free(c);
}

/* The table: reachable pairs (found here by relaxation until nothing
 * changes) have decide()'s forecast, the others 0; the pool has no two
 * equal forecasts. */
static void test_table(void)
{
    uint64_t seed = 0x5eed0008;
    int round;
    for (round = 0; round < 60; round++) {
        uint32_t nsym = 2 + (uint32_t)(fc_rand(&seed) % 2), C, q, c, s, i, j;
        small_dfa d;
        sremrt_fc_pst *t;
        sremrt_fc_ctx *x;
        sremrt_fc_spec sp;
        sremrt_fc_table *tab;
        double *wt;
        uint8_t *seen;
        int changed = 1;
        random_dfa(&d, &seed, nsym);
        t = random_pst(&seed, nsym, 2);
        x = sremrt_fc_ctx_build(t, round % 2 ? 4096 : 0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(x);
        C = x->ncontexts;
        memset(&sp, 0, sizeof sp);
        sp.kind = round % 3 ? SREMRT_FC_INTERVAL : SREMRT_FC_WITHIN;
        sp.theta = 0.2 + 0.7 * fc_unit(&seed);
        sp.horizon = 1 + (uint32_t)(fc_rand(&seed) % 30);
        sp.max_spread = (uint32_t)(fc_rand(&seed) % sp.horizon);
        sp.k = 1 + (uint32_t)(fc_rand(&seed) % sp.horizon);
        tab = sremrt_fc_table_build(&d.a, x, &sp);
        wt = sremrt_fc_waiting_times(&d.a, x, sp.horizon);
        seen = calloc((size_t)d.a.nstates * C, 1);
        CU_ASSERT_FATAL(tab && wt && seen);
        seen[d.a.start * C + x->start] = 1;
        while (changed) {
            changed = 0;
            for (q = 0; q < d.a.nstates; q++)
                for (c = 0; c < C; c++)
                    for (s = 0; s < nsym && seen[q * C + c]; s++) {
                        int32_t to = d.next[q * nsym + s];
                        if (to >= 0 && !seen[(uint32_t)to * C + x->next[c * nsym + s]]) {
                            seen[(uint32_t)to * C + x->next[c * nsym + s]] = 1;
                            changed = 1;
                        }
                    }
        }
        CU_ASSERT_EQUAL(tab->nstates, d.a.nstates);
        CU_ASSERT_EQUAL(tab->ncontexts, C);
        for (i = 0; i < d.a.nstates * C; i++) {
            sremrt_fc_forecast f = sremrt_fc_decide(wt + (size_t)i * sp.horizon, &sp);
            if (!seen[i] || f.none) {
                CU_ASSERT_EQUAL(tab->index[i], 0);
                continue;
            }
            CU_ASSERT_FATAL(tab->index[i] >= 1 && tab->index[i] <= tab->npool);
            CU_ASSERT_EQUAL(tab->pool[tab->index[i] - 1].from, f.from);
            CU_ASSERT_EQUAL(tab->pool[tab->index[i] - 1].to, f.to);
            CU_ASSERT_EQUAL(tab->pool[tab->index[i] - 1].positive, f.positive);
            CU_ASSERT_DOUBLE_EQUAL(tab->pool[tab->index[i] - 1].prob, f.prob, 1e-12);
        }
        for (i = 0; i < tab->npool; i++)
            for (j = i + 1; j < tab->npool; j++)
                CU_ASSERT(tab->pool[i].from != tab->pool[j].from || tab->pool[i].to != tab->pool[j].to
                          || tab->pool[i].positive != tab->pool[j].positive
                          || tab->pool[i].prob != tab->pool[j].prob);
        free(seen);
        free(wt);
        sremrt_fc_table_free(tab);
        sp.theta = round % 2 ? 0 : 1.5;   /* out of range: refused */
        CU_ASSERT_PTR_NULL(sremrt_fc_table_build(&d.a, x, &sp));
        sremrt_fc_ctx_free(x);
        sremrt_fc_pst_free(t);
    }
}

/* The forward propagation of a probability vector over the product, from
 * each start pair in turn (the pattern Markov chain's xi N^(n-1) (I - N) 1),
 * equals the backward recursion at horizons too long to enumerate. */
static void test_forward(void)
{
    uint64_t seed = 0x5eed000b;
    int round;
    for (round = 0; round < 40; round++) {
        uint32_t nsym = 2 + (uint32_t)(fc_rand(&seed) % 2), h = 60, C, P, start, n, i, s;
        small_dfa d;
        sremrt_fc_pst *t;
        sremrt_fc_ctx *x;
        double *wt, *v, *w;
        random_dfa(&d, &seed, nsym);
        t = random_pst(&seed, nsym, 3);
        x = sremrt_fc_ctx_build(t, round % 2 ? 4096 : 0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(x);
        C = x->ncontexts;
        P = d.a.nstates * C;
        wt = sremrt_fc_waiting_times(&d.a, x, h);
        v = malloc(P * sizeof *v);
        w = malloc(P * sizeof *w);
        CU_ASSERT_FATAL(wt && v && w);
        for (start = 0; start < P; start++) {
            memset(v, 0, P * sizeof *v);
            v[start] = 1;
            for (n = 0; n < h; n++) {
                double hit = 0;
                memset(w, 0, P * sizeof *w);
                for (i = 0; i < P; i++) {
                    uint32_t q = i / C, c = i % C;
                    double total = 0;
                    if (v[i] == 0)
                        continue;
                    for (s = 0; s < nsym; s++)
                        if (d.next[q * nsym + s] >= 0)
                            total += x->prob[c * nsym + s];
                    for (s = 0; s < nsym; s++) {
                        int32_t to = d.next[q * nsym + s];
                        if (to >= 0)
                            w[(uint32_t)to * C + x->next[c * nsym + s]] += v[i] * x->prob[c * nsym + s] / total;
                    }
                }
                for (i = 0; i < P; i++)   /* mass on a final state: detected, and it stops */
                    if (d.final[i / C]) {
                        hit += w[i];
                        w[i] = 0;
                    }
                memcpy(v, w, P * sizeof *v);
                if (fabs(hit - wt[(size_t)start * h + n]) > 1e-12) {
                    fprintf(stderr, "\nforward: round %d start %u n %u: %.17g, backward %.17g\n", round, start,
                            n + 1, hit, wt[(size_t)start * h + n]);
                    CU_FAIL("forward propagation differs");
                    start = P;
                    break;
                }
            }
        }
        free(v);
        free(w);
        free(wt);
        sremrt_fc_ctx_free(x);
        sremrt_fc_pst_free(t);
    }
}

void add_fc_wait_tests(void)
{
    CU_pSuite s = CU_add_suite("forecast: waiting times", NULL, NULL);
    CU_add_test(s, "A B closed form", test_closed_form_ab);
    CU_add_test(s, "any symbol", test_any_symbol);
    CU_add_test(s, "interval rule", test_interval_rule);
    CU_add_test(s, "within rule", test_within_rule);
    CU_add_test(s, "interval brute force", test_interval_brute);
    CU_add_test(s, "waiting times brute force", test_brute_force);
    CU_add_test(s, "forward propagation", test_forward);
    CU_add_test(s, "monte carlo", test_monte_carlo);
    CU_add_test(s, "table", test_table);
}
