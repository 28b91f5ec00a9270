/* cg_tree.c: tdfa and dsra automata -> C step functions: decision trees as code, one block per state and transition. */
#define _POSIX_C_SOURCE 200809L
#include "cg_impl.h"

#include "forecast.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- the generator -------------------------------------------------------------------- */


const char *cg_uint_type(long n)
{
    return n <= 256 ? "uint8_t" : n <= 65536 ? "uint16_t" : "uint32_t";
}

/* "after atoms 1, 3" for a state's members: the pattern positions of the
 * automaton transitions that enter them. */
void cg_put_positions(FILE *out, const Sra *nfa, const int *members, int n)
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


static void emit_dsra_step(Cg *g, int i, const Plan *plan, bool run);

/* The state struct of tdfa or dsra pattern i: state, substream position,
 * start tags (tagged tdfa) and the ring of the last H events (dsra). */
void cg_emit_state_struct(Cg *g, int i, const Dsra *d, const AstPattern *p, int slots, int H)
{
    FILE *ty = g->types.f;
    const char *P = g->P;
    fprintf(ty, "/* Pattern %s: one substream's matcher state. */\ntypedef struct %s_p%d_st {\n", p->name, P, i);
    fprintf(ty, "    %s state;   /* current DFA state */\n", cg_uint_type(d->nstates));
    fputs("    int64_t pos;   /* events of the substream so far */\n", ty);
    if (d->tagged)
        fprintf(ty, "    int64_t tag[%d];   /* per slot: latest start (%s) */\n", slots,
                d->window_kind == WIN_TIME ? "timestamp" : "substream position");
    if (H > 0)
        fprintf(ty, "    %s_event ring[%d];   /* the last %d events: registers by age */\n", P, H, H);
    if (cg_accel_seq(g, d, p))
        fputs("    uint64_t seq_cand;   /* acceleration: candidate starts, bit b at position seq_base + b */\n"
              "    int64_t seq_base, seq_end;   /* the starts below seq_end are known (cg_accel.c) */\n",
              ty);
    if (p->forecast.present)
        fputs("    uint32_t fsym;   /* forecast: the transition the last event took */\n"
              "    uint32_t fctx;   /* forecast: the context state (0: a new substream) */\n"
              "    uint32_t flast;   /* forecast: the last one given (cg_forecast.c); 0: none yet */\n",
              ty);
    fprintf(ty, "} %s_p%d_st;\n\n", P, i);
}

/* The atom functions of the trees of d (pattern i): `int P_pI_aK(e, s)`
 * for every atom K a tree tests; a dsra atom reads registers by age. */
void cg_emit_atoms(Cg *g, int i, const Dsra *d)
{
    FILE *out = g->code.f;
    const char *P = g->P;
    bool dsra = d->kind == DSRA_DSRA;
    int H = dsra ? d->history : 0;
    bool *used = calloc((size_t)d->mt->natoms + 1, sizeof *used);
    if (!used)
        abort();
    for (int q = 0; q < d->nstates; q++)
        for (int n = 0; n < d->states[q].nnodes; n++)
            if (d->states[q].nodes[n].atom >= 0)
                used[d->states[q].nodes[n].atom] = true;
    char fname[CG_NAME_MAX], arg[CG_NAME_MAX];
    snprintf(arg, sizeof arg, "const %s_p%d_st *s", P, i);
    for (int a = 0; a < d->mt->natoms; a++) {
        if (!used[a])
            continue;
        snprintf(fname, sizeof fname, "%s_p%d_a%d", P, i, a);
        const MtAtom *at = &d->mt->atoms[a];
        fprintf(out, "/* atom %d */\n", a);
        cg_emit_cond_fn(out, P, fname, arg, at->expr, dsra ? REG_AGE : REG_NONE, at->regmap, H > 0 ? H : 1);
    }
    free(used);
}

/* The tdfa or dsra of pattern i: state struct, atoms, step function. */
void cg_emit_dsra(Cg *g, int i, const Plan *plan)
{
    const Dsra *d = plan->min;
    const AstPattern *p = plan->pattern;
    int H = d->kind == DSRA_DSRA ? d->history : 0;
    int slots = 0;
    for (int q = 0; q < d->nstates; q++)
        if (d->states[q].nmembers > slots)
            slots = d->states[q].nmembers;

    cg_emit_state_struct(g, i, d, p, slots > 0 ? slots : 1, H);
    cg_emit_atoms(g, i, d);
    /* the threaded run skips events in the start state (cg_accel.c) */
    if (g->threaded && cg_accel_state(g, d, 0))
        cg_emit_accel(g, i, d, 0, p);
    emit_dsra_step(g, i, plan, g->threaded);
}

/* "    int64_t now = ...;": the tag clock of the current event. */
void cg_put_now(Cg *g, const Dsra *d, FILE *out, const char *decl)
{
    int ts = g->schema->ts_attr;
    fprintf(out, "    %snow = ", decl);
    if (d->window_kind == WIN_TIME && ts >= 0) {
        fputs("e->", out);
        cg_put_field(out, &g->schema->attrs[ts]);
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
        fprintf(out, "/* One event of the substream: 1 on a detection%s. */\n"
                     "static int %s_p%d_step(%s_p%d_st *s, const %s_event *e%s)\n{\n    int hit = 0;\n",
                cg_forecast_out(plan, 0), P, i, P, i, P, cg_forecast_out(plan, 1));
        fputs("    s->pos++;\n", out);
        if (tagged) {
            cg_put_now(g, d, out, "int64_t ");
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
        cg_put_positions(out, d->nfa, st->members, st->nmembers);
        fprintf(out, "%s */\n", st->final ? "; final" : "");
        if (run) {
            if (q == 0 && cg_accel_state(g, d, 0))
                fprintf(out, "    k = %s_p%d_skip0(m, s, events, k, n);\n", P, i);
            fprintf(out, "    if (k == n || %s_rejected(m, e = &events[k])) {\n        s->state = %d;\n"
                         "        return k;\n    }\n    k++;\n    m->stats.events++;\n    m->index++;\n"
                         "    s->pos++;\n    hit = 0;\n",
                    P, q);
            if (tagged)
                cg_put_now(g, d, out, "");
        }
        if (st->nnodes == 0) {
            if (run)
                fprintf(out, "    goto p%d_q%d;\n", i, q);
            else if (plan->fc_symbols) {   /* no transition: the stay symbol */
                fprintf(out, "        s->fsym = %d;\n", plan->fc_symbols->stay);
                cg_put_forecast_step(g, i, plan, plan->fc_symbols->stay, q, "        ");
                fputs("        goto done;\n", out);
            }
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
        if (!run && plan->fc_symbols) {   /* the event's symbol: this transition */
            fprintf(out, "    s->fsym = %d;\n", t);
            cg_put_forecast_step(g, i, plan, t, tr->to, "    ");
        }
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
            bool back = g->canon_tag_now == 4 && to->final;   /* cg_canon.c, mode 4 */
            fprintf(out, "    if (hit)%s\n", back ? " {" : "");
            if (back)
                fprintf(out, "        m->cn_tag = %d;\n", tr->back1 - 1);
            fprintf(out, "        %s_match(m, ", P);
            cg_put_decl(out, g, p->name);
            fprintf(out, ", e, NULL, 0);\n%s    goto p%d_q%d;\n}\n", back ? "    }\n" : "", i, tr->to);
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
