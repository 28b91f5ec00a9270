/* unroll.h: windowed unrolling (Alevizos et al., SRA paper): an
 * epsilon-free SRA and a count window w -> a loop-free SRA of walks <= w. */
#ifndef SREMC_UNROLL_H
#define SREMC_UNROLL_H

#include "sra.h"

/* Returns the unrolled SRA for count window w >= 1 (Sra.window = w,
 * Sra.depth filled), allocated in arena. Its states are the tuples
 * (NFA state, depth, for each live pattern register the depth of the
 * event that last wrote it), built breadth-first from the start and
 * merged when equal, so the result is a DAG. Walks that can no longer
 * reach a final state within the window are pruned, and so are
 * transitions whose guard reads a register no event on the walk wrote.
 * More than max_states states: an error naming the pattern, the window
 * and the size reached goes to diag, and the result is NULL. */
Sra *sra_unroll(const Sra *eps_free, int w, Arena *arena, Diag *diag, int max_states);

/* Pattern register of SRA register reg of an SRA unrolled for window w,
 * and the depth of the event that writes it. */
static inline int unroll_reg_pattern(int reg, int w) { return reg / (w + 1); }
static inline int unroll_reg_depth(int reg, int w) { return reg % (w + 1); }

#endif
