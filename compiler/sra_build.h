/* sra_build.h: checked pattern to SRA (the SRA paper's Thompson-style
 * construction), epsilon elimination, and a run-set simulator of any stage. */
#ifndef SREMC_SRA_BUILD_H
#define SREMC_SRA_BUILD_H

#include <stdbool.h>

#include "diag.h"
#include "eval.h"
#include "sra.h"

/* Default of --max-states. */
enum { SRA_MAX_STATES_DEFAULT = 100000 };

/* Transitions and guard literals a construction may create, for a state
 * budget of max_states: the budget bounds memory, not only states. */
long sra_trans_budget(int max_states);
long sra_lit_budget(int max_states);

/* The epsilon-SRA accepting exactly L(p->body) (policies stam and stnm
 * rewritten as skips before each atom but the first). Intersections and
 * complements are built from epsilon-free operands (product, subset
 * construction with minterms) and embedded. States, transitions, guard
 * literals and complement subset members created, temporaries included,
 * are bounded from max_states (see sra_*_budget); on overflow, or when a
 * complement state tests more than 12 conditions, reports an error naming
 * the pattern and its window and returns NULL. */
Sra *sra_from_pattern(const AstPattern *p, Arena *arena, Diag *diag, int max_states);

/* Epsilon elimination by closure, keeping only the start and targets of
 * non-epsilon transitions, then unreachable and dead states removed: the
 * same language, no epsilons. The result shares guard and write arrays
 * with sra (they are never modified after construction). */
Sra *sra_eps_free(const Sra *sra, Arena *arena);
/* As sra_eps_free, but NULL if the result would have more than max_trans
 * transitions (checked before they are created). */
Sra *sra_eps_free_max(const Sra *sra, Arena *arena, long max_trans);

/* sra_from_pattern then sra_eps_free_max, with the budget error reported. */
Sra *sra_nfa_from_pattern(const AstPattern *p, Arena *arena, Diag *diag, int max_states);

/* "within 10 events", "within 3 min", "without a window": for errors. */
void sra_window_text(const AstPattern *p, char *buf, size_t size);

/* Detections of sra->pattern in s (docs/language.md 3.3): det[k] for event k
 * (0-based). Works on every stage, with or without epsilons: runs start
 * at every event, are merged by (state, registers), and are dropped when
 * they leave the window; partitions have their own runs. */
void sra_simulate(const Sra *sra, const Stream *s, const ExternTable *ext, bool *det);

#endif
