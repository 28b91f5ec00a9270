/* forecast.h: a forecast pattern's plan -> its symbol automaton (the
 * transitions of its tdfa or dsra), the model file's counts -> the
 * forecast tables the generated C bakes in (docs/forecasting.md). The
 * math is the runtime's (runtime/include/sremrt/forecast.h). */
#ifndef SREMC_FORECAST_H
#define SREMC_FORECAST_H

#include <stdbool.h>
#include <stdint.h>

#include "sremrt/fc_model.h"
#include "sremrt/forecast.h"
#include "strategy.h"

/* The automaton as symbols: symbol t < ntrans is transition t of
 * plan->min (Dsra.trans); symbol `stay` (== ntrans, only when some state
 * has no transition at all) is an event in such a state, which stays. */
typedef struct FcSymbols {
    sremrt_fc_automaton a;
    int32_t            *next;    /* a.next, arena */
    uint8_t            *final;   /* a.final, arena */
    int                 stay;    /* -1: none */
    uint64_t            hash;    /* of the minimized automaton's text dump */
} FcSymbols;

/* Before the layouts are chosen: a register-free forecast pattern with a
 * count window is matched as a dsra (the unrolled automaton counts the
 * window, so its final states are detections) when that fits the state
 * budget; with a time window its tdfa's final states stand for
 * detections (the window is ignored: a warning says so). */
#define FC_MAX_EXACT_STATES 4096
void forecast_prepare(Plan **plans, int n, const StrategyOpts *o, Arena *arena, Diag *diag);

/* After: a forecast pattern left without a deterministic automaton (runs,
 * or a chain over the budget) is an error that says why and what to
 * change; its plan becomes NULL. False on any error. */
bool forecast_check_plans(Plan **plans, int n, const StrategyOpts *o, Diag *diag);

/* The symbol automaton of a tdfa or dsra plan. */
FcSymbols *forecast_symbols(const Plan *plan, Arena *arena);

/* The tables of one forecast pattern, for the generated C
 * (sremrt_fc_flatten's): context 0 is the start context (a new
 * substream); index[q * ncontexts + c] is 0 or 1 + a pool entry, whose
 * probability is in units of 1e-4. */
typedef struct FcTables {
    uint32_t  nsym, ncontexts, nstates;
    uint32_t *ctx_next;  /* [ncontexts * nsym] */
    uint32_t *index;     /* [nstates * ncontexts] */
    sremrt_fc_entry *pool;
    uint32_t  npool;
    bool      exact;     /* the context automaton is the pst's closure */
    long      bytes;     /* of the emitted arrays, in their narrowest types */
} FcTables;

/* Most context states of an exact context automaton before node mode
 * (sremrt_fc_ctx_build). */
#define FC_MAX_CONTEXTS 4096

/* Learns the pst from the counts with the clause's parameters, builds the
 * context automaton and the table (the runtime's forecast core), in the
 * arena. NULL with an error in diag (at the clause) on failure. */
FcTables *forecast_tables(const AstPattern *p, const FcSymbols *sy, const sremrt_fc_counts *counts,
                          Arena *arena, Diag *diag);

/* Bytes of the arrays of tables in their narrowest types. */
long forecast_table_bytes(const FcTables *t);

/* Gives every forecast plan its symbols and, with a model file (NULL:
 * none; then a warning per pattern unless quiet), its tables: refused
 * (an error) above max_kb KB of tables. explain: a line per pattern on
 * stderr. False on any error (diag says which). */
bool forecast_attach(Plan **plans, int n, const char *model, long max_kb, bool explain, bool quiet, Arena *arena,
                     Diag *diag);

#endif
