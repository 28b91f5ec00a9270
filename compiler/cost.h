/* cost.h: a planned pattern -> estimated table bytes, generated C size and
 * cc -O2 time per layout; auto's choice of layouts under a file's code
 * budget (--max-code-kb), and the --explain line. */
#ifndef SREMC_COST_H
#define SREMC_COST_H

#include <stdbool.h>
#include <stdio.h>

#include "strategy.h"

/* What one pattern's code costs in one layout. */
typedef struct Cost {
    Strategy strategy;
    Layout   layout;        /* runs: LAYOUT_AUTO (runs have no layout) */
    long     states, trans; /* of the automaton walked (runs: the epsilon-free
                               SRA; chains: 0) */
    long     minterms;      /* tdfa, dsra: decision tree leaves, all states */
    long     table_bytes;   /* static const data */
    long     c_bytes;       /* the pattern's generated C text */
    long     cc_ms;         /* cc -O2 time of that text on the reference machine */
    long     weight;        /* what it takes of the budget (bytes, see cost.c) */
    bool     runs_direct;   /* runs: the direct-coded dense step (runs_direct_fits) */
} Cost;

/* Default --max-code-kb, hosted and --freestanding (docs/guide.md). */
enum { COST_DEFAULT_KB = 320, COST_FREESTANDING_KB = 64 };

/* The state budget auto determinizes under for a code budget of
 * max_code_kb (0: none) shared by npatterns patterns: no layout fits more
 * states than this once every pattern's fixed code is counted, so
 * determinization stops there instead of at --max-states. */
int cost_state_cap(long max_code_kb, int npatterns);

/* Estimated bytes of the table-driven node arrays of d (layout nodes). */
long cost_nodes_bytes(const Dsra *d, Arena *arena);

/* Whether plan can take layout, and what it costs then (runs:
 * strategy runs, layout AUTO). */
bool cost_estimate(const Plan *plan, Strategy strategy, Layout layout, Arena *arena, Cost *out);

/* Chooses the layout of every plan (NULL entries skipped) so that the
 * sum of weights fits o->max_code_kb: each starts at its fastest layout,
 * then the largest is moved down (tree -> table/nodes -> runs) until the
 * file fits. Sets Plan.layout (and strategy runs where it falls back),
 * Plan.cost and Plan.why. A forced strategy or layout that cannot fit is
 * an error (diag) and its plan becomes NULL; returns whether none was. */
bool cost_choose(Plan **plans, int n, const StrategyOpts *o, Arena *arena, Diag *diag);

/* One line per plan for --explain: pattern, strategy, layout, states,
 * transitions, table bytes, estimated C size and cc time, why. */
void cost_explain(const Plan *plan, FILE *out);

#endif
