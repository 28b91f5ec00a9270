/* fuzz_compiler.c: libFuzzer driver for the whole compiler: a pattern
 * file that checks goes through every automaton stage of every strategy
 * (small budgets), the simulators and code generation (auto strategy,
 * every layout); nothing may crash, leak or hang. */
#include <stdint.h>
#include <stdio.h>

#include "codegen.h"
#include "frontend.h"
#include "strategy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A few events of the pattern's schema, all attributes 0..2. */
static void simulate(const Plan *plan)
{
    enum { N = 12, MAX_ATTRS = 16 };
    const AstSchema *schema = plan->pattern->schema;
    if (!schema || schema->nattrs > MAX_ATTRS)
        return;
    Value values[N * MAX_ATTRS];
    for (int k = 0; k < N; k++)
        for (int a = 0; a < schema->nattrs; a++)
            values[k * schema->nattrs + a].i = (k * 7 + a * 3) % 3;
    Stream s = {N, schema->nattrs, values};
    bool det[N];
    if (plan->min)
        dsra_simulate(plan->min, &s, NULL, det);
    if (plan->runs)
        runs_simulate(plan->runs, &s, NULL, det, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Arena arena;
    arena_init(&arena);
    Diag diag;
    diag_init(&diag, "fuzz.srem", (const char *)data, size);
    Ast *ast = frontend_parse_check("fuzz.srem", (const char *)data, size, &arena, &diag);
    FILE *sink = fopen("/dev/null", "w");
    if (diag.nerrors == 0 && sink) {
        static const Strategy strategies[] = {STRATEGY_AUTO, STRATEGY_TDFA, STRATEGY_DSRA, STRATEGY_RUNS};
        for (int i = 0; i < ast->ndecls; i++) {
            if (ast->decls[i].kind != DECL_PATTERN)
                continue;
            for (size_t k = 0; k < sizeof strategies / sizeof strategies[0]; k++) {
                StrategyOpts o = {strategies[k], 300, 64, LAYOUT_AUTO, 0, 1};
                Plan *plan = strategy_plan(ast->decls[i].u.pattern, &o, &arena, &diag);
                if (!plan)
                    continue;
                for (PlanStage st = PLAN_UNROLLED; st <= PLAN_MIN; st++)
                    plan_dump(plan, st, k % 2 == 1, -1, &o, &arena, &diag, sink);
                simulate(plan);
            }
        }
        /* the C of the whole file, once per layout, into /dev/null */
        static const Layout layouts[] = {LAYOUT_AUTO, LAYOUT_TREE, LAYOUT_TABLE, LAYOUT_NODES, LAYOUT_CHAIN};
        for (size_t k = 0; k < sizeof layouts / sizeof layouts[0]; k++) {
            CgOptions co = {"fz", "fz.h", "fuzz.srem", NULL, {STRATEGY_AUTO, 300, 64, layouts[k]},
                            {16, 32, 64, 64}, k == 2, NULL, k == 3};
            Diag quiet;
            diag_init(&quiet, "fuzz.srem", (const char *)data, size);
            int n = 0;
            Plan **plans = strategy_plan_all(ast, &co.strategy, &arena, &quiet, &n);
            cg_emit(ast, plans, &co, &arena, &quiet, sink, sink);
            diag_free(&quiet);
        }
    }
    if (sink) {
        diag_flush(&diag, sink);
        fclose(sink);
    }
    diag_free(&diag);
    arena_free(&arena);
    return 0;
}
