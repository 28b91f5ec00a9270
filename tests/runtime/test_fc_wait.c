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
        if (p == 0.3) {   /* forecasting.md section 4 (b.1) */
            CU_ASSERT_DOUBLE_EQUAL(wt[3], .1659, 1e-12);
            CU_ASSERT_DOUBLE_EQUAL(wt[h + 2], .063, 1e-12);
        }
        free(wt);
        sremrt_fc_ctx_free(x);
    }
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

void add_fc_wait_tests(void)
{
    CU_pSuite s = CU_add_suite("forecast: waiting times", NULL, NULL);
    CU_add_test(s, "A B closed form", test_closed_form_ab);
    CU_add_test(s, "interval rule", test_interval_rule);
    CU_add_test(s, "within rule", test_within_rule);
    CU_add_test(s, "interval brute force", test_interval_brute);
}
