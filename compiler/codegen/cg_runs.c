/* cg_runs.c: the runs strategy -> static const tables of the epsilon-free
 * SRA for the run-set engine (templates/runs*.tpl, once per file), and the
 * guard literals, register writes and keys they point to. */
#define _POSIX_C_SOURCE 200809L
#include "cg_impl.h"
#include "cost.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Pattern registers the run-set engine can hold: run->set is a uint64_t. */
enum { CG_RUNS_MAX_REGS = 64 };

/* Whether e or a subexpression satisfies p. */
static bool any_expr(const AstExpr *e, bool (*p)(const AstExpr *))
{
    if (!e)
        return false;
    if (p(e))
        return true;
    for (int i = 0; i < e->nargs; i++)
        if (any_expr(e->args[i], p))
            return true;
    return any_expr(e->lhs, p) || any_expr(e->rhs, p);
}

static bool is_regattr(const AstExpr *e) { return e->kind == EX_REGATTR; }
static bool is_extern_call(const AstExpr *e) { return e->kind == EX_CALL && e->ext; }

/* Whether e reads a register. */
static bool reads_reg(const AstExpr *e) { return any_expr(e, is_regattr); }

static bool int_like(const AstAttr *a) { return a && a->kind != ATTR_FLOAT; }

/* A conjunct `A == x.B` (either way round, A and B not float) at the top
 * of cond's && tree: the literal holds only when the run's x.B equals the
 * event's A, so runs can be looked up by it. *reg: the EX_REGATTR side. */
static const AstExpr *find_key(const AstExpr *e, const AstExpr **reg)
{
    if (!e)
        return NULL;
    if (e->kind == EX_AND) {
        const AstExpr *k = find_key(e->lhs, reg);
        return k ? k : find_key(e->rhs, reg);
    }
    if (e->kind != EX_CMP || e->op != OP_EQ)
        return NULL;
    const AstExpr *l = e->lhs, *r = e->rhs;
    if (l->kind == EX_REGATTR && r->kind == EX_ATTR) {
        const AstExpr *t = l;
        l = r;
        r = t;
    }
    if (l->kind != EX_ATTR || r->kind != EX_REGATTR || !int_like(l->attr) || !int_like(r->attr))
        return NULL;
    *reg = r;
    return l;
}

/* The register slot a literal's EX_REGATTR reads (-1: statically empty). */
static int lit_slot(const SraLit *l, const AstExpr *reg)
{
    return l->regmap ? l->regmap[reg->reg] : reg->reg;
}

static bool reg_read(const Runs *ru, int r)
{
    for (int a = 0; a < ru->nattrs; a++)
        if (ru->reads[(size_t)r * (size_t)ru->nattrs + (size_t)a])
            return true;
    return false;
}

/* The run-set engine, once per file: its types and its code. */
static bool emit_engine(Cg *g)
{
    Hole holes[] = {{"PREFIX", g->P}};
    char *ty = cg_load_template(g->o, "runs_types.tpl", g->diag);
    char *code = cg_load_template(g->o, "runs.c.tpl", g->diag);
    bool ok = ty && code && cg_fill(ty, "runs_types.tpl", holes, 1, g->diag, g->types.f) &&
              cg_fill(code, "runs.c.tpl", holes, 1, g->diag, g->code.f);
    free(ty);
    free(code);
    return ok;
}

/* Types: a run's registers, only the attributes guards read, each as the
 * int64_t or double a condition loads (no padding: runs compare and hash
 * them as bytes). */
/* The first pattern with pattern i's register layout (the registers
 * read and the attributes each keeps), i when it is the first. */
static int regs_layout(Cg *g, int i, const Runs *ru)
{
    Buf b;
    cg_buf_open(&b);
    for (int r = 0; r < ru->nregs; r++) {
        if (!reg_read(ru, r))
            continue;
        fprintf(b.f, "r%d:", r);
        for (int a = 0; a < ru->nattrs; a++)
            if (ru->reads[(size_t)r * (size_t)ru->nattrs + (size_t)a])
                fprintf(b.f, "%d,", a);
    }
    cg_buf_close(&b);
    if (!g->runs_regs.arena)
        intern_init(&g->runs_regs, g->arena);
    bool added;
    int id = intern_put(&g->runs_regs, b.text, b.len, &added);
    free(b.text);
    if (added)
        *(int *)arena_push(g->arena, &g->runs_regs_first, &g->nruns_regs, &g->runs_regs_cap,
                           sizeof *g->runs_regs_first) = i;
    return g->runs_regs_first[id];
}

/* Pattern i's register types, or names for those of pattern j, the
 * first with its layout; j. */
static int emit_regs_type(Cg *g, int i, const Runs *ru)
{
    FILE *ty = g->types.f;
    const char *P = g->P;
    const AstSchema *sc = g->schema;
    int j = regs_layout(g, i, ru);
    fprintf(ty, "/* Pattern %s: the registers of a run (the attributes its guards read). */\n",
            ru->pattern->name);
    if (j != i) {
        for (int r = 0; r < ru->nregs; r++)
            if (reg_read(ru, r))
                fprintf(ty, "typedef %s_p%d_r%d %s_p%d_r%d;\n", P, j, r, P, i, r);
        fprintf(ty, "typedef %s_p%d_regs %s_p%d_regs;\ntypedef %s_runset %s_p%d_st;\n", P, j, P, i, P, P, i);
        fprintf(ty, "#define %s_p%d_RUNS_BYTES(cap) %s_RUNS_BYTES(cap, %d, sizeof(%s_p%d_regs))\n\n", P, i, P,
                ru->nfa->nstates, P, i);
        return j;
    }
    for (int r = 0; r < ru->nregs; r++) {
        if (!reg_read(ru, r))
            continue;
        fprintf(ty, "typedef struct %s_p%d_r%d {\n", P, i, r);
        for (int a = 0; a < sc->nattrs; a++) {
            if (!ru->reads[(size_t)r * (size_t)ru->nattrs + (size_t)a])
                continue;
            fputs(sc->attrs[a].kind == ATTR_FLOAT ? "    double " : "    int64_t ", ty);
            cg_put_field(ty, &sc->attrs[a]);
            fputs(";\n", ty);
        }
        fprintf(ty, "} %s_p%d_r%d;\n", P, i, r);
    }
    fprintf(ty, "typedef struct %s_p%d_regs {\n    uint64_t set;   /* bit r: register r written */\n", P, i);
    for (int r = 0; r < ru->nregs; r++)
        if (reg_read(ru, r))
            fprintf(ty, "    %s_p%d_r%d r%d;\n", P, i, r, r);
    fprintf(ty, "} %s_p%d_regs;\ntypedef %s_runset %s_p%d_st;\n", P, i, P, P, i);
    fprintf(ty, "#define %s_p%d_RUNS_BYTES(cap) %s_RUNS_BYTES(cap, %d, sizeof(%s_p%d_regs))\n\n", P, i, P,
            ru->nfa->nstates, P, i);
    return i;
}

/* The write function: register r takes the event's read attributes;
 * none (NULL, never called) when no register is read, so none is kept. */
static void emit_write(Cg *g, int i, const Runs *ru)
{
    FILE *out = g->code.f;
    const char *P = g->P;
    const AstSchema *sc = g->schema;
    bool any = false;
    for (int r = 0; r < ru->nregs; r++)
        any |= reg_read(ru, r);
    if (!any) {
        fprintf(out, "#define %s_p%d_write NULL   /* pattern %s keeps no register */\n\n", P, i,
                ru->pattern->name);
        return;
    }
    fprintf(out, "/* Pattern %s: registers in `writes` store e. */\n"
                 "static void %s_p%d_write(void *regs, const %s_event *e, uint64_t writes)\n{\n"
                 "    %s_p%d_regs *run = regs;\n",
            ru->pattern->name, P, i, P, P, i);
    for (int r = 0; r < ru->nregs; r++) {
        if (!reg_read(ru, r))
            continue;
        fprintf(out, "    if (writes >> %d & 1) {\n        run->set |= UINT64_C(1) << %d;\n", r, r);
        for (int a = 0; a < sc->nattrs; a++) {
            if (!ru->reads[(size_t)r * (size_t)ru->nattrs + (size_t)a])
                continue;
            fprintf(out, "        run->r%d.", r);
            cg_put_field(out, &sc->attrs[a]);
            fputs(" = ", out);
            cg_put_load(out, &sc->attrs[a], "e->");
            fputs(";\n", out);
        }
        fputs("    }\n", out);
    }
    fputs("}\n\n", out);
}

/* Transitions of the epsilon-free SRA grouped by source state. */
typedef struct Order {
    int *first;   /* [nstates + 1] */
    int *trans;   /* [ntrans]: SRA transition numbers */
    int  n, maxdeg;
} Order;

static Order order_new(const Sra *nfa)
{
    Order o = {calloc((size_t)nfa->nstates + 1, sizeof(int)), calloc((size_t)nfa->ntrans + 1, sizeof(int)), 0, 1};
    if (!o.first || !o.trans)
        abort();
    for (int q = 0; q < nfa->nstates; q++) {
        o.first[q] = o.n;
        for (int t = 0; t < nfa->ntrans; t++)
            if (nfa->trans[t].from == q && !nfa->trans[t].eps)
                o.trans[o.n++] = t;
        if (o.n - o.first[q] > o.maxdeg)
            o.maxdeg = o.n - o.first[q];
    }
    o.first[nfa->nstates] = o.n;
    return o;
}

static bool is_loop(const SraTrans *t) { return t->from == t->to && t->nlits == 0 && t->nwrites == 0; }

/* One entry of the literal table: a conjunct of a guard literal. */
typedef struct Conj {
    const AstExpr *cond;
    const int     *regmap;
    bool           neg;
    int            fn;      /* its function's number in the pattern */
    const char    *fname;   /* and name */
} Conj;

typedef struct Conjs {
    Conj *v;
    int   n, cap;
    int  *first;   /* [transitions + 1]: each transition's entries, in Order */
    int   nfns;    /* distinct functions */
    bool  eval;    /* the register-free ones are evaluated at once (emit_eval) */
    bool  eval1;   /* in two parts: the start state's, the others (pN_eval1) */
    bool  shared;  /* by the file's vector instead (emit_lmap) */
} Conjs;

/* Register-free literal functions evaluated on every event at once, as
 * bits of a uint64_t, when a pattern has at most this many (and all with
 * numbers below 64); above it each is evaluated when first needed. */
enum { CG_RUNS_EAGER_LITS = 16 };

static void conj_add(Conjs *c, const AstExpr *e, const int *regmap, bool neg)
{
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 16;
        c->v = realloc(c->v, (size_t)c->cap * sizeof *c->v);
        if (!c->v)
            abort();
    }
    c->v[c->n++] = (Conj){e, regmap, neg, -1, NULL};
}

/* A literal that is not negated holds iff each conjunct of its top &&
 * holds (an undefined side makes both false), so the conjuncts are
 * literals of their own: the register-free ones are then tested once per
 * state, not per run. */
static void split_conj(Conjs *c, const AstExpr *e, const int *regmap)
{
    if (e && e->kind == EX_AND) {
        split_conj(c, e->lhs, regmap);
        split_conj(c, e->rhs, regmap);
    } else {
        conj_add(c, e, regmap, false);
    }
}

/* Whether the pattern's register-free literal functions are evaluated
 * on every event at once (its eval function): at most
 * CG_RUNS_EAGER_LITS of them, all numbered below 64, no extern call. */
static bool eval_fits(const Conjs *c)
{
    int nfree = 0;
    bool fits = true;
    for (int k = 0, seen = -1; k < c->n; k++) {   /* functions are numbered in order of first use */
        if (c->v[k].fn <= seen)
            continue;
        seen = c->v[k].fn;
        if (!reads_reg(c->v[k].cond)) {   /* extern predicates only when needed, as before */
            nfree++;
            fits &= seen < 64 && !any_expr(c->v[k].cond, is_extern_call);
        }
    }
    return fits && nfree > 0 && nfree <= CG_RUNS_EAGER_LITS;
}

/* The pattern's eval functions: every register-free literal on the event
 * at once, bit f for function f, so a transition's register-free
 * literals are one mask test (rs_trans fpos, fmask). The literals are
 * blocks of them, not functions of their own: cc's time goes by the
 * function. Two of them: pN_eval, those of the start state's transitions,
 * all an empty set needs to know that the event starts nothing (B7: 7
 * events in 10), then pN_eval1 the others, when there is a run to step
 * (*rest: whether there are others). */
static void emit_eval(Cg *g, int i, const Conjs *c, const Order *o, int start, bool *rest)
{
    FILE *out = g->code.f;
    bool *at_start = calloc((size_t)c->nfns + 1, 1);
    if (!at_start)
        abort();
    for (int k = o->first[start]; k < o->first[start + 1]; k++)
        for (int j = c->first[k]; j < c->first[k + 1]; j++)
            at_start[c->v[j].fn] = true;
    *rest = false;
    for (int part = 0; part < 2; part++) {
        if (part == 0)
            fprintf(out, "/* The register-free literals of the start state's transitions on e:\n"
                         " * bit f for literal function f. */\n"
                         "static uint64_t %s_p%d_eval(const %s_event *e)\n{\n    uint64_t b = 0;\n    (void)e;\n",
                    g->P, i, g->P);
        else if (*rest)
            fprintf(out, "/* The other register-free literals on e. */\n"
                         "static uint64_t %s_p%d_eval1(const %s_event *e)\n{\n    uint64_t b = 0;\n    (void)e;\n",
                    g->P, i, g->P);
        else
            break;
        for (int k = 0, done = -1; k < c->n; k++) {
            if (reads_reg(c->v[k].cond) || c->v[k].fn <= done)
                continue;
            done = c->v[k].fn;
            *rest |= !at_start[done];
            if (at_start[done] == (part == 0))
                cg_emit_cond_bit(out, g->P, c->v[k].cond, done);
        }
        fputs("    return b;\n}\n\n", out);
    }
    free(at_start);
}

/* Most literals in the file's shared vector: its words are a stack array
 * of push_each (512 bytes). */
enum { CG_RUNS_SHARED_MAX = 4096 };

/* The bit of register-free cond in the file's literal vector: one per
 * distinct text (cg_emit_cond_bit's, at bit 0). */
static int shared_lit(Cg *g, const AstExpr *cond)
{
    Buf b;
    cg_buf_open(&b);
    cg_emit_cond_bit(b.f, g->P, cond, 0);
    cg_buf_close(&b);
    if (!g->runs_lit.arena)
        intern_init(&g->runs_lit, g->arena);
    bool added;
    int id = intern_put(&g->runs_lit, b.text, b.len, &added);
    if (added)
        *(const AstExpr **)arena_push(g->arena, &g->runs_lit_cond, &g->nruns_lit, &g->runs_lit_cap,
                                      sizeof *g->runs_lit_cond) = cond;
    free(b.text);
    return id;
}

/* Instead of an eval function: where each register-free literal
 * function of the pattern is in the file's vector (desc lmap; a function
 * that reads a register is never looked up there: 0). */
static void emit_lmap(Cg *g, int i, const Conjs *c)
{
    FILE *out = g->code.f;
    fprintf(out, "static const uint16_t %s_p%d_lmap[] = {", g->P, i);
    for (int f = 0; f < c->nfns; f++) {
        int k = 0;
        while (c->v[k].fn != f)
            k++;
        fprintf(out, "%s%d", f ? ", " : "", reads_reg(c->v[k].cond) ? 0 : shared_lit(g, c->v[k].cond));
    }
    fputs("};\n\n", out);
}

void cg_emit_runs_end(Cg *g)
{
    if (g->nruns_lit == 0)
        return;
    FILE *out = g->code.f;
    const char *P = g->P;
    int words = (g->nruns_lit + 63) / 64;
    fprintf(out, "/* ---- the runs patterns' register-free literals, each once ---- */\n\n"
                 "/* Literal j of the file on e: bit j %% 64 of w[j / 64]. */\n"
                 "static void %s_rs_file_lits(const %s_event *e, uint64_t *w)\n{\n", P, P);
    for (int wd = 0; wd < words; wd++) {
        fputs("    {\n        uint64_t b = 0;\n", out);
        Buf blk;
        cg_buf_open(&blk);
        for (int j = 64 * wd; j < g->nruns_lit && j < 64 * (wd + 1); j++)
            cg_emit_cond_bit(blk.f, P, g->runs_lit_cond[j], j - 64 * wd);
        cg_buf_close(&blk);
        for (const char *l = blk.text; *l;) {   /* one level in */
            size_t n = strcspn(l, "\n");
            fprintf(out, "    %.*s\n", (int)n, l);
            l += n + (l[n] == '\n');
        }
        free(blk.text);
        fprintf(out, "        w[%d] = b;\n    }\n", wd);
    }
    fputs("}\n\n", out);
    /* push_each: before every step (outside any shard's or key's block) */
    Buf *pu = &g->sec[CG_PUSH];
    cg_buf_close(pu);
    char *steps = pu->text;
    cg_buf_open(pu);
    cg_line(pu, 0, "uint64_t rs_lw[%d];   /* the runs patterns' literals on e */", words);
    cg_line(pu, 0, "%s_rs_file_lits(e, rs_lw);", P);
    fprintf(pu->f, "%s\n", steps);
    free(steps);
}

/* Guard literals: one function per distinct (conjunct, register map),
 * but for the register-free ones of a pattern with eval, and the table
 * of every transition's conjuncts in order. */
static Conjs emit_lits(Cg *g, int i, int layout, const Sra *nfa, const Order *o, bool share)
{
    FILE *out = g->code.f;
    const char *P = g->P;
    Conjs c = {NULL, 0, 0, calloc((size_t)o->n + 1, sizeof(int)), 0, false, false, false};
    if (!c.first)
        abort();
    for (int k = 0; k < o->n; k++) {
        const SraTrans *t = &nfa->trans[o->trans[k]];
        c.first[k] = c.n;
        for (int j = 0; j < t->nlits; j++) {
            if (t->lits[j].neg)
                conj_add(&c, t->lits[j].cond, t->lits[j].regmap, true);
            else
                split_conj(&c, t->lits[j].cond, t->lits[j].regmap);
        }
    }
    c.first[o->n] = c.n;
    for (int k = 0; k < c.n; k++) {   /* numbers: equal (conjunct, register map), one function */
        int f = 0;
        while (f < k && !(c.v[f].cond == c.v[k].cond && c.v[f].regmap == c.v[k].regmap))
            f++;
        c.v[k].fn = f < k ? c.v[f].fn : c.nfns++;
    }
    c.eval = eval_fits(&c);
    char fname[CG_NAME_MAX], rtype[96];
    snprintf(rtype, sizeof rtype, "%s_p%d", P, layout);   /* its conditions name the layout's types */
    for (int k = 0; k < c.n; k++) {
        int f = 0;
        while (c.v[f].fn != c.v[k].fn)
            f++;
        if (f < k) {
            c.v[k].fname = c.v[f].fname;
        } else if (!c.eval || reads_reg(c.v[k].cond)) {
            snprintf(fname, sizeof fname, "%s_p%d_c%d", P, i, c.v[k].fn);
            c.v[k].fname = cg_cond_fn_once(g, out, fname, "const void *regs", rtype, c.v[k].cond, REG_RUN,
                                           c.v[k].regmap);
        }
    }
    c.shared = c.eval && share && g->nruns_lit + c.nfns <= CG_RUNS_SHARED_MAX;
    if (c.shared)
        emit_lmap(g, i, &c);
    else if (c.eval)
        emit_eval(g, i, &c, o, nfa->start, &c.eval1);
    /* NULL: a register-free literal of a pattern with eval (never called) */
    fprintf(out, "static const %s_rs_lit %s_p%d_lits[] = {\n", P, P, i);
    for (int k = 0; k < c.n; k++)
        fprintf(out, "    {%s, %d, %d, %d},\n", c.v[k].fname ? c.v[k].fname : "NULL", c.v[k].fn, c.v[k].neg,
                !reads_reg(c.v[k].cond));
    if (c.n == 0)
        fputs("    {NULL, 0, 0, 0},   /* no literals */\n", out);
    fputs("};\n\n", out);
    return c;
}

/* The key of state q: the first transition (not a self-loop that leaves
 * runs in place) with a literal `A == x.B`; its number among q's
 * transitions, or -1. The key functions go to out. */
static int emit_key(Cg *g, int i, const Runs *ru, const Order *o, int q)
{
    const Sra *nfa = ru->nfa;
    for (int k = o->first[q]; k < o->first[q + 1]; k++) {
        const SraTrans *t = &nfa->trans[o->trans[k]];
        if (is_loop(t))
            continue;
        for (int j = 0; j < t->nlits; j++) {
            const AstExpr *reg = NULL, *ev = t->lits[j].neg ? NULL : find_key(t->lits[j].cond, &reg);
            int slot = ev ? lit_slot(&t->lits[j], reg) : -1;
            if (slot < 0 || slot >= ru->nregs)
                continue;
            FILE *out = g->code.f;
            const char *P = g->P;
            fprintf(out, "/* State %d's key: x.%s of the run, %s of the event. */\n"
                         "static int %s_p%d_rk%d(const void *regs, int64_t *key)\n{\n"
                         "    const %s_p%d_regs *run = regs;\n    if (!(run->set >> %d & 1))\n        return 0;\n"
                         "    *key = run->r%d.",
                    q, reg->attr->name, ev->attr->name, P, i, q, P, i, slot, slot);
            cg_put_field(out, reg->attr);
            fprintf(out, ";\n    return 1;\n}\n\nstatic int64_t %s_p%d_ek%d(const %s_event *e)\n{\n    return ", P,
                    i, q, P);
            cg_put_load(out, ev->attr, "e->");
            fputs(";\n}\n\n", out);
            return k - o->first[q];
        }
    }
    return -1;
}

/* Transition k's register-free literals as one mask test, `(b & fmask) ==
 * fpos` over the eval bits: always 1 holds, 0 never (a literal and its
 * negation), -1 test. The table step's rs_trans and the direct-coded
 * step both take them from here. */
typedef struct DirectTest {
    uint64_t fpos, fmask;
    int      always;   /* 1 holds, 0 never, -1 test */
} DirectTest;

static DirectTest direct_test(const Conjs *c, int k)
{
    DirectTest d = {0, 0, -1};
    for (int j = c->first[k]; j < c->first[k + 1]; j++)
        if (!reads_reg(c->v[j].cond))
            *(c->v[j].neg ? &d.fmask : &d.fpos) |= UINT64_C(1) << c->v[j].fn;
    if (d.fpos & d.fmask)   /* a literal and its negation */
        d.always = 0;
    d.fmask |= d.fpos;
    if (d.fmask == 0)
        d.always = 1;
    return d;
}

/* The transition, state and pattern tables. */
static void emit_tables(Cg *g, int i, const Runs *ru, const Order *o, const Conjs *c)
{
    const Sra *nfa = ru->nfa;
    FILE *out = g->code.f;
    const char *P = g->P;
    int *key = calloc((size_t)nfa->nstates + 1, sizeof *key);
    if (!key)
        abort();
    for (int q = 0; q < nfa->nstates; q++)
        key[q] = emit_key(g, i, ru, o, q);
    fprintf(out, "static const %s_rs_trans %s_p%d_trans[] = {\n", P, P, i);
    for (int k = 0; k < o->n; k++) {
        const SraTrans *t = &nfa->trans[o->trans[k]];
        uint64_t w = 0;
        for (int j = 0; j < t->nwrites; j++)
            if (reg_read(ru, t->writes[j]))
                w |= UINT64_C(1) << t->writes[j];
        DirectTest d = direct_test(c, k);   /* for eval; a contradiction: fpos 1, fmask 0 */
        uint64_t fpos = !c->eval ? 0 : d.always == 0 ? 1 : d.fpos, fmask = c->eval && d.always != 0 ? d.fmask : 0;
        fprintf(out, "    {%d, %d, %d, UINT64_C(0x%" PRIx64 "), UINT64_C(0x%" PRIx64 "), UINT64_C(0x%" PRIx64 "), %d, %d, %d},"
                     "   /* %d -> %d, atom %d */\n",
                t->to, c->first[k], c->first[k + 1] - c->first[k], fpos, fmask, w, is_loop(t), nfa->final[t->to],
                ru->dead[t->to], t->from, t->to, t->position);
    }
    if (o->n == 0)
        fputs("    {0, 0, 0, 0, 0, 0, 0, 0, 0},   /* no transitions */\n", out);
    fprintf(out, "};\n\nstatic const %s_rs_state %s_p%d_states[] = {\n", P, P, i);
    for (int q = 0; q < nfa->nstates; q++) {
        bool loop = false;
        for (int k = o->first[q]; k < o->first[q + 1]; k++)
            loop |= is_loop(&nfa->trans[o->trans[k]]);
        fprintf(out, "    {%d, %d, %d, %d, %d, %d, ", o->first[q], o->first[q + 1] - o->first[q], key[q], loop,
                ru->dead[q], nfa->final[q]);
        if (key[q] >= 0)
            fprintf(out, "%s_p%d_rk%d, %s_p%d_ek%d},   /* ", P, i, q, P, i, q);
        else
            fputs("NULL, NULL},   /* ", out);
        cg_put_positions(out, nfa, &q, 1);
        fputs(" */\n", out);
    }
    int wk = ru->window_kind == WIN_EVENTS ? 1 : ru->window_kind == WIN_TIME ? 2 : 0;
    bool dense = true;
    for (int r = 0; r < ru->nregs; r++)
        dense &= !reg_read(ru, r);
    for (int k = 0; k < c->n; k++)   /* the dense step tests register-free literals only */
        dense &= !reads_reg(c->v[k].cond);
    /* each state's first transition, by address: the dense step's loop
       bounds without an index multiplied (B1: 5 instructions a state) */
    fprintf(out, "};\n\nstatic const %s_rs_trans *const %s_p%d_tq[] = {\n   ", P, P, i);
    for (int q = 0; q <= nfa->nstates; q++)
        fprintf(out, " %s_p%d_trans + %d,", P, i, o->first[q]);
    fprintf(out, "\n};\n\nstatic const %s_rs_desc %s_p%d_desc = {\n"
                 "    %s_p%d_states, %s_p%d_trans, %s_p%d_lits, %d, %d, (int32_t)sizeof(%s_p%d_regs), %d, %d,\n"
                 "    %d, INT64_C(%" PRId64 "), %s_p%d_write, ",
            P, P, i, P, i, P, i, P, i, nfa->nstates, nfa->start, P, i, c->nfns, dense, wk, ru->window, P, i);
    if (c->shared)
        fprintf(out, "NULL, NULL, %s_p%d_lmap,", P, i);
    else if (c->eval && c->eval1)
        fprintf(out, "%s_p%d_eval, %s_p%d_eval1, NULL,", P, i, P, i);
    else if (c->eval)
        fprintf(out, "%s_p%d_eval, NULL, NULL,", P, i);
    else
        fputs("NULL, NULL, NULL,", out);
    fprintf(out, " %s_p%d_tq,\n};\n\n", P, i);
    free(key);
}

/* The transitions of state q for a run that started at (sp, st): a
 * detection's start into best, the others into the next half; whether
 * any reads st. */
static bool direct_state(Cg *g, int i, Buf *b, int level, const Runs *ru, const Order *o, const Conjs *c, int q,
                         const char *sp, const char *st)
{
    const Sra *nfa = ru->nfa;
    bool reads = false;
    for (int k = o->first[q]; k < o->first[q + 1]; k++) {
        const SraTrans *t = &nfa->trans[o->trans[k]];
        DirectTest d = direct_test(c, k);
        if (d.always == 0)
            continue;
        int in = level;
        if (d.always < 0) {
            cg_line(b, level, "if ((b & UINT64_C(0x%" PRIx64 ")) == UINT64_C(0x%" PRIx64 ")) {   /* atom %d */",
                    d.fmask, d.fpos, t->position);
            in++;
        }
        if (nfa->final[t->to])
            cg_line(b, in, "best = %s > best ? %s : best;", sp, sp);
        if (!ru->dead[t->to]) {
            cg_line(b, in, "%s_rs_dput(&%s_p%d_desc, np, nocc, &nn, %d, %s, %s);", g->P, g->P, i, t->to,
                    sp, st);
            reads = true;
        }
        if (d.always < 0)
            cg_line(b, level, "}");
    }
    return reads;
}

/* Whether a run can be in state q: a transition leaves it (else no run
 * is kept there) and one enters it. */
static bool direct_occupiable(const Runs *ru, int q)
{
    if (ru->dead[q])
        return false;
    for (int t = 0; t < ru->nfa->ntrans; t++)
        if (ru->nfa->trans[t].to == q && !ru->nfa->trans[t].eps)
            return true;
    return false;
}

/* Pattern i's direct-coded dense step, pN_dstep (runs_direct_fits): the
 * work of rs_step and rs_dense_step with each state's transitions as C,
 * their masks constants, and the states in order rather than through the
 * occupancy list, which it still keeps for the table step and the
 * checkpoint. The step's caller takes it only when the set holds a run
 * per state (cap >= nstates), so it drops none and the order is free.
 * The body goes first into a buffer of its own: e and ts are parameters
 * only when it reads them (returned: whether it takes ts). */
static bool emit_direct(Cg *g, int i, const Runs *ru, const Order *o, const Conjs *c)
{
    const Sra *nfa = ru->nfa;
    const char *P = g->P;
    Buf b;
    cg_buf_open(&b);
    /* rs_step's test: an empty set that no run leaves the start of */
    bool go = false;
    int ntests = 0;
    Buf any;
    cg_buf_open(&any);
    for (int k = o->first[nfa->start]; k < o->first[nfa->start + 1]; k++) {
        DirectTest d = direct_test(c, k);
        go |= d.always == 1;
        if (d.always < 0)
            fprintf(any.f, "%s(b & UINT64_C(0x%" PRIx64 ")) == UINT64_C(0x%" PRIx64 ")", ntests++ ? " || " : "",
                    d.fmask, d.fpos);
    }
    cg_buf_close(&any);
    if (!go) {
        cg_line(&b, 1, "if (s->n == 0%s%s%s) {   /* only counts the event */", any.len ? " && !(" : "", any.text,
                any.len ? ")" : "");
        cg_line(&b, 2, "s->pos++;");
        cg_line(&b, 2, "return 0;");
        cg_line(&b, 1, "}");
    }
    free(any.text);
    if (c->eval1)
        cg_line(&b, 1, "b |= %s_p%d_eval1(e);", P, i);
    cg_line(&b, 1, "int64_t pos = s->pos, best = -1;");
    cg_line(&b, 1, "int64_t *cp = s->dcur, *np = s->dnext;");
    cg_line(&b, 1, "int32_t *nocc = s->onext, nn = 0;");
    bool reads_ts = false;
    for (int q = 0; q < nfa->nstates; q++) {
        if (!direct_occupiable(ru, q))
            continue;
        cg_begin(&b, 1);
        fprintf(b.f, "if (cp[%d] >= 0) {   /* ", q);
        cg_put_positions(b.f, nfa, &q, 1);
        fputs(" */", b.f);
        cg_end(&b);
        cg_line(&b, 2, "int64_t sp = cp[%d], st = cp[%d];", q, nfa->nstates + q);
        cg_line(&b, 2, "cp[%d] = -1;   /* the current half is the next event's next */", q);
        cg_line(&b, 2, "if (%s_rs_live_at(&%s_p%d_desc, pos, sp, st, ts)) {", P, P, i);
        direct_state(g, i, &b, 3, ru, o, c, q, "sp", "st");
        cg_line(&b, 2, "}");
        cg_line(&b, 1, "}");
        reads_ts = true;
    }
    cg_line(&b, 1, "/* the run that starts at e */");
    reads_ts |= direct_state(g, i, &b, 1, ru, o, c, nfa->start, "pos", "ts");
    cg_line(&b, 1, "return %s_rs_dense_end(s, cp, np, s->ocur, nocc, nn, best, pos);", P);
    cg_buf_close(&b);
    Buf *out = &g->code;
    cg_line(out, 0, "/* Pattern %s: its dense step direct-coded (docs/codegen.md, \"runs\"). */", ru->pattern->name);
    cg_begin(out, 0);
    fprintf(out->f, "static %s_RS_INLINE int %s_p%d_dstep(%s_runset *s", P, P, i, P);
    if (!c->shared)
        fprintf(out->f, ", const %s_event *e", P);
    if (reads_ts)
        fputs(", int64_t ts", out->f);
    if (c->shared)
        fputs(", const uint64_t *lw", out->f);
    fputs(")", out->f);
    cg_end(out);
    cg_line(out, 0, "{");
    if (c->shared)
        cg_line(out, 1, "uint64_t b = %s_rs_gather(&%s_p%d_desc, lw);", P, P, i);
    else
        cg_line(out, 1, "uint64_t b = %s_p%d_eval(e);", P, i);
    fprintf(out->f, "%s\n", b.text);
    cg_line(out, 0, "}");
    cg_blank(out);
    free(b.text);
    return reads_ts;
}

/* The runs matcher of pattern i: the engine's tables and three wrappers
 * with the interface of the other strategies' state structs. */
void cg_emit_runs(Cg *g, int i, const Plan *plan)
{
    const Runs *ru = plan->runs;
    const char *P = g->P;
    if (ru->nregs > CG_RUNS_MAX_REGS) {
        diag_error(g->diag, plan->pattern->loc, "pattern '%s' has %d registers; the runs strategy holds at most %d",
                   plan->pattern->name, ru->nregs, CG_RUNS_MAX_REGS);
        return;
    }
    if (!g->has_runs && !emit_engine(g))
        return;
    int layout = emit_regs_type(g, i, ru);
    Order o = order_new(ru->nfa);
    emit_write(g, i, ru);
    Conjs c = emit_lits(g, i, layout, ru->nfa, &o, g->runs_share && !plan->fc_tables);
    g->runs_lw_now = c.shared;
    emit_tables(g, i, ru, &o, &c);
    bool direct = (c.eval || c.shared) &&   /* as the cost model chose: dropped in a file over the budget */
                  (plan->cost ? plan->cost->runs_direct : runs_direct_fits(plan->nfa ? plan->nfa : ru->nfa));
    bool dts = direct && emit_direct(g, i, ru, &o, &c);
    int ts = g->schema->ts_attr;
    Buf tsx;   /* the event's timestamp */
    cg_buf_open(&tsx);
    if (ts >= 0) {
        fputs("(int64_t)e->", tsx.f);
        cg_put_field(tsx.f, &g->schema->attrs[ts]);
    } else {
        fputs("0", tsx.f);
    }
    cg_buf_close(&tsx);
    Buf *b = &g->code;
    const char *lwp = c.shared ? ", const uint64_t *lw" : "", *lwa = c.shared ? ", lw" : "";
    if (direct) {   /* the table step out of line (RS_COLD), the pattern's step the choice */
        cg_line(b, 0, "/* One event of the substream by the tables; 1 if a run reaches a final state. */");
        cg_line(b, 0, "static %s_RS_COLD int %s_p%d_tstep(%s_p%d_st *s, const %s_event *e, uint64_t *overflow%s)", P, P,
                i, P, i, P, lwp);
    } else {
        cg_line(b, 0, "/* One event of the substream; 1 if a run reaches a final state. */");
        cg_line(b, 0, "static int %s_p%d_step(%s_p%d_st *s, const %s_event *e, uint64_t *overflow%s)", P, i, P, i, P,
                lwp);
    }
    cg_line(b, 0, "{");
    cg_line(b, 1, "int32_t on[%d];", o.maxdeg);
    cg_line(b, 1, "uint8_t memo[%d];", c.nfns > 0 ? c.nfns : 1);
    cg_line(b, 1, "return %s_rs_step(s, &%s_p%d_desc, e, %s, on, memo, overflow, %s);", P, P, i, tsx.text,
            c.shared ? "lw" : "NULL");
    cg_line(b, 0, "}");
    cg_blank(b);
    if (direct) {
        cg_line(b, 0, "/* One event of the substream; 1 if a run reaches a final state. */");
        cg_line(b, 0, "static int %s_p%d_step(%s_p%d_st *s, const %s_event *e, uint64_t *overflow%s)", P, i, P, i, P,
                lwp);
        cg_line(b, 0, "{");
        cg_line(b, 1, "if (%s_RS_DIRECT && s->cap >= %d)   /* a run per state: none is dropped */", P,
                ru->nfa->nstates);
        cg_line(b, 2, "return %s_p%d_dstep(s%s%s%s%s);", P, i, c.shared ? "" : ", e", dts ? ", " : "",
                dts ? tsx.text : "", lwa);
        cg_line(b, 1, "return %s_p%d_tstep(s, e, overflow%s);", P, i, lwa);
        cg_line(b, 0, "}");
        cg_blank(b);
    }
    free(tsx.text);
    /* macros, not functions: cc's time goes by the function */
    cg_line(b, 0, "#define %s_p%d_alloc(s, a, cap) %s_rs_alloc(s, &%s_p%d_desc, a, cap)", P, i, P, P, i);
    cg_line(b, 0, "#define %s_p%d_release(s, a, cap) %s_rs_release(s, &%s_p%d_desc)", P, i, P, P, i);
    cg_blank(b);
    free(o.first);
    free(o.trans);
    free(c.v);
    free(c.first);
}
