/* interp.h: the reference interpreter, checked pattern + finite stream ->
 * detections, straight from docs/language.md 3.3; the oracle of the automata. */
#ifndef SREMC_INTERP_H
#define SREMC_INTERP_H

#include <stdbool.h>

#include "ast.h"
#include "eval.h"

/* det[k] = true iff the pattern has a detection at event k (0-based);
 * det has s->n entries. p must come from a checker run without errors.
 * Slow on purpose: it enumerates every match from every start. */
void interp_detect(const AstPattern *p, const Stream *s, const ExternTable *ext, bool *det);

#endif
