/* eval.h: evaluation of one condition on one event (docs/language.md 3.2).
 * The only code the reference interpreter and the automata share. */
#ifndef SREMC_EVAL_H
#define SREMC_EVAL_H

#include <stdbool.h>
#include <stdint.h>

#include "ast.h"

/* One attribute value: int, enum (value index), bool (0/1) and timestamp
 * in i; float in f. An event is an array of Values in schema order. */
typedef union Value {
    int64_t i;
    double  f;
} Value;

/* Extern functions, supplied by whoever evaluates (tests, simulators).
 * Arguments arrive converted to the declared parameter types; the result
 * is read as the declared return type. */
typedef struct ExternTable {
    Value (*call)(void *user, const AstExtern *ext, const Value *args);
    void  *user;
} ExternTable;

typedef struct EvalCtx {
    const Value        *event;     /* the current event */
    const Value *const *regs;      /* by pattern register (AstExpr.reg);
                                      NULL entry: register still empty */
    const int          *regmap;    /* NULL, or pattern register -> index
                                      into regs (cloned registers) */
    const ExternTable  *externs;   /* NULL: every call returns 0 / false */
} EvalCtx;

/* A finite stream for the oracles and simulators: event k (0-based; its
 * docs/language.md index is k + 1) is values[k * nattrs .. k * nattrs + nattrs). */
typedef struct Stream {
    int          n;
    int          nattrs;
    const Value *values;
} Stream;

/* True iff COND holds. A condition that mentions an empty register, or
 * has an integer '/' or '%' with a zero divisor anywhere in it, is false
 * as a whole: no short-circuit. Integer arithmetic wraps modulo 2^64;
 * INT64_MIN / -1 is INT64_MIN and INT64_MIN % -1 is 0. */
bool eval_cond(const AstExpr *cond, const EvalCtx *ctx);

/* Whether events a and b of s have the same partition key, the n
 * attributes keys[0..n) (docs/language.md 3.3: equal in every one). */
bool eval_same_key(const AstAttr *const *keys, int n, const Stream *s, int a, int b);

/* A hash of event k's partition key (equal keys, equal hashes). */
uint64_t eval_key_hash(const AstAttr *const *keys, int n, const Stream *s, int k);

#endif
