/* cg_table.c: register-free tdfa whose events fall into few classes -> transition tables indexed by event class. */
#define _POSIX_C_SOURCE 200809L
#include "cg_impl.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- tdfa as tables --------------------------------------------------------------------- */


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

bool cg_table_plan(Cg *g, const Dsra *d, Table *t, int *atom_bit)
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
void cg_put_table(FILE *out, const char *type, const char *name, long n,
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

/* The tdfa of pattern i from tables (cg_table_plan said it fits). */
void cg_emit_tdfa_table(Cg *g, int i, const Plan *plan, const Table *t, const int *atom_bit)
{
    const Dsra *d = plan->min;
    const AstPattern *p = plan->pattern;
    FILE *out = g->code.f;
    const char *P = g->P;
    int S = t->slots;
    bool tagged = d->tagged;
    TableCtx x = {d, t, atom_bit};
    char name[CG_NAME_MAX];

    cg_emit_state_struct(g, i, d, p, S, 0);

    fprintf(out, "/* Table layout: events fall into %d classes by what the %d atoms say", t->nclasses,
            t->natoms);
    if (t->attr)
        fprintf(out, " (by the value of %s)", t->attr->name);
    fputs(";\n * a step looks up the next state by (state, class) and, with a window,\n"
          " * moves the start tags by the transition's source masks, without branches. */\n",
          out);
    for (int q = 0; q < d->nstates; q++) {   /* what each state stands for */
        fprintf(out, "/* state %d: ", q);
        cg_put_positions(out, d->nfa, d->states[q].members, d->states[q].nmembers);
        fprintf(out, "%s */\n", d->states[q].final ? "; final" : "");
    }
    if (t->attr) {
        snprintf(name, sizeof name, "%s_p%d_class", P, i);
        cg_put_table(out, cg_uint_type(t->nclasses), name, t->attr->nvalues, tab_value_class, &x);
    } else {
        for (int k = 0; k < t->natoms; k++) {
            const MtAtom *at = &d->mt->atoms[t->atoms[k]];
            snprintf(name, sizeof name, "%s_p%d_a%d", P, i, t->atoms[k]);
            fprintf(out, "/* atom %d: class bit %d */\n", t->atoms[k], k);
            cg_emit_cond_fn(out, P, name, "const void *s", at->expr, REG_NONE, NULL, 1);
        }
    }
    long cells = (long)d->nstates * t->nclasses;
    snprintf(name, sizeof name, "%s_p%d_goto", P, i);
    cg_put_table(out, cg_uint_type(d->nstates), name, cells, tab_goto, &x);
    bool fc = plan->fc_symbols != NULL;   /* a forecast pattern: the symbol is the transition */
    if (tagged || fc) {
        snprintf(name, sizeof name, "%s_p%d_next", P, i);
        cg_put_table(out, cg_uint_type(d->ntrans), name, cells, tab_next, &x);
    }
    if (tagged) {
        snprintf(name, sizeof name, "%s_p%d_sources", P, i);
        if (t->pairs)
            cg_put_table(out, uint_bits_type(8 * S), name, d->ntrans, tab_pairs, &x);
        else
            cg_put_table(out, uint_bits_type(S * (S + 1)), name, d->ntrans, tab_sources, &x);
        snprintf(name, sizeof name, "%s_p%d_finals", P, i);
        if (t->pairs)
            cg_put_table(out, "uint8_t", name, d->nstates, tab_fin_pair, &x);
        else
            cg_put_table(out, uint_bits_type(S), name, d->nstates, tab_finals, &x);
    } else {
        snprintf(name, sizeof name, "%s_p%d_final", P, i);
        cg_put_table(out, "uint8_t", name, d->nstates, tab_final, &x);
    }

    fprintf(out, "\n/* One event of the substream: 1 on a detection%s. */\n"
                 "static inline int %s_p%d_step(%s_p%d_st *s, const %s_event *e%s)\n{\n",
            cg_forecast_out(plan, 0), P, i, P, i, P, cg_forecast_out(plan, 1));
    fputs("    s->pos++;\n", out);
    if (t->attr) {
        fputs("    uint32_t v = (uint32_t)e->", out);
        cg_put_field(out, t->attr);
        fprintf(out, ";\n    unsigned c = v < %du ? %s_p%d_class[v] : %du;\n", t->attr->nvalues, P, i,
                t->out_class);
    } else {
        fputs("    unsigned c = 0", out);
        for (int k = 0; k < t->natoms; k++)
            fprintf(out, "\n        | (unsigned)%s_p%d_a%d(e, NULL) << %d", P, i, t->atoms[k], k);
        fputs(";\n", out);
        if (t->natoms == 0)   /* one class: no atom reads the event */
            fputs("    (void)e;\n", out);
    }
    fprintf(out, "    unsigned cell = (unsigned)s->state * %du + c;\n", t->nclasses);
    if (fc)
        fprintf(out, "    s->fsym = %s_p%d_next[cell];\n", P, i);
    if (!tagged) {
        fprintf(out, "    s->state = %s_p%d_goto[cell];\n", P, i);
        cg_put_forecast_step_var(g, i, plan, "    ");
        fprintf(out, "    return %s_p%d_final[s->state];\n}\n\n", P, i);
        return;
    }
    cg_put_now(g, d, out, "int64_t ");
    fprintf(out, "    uint64_t src = %s_p%d_sources[%s_p%d_next[cell]];\n", P, i, P, i);
    fprintf(out, "    s->state = %s_p%d_goto[cell];\n    unsigned fin = %s_p%d_finals[s->state];\n", P, i, P, i);
    cg_put_forecast_step_var(g, i, plan, "    ");
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

/* For the cost model (cost.c): whether d runs from class tables, as
 * cg_table_plan decides, and with how many event classes. */
bool cg_table_classes(const Dsra *d, const AstSchema *schema, Arena *arena, int *nclasses)
{
    Cg g = {0};
    g.arena = arena;
    g.schema = schema;
    Table t;
    int *atom_bit = arena_alloc(arena, ((size_t)d->mt->natoms + 1) * sizeof *atom_bit);
    if (!cg_table_plan(&g, d, &t, atom_bit))
        return false;
    *nclasses = t.nclasses;
    return true;
}
