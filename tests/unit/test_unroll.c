/* test_unroll.c: windowed unrolling and the runs strategy against the
 * epsilon-free SRA and the reference interpreter, on samples and seeds. */
#include <stdlib.h>
#include <string.h>

#include "../diff/gen.h"
#include "../diff/shrink.h"
#include "cost.h"
#include "interp.h"
#include "runs.h"
#include "sra_build.h"
#include "strategy.h"
#include "unit.h"
#include "unroll.h"

enum {
    N_UNROLL_SEEDS = 2000,   /* random patterns with registers, count windows */
    N_RUNS_SEEDS = 1000,     /* random patterns with time windows */
    N_PLAN_SEEDS = 600,      /* random patterns through strategy_plan */
    STREAM_LEN = 40
};

static const char FIRE[] =
    "schema Sensor { type : enum { T, H }; id : int; value : float; }\n"
    "pattern fire on Sensor within 3 events { x:T _* [type == H && id == x.id] }\n";

static AstPattern *first_pattern(const Ast *ast)
{
    for (int i = 0; i < ast->ndecls; i++)
        if (ast->decls[i].kind == DECL_PATTERN)
            return ast->decls[i].u.pattern;
    return NULL;
}

/* The shape sra_unroll promises: every transition goes one level deeper,
 * no state deeper than w (so no cycle and no walk longer than w), writes
 * go to the clone of the event's depth, reads to clones written before. */
static bool unrolled_shape_ok(const Sra *u, int w)
{
    if (u->window != w || !u->depth || u->depth[u->start] != 0)
        return false;
    for (int s = 0; s < u->nstates; s++)
        if (u->depth[s] < 0 || u->depth[s] > w)
            return false;
    for (int i = 0; i < u->ntrans; i++) {
        const SraTrans *t = &u->trans[i];
        int d = u->depth[t->from];
        if (t->eps || u->depth[t->to] != d + 1)
            return false;
        for (int k = 0; k < t->nwrites; k++)
            if (unroll_reg_depth(t->writes[k], w) != d + 1)
                return false;
        for (int l = 0; l < t->nlits; l++)
            for (int r = 0; t->lits[l].regmap && r < u->pattern->nregs; r++) {
                int clone = t->lits[l].regmap[r];
                if (unroll_reg_pattern(clone, w) != r || unroll_reg_depth(clone, w) > d)
                    return false;
            }
    }
    return true;
}

static void test_fire_small_windows(void)
{
    /* x:T _* [H && id == x.id] within w: the walks are T (_){0..w-2} H,
     * so one state per depth for the skip loop, and finals at 2..w. */
    for (int w = 2; w <= 6; w++) {
        Fixture fx;
        fx_run(&fx, FIRE, true);
        CU_ASSERT_EQUAL_FATAL(fx.nerrors, 0);
        AstPattern *p = first_pattern(fx.ast);
        Sra *nfa = sra_nfa_from_pattern(p, &fx.arena, &fx.diag, 1000);
        CU_ASSERT_PTR_NOT_NULL_FATAL(nfa);
        Sra *u = sra_unroll(nfa, w, &fx.arena, &fx.diag, 1000);
        CU_ASSERT_PTR_NOT_NULL_FATAL(u);
        CU_ASSERT(unrolled_shape_ok(u, w));
        CU_ASSERT_EQUAL(u->nregs, 1 * (w + 1));
        CU_ASSERT_EQUAL(u->nstates, 2 * w - 1);
        int nfinal = 0;
        for (int s = 0; s < u->nstates; s++)
            nfinal += u->final[s];
        CU_ASSERT_EQUAL(nfinal, w - 1);
        fx_done(&fx);
    }
}

/* A register read before any write: the transition can never fire and
 * disappears; a negated read of it always holds and loses the literal. */
static void test_empty_register_reads(void)
{
    Fixture fx;
    fx_run(&fx,
           "schema E { t : enum { A, B }; v : int; }\n"
           "pattern p on E within 4 events { ([v == x.v] | [t == B]) x:A [v == x.v] }\n",
           true);
    CU_ASSERT_EQUAL_FATAL(fx.nerrors, 0);
    AstPattern *p = first_pattern(fx.ast);
    Sra *nfa = sra_nfa_from_pattern(p, &fx.arena, &fx.diag, 1000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(nfa);
    Sra *u = sra_unroll(nfa, 4, &fx.arena, &fx.diag, 1000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(u);
    CU_ASSERT(unrolled_shape_ok(u, 4));
    /* Start: only [t == B] survives. */
    int from_start = 0;
    for (int i = 0; i < u->ntrans; i++)
        from_start += u->trans[i].from == u->start;
    CU_ASSERT_EQUAL(from_start, 1);
    CU_ASSERT_EQUAL(u->nstates, 4);
    fx_done(&fx);
}

static void test_budget_error(void)
{
    Fixture fx;
    fx_run(&fx,
           "schema E { t : enum { A, B }; v : int; }\n"
           "pattern wide on E within 200 events { x:A _* y:[v > x.v] _* [v > y.v] }\n",
           true);
    CU_ASSERT_EQUAL_FATAL(fx.nerrors, 0);
    AstPattern *p = first_pattern(fx.ast);
    Sra *nfa = sra_nfa_from_pattern(p, &fx.arena, &fx.diag, 1000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(nfa);
    Diag d;
    diag_init(&d, "t.srem", "", 0);
    CU_ASSERT_PTR_NULL(sra_unroll(nfa, 200, &fx.arena, &d, 500));
    CU_ASSERT_EQUAL(d.nerrors, 1);
    CU_ASSERT(d.n == 1 && strstr(d.entries[0].message, "'wide'") &&
              strstr(d.entries[0].message, "(within 200 events)") &&
              strstr(d.entries[0].message, "reached 501 states"));
    diag_free(&d);
    /* The same pattern fits once the budget allows it. */
    Sra *u = sra_unroll(nfa, 200, &fx.arena, &fx.diag, 1000000);
    CU_ASSERT_PTR_NOT_NULL(u);
    if (u)
        CU_ASSERT(unrolled_shape_ok(u, 200));
    fx_done(&fx);
}

/* ---- differential ------------------------------------------------------------------ */

typedef struct Case {
    Fixture     fx;
    AstPattern *p;
    Sra        *nfa;
    Stream      s;
    Value      *values;
    char        src[2048];
} Case;

/* Checks src and builds its NFA; false (nothing to free) when the pattern
 * does not fit the test or the NFA is over budget. */
static bool case_check(Case *c, const char *src, WindowKind want)
{
    fx_run(&c->fx, src, true);
    c->p = c->fx.nerrors ? NULL : first_pattern(c->fx.ast);
    c->nfa = NULL;
    if (c->p && c->p->hdr.window.kind == want)
        c->nfa = sra_nfa_from_pattern(c->p, &c->fx.arena, &c->fx.diag, 5000);
    if (!c->p || c->p->hdr.window.kind != want || !c->nfa) {
        fx_done(&c->fx);
        return false;
    }
    return true;
}

/* Generates pattern and stream for seed; false (nothing to free) when the
 * pattern does not fit the test or the NFA is over budget. */
static bool case_open(Case *c, uint64_t seed, const GenOpts *o, WindowKind want)
{
    Rng r = {seed};
    gen_pattern(&r, o, c->src, sizeof c->src);
    if (!case_check(c, c->src, want))
        return false;
    c->values = calloc((size_t)STREAM_LEN * GEN_NATTRS, sizeof *c->values);
    gen_stream(&r, STREAM_LEN, c->values);
    c->s = (Stream){STREAM_LEN, GEN_NATTRS, c->values};
    return true;
}

static void case_close(Case *c)
{
    free(c->values);
    fx_done(&c->fx);
}

static bool same_det(const bool *a, const bool *b, int n, uint64_t seed, const char *what,
                     const Case *c, bool report)
{
    if (memcmp(a, b, (size_t)n * sizeof *a) == 0)
        return true;
    if (!report)
        return false;
    fprintf(stderr, "\nseed %llu: %s differ\n", (unsigned long long)seed, what);
    for (int k = 0; k < n; k++)
        if (a[k] != b[k])
            fprintf(stderr, "  event %d: %d vs %d\n", k + 1, a[k], b[k]);
    fprintf(stderr, "pattern:\n");
    ast_dump_txt(c->fx.ast, stderr);
    return false;
}

/* The check of one case of each test: report says whether to print what
 * differs (the minimizer runs them quietly). */
typedef bool (*CaseOk)(const Case *c, uint64_t seed, bool report, int *extra);

/* The minimizer's predicate: the case checks, fits the test (ctx is
 * its Test) and fails it. */
typedef struct Test {
    const char *name;
    WindowKind  kind;
    CaseOk      ok;
} Test;

static bool case_fails(const char *src, const Value *values, int n, void *ctx)
{
    const Test *t = ctx;
    Case c = {0};
    if (!case_check(&c, src, t->kind))
        return false;
    c.s = (Stream){n, GEN_NATTRS, values};
    int extra = 0;
    bool fails = !t->ok(&c, 0, false, &extra);
    fx_done(&c.fx);
    return fails;
}

static void report_failure(const Test *t, uint64_t seed, const Case *c)
{
    shrink_report(t->name, seed, c->src, c->values, c->s.n, case_fails, (void *)t, 0);
}

/* Unrolled = NFA = runs (the fallback of count windows) = interpreter. */
static bool unroll_ok(const Case *c, uint64_t seed, bool report, int *extra)
{
    (void)extra;
    int n = c->s.n;
    int w = (int)c->p->hdr.window.value;
    Arena arena;
    arena_init(&arena);
    Diag quiet;
    diag_init(&quiet, "t.srem", "", 0);
    Sra *u = sra_unroll(c->nfa, w, &arena, &quiet, 100000);
    diag_free(&quiet);
    bool ok = u && unrolled_shape_ok(u, w);
    if (ok) {
        bool *want = calloc((size_t)n * 3 + 1, sizeof *want);
        bool *nfa_det = want + n, *u_det = want + 2 * n;
        interp_detect(c->p, &c->s, NULL, want);
        sra_simulate(c->nfa, &c->s, NULL, nfa_det);
        sra_simulate(u, &c->s, NULL, u_det);
        ok = same_det(want, nfa_det, n, seed, "interpreter and nfa", c, report) &&
             same_det(want, u_det, n, seed, "interpreter and unrolled", c, report);
        RunsStats st;
        runs_simulate(runs_new(c->nfa, 4096, &arena), &c->s, NULL, u_det, &st);
        ok = ok && st.overflow == 0 && same_det(want, u_det, n, seed, "interpreter and runs", c, report);
        free(want);
    } else if (report) {
        fprintf(stderr, "\nseed %llu: unrolling failed or malformed\n", (unsigned long long)seed);
    }
    arena_free(&arena);
    return ok;
}

static const Test unroll_test = {"unroll differential", WIN_EVENTS, unroll_ok};

static void test_unroll_differential(void)
{
    GenOpts o = {.registers = true, .complement = true, .intersection = true,
                 .partition = true, .policies = true, .max_window = 7};
    const int wanted = N_UNROLL_SEEDS * diff_scale();
    int tested = 0, failed = 0;
    for (uint64_t seed = 1; tested < wanted && seed < 20 * (uint64_t)wanted; seed++) {
        Case c = {0};
        if (!case_open(&c, seed, &o, WIN_EVENTS))
            continue;
        bool ok = unroll_ok(&c, seed, true, NULL);
        if (!ok && failed < 3)
            report_failure(&unroll_test, seed, &c);
        failed += !ok;
        tested++;
        case_close(&c);
    }
    diff_summary("unroll", tested, 0, failed);
    CU_ASSERT_EQUAL(tested, wanted);
    CU_ASSERT_EQUAL(failed, 0);
}

/* Runs with room for everything equal the interpreter; with a tiny array,
 * dropped runs can only lose detections, and none when nothing dropped.
 * *extra counts overflows of the tiny array. */
static bool runs_ok(const Case *c, uint64_t seed, bool report, int *extra)
{
    int n = c->s.n;
    Arena arena;
    arena_init(&arena);
    bool *want = calloc((size_t)n * 3 + 1, sizeof *want);
    bool *big = want + n, *tiny = want + 2 * n;
    interp_detect(c->p, &c->s, NULL, want);
    RunsStats st_big, st_tiny;
    runs_simulate(runs_new(c->nfa, 4096, &arena), &c->s, NULL, big, &st_big);
    runs_simulate(runs_new(c->nfa, 2, &arena), &c->s, NULL, tiny, &st_tiny);
    bool ok = st_big.overflow == 0 && same_det(want, big, n, seed, "runs", c, report);
    if (st_tiny.overflow == 0)
        ok = ok && same_det(want, tiny, n, seed, "runs (2)", c, report);
    else
        ++*extra;
    for (int k = 0; k < n; k++)
        ok = ok && (!tiny[k] || want[k]);
    free(want);
    arena_free(&arena);
    return ok;
}

static const Test runs_test = {"runs differential", WIN_TIME, runs_ok};

static void test_runs_differential(void)
{
    GenOpts o = {.registers = true, .time_window = true, .intersection = true,
                 .partition = true, .policies = true};
    const int wanted = N_RUNS_SEEDS * diff_scale();
    int tested = 0, failed = 0, overflowed = 0;
    for (uint64_t seed = 1; tested < wanted && seed < 40 * (uint64_t)wanted; seed++) {
        Case c = {0};
        if (!case_open(&c, seed, &o, WIN_TIME))
            continue;
        bool ok = runs_ok(&c, seed, true, &overflowed);
        if (!ok && failed < 3)
            report_failure(&runs_test, seed, &c);
        failed += !ok;
        tested++;
        case_close(&c);
    }
    diff_summary("runs", tested, 0, failed);
    CU_ASSERT_EQUAL(tested, wanted);
    CU_ASSERT_EQUAL(failed, 0);
    CU_ASSERT(overflowed > 0); /* the tiny array did overflow somewhere */
}

/* Detections of a plan, by the simulator of its strategy. */
static void plan_detect(const Plan *plan, const Stream *s, bool *det)
{
    if (plan->runs)
        runs_simulate(plan->runs, s, NULL, det, NULL);
    else
        dsra_simulate(plan->min, s, NULL, det);
}

/* auto under a code budget of 8 KB (cost.h): determinization stops at a
 * few states and cost_choose moves what does not fit to runs; the plan it
 * leaves has a layout and an estimate, and gives the interpreter's
 * detections (a chain over the budget has no automaton to simulate here:
 * the generated-code tests compare it). */
static bool budget_ok(const Case *c, uint64_t seed, bool report, const bool *want, bool *got, Arena *arena)
{
    StrategyOpts so = {STRATEGY_AUTO, 300, 4096, LAYOUT_AUTO, 8, 1};
    Diag d;
    diag_init(&d, "t.srem", "", 0);
    Plan *plan = strategy_plan(c->p, &so, arena, &d);
    bool ok = plan && cost_choose(&plan, 1, &so, arena, &d) && plan->cost && d.nerrors == 0 &&
              (plan->strategy == STRATEGY_RUNS) == (plan->layout == LAYOUT_AUTO);
    if (ok && (plan->runs || plan->min)) {
        plan_detect(plan, &c->s, got);
        ok = same_det(want, got, c->s.n, seed, "interpreter and auto under --max-code-kb 8", c, report);
    }
    diag_free(&d);
    return ok;
}

/* Every strategy that applies gives the interpreter's detections: auto
 * with a small budget (so that some dsra fall back to runs) and each
 * forced strategy, which either applies and agrees or reports an error.
 * extra (when not NULL) counts auto's choices, by strategy. */
static bool plans_ok(const Case *c, uint64_t seed, bool report, int *by)
{
    int n = c->s.n;
    Arena arena;
    arena_init(&arena);
    bool *want = calloc((size_t)n * 2 + 1, sizeof *want), *got = want + n;
    interp_detect(c->p, &c->s, NULL, want);
    bool ok = true;
    for (int st = STRATEGY_AUTO; st <= STRATEGY_RUNS; st++) {
        StrategyOpts so = {(Strategy)st, 300, 4096, LAYOUT_AUTO, 0, 1};
        Diag d;
        diag_init(&d, "t.srem", "", 0);
        Plan *plan = strategy_plan(c->p, &so, &arena, &d);
        bool applies = st == STRATEGY_AUTO || st == STRATEGY_RUNS ||
                       (st == STRATEGY_TDFA && c->p->nregs == 0) ||
                       (st == STRATEGY_DSRA && c->p->hdr.window.kind == WIN_EVENTS);
        if (plan) {
            if (by)
                by[st == STRATEGY_AUTO ? plan->strategy : 0]++;
            plan_detect(plan, &c->s, got);
            char what[64];
            snprintf(what, sizeof what, "interpreter and %s (as %s)",
                     strategy_name(plan->strategy), strategy_name((Strategy)st));
            ok = ok && same_det(want, got, n, seed, what, c, report);
            ok = ok && applies && plan->strategy != STRATEGY_AUTO &&
                 (st == STRATEGY_AUTO || plan->strategy == (Strategy)st);
        } else {
            /* Only a forced strategy may fail: does not apply or over budget. */
            ok = ok && st != STRATEGY_AUTO && d.nerrors == 1;
        }
        diag_free(&d);
    }
    ok = ok && budget_ok(c, seed, report, want, got, &arena);
    free(want);
    arena_free(&arena);
    return ok;
}

static bool plans_ok_quiet(const Case *c, uint64_t seed, bool report, int *extra)
{
    (void)extra;
    return plans_ok(c, seed, report, NULL);
}

static void test_plans_differential(void)
{
    GenOpts o = {.registers = true, .complement = true, .intersection = true,
                 .time_window = true, .partition = true, .policies = true, .max_window = 6};
    const int wanted = N_PLAN_SEEDS * diff_scale();
    int tested = 0, failed = 0, by[4] = {0};
    for (uint64_t seed = 1; tested < wanted; seed++) {
        Rng pick = {seed * 7919};
        o.registers = rng_int(&pick, 0, 1);
        Case c = {0};
        WindowKind want_kind = (WindowKind)rng_int(&pick, WIN_NONE, WIN_TIME);
        if (want_kind == WIN_NONE && o.registers)
            want_kind = WIN_EVENTS;
        if (!case_open(&c, seed, &o, want_kind))
            continue;
        bool ok = plans_ok(&c, seed, true, by);
        if (!ok && failed < 3) {
            Test t = {"strategy plans differential", want_kind, plans_ok_quiet};
            report_failure(&t, seed, &c);
        }
        failed += !ok;
        tested++;
        case_close(&c);
    }
    diff_summary("plans", tested, 0, failed);
    CU_ASSERT_EQUAL(failed, 0);
    /* auto used every strategy somewhere */
    CU_ASSERT(by[STRATEGY_TDFA] > 0 && by[STRATEGY_DSRA] > 0 && by[STRATEGY_RUNS] > 0);
}

/* A file's patterns share the code budget, so auto caps each automaton at
 * what the others leave (cost_state_cap): fire's 768-state dsra is not
 * built among 12 patterns in 64 KB, yet every pattern gets the strategy
 * and layout that planning each alone under the whole budget and then
 * choosing for the file gives. */
static void test_shared_state_cap(void)
{
    Fixture fx;
    char src[4096];
    int len = snprintf(src, sizeof src,
                       "schema E { type : enum { A, B, C, D, H, T }; id : int; v : int; value : float; }\n"
                       "pattern fire on E within 10 events { x:T _* [type == H && id == x.id && value > 60] }\n"
                       "pattern seven on E within 4 events { A [v > 3] _* (B | [id < 5]) C? [v %% 3 == 0] _* D }\n");
    for (int k = 0; k < 10; k++)
        len += snprintf(src + len, sizeof src - (size_t)len,
                        "pattern s%d on E within 4 events { x:A _* [v > x.v + %d] }\n", k, k);
    fx_run(&fx, src, true);
    CU_ASSERT_EQUAL_FATAL(fx.nerrors, 0);
    StrategyOpts so = {STRATEGY_AUTO, 100000, 1024, LAYOUT_AUTO, 64, 1};
    int n = 0;
    Plan **shared = strategy_plan_all(fx.ast, &so, &fx.arena, &fx.diag, &n);
    CU_ASSERT_EQUAL_FATAL(n, 12);
    Plan *alone[12];
    for (int i = 0, k = 0; k < fx.ast->ndecls; k++)
        if (fx.ast->decls[k].kind == DECL_PATTERN)
            alone[i++] = strategy_plan(fx.ast->decls[k].u.pattern, &so, &fx.arena, &fx.diag);
    CU_ASSERT_PTR_NOT_NULL_FATAL(alone[0]);
    CU_ASSERT_PTR_NOT_NULL(alone[0]->min);   /* alone, fire's dsra fits the state cap */
    cost_choose(alone, n, &so, &fx.arena, &fx.diag);
    for (int i = 0; i < n; i++) {
        CU_ASSERT_PTR_NOT_NULL_FATAL(shared[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(alone[i]);
        CU_ASSERT_EQUAL(shared[i]->strategy, alone[i]->strategy);
        CU_ASSERT_EQUAL(shared[i]->layout, alone[i]->layout);
    }
    CU_ASSERT(strstr(shared[0]->reason, "room for") != NULL);   /* shared, it never was built */
    CU_ASSERT_EQUAL(shared[0]->strategy, STRATEGY_RUNS);
    CU_ASSERT_EQUAL(fx.diag.nerrors, 0);
    fx_done(&fx);
}

void add_unroll_tests(void)
{
    CU_pSuite s = CU_add_suite("unroll", NULL, NULL);
    CU_add_test(s, "fire pattern, small windows", test_fire_small_windows);
    CU_add_test(s, "reads of empty registers", test_empty_register_reads);
    CU_add_test(s, "state budget", test_budget_error);
    CU_add_test(s, "a file's patterns share the state cap", test_shared_state_cap);
    CU_add_test(s, "unrolled = nfa = interpreter on random patterns", test_unroll_differential);
    CU_add_test(s, "runs = interpreter on random time-window patterns", test_runs_differential);
    CU_add_test(s, "every strategy = interpreter on random patterns", test_plans_differential);
}
