/* strategy.h: checked pattern -> the automata of its matching strategy
 * (tdfa, dsra or runs: DESIGN.md), chosen under the state budget. */
#ifndef SREMC_STRATEGY_H
#define SREMC_STRATEGY_H

#include <stdbool.h>
#include <stdio.h>

#include "chain.h"
#include "dsra.h"
#include "runs.h"
#include "sra.h"

typedef enum Strategy { STRATEGY_AUTO, STRATEGY_TDFA, STRATEGY_DSRA, STRATEGY_RUNS } Strategy;

/* "auto", "tdfa", "dsra", "runs" (--strategy). */
bool        strategy_parse(const char *name, Strategy *out);
const char *strategy_name(Strategy s);

typedef struct StrategyOpts {
    Strategy strategy;     /* AUTO: choose; else forced */
    int      max_states;   /* budget of every automaton stage */
    int      max_runs;     /* run capacity of the runs strategy */
} StrategyOpts;

/* One pattern's plan: the chosen strategy, why, and the stages it built. */
typedef struct Plan {
    const AstPattern *pattern;
    Strategy          strategy;   /* never AUTO */
    const char       *reason;     /* one line, for the dump header */
    Sra              *nfa;        /* epsilon-free: every strategy starts here (NULL for a
                                     chain whose NFA is over the budget) */
    Sra              *unrolled;   /* dsra */
    Dsra             *dfa, *min;  /* tdfa and dsra: determinized, minimized */
    Runs             *runs;       /* runs */
    Chain            *chain;      /* tdfa: the pattern is a chain (chain.h), or NULL;
                                     with a chain, min may be NULL (over the budget) */
} Plan;

/* Chooses and builds. auto: tdfa for register-free patterns, dsra for
 * registers with a count window when it fits max_states, else runs. A
 * register-free chain is tdfa even where its automaton does not fit. A
 * forced strategy that does not apply, or does not fit the budget, is an
 * error (naming the pattern, the window and the size reached) and the
 * result is NULL. */
Plan *strategy_plan(const AstPattern *p, const StrategyOpts *o, Arena *arena, Diag *diag);

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
