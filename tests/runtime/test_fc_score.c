/* test_fc_score.c: the forecast scorer (runtime/fc_score.c) on
 * hand-computed streams and against a re-scoring of whole random streams
 * that knows the future. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "fc_test.h"
#include "rt.h"

static sremrt_fc_forecast fc(uint32_t from, uint32_t to, int positive)
{
    sremrt_fc_forecast f;
    memset(&f, 0, sizeof f);
    f.from = from;
    f.to = to;
    f.positive = positive;
    f.prob = 0.5;
    return f;
}

/* One key, events 0..9, detections at 4 and 9:
 *   t=0 [3,5] -> next detection 4 = 0+4: hit
 *   t=1 [1,2] -> 4 not in [2,3]: miss
 *   t=4 (the detection's own event) [6,8] -> next 9 is outside [10,12]: miss
 *   t=5 [4,4] -> 9 = 5+4: hit
 *   t=8 [2,3] -> 9 not in [10,11]: miss
 *   t=9 [1,1] -> past the end (10 > 9): not scored
 * detections: 4 (hit by t=0), 9 (hit by t=5). */
static void test_interval_hand(void)
{
    sremrt_fc_score *s = sremrt_fc_score_new(SREMRT_FC_INTERVAL);
    sremrt_fc_summary r;
    sremrt_fc_forecast f[10];
    int has[10] = {1, 1, 0, 0, 1, 1, 0, 0, 1, 1};
    uint32_t t;
    f[0] = fc(3, 5, 1);
    f[1] = fc(1, 2, 1);
    f[4] = fc(6, 8, 1);
    f[5] = fc(4, 4, 1);
    f[8] = fc(2, 3, 1);
    f[9] = fc(1, 1, 1);
    for (t = 0; t < 10; t++)
        CU_ASSERT_EQUAL(sremrt_fc_score_event(s, 0, t == 4 || t == 9, has[t] ? &f[t] : NULL), 0);
    sremrt_fc_score_summary(s, &r);
    CU_ASSERT_EQUAL(r.events, 10);
    CU_ASSERT_EQUAL(r.forecasts, 6);
    CU_ASSERT_EQUAL(r.scored, 5);
    CU_ASSERT_EQUAL(r.unscored, 1);
    CU_ASSERT_EQUAL(r.hits, 2);
    CU_ASSERT_EQUAL(r.detections, 2);
    CU_ASSERT_EQUAL(r.unpredicted, 0);
    CU_ASSERT_EQUAL(r.unforecast, 0);
    CU_ASSERT_DOUBLE_EQUAL(r.precision, 0.4, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(r.mean_spread, (2 + 1 + 2 + 0 + 1) / 5.0, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(r.mean_distance, (3 + 1 + 6 + 4 + 2) / 5.0, 1e-15);
    sremrt_fc_score_free(s);
}

/* Two keys interleaved; a forecast whose interval passes with no detection
 * before the end is a miss; a detection with no forecast before it. */
static void test_interval_keys(void)
{
    sremrt_fc_score *s = sremrt_fc_score_new(SREMRT_FC_INTERVAL);
    sremrt_fc_summary r;
    sremrt_fc_forecast a = fc(1, 2, 1), b = fc(1, 1, 1);
    /* key 0: events 0..3, forecast [1,2] at 0, no detection: passes at 2 <= 3: miss.
     * key 5: events 0..2, detection at 1 (nothing pending: unforecast),
     *        forecast [1,1] at 1 -> detection at 2: hit. */
    sremrt_fc_score_event(s, 0, 0, &a);
    sremrt_fc_score_event(s, 5, 0, NULL);
    sremrt_fc_score_event(s, 0, 0, NULL);
    sremrt_fc_score_event(s, 5, 1, &b);
    sremrt_fc_score_event(s, 0, 0, NULL);
    sremrt_fc_score_event(s, 5, 1, NULL);
    sremrt_fc_score_event(s, 0, 0, NULL);
    sremrt_fc_score_summary(s, &r);
    CU_ASSERT_EQUAL(r.scored, 2);
    CU_ASSERT_EQUAL(r.hits, 1);
    CU_ASSERT_EQUAL(r.unscored, 0);
    CU_ASSERT_EQUAL(r.detections, 2);
    CU_ASSERT_EQUAL(r.unforecast, 1);
    CU_ASSERT_EQUAL(r.unpredicted, 1);
    CU_ASSERT_DOUBLE_EQUAL(r.unpredicted_ratio, 0.5, 1e-15);
    sremrt_fc_score_free(s);
}

/* within 2: t=0 positive, detection at 2: TP; t=2 negative, none at 3, 4: TN;
 * t=3 positive, none at 4, 5: FP; t=5 negative, detection at 6: FN;
 * t=6 positive, past the end (7, 8 > 6): not scored. */
static void test_within_hand(void)
{
    sremrt_fc_score *s = sremrt_fc_score_new(SREMRT_FC_WITHIN);
    sremrt_fc_summary r;
    sremrt_fc_forecast pos = fc(1, 2, 1), neg = fc(1, 2, 0);
    const sremrt_fc_forecast *f[7] = {&pos, NULL, &neg, &pos, NULL, &neg, &pos};
    uint32_t t;
    for (t = 0; t < 7; t++)
        sremrt_fc_score_event(s, 3, t == 2 || t == 6, f[t]);
    sremrt_fc_score_summary(s, &r);
    CU_ASSERT_EQUAL(r.tp, 1);
    CU_ASSERT_EQUAL(r.tn, 1);
    CU_ASSERT_EQUAL(r.fp, 1);
    CU_ASSERT_EQUAL(r.fn, 1);
    CU_ASSERT_EQUAL(r.unscored, 1);
    CU_ASSERT_DOUBLE_EQUAL(r.precision, 0.5, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(r.recall, 0.5, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(r.f1, 0.5, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(r.mcc, 0, 1e-15);
    sremrt_fc_score_free(s);
    /* all positive and all hits: a margin (TN + FP... TN + FN) is 0: MCC 0 */
    s = sremrt_fc_score_new(SREMRT_FC_WITHIN);
    for (t = 0; t < 6; t++)
        sremrt_fc_score_event(s, 0, t % 2 == 1, &pos);
    sremrt_fc_score_summary(s, &r);
    CU_ASSERT_EQUAL(r.tp, 5);
    CU_ASSERT_EQUAL(r.fp + r.tn + r.fn, 0);
    CU_ASSERT_DOUBLE_EQUAL(r.mcc, 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(r.precision, 1, 0);
    sremrt_fc_score_free(s);
}

/* ---- re-scoring with the whole stream known ------------------------------ */

typedef struct ev {
    uint32_t key;
    int detected, has;
    sremrt_fc_forecast f;
} ev;

/* Scores every forecast by looking ahead for its key's next detection. */
static void rescore(const ev *e, size_t n, sremrt_fc_kind kind, sremrt_fc_summary *r)
{
    size_t i, j;
    uint64_t spread = 0, dist = 0;
    double tp, fp, tn, fn, m;
    memset(r, 0, sizeof *r);
    for (i = 0; i < n; i++) {
        uint64_t steps = 0;
        int next_found = 0, prev_hit = 0, any_before = 0;
        r->events++;
        if (e[i].detected) {
            /* this detection: was it hit by a forecast since the key's last one? */
            r->detections++;
            for (j = i; j-- > 0;) {
                uint64_t d = 0;
                size_t k;
                if (e[j].key != e[i].key)
                    continue;
                if (e[j].has) {
                    any_before = 1;
                    for (k = j + 1; k <= i; k++)
                        d += e[k].key == e[i].key;
                    prev_hit |= e[j].f.from <= d && d <= e[j].f.to;
                }
                if (e[j].detected)
                    break;
            }
            r->unpredicted += !prev_hit;
            r->unforecast += !any_before;
        }
        if (!e[i].has)
            continue;
        r->forecasts++;
        for (j = i + 1; j < n; j++) {
            if (e[j].key != e[i].key)
                continue;
            steps++;
            if (e[j].detected) {
                next_found = 1;
                break;
            }
        }
        if (!next_found) {
            /* steps = events after i of this key; passed if to <= steps */
            if (e[i].f.to > steps) {
                r->unscored++;
                continue;
            }
            steps = UINT64_MAX;   /* a miss */
        }
        r->scored++;
        spread += e[i].f.to - e[i].f.from;
        dist += e[i].f.from;
        {
            int hit = steps != UINT64_MAX && e[i].f.from <= steps && steps <= e[i].f.to;
            r->hits += hit;
            if (e[i].f.positive)
                *(hit ? &r->tp : &r->fp) += 1;
            else
                *(hit ? &r->fn : &r->tn) += 1;
        }
    }
    r->mean_spread = r->scored ? (double)spread / r->scored : 0;
    r->mean_distance = r->scored ? (double)dist / r->scored : 0;
    r->unpredicted_ratio = r->detections ? (double)r->unpredicted / r->detections : 0;
    tp = (double)r->tp, fp = (double)r->fp, tn = (double)r->tn, fn = (double)r->fn;
    r->precision = kind == SREMRT_FC_INTERVAL ? (r->scored ? (double)r->hits / r->scored : 0)
                                              : (tp + fp > 0 ? tp / (tp + fp) : 0);
    r->recall = tp + fn > 0 ? tp / (tp + fn) : 0;
    r->f1 = 2 * tp + fp + fn > 0 ? 2 * tp / (2 * tp + fp + fn) : 0;
    m = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn);
    r->mcc = m > 0 ? (tp * tn - fp * fn) / sqrt(m) : 0;
}

static int same(const sremrt_fc_summary *a, const sremrt_fc_summary *b)
{
    return a->events == b->events && a->forecasts == b->forecasts && a->scored == b->scored
           && a->unscored == b->unscored && a->hits == b->hits && a->detections == b->detections
           && a->unpredicted == b->unpredicted && a->unforecast == b->unforecast && a->tp == b->tp
           && a->fp == b->fp && a->tn == b->tn && a->fn == b->fn
           && fabs(a->precision - b->precision) < 1e-12 && fabs(a->mean_spread - b->mean_spread) < 1e-9
           && fabs(a->mean_distance - b->mean_distance) < 1e-9 && fabs(a->recall - b->recall) < 1e-12
           && fabs(a->f1 - b->f1) < 1e-12 && fabs(a->mcc - b->mcc) < 1e-9
           && fabs(a->unpredicted_ratio - b->unpredicted_ratio) < 1e-12;
}

static void test_rescore(void)
{
    uint64_t seed = 0x5eed0009;
    int round;
    for (round = 0; round < 300; round++) {
        uint64_t at = seed;
        size_t n = 1 + fc_rand(&seed) % 400, i;
        uint32_t keys = 1 + (uint32_t)(fc_rand(&seed) % 4), h = 1 + (uint32_t)(fc_rand(&seed) % 12);
        sremrt_fc_kind kind = round % 2 ? SREMRT_FC_WITHIN : SREMRT_FC_INTERVAL;
        double pdet = 0.02 + 0.3 * fc_unit(&seed), pfc = fc_unit(&seed);
        ev *e = calloc(n, sizeof *e);
        sremrt_fc_score *s = sremrt_fc_score_new(kind);
        sremrt_fc_summary got, want;
        CU_ASSERT_FATAL(e && s);
        for (i = 0; i < n; i++) {
            e[i].key = (uint32_t)(fc_rand(&seed) % keys) * 7;   /* sparse slots */
            e[i].detected = fc_unit(&seed) < pdet;
            e[i].has = fc_unit(&seed) < pfc;
            if (kind == SREMRT_FC_INTERVAL) {
                uint32_t a = 1 + (uint32_t)(fc_rand(&seed) % h);
                e[i].f = fc(a, a + (uint32_t)(fc_rand(&seed) % (h - a + 1)), 1);
            } else
                e[i].f = fc(1, h, fc_rand(&seed) % 2 == 0);
            CU_ASSERT_EQUAL(sremrt_fc_score_event(s, e[i].key, e[i].detected, e[i].has ? &e[i].f : NULL), 0);
        }
        sremrt_fc_score_summary(s, &got);
        rescore(e, n, kind, &want);
        if (!same(&got, &want)) {
            fprintf(stderr, "\nscore: seed %llu round %d: scored %llu/%llu hits %llu/%llu unscored %llu/%llu "
                    "unpredicted %llu/%llu unforecast %llu/%llu\n", (unsigned long long)at, round,
                    (unsigned long long)got.scored, (unsigned long long)want.scored,
                    (unsigned long long)got.hits, (unsigned long long)want.hits,
                    (unsigned long long)got.unscored, (unsigned long long)want.unscored,
                    (unsigned long long)got.unpredicted, (unsigned long long)want.unpredicted,
                    (unsigned long long)got.unforecast, (unsigned long long)want.unforecast);
            CU_FAIL("the scorer differs from the re-scoring");
        }
        free(e);
        sremrt_fc_score_free(s);
    }
}

/* Memory stays bounded by the horizon over a long run with no detection. */
static void test_long_quiet(void)
{
    sremrt_fc_score *s = sremrt_fc_score_new(SREMRT_FC_INTERVAL);
    sremrt_fc_forecast f = fc(2, 5, 1);
    sremrt_fc_summary r;
    uint32_t t;
    for (t = 0; t < 1000000; t++)
        CU_ASSERT_EQUAL_FATAL(sremrt_fc_score_event(s, 1, 0, &f), 0);
    sremrt_fc_score_summary(s, &r);
    CU_ASSERT_EQUAL(r.scored, 1000000 - 5);   /* the last 5 run past the end */
    CU_ASSERT_EQUAL(r.unscored, 5);
    CU_ASSERT_EQUAL(r.hits, 0);
    CU_ASSERT_DOUBLE_EQUAL(r.precision, 0, 0);
    CU_ASSERT_EQUAL(sremrt_fc_score_event(s, UINT32_MAX, 0, &f), -1);   /* no such slot */
    sremrt_fc_score_free(s);
}

void add_fc_score_tests(void)
{
    CU_pSuite s = CU_add_suite("forecast: scoring", NULL, NULL);
    CU_add_test(s, "interval by hand", test_interval_hand);
    CU_add_test(s, "interval, two keys", test_interval_keys);
    CU_add_test(s, "within by hand", test_within_hand);
    CU_add_test(s, "re-scoring random streams", test_rescore);
    CU_add_test(s, "long quiet run", test_long_quiet);
}
