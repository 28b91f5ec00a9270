/* minterm.c: conditions -> DEF and formulas over normalized atoms, and the
 * sound refutation of minterms (SRA paper, determinization with minterms). */
#include "minterm.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- a growable text buffer for canonical keys --------------------------------- */

typedef struct Buf {
    char  *s;
    size_t len, cap;
} Buf;

static void buf_put(Buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *grown = realloc(b->s, cap);
        if (!grown) {
            fputs("sremc: out of memory\n", stderr);
            abort();
        }
        b->s = grown;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void buf_str(Buf *b, const char *s) { buf_put(b, s, strlen(s)); }

static void buf_int(Buf *b, int64_t v)
{
    char tmp[32];
    snprintf(tmp, sizeof tmp, "%" PRId64, v);
    buf_str(b, tmp);
}

/* Hex floats are exact, so equal keys mean equal constants. */
static void buf_double(Buf *b, double v)
{
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%a", v);
    buf_str(b, tmp);
}

/* ---- constants ------------------------------------------------------------------------ */

/* Two's complement reading without implementation-defined conversions,
 * as eval.c computes it: constant folding must agree with evaluation. */
static int64_t wrap(uint64_t u)
{
    if (u <= (uint64_t)INT64_MAX)
        return (int64_t)u;
    return (int64_t)(u - (uint64_t)INT64_MAX - 1) + INT64_MIN;
}

static bool is_float_type(const AstExpr *e) { return e->type.kind == TY_FLOAT; }

static double as_double(const AstExpr *e, Value v) { return is_float_type(e) ? v.f : (double)v.i; }

static bool const_value(const AstExpr *e, Value *out);

static bool const_arith(const AstExpr *e, Value *out)
{
    Value l, r;
    if (!const_value(e->lhs, &l) || !const_value(e->rhs, &r))
        return false;
    if (is_float_type(e)) {
        double a = as_double(e->lhs, l), b = as_double(e->rhs, r);
        switch (e->op) {
        case OP_ADD: out->f = a + b; return true;
        case OP_SUB: out->f = a - b; return true;
        case OP_MUL: out->f = a * b; return true;
        case OP_DIV: out->f = a / b; return true;
        default:     return false;
        }
    }
    uint64_t a = (uint64_t)l.i, b = (uint64_t)r.i;
    switch (e->op) {
    case OP_ADD: out->i = wrap(a + b); return true;
    case OP_SUB: out->i = wrap(a - b); return true;
    case OP_MUL: out->i = wrap(a * b); return true;
    case OP_DIV:
    case OP_MOD:
        if (r.i == 0)
            return false; /* undefined: DEF makes the condition false */
        if (r.i == -1)
            out->i = e->op == OP_DIV ? wrap(0 - a) : 0;
        else
            out->i = e->op == OP_DIV ? l.i / r.i : l.i % r.i;
        return true;
    default:
        return false;
    }
}

/* Whether e is a constant term, and its value in e's own type (float in
 * .f, everything else in .i). Integer division by a constant zero is not
 * a constant: it is undefined. */
static bool const_value(const AstExpr *e, Value *out)
{
    switch (e->kind) {
    case EX_TRUE:    out->i = 1; return true;
    case EX_FALSE:   out->i = 0; return true;
    case EX_ENUMVAL: out->i = e->enum_value; return true;
    case EX_NUMBER:
        if (is_float_type(e) || e->num.is_float) {
            double m = fabs(e->num.f);
            out->f = e->num.negative ? -m : m;
            if (!is_float_type(e))
                return false; /* a float literal typed otherwise: not modelled */
        } else {
            out->i = e->num.negative ? wrap(0 - e->num.u) : wrap(e->num.u);
        }
        return true;
    case EX_NEG: {
        Value v;
        if (!const_value(e->lhs, &v))
            return false;
        if (is_float_type(e))
            out->f = -as_double(e->lhs, v);
        else
            out->i = wrap(0 - (uint64_t)v.i);
        return true;
    }
    case EX_ARITH:
        return const_arith(e, out);
    default:
        return false;
    }
}

/* ---- formulas -------------------------------------------------------------------------- */

static const MtFormula mf_false = {MF_FALSE, -1, NULL, NULL};
static const MtFormula mf_true = {MF_TRUE, -1, NULL, NULL};

const MtFormula *mt_true(MtTable *t)
{
    (void)t;
    return &mf_true;
}

const MtFormula *mt_false(MtTable *t)
{
    (void)t;
    return &mf_false;
}

static const MtFormula *mf_new(MtTable *t, MfKind kind, int atom, const MtFormula *a, const MtFormula *b)
{
    MtFormula *f = arena_alloc(t->arena, sizeof *f);
    f->kind = kind;
    f->atom = atom;
    f->a = a;
    f->b = b;
    return f;
}

const MtFormula *mt_not(MtTable *t, const MtFormula *f)
{
    switch (f->kind) {
    case MF_TRUE:  return &mf_false;
    case MF_FALSE: return &mf_true;
    case MF_NOT:   return f->a;
    default:       return mf_new(t, MF_NOT, -1, f, NULL);
    }
}

const MtFormula *mt_and(MtTable *t, const MtFormula *a, const MtFormula *b)
{
    if (a->kind == MF_FALSE || b->kind == MF_FALSE)
        return &mf_false;
    if (a->kind == MF_TRUE)
        return b;
    if (b->kind == MF_TRUE)
        return a;
    return mf_new(t, MF_AND, -1, a, b);
}

const MtFormula *mt_or(MtTable *t, const MtFormula *a, const MtFormula *b)
{
    if (a->kind == MF_TRUE || b->kind == MF_TRUE)
        return &mf_true;
    if (a->kind == MF_FALSE)
        return b;
    if (b->kind == MF_FALSE)
        return a;
    return mf_new(t, MF_OR, -1, a, b);
}

int mt_eval3(const MtFormula *f, const signed char *val)
{
    switch (f->kind) {
    case MF_FALSE: return 0;
    case MF_TRUE:  return 1;
    case MF_ATOM:  return val[f->atom];
    case MF_NOT: {
        int v = mt_eval3(f->a, val);
        return v < 0 ? -1 : !v;
    }
    case MF_AND: {
        int a = mt_eval3(f->a, val), b = mt_eval3(f->b, val);
        return a == 0 || b == 0 ? 0 : a == 1 && b == 1 ? 1 : -1;
    }
    case MF_OR: {
        int a = mt_eval3(f->a, val), b = mt_eval3(f->b, val);
        return a == 1 || b == 1 ? 1 : a == 0 && b == 0 ? 0 : -1;
    }
    }
    return -1;
}

static int min_atom(int a, int b) { return a < 0 ? b : b < 0 ? a : a < b ? a : b; }

int mt_pick(const MtFormula *f, const signed char *val)
{
    if (mt_eval3(f, val) >= 0)
        return -1;
    switch (f->kind) {
    case MF_ATOM: return f->atom;
    case MF_NOT:  return mt_pick(f->a, val);
    case MF_AND:
    case MF_OR:   return min_atom(mt_pick(f->a, val), mt_pick(f->b, val));
    default:      return -1;
    }
}

void mt_each_unknown(const MtFormula *f, const signed char *val, void (*fn)(int atom, void *user), void *user)
{
    if (mt_eval3(f, val) >= 0)
        return;
    switch (f->kind) {
    case MF_ATOM:
        fn(f->atom, user);
        return;
    case MF_NOT:
        mt_each_unknown(f->a, val, fn, user);
        return;
    case MF_AND:
    case MF_OR:
        mt_each_unknown(f->a, val, fn, user);
        mt_each_unknown(f->b, val, fn, user);
        return;
    default:
        return;
    }
}

/* ---- canonical keys ------------------------------------------------------------------------- */

void mt_init(MtTable *t, Arena *arena, const AstPattern *pattern, int nregs)
{
    memset(t, 0, sizeof *t);
    t->arena = arena;
    t->pattern = pattern;
    t->nregs = nregs;
    intern_init(&t->atom_keys, arena);
    intern_init(&t->term_keys, arena);
    intern_init(&t->regmaps, arena);
    AstExpr *z = arena_alloc(arena, sizeof *z);
    z->kind = EX_NUMBER;
    z->depth = 1;
    z->type.kind = TY_INT;
    z->num.text = "0";
    z->reg = -1;
    t->zero = z;
}

/* One condition being turned into a formula: where its registers are. */
typedef struct Conv {
    MtTable   *t;
    const int *loc;
} Conv;

static int reg_loc(const Conv *c, int reg)
{
    return c->loc && reg >= 0 && reg < c->t->nregs ? c->loc[reg] : -1;
}

static void const_key(Buf *b, const AstExpr *e, Value v)
{
    if (is_float_type(e)) {
        buf_str(b, "#f");
        buf_double(b, v.f);
    } else if (e->type.kind == TY_STR) {
        buf_str(b, "#s");   /* a string's id, never equal to an int constant's term */
        buf_int(b, v.i);
    } else if (e->type.kind == TY_ENUM) {
        buf_str(b, "#e");
        buf_int(b, e->type.enum_attr ? e->type.enum_attr->index : -1);
        buf_str(b, ":");
        buf_int(b, v.i);
    } else {
        buf_str(b, "#");
        buf_int(b, v.i);
    }
}

/* Canonical text of a term: attributes by schema index, registers by
 * pattern register and location, constants folded; operators prefix. */
static void term_key(const Conv *c, Buf *b, const AstExpr *e)
{
    static const char *const ops[] = {"==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%"};
    Value v;
    if (const_value(e, &v)) {
        const_key(b, e, v);
        return;
    }
    switch (e->kind) {
    case EX_ATTR:
        buf_str(b, "@");
        buf_int(b, e->attr ? e->attr->index : -1);
        return;
    case EX_REGATTR:
        buf_str(b, "r");
        buf_int(b, e->reg);
        buf_str(b, ":");
        buf_int(b, reg_loc(c, e->reg));
        buf_str(b, "@");
        buf_int(b, e->attr ? e->attr->index : -1);
        return;
    case EX_CALL:
        buf_str(b, e->str);
        buf_str(b, "(");
        for (int i = 0; i < e->nargs; i++) {
            if (i)
                buf_str(b, ",");
            term_key(c, b, e->args[i]);
        }
        buf_str(b, ")");
        return;
    case EX_STRING:
    case EX_NAME:
        buf_str(b, "\"");
        buf_str(b, e->str ? e->str : "");
        buf_str(b, "\"");
        return;
    default:
        break;
    }
    /* Operators: the node kind and type, then the operands. */
    buf_str(b, "(");
    buf_int(b, (int64_t)e->kind);
    buf_str(b, is_float_type(e) ? "f" : "i");
    if (e->kind == EX_CMP || e->kind == EX_ARITH)
        buf_str(b, ops[e->op]);
    const AstExpr *kids[2] = {e->lhs, e->rhs};
    for (int i = 0; i < 2; i++) {
        if (!kids[i])
            continue;
        buf_str(b, " ");
        term_key(c, b, kids[i]);
    }
    buf_str(b, ")");
}

/* Whether e calls an extern anywhere (its value is then opaque). */
static bool has_call(const AstExpr *e)
{
    if (!e)
        return false;
    if (e->kind == EX_CALL)
        return true;
    for (int i = 0; i < e->nargs; i++)
        if (has_call(e->args[i]))
            return true;
    return has_call(e->lhs) || has_call(e->rhs);
}

/* Whether e has an integer / or % anywhere (it may then be undefined). */
static bool has_int_div(const AstExpr *e)
{
    if (!e)
        return false;
    if (e->kind == EX_ARITH && (e->op == OP_DIV || e->op == OP_MOD) && e->type.kind == TY_INT)
        return true;
    for (int i = 0; i < e->nargs; i++)
        if (has_int_div(e->args[i]))
            return true;
    return has_int_div(e->lhs) || has_int_div(e->rhs);
}

/* The term id of e as a side of a comparison in domain dom. In the float
 * domain constants are keyed by their double value, so `v < 3` and
 * `v < 3.0` are one atom (the comparison converts either way). */
static int term_id(Conv *c, const AstExpr *e, MtDomain dom)
{
    MtTable *t = c->t;
    Buf b = {0};
    Value v;
    bool is_const = const_value(e, &v);
    if (is_const && dom == MT_FLOAT) {
        v.f = as_double(e, v);
        buf_str(&b, "#f");
        buf_double(&b, v.f);
    } else {
        term_key(c, &b, e);
    }
    bool added;
    int id = intern_put(&t->term_keys, b.s, b.len + 1, &added);
    if (added) {
        MtTerm *m = arena_push(t->arena, &t->terms, &t->nterms, &t->terms_cap, sizeof *m);
        m->key = intern_bytes(&t->term_keys, id);
        m->expr = e;
        m->is_const = is_const;
        m->value = v;
        m->is_float = is_float_type(e) || (is_const && dom == MT_FLOAT);
        m->partial = has_int_div(e);
        m->opaque = has_call(e);
        m->enum_size = e->type.kind == TY_ENUM && e->type.enum_attr ? e->type.enum_attr->nvalues : 0;
    }
    free(b.s);
    return id;
}

/* The location vector an atom evaluates with, shared between atoms. */
static const int *regmap_of(Conv *c)
{
    if (!c->loc || c->t->nregs == 0)
        return NULL;
    int id = intern_put(&c->t->regmaps, c->loc, (size_t)c->t->nregs * sizeof *c->loc, NULL);
    return intern_bytes(&c->t->regmaps, id);
}

static bool reads_register(const AstExpr *e)
{
    if (!e)
        return false;
    if (e->kind == EX_REGATTR)
        return true;
    for (int i = 0; i < e->nargs; i++)
        if (reads_register(e->args[i]))
            return true;
    return reads_register(e->lhs) || reads_register(e->rhs);
}

/* Registers are part of an atom's identity only where the atom reads
 * them: the key carries the locations already, so any location vector
 * that agrees there evaluates it the same. */
static int atom_id(Conv *c, const char *key, const AstExpr *expr, MtDomain dom, MtRel rel, int lhs,
                   int rhs, bool opaque)
{
    MtTable *t = c->t;
    bool added;
    int id = intern_put(&t->atom_keys, key, strlen(key) + 1, &added);
    if (added) {
        MtAtom *a = arena_push(t->arena, &t->atoms, &t->natoms, &t->atoms_cap, sizeof *a);
        a->expr = expr;
        a->regmap = regmap_of(c);
        a->key = intern_bytes(&t->atom_keys, id);
        a->dom = dom;
        a->rel = rel;
        a->lhs = lhs;
        a->rhs = rhs;
        a->opaque = opaque;
        a->regs = reads_register(expr);
    }
    return id;
}

/* A bool-valued leaf (bool attribute or register field, bool call, or a
 * form this module does not model) as an atom. */
static const MtFormula *leaf_atom(Conv *c, const AstExpr *e)
{
    Buf b = {0};
    buf_str(&b, "L");
    term_key(c, &b, e);
    bool opaque = has_call(e) || (e->kind != EX_ATTR && e->kind != EX_REGATTR);
    int id = atom_id(c, b.s, e, MT_LEAF, MT_EQ, -1, -1, opaque);
    free(b.s);
    return mf_new(c->t, MF_ATOM, id, NULL, NULL);
}

/* The atom `l rel r` in domain dom, with a fresh expression for
 * evaluation when sides or operator changed. */
static const MtFormula *cmp_atom(Conv *c, MtDomain dom, MtRel rel, const AstExpr *l, const AstExpr *r,
                                 int lt, int rt, const AstExpr *orig)
{
    static const ExprOp ops[] = {OP_EQ, OP_LT, OP_LE};
    static const char *const rels[] = {"==", "<", "<="};
    static const char doms[] = "LIFE";
    MtTable *t = c->t;
    Buf b = {0};
    buf_put(&b, &doms[dom], 1);
    buf_str(&b, rels[rel]);
    buf_str(&b, "(");
    buf_str(&b, t->terms[lt].key);
    buf_str(&b, ",");
    buf_str(&b, t->terms[rt].key);
    buf_str(&b, ")");
    const AstExpr *expr = orig;
    if (!orig || orig->op != ops[rel] || orig->lhs != l || orig->rhs != r) {
        AstExpr *e = arena_alloc(t->arena, sizeof *e);
        e->kind = EX_CMP;
        e->op = ops[rel];
        e->lhs = (AstExpr *)l;
        e->rhs = (AstExpr *)r;
        e->depth = (l->depth > r->depth ? l->depth : r->depth) + 1;
        e->loc = orig ? orig->loc : l->loc;
        e->type.kind = TY_BOOL;
        e->reg = -1;
        expr = e;
    }
    bool opaque = t->terms[lt].opaque || t->terms[rt].opaque;
    int id = atom_id(c, b.s, expr, dom, rel, lt, rt, opaque);
    free(b.s);
    return mf_new(t, MF_ATOM, id, NULL, NULL);
}

/* Constants on the right, then by key: a fixed order for == sides. */
static bool eq_swap(const MtTable *t, int lt, int rt)
{
    const MtTerm *a = &t->terms[lt], *b = &t->terms[rt];
    if (a->is_const != b->is_const)
        return a->is_const;
    return strcmp(a->key, b->key) > 0;
}

/* Both sides constant: the comparison's value, as eval.c computes it. */
static const MtFormula *fold_cmp(MtTable *t, MtDomain dom, ExprOp op, Value l, Value r)
{
    bool v;
    if (dom == MT_FLOAT) {
        double a = l.f, b = r.f;
        v = op == OP_EQ ? a == b : op == OP_NE ? a != b : op == OP_LT ? a < b : op == OP_LE ? a <= b
          : op == OP_GT ? a > b : a >= b;
    } else {
        int64_t a = l.i, b = r.i;
        v = op == OP_EQ ? a == b : op == OP_NE ? a != b : op == OP_LT ? a < b : op == OP_LE ? a <= b
          : op == OP_GT ? a > b : a >= b;
    }
    return v ? mt_true(t) : mt_false(t);
}

static const MtFormula *cond_formula(Conv *c, const AstExpr *e);

/* A comparison, normalized (see MtDomain): int < > <= >= become < with
 * sides swapped and a negation; float ones only swap; == and != of any
 * domain become one == atom with canonically ordered sides. Bool sides
 * compare as formulas: b1 == b2 is (b1 && b2) || (!b1 && !b2). */
static const MtFormula *cmp_formula(Conv *c, const AstExpr *e)
{
    MtTable *t = c->t;
    TypeKind lk = e->lhs->type.kind, rk = e->rhs->type.kind;
    if (lk == TY_BOOL && rk == TY_BOOL && (e->op == OP_EQ || e->op == OP_NE)) {
        const MtFormula *a = cond_formula(c, e->lhs);
        const MtFormula *b = cond_formula(c, e->rhs);
        const MtFormula *iff = mt_or(t, mt_and(t, a, b), mt_and(t, mt_not(t, a), mt_not(t, b)));
        return e->op == OP_EQ ? iff : mt_not(t, iff);
    }
    MtDomain dom = lk == TY_FLOAT || rk == TY_FLOAT                 ? MT_FLOAT
                 : lk == TY_INT && rk == TY_INT                     ? MT_INT
                 : lk == TY_STR && rk == TY_STR && e->op <= OP_NE   ? MT_INT   /* string ids */
                 : lk == TY_ENUM && rk == TY_ENUM && e->op <= OP_NE ? MT_ENUM
                                                                    : MT_LEAF;
    if (dom == MT_LEAF)
        return leaf_atom(c, e);
    int lt = term_id(c, e->lhs, dom), rt = term_id(c, e->rhs, dom);
    if (t->terms[lt].is_const && t->terms[rt].is_const)
        return fold_cmp(t, dom, e->op, t->terms[lt].value, t->terms[rt].value);
    const AstExpr *l = e->lhs, *r = e->rhs;
    switch (e->op) {
    case OP_EQ:
    case OP_NE: {
        const MtFormula *a = eq_swap(t, lt, rt) ? cmp_atom(c, dom, MT_EQ, r, l, rt, lt, e)
                                                : cmp_atom(c, dom, MT_EQ, l, r, lt, rt, e);
        return e->op == OP_EQ ? a : mt_not(t, a);
    }
    case OP_LT: return cmp_atom(c, dom, MT_LT, l, r, lt, rt, e);
    case OP_GT: return cmp_atom(c, dom, MT_LT, r, l, rt, lt, e);
    case OP_LE:
        if (dom == MT_FLOAT)
            return cmp_atom(c, dom, MT_LE, l, r, lt, rt, e);
        return mt_not(t, cmp_atom(c, dom, MT_LT, r, l, rt, lt, e));
    case OP_GE:
        if (dom == MT_FLOAT)
            return cmp_atom(c, dom, MT_LE, r, l, rt, lt, e);
        return mt_not(t, cmp_atom(c, dom, MT_LT, l, r, lt, rt, e));
    default:
        return leaf_atom(c, e);
    }
}

/* F(e): the boolean structure of a condition over atoms. */
static const MtFormula *cond_formula(Conv *c, const AstExpr *e)
{
    MtTable *t = c->t;
    switch (e->kind) {
    case EX_TRUE:  return mt_true(t);
    case EX_FALSE: return mt_false(t);
    case EX_NOT:   return mt_not(t, cond_formula(c, e->lhs));
    case EX_AND:
    case EX_OR: {
        /* Left before right, in statements: atom ids follow the text
         * whatever order a compiler evaluates arguments in. */
        const MtFormula *a = cond_formula(c, e->lhs);
        const MtFormula *b = cond_formula(c, e->rhs);
        return e->kind == EX_AND ? mt_and(t, a, b) : mt_or(t, a, b);
    }
    case EX_CMP:   return cmp_formula(c, e);
    default:       return leaf_atom(c, e);
    }
}

/* DEF(e): every integer divisor non-zero, every register read non-empty. */
static const MtFormula *def_formula(Conv *c, const AstExpr *e)
{
    MtTable *t = c->t;
    if (!e)
        return mt_true(t);
    if (e->kind == EX_REGATTR && reg_loc(c, e->reg) < 0)
        return mt_false(t);
    const MtFormula *f = mt_true(t);
    if (e->kind == EX_ARITH && (e->op == OP_DIV || e->op == OP_MOD) && e->type.kind == TY_INT) {
        Value v;
        if (const_value(e->rhs, &v))
            f = v.i != 0 ? mt_true(t) : mt_false(t);
        else {
            int lt = term_id(c, e->rhs, MT_INT);
            int rt = term_id(c, t->zero, MT_INT);
            f = mt_not(t, cmp_atom(c, MT_INT, MT_EQ, e->rhs, t->zero, lt, rt, NULL));
        }
    }
    for (int i = 0; i < e->nargs; i++)
        f = mt_and(t, f, def_formula(c, e->args[i]));
    f = mt_and(t, f, def_formula(c, e->lhs));
    return mt_and(t, f, def_formula(c, e->rhs));
}

const MtFormula *mt_condition(MtTable *t, const AstExpr *cond, const int *loc)
{
    if (!cond)
        return mt_true(t);
    Conv c = {t, loc};
    const MtFormula *def = def_formula(&c, cond);
    if (def->kind == MF_FALSE)
        return def;
    return mt_and(t, def, cond_formula(&c, cond));
}

/* ---- satisfiability ---------------------------------------------------------------------------- */

/* One term seen in one domain: the sat check's variable. Ints and floats
 * are separate domains even for the same term, since int equality is
 * not transitive through doubles (2^53 + 1 and 2^53). */
typedef struct Node {
    MtDomain dom;
    int      term;
    int      parent;     /* union-find */
    bool     proved;     /* defined and not NaN in this cube */
} Node;

/* Constraints on one equality class. */
typedef struct Class {
    bool    has_pin;     /* equal to pin */
    Value   pin;
    int64_t ilo, ihi;    /* ints */
    double  flo, fhi;    /* floats, with strictness */
    bool    flo_strict, fhi_strict;
} Class;

typedef struct Sat {
    const MtTable *t;
    Node          *nodes;
    int            nnodes;
    Class         *cls;    /* by node index (the root's entry is used) */
    Value         *excl;   /* excluded points (x != c) ... */
    int           *excl_root; /* ... and the class root they exclude from */
    int            nexcl;
    bool           unsat;
} Sat;

static int sat_node(Sat *s, MtDomain dom, int term)
{
    for (int i = 0; i < s->nnodes; i++)
        if (s->nodes[i].dom == dom && s->nodes[i].term == term)
            return i;
    const MtTerm *m = &s->t->terms[term];
    Node *n = &s->nodes[s->nnodes];
    n->dom = dom;
    n->term = term;
    n->parent = s->nnodes;
    /* Total terms never make a comparison undefined or NaN. */
    n->proved = m->is_const || (!m->partial && !(dom == MT_FLOAT && m->is_float));
    return s->nnodes++;
}

static int sat_find(Sat *s, int i)
{
    while (s->nodes[i].parent != i) {
        s->nodes[i].parent = s->nodes[s->nodes[i].parent].parent;
        i = s->nodes[i].parent;
    }
    return i;
}

static bool modelled(const MtAtom *a) { return a->dom != MT_LEAF && !a->opaque; }

/* A constant that makes every positive comparison false: a NaN. */
static bool is_nan_const(const MtTerm *m) { return m->is_const && m->is_float && isnan(m->value.f); }

static void class_init(Class *k)
{
    memset(k, 0, sizeof *k);
    k->ilo = INT64_MIN;
    k->ihi = INT64_MAX;
    k->flo = -INFINITY;
    k->fhi = INFINITY;
}

static void exclude(Sat *s, int root, Value v)
{
    s->excl[s->nexcl] = v;
    s->excl_root[s->nexcl++] = root;
}

/* x == c: a pin; a second, different pin refutes. */
static void pin(Sat *s, int root, MtDomain dom, Value v)
{
    Class *k = &s->cls[root];
    if (k->has_pin && (dom == MT_FLOAT ? k->pin.f != v.f : k->pin.i != v.i))
        s->unsat = true;
    k->has_pin = true;
    k->pin = v;
}

/* Bounds from `x < c`, `c < x`, `x <= c`, `c <= x` (const_right says
 * which side the constant is on) or their negations. */
static void bound(Sat *s, int root, MtDomain dom, MtRel rel, bool const_right, bool neg, Value c)
{
    Class *k = &s->cls[root];
    /* Normalize to "x below c" (upper) or "x above c" (lower), strict or not. */
    bool upper = const_right != neg;
    bool strict = (rel == MT_LT) != neg;
    if (dom == MT_INT) {
        int64_t v = c.i;
        if (strict) {
            if ((upper && v == INT64_MIN) || (!upper && v == INT64_MAX)) {
                s->unsat = true;
                return;
            }
            v = upper ? v - 1 : v + 1;
        }
        if (upper && v < k->ihi)
            k->ihi = v;
        if (!upper && v > k->ilo)
            k->ilo = v;
        return;
    }
    double v = c.f;
    if (upper && (v < k->fhi || (v == k->fhi && strict))) {
        k->fhi = v;
        k->fhi_strict = strict;
    }
    if (!upper && (v > k->flo || (v == k->flo && strict))) {
        k->flo = v;
        k->flo_strict = strict;
    }
}

/* One comparison literal on a term and a constant. */
static void const_literal(Sat *s, const MtAtom *a, bool neg, int term_node, const MtTerm *c, bool const_right)
{
    int root = sat_find(s, term_node);
    if (a->rel == MT_EQ) {
        if (neg)
            exclude(s, root, c->value);
        else
            pin(s, root, a->dom, c->value);
    } else {
        bound(s, root, a->dom, a->rel, const_right, neg, c->value);
    }
}

/* Ints: [lo, hi] after the pin, minus the excluded points in it. */
static bool int_class_empty(const Sat *s, int root, Class *k)
{
    if (k->has_pin) {
        if (k->pin.i < k->ilo || k->pin.i > k->ihi)
            return true;
        k->ilo = k->ihi = k->pin.i;
    }
    if (k->ilo > k->ihi)
        return true;
    uint64_t width = (uint64_t)k->ihi - (uint64_t)k->ilo; /* values - 1 */
    if (width >= (uint64_t)s->nexcl)
        return false; /* more values than exclusions */
    int inside = 0;
    for (int i = 0; i < s->nexcl; i++) {
        if (s->excl_root[i] != root || s->excl[i].i < k->ilo || s->excl[i].i > k->ihi)
            continue;
        bool dup = false;
        for (int j = 0; j < i && !dup; j++)
            dup = s->excl_root[j] == root && s->excl[j].i == s->excl[i].i;
        inside += !dup;
    }
    return (uint64_t)inside > width;
}

/* Floats: an empty interval, or a single point that is excluded. */
static bool float_class_empty(const Sat *s, int root, Class *k)
{
    if (k->has_pin) {
        double p = k->pin.f;
        if (p < k->flo || (p == k->flo && k->flo_strict) || p > k->fhi || (p == k->fhi && k->fhi_strict))
            return true;
        k->flo = k->fhi = p;
        k->flo_strict = k->fhi_strict = false;
    }
    if (k->flo > k->fhi || (k->flo == k->fhi && (k->flo_strict || k->fhi_strict)))
        return true;
    if (k->flo == k->fhi)
        for (int i = 0; i < s->nexcl; i++)
            if (s->excl_root[i] == root && s->excl[i].f == k->flo)
                return true;
    return false;
}

/* Enums: a pin that is excluded, or every value excluded. */
static bool enum_class_empty(const Sat *s, int root, const Class *k)
{
    int size = s->t->terms[s->nodes[root].term].enum_size;
    int excluded = 0;
    for (int v = 0; v < size; v++) {
        bool out = false;
        for (int i = 0; i < s->nexcl && !out; i++)
            out = s->excl_root[i] == root && s->excl[i].i == v;
        if (k->has_pin && k->pin.i == v)
            return out;
        excluded += out;
    }
    return size > 0 && excluded == size;
}

static bool class_empty(Sat *s, int root, MtDomain dom)
{
    Class *k = &s->cls[root];
    return dom == MT_INT ? int_class_empty(s, root, k)
         : dom == MT_FLOAT ? float_class_empty(s, root, k)
         : enum_class_empty(s, root, k);
}

/* The literal's two nodes, or false when it is not a modelled comparison. */
static bool lit_nodes(Sat *s, const MtAtom *a, int *l, int *r)
{
    if (!modelled(a))
        return false;
    *l = sat_node(s, a->dom, a->lhs);
    *r = sat_node(s, a->dom, a->rhs);
    return true;
}

/* Literals between two terms after union: x != y or x < y inside one
 * class is false (so is !(x <= y) for proved terms). */
static void term_literal(Sat *s, const MtAtom *a, bool neg, int l, int r)
{
    if (sat_find(s, l) != sat_find(s, r))
        return;
    if ((a->rel == MT_EQ && neg) || (a->rel == MT_LT && !neg) || (a->rel == MT_LE && neg))
        s->unsat = true;
}

static int cmp_lit(const void *a, const void *b)
{
    const MtLit *x = a, *y = b;
    return x->atom != y->atom ? (x->atom < y->atom ? -1 : 1) : (int)x->neg - (int)y->neg;
}

static bool complementary(const MtLit *lits, int n)
{
    MtLit *sorted = malloc(((size_t)n + 1) * sizeof *sorted);
    if (!sorted)
        abort();
    memcpy(sorted, lits, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_lit);
    bool found = false;
    for (int i = 1; i < n && !found; i++)
        found = sorted[i].atom == sorted[i - 1].atom && sorted[i].neg != sorted[i - 1].neg;
    free(sorted);
    return found;
}

/* The three passes over the literals: nodes and proofs of definedness,
 * unions by positive equalities, then constraints per class. */
static void sat_run(Sat *s, const MtLit *lits, int n)
{
    const MtTable *t = s->t;
    int l, r;
    for (int i = 0; i < n; i++)
        if (lit_nodes(s, &t->atoms[lits[i].atom], &l, &r) && !lits[i].neg)
            s->nodes[l].proved = s->nodes[r].proved = true;
    for (int i = 0; i < n; i++) {
        const MtAtom *a = &t->atoms[lits[i].atom];
        if (lit_nodes(s, a, &l, &r) && !lits[i].neg && a->rel == MT_EQ && !t->terms[a->lhs].is_const &&
            !t->terms[a->rhs].is_const)
            s->nodes[sat_find(s, l)].parent = sat_find(s, r);
    }
    for (int i = 0; i < s->nnodes; i++)
        class_init(&s->cls[i]);
    for (int i = 0; i < n && !s->unsat; i++) {
        const MtAtom *a = &t->atoms[lits[i].atom];
        bool neg = lits[i].neg;
        if (!lit_nodes(s, a, &l, &r) || (neg && (!s->nodes[l].proved || !s->nodes[r].proved)))
            continue;
        const MtTerm *lt = &t->terms[a->lhs], *rt = &t->terms[a->rhs];
        if (is_nan_const(lt) || is_nan_const(rt)) {
            s->unsat = s->unsat || !neg; /* every positive comparison with NaN is false */
            continue;
        }
        if (rt->is_const)
            const_literal(s, a, neg, l, rt, true);
        else if (lt->is_const)
            const_literal(s, a, neg, r, lt, false);
        else
            term_literal(s, a, neg, l, r);
    }
    for (int i = 0; i < s->nnodes && !s->unsat; i++)
        if (sat_find(s, i) == i && !s->t->terms[s->nodes[i].term].is_const)
            s->unsat = class_empty(s, i, s->nodes[i].dom);
}

bool mt_satisfiable(const MtTable *t, const MtLit *lits, int n)
{
    if (n == 0)
        return true;
    if (complementary(lits, n))
        return false;
    size_t cap = 2 * (size_t)n + 1;
    Sat s = {.t = t};
    s.nodes = malloc(cap * sizeof *s.nodes);
    s.cls = malloc(cap * sizeof *s.cls);
    s.excl = malloc(cap * sizeof *s.excl);
    s.excl_root = malloc(cap * sizeof *s.excl_root);
    if (!s.nodes || !s.cls || !s.excl || !s.excl_root)
        abort();
    sat_run(&s, lits, n);
    free(s.nodes);
    free(s.cls);
    free(s.excl);
    free(s.excl_root);
    return !s.unsat;
}

/* ---- dumps --------------------------------------------------------------------------------------- */

static void reads(const AstExpr *e, bool *seen, int nregs)
{
    if (!e)
        return;
    if (e->kind == EX_REGATTR && e->reg >= 0 && e->reg < nregs)
        seen[e->reg] = true;
    for (int i = 0; i < e->nargs; i++)
        reads(e->args[i], seen, nregs);
    reads(e->lhs, seen, nregs);
    reads(e->rhs, seen, nregs);
}

void mt_dump_atom(const MtTable *t, int atom, FILE *out)
{
    const MtAtom *a = &t->atoms[atom];
    ast_dump_expr(a->expr, out);
    if (!a->regmap || t->nregs == 0)
        return;
    bool *seen = calloc((size_t)t->nregs, sizeof *seen);
    if (!seen)
        abort();
    reads(a->expr, seen, t->nregs);
    for (int r = 0; r < t->nregs; r++) {
        if (!seen[r])
            continue;
        const char *name = t->pattern && r < t->pattern->nregs ? t->pattern->regs[r].name : NULL;
        if (name)
            fprintf(out, " %s@%d", name, a->regmap[r]);
        else
            fprintf(out, " r%d@%d", r, a->regmap[r]);
    }
    free(seen);
}

void mt_dump_formula(const MtFormula *f, FILE *out)
{
    switch (f->kind) {
    case MF_FALSE: fputs("false", out); break;
    case MF_TRUE:  fputs("true", out); break;
    case MF_ATOM:  fprintf(out, "a%d", f->atom); break;
    case MF_NOT:   fputs("!", out); mt_dump_formula(f->a, out); break;
    case MF_AND:
    case MF_OR:
        fputc('(', out);
        mt_dump_formula(f->a, out);
        fputs(f->kind == MF_AND ? " && " : " || ", out);
        mt_dump_formula(f->b, out);
        fputc(')', out);
        break;
    }
}

/* ---- disjointness ------------------------------------------------------------- */

typedef struct Split {
    const MtTable   *t;
    const MtFormula *f;
    signed char     *val;
    MtLit           *lits;
    int              nlits;
    int              budget;   /* decision nodes left; 0: give up */
} Split;

/* 1 if some satisfiable assignment of the atoms makes s->f true (or the
 * budget ran out: then "maybe"), 0 if none does. */
static int split_sat(Split *s)
{
    if (s->budget-- <= 0)
        return 1;
    int r = mt_eval3(s->f, s->val);
    if (r == 0)
        return 0;
    if (!mt_satisfiable(s->t, s->lits, s->nlits))
        return 0;
    if (r == 1)
        return 1;
    int a = mt_pick(s->f, s->val);
    for (int v = 1; v >= 0; v--) {
        s->val[a] = (signed char)v;
        s->lits[s->nlits++] = (MtLit){a, v == 0};
        int sat = split_sat(s);
        s->nlits--;
        s->val[a] = -1;
        if (sat)
            return 1;
    }
    return 0;
}

bool mt_disjoint(MtTable *t, const MtFormula *a, const MtFormula *b)
{
    const MtFormula *both = mt_and(t, a, b);
    signed char *val = malloc((size_t)t->natoms + 1);
    MtLit *lits = malloc(((size_t)t->natoms + 1) * sizeof *lits);
    if (!val || !lits)
        abort();
    memset(val, -1, (size_t)t->natoms + 1);
    Split s = {t, both, val, lits, 0, 4096};
    bool disjoint = split_sat(&s) == 0;
    free(val);
    free(lits);
    return disjoint;
}
