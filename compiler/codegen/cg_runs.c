/* cg_runs.c: the runs strategy -> a run-set step over the epsilon-free SRA. */
#define _POSIX_C_SOURCE 200809L
#include "cg_impl.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The runs matcher of pattern i over the epsilon-free SRA. */
void cg_emit_runs(Cg *g, int i, const Plan *plan)
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
            plan->pattern->name, P, i, cg_uint_type(nfa->nstates));
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
    char fname[CG_NAME_MAX], arg[CG_NAME_MAX];
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
                cg_emit_cond_fn(out, P, fname, arg, l->cond, REG_RUN, l->regmap, 1);
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
        cg_put_positions(out, nfa, &q, 1);
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
        cg_put_field(out, &g->schema->attrs[ts]);
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
