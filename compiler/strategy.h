/* strategy.h: checked pattern -> the automata of its matching strategy
 * (tdfa, dsra or runs: docs/design.md), chosen under the state budget. */
#ifndef SREMC_STRATEGY_H
#define SREMC_STRATEGY_H

#include <stdbool.h>
#include <stdio.h>

#include "chain.h"
#include "dsra.h"
#include "runs.h"
#include "sra.h"

typedef enum Strategy { STRATEGY_AUTO, STRATEGY_TDFA, STRATEGY_DSRA, STRATEGY_RUNS } Strategy;

/* --layout: how the code of a tdfa or dsra reads. tree: decision trees
 * as code; table: transition tables indexed by an event class (where the
 * events fall into few classes); nodes: decision trees as static const
 * node arrays walked by one loop (code size independent of the
 * automaton); chain: latest-position tags (where the pattern is one,
 * compiler/chain.h; else as auto). */
typedef enum Layout { LAYOUT_AUTO, LAYOUT_TREE, LAYOUT_TABLE, LAYOUT_NODES, LAYOUT_CHAIN } Layout;

/* "auto", "tree", "table", "nodes", "chain". */
bool        layout_parse(const char *name, Layout *out);
const char *layout_name(Layout l);

/* "auto", "tdfa", "dsra", "runs" (--strategy). */
bool        strategy_parse(const char *name, Strategy *out);
const char *strategy_name(Strategy s);

typedef struct StrategyOpts {
    Strategy strategy;     /* AUTO: choose; else forced */
    int      max_states;   /* budget of every automaton stage */
    int      max_runs;     /* run capacity of the runs strategy */
    Layout   layout;       /* AUTO: choose; else forced (--layout) */
    long     max_code_kb;  /* code budget of a file (cost.h); 0: none, and
                              auto takes each plan's fastest layout */
    int      npatterns;    /* patterns sharing that budget (0 or 1: one), which
                              lowers auto's state cap (cost_state_cap) */
} StrategyOpts;

struct Cost;

/* One pattern's plan: the chosen strategy, why, and the stages it built. */
typedef struct Plan {
    const AstPattern *pattern;
    Strategy          strategy;   /* never AUTO */
    Layout            layout;     /* tdfa and dsra: how the code reads (set by
                                     cost_choose; AUTO before, and for runs) */
    const char       *reason;     /* one line, for the dump header */
    const struct Cost *cost;      /* the chosen layout's estimate (cost_choose) */
    const char       *why;        /* why that layout, for --explain */
    Sra              *nfa;        /* epsilon-free: every strategy starts here (NULL for a
                                     chain whose NFA is over the budget) */
    Sra              *unrolled;   /* dsra */
    Dsra             *dfa, *min;  /* tdfa and dsra: determinized, minimized */
    Runs             *runs;       /* runs */
    Chain            *chain;      /* tdfa: the pattern is a chain (chain.h), or NULL;
                                     with a chain, min may be NULL (over the budget) */
    const struct FcSymbols *fc_symbols; /* a forecast pattern: its symbol automaton (forecast.h) */
    const struct FcTables  *fc_tables;  /* and its tables, when a model was given (--model) */
} Plan;

/* Chooses and builds. auto: tdfa for register-free patterns, dsra for
 * registers with a count window when it fits max_states and the state
 * cap of the code budget (cost_state_cap), else runs. A
 * register-free chain is tdfa even where its automaton does not fit. A
 * forced strategy that does not apply, or does not fit the budget, is an
 * error (naming the pattern, the window and the size reached) and the
 * result is NULL. */
Plan *strategy_plan(const AstPattern *p, const StrategyOpts *o, Arena *arena, Diag *diag);

/* The plans of every pattern declaration of ast, in order (*npatterns of
 * them), their layouts chosen under the file's code budget (cost.h); an
 * entry is NULL where strategy_plan or the budget failed (diag says why). */
Plan **strategy_plan_all(const Ast *ast, const StrategyOpts *o, Arena *arena, Diag *diag, int *npatterns);

/* Turns plan into the runs strategy (auto's fallback), saying why. */
void plan_use_runs(Plan *plan, const StrategyOpts *o, Arena *arena, const char *reason);

/* The stages `sremc dump` and `sremc dot` print beyond sra and nfa. */
typedef enum PlanStage { PLAN_UNROLLED, PLAN_DFA, PLAN_MIN } PlanStage;

/* Prints stage of plan: a text dump led by the strategy line, or a dot
 * graph (cluster >= 0: as "subgraph cluster_N" of a digraph the caller
 * opens; unrolled stages and notes only). A stage the strategy does not
 * have is built when it can be (the unrolled SRA of any count window;
 * errors go to diag and false is returned), else a note says why there
 * is none. */
bool plan_dump(Plan *plan, PlanStage stage, bool dot, int cluster, const StrategyOpts *o,
               Arena *arena, Diag *diag, FILE *out);

#endif
