/* strategy.c: checked pattern -> epsilon-free SRA -> tdfa, dsra (unrolled,
 * determinized, minimized) or runs, by --strategy and the state budget. */
#include "strategy.h"

#include <limits.h>
#include <string.h>

#include "cost.h"
#include "forecast.h"
#include "sra_build.h"
#include "unroll.h"

static const char *const strategy_names[] = {"auto", "tdfa", "dsra", "runs"};

bool strategy_parse(const char *name, Strategy *out)
{
    for (int i = 0; i < (int)(sizeof strategy_names / sizeof strategy_names[0]); i++)
        if (strcmp(name, strategy_names[i]) == 0) {
            *out = (Strategy)i;
            return true;
        }
    return false;
}

const char *strategy_name(Strategy s) { return strategy_names[s]; }

/* ---- building the stages ------------------------------------------------------ */

/* A Diag that collects and forgets: auto tries a strategy and, when it
 * does not fit, falls back without reporting anything. */
static Diag *quiet_diag(Diag *quiet, const Diag *real)
{
    diag_init(quiet, real->path, real->src, real->len);
    return quiet;
}

/* The count window as sra_unroll takes it: above INT_MAX it stays above
 * any state budget (a cast would wrap: 2^32 + 1 events became 1). */
static int unroll_window(const Plan *plan)
{
    int64_t w = plan->pattern->hdr.window.value;
    return w > INT_MAX ? INT_MAX : (int)w;
}

/* Unrolls, determinizes and minimizes into plan; false (errors in diag)
 * when a stage is over the budget. */
static bool build_dsra(Plan *plan, int max_states, Arena *arena, Diag *diag)
{
    plan->unrolled = sra_unroll(plan->nfa, unroll_window(plan), arena, diag, max_states);
    if (!plan->unrolled)
        return false;
    plan->dfa = dsra_determinize(plan->unrolled, max_states, arena, diag);
    if (!plan->dfa)
        return false;
    plan->min = dsra_minimize(plan->dfa, arena);
    return true;
}

static bool build_tdfa(Plan *plan, int max_states, Arena *arena, Diag *diag)
{
    plan->dfa = dsra_determinize(plan->nfa, max_states, arena, diag);
    if (!plan->dfa)
        return false;
    plan->min = dsra_minimize(plan->dfa, arena);
    return true;
}

void plan_use_runs(Plan *plan, const StrategyOpts *o, Arena *arena, const char *reason)
{
    plan->strategy = STRATEGY_RUNS;
    plan->unrolled = NULL;
    plan->dfa = plan->min = NULL;
    plan->runs = runs_new(plan->nfa, o->max_runs, arena);
    plan->reason = reason;
}

/* The plan of a chain (chain.h) whose automaton does not fit: it needs none. */
static const char chain_reason[] = "register-free; its automaton is over the state budget, but the "
                                   "pattern is a chain: one latest-position tag per atom, no automaton";

/* A register-free pattern whose tdfa does not fit: a chain needs no
 * automaton, anything else falls back to runs. */
static void over_budget(Plan *plan, const StrategyOpts *o, Arena *arena, bool capped)
{
    plan->dfa = plan->min = NULL;
    if (plan->chain)
        plan->reason = chain_reason;
    else
        plan_use_runs(plan, o, arena, capped
                      ? "register-free, but the tdfa is over the states the code budget has room for"
                      : "register-free, but the tdfa is over the state budget");
}

/* auto's state budget: --max-states (memory), and no more than the code
 * budget has room for, so that sremc stops early where no layout fits;
 * *capped: the code budget's cap is the one that binds. */
static int auto_states(const StrategyOpts *o, bool *capped)
{
    int cap = cost_state_cap(o->max_code_kb, o->npatterns);
    *capped = cap < o->max_states;
    return *capped ? cap : o->max_states;
}

/* auto: the fastest strategy that applies and fits, else runs. */
static void choose(Plan *plan, const StrategyOpts *o, Arena *arena, const Diag *diag)
{
    const AstPattern *p = plan->pattern;
    bool capped;
    int max_states = auto_states(o, &capped);
    Diag quiet;
    if (p->nregs == 0) {
        plan->strategy = STRATEGY_TDFA;
        plan->reason = "register-free";
        if (!build_tdfa(plan, max_states, arena, quiet_diag(&quiet, diag)))
            over_budget(plan, o, arena, capped);
        diag_free(&quiet);
    } else if (p->hdr.window.kind == WIN_EVENTS) {
        plan->strategy = STRATEGY_DSRA;
        plan->reason = "registers and a count window";
        if (!build_dsra(plan, max_states, arena, quiet_diag(&quiet, diag)))
            plan_use_runs(plan, o, arena, capped
                          ? "registers and a count window, but the dsra is over the states the code "
                            "budget has room for"
                          : "registers and a count window, but the dsra is over the state budget");
        diag_free(&quiet);
    } else {
        plan_use_runs(plan, o, arena, "registers and a time window");
    }
}

/* "x, y": the registers a pattern writes, for errors. */
static const char *reg_list(const AstPattern *p, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int r = 0; r < p->nregs && len + 1 < size; r++) {
        int n = snprintf(buf + len, size - len, "%s%s", r ? ", " : "", p->regs[r].name);
        len = n < 0 ? len : len + (size_t)n;
    }
    return buf;
}

/* A forced strategy: build it or say why it does not apply. */
static bool force(Plan *plan, const StrategyOpts *o, Arena *arena, Diag *diag)
{
    const AstPattern *p = plan->pattern;
    char win[96], regs[256];
    sra_window_text(p, win, sizeof win);
    plan->strategy = o->strategy;
    switch (o->strategy) {
    case STRATEGY_TDFA:
        plan->reason = "forced by --strategy tdfa";
        if (p->nregs > 0) {
            diag_error(diag, p->loc,
                       "pattern '%s' (%s) writes registers (%s): --strategy tdfa matches "
                       "register-free patterns only; use --strategy dsra or runs",
                       p->name, win, reg_list(p, regs, sizeof regs));
            return false;
        }
        if (plan->chain) {
            Diag quiet;
            if (!build_tdfa(plan, o->max_states, arena, quiet_diag(&quiet, diag)))
                over_budget(plan, o, arena, false);
            diag_free(&quiet);
            return true;
        }
        return build_tdfa(plan, o->max_states, arena, diag);
    case STRATEGY_DSRA:
        plan->reason = "forced by --strategy dsra";
        if (p->hdr.window.kind != WIN_EVENTS) {
            diag_error(diag, p->loc,
                       "pattern '%s' (%s): --strategy dsra needs a count window "
                       "('within N events'); use --strategy runs",
                       p->name, win);
            return false;
        }
        return build_dsra(plan, o->max_states, arena, diag);
    case STRATEGY_RUNS:
    case STRATEGY_AUTO:
        break;
    }
    plan_use_runs(plan, o, arena, "forced by --strategy runs");
    return true;
}

Plan *strategy_plan(const AstPattern *p, const StrategyOpts *o, Arena *arena, Diag *diag)
{
    Plan *plan = arena_alloc(arena, sizeof *plan);
    plan->pattern = p;
    plan->layout = o->layout;
    plan->chain = chain_of(p, arena);
    if (plan->chain && (o->strategy == STRATEGY_AUTO || o->strategy == STRATEGY_TDFA)) {
        /* a chain needs no automaton: `A _{0,100000} B` unrolls into an
         * NFA over any budget, and its tags match it all the same */
        Diag quiet;
        plan->nfa = sra_nfa_from_pattern(p, arena, quiet_diag(&quiet, diag), o->max_states);
        diag_free(&quiet);
        if (!plan->nfa) {
            plan->strategy = STRATEGY_TDFA;
            plan->reason = chain_reason;
            return plan;
        }
    } else {
        plan->nfa = sra_nfa_from_pattern(p, arena, diag, o->max_states);
        if (!plan->nfa)
            return NULL;
    }
    if (o->strategy == STRATEGY_AUTO)
        choose(plan, o, arena, diag);
    else if (!force(plan, o, arena, diag))
        return NULL;
    return plan;
}

/* ---- printing ------------------------------------------------------------------------ */

static const char *const stage_names[] = {"unrolled", "dfa", "min"};

/* A graph with only a label, where a stage has nothing to draw. */
static void dot_note(const Plan *plan, const char *note, int cluster, FILE *out)
{
    if (cluster >= 0)
        fprintf(out, "  subgraph cluster_%d {\n    label=\"%s\";\n    p%d_note [shape=plaintext, "
                "label=\"%s\"];\n  }\n", cluster, plan->pattern->name, cluster, note);
    else
        fprintf(out, "digraph \"%s\" {\n  label=\"%s: %s\";\n}\n", plan->pattern->name,
                plan->pattern->name, note);
}

static void header(const Plan *plan, FILE *out)
{
    fprintf(out, "pattern %s: strategy %s (%s)\n", plan->pattern->name,
            strategy_name(plan->strategy), plan->reason);
}

/* The unrolled SRA: the plan's (dsra), else built for the dump when the
 * pattern has a count window. NULL with *note set when there is none. */
static const Sra *unrolled_of(Plan *plan, const StrategyOpts *o, Arena *arena, Diag *diag,
                              const char **note, bool *failed)
{
    if (plan->unrolled)
        return plan->unrolled;
    if (!plan->nfa) {
        *note = "no unrolled automaton: the chain's tags match the pattern";
        return NULL;
    }
    if (plan->pattern->hdr.window.kind != WIN_EVENTS) {
        *note = "no unrolled automaton: unrolling needs a count window";
        return NULL;
    }
    const Sra *u = sra_unroll(plan->nfa, unroll_window(plan), arena, diag, o->max_states);
    *failed = !u;
    return u;
}

bool plan_dump(Plan *plan, PlanStage stage, bool dot, int cluster, const StrategyOpts *o,
               Arena *arena, Diag *diag, FILE *out)
{
    const char *note = NULL;
    bool failed = false;
    const Sra *sra = NULL;
    const Dsra *d = NULL;
    if (stage == PLAN_UNROLLED)
        sra = unrolled_of(plan, o, arena, diag, &note, &failed);
    else if (!(d = stage == PLAN_DFA ? plan->dfa : plan->min))
        note = plan->chain ? "no deterministic automaton: the chain's tags match the pattern"
                           : "no deterministic automaton: runs walk the epsilon-free SRA";
    if (failed)
        return false;
    if (dot) {
        if (note)
            dot_note(plan, note, cluster, out);
        else if (sra && cluster >= 0)
            sra_dump_dot_cluster(sra, plan->pattern->name, cluster, out);
        else if (sra)
            sra_dump_dot(sra, plan->pattern->name, out);
        else
            dsra_dump_dot(d, plan->pattern->name, out);
        return true;
    }
    header(plan, out);
    if (note) {
        fprintf(out, "%s (stage %s)\n", note, stage_names[stage]);
        if (plan->runs && stage != PLAN_UNROLLED)
            runs_dump_txt(plan->runs, out);
        else if (plan->chain && stage != PLAN_UNROLLED)
            chain_dump_txt(plan->chain, plan->pattern->name, out);
    } else if (sra) {
        sra_dump_txt(sra, out);
    } else {
        dsra_dump_txt(d, out);
    }
    return true;
}

static const char *const layout_names[] = {"auto", "tree", "table", "nodes", "chain"};

bool layout_parse(const char *name, Layout *out)
{
    for (int i = 0; i < (int)(sizeof layout_names / sizeof layout_names[0]); i++)
        if (strcmp(name, layout_names[i]) == 0) {
            *out = (Layout)i;
            return true;
        }
    return false;
}

const char *layout_name(Layout l)
{
    return layout_names[l];
}

Plan **strategy_plan_all(const Ast *ast, const StrategyOpts *o, Arena *arena, Diag *diag, int *npatterns)
{
    int n = 0;
    for (int k = 0; k < ast->ndecls; k++)
        n += ast->decls[k].kind == DECL_PATTERN;
    Plan **plans = arena_alloc(arena, ((size_t)n + 1) * sizeof *plans);
    StrategyOpts shared = *o;   /* the n patterns share the code budget */
    shared.npatterns = n;
    n = 0;
    for (int k = 0; k < ast->ndecls; k++)
        if (ast->decls[k].kind == DECL_PATTERN)
            plans[n++] = strategy_plan(ast->decls[k].u.pattern, &shared, arena, diag);
    *npatterns = n;
    forecast_prepare(plans, n, o, arena, diag);
    cost_choose(plans, n, o, arena, diag);
    forecast_check_plans(plans, n, o, diag);
    return plans;
}
