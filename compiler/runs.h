/* runs.h: the runs strategy, epsilon-free SRA -> a bounded set of runs
 * (state, registers, start) per partition, and its reference simulator. */
#ifndef SREMC_RUNS_H
#define SREMC_RUNS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sra.h"

/* Default of --max-runs: live runs per pattern and partition. */
enum { RUNS_CAPACITY_DEFAULT = 1024 };

/* What code generation needs to match a pattern with runs: the automaton
 * the runs walk, and the sizes and window the run array is laid out for. */
typedef struct Runs {
    const Sra        *nfa;        /* epsilon-free; runs hold its states */
    const AstPattern *pattern;
    int               capacity;   /* live runs per partition */
    int               nregs;      /* registers per run (pattern registers) */
    WindowKind        window_kind;
    int64_t           window;     /* events, or timestamp units; 0 without */
    int               ts_attr;    /* schema index of the timestamp, -1 */
    int               part_attr;  /* schema index of the partition key, -1 */
    int               nattrs;     /* schema attributes */
    /* reads[r * nattrs + a]: some guard reads attribute a of register r.
     * A run keeps only these: two runs in one state whose read register
     * attributes are equal have the same future, so they merge. */
    bool             *reads;
    bool             *dead;       /* [nstates]: no transition leaves it */
} Runs;

/* What a simulation saw: runs dropped because the array was full (the
 * detections are exact when this is 0) and the most runs alive at once. */
typedef struct RunsStats {
    long overflow;
    int  peak;
} RunsStats;

/* The direct-coded dense step (docs/codegen.md, "runs"): runs over an
 * automaton whose guards read no register, with at most this many
 * states and transitions, step in C of their own, a block per state with
 * its transitions' tests inline, in place of the loop over the tables
 * (B1 K 26 w 100: 169 -> 83 instructions an event). The bounds keep the
 * C it adds small (at most about 6 KB a pattern) and the step fast: it
 * tests every state a run can be in, a branch each, where the table step
 * visits the occupied ones; B2 K 10 w 10, 20 states, took 10% fewer
 * instructions but 23% more time (docs/PERFORMANCE.md). */
enum { RUNS_DIRECT_MAX_STATES = 16, RUNS_DIRECT_MAX_TRANS = 40 };

/* Whether runs over nfa (as planned, before runs_new merges its states,
 * so that the cost model and code generation decide alike) may take the
 * direct-coded step: within the bounds, no guard reading a register. */
bool runs_direct_fits(const Sra *nfa);

/* The automaton the runs walk: nfa with its equivalent states merged
 * (runs.c), or nfa itself when none merge or it is too large to try. */
const Sra *runs_merge_states(const Sra *nfa, Arena *arena);

/* nfa must be epsilon-free; capacity >= 1. */
Runs *runs_new(const Sra *nfa, int capacity, Arena *arena);

/* Text form for `sremc dump`: the run layout, then the automaton. */
void runs_dump_txt(const Runs *runs, FILE *out);

/* Detections (docs/language.md 3.3) as a generated runs matcher makes them:
 * det[k] for event k (0-based). Per partition, at most capacity runs;
 * runs with equal state and read register attributes (Runs.reads) are
 * merged keeping the latest start (it stays in the window longest); a run
 * that reaches a dead state (Runs.dead) is a detection if the state is
 * final and is not kept; expired runs are dropped before each event; a
 * run that does not fit is dropped and counted in stats->overflow (stats
 * may be NULL). The generated code steps runs in another order, so when
 * the array overflows it may drop other runs, but it overflows on the
 * same events: the sets agree until the first overflow. */
void runs_simulate(const Runs *runs, const Stream *s, const ExternTable *ext, bool *det,
                   RunsStats *stats);

#endif
