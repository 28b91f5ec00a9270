/* shrink.h: what every differential test shares besides the generators:
 * the scale knob (SREMC_DIFF_SCALE), the per-suite case counts, and a
 * minimizer that shrinks a failing case (pattern file and event stream)
 * while a predicate says it still fails, then prints both versions. */
#ifndef SREMC_SHRINK_H
#define SREMC_SHRINK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "eval.h"

/* SREMC_DIFF_SCALE (default 1, clamped to 1..10000): every differential
 * test multiplies its number of random cases by it. */
int diff_scale(void);

/* Prints "diff NAME: CASES cases (scale S), SKIPPED skipped, FAILED failed"
 * on stdout and adds CASES to the total. */
void diff_summary(const char *name, long cases, long skipped, long failed);
/* Cases reported by diff_summary so far. */
long diff_total(void);

/* The predicate: true iff the case (a whole .srem file whose pattern is
 * the one under test, and n events of GEN_NATTRS values) still shows the
 * failure. src always passes the checker; n may be 0. */
typedef bool (*ShrinkFails)(const char *src, const Value *values, int n, void *ctx);

typedef struct Shrunk {
    char  *src;      /* malloc'd */
    Value *values;   /* malloc'd, n * GEN_NATTRS (NULL when n == 0) */
    int    n;
    int    calls;    /* of the predicate */
} Shrunk;

/* Minimizes (src, values[0..n)): drops events (chunks of halving size
 * down to single events) while the case still fails, then simplifies the
 * pattern text (a bracketed condition becomes `_`, a quantifier or `~`
 * or a label goes, an alternative or an operand of `&`, `&&`, `||`
 * replaces its group, a sequence loses an item, the header loses its
 * partition, policy or window), keeping a candidate only if it checks and
 * still fails; repeats until nothing changes or max_calls predicate
 * calls (<= 0: 5000). The input needs not fail (then it comes back as is). */
void shrink_case(const char *src, const Value *values, int n, ShrinkFails fails, void *ctx, int max_calls,
                 Shrunk *out);
void shrunk_free(Shrunk *s);

/* Events as lines "  N: t=A v=1 k=0 time=3". */
void shrink_print_stream(FILE *f, const Value *values, int n);

/* On a failure: prints to stderr what failed, the seed, the original
 * pattern and stream, minimizes them and prints the result. */
void shrink_report(const char *what, uint64_t seed, const char *src, const Value *values, int n,
                   ShrinkFails fails, void *ctx, int max_calls);

#endif
