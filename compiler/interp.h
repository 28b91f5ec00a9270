/* interp.h: the reference interpreter, checked pattern + finite stream ->
 * detections (docs/language.md 3.3) and their canonical matches (3.4);
 * the oracle of the automata and of the generated code. */
#ifndef SREMC_INTERP_H
#define SREMC_INTERP_H

#include <stdbool.h>

#include "ast.h"
#include "eval.h"

/* det[k] = true iff the pattern has a detection at event k (0-based);
 * det has s->n entries. p must come from a checker run without errors.
 * Slow on purpose: it enumerates every match from every start. */
void interp_detect(const AstPattern *p, const Stream *s, const ExternTable *ext, bool *det);

/* The canonical match of a detection (docs/language.md 3.4): its start
 * and, per register (label) of the pattern, the event bound to it last
 * in the canonical parse. Indices are 0-based stream indices, as det[] of
 * interp_detect (a program's records carry index + 1). */
typedef struct CanonMatch {
    int  start;   /* the first event of the match; -1 if there is none */
    int *bind;    /* [p->nregs], supplied by the caller: the event bound
                     to register r last, -1 when the parse does not pass
                     through a label of r (AstPattern.regs[r].name) */
} CanonMatch;

/* The canonical match of p's detection at event i (0-based) of s: false,
 * with start and every bind -1, if there is no detection at i (det[i] of
 * interp_detect is false). Under `partition by`, i's own substream.
 * out->bind may be NULL when p->nregs is 0. Slow on purpose (a
 * backtracking parse in the order of the definition, failed calls
 * memoized; on random 40-event streams about 2 us per event, 3 ms at
 * worst): an oracle for small streams. */
bool interp_canonical(const AstPattern *p, const Stream *s, const ExternTable *ext, int i, CanonMatch *out);

/* Under policy strict: whether events j..i (of i's substream, the window
 * holding) match p with the registers ending as regs ([p->nregs] stream
 * indices, -1 empty), by the outcome sets of interp_detect: a check of
 * interp_canonical's bindings that shares nothing with its parse. */
bool interp_has_match(const AstPattern *p, const Stream *s, const ExternTable *ext, int j, int i, const int *regs);

/* Absence (docs/language.md 3.7), p with an `absent` clause: at[i] for
 * each event i (0-based) of s: -1 when there is no detection at i or an
 * event after i within the window of its canonical match satisfies the
 * absent condition (registers as the canonical parse binds them);
 * else the event whose index closes that window (its absent record's
 * event), or s->n when none does (the record of --flush-absent). */
void interp_absent(const AstPattern *p, const Stream *s, const ExternTable *ext, int *at);

#endif
