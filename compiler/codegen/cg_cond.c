/* cg_cond.c: conditions -> static C functions that evaluate them exactly as eval.c does. */
#define _POSIX_C_SOURCE 200809L
#include "cg_impl.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- conditions (docs/language.md 3.2, exactly as eval.c) ----------------------------------- */


typedef struct Cond {
    FILE       *out;
    const char *P;        /* prefix */
    const char *pat;      /* "p0": the pattern's name part */
    RegMode     mode;
    const int  *regmap;
    int         ntemp;
    bool       *used_reg;   /* [nregs]: the registers the condition reads */
    int         nregs;
    bool        reads_event;   /* the condition reads an attribute of e */
} Cond;

/* Marks register r read, growing the set: a pattern has as many
 * registers as it labels, so no fixed bound applies here. */
static void note_reg(Cond *c, int r)
{
    if (r >= c->nregs) {
        int n = r + 1 > 2 * c->nregs ? r + 1 : 2 * c->nregs;
        bool *u = realloc(c->used_reg, (size_t)n * sizeof *u);
        if (!u)
            abort();
        memset(u + c->nregs, 0, (size_t)(n - c->nregs) * sizeof *u);
        c->used_reg = u;
        c->nregs = n;
    }
    c->used_reg[r] = true;
}

typedef struct CVal {
    int  id;
    bool flt;
} CVal;

/* The value of a literal as eval.c's number() reads it. */
static void put_number(FILE *out, const AstExpr *e, bool flt)
{
    const AstNumber *n = &e->num;
    if (flt) {
        double m = fabs(n->f), v = n->negative ? -m : m;
        if (isinf(v))
            fputs(v < 0 ? "-HUGE_VAL" : "HUGE_VAL", out);
        else
            fprintf(out, "%.17g", v);
        return;
    }
    uint64_t u = n->negative ? 0 - n->u : n->u;
    if (u == (uint64_t)1 << 63)
        fputs("(-INT64_C(9223372036854775807) - 1)", out);
    else if (u > (uint64_t)INT64_MAX)
        fprintf(out, "-INT64_C(%" PRIu64 ")", 0 - u);
    else
        fprintf(out, "INT64_C(%" PRIu64 ")", u);
}

void cg_put_load(FILE *out, const AstAttr *a, const char *base)
{
    if (a->kind == ATTR_FLOAT) {
        /* a float32 widened: conditions compute in double (docs/language.md 2) */
        fprintf(out, a->single ? "(double)%s" : "%s", base);
        cg_put_field(out, a);
    } else if (a->kind == ATTR_BOOL) {
        fprintf(out, "(int64_t)(%s", base);
        cg_put_field(out, a);
        fputs(" != 0)", out);
    } else {
        fprintf(out, "(int64_t)%s", base);
        cg_put_field(out, a);
    }
}

static CVal cond_term(Cond *c, const AstExpr *e);

static CVal new_val(Cond *c, bool flt)
{
    CVal v = {c->ntemp++, flt};
    fprintf(c->out, "    %s t%d = ", flt ? "double" : "int64_t", v.id);
    return v;
}

/* t as a double (ints promoted, as eval.c's as_float). */
static void put_as_float(FILE *out, CVal v)
{
    if (v.flt)
        fprintf(out, "t%d", v.id);
    else
        fprintf(out, "(double)t%d", v.id);
}

static int reg_slot(const Cond *c, int reg)
{
    if (c->mode == REG_NONE || reg < 0)
        return -1;
    return c->regmap ? c->regmap[reg] : reg;
}

static CVal cond_call(Cond *c, const AstExpr *e)
{
    int saved = c->ntemp++;
    fprintf(c->out, "    int u%d = u;\n    u = 0;\n", saved);
    CVal *args = calloc((size_t)e->nargs + 1, sizeof *args);
    if (!args)
        abort();
    for (int i = 0; i < e->nargs; i++)
        args[i] = cond_term(c, e->args[i]);
    bool flt = e->type.kind == TY_FLOAT;
    CVal v = new_val(c, flt);
    fputs("0;\n", c->out);
    fprintf(c->out, "    if (!u)\n        t%d = ", v.id);
    if (e->type.kind == TY_BOOL)
        fputs("(int64_t)(", c->out);
    fprintf(c->out, "%s(", e->str);
    for (int i = 0; i < e->nargs; i++) {
        TypeKind p = e->ext ? e->ext->params[i] : e->args[i]->type.kind;
        if (i)
            fputs(", ", c->out);
        if (p == TY_FLOAT)
            put_as_float(c->out, args[i]);
        else if (p == TY_BOOL)
            fprintf(c->out, "t%d != 0", args[i].id);
        else
            fprintf(c->out, "t%d", args[i].id);
    }
    fputs(e->type.kind == TY_BOOL ? ") != 0);\n" : ");\n", c->out);
    fprintf(c->out, "    u |= u%d;\n", saved);
    free(args);
    return v;
}

static const char *const cmp_ops[] = {"==", "!=", "<", "<=", ">", ">="};

static CVal cond_term(Cond *c, const AstExpr *e)
{
    FILE *out = c->out;
    CVal v;
    switch (e->kind) {
    case EX_TRUE:
    case EX_FALSE:
        v = new_val(c, false);
        fputs(e->kind == EX_TRUE ? "1;\n" : "0;\n", out);
        return v;
    case EX_NUMBER: {
        bool flt = e->type.kind == TY_FLOAT || e->num.is_float;
        v = new_val(c, flt);
        put_number(out, e, flt);
        fputs(";\n", out);
        return v;
    }
    case EX_ATTR:
        c->reads_event = true;
        v = new_val(c, e->attr->kind == ATTR_FLOAT);
        cg_put_load(out, e->attr, "e->");
        fputs(";\n", out);
        return v;
    case EX_REGATTR: {
        int slot = reg_slot(c, e->reg);
        if (slot < 0) {
            /* statically empty: the condition cannot hold */
            fputs("    u = 1;\n", out);
            v = new_val(c, e->attr->kind == ATTR_FLOAT);
            fputs("0;\n", out);
            return v;
        }
        note_reg(c, e->reg);
        fprintf(out, "    if (!r%d)\n        u = 1;\n", e->reg);
        v = new_val(c, e->attr->kind == ATTR_FLOAT);
        char base[32];
        snprintf(base, sizeof base, "r%d->", e->reg);
        fprintf(out, "r%d ? ", e->reg);
        cg_put_load(out, e->attr, base);
        fputs(" : 0;\n", out);
        return v;
    }
    case EX_ENUMVAL:
        v = new_val(c, false);
        fprintf(out, "%d;", e->enum_value);
        if (e->type.enum_attr && e->enum_value >= 0 && e->enum_value < e->type.enum_attr->nvalues) {
            fputs("   /* ", out);   /* the value's name, as the source wrote it */
            cg_put_comment_text(out, e->type.enum_attr->values[e->enum_value].name);
            fputs(" */", out);
        } else if (e->type.kind == TY_STR && e->str) {
            fputs("   /* \"", out);   /* the literal whose id this is (PREFIX_strings) */
            cg_put_comment_text(out, e->str);
            fputs("\" */", out);
        }
        fputc('\n', out);
        return v;
    case EX_CALL:
        return cond_call(c, e);
    case EX_CMP: {
        CVal l = cond_term(c, e->lhs), r = cond_term(c, e->rhs);
        v = new_val(c, false);
        if (l.flt || r.flt || e->lhs->type.kind == TY_FLOAT || e->rhs->type.kind == TY_FLOAT) {
            put_as_float(out, l);
            fprintf(out, " %s ", cmp_ops[e->op]);
            put_as_float(out, r);
        } else {
            fprintf(out, "t%d %s t%d", l.id, cmp_ops[e->op], r.id);
        }
        fputs(";\n", out);
        return v;
    }
    case EX_ARITH: {
        CVal l = cond_term(c, e->lhs), r = cond_term(c, e->rhs);
        if (e->type.kind == TY_FLOAT) {
            static const char ops[] = "+-*/";
            v = new_val(c, true);
            put_as_float(out, l);
            fprintf(out, " %c ", e->op <= OP_DIV ? ops[e->op - OP_ADD] : '+');
            put_as_float(out, r);
            fputs(";\n", out);
            return v;
        }
        v = new_val(c, false);
        switch (e->op) {
        case OP_ADD: fprintf(out, "%s_wrap((uint64_t)t%d + (uint64_t)t%d);\n", c->P, l.id, r.id); break;
        case OP_SUB: fprintf(out, "%s_wrap((uint64_t)t%d - (uint64_t)t%d);\n", c->P, l.id, r.id); break;
        case OP_MUL: fprintf(out, "%s_wrap((uint64_t)t%d * (uint64_t)t%d);\n", c->P, l.id, r.id); break;
        case OP_DIV: fprintf(out, "%s_div(t%d, t%d, &u);\n", c->P, l.id, r.id); break;
        default:     fprintf(out, "%s_mod(t%d, t%d, &u);\n", c->P, l.id, r.id); break;
        }
        return v;
    }
    case EX_NOT: {
        CVal a = cond_term(c, e->lhs);
        v = new_val(c, false);
        fprintf(out, "t%d == 0;\n", a.id);
        return v;
    }
    case EX_AND:
    case EX_OR: {
        /* both sides always: an undefined side makes the condition false */
        CVal a = cond_term(c, e->lhs), b = cond_term(c, e->rhs);
        v = new_val(c, false);
        fprintf(out, "(t%d != 0) %c (t%d != 0);\n", a.id, e->kind == EX_AND ? '&' : '|', b.id);
        return v;
    }
    case EX_NEG: {
        CVal a = cond_term(c, e->lhs);
        v = new_val(c, a.flt || e->type.kind == TY_FLOAT);
        if (v.flt)
            fprintf(out, "-t%d;\n", a.id);
        else
            fprintf(out, "%s_wrap(0 - (uint64_t)t%d);\n", c->P, a.id);
        return v;
    }
    case EX_STRING:
    case EX_NAME:
        break;
    }
    v = new_val(c, false);
    fputs("0;\n", out);
    return v;
}

/* A static function `int NAME(const P_event *e, ARG)` that is 1 iff cond
 * holds, reading registers as mode says; runs (REG_RUN) read them from
 * `const RTYPE_regs *run`, register r in run->rR when bit r of run->set is. */
static void emit_cond(FILE *out, const char *P, const char *fname, const char *arg, const char *rtype,
                      const AstExpr *cond, RegMode mode, const int *regmap, int hist)
{
    Buf body;
    cg_buf_open(&body);
    Cond c = {body.f, P, NULL, mode, regmap, 0, NULL, 0, false};
    CVal v = {0, false};
    if (cond)
        v = cond_term(&c, cond);
    cg_buf_close(&body);
    fprintf(out, "/* ");
    cg_put_expr_comment(out, cond);
    fprintf(out, " */\nstatic int %s(const %s_event *e, %s)\n{\n    int u = 0;\n", fname, P, arg);
    bool any = false;
    for (int r = 0; r < c.nregs; r++)
        any |= c.used_reg[r] && reg_slot(&c, r) >= 0;
    if (mode == REG_RUN && any)
        fprintf(out, "    const %s_regs *run = regs;\n", rtype);
    for (int r = 0; r < c.nregs; r++) {
        if (!c.used_reg[r])
            continue;
        int slot = reg_slot(&c, r);
        if (mode == REG_EVENTS)
            fprintf(out, "    const %s_event *r%d = (const %s_event *)regs[%d];\n", P, r, P, slot);
        else if (mode == REG_AGE)
            fprintf(out, "    const %s_event *r%d = s->pos - %d >= 1 ? &s->ring[(s->pos - %d) %% %d] : NULL;\n",
                    P, r, slot, slot, hist);
        else
            fprintf(out, "    const %s_r%d *r%d = run->set >> %d & 1 ? &run->r%d : NULL;\n", rtype, slot, r,
                    slot, slot);
    }
    fprintf(out, "%s", body.text);
    if (body.len)
        fputc('\n', out);
    /* what the condition leaves unread (the signature is every condition's) */
    if (!c.reads_event)
        fputs("    (void)e;\n", out);
    if (!any)
        fprintf(out, "    (void)%s;\n", mode == REG_RUN || mode == REG_EVENTS ? "regs" : "s");
    if (cond)
        fprintf(out, "    return !u && t%d != 0;\n}\n\n", v.id);
    else
        fputs("    return !u;\n}\n\n", out);
    free(body.text);
    free(c.used_reg);
}

void cg_emit_cond_fn(FILE *out, const char *P, const char *fname, const char *arg,
                         const AstExpr *cond, RegMode mode, const int *regmap, int hist)
{
    emit_cond(out, P, fname, arg, NULL, cond, mode, regmap, hist);
}

void cg_emit_cond_fn_run(FILE *out, const char *P, const char *fname, const char *rtype, const AstExpr *cond,
                         const int *regmap)
{
    emit_cond(out, P, fname, "const void *regs", rtype, cond, REG_RUN, regmap, 1);
}

/* The name a function's text has while it is compared (no C name has '@'). */
#define FN_NAME_HOLE "@@fn@@"

const char *cg_cond_fn_once(Cg *g, FILE *out, const char *fname, const char *arg, const char *rtype,
                            const AstExpr *cond, RegMode mode, const int *regmap)
{
    Buf b;
    cg_buf_open(&b);
    emit_cond(b.f, g->P, FN_NAME_HOLE, arg, rtype, cond, mode, regmap, 1);
    cg_buf_close(&b);
    if (!g->fn_text.arena)
        intern_init(&g->fn_text, g->arena);
    bool added;
    int id = intern_put(&g->fn_text, b.text, b.len, &added);
    if (added) {
        const char *at = strstr(b.text, FN_NAME_HOLE);
        /* cg_buf_close took the text's last newlines */
        fprintf(out, "%.*s%s%s\n\n", (int)(at - b.text), b.text, fname, at + strlen(FN_NAME_HOLE));
        const char **slot = arena_push(g->arena, &g->fn_name, &g->nfn_name, &g->fn_name_cap, sizeof *slot);
        *slot = arena_strdup(g->arena, fname);
    }
    free(b.text);
    return g->fn_name[id];
}

void cg_emit_cond_bit(FILE *out, const char *P, const AstExpr *cond, int bit)
{
    Buf body;
    cg_buf_open(&body);
    Cond c = {body.f, P, NULL, REG_NONE, NULL, 0, NULL, 0, false};
    CVal v = cond_term(&c, cond);
    cg_buf_close(&body);
    fputs("    {   /* ", out);
    cg_put_expr_comment(out, cond);
    fputs(" */\n        int u = 0;\n", out);
    for (const char *l = body.text; *l;) {   /* the body, one level in */
        size_t n = strcspn(l, "\n");
        fprintf(out, "    %.*s\n", (int)n, l);
        l += n + (l[n] == '\n');
    }
    fprintf(out, "        b |= (uint64_t)(!u && t%d != 0) << %d;\n    }\n", v.id, bit);
    free(body.text);
    free(c.used_reg);
}
