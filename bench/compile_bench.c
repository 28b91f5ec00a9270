/* compile_bench.c: sample patterns x count windows 2..32 x strategies ->
 * a markdown table of automaton sizes and compile times (make compile-bench). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "frontend.h"
#include "sra_build.h"
#include "strategy.h"
#include "unroll.h"

/* The SRA paper's running example and the samples' shapes; %d is the
 * window. One schema per pattern keeps each file self-contained. */
static const struct {
    const char *name, *src;
} samples[] = {
    {"fire", "schema Sensor { type : enum { T, H }; id : int; value : float; }\n"
             "pattern fire on Sensor within %d events { x:T _* [type == H && id == x.id] }\n"},
    {"close", "schema Ship { lat : float; lon : float; }\n"
              "extern bool near(float, float, float, float);\n"
              "pattern close on Ship within %d events { x:_ _* [near(lat, lon, x.lat, x.lon)] }\n"},
    {"rising", "schema Trade { price : float; }\n"
               "pattern rising on Trade within %d events { x:_ [price > x.price] y:_ [price > y.price] }\n"},
    {"rising_gap", "schema Trade { price : float; }\n"
                   "pattern rising_gap on Trade within %d events {\n"
                   "  x:_ _* y:[price > x.price] _* [price > y.price] }\n"},
    {"fire_free", "schema Sensor { type : enum { T, H }; id : int; }\n"
                  "pattern fire_free on Sensor within %d events { T _* H }\n"},
};

static const int windows[] = {2, 3, 4, 6, 8, 12, 16, 24, 32};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static AstPattern *first_pattern(const Ast *ast)
{
    for (int i = 0; i < ast->ndecls; i++)
        if (ast->decls[i].kind == DECL_PATTERN)
            return ast->decls[i].u.pattern;
    return NULL;
}

/* One strategy's cell: "states / transitions / minterms | ms", "over
 * budget | ms" or "- | -" when it does not apply. Returns whether the
 * strategy was over the budget (larger windows are then skipped). */
static bool cell(const AstPattern *p, Strategy st, int max_states, bool skip, Arena *arena,
                 Diag *diag)
{
    if (skip) {
        printf(" over budget | |");
        return true;
    }
    StrategyOpts o = {st, max_states, RUNS_CAPACITY_DEFAULT, LAYOUT_AUTO, 0, 1};
    int before = diag->n;
    double t0 = now_ms();
    Plan *plan = strategy_plan(p, &o, arena, diag);
    double ms = now_ms() - t0;
    if (plan) {
        printf(" %d / %d / %d | %.1f |", plan->min->nstates, plan->min->ntrans, plan->min->ncubes,
               ms);
        return false;
    }
    bool over = diag->n > before && strstr(diag->entries[diag->n - 1].message, "budget");
    if (over)
        printf(" over budget | %.1f |", ms);
    else
        printf(" - | - |");
    return over;
}

/* One row: pattern name at window w. over[] remembers, per strategy,
 * that a smaller window was already over the budget. */
static void row(size_t sample, int w, int max_states, bool over[2])
{
    const char *name = samples[sample].name;
    char src[1024];
    snprintf(src, sizeof src, samples[sample].src, w);
    Arena arena;
    arena_init(&arena);
    Diag diag;
    diag_init(&diag, name, src, strlen(src));
    Ast *ast = frontend_parse_check(name, src, strlen(src), &arena, &diag);
    AstPattern *p = diag.nerrors ? NULL : first_pattern(ast);
    Sra *nfa = p ? sra_nfa_from_pattern(p, &arena, &diag, max_states) : NULL;
    if (!nfa) {
        diag_flush(&diag, stderr);
        exit(1);
    }
    Sra *unrolled = sra_unroll(nfa, w, &arena, &diag, max_states);
    printf("| %s | %d |", name, w);
    if (unrolled)
        printf(" %d |", unrolled->nstates);
    else
        printf(" over budget |");
    over[0] = cell(p, STRATEGY_DSRA, max_states, over[0], &arena, &diag);
    over[1] = cell(p, STRATEGY_TDFA, max_states, over[1], &arena, &diag);
    printf(" %d / %d |\n", nfa->nstates, nfa->ntrans);
    diag_free(&diag);
    arena_free(&arena);
}

int main(int argc, char **argv)
{
    int max_states = argc > 1 ? atoi(argv[1]) : SRA_MAX_STATES_DEFAULT;
    printf("State budget (--max-states): %d. Cells are states / transitions / minterms of\n"
           "the minimized automaton, then the time to build it from the checked pattern;\n"
           "runs walk the epsilon-free SRA (states / transitions), whatever the window.\n\n",
           max_states);
    printf("| pattern | w | unrolled states | dsra | dsra ms | tdfa | tdfa ms | runs |\n"
           "|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        bool over[2] = {false, false};
        for (size_t k = 0; k < sizeof windows / sizeof windows[0]; k++) {
            row(i, windows[k], max_states, over);
            fflush(stdout);
        }
    }
    return 0;
}
