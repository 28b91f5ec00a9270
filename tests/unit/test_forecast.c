/* test_forecast.c: the symbols of forecast patterns (compiler/forecast.c):
 * each event takes one transition of the automaton, the symbol automaton
 * steps as the automaton does, and its final states are the detections of
 * the reference interpreter (windows included where the plan is exact). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "forecast.h"
#include "interp.h"
#include "unit.h"

enum { STREAMS = 40, STREAM_LEN = 60 };

static const char schema[] = "schema S { type : enum { A, B, C }; v : int; }\n";

/* Bodies and windows whose forecast automaton is exact (docs/forecasting.md,
 * "Windows"): no window, or a count window the unrolled automaton holds. */
static const char *const cases[] = {
    "pattern p on S { A B } forecast interval confidence 0.5",
    "pattern p on S { A _* B } forecast interval confidence 0.5",
    "pattern p on S { [v > 2] (B | C)* A } forecast within 3 events confidence 0.5",
    "pattern p on S { A [v < 3]* B C } forecast interval confidence 0.5",
    "pattern p on S partition by v { A _* B } forecast interval confidence 0.5",
    "pattern p on S within 4 events { A _* B } forecast interval confidence 0.5",
    "pattern p on S within 3 events { x:A _* [type == B && v == x.v] } forecast interval confidence 0.5",
};

/* xorshift64*, seeded per case and stream, printed on failure */
static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717u;
}

/* The symbols of one substream's events, walking each state's tree with the
 * atoms evaluated on the event (registers read by age, as a dsra does);
 * det[k]: the symbol automaton enters a final state. False on a mismatch
 * between the tree's transition and the symbol automaton. */
static bool symbols_detect(const Plan *plan, const FcSymbols *sy, const Value *ev, const int *idx, int n, bool *det)
{
    const Dsra *d = plan->min;
    int q = 0;
    for (int k = 0; k < n; k++) {
        const DsraState *st = &d->states[q];
        int sym = sy->stay;
        if (st->nnodes > 0) {
            const DsraNode *nd = &st->nodes[0];
            while (nd->atom >= 0) {
                const MtAtom *a = &d->mt->atoms[nd->atom];
                const Value *regs[64] = {0};
                for (int r = 0; r < plan->pattern->nregs && r < 64; r++) {
                    int age = a->regmap ? a->regmap[r] : -1;
                    regs[r] = age >= 1 && k - age >= 0 ? &ev[(size_t)idx[k - age] * 2] : NULL;
                }
                EvalCtx ctx = {&ev[(size_t)idx[k] * 2], regs, NULL, NULL};
                nd = &st->nodes[eval_cond(a->expr, &ctx) ? nd->hi : nd->lo];
            }
            sym = nd->trans;
            if (d->trans[sym].from != q)
                return false;
        }
        int to = sy->next[(size_t)q * sy->a.nsym + (size_t)sym];
        if (to < 0 || (st->nnodes > 0 && to != d->trans[sym].to))
            return false;
        q = to;
        det[idx[k]] = sy->final[q];
    }
    return true;
}

static void test_symbols_detect(void)
{
    StrategyOpts o = {STRATEGY_AUTO, 100000, 0, LAYOUT_AUTO, 320, 0};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char src[512];
        snprintf(src, sizeof src, "%s%s\n", schema, cases[c]);
        Fixture fx;
        fx_run(&fx, src, true);
        CU_ASSERT_EQUAL_FATAL(fx.nerrors, 0);
        int np = 0;
        Plan **plans = strategy_plan_all(fx.ast, &o, &fx.arena, &fx.diag, &np);
        CU_ASSERT_FATAL(np == 1 && plans[0] && plans[0]->min);
        const FcSymbols *sy = forecast_symbols(plans[0], &fx.arena);
        const AstPattern *p = plans[0]->pattern;
        bool part = p->partition_attr != NULL;
        for (int t = 0; t < STREAMS; t++) {
            uint64_t seed = 0x9E3779B97F4A7C15u * (c * STREAMS + (size_t)t + 1);
            uint64_t r = seed;
            Value ev[STREAM_LEN * 2];
            for (int k = 0; k < STREAM_LEN; k++) {
                ev[2 * k].i = (int64_t)(next_rand(&r) % 3);
                ev[2 * k + 1].i = (int64_t)(next_rand(&r) % 4);
            }
            Stream s = {STREAM_LEN, 2, ev};
            bool want[STREAM_LEN], got[STREAM_LEN];
            memset(got, 0, sizeof got);
            interp_detect(p, &s, NULL, want);
            bool ok = true;
            for (int64_t key = 0; key < (part ? 4 : 1); key++) {   /* each substream on its own */
                int idx[STREAM_LEN], n = 0;
                for (int k = 0; k < STREAM_LEN; k++)
                    if (!part || ev[2 * k + 1].i == key)
                        idx[n++] = k;
                ok &= symbols_detect(plans[0], sy, ev, idx, n, got);
            }
            for (int k = 0; k < STREAM_LEN && ok; k++)
                ok = got[k] == want[k];
            if (!ok)
                fprintf(stderr, "\nforecast symbols: case %zu (%s), seed %llu: the symbol automaton's finals are "
                                "not the detections\n",
                        c, cases[c], (unsigned long long)seed);
            CU_ASSERT(ok);
        }
        diag_free(&fx.diag);   /* what planning added after fx_run flushed */
        fx_done(&fx);
    }
}

/* A register-free pattern with a count window is planned as a dsra for a
 * forecast (its finals count the window); a time window keeps the tdfa and
 * warns; runs cannot be forecast. */
static void test_plans(void)
{
    StrategyOpts o = {STRATEGY_AUTO, 100000, 0, LAYOUT_AUTO, 320, 0};
    const char *src = "schema S { type : enum { A, B }; id : int; t : timestamp(s); }\n"
                      "pattern w on S within 4 events { A _* B } forecast interval confidence 0.5\n"
                      "pattern d on S within 5 s { A _* B } forecast interval confidence 0.5\n"
                      "pattern r on S within 5 s { x:A [id == x.id] } forecast interval confidence 0.5\n";
    Fixture fx;
    fx_run(&fx, src, true);
    CU_ASSERT_EQUAL_FATAL(fx.nerrors, 0);
    int np = 0;
    Plan **plans = strategy_plan_all(fx.ast, &o, &fx.arena, &fx.diag, &np);
    CU_ASSERT_EQUAL_FATAL(np, 3);
    CU_ASSERT(plans[0] && plans[0]->strategy == STRATEGY_DSRA && plans[0]->layout == LAYOUT_TREE);
    CU_ASSERT(plans[1] && plans[1]->strategy == STRATEGY_TDFA && plans[1]->layout == LAYOUT_TREE);
    CU_ASSERT(plans[2] == NULL);
    CU_ASSERT(fx.diag.nwarnings >= 1);
    CU_ASSERT(fx.diag.nerrors >= 1);
    diag_free(&fx.diag);
    fx_done(&fx);
}

void add_forecast_tests(void)
{
    CU_pSuite s = CU_add_suite("forecast symbols", NULL, NULL);
    CU_add_test(s, "symbol automaton finals = interpreter detections", test_symbols_detect);
    CU_add_test(s, "plans of forecast patterns", test_plans);
}
