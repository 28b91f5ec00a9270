/* codegen.c: checked Ast + strategy plans -> the C text of a matcher: small
 * emitters write conditions, state switches and run steps into the holes
 * of templates/matcher.{c,h}.tpl (see docs/codegen.md). */
#define _POSIX_C_SOURCE 200809L
#include "codegen.h"

#include "minterm.h"
#include "sremrt/episode.h"
#include "sremrt/explore.h"
#include "sremrt/keymap.h"

#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- small text helpers --------------------------------------------------------- */

/* A memstream that collects one hole's text. */
typedef struct Buf {
    char  *text;
    size_t len;
    FILE  *f;
} Buf;

static void buf_open(Buf *b)
{
    b->text = NULL;
    b->len = 0;
    b->f = open_memstream(&b->text, &b->len);
    if (!b->f)
        abort();
}

static const char *buf_close(Buf *b)
{
    fclose(b->f);
    b->f = NULL;
    /* Holes end without a newline: the template has its own. */
    while (b->len > 0 && b->text[b->len - 1] == '\n')
        b->text[--b->len] = '\0';
    return b->text;
}

/* Text inside a C comment: no comment end, no trigraphs, one line. */
static void put_comment_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (s[0] == '*' && s[1] == '/')
            fputs("* ", out);
        else if (s[0] == '?' && s[1] == '?')
            fputs("? ", out);
        else if (*s == '\n' || *s == '\r')
            fputc(' ', out);
        else
            fputc(*s, out);
    }
}

static void put_expr_comment(FILE *out, const AstExpr *e)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        abort();
    if (e)
        ast_dump_expr(e, f);
    else
        fputs("true", f);
    fclose(f);
    put_comment_text(out, text);
    free(text);
}

/* A C string literal (escapes quotes, backslashes, '?' against trigraphs
 * and every byte outside printable ASCII). */
static void put_c_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\' || *p == '?')
            fprintf(out, "\\%c", *p);
        else if (*p < 32 || *p > 126)
            fprintf(out, "\\%03o", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

static const char *const c_keywords[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
    "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
    "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
    "union", "unsigned", "void", "volatile", "while", "bool", "true", "false", NULL};

/* The struct member of an attribute: its name, with '_' after a C keyword
 * or a name the C implementation reserves. */
static void put_field(FILE *out, const AstAttr *a)
{
    fputs(a->name, out);
    for (int i = 0; c_keywords[i]; i++)
        if (strcmp(a->name, c_keywords[i]) == 0) {
            fputc('_', out);
            return;
        }
    if (a->name[0] == '_')
        fputc('_', out);
}

void cg_prefix_from_path(const char *path, char *buf, size_t size)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strcspn(base, ".");
    size_t k = 0;
    if (size < 4) {
        if (size)
            buf[0] = '\0';
        return;
    }
    if (n == 0 || isdigit((unsigned char)base[0]) || base[0] == '_')
        buf[k++] = 'm', buf[k++] = '_';
    for (size_t i = 0; i < n && k + 1 < size; i++)
        buf[k++] = isalnum((unsigned char)base[i]) ? base[i] : '_';
    buf[k] = '\0';
}

bool cg_valid_prefix(const char *p)
{
    if (!p || !(isalpha((unsigned char)p[0])))
        return false;
    for (const char *s = p; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return false;
    return strlen(p) < 64;
}

/* ---- templates -------------------------------------------------------------------- */

/* The template text (malloc'd), from the directory or the embedded copy. */
static char *load_template(const CgOptions *o, const char *name, Diag *diag)
{
    Loc none = {0, 0};
    if (o->template_dir) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", o->template_dir, name);
        FILE *f = fopen(path, "rb");
        if (!f) {
            diag_error(diag, none, "cannot read template '%s': %s", path, strerror(errno));
            return NULL;
        }
        char *text = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&text, &len);
        char chunk[4096];
        size_t n;
        while (m && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
            fwrite(chunk, 1, n, m);
        fclose(f);
        if (!m)
            abort();
        fclose(m);
        return text;
    }
    for (int i = 0; cg_templates[i].name; i++)
        if (strcmp(cg_templates[i].name, name) == 0)
            return strdup(cg_templates[i].text);
    diag_error(diag, none, "template '%s' is not built into sremc", name);
    return NULL;
}

typedef struct Hole {
    const char *name;   /* "PREFIX" for @@PREFIX@@ */
    const char *value;
} Hole;

/* Writes the template with every @@NAME@@ filled; an unknown hole is an
 * error (a template and this file out of step). */
static bool fill(const char *tpl, const char *tname, const Hole *holes, int nholes, Diag *diag,
                 FILE *out)
{
    const char *p = tpl;
    for (;;) {
        const char *at = strstr(p, "@@");
        if (!at) {
            fputs(p, out);
            return true;
        }
        fwrite(p, 1, (size_t)(at - p), out);
        const char *end = strstr(at + 2, "@@");
        size_t n = end ? (size_t)(end - at - 2) : 0;
        int i = 0;
        while (end && i < nholes && !(strlen(holes[i].name) == n && strncmp(holes[i].name, at + 2, n) == 0))
            i++;
        if (!end || i == nholes) {
            Loc none = {0, 0};
            diag_error(diag, none, "template '%s': unknown hole '%.*s'", tname,
                       end ? (int)n : 20, at);
            return false;
        }
        fputs(holes[i].value, out);
        p = end + 2;
    }
}

/* ---- conditions (LANGUAGE.md 3.2, exactly as eval.c) ----------------------------------- */

/* Where a condition finds the event a pattern register holds. */
typedef enum RegMode {
    REG_NONE,   /* tdfa: no registers */
    REG_AGE,    /* dsra: regmap[r] = age in the history ring (< 0: empty) */
    REG_RUN     /* runs: regmap[r] (or r) = the run's register slot */
} RegMode;

typedef struct Cond {
    FILE       *out;
    const char *P;        /* prefix */
    const char *pat;      /* "p0": the pattern's name part */
    RegMode     mode;
    const int  *regmap;
    int         ntemp;
    bool        used_reg[64];
} Cond;

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

static void put_load(FILE *out, const AstAttr *a, const char *base)
{
    if (a->kind == ATTR_FLOAT) {
        fprintf(out, "%s", base);
        put_field(out, a);
    } else if (a->kind == ATTR_BOOL) {
        fprintf(out, "(int64_t)(%s", base);
        put_field(out, a);
        fputs(" != 0)", out);
    } else {
        fprintf(out, "(int64_t)%s", base);
        put_field(out, a);
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
        v = new_val(c, e->attr->kind == ATTR_FLOAT);
        put_load(out, e->attr, "e->");
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
        if (e->reg < 64)
            c->used_reg[e->reg] = true;
        fprintf(out, "    if (!r%d)\n        u = 1;\n", e->reg);
        v = new_val(c, e->attr->kind == ATTR_FLOAT);
        char base[32];
        snprintf(base, sizeof base, "r%d->", e->reg);
        fprintf(out, "r%d ? ", e->reg);
        put_load(out, e->attr, base);
        fputs(" : 0;\n", out);
        return v;
    }
    case EX_ENUMVAL:
        v = new_val(c, false);
        fprintf(out, "%d;\n", e->enum_value);
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
 * holds, reading registers as mode says. */
static void emit_cond_fn(FILE *out, const char *P, const char *fname, const char *arg,
                         const AstExpr *cond, RegMode mode, const int *regmap, int hist)
{
    Buf body;
    buf_open(&body);
    Cond c = {body.f, P, NULL, mode, regmap, 0, {false}};
    CVal v = {0, false};
    if (cond)
        v = cond_term(&c, cond);
    buf_close(&body);
    fprintf(out, "/* ");
    put_expr_comment(out, cond);
    fprintf(out, " */\nstatic int %s(const %s_event *e, %s)\n{\n    int u = 0;\n", fname, P, arg);
    for (int r = 0; r < 64; r++) {
        if (!c.used_reg[r])
            continue;
        int slot = reg_slot(&c, r);
        if (mode == REG_AGE)
            fprintf(out, "    const %s_event *r%d = s->pos - %d >= 1 ? &s->ring[(s->pos - %d) %% %d] : NULL;\n",
                    P, r, slot, slot, hist);
        else
            fprintf(out, "    const %s_event *r%d = run->set[%d] ? &run->regs[%d] : NULL;\n", P, r, slot,
                    slot);
    }
    fprintf(out, "%s", body.text);
    if (body.len)
        fputc('\n', out);
    fprintf(out, "    (void)e;\n    (void)%s;\n", mode == REG_RUN ? "run" : "s");
    if (cond)
        fprintf(out, "    return !u && t%d != 0;\n}\n\n", v.id);
    else
        fputs("    return !u;\n}\n\n", out);
    free(body.text);
}

/* ---- the generator -------------------------------------------------------------------- */

/* Most patterns of a batched push_many, and the events of one block:
 * the block's detections wait in a stack array of CG_BATCH_MAX *
 * CG_BATCH_BLOCK uint16_t (2 KiB at most, small enough for firmware). */
enum { CG_BATCH_MAX = 16, CG_BATCH_BLOCK = 64 };

typedef struct Cg {
    const Ast       *ast;
    const CgOptions *o;
    Arena           *arena;
    Diag            *diag;
    const AstSchema *schema;
    const char      *P;
    Buf              code, fields, init, push, freec, externs, finish, trie, types, heap;   /* heap: the terms of NAME_ARENA_BYTES */
    Buf              many_in, many_out;   /* push_many: pattern states into locals and back */
    Buf              run, many_fast;      /* threaded push_many of a one-pattern file */
    bool             threaded;            /* this file: one unpartitioned tree pattern */
    bool             local_state;         /* the pattern being emitted keeps its state in a local */
    size_t           rt_bytes;     /* the runtime terms of the arena */
    int32_t          explore_seq[SREMRT_EXPLORE_MAX_M];   /* sizing an explore clause */
    bool             has_tdfa, has_dsra, has_runs;
    /* batched push_many: every declaration is an unpartitioned pattern
       whose state lives in a local, without explore (emit_batched) */
    int              nbatch;
    int              batch[CG_BATCH_MAX];      /* pattern numbers */
    const char      *batch_name[CG_BATCH_MAX];
    bool             no_batch;
} Cg;

static const char *uint_type(long n)
{
    return n <= 256 ? "uint8_t" : n <= 65536 ? "uint16_t" : "uint32_t";
}

/* "after atoms 1, 3" for a state's members: the pattern positions of the
 * automaton transitions that enter them. */
static void put_positions(FILE *out, const Sra *nfa, const int *members, int n)
{
    int natoms = nfa->pattern ? nfa->pattern->natoms : 0;
    bool *seen = calloc((size_t)natoms + 2, sizeof *seen);
    if (!seen)
        abort();
    bool start = false;
    for (int k = 0; k < n; k++) {
        if (members[k] == nfa->start)
            start = true;
        for (int t = 0; t < nfa->ntrans; t++)
            if (nfa->trans[t].to == members[k] && !nfa->trans[t].eps && nfa->trans[t].position > 0 &&
                nfa->trans[t].position <= natoms)
                seen[nfa->trans[t].position] = true;
    }
    const char *sep = "after atom ";
    int count = 0;
    for (int i = 1; i <= natoms; i++)
        count += seen[i];
    if (count > 1)
        sep = "after atoms ";
    for (int i = 1; i <= natoms; i++)
        if (seen[i]) {
            fprintf(out, "%s%d", sep, i);
            sep = ", ";
        }
    if (start)
        fprintf(out, "%sat the start", count ? "; " : "");
    if (!count && !start)
        fputs("no run in progress", out);
    free(seen);
}

static void window_text(const AstPattern *p, FILE *out)
{
    if (p->hdr.window.kind == WIN_EVENTS)
        fprintf(out, "within %" PRId64 " events", p->hdr.window.value);
    else if (p->hdr.window.kind == WIN_TIME)
        fprintf(out, "within %" PRId64 " timestamp units", p->hdr.window.value);
    else
        fputs("no window", out);
}

static void emit_dsra_step(Cg *g, int i, const Plan *plan, bool run);

/* The state struct of tdfa or dsra pattern i: state, substream position,
 * start tags (tagged tdfa) and the ring of the last H events (dsra). */
static void emit_state_struct(Cg *g, int i, const Dsra *d, const AstPattern *p, int slots, int H)
{
    FILE *ty = g->types.f;
    const char *P = g->P;
    fprintf(ty, "/* Pattern %s: one substream's matcher state. */\ntypedef struct %s_p%d_st {\n", p->name, P, i);
    fprintf(ty, "    %s state;   /* current DFA state */\n", uint_type(d->nstates));
    fputs("    int64_t pos;   /* events of the substream so far */\n", ty);
    if (d->tagged)
        fprintf(ty, "    int64_t tag[%d];   /* per slot: latest start (%s) */\n", slots,
                d->window_kind == WIN_TIME ? "timestamp" : "substream position");
    if (H > 0)
        fprintf(ty, "    %s_event ring[%d];   /* the last %d events: registers by age */\n", P, H, H);
    fprintf(ty, "} %s_p%d_st;\n\n", P, i);
}

/* The tdfa or dsra of pattern i: state struct, atoms, step function. */
static void emit_dsra(Cg *g, int i, const Plan *plan)
{
    const Dsra *d = plan->min;
    const AstPattern *p = plan->pattern;
    FILE *out = g->code.f;
    const char *P = g->P;
    bool dsra = d->kind == DSRA_DSRA;
    int H = dsra ? d->history : 0;
    int slots = 0;
    for (int q = 0; q < d->nstates; q++)
        if (d->states[q].nmembers > slots)
            slots = d->states[q].nmembers;

    emit_state_struct(g, i, d, p, slots > 0 ? slots : 1, H);

    /* atoms the trees test */
    bool *used = calloc((size_t)d->mt->natoms + 1, sizeof *used);
    if (!used)
        abort();
    for (int q = 0; q < d->nstates; q++)
        for (int n = 0; n < d->states[q].nnodes; n++)
            if (d->states[q].nodes[n].atom >= 0)
                used[d->states[q].nodes[n].atom] = true;
    char fname[128], arg[128];
    snprintf(arg, sizeof arg, "const %s_p%d_st *s", P, i);
    for (int a = 0; a < d->mt->natoms; a++) {
        if (!used[a])
            continue;
        snprintf(fname, sizeof fname, "%s_p%d_a%d", P, i, a);
        const MtAtom *at = &d->mt->atoms[a];
        fprintf(out, "/* atom %d */\n", a);
        emit_cond_fn(out, P, fname, arg, at->expr, dsra ? REG_AGE : REG_NONE, at->regmap, H > 0 ? H : 1);
    }
    free(used);
    emit_dsra_step(g, i, plan, g->threaded);
}

/* "    int64_t now = ...;": the tag clock of the current event. */
static void put_now(Cg *g, const Dsra *d, FILE *out, const char *decl)
{
    int ts = g->schema->ts_attr;
    fprintf(out, "    %snow = ", decl);
    if (d->window_kind == WIN_TIME && ts >= 0) {
        fputs("e->", out);
        put_field(out, &g->schema->attrs[ts]);
        fputs(";\n", out);
    } else {
        fputs("s->pos;\n", out);
    }
}

/* The trees of a tdfa or dsra as C. step: `int P_pI_step(s, e)`, one
 * event, a switch on the state. run (threaded, for a file whose only
 * declaration is this unpartitioned pattern): `size_t P_pI_run(m, s,
 * events, n)`, the whole batch of push_many in one function where each
 * transition jumps straight to the code of its target state, which reads
 * the next event: no dispatch on the state per event, so each state's
 * branches are predicted on their own. */
static void emit_dsra_step(Cg *g, int i, const Plan *plan, bool run)
{
    const Dsra *d = plan->min;
    const AstPattern *p = plan->pattern;
    FILE *out = run ? g->run.f : g->code.f;
    const char *P = g->P;
    int H = d->kind == DSRA_DSRA ? d->history : 0;
    bool tagged = d->tagged;

    if (!run) {
        fprintf(out, "/* One event of the substream: 1 on a detection. */\n"
                     "static int %s_p%d_step(%s_p%d_st *s, const %s_event *e)\n{\n    int hit = 0;\n",
                P, i, P, i, P);
        fputs("    s->pos++;\n", out);
        if (tagged) {
            put_now(g, d, out, "int64_t ");
            fputs("    (void)now;\n", out);
        }
        fputs("    switch (s->state) {\n", out);
    } else {
        fprintf(out, "/* Pattern %s over events[0..n-1] (push_many): how many were fed. */\n"
                     "static size_t %s_p%d_run(%s_matcher *m, %s_p%d_st *s, const %s_event *events, size_t n)\n{\n"
                     "    size_t k = 0;\n    const %s_event *e = events;\n    int hit;\n",
                p->name, P, i, P, P, i, P, P);
        if (tagged)
            fputs("    int64_t now;\n", out);
        fputs("    switch (s->state) {\n", out);
        for (int q = 0; q < d->nstates; q++)
            fprintf(out, "    case %d:\n        goto p%d_q%d;\n", q, i, q);
        fputs("    default:\n        return 0;\n    }\n", out);
    }
    bool *tref = calloc((size_t)d->ntrans + 1, sizeof *tref);
    if (!tref)
        abort();
    for (int q = 0; q < d->nstates; q++) {
        const DsraState *st = &d->states[q];
        if (!run) {
            fprintf(out, "    case %d: /* ", q);
        } else {
            fprintf(out, "p%d_q%d: /* ", i, q);
        }
        put_positions(out, d->nfa, st->members, st->nmembers);
        fprintf(out, "%s */\n", st->final ? "; final" : "");
        if (run) {
            fprintf(out, "    if (k == n || %s_rejected(m, e = &events[k])) {\n        s->state = %d;\n"
                         "        return k;\n    }\n    k++;\n    m->stats.events++;\n    m->index++;\n"
                         "    s->pos++;\n    hit = 0;\n",
                    P, q);
            if (tagged)
                put_now(g, d, out, "");
        }
        if (st->nnodes == 0) {
            if (run)
                fprintf(out, "    goto p%d_q%d;\n", i, q);
            else
                fputs("        goto done;\n", out);
            continue;
        }
        bool *ref = calloc((size_t)st->nnodes + 1, sizeof *ref);
        if (!ref)
            abort();
        /* internal nodes a parent jumps to; leaves jump to their transition */
        for (int n = 0; n < st->nnodes; n++)
            if (st->nodes[n].atom >= 0) {
                if (st->nodes[st->nodes[n].hi].atom >= 0)
                    ref[st->nodes[n].hi] = true;
                if (st->nodes[st->nodes[n].lo].atom >= 0)
                    ref[st->nodes[n].lo] = true;
            }
        for (int n = 0; n < st->nnodes; n++) {
            const DsraNode *nd = &st->nodes[n];
            if (n > 0 && !ref[n])
                continue;
            if (n > 0)
                fprintf(out, "    p%d_s%d_n%d:\n", i, q, n);
            if (nd->atom < 0) {
                fprintf(out, "        goto p%d_t%d;\n", i, nd->trans);
                tref[nd->trans] = true;
                continue;
            }
            fprintf(out, "        if (%s_p%d_a%d(e, s))\n            ", P, i, nd->atom);
            const DsraNode *hi = &st->nodes[nd->hi], *lo = &st->nodes[nd->lo];
            if (hi->atom < 0) {
                fprintf(out, "goto p%d_t%d;\n", i, hi->trans);
                tref[hi->trans] = true;
            } else {
                fprintf(out, "goto p%d_s%d_n%d;\n", i, q, nd->hi);
            }
            if (lo->atom < 0) {
                fprintf(out, "        goto p%d_t%d;\n", i, lo->trans);
                tref[lo->trans] = true;
            } else {
                fprintf(out, "        goto p%d_s%d_n%d;\n", i, q, nd->lo);
            }
        }
        free(ref);
    }
    if (!run)
        fputs("    default:\n        goto done;\n    }\n", out);
    for (int t = 0; t < d->ntrans; t++) {
        if (!tref[t])
            continue;
        const DsraTrans *tr = &d->trans[t];
        const DsraState *to = &d->states[tr->to];
        fprintf(out, "p%d_t%d: { /* %d -> %d */\n", i, t, tr->from, tr->to);
        if (tagged && tr->tags) {
            for (int k = 0; k < to->nmembers; k++) {
                const DsraTag *tg = &tr->tags[k];
                fprintf(out, "    int64_t p%d_t%d_n%d = ", i, t, k);
                if (tg->fresh || tg->nfrom == 0) {
                    fputs("now;\n", out);
                    continue;
                }
                for (int j = 1; j < tg->nfrom; j++)
                    fprintf(out, "%s_max(", P);
                fprintf(out, "s->tag[%d]", tg->from[0]);
                for (int j = 1; j < tg->nfrom; j++)
                    fprintf(out, ", s->tag[%d])", tg->from[j]);
                fputs(";\n", out);
            }
            for (int k = 0; k < to->nmembers; k++)
                fprintf(out, "    s->tag[%d] = p%d_t%d_n%d;\n", k, i, t, k);
        }
        if (!run)
            fprintf(out, "    s->state = %d;\n", tr->to);
        if (to->final && tagged && tr->tags && to->nfinals > 0) {
            /* the latest start among the final slots is inside the window */
            fputs("    hit = (uint64_t)now - (uint64_t)", out);
            for (int k = 1; k < to->nfinals; k++)
                fprintf(out, "%s_max(", P);
            fprintf(out, "p%d_t%d_n%d", i, t, to->finals[0]);
            for (int k = 1; k < to->nfinals; k++)
                fprintf(out, ", p%d_t%d_n%d)", i, t, to->finals[k]);
            if (d->window_kind == WIN_TIME)
                fprintf(out, " <= (uint64_t)INT64_C(%" PRId64 ");\n", d->window);
            else
                fprintf(out, " + 1 <= (uint64_t)INT64_C(%" PRId64 ");\n", d->window);
        } else if (to->final && !tagged) {
            fputs("    hit = 1;\n", out);
        }
        if (run) {
            if (H > 0)
                fprintf(out, "    s->ring[s->pos %% %d] = *e;\n", H);
            fprintf(out, "    if (hit)\n        %s_match(m, ", P);
            put_c_string(out, p->name);
            fprintf(out, ", e, NULL, 0);\n    goto p%d_q%d;\n}\n", i, tr->to);
        } else {
            fputs("    goto done;\n}\n", out);
        }
    }
    free(tref);
    if (run) {
        fputs("}\n\n", out);
        return;
    }
    fputs("done:\n    (void)e;\n", out);
    if (H > 0)
        fprintf(out, "    s->ring[s->pos %% %d] = *e;\n", H);
    fputs("    return hit;\n}\n\n", out);
}

/* ---- tdfa as tables --------------------------------------------------------------------- */

/* A register-free tdfa whose events fall into few classes runs from tables
 * instead of decision trees: class = what the atoms say of the event, one
 * lookup for the transition, and start tags moved by index with a max of
 * at most two sources, so a step has no data-dependent branch (the trees'
 * branches mispredict on every unpredictable event). */
typedef struct Table {
    int  natoms;           /* atoms the trees test */
    int  atoms[6];         /* bits mode: class bit k = atoms[k] */
    const AstAttr *attr;   /* enum mode: the attribute the atoms read */
    int  nclasses;         /* enum mode: distinct atom vectors (+1 out of range) */
    int *value_class;      /* enum mode: per value */
    int *class_bits;       /* per class: the atom values */
    int  out_class;        /* enum mode: a value out of range */
    int  slots;
    bool pairs;            /* every tag has at most 2 sources, every state at most 2 final slots */
} Table;

/* Whether e reads nothing but enum attribute *attr (set on the first), and
 * constants, without calls or registers. */
static bool reads_one_enum(const AstExpr *e, const AstAttr **attr)
{
    if (!e)
        return true;
    switch (e->kind) {
    case EX_ATTR:
        if (e->attr->kind != ATTR_ENUM || (*attr && *attr != e->attr))
            return false;
        *attr = e->attr;
        return true;
    case EX_ENUMVAL:
    case EX_TRUE:
    case EX_FALSE:
        return true;
    case EX_NOT:
    case EX_AND:
    case EX_OR:
    case EX_CMP:
        return reads_one_enum(e->lhs, attr) && reads_one_enum(e->rhs, attr);
    default:
        return false;
    }
}

/* The value of the decision tree of state q when the atoms say bits (bit
 * k for the k-th used atom in atom_bit order): its transition. */
static int tree_trans(const DsraState *st, const int *atom_bit, unsigned bits)
{
    int n = 0;
    while (st->nodes[n].atom >= 0)
        n = (bits >> atom_bit[st->nodes[n].atom]) & 1u ? st->nodes[n].hi : st->nodes[n].lo;
    return st->nodes[n].trans;
}

static bool table_plan(Cg *g, const Dsra *d, Table *t, int *atom_bit)
{
    memset(t, 0, sizeof *t);
    if (d->kind != DSRA_TDFA || d->nstates > 65535)
        return false;
    for (int a = 0; a < d->mt->natoms; a++)
        atom_bit[a] = -1;
    for (int q = 0; q < d->nstates; q++) {
        const DsraState *st = &d->states[q];
        if (st->nmembers > t->slots)
            t->slots = st->nmembers;
        if (st->nnodes == 0)   /* a state without a tree stays put */
            return false;
        for (int n = 0; n < st->nnodes; n++) {
            int a = st->nodes[n].atom;
            if (a < 0 || atom_bit[a] >= 0)
                continue;
            if (t->natoms == 16)
                return false;
            atom_bit[a] = t->natoms;
            t->atoms[t->natoms < 6 ? t->natoms : 0] = a;
            t->natoms++;
        }
    }
    if (!d->tagged)
        t->slots = 1;       /* no tags: members do not matter */
    if (t->slots > 7)   /* a transition's sources fit 64 bits: S (S + 1) */
        return false;
    if (t->slots == 0)
        t->slots = 1;
    t->pairs = true;
    for (int q = 0; q < d->nstates; q++)
        t->pairs = t->pairs && d->states[q].nfinals <= 2;
    for (int k = 0; k < d->ntrans; k++)
        for (int j = 0; d->tagged && d->trans[k].tags && j < d->states[d->trans[k].to].nmembers; j++)
            t->pairs = t->pairs && (d->trans[k].tags[j].fresh || d->trans[k].tags[j].nfrom <= 2);
    /* enum mode: every atom reads one enum attribute */
    const AstAttr *attr = NULL;
    bool one_enum = t->natoms > 0;
    for (int a = 0; a < d->mt->natoms && one_enum; a++)
        if (atom_bit[a] >= 0)
            one_enum = !d->mt->atoms[a].regs && reads_one_enum(d->mt->atoms[a].expr, &attr);
    if (one_enum && attr && attr->nvalues <= 4096) {
        int nv = attr->nvalues;
        t->attr = attr;
        t->value_class = arena_alloc(g->arena, (size_t)(nv + 1) * sizeof *t->value_class);
        t->class_bits = arena_alloc(g->arena, (size_t)(nv + 1) * sizeof *t->class_bits);
        Value *ev = arena_alloc(g->arena, (size_t)g->schema->nattrs * sizeof *ev);
        memset(ev, 0, (size_t)g->schema->nattrs * sizeof *ev);
        for (int v = 0; v <= nv; v++) {   /* v = nv: out of range (no constant equals it) */
            ev[attr->index].i = v;
            EvalCtx ctx = {ev, NULL, NULL, NULL};
            unsigned bits = 0;
            for (int a = 0; a < d->mt->natoms; a++)
                if (atom_bit[a] >= 0 && eval_cond(d->mt->atoms[a].expr, &ctx))
                    bits |= 1u << atom_bit[a];
            int c = 0;
            while (c < t->nclasses && (unsigned)t->class_bits[c] != bits)
                c++;
            if (c == t->nclasses)
                t->class_bits[t->nclasses++] = (int)bits;
            if (v < nv)
                t->value_class[v] = c;
            else
                t->out_class = c;
        }
        return (long)d->nstates * t->nclasses <= (1L << 22);
    }
    if (t->natoms > 6)
        return false;
    t->nclasses = 1 << t->natoms;
    t->class_bits = arena_alloc(g->arena, (size_t)t->nclasses * sizeof *t->class_bits);
    for (int c = 0; c < t->nclasses; c++)
        t->class_bits[c] = c;
    return (long)d->nstates * t->nclasses <= (1L << 22);
}

/* A static const table of n values from fn. */
static void put_table(FILE *out, const char *type, const char *name, long n,
                      unsigned long long (*fn)(const void *, long), const void *ctx)
{
    fprintf(out, "static const %s %s[%ld] = {", type, name, n);
    for (long k = 0; k < n; k++)
        fprintf(out, "%s%s%#llx", k ? "," : "", k % 12 == 0 ? "\n    " : " ", fn(ctx, k));
    fputs("\n};\n", out);
}

typedef struct TableCtx {
    const Dsra  *d;
    const Table *t;
    const int   *atom_bit;
} TableCtx;

static unsigned long long tab_value_class(const void *c, long k)
{
    return (unsigned long long)((const TableCtx *)c)->t->value_class[k];
}

/* Transition of state k / nclasses on class k % nclasses. */
static int tab_trans(const TableCtx *x, long k)
{
    const DsraState *st = &x->d->states[k / x->t->nclasses];
    return tree_trans(st, x->atom_bit, (unsigned)x->t->class_bits[k % x->t->nclasses]);
}
static unsigned long long tab_next(const void *c, long k) { return (unsigned long long)tab_trans(c, k); }
static unsigned long long tab_goto(const void *c, long k)
{
    const TableCtx *x = c;
    return (unsigned long long)x->d->trans[tab_trans(x, k)].to;
}
static unsigned long long tab_final(const void *c, long k)
{
    return ((const TableCtx *)c)->d->states[k].final;
}

/* Transition k's tag sources: bit j * (S + 1) + f says that target slot j
 * takes the max with source f (a slot of the current state, or S: the
 * event itself, a fresh start). No bit for slot j: no start (INT64_MIN). */
static unsigned long long tab_sources(const void *c, long k)
{
    const TableCtx *x = c;
    const DsraTrans *tr = &x->d->trans[k];
    int S = x->t->slots;
    unsigned long long m = 0;
    for (int j = 0; tr->tags && j < x->d->states[tr->to].nmembers; j++) {
        const DsraTag *tg = &tr->tags[j];
        if (tg->fresh || tg->nfrom == 0)
            m |= 1ull << (j * (S + 1) + S);
        else
            for (int f = 0; f < tg->nfrom; f++)
                m |= 1ull << (j * (S + 1) + tg->from[f]);
    }
    return m;
}

/* Pairs mode: transition k's sources, 8 bits per target slot j: the low
 * nibble one source, the high nibble another (the same when only one), as
 * indexes into {old slots, S: now, S + 1: none}. */
static unsigned long long tab_pairs(const void *c, long k)
{
    const TableCtx *x = c;
    const DsraTrans *tr = &x->d->trans[k];
    int S = x->t->slots;
    unsigned long long m = 0;
    for (int j = 0; j < S; j++) {
        int a = S + 1, b = S + 1;
        if (tr->tags && j < x->d->states[tr->to].nmembers) {
            const DsraTag *tg = &tr->tags[j];
            if (tg->fresh || tg->nfrom == 0) {
                a = b = S;
            } else {
                a = tg->from[0];
                b = tg->from[tg->nfrom > 1 ? 1 : 0];
            }
        }
        m |= (unsigned long long)(a | b << 4) << (8 * j);
    }
    return m;
}

/* Pairs mode: state k's final slots (two nibbles; S: none, the INT64_MIN
 * entry of the new tags). */
static unsigned long long tab_fin_pair(const void *c, long k)
{
    const TableCtx *x = c;
    const DsraState *st = &x->d->states[k];
    int none = x->t->slots;
    int a = st->final && st->nfinals > 0 ? st->finals[0] : none;
    int b = st->final && st->nfinals > 1 ? st->finals[1] : a;
    return (unsigned long long)(a | b << 4);
}

/* State k's final slots as a bit set. */
static unsigned long long tab_finals(const void *c, long k)
{
    const DsraState *st = &((const TableCtx *)c)->d->states[k];
    unsigned long long m = 0;
    for (int f = 0; st->final && f < st->nfinals; f++)
        m |= 1ull << st->finals[f];
    return m;
}

static const char *uint_bits_type(int bits)
{
    return bits <= 8 ? "uint8_t" : bits <= 16 ? "uint16_t" : bits <= 32 ? "uint32_t" : "uint64_t";
}

/* The tdfa of pattern i from tables (table_plan said it fits). */
static void emit_tdfa_table(Cg *g, int i, const Plan *plan, const Table *t, const int *atom_bit)
{
    const Dsra *d = plan->min;
    const AstPattern *p = plan->pattern;
    FILE *out = g->code.f;
    const char *P = g->P;
    int S = t->slots;
    bool tagged = d->tagged;
    TableCtx x = {d, t, atom_bit};
    char name[160];

    emit_state_struct(g, i, d, p, S, 0);

    fprintf(out, "/* Table layout: events fall into %d classes by what the %d atoms say", t->nclasses,
            t->natoms);
    if (t->attr)
        fprintf(out, " (by the value of %s)", t->attr->name);
    fputs(";\n * a step looks up the next state by (state, class) and, with a window,\n"
          " * moves the start tags by the transition's source masks, without branches. */\n",
          out);
    for (int q = 0; q < d->nstates; q++) {   /* what each state stands for */
        fprintf(out, "/* state %d: ", q);
        put_positions(out, d->nfa, d->states[q].members, d->states[q].nmembers);
        fprintf(out, "%s */\n", d->states[q].final ? "; final" : "");
    }
    if (t->attr) {
        snprintf(name, sizeof name, "%s_p%d_class", P, i);
        put_table(out, uint_type(t->nclasses), name, t->attr->nvalues, tab_value_class, &x);
    } else {
        for (int k = 0; k < t->natoms; k++) {
            const MtAtom *at = &d->mt->atoms[t->atoms[k]];
            snprintf(name, sizeof name, "%s_p%d_a%d", P, i, t->atoms[k]);
            fprintf(out, "/* atom %d: class bit %d */\n", t->atoms[k], k);
            emit_cond_fn(out, P, name, "const void *s", at->expr, REG_NONE, NULL, 1);
        }
    }
    long cells = (long)d->nstates * t->nclasses;
    snprintf(name, sizeof name, "%s_p%d_goto", P, i);
    put_table(out, uint_type(d->nstates), name, cells, tab_goto, &x);
    if (tagged) {
        snprintf(name, sizeof name, "%s_p%d_next", P, i);
        put_table(out, uint_type(d->ntrans), name, cells, tab_next, &x);
        snprintf(name, sizeof name, "%s_p%d_sources", P, i);
        if (t->pairs)
            put_table(out, uint_bits_type(8 * S), name, d->ntrans, tab_pairs, &x);
        else
            put_table(out, uint_bits_type(S * (S + 1)), name, d->ntrans, tab_sources, &x);
        snprintf(name, sizeof name, "%s_p%d_finals", P, i);
        if (t->pairs)
            put_table(out, "uint8_t", name, d->nstates, tab_fin_pair, &x);
        else
            put_table(out, uint_bits_type(S), name, d->nstates, tab_finals, &x);
    } else {
        snprintf(name, sizeof name, "%s_p%d_final", P, i);
        put_table(out, "uint8_t", name, d->nstates, tab_final, &x);
    }

    fprintf(out, "\n/* One event of the substream: 1 on a detection. */\n"
                 "static inline int %s_p%d_step(%s_p%d_st *s, const %s_event *e)\n{\n",
            P, i, P, i, P);
    fputs("    s->pos++;\n", out);
    if (t->attr) {
        fputs("    uint32_t v = (uint32_t)e->", out);
        put_field(out, t->attr);
        fprintf(out, ";\n    unsigned c = v < %du ? %s_p%d_class[v] : %du;\n", t->attr->nvalues, P, i,
                t->out_class);
    } else {
        fputs("    unsigned c = 0", out);
        for (int k = 0; k < t->natoms; k++)
            fprintf(out, "\n        | (unsigned)%s_p%d_a%d(e, NULL) << %d", P, i, t->atoms[k], k);
        fputs(";\n", out);
    }
    fprintf(out, "    unsigned cell = (unsigned)s->state * %du + c;\n", t->nclasses);
    if (!tagged) {
        fprintf(out, "    s->state = %s_p%d_goto[cell];\n    return %s_p%d_final[s->state];\n}\n\n", P, i, P, i);
        return;
    }
    put_now(g, d, out, "int64_t ");
    fprintf(out, "    uint64_t src = %s_p%d_sources[%s_p%d_next[cell]];\n", P, i, P, i);
    fprintf(out, "    s->state = %s_p%d_goto[cell];\n    unsigned fin = %s_p%d_finals[s->state];\n", P, i, P, i);
    if (t->pairs) {
        /* each new tag the max of two entries of {old tags, now, none};
         * one 8-byte store and load per entry (wider copies would stall
         * store forwarding) */
        fprintf(out, "    int64_t o[%d], n[%d];\n", S + 2, S + 1);
        for (int f = 0; f < S; f++)
            fprintf(out, "    o[%d] = s->tag[%d];\n", f, f);
        fprintf(out, "    o[%d] = now;\n    o[%d] = INT64_MIN;\n    n[%d] = INT64_MIN;\n", S, S + 1, S);
        for (int j = 0; j < S; j++)
            fprintf(out, "    int64_t x%d = o[src >> %d & 15u], y%d = o[src >> %d & 15u];\n"
                         "    n[%d] = x%d > y%d ? x%d : y%d;\n    s->tag[%d] = n[%d];\n",
                    j, 8 * j, j, 8 * j + 4, j, j, j, j, j, j, j);
        fprintf(out, "    int64_t f = n[fin & 15u], g = n[fin >> 4];\n    int64_t last = f > g ? f : g;\n");
    } else {
    /* old tags and now in locals; each new tag the max of its sources */
    for (int f = 0; f < S; f++)
        fprintf(out, "    int64_t o%d = s->tag[%d];\n", f, f);
    fprintf(out, "    int64_t o%d = now;\n    int64_t last = INT64_MIN;\n", S);
    /* new tag j: max over sources f of (bit set ? o_f : INT64_MIN), as a
     * balanced tree of selects, so no chain is longer than log2(S + 1) */
    for (int j = 0; j < S; j++) {
        int n = S + 1;
        for (int f = 0; f <= S; f++)
            fprintf(out, "    int64_t c%d_%d = src >> %d & 1u ? o%d : INT64_MIN;\n", j, f, j * (S + 1) + f, f);
        for (int w = 1; w < n; w *= 2)
            for (int f = 0; f + w < n; f += 2 * w)
                fprintf(out, "    c%d_%d = c%d_%d > c%d_%d ? c%d_%d : c%d_%d;\n", j, f, j, f, j, f + w, j, f, j,
                        f + w);
        fprintf(out, "    s->tag[%d] = c%d_0;\n", j, j);
    }
    for (int j = 0; j < S; j++)
        fprintf(out, "    int64_t l%d = fin >> %d & 1u ? c%d_0 : INT64_MIN;\n", j, j, j);
    for (int w = 1; w < S; w *= 2)
        for (int j = 0; j + w < S; j += 2 * w)
            fprintf(out, "    l%d = l%d > l%d ? l%d : l%d;\n", j, j, j + w, j, j + w);
    fputs("    last = l0;\n", out);
    }
    if (d->window_kind == WIN_TIME)
        fprintf(out, "    return (last != INT64_MIN) & ((uint64_t)now - (uint64_t)last <= (uint64_t)INT64_C(%" PRId64
                     "));\n}\n\n",
                d->window);
    else
        fprintf(out, "    return (last != INT64_MIN) & ((uint64_t)now - (uint64_t)last + 1 <= (uint64_t)INT64_C(%" PRId64
                     "));\n}\n\n",
                d->window);
}

/* ---- tdfa as chains --------------------------------------------------------------------- */

/* Condition of link r as a C expression: a call of its atom, or 1 for `_`. */
static void put_link(Cg *g, int i, const Chain *c, int r, FILE *out)
{
    if (c->links[r].cond)
        fprintf(out, "%s_p%d_c%d(e, NULL)", g->P, i, r);
    else
        fputs("1", out);
}

/* "to = mK ? from : to" as `to ^= (to ^ from) & -mK`: gcc turns a ?: here
 * into a branch, which mispredicts on unpredictable streams. */
static void put_select(FILE *out, int k, const char *to, const char *from)
{
    fprintf(out, "    %s ^= (%s ^ %s) & -(int64_t)m%d;\n", to, to, from, k);
}

/* Positions of a chain step start at 2^62 (the state's pos plus that), so
 * that 0, "none", is further from any of them than a window or gap can
 * reach, and the window and gap tests need no test of "none". */
#define CHAIN_BASE "(INT64_C(1) << 62)"
static const int64_t chain_reach = INT64_C(1) << 61;

/* A chain (chain.h) as a step without a state: the tags l[r] (positions,
 * 0 = none) and, under a time window, t[r] (the timestamps of the same
 * starts), updated from the last link down by branch-free selects. */
static void emit_chain(Cg *g, int i, const Plan *plan)
{
    const Chain *c = plan->chain;
    const AstPattern *p = plan->pattern;
    FILE *out = g->code.f, *ty = g->types.f;
    const char *P = g->P;
    int n = c->n, T = n > 1 ? n - 1 : 1;
    bool time = c->window_kind == WIN_TIME && g->schema->ts_attr >= 0;
    static const char *const what[] = {"stam: latest start of a chain through atoms 1..r+1",
                                       "stnm: latest start of the chains waiting after atom r+1",
                                       "latest end of a match through atom r+1"};

    fprintf(ty, "/* Pattern %s: one substream's matcher state. */\ntypedef struct %s_p%d_st {\n", p->name, P, i);
    fputs("    int64_t pos;   /* events of the substream so far */\n", ty);
    fprintf(ty, "    int64_t l[%d];   /* per r, as 2^62 + position (0: none): %s */\n", T, what[c->kind]);
    if (time)
        fprintf(ty, "    int64_t t[%d];   /* per r: the timestamp of that start */\n", T);
    fprintf(ty, "} %s_p%d_st;\n\n", P, i);

    fprintf(out, "/* Chain layout: %d atoms, one tag each (chain.h); no automaton state. */\n", n);
    char name[160];
    for (int r = 0; r < n; r++)
        if (c->links[r].cond) {
            snprintf(name, sizeof name, "%s_p%d_c%d", P, i, r);
            fprintf(out, "/* atom %d */\n", r + 1);
            emit_cond_fn(out, P, name, "const void *s", c->links[r].cond, REG_NONE, NULL, 1);
        }
    fprintf(out, "/* One event of the substream: 1 on a detection. */\n"
                 "static inline int %s_p%d_step(%s_p%d_st *s, const %s_event *e)\n{\n"
                 "    int64_t now = ++s->pos + " CHAIN_BASE ";\n",
            P, i, P, i, P);
    if (time) {
        fputs("    int64_t ts = e->", out);
        put_field(out, &g->schema->attrs[g->schema->ts_attr]);
        fputs(";\n", out);
    }
    for (int r = 0; r < n; r++) {
        fprintf(out, "    int c%d = ", r);
        put_link(g, i, c, r, out);
        fputs(";\n", out);
    }
    for (int r = 0; r + 1 < n; r++) {
        fprintf(out, "    int64_t l%d = s->l[%d];\n", r, r);
        if (time)
            fprintf(out, "    int64_t t%d = s->t[%d];\n", r, r);
    }
    if (n == 1) {
        fputs("    (void)now;\n    return c0;\n}\n\n", out);
        return;
    }
    /* the detection: the last atom after the latest chain (or match)
     * through the others, inside the window (or the gap: at most k events
     * between, so now - l <= k + 1, as l < now) */
    int L = n - 2;
    fprintf(out, "    int hit = c%d", n - 1);
    if (c->kind == CHAIN_GAPS) {
        if (c->links[n - 1].gap >= 0)   /* 0 is then out of reach */
            fprintf(out, " & ((uint64_t)(now - l%d) <= (uint64_t)INT64_C(%" PRId64 "))", L,
                    c->links[n - 1].gap + 1);
        else
            fprintf(out, " & (l%d != 0)", L);
    } else if (time) {
        fprintf(out, " & (l%d != 0) & ((uint64_t)ts - (uint64_t)t%d <= (uint64_t)INT64_C(%" PRId64 "))", L, L,
                c->window);
    } else if (c->window_kind == WIN_EVENTS && c->window < chain_reach) {
        fprintf(out, " & ((uint64_t)(now - l%d) < (uint64_t)INT64_C(%" PRId64 "))", L, c->window);
    } else {   /* no window, or one beyond any stream */
        fprintf(out, " & (l%d != 0)", L);
    }
    fputs(";\n", out);
    if (c->kind == CHAIN_STNM)   /* the chains after atom m-1 are done */
        fprintf(out, "    l%d &= (int64_t)c%d - 1;\n", L, n - 1);
    for (int r = n - 2; r >= 1; r--) {
        fprintf(out, "    int m%d = c%d", r, r);
        if (c->kind == CHAIN_STNM || (c->kind == CHAIN_GAPS && c->links[r].gap < 0))
            fprintf(out, " & (l%d != 0)", r - 1);
        else if (c->kind == CHAIN_GAPS)
            fprintf(out, " & ((uint64_t)(now - l%d) <= (uint64_t)INT64_C(%" PRId64 "))", r - 1,
                    c->links[r].gap + 1);
        fputs(";\n", out);
        char lr[16], lq[16];
        snprintf(lr, sizeof lr, "l%d", r);
        snprintf(lq, sizeof lq, "l%d", r - 1);
        put_select(out, r, lr, c->kind == CHAIN_GAPS ? "now" : lq);
        if (time) {
            snprintf(lr, sizeof lr, "t%d", r);
            snprintf(lq, sizeof lq, "t%d", r - 1);
            put_select(out, r, lr, lq);
        }
        if (c->kind == CHAIN_STNM)
            fprintf(out, "    l%d &= (int64_t)c%d - 1;\n", r - 1, r);
    }
    fputs("    int m0 = c0;\n", out);
    put_select(out, 0, "l0", "now");
    if (time)
        put_select(out, 0, "t0", "ts");
    for (int r = 0; r + 1 < n; r++) {
        fprintf(out, "    s->l[%d] = l%d;\n", r, r);
        if (time)
            fprintf(out, "    s->t[%d] = t%d;\n", r, r);
    }
    fputs("    return hit;\n}\n\n", out);
}

/* The runs matcher of pattern i over the epsilon-free SRA. */
static void emit_runs(Cg *g, int i, const Plan *plan)
{
    const Runs *ru = plan->runs;
    const Sra *nfa = ru->nfa;
    FILE *out = g->code.f;
    const char *P = g->P;
    int R = ru->nregs;
    int ts = g->schema->ts_attr;

    FILE *ty = g->types.f;
    fprintf(ty, "/* Pattern %s: one run: where it is, what its registers hold, when it started. */\n"
                "typedef struct %s_p%d_run {\n    %s state;\n",
            plan->pattern->name, P, i, uint_type(nfa->nstates));
    if (R > 0)
        fprintf(ty, "    uint8_t set[%d];   /* register written */\n", R);
    fputs("    int64_t start_pos;   /* substream position of its first event */\n"
          "    int64_t start_ts;    /* and that event's timestamp */\n", ty);
    if (R > 0)
        fprintf(ty, "    %s_event regs[%d];\n", P, R);
    fprintf(ty, "} %s_p%d_run;\n\n", P, i);
    fprintf(ty, "/* One substream's runs: cur holds n live runs, next is built per event. */\n"
                "typedef struct %s_p%d_st {\n    int64_t pos;\n    int32_t n, nnext;\n"
                "    %s_p%d_run *cur, *next;   /* [max_runs] each; NULL until allocated */\n} %s_p%d_st;\n\n",
            P, i, P, i, P, i);

    /* guards: one function per distinct (condition, register map) */
    int nlit = 0;
    for (int t = 0; t < nfa->ntrans; t++)
        nlit += nfa->trans[t].nlits;
    int *litfn = calloc((size_t)nlit + 1, sizeof *litfn);
    const SraLit **fns = calloc((size_t)nlit + 1, sizeof *fns);
    if (!litfn || !fns)
        abort();
    int nfns = 0, li = 0;
    char fname[128], arg[128];
    snprintf(arg, sizeof arg, "const %s_p%d_run *run", P, i);
    for (int t = 0; t < nfa->ntrans; t++)
        for (int k = 0; k < nfa->trans[t].nlits; k++, li++) {
            const SraLit *l = &nfa->trans[t].lits[k];
            int f = 0;
            while (f < nfns && !(fns[f]->cond == l->cond && fns[f]->regmap == l->regmap))
                f++;
            if (f == nfns) {
                fns[nfns++] = l;
                snprintf(fname, sizeof fname, "%s_p%d_c%d", P, i, f);
                emit_cond_fn(out, P, fname, arg, l->cond, REG_RUN, l->regmap, 1);
            }
            litfn[li] = f;
        }

    fprintf(out, "/* Adds r to next, merged with a run of equal state and registers (the\n"
                 " * later start wins); a full array drops it and counts the overflow. */\n"
                 "static void %s_p%d_add(%s_p%d_st *s, const %s_p%d_run *r, int32_t cap, uint64_t *overflow)\n{\n",
            P, i, P, i, P, i);
    fprintf(out, "    for (int32_t i = 0; i < s->nnext; i++) {\n        %s_p%d_run *q = &s->next[i];\n"
                 "        if (q->state != r->state)\n            continue;\n", P, i);
    for (int k = 0; k < R; k++)
        fprintf(out, "        if (q->set[%d] != r->set[%d] || (q->set[%d] && !%s_same_event(&q->regs[%d], &r->regs[%d])))\n"
                     "            continue;\n", k, k, k, P, k, k);
    fputs("        if (r->start_pos > q->start_pos) {\n            q->start_pos = r->start_pos;\n"
          "            q->start_ts = r->start_ts;\n        }\n        return;\n    }\n"
          "    if (s->nnext == cap) {\n        (*overflow)++;\n        return;\n    }\n"
          "    s->next[s->nnext++] = *r;\n}\n\n", out);

    fprintf(out, "/* Moves run r over e; 1 if it reaches a final state. */\n"
                 "static int %s_p%d_step_run(%s_p%d_st *s, const %s_p%d_run *r, const %s_event *e, int32_t cap,\n"
                 "                           uint64_t *overflow)\n{\n    int hit = 0;\n    switch (r->state) {\n",
            P, i, P, i, P, i, P);
    li = 0;
    int *lstart = calloc((size_t)nfa->ntrans + 1, sizeof *lstart);
    if (!lstart)
        abort();
    for (int t = 0, acc = 0; t < nfa->ntrans; t++) {
        lstart[t] = acc;
        acc += nfa->trans[t].nlits;
    }
    for (int q = 0; q < nfa->nstates; q++) {
        int nt = 0;
        for (int t = 0; t < nfa->ntrans; t++)
            nt += nfa->trans[t].from == q && !nfa->trans[t].eps;
        if (nt == 0)
            continue;
        fprintf(out, "    case %d: /* ", q);
        put_positions(out, nfa, &q, 1);
        fputs(" */\n", out);
        for (int t = 0; t < nfa->ntrans; t++) {
            const SraTrans *tr = &nfa->trans[t];
            if (tr->from != q || tr->eps)
                continue;
            fputs("        if (", out);
            if (tr->nlits == 0)
                fputs("1", out);
            for (int k = 0; k < tr->nlits; k++)
                fprintf(out, "%s%s%s_p%d_c%d(e, r)", k ? " && " : "", tr->lits[k].neg ? "!" : "", P, i,
                        litfn[lstart[t] + k]);
            fprintf(out, ") { /* atom %d -> %d */\n", tr->position, tr->to);
            fprintf(out, "            %s_p%d_run t = *r;\n            t.state = %d;\n", P, i, tr->to);
            for (int k = 0; k < tr->nwrites; k++)
                fprintf(out, "            t.set[%d] = 1;\n            t.regs[%d] = *e;\n", tr->writes[k],
                        tr->writes[k]);
            if (nfa->final[tr->to])
                fputs("            hit = 1;\n", out);
            fprintf(out, "            %s_p%d_add(s, &t, cap, overflow);\n        }\n", P, i);
        }
        fputs("        break;\n", out);
    }
    fputs("    default:\n        break;\n    }\n    (void)s;\n    (void)e;\n    (void)cap;\n    (void)overflow;\n", out);
    fprintf(out, "    (void)%s_p%d_add;\n    return hit;\n}\n\n", P, i);
    free(lstart);
    free(litfn);
    free(fns);

    fprintf(out, "/* One event of the substream: live runs in the window advance, then a\n"
                 " * run starts at e (last, so a full array drops the newest). */\n"
                 "static int %s_p%d_step(%s_p%d_st *s, const %s_event *e, int32_t cap, uint64_t *overflow)\n{\n"
                 "    int hit = 0;\n    %s_p%d_run fresh, *tmp;\n",
            P, i, P, i, P, P, i);
    if (ts >= 0) {
        fputs("    int64_t ts = e->", out);
        put_field(out, &g->schema->attrs[ts]);
        fputs(";\n", out);
    } else {
        fputs("    int64_t ts = 0;\n", out);
    }
    fputs("    s->nnext = 0;\n    for (int32_t i = 0; i < s->n; i++) {\n", out);
    fprintf(out, "        const %s_p%d_run *r = &s->cur[i];\n", P, i);
    if (ru->window_kind == WIN_EVENTS)
        fprintf(out, "        if ((uint64_t)s->pos - (uint64_t)r->start_pos + 1 > (uint64_t)INT64_C(%" PRId64 "))\n"
                     "            continue;\n", ru->window);
    else if (ru->window_kind == WIN_TIME)
        fprintf(out, "        if ((uint64_t)ts - (uint64_t)r->start_ts > (uint64_t)INT64_C(%" PRId64 "))\n"
                     "            continue;\n", ru->window);
    fprintf(out, "        hit |= %s_p%d_step_run(s, r, e, cap, overflow);\n    }\n", P, i);
    fprintf(out, "    memset(&fresh, 0, sizeof fresh);\n    fresh.state = %d;\n"
                 "    fresh.start_pos = s->pos;\n    fresh.start_ts = ts;\n"
                 "    hit |= %s_p%d_step_run(s, &fresh, e, cap, overflow);\n",
            nfa->start, P, i);
    fputs("    tmp = s->cur;\n    s->cur = s->next;\n    s->next = tmp;\n    s->n = s->nnext;\n"
          "    s->pos++;\n    return hit;\n}\n\n", out);

    fprintf(out, "/* The two run arrays of a substream, from the allocator hook. */\n"
                 "static int %s_p%d_alloc(%s_p%d_st *s, const sremrt_alloc *a, int32_t cap)\n{\n"
                 "    s->cur = sremrt_alloc_get(a, (size_t)cap * sizeof *s->cur, 0);\n"
                 "    s->next = sremrt_alloc_get(a, (size_t)cap * sizeof *s->next, 0);\n"
                 "    if (s->cur && s->next)\n        return 0;\n"
                 "    sremrt_alloc_free(a, s->cur, (size_t)cap * sizeof *s->cur);\n"
                 "    sremrt_alloc_free(a, s->next, (size_t)cap * sizeof *s->next);\n"
                 "    s->cur = s->next = NULL;\n    return -1;\n}\n\n",
            P, i, P, i);
    fprintf(out, "static void %s_p%d_release(%s_p%d_st *s, const sremrt_alloc *a, int32_t cap)\n{\n"
                 "    sremrt_alloc_free(a, s->cur, (size_t)cap * sizeof *s->cur);\n"
                 "    sremrt_alloc_free(a, s->next, (size_t)cap * sizeof *s->next);\n"
                 "    s->cur = s->next = NULL;\n}\n\n",
            P, i, P, i);
}

/* ---- the arena of --freestanding code -------------------------------------------------- */

/* One term of NAME_ARENA_BYTES: a block of `expr` bytes (a C constant
 * expression) plus its alignment padding. */
static void arena_term(Cg *g, const char *what, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs(" \\\n    + SREMRT_MAX_ALIGN + (size_t)(", g->heap.f);
    vfprintf(g->heap.f, fmt, ap);
    va_end(ap);
    fprintf(g->heap.f, ")   /* %s */", what);
}

/* count blocks of a runtime structure of `bytes` bytes, as sized on this
 * host (pointers of 8 bytes: an upper bound for 32-bit targets). */
static void arena_runtime(Cg *g, const char *what, const char *name, int count, size_t bytes)
{
    size_t total = (size_t)count * (bytes + SREMRT_MAX_ALIGN);
    g->rt_bytes += total;
    fprintf(g->heap.f, " \\\n    + (size_t)%zuu   /* %s %s: %d x %zu bytes */", total, what, name, count,
            bytes);
}

/* Partition keys the generated code is sized for. */
static int keys(const Cg *g) { return g->o->caps.max_keys; }

static void arena_keymap(Cg *g, const char *what, const char *name)
{
    char label[64];
    snprintf(label, sizeof label, "partition table of %s", what);
    arena_runtime(g, label, name, 1, sremrt_keymap_bytes(keys(g)));
}

/* Push code: the event's partition key and its slot in m->KEYS, opening
 * the `else` branch taken when the table had room (a full table is
 * counted); the caller writes the branch and closes both blocks. */
static void put_key_slot(Cg *g, const char *what, const char *name, const AstAttr *attr, const char *keys)
{
    FILE *pu = g->push.f;
    fprintf(pu, "    { /* %s %s, partition by %s */\n", what, name, attr->name);
    fprintf(pu, "        int64_t key = sremrt_attr_int(&%s_attrs[%d], e);\n        int inserted = 0;\n"
                "        int32_t slot = sremrt_keymap_get(&m->%s, key, &inserted);\n"
                "        if (slot < 0) {\n            m->stats.overflow[SREMRT_OVF_PARTITIONS]++;\n        } else {\n",
            g->P, attr->index, keys);
}

/* ---- episodes and explore clauses ------------------------------------------------------ */

/* The C expression of the event's timestamp, "0" without one. */
static void put_ts(Cg *g, FILE *out)
{
    if (g->schema->ts_attr < 0) {
        fputs("0", out);
        return;
    }
    fputs("e->", out);
    put_field(out, &g->schema->attrs[g->schema->ts_attr]);
}

/* The enum attribute every element of ep names by shorthand, or NULL. */
static const AstAttr *episode_table_attr(const AstEpisode *ep)
{
    const AstAttr *attr = NULL;
    for (int m = 0; m < ep->nelements; m++) {
        const AstRegex *x = ep->elements[m];
        if (x->atom != ATOM_VALUE || !x->value_attr || x->value_attr->kind != ATTR_ENUM ||
            (attr && x->value_attr != attr))
            return NULL;
        attr = x->value_attr;
    }
    return attr;
}

/* No event satisfies two elements of ep (sound; see docs/episodes.md). */
static bool episode_exclusive(Cg *g, const AstEpisode *ep)
{
    MtTable t;
    mt_init(&t, g->arena, NULL, 0);
    const MtFormula *f[EPISODE_MAX_ELEMENTS];
    for (int m = 0; m < ep->nelements; m++)
        f[m] = mt_condition(&t, ep->elements[m]->cond, NULL);
    bool excl = true;
    for (int a = 0; a < ep->nelements && excl; a++)
        for (int b = a + 1; b < ep->nelements && excl; b++)
            excl = mt_disjoint(&t, f[a], f[b]);
    return excl;
}

/* P_eJ_mask: bit m-1 set iff the event satisfies element m. Shorthands of
 * one enum become a table indexed by its value; otherwise each distinct
 * condition is one function, called once. */
static void emit_episode_mask(Cg *g, int j, const AstEpisode *ep)
{
    FILE *out = g->code.f;
    const char *P = g->P;
    const AstAttr *attr = episode_table_attr(ep);
    if (attr) {
        fprintf(out, "/* element bits by value of %s */\nstatic const uint32_t %s_e%d_tab[%d] = {", attr->name,
                P, j, attr->nvalues);
        for (int v = 0; v < attr->nvalues; v++) {
            uint32_t bits = 0;
            for (int m = 0; m < ep->nelements; m++)
                if (ep->elements[m]->value_index == v)
                    bits |= 1u << m;
            fprintf(out, "%s0x%" PRIx32 "u", v ? ", " : "", bits);
        }
        fprintf(out, "};\n\nstatic uint32_t %s_e%d_mask(const %s_event *e)\n{\n"
                     "    uint32_t v = (uint32_t)e->", P, j, P);
        put_field(out, attr);
        fprintf(out, ";\n    return v < %du ? %s_e%d_tab[v] : 0;\n}\n\n", attr->nvalues, P, j);
        return;
    }
    int same[EPISODE_MAX_ELEMENTS];     /* first element with the same condition text */
    char *text[EPISODE_MAX_ELEMENTS];
    for (int m = 0; m < ep->nelements; m++) {
        size_t len = 0;
        FILE *f = open_memstream(&text[m], &len);
        put_expr_comment(f, ep->elements[m]->cond);
        fclose(f);
        same[m] = m;
        for (int n = 0; n < m; n++)
            if (strcmp(text[n], text[m]) == 0) {
                same[m] = n;
                break;
            }
        if (same[m] == m) {
            char fname[160];
            snprintf(fname, sizeof fname, "%s_e%d_x%d", P, j, m);
            fprintf(out, "/* element %d */\n", m + 1);
            emit_cond_fn(out, P, fname, "const void *s", ep->elements[m]->cond, REG_NONE, NULL, 1);
        }
    }
    fprintf(out, "static uint32_t %s_e%d_mask(const %s_event *e)\n{\n    uint32_t mask = 0;\n", P, j, P);
    for (int m = 0; m < ep->nelements; m++) {
        if (same[m] != m)
            continue;
        uint32_t bits = 0;
        for (int n = m; n < ep->nelements; n++)
            if (same[n] == m)
                bits |= 1u << n;
        fprintf(out, "    if (%s_e%d_x%d(e, NULL))\n        mask |= 0x%" PRIx32 "u;\n", P, j, m, bits);
    }
    fputs("    return mask;\n}\n\n", out);
    for (int m = 0; m < ep->nelements; m++)
        free(text[m]);
}

/* The counter(s) of episode j: mask, configuration, matcher fields, and
 * the init, push, finish and free code. */
static void emit_episode(Cg *g, int j, const AstEpisode *ep)
{
    const char *P = g->P;
    FILE *out = g->code.f, *f = g->fields.f, *in = g->init.f, *pu = g->push.f, *fr = g->freec.f,
         *fi = g->finish.f;
    bool part = ep->partition_attr != NULL;
    bool distinct = ep->hdr.freq_given && ep->hdr.freq == FREQ_DISTINCT;
    bool excl = episode_exclusive(g, ep);
    bool time = ep->hdr.window.kind == WIN_TIME;

    fprintf(out, "/* ---- episode %s (e%d): %d elements, frequency %s, within %" PRId64 " %s", ep->name, j,
            ep->nelements, distinct ? "distinct" : "nonoverlapped", ep->hdr.window.value,
            time ? "timestamp units" : "events");
    if (part)
        fprintf(out, ", partition by %s", ep->partition_attr->name);
    fprintf(out, "; elements %s ---- */\n\n",
            excl ? "pairwise exclusive (proved)" : "may overlap (one event can satisfy two)");
    emit_episode_mask(g, j, ep);
    fprintf(out, "static int %s_e%d_start(sremrt_episode *c, const %s_config *cfg)\n{\n"
                 "    sremrt_episode_config ec;\n    memset(&ec, 0, sizeof ec);\n"
                 "    ec.k = %d;\n    ec.freq = %s;\n    ec.window = %s;\n    ec.width = %" PRId64 ";\n"
                 "    ec.flags = %s;\n    ec.list_cap = cfg->occmap_cap;\n    ec.budget = cfg->distinct_budget;\n"
                 "    if (sremrt_episode_init(c, &ec, &cfg->alloc) != 0) {\n"
                 "        memset(c, 0, sizeof *c);   /* k = 0: not counting */\n        return -1;\n    }\n"
                 "    return 0;\n}\n\n",
            P, j, P, ep->nelements, distinct ? "SREMRT_EPISODE_DISTINCT" : "SREMRT_EPISODE_NONOVERLAPPED",
            time ? "SREMRT_EPISODE_TIME" : "SREMRT_EPISODE_EVENTS", ep->hdr.window.value,
            excl ? "SREMRT_EPISODE_EXCLUSIVE" : "0");

    sremrt_episode_config ec = {ep->nelements, distinct ? SREMRT_EPISODE_DISTINCT : SREMRT_EPISODE_NONOVERLAPPED,
                                time ? SREMRT_EPISODE_TIME : SREMRT_EPISODE_EVENTS, ep->hdr.window.value,
                                excl ? SREMRT_EPISODE_EXCLUSIVE : 0u, g->o->caps.occmap_cap,
                                g->o->caps.distinct_budget};
    size_t counter = sremrt_episode_bytes(&ec);
    if (part) {
        arena_keymap(g, "episode", ep->name);
        arena_term(g, "episode counters", "%d * sizeof(sremrt_episode)", keys(g));
        arena_runtime(g, "episode", ep->name, keys(g), counter);
    } else {
        arena_runtime(g, "episode", ep->name, 1, counter);
    }

    char call[256];
    snprintf(call, sizeof call, "%s_episode(m, c, ", P);
    if (part) {
        int a = ep->partition_attr->index;
        fprintf(f, "    sremrt_keymap e%d_keys;   /* episode %s: partition key -> slot */\n", j, ep->name);
        fprintf(f, "    sremrt_episode *e%d;   /* [max_keys]; k = 0 until a key's first event */\n", j);
        fprintf(in, "    if (sremrt_keymap_init(&m->e%d_keys, m->cfg.max_keys, &m->cfg.alloc) != 0)\n"
                    "        return -1;\n"
                    "    m->e%d = sremrt_alloc_get(&m->cfg.alloc, (size_t)m->cfg.max_keys * sizeof *m->e%d, 0);\n"
                    "    if (!m->e%d)\n        return -1;\n",
                j, j, j, j);
        fprintf(fr, "    if (m->e%d)\n        for (int32_t i = 0; i < m->e%d_keys.count; i++)\n"
                    "            sremrt_episode_free(&m->e%d[i]);\n"
                    "    sremrt_alloc_free(&m->cfg.alloc, m->e%d, (size_t)m->cfg.max_keys * sizeof *m->e%d);\n"
                    "    m->e%d = NULL;\n    sremrt_keymap_free(&m->e%d_keys);\n",
                j, j, j, j, j, j, j);
        char keys[32];
        snprintf(keys, sizeof keys, "e%d_keys", j);
        put_key_slot(g, "episode", ep->name, ep->partition_attr, keys);
        fprintf(pu, "            sremrt_episode *c = &m->e%d[slot];\n"
                    "            if (inserted && %s_e%d_start(c, &m->cfg) != 0)\n"
                    "                m->stats.overflow[SREMRT_OVF_MEMORY]++;\n"
                    "            if (c->cfg.k && sremrt_episode_push(c, (int64_t)c->events + 1, ",
                j, P, j);
        put_ts(g, pu);
        fprintf(pu, ", %s_e%d_mask(e)) > 0)\n                %s", P, j, call);
        put_c_string(pu, ep->name);
        fprintf(pu, ", e, &%s_attrs[%d], key, %" PRId64 ");\n        }\n    }\n", P, a,
                ep->has_alert ? ep->alert_threshold : 0);
        fprintf(fi, "    for (int32_t i = 0; m->e%d && i < m->e%d_keys.count; i++)\n"
                    "        if (m->e%d[i].cfg.k)\n            %s_episode_summary(m, &m->e%d[i], ",
                j, j, j, P, j);
        put_c_string(fi, ep->name);
        fprintf(fi, ", &%s_attrs[%d], sremrt_keymap_key(&m->e%d_keys, i));\n", P, a, j);
    } else {
        fprintf(f, "    sremrt_episode e%d;   /* episode %s */\n", j, ep->name);
        fprintf(in, "    if (%s_e%d_start(&m->e%d, &m->cfg) != 0)\n        return -1;\n", P, j, j);
        fprintf(fr, "    sremrt_episode_free(&m->e%d);\n", j);
        fprintf(pu, "    { /* episode %s */\n        sremrt_episode *c = &m->e%d;\n"
                    "        if (c->cfg.k && sremrt_episode_push(c, m->index, ",
                ep->name, j);
        put_ts(g, pu);
        fprintf(pu, ", %s_e%d_mask(e)) > 0)\n            %s", P, j, call);
        put_c_string(pu, ep->name);
        fprintf(pu, ", e, NULL, 0, %" PRId64 ");\n    }\n", ep->has_alert ? ep->alert_threshold : 0);
        fprintf(fi, "    if (m->e%d.cfg.k)\n        %s_episode_summary(m, &m->e%d, ", j, P, j);
        put_c_string(fi, ep->name);
        fputs(", NULL, 0);\n", fi);
    }
}

/* The explore clause of pattern i (LANGUAGE.md 5): its configuration and
 * the shared trie; one counting state per partition (slot of the
 * pattern's keymap). Push code goes after the pattern's own step, so a
 * match record comes before the suggestions of the same event. */
static void emit_explore_conf(Cg *g, int i, const AstPattern *p)
{
    const char *P = g->P;
    FILE *out = g->code.f, *f = g->fields.f, *in = g->init.f, *fr = g->freec.f, *fi = g->finish.f,
         *tr = g->trie.f;
    const AstAttr *ta = p->explore_attr;
    int m = p->body->nkids;
    fprintf(out, "/* explore: the event type is %s; candidates:%s%s, confidence %.17g */\n"
                 "static const int32_t %s_p%d_seq[%d] = {",
            ta->name, p->explore.extensions ? " extensions" : "", p->explore.variations ? " variations" : "",
            p->explore.threshold, P, i, m);
    for (int k = 0; k < m; k++)
        fprintf(out, "%s%d", k ? ", " : "", p->body->kids[k]->value_index);
    const char *win = p->hdr.window.kind == WIN_TIME     ? "SREMRT_EXPLORE_TIME"
                      : p->hdr.window.kind == WIN_EVENTS ? "SREMRT_EXPLORE_EVENTS"
                                                         : "SREMRT_EXPLORE_UNBOUNDED";
    fprintf(out, "};\n\nstatic int %s_p%d_explore_start(sremrt_explore *ex, const %s_config *cfg)\n{\n"
                 "    sremrt_explore_config xc;\n    memset(&xc, 0, sizeof xc);\n"
                 "    xc.pattern = %s_p%d_seq;\n    xc.m = %d;\n    xc.nvalues = %d;\n    xc.policy = %s;\n"
                 "    xc.window = %s;\n    xc.width = %" PRId64 ";\n    xc.extensions = %d;\n"
                 "    xc.variations = %d;\n    xc.confidence = %.17g;\n"
                 "    xc.algo = (sremrt_explore_algo)cfg->explore_algo;\n    xc.capacity = cfg->explore_cap;\n"
                 "    return sremrt_explore_init(ex, &xc, &cfg->alloc);\n}\n\n",
            P, i, P, P, i, m, ta->nvalues,
            p->hdr.policy == POLICY_STAM ? "SREMRT_EXPLORE_STAM" : "SREMRT_EXPLORE_STNM", win,
            p->hdr.window.kind == WIN_NONE ? (int64_t)1 : p->hdr.window.value, p->explore.extensions ? 1 : 0,
            p->explore.variations ? 1 : 0, p->explore.threshold);
    sremrt_explore_config xc = {g->explore_seq, m, ta->nvalues,
                                p->hdr.policy == POLICY_STAM ? SREMRT_EXPLORE_STAM : SREMRT_EXPLORE_STNM,
                                p->hdr.window.kind == WIN_TIME     ? SREMRT_EXPLORE_TIME
                                : p->hdr.window.kind == WIN_EVENTS ? SREMRT_EXPLORE_EVENTS
                                                                   : SREMRT_EXPLORE_UNBOUNDED,
                                p->hdr.window.kind == WIN_NONE ? 1 : p->hdr.window.value,
                                p->explore.extensions, p->explore.variations, p->explore.threshold,
                                SREMRT_EXPLORE_DEFAULT, g->o->caps.explore_cap};
    for (int k = 0; k < m && k < SREMRT_EXPLORE_MAX_M; k++)
        g->explore_seq[k] = p->body->kids[k]->value_index;
    sremrt_explore ex;
    sremrt_alloc heap = sremrt_alloc_malloc();
    size_t state = 0;
    if (sremrt_explore_init(&ex, &xc, &heap) == 0) {
        state = sremrt_explore_part_bytes(&ex);
        sremrt_explore_free(&ex);
    }
    arena_runtime(g, "explore", p->name, 1, sremrt_explore_bytes(&xc));
    if (p->partition_attr) {
        arena_term(g, "explore states", "%d * sizeof(sremrt_explore_part)", keys(g));
        arena_runtime(g, "explore windows", p->name, keys(g), state);
    } else {
        arena_runtime(g, "explore window", p->name, 1, state);
    }
    fprintf(f, "    sremrt_explore p%d_ex;   /* pattern %s: explore clause, one trie */\n", i, p->name);
    fprintf(in, "    if (%s_p%d_explore_start(&m->p%d_ex, &m->cfg) != 0)\n        return -1;\n", P, i, i);
    if (p->partition_attr) {
        fprintf(f, "    sremrt_explore_part *p%d_xp;   /* [max_keys]: counting state per partition */\n", i);
        fprintf(in, "    m->p%d_xp = sremrt_alloc_get(&m->cfg.alloc, (size_t)m->cfg.max_keys * sizeof *m->p%d_xp, 0);\n"
                    "    if (!m->p%d_xp)\n        return -1;\n",
                i, i, i);
        fprintf(fr, "    if (m->p%d_xp)\n        for (int32_t i = 0; i < m->p%d_keys.count; i++)\n"
                    "            sremrt_explore_part_free(&m->p%d_xp[i]);\n"
                    "    sremrt_alloc_free(&m->cfg.alloc, m->p%d_xp, (size_t)m->cfg.max_keys * sizeof *m->p%d_xp);\n"
                    "    m->p%d_xp = NULL;\n",
                i, i, i, i, i, i);
    } else {
        fprintf(f, "    sremrt_explore_part p%d_xp;\n", i);
        fprintf(in, "    if (sremrt_explore_part_init(&m->p%d_ex, &m->p%d_xp, &m->cfg.alloc) != 0)\n"
                    "        return -1;\n", i, i);
        fprintf(fr, "    sremrt_explore_part_free(&m->p%d_xp);\n", i);
    }
    fprintf(fr, "    sremrt_explore_free(&m->p%d_ex);\n", i);
    fprintf(fi, "    %s_explore_summary(m, &m->p%d_ex, ", P, i);
    put_c_string(fi, p->name);
    fprintf(fi, ", %s_%d_values);\n", P, ta->index);
    fprintf(tr, "    %s_trie_one(s, &m->p%d_ex, ", P, i);
    put_c_string(tr, p->name);
    fprintf(tr, ", %s_%d_values, %d, dot);\n", P, ta->index, ta->nvalues);
}

/* Push code of pattern i's explore clause for the event, into state st. */
static void put_explore_push(Cg *g, int i, const AstPattern *p, const char *st, const char *indent)
{
    fprintf(g->push.f, "%s%s_explore(m, &m->p%d_ex, %s, ", indent, g->P, i, st);
    put_c_string(g->push.f, p->name);
    fprintf(g->push.f, ", e, e->");
    put_field(g->push.f, p->explore_attr);
    fprintf(g->push.f, ", %s_%d_values);\n", g->P, p->explore_attr->index);
}

/* Matcher fields, init, push and free code of pattern i. */
static void emit_driver(Cg *g, int i, const Plan *plan)
{
    const AstPattern *p = plan->pattern;
    const char *P = g->P;
    bool runs = plan->strategy == STRATEGY_RUNS;
    bool part = p->partition_attr != NULL;
    const char *step_args = runs ? ", m->cfg.max_runs, &m->stats.overflow[SREMRT_OVF_RUNS]" : "";
    FILE *f = g->fields.f, *in = g->init.f, *pu = g->push.f, *fr = g->freec.f;

    if (part || runs)
        g->no_batch = true;
    if (part) {
        arena_keymap(g, "pattern", p->name);
        arena_term(g, "pattern states", "%d * sizeof(%s_p%d_st)", keys(g), P, i);
        if (runs)
            arena_term(g, "pattern runs", "%d * 2 * (SREMRT_MAX_ALIGN + %d * sizeof(%s_p%d_run))", keys(g),
                       g->o->strategy.max_runs, P, i);
    } else if (runs) {
        arena_term(g, "pattern runs", "2 * (SREMRT_MAX_ALIGN + %d * sizeof(%s_p%d_run))", g->o->strategy.max_runs,
                   P, i);
    }
    if (part) {
        fprintf(f, "    sremrt_keymap p%d_keys;   /* pattern %s: partition key -> slot */\n", i, p->name);
        fprintf(f, "    %s_p%d_st *p%d;   /* [max_keys] */\n", P, i, i);
        fprintf(in, "    if (sremrt_keymap_init(&m->p%d_keys, m->cfg.max_keys, &m->cfg.alloc) != 0)\n"
                    "        return -1;\n"
                    "    m->p%d = sremrt_alloc_get(&m->cfg.alloc, (size_t)m->cfg.max_keys * sizeof *m->p%d, 0);\n"
                    "    if (!m->p%d)\n        return -1;\n",
                i, i, i, i);
        if (runs)
            fprintf(fr, "    if (m->p%d)\n        for (int32_t i = 0; i < m->p%d_keys.count; i++)\n"
                        "            %s_p%d_release(&m->p%d[i], &m->cfg.alloc, m->cfg.max_runs);\n",
                    i, i, P, i, i);
        fprintf(fr, "    sremrt_alloc_free(&m->cfg.alloc, m->p%d, (size_t)m->cfg.max_keys * sizeof *m->p%d);\n"
                    "    m->p%d = NULL;\n    sremrt_keymap_free(&m->p%d_keys);\n",
                i, i, i, i);
        char keys[32];
        snprintf(keys, sizeof keys, "p%d_keys", i);
        put_key_slot(g, "pattern", p->name, p->partition_attr, keys);
        fprintf(pu, "            %s_p%d_st *s = &m->p%d[slot];\n            if (inserted)\n"
                    "                memset(s, 0, sizeof *s);\n",
                P, i, i);
        if (runs)
            fprintf(pu, "            if (!s->cur && %s_p%d_alloc(s, &m->cfg.alloc, m->cfg.max_runs) != 0)\n"
                        "                m->stats.overflow[SREMRT_OVF_MEMORY]++;\n            else\n    ",
                    P, i);
        fprintf(pu, "            if (%s_p%d_step(s, e%s))\n"
                    "                %s_match(m, ", P, i, step_args, P);
        put_c_string(pu, p->name);
        fprintf(pu, ", e, &%s_attrs[%d], key);\n", P, p->partition_attr->index);
        if (p->explore.present) {
            fprintf(pu, "            if (inserted && sremrt_explore_part_init(&m->p%d_ex, &m->p%d_xp[slot], "
                        "&m->cfg.alloc) != 0)\n"
                        "                m->stats.overflow[SREMRT_OVF_MEMORY]++;\n"
                        "            if (m->p%d_xp[slot].mem)\n",
                    i, i, i);
            char st[64];
            snprintf(st, sizeof st, "&m->p%d_xp[slot]", i);
            put_explore_push(g, i, p, st, "                ");
        }
        fputs("        }\n    }\n", pu);
    } else {
        fprintf(f, "    %s_p%d_st p%d;   /* pattern %s */\n", P, i, i, p->name);
        if (runs) {
            fprintf(in, "    if (%s_p%d_alloc(&m->p%d, &m->cfg.alloc, m->cfg.max_runs) != 0)\n        return -1;\n",
                    P, i, i);
            fprintf(fr, "    %s_p%d_release(&m->p%d, &m->cfg.alloc, m->cfg.max_runs);\n", P, i, i);
        }
        if (g->threaded) {   /* push_many is the pattern's run function */
            fprintf(g->many_fast.f, "    return %s_p%d_run(m, &m->p%d, events, n);\n", P, i, i);
            return;
        }
        if (g->local_state && !p->explore.present && g->nbatch < CG_BATCH_MAX) {
            g->batch[g->nbatch] = i;
            g->batch_name[g->nbatch++] = p->name;
        } else {
            g->no_batch = true;
        }
        char st[32];
        snprintf(st, sizeof st, g->local_state ? "&st%d" : "&m->p%d", i);
        if (g->local_state) {
            fprintf(g->many_in.f, "    %s_p%d_st st%d = m->p%d;\n", P, i, i, i);
            fprintf(g->many_out.f, "    m->p%d = st%d;\n", i, i);
        }
        fprintf(pu, "    if (%s_p%d_step(%s, e%s)) /* pattern %s */\n        %s_match(m, ", P, i, st,
                step_args, p->name, P);
        put_c_string(pu, p->name);
        fputs(", e, NULL, 0);\n", pu);
        if (p->explore.present) {
            char st[64];
            snprintf(st, sizeof st, "&m->p%d_xp", i);
            put_explore_push(g, i, p, st, "    ");
        }
    }
    if (p->explore.present)
        emit_explore_conf(g, i, p);
}

/* push_many of a file whose declarations are all unpartitioned patterns
 * with their state in locals (chains and tables, no explore; the copies
 * in and out are many_in's and many_out's, closed): blocks of
 * up to CG_BATCH_BLOCK events, where each step's detection is noted in an
 * array without a branch (a branch on it mispredicts on every
 * unpredictable detection) and the counters are set once; the records
 * follow the block, in the same order (events, then declarations) and
 * with the index and event each would have had. */
static void emit_batched(Cg *g)
{
    FILE *out = g->many_fast.f;
    const char *P = g->P;
    int np = g->nbatch;
    fprintf(out, "    /* Batched: detections noted without a branch, reported after each block. */\n"
                 "    static const char *const names[%d] = {", np);
    for (int b = 0; b < np; b++) {
        fputs(b ? ", " : "", out);
        put_c_string(out, g->batch_name[b]);
    }
    fprintf(out, "};\n%s\n", g->many_in.text);
    fprintf(out, "    size_t k, done = 0;\n"
                 "    while (done < n) {\n"
                 "        uint16_t hit[%d];\n"
                 "        size_t c = n - done < %du ? n - done : %du, nh = 0;\n"
                 "        const %s_event *b = events + done;\n"
                 "        for (k = 0; k < c; k++) {\n"
                 "            const %s_event *e = &b[k];\n"
                 "            if (%s_rejected(m, e))\n                break;\n",
            np * CG_BATCH_BLOCK, CG_BATCH_BLOCK, CG_BATCH_BLOCK, P, P, P);
    for (int b = 0; b < np; b++)
        fprintf(out, "            hit[nh] = (uint16_t)(k * %du + %du);\n"
                     "            nh += (size_t)%s_p%d_step(&st%d, e);\n",
                np, b, P, g->batch[b], g->batch[b]);
    /* one record for the block: only name, index and ts change */
    fprintf(out, "        }\n"
                 "        int64_t index = m->index;\n"
                 "        uint64_t count = m->stats.events;\n"
                 "        if (nh > 0 && m->cfg.record) {\n"
                 "            sremrt_record r;\n"
                 "            memset(&r, 0, sizeof r);\n"
                 "            r.kind = SREMRT_MATCH;\n"
                 "            r.has_ts = %d;\n"
                 "            for (size_t h = 0; h < nh; h++) {\n"
                 "                size_t at = hit[h] / %du;\n"
                 "                m->index = index + (int64_t)at + 1;\n"
                 "                m->stats.events = count + at + 1;\n"
                 "                r.name = names[hit[h] %% %du];\n"
                 "                r.index = m->index;\n",
            g->schema->ts_attr >= 0, np, np);
    if (g->schema->ts_attr >= 0) {
        fputs("                r.ts = (int64_t)b[at].", out);
        put_field(out, &g->schema->attrs[g->schema->ts_attr]);
        fputs(";\n", out);
    }
    fprintf(out, "                m->cfg.record(m->cfg.user, &r);\n"
                 "            }\n"
                 "        }\n"
                 "        m->index = index + (int64_t)k;\n"
                 "        m->stats.events = count + k;\n"
                 "        done += k;\n"
                 "        if (k < c)\n            break;\n"
                 "    }\n%s\n    return done;\n",
            g->many_out.text);
}

static void emit_schema(Cg *g, FILE *fields, FILE *desc, FILE *same)
{
    const AstSchema *s = g->schema;
    const char *P = g->P;
    static const char *const ctype[] = {"int64_t", "double", "uint8_t", "int32_t", "int64_t"};
    static const char *const rtype[] = {"SREMRT_INT", "SREMRT_FLOAT", "SREMRT_BOOL", "SREMRT_ENUM",
                                        "SREMRT_TIMESTAMP"};
    static const char *const what[] = {"int", "float", "bool: 0 or 1", "enum: value index",
                                       "timestamp"};
    for (int a = 0; a < s->nattrs; a++) {
        const AstAttr *at = &s->attrs[a];
        fprintf(fields, "    %s ", ctype[at->kind]);
        put_field(fields, at);
        fprintf(fields, ";   /* %s */\n", what[at->kind]);
        if (at->kind == ATTR_ENUM) {
            fprintf(desc, "static const char *const %s_%d_values[] = {", P, a);
            for (int v = 0; v < at->nvalues; v++) {
                fputs(v ? ", " : "", desc);
                put_c_string(desc, at->values[v].name);
            }
            fputs("};\n", desc);
        }
        fprintf(same, "    if (memcmp(&a->");
        put_field(same, at);
        fputs(", &b->", same);
        put_field(same, at);
        fputs(", sizeof a->", same);
        put_field(same, at);
        fputs(") != 0)\n        return 0;\n", same);
    }
    fputs("    return 1;\n", same);
    fprintf(desc, "static const sremrt_attr %s_attrs[] = {\n", P);
    for (int a = 0; a < s->nattrs; a++) {
        const AstAttr *at = &s->attrs[a];
        fputs("    {", desc);
        put_c_string(desc, at->name);
        fprintf(desc, ", %s, offsetof(%s_event, ", rtype[at->kind], P);
        put_field(desc, at);
        if (at->kind == ATTR_ENUM)
            fprintf(desc, "), %d, %s_%d_values},\n", at->nvalues, P, a);
        else
            fputs("), 0, NULL},\n", desc);
    }
    fprintf(desc, "};\nconst sremrt_schema %s_schema = {", P);
    put_c_string(desc, s->name);
    fprintf(desc, ", %d, %s_attrs, %d, sizeof(%s_event)};", s->nattrs, P, s->ts_attr, P);
}

/* The timestamp rule of LANGUAGE.md 2, inline: push reads the field
 * directly (a generic field read cost a third of a tdfa's time). */
static void emit_ts_check(Cg *g, FILE *out)
{
    const AstSchema *s = g->schema;
    if (s->ts_attr < 0)
        return;
    const AstAttr *ts = &s->attrs[s->ts_attr];
    fputs("    if (m->order.seen && e->", out);
    put_field(out, ts);
    fputs(" < m->order.last) {\n        sremrt_tsorder_accept(&m->order, e->", out);
    put_field(out, ts);
    fputs(", m->error, sizeof m->error);\n        m->stats.rejected++;\n        return 1;\n    }\n"
          "    m->order.last = e->", out);
    put_field(out, ts);
    fputs(";\n    m->order.seen = 1;\n", out);
}

static void emit_externs(Cg *g)
{
    FILE *out = g->externs.f;
    bool any = false;
    for (int i = 0; i < g->ast->ndecls; i++) {
        if (g->ast->decls[i].kind != DECL_EXTERN)
            continue;
        const AstExtern *x = g->ast->decls[i].u.ext;
        static const char *const ty[] = {"int", "bool", "int64_t", "double", "int", "int"};
        if (!any)
            fputs("/* Extern predicates the user links in (LANGUAGE.md 3.4). */\n", out);
        any = true;
        fprintf(out, "extern %s %s(", ty[x->ret], x->name);
        for (int k = 0; k < x->nparams; k++)
            fprintf(out, "%s%s", k ? ", " : "", ty[x->params[k]]);
        fputs(x->nparams ? ");\n" : "void);\n", out);
    }
    if (any)
        fputc('\n', out);
}

/* What pattern and episode declarations have in common here. */
typedef struct DeclInfo {
    const char      *kind, *name;
    const AstSchema *schema;
    Loc              loc;
} DeclInfo;

static bool decl_info(const AstDecl *d, DeclInfo *info)
{
    if (d->kind == DECL_PATTERN)
        *info = (DeclInfo){"pattern", d->u.pattern->name, d->u.pattern->schema, d->u.pattern->loc};
    else if (d->kind == DECL_EPISODE)
        *info = (DeclInfo){"episode", d->u.episode->name, d->u.episode->schema, d->u.episode->loc};
    return d->kind == DECL_PATTERN || d->kind == DECL_EPISODE;
}

/* The schema of the file's patterns and episodes: one per file; differing
 * ones are an error naming both. */
static bool find_schema(Cg *g)
{
    DeclInfo first = {0}, d;
    bool ok = true;
    for (int i = 0; i < g->ast->ndecls; i++) {
        if (!decl_info(&g->ast->decls[i], &d))
            continue;
        if (!first.kind) {
            first = d;
            g->schema = d.schema;
        } else if (d.schema != g->schema) {
            diag_error(g->diag, d.loc,
                       "%s '%s' is on schema '%s' but %s '%s' (line %d) is on schema "
                       "'%s': one generated matcher takes one event type; put them in separate files",
                       d.kind, d.name, d.schema->name, first.kind, first.name, first.loc.line, g->schema->name);
            ok = false;
        }
    }
    if (!first.kind)
        for (int i = 0; i < g->ast->ndecls && !g->schema; i++)
            if (g->ast->decls[i].kind == DECL_SCHEMA)
                g->schema = g->ast->decls[i].u.schema;
    if (!g->schema) {
        Loc none = {0, 0};
        diag_error(g->diag, none, "no schema: nothing to generate");
        return false;
    }
    return ok;
}

/* The matcher struct: what every matcher has, then each declaration's
 * fields; in the header of --freestanding code (with the state types),
 * else in the .c. */
static void put_matcher_struct(Cg *g, FILE *out)
{
    const char *P = g->P;
    fprintf(out, "struct %s_matcher {\n"
                 "    %s_config cfg;     /* as given to init, defaults filled in */\n"
                 "    sremrt_stats stats;        /* events, rejected, overflows */\n"
                 "    sremrt_tsorder order;      /* the timestamp-goes-backwards rule */\n"
                 "    int64_t index;             /* global index of the last accepted event */\n"
                 "    char error[96];            /* why the last push was rejected */\n"
                 "    int finished;              /* finish ran: summaries given, stats added */\n"
                 "%s};\n",
            P, P, g->fields.text);
}

/* --freestanding: the capacities and NAME_ARENA_BYTES, in the header. */
static void put_arena_macros(Cg *g, FILE *out)
{
    const char *P = g->P;
    const CgCaps *c = &g->o->caps;
    fprintf(out, "\n/* The capacities this matcher was generated for (sremc --freestanding\n"
                 " * --max-keys ... ; 0: the runtime's default), NAME_config_default's values. */\n"
                 "#define %s_MAX_KEYS %d\n#define %s_MAX_RUNS %d\n#define %s_DISTINCT_BUDGET %d\n"
                 "#define %s_OCCMAP_CAP %d\n#define %s_EXPLORE_CAP %d\n\n",
            P, c->max_keys, P, g->o->strategy.max_runs, P, c->distinct_budget, P, c->occmap_cap, P,
            c->explore_cap);
    fprintf(out, "/* Bytes %s_init and the first event of every partition key take from\n"
                 " * cfg.alloc at those capacities: give it an arena this large, e.g.\n"
                 " *     static unsigned char mem[%s_ARENA_BYTES];\n"
                 " *     sremrt_arena_init(&ar, mem, sizeof mem); cfg.alloc = sremrt_arena_hook(&ar);\n"
                 " * Runtime structures are sized as on the host sremc ran on (8-byte pointers:\n"
                 " * an upper bound for 32-bit targets); matcher states by your compiler. */\n"
                 "#define %s_ARENA_BYTES ((size_t)8   /* never an empty array */%s)\n",
            P, P, P, g->heap.text);
}

bool cg_emit(const Ast *ast, const CgOptions *o, Arena *arena, Diag *diag, FILE *c, FILE *h)
{
    Cg g = {.ast = ast, .o = o, .arena = arena, .diag = diag, .P = o->prefix};
    if (!find_schema(&g))
        return false;
    buf_open(&g.code);
    buf_open(&g.fields);
    buf_open(&g.init);
    buf_open(&g.push);
    buf_open(&g.freec);
    buf_open(&g.externs);
    buf_open(&g.finish);
    buf_open(&g.trie);
    buf_open(&g.types);
    buf_open(&g.heap);
    buf_open(&g.many_in);
    buf_open(&g.many_out);
    buf_open(&g.run);
    buf_open(&g.many_fast);
    int i = 0, j = 0, ndecls = 0;
    bool ok = true;
    for (int k = 0; k < ast->ndecls; k++)
        ndecls += ast->decls[k].kind == DECL_PATTERN || ast->decls[k].kind == DECL_EPISODE;
    for (int k = 0; k < ast->ndecls; k++) {
        if (ast->decls[k].kind == DECL_EPISODE)
            emit_episode(&g, j++, ast->decls[k].u.episode);
        if (ast->decls[k].kind != DECL_PATTERN)
            continue;
        const AstPattern *p = ast->decls[k].u.pattern;
        Plan *plan = strategy_plan(p, &o->strategy, arena, diag);
        if (!plan) {
            ok = false;
            continue;
        }
        FILE *out = g.code.f;
        fprintf(out, "/* ---- pattern %s (p%d): strategy %s (%s), ", p->name, i,
                strategy_name(plan->strategy), plan->reason);
        window_text(p, out);
        if (p->partition_attr)
            fprintf(out, ", partition by %s", p->partition_attr->name);
        if (plan->min)
            fprintf(out, "; %d states, %d minterms", plan->min->nstates, plan->min->ncubes);
        fputs(" ---- */\n\n", out);
        if (plan->strategy == STRATEGY_RUNS) {
            emit_runs(&g, i, plan);
            g.has_runs = true;
        } else if (plan->chain && plan->strategy == STRATEGY_TDFA &&
                   (!plan->min || o->layout == CG_LAYOUT_CHAIN)) {
            emit_chain(&g, i, plan);
            g.local_state = p->partition_attr == NULL;
            g.has_tdfa = true;
        } else {
            Table table;
            int *atom_bit = arena_alloc(arena, ((size_t)plan->min->mt->natoms + 1) * sizeof *atom_bit);
            g.local_state = false;
            /* tables for plain DFAs (they measured at the table-DFA floor
             * on B2, a little ahead of the chain); with start tags a chain
             * where the pattern is one, else trees, which measured faster
             * than tagged tables on uniform streams (docs/PERFORMANCE.md):
             * tagged tables on request */
            bool automatic = o->layout == CG_LAYOUT_AUTO || o->layout == CG_LAYOUT_CHAIN;
            bool want = o->layout == CG_LAYOUT_TABLE || (automatic && !plan->min->tagged);
            if (want && table_plan(&g, plan->min, &table, atom_bit)) {
                emit_tdfa_table(&g, i, plan, &table, atom_bit);
                g.local_state = p->partition_attr == NULL;
            } else if (plan->chain && plan->strategy == STRATEGY_TDFA && o->layout == CG_LAYOUT_AUTO) {
                emit_chain(&g, i, plan);
                g.local_state = p->partition_attr == NULL;
            } else {
                /* threaded run: one per-state prologue each, so only for
                 * small automata (fire's 768-state dsra took 7x longer to
                 * compile at -O2 threaded) */
                g.threaded = ndecls == 1 && !p->partition_attr && !p->explore.present &&
                             plan->min->nstates <= 256;
                emit_dsra(&g, i, plan);
            }
            if (plan->strategy == STRATEGY_TDFA)
                g.has_tdfa = true;
            else
                g.has_dsra = true;
        }
        emit_driver(&g, i, plan);
        g.local_state = false;
        g.threaded = false;
        i++;
    }
    bool batched = !g.no_batch && g.nbatch > 0 && g.nbatch == ndecls;
    Buf fields, desc, same, tscheck;
    buf_open(&tscheck);
    emit_ts_check(&g, tscheck.f);
    buf_close(&tscheck);
    buf_open(&fields);
    buf_open(&desc);
    buf_open(&same);
    emit_schema(&g, fields.f, desc.f, same.f);
    emit_externs(&g);
    buf_close(&fields);
    buf_close(&desc);
    buf_close(&same);
    buf_close(&g.code);
    buf_close(&g.fields);
    buf_close(&g.init);
    buf_close(&g.push);
    buf_close(&g.freec);
    buf_close(&g.externs);
    buf_close(&g.finish);
    buf_close(&g.trie);
    buf_close(&g.heap);
    buf_close(&g.many_in);
    buf_close(&g.many_out);
    if (batched)   /* takes the state copies of many_in and many_out */
        emit_batched(&g);
    buf_close(&g.run);
    buf_close(&g.many_fast);
    put_matcher_struct(&g, g.types.f);
    if (o->freestanding)
        put_arena_macros(&g, g.types.f);
    buf_close(&g.types);
    if (o->runtime_bytes)
        *o->runtime_bytes = g.rt_bytes;
    if (ok && diag->nerrors == 0) {
        char guard[160], strategies[64], maxruns[32], srcc[160];
        snprintf(guard, sizeof guard, "%s_H_GENERATED", o->prefix);
        for (char *s = guard; *s; s++)
            *s = (char)toupper((unsigned char)*s);
        snprintf(strategies, sizeof strategies, "%s%s%s", g.has_tdfa ? "tdfa " : "",
                 g.has_dsra ? "dsra " : "", g.has_runs ? "runs " : "");
        size_t n = strlen(strategies);
        if (n)
            strategies[n - 1] = '\0';
        else
            snprintf(strategies, sizeof strategies, "no patterns");
        snprintf(maxruns, sizeof maxruns, "%d", o->strategy.max_runs);
        snprintf(srcc, sizeof srcc, "%s.c", o->prefix);
        char *src_comment = NULL;
        size_t src_len = 0;
        FILE *sc = open_memstream(&src_comment, &src_len);
        put_comment_text(sc, o->source);
        fclose(sc);
        char maxkeys[32], budget[32], occcap[32], xcap[32];
        snprintf(maxkeys, sizeof maxkeys, "%d", o->caps.max_keys);
        snprintf(budget, sizeof budget, "%d", o->caps.distinct_budget);
        snprintf(occcap, sizeof occcap, "%d", o->caps.occmap_cap);
        snprintf(xcap, sizeof xcap, "%d", o->caps.explore_cap);
        const char *fs = o->freestanding ? "\n/* --freestanding: no stdio, no malloc (runtime headers leave them out). */\n"
                                           "#ifndef SREMRT_FREESTANDING\n#define SREMRT_FREESTANDING 1\n#endif\n"
                                         : "";
        /* the event's timestamp, read directly (records, explore) */
        Buf event_ts;
        buf_open(&event_ts);
        if (g.schema->ts_attr >= 0) {
            fputs("(int64_t)e->", event_ts.f);
            put_field(event_ts.f, &g.schema->attrs[g.schema->ts_attr]);
        } else {
            fputs("0", event_ts.f);
        }
        buf_close(&event_ts);
        /* push: the batched push_many costs more per call than the
         * per-event loop; elsewhere push_many is that loop (or the
         * threaded run), and calling it keeps one inlined copy */
        char push_one[160];
        snprintf(push_one, sizeof push_one, "%s_%s", o->prefix, batched ? "push_each" : "push_many");
        Hole holes[] = {
            {"PREFIX", o->prefix},        {"GUARD", guard},
            {"EVENT_TS", event_ts.text},
            {"SOURCE", src_comment},      {"SOURCE_C", srcc},
            {"HEADER", o->header},        {"SCHEMA", g.schema->name},
            {"EVENT_FIELDS", fields.text}, {"SCHEMA_DESC", desc.text},
            {"SAME_EVENT", same.text},    {"EXTERNS", g.externs.text},
            {"PATTERN_CODE", g.code.text},
            {"INIT_CODE", g.init.text},   {"PUSH_CODE", g.push.text},
            {"FREE_CODE", g.freec.text},  {"MAX_RUNS", maxruns},
            {"STRATEGIES", strategies},   {"TS_CHECK", tscheck.text},
            {"FINISH_CODE", g.finish.text}, {"TRIE_CODE", g.trie.text},
            {"TYPES_H", o->freestanding ? g.types.text : ""},
            {"TYPES_C", o->freestanding ? "" : g.types.text},
            {"FREESTANDING", fs},         {"MAX_KEYS", maxkeys},
            {"DISTINCT_BUDGET", budget},  {"OCCMAP_CAP", occcap},
            {"EXPLORE_CAP", xcap},        {"MANY_IN", g.many_in.text},
            {"MANY_OUT", g.many_out.text},     {"RUN_CODE", g.run.text},
            {"PUSH_ONE", push_one},
            {"MANY_FAST", g.many_fast.text},
        };
        int nh = (int)(sizeof holes / sizeof holes[0]);
        char *ht = load_template(o, "matcher.h.tpl", diag);
        char *ct = load_template(o, "matcher.c.tpl", diag);
        ok = ht && ct && fill(ht, "matcher.h.tpl", holes, nh, diag, h) &&
             fill(ct, "matcher.c.tpl", holes, nh, diag, c);
        free(ht);
        free(ct);
        free(src_comment);
        free(event_ts.text);
    } else {
        ok = false;
    }
    free(fields.text);
    free(tscheck.text);
    free(desc.text);
    free(same.text);
    free(g.code.text);
    free(g.fields.text);
    free(g.init.text);
    free(g.push.text);
    free(g.freec.text);
    free(g.externs.text);
    free(g.finish.text);
    free(g.trie.text);
    free(g.types.text);
    free(g.heap.text);
    free(g.many_in.text);
    free(g.many_out.text);
    free(g.run.text);
    free(g.many_fast.text);
    return ok;
}

bool cg_emit_main(const CgOptions *o, Diag *diag, FILE *out)
{
    char *src_comment = NULL;
    size_t src_len = 0;
    FILE *sc = open_memstream(&src_comment, &src_len);
    put_comment_text(sc, o->source);
    fclose(sc);
    /* the usage text is a C string: keep it free of quotes and escapes */
    for (char *s = src_comment; *s; s++)
        if (*s == '"' || *s == '\\' || *s == '%' || *s == '?')
            *s = '_';
    Hole holes[] = {{"PREFIX", o->prefix},
                    {"HEADER", o->header},
                    {"SOURCE", src_comment},
                    {"VERSION", SREMC_VERSION}};
    char *t = load_template(o, "main.c.tpl", diag);
    bool ok = t && fill(t, "main.c.tpl", holes, 4, diag, out);
    free(t);
    free(src_comment);
    return ok;
}
