/* eval.c: one checked condition on one event -> true/false (docs/language.md
 * 3.2), with registers, wrapping integers, IEEE floats and externs. */
#include "eval.h"

#include <math.h>
#include <stdlib.h>

/* One evaluation: the context and whether the condition has become
 * undefined (an empty register or an integer division by zero). Every part
 * is still evaluated, so the result never depends on evaluation order. */
typedef struct Eval {
    const EvalCtx *ctx;
    bool           undefined;
} Eval;

static Value term(const AstExpr *e, Eval *ev);

static Value vint(int64_t i)
{
    Value v;
    v.i = i;
    return v;
}

static Value vfloat(double f)
{
    Value v;
    v.f = f;
    return v;
}

/* The two's complement reading of u, without the implementation-defined
 * conversion of values above INT64_MAX. */
static int64_t wrap(uint64_t u)
{
    if (u <= (uint64_t)INT64_MAX)
        return (int64_t)u;
    return (int64_t)(u - (uint64_t)INT64_MAX - 1) + INT64_MIN;
}

/* A term's value as a double: ints are promoted, floats are themselves. */
static double as_float(const AstExpr *e, Value v)
{
    return e->type.kind == TY_FLOAT ? v.f : (double)v.i;
}

/* A literal: -9223372036854775808 arrives as magnitude 2^63, negative. */
static Value number(const AstExpr *e)
{
    const AstNumber *n = &e->num;
    if (e->type.kind == TY_FLOAT || n->is_float) {
        double m = fabs(n->f);
        return vfloat(n->negative ? -m : m);
    }
    return vint(n->negative ? wrap(0 - n->u) : wrap(n->u));
}

/* An attribute read from an event; bools are normalized to 0/1. */
static Value load(const AstExpr *e, const Value *event)
{
    Value v = event[e->attr->index];
    if (e->type.kind == TY_BOOL)
        v.i = v.i != 0;
    return v;
}

static Value regattr(const AstExpr *e, Eval *ev)
{
    const EvalCtx *c = ev->ctx;
    int k = c->regmap ? c->regmap[e->reg] : e->reg;
    const Value *event = c->regs && e->reg >= 0 && k >= 0 ? c->regs[k] : NULL;
    if (!event) {
        ev->undefined = true;
        return vint(0);
    }
    return load(e, event);
}

/* Arguments convert to the declared parameter types; the extern is not
 * called when an argument is undefined (the condition is false anyway). */
static Value call(const AstExpr *e, Eval *ev)
{
    Value small[8];
    Value *args = e->nargs <= 8 ? small : malloc((size_t)e->nargs * sizeof *args);
    bool undefined = ev->undefined;
    ev->undefined = false;
    for (int i = 0; i < e->nargs; i++) {
        const AstExpr *a = e->args[i];
        Value v = term(a, ev);
        if (args) {
            TypeKind p = e->ext ? e->ext->params[i] : a->type.kind;
            if (p == TY_FLOAT)
                args[i] = vfloat(as_float(a, v));
            else
                args[i] = vint(p == TY_BOOL ? v.i != 0 : v.i);
        }
    }
    Value r = vint(0);
    const ExternTable *t = ev->ctx->externs;
    if (args && !ev->undefined && t && t->call && e->ext) {
        r = t->call(t->user, e->ext, args);
        if (e->type.kind == TY_BOOL)
            r.i = r.i != 0;
    } else if (e->type.kind == TY_FLOAT) {
        r = vfloat(0);
    }
    ev->undefined = ev->undefined || undefined;
    if (args != small)
        free(args);
    return r;
}

static bool cmp_int(ExprOp op, int64_t a, int64_t b)
{
    switch (op) {
    case OP_EQ: return a == b;
    case OP_NE: return a != b;
    case OP_LT: return a < b;
    case OP_LE: return a <= b;
    case OP_GT: return a > b;
    case OP_GE: return a >= b;
    default:    return false;
    }
}

/* C's comparisons are IEEE's: with a NaN only != holds. */
static bool cmp_float(ExprOp op, double a, double b)
{
    switch (op) {
    case OP_EQ: return a == b;
    case OP_NE: return a != b;
    case OP_LT: return a < b;
    case OP_LE: return a <= b;
    case OP_GT: return a > b;
    case OP_GE: return a >= b;
    default:    return false;
    }
}

/* Ints, enums (value indices) and bools compare as integers; a float on
 * either side makes it a float comparison. */
static Value compare(const AstExpr *e, Eval *ev)
{
    Value l = term(e->lhs, ev), r = term(e->rhs, ev);
    if (e->lhs->type.kind == TY_FLOAT || e->rhs->type.kind == TY_FLOAT)
        return vint(cmp_float(e->op, as_float(e->lhs, l), as_float(e->rhs, r)));
    return vint(cmp_int(e->op, l.i, r.i));
}

/* 64-bit integer arithmetic modulo 2^64, computed unsigned (no UB); a zero
 * divisor makes the condition undefined. */
static int64_t arith_int(ExprOp op, int64_t a, int64_t b, Eval *ev)
{
    switch (op) {
    case OP_ADD: return wrap((uint64_t)a + (uint64_t)b);
    case OP_SUB: return wrap((uint64_t)a - (uint64_t)b);
    case OP_MUL: return wrap((uint64_t)a * (uint64_t)b);
    case OP_DIV:
    case OP_MOD:
        if (b == 0) {
            ev->undefined = true;
            return 0;
        }
        if (b == -1) /* INT64_MIN / -1 overflows in C: wrap it instead */
            return op == OP_DIV ? wrap(0 - (uint64_t)a) : 0;
        return op == OP_DIV ? a / b : a % b;
    default:
        return 0;
    }
}

static double arith_float(ExprOp op, double a, double b)
{
    switch (op) {
    case OP_ADD: return a + b;
    case OP_SUB: return a - b;
    case OP_MUL: return a * b;
    case OP_DIV: return a / b;
    default:     return NAN; /* '%' on floats is a type error */
    }
}

static Value arith(const AstExpr *e, Eval *ev)
{
    Value l = term(e->lhs, ev), r = term(e->rhs, ev);
    if (e->type.kind == TY_FLOAT)
        return vfloat(arith_float(e->op, as_float(e->lhs, l), as_float(e->rhs, r)));
    return vint(arith_int(e->op, l.i, r.i, ev));
}

/* The value of e in its type (bools 0/1 in i). Both operands of && and ||
 * are evaluated: an undefined right side makes the condition false even
 * when the left side decides the boolean value. */
static Value term(const AstExpr *e, Eval *ev)
{
    switch (e->kind) {
    case EX_TRUE:    return vint(1);
    case EX_FALSE:   return vint(0);
    case EX_NUMBER:  return number(e);
    case EX_ATTR:    return load(e, ev->ctx->event);
    case EX_REGATTR: return regattr(e, ev);
    case EX_ENUMVAL: return vint(e->enum_value);
    case EX_CALL:    return call(e, ev);
    case EX_CMP:     return compare(e, ev);
    case EX_ARITH:   return arith(e, ev);
    case EX_NOT:     return vint(term(e->lhs, ev).i == 0);
    case EX_AND: {
        bool l = term(e->lhs, ev).i != 0, r = term(e->rhs, ev).i != 0;
        return vint(l && r);
    }
    case EX_OR: {
        bool l = term(e->lhs, ev).i != 0, r = term(e->rhs, ev).i != 0;
        return vint(l || r);
    }
    case EX_NEG: {
        Value v = term(e->lhs, ev);
        return e->type.kind == TY_FLOAT ? vfloat(-v.f) : vint(wrap(0 - (uint64_t)v.i));
    }
    case EX_STRING:
    case EX_NAME:
        break; /* resolved by the checker, or a type error */
    }
    return vint(0);
}

bool eval_cond(const AstExpr *cond, const EvalCtx *ctx)
{
    if (!cond)
        return true; /* `_` */
    Eval ev = {ctx, false};
    Value v = term(cond, &ev);
    return !ev.undefined && v.i != 0;
}

/* ---- partition keys ---------------------------------------------------------- */

/* A key attribute's value: bools as 0/1 whatever the stream holds. */
static int64_t key_value(const AstAttr *a, const Stream *s, int k)
{
    int64_t v = s->values[(size_t)k * (size_t)s->nattrs + (size_t)a->index].i;
    return a->kind == ATTR_BOOL ? v != 0 : v;
}

bool eval_same_key(const AstAttr *const *keys, int n, const Stream *s, int a, int b)
{
    for (int j = 0; j < n; j++)
        if (key_value(keys[j], s, a) != key_value(keys[j], s, b))
            return false;
    return true;
}

uint64_t eval_key_hash(const AstAttr *const *keys, int n, const Stream *s, int k)
{
    uint64_t h = 0;
    for (int j = 0; j < n; j++)
        h = (h ^ (uint64_t)key_value(keys[j], s, k)) * 0x9e3779b97f4a7c15u;
    return h ^ (h >> 32);
}
