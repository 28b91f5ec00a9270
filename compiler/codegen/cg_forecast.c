/* cg_forecast.c: a forecast pattern's symbol automaton and tables -> its
 * static const tables, the per-event forecast step and the records
 * (docs/forecasting.md, "In the generated C"). */
#define _POSIX_C_SOURCE 200809L
#include "cg_impl.h"

#include <inttypes.h>
#include <string.h>

#include "forecast.h"

/* "static const uint16_t NAME[N] = {...};" in the narrowest type of max. */
static void put_array(FILE *out, const char *P, int i, const char *name, const char *what, const uint32_t *v,
                      size_t n, uint32_t max)
{
    fprintf(out, "/* %s */\nstatic const %s %s_p%d_%s[%zu] = {", what, cg_uint_type((long)max + 1), P, i, name,
            n ? n : 1);
    for (size_t k = 0; k < n; k++)
        fprintf(out, "%s%s%" PRIu32, k ? "," : "", k % 24 == 0 ? "\n    " : "", v[k]);
    fputs(n ? "\n};\n" : "0};\n", out);
}

static uint32_t max_of(const uint32_t *v, size_t n)
{
    uint32_t m = 0;
    for (size_t k = 0; k < n; k++)
        m = v[k] > m ? v[k] : m;
    return m;
}

/* The record of one forecast, for the file: emitted once, before the
 * first forecast pattern's step (the template's helpers come later). */
static void emit_record_fn(Cg *g)
{
    FILE *out = g->code.f;
    const char *P = g->P;
    fprintf(out, "/* One entry of a forecast pool: interval from..to (within: 1..k),\n"
                 " * the probability in units of 1e-4, within: positive. */\n"
                 "typedef struct %s_fc_entry {\n    uint16_t from, to, prob;\n    uint8_t positive;\n"
                 "} %s_fc_entry;\n\n",
            P, P);
    char ckey[CG_NAME_MAX + 64] = "";   /* a composite key: the record's tuple (NAME_ckey) */
    if (g->has_ckeys) {
        snprintf(ckey, sizeof ckey, "    if (key_attr)\n        %s_ckey(m, decl, key, &r);\n", P);
        fprintf(out, "static void %s_ckey(const %s_matcher *m, int32_t decl, int64_t slot, sremrt_record *r);\n\n",
                P, P);
    }
    fprintf(out, "/* Emits the forecast record f of declaration decl for the event just pushed. */\n"
                 "static void %s_fc_record(%s_matcher *m, int32_t decl, const char *name, const %s_event *e,\n"
                 "        const sremrt_attr *key_attr, int64_t key, int within, uint32_t from, uint32_t to,\n"
                 "        uint32_t prob, int positive)\n{\n"
                 "    char key_text[128];\n    sremrt_record r;\n    memset(&r, 0, sizeof r);\n"
                 "    r.kind = SREMRT_FORECAST;\n    r.name = name;\n    r.decl = decl;\n    r.index = m->index;\n",
            P, P, P);
    int ts = g->schema->ts_attr;
    if (ts >= 0) {
        fputs("    r.has_ts = 1;\n    r.ts = (int64_t)e->", out);
        cg_put_field(out, &g->schema->attrs[ts]);
        fputs(";\n", out);
    } else {
        fputs("    (void)e;\n", out);
    }
    fprintf(out, "    r.strings = %s_strtab(m);\n"
                 "    if (key_attr)\n        r.key = sremrt_key_text(key_text, sizeof key_text, key_attr, key, r.strings);\n"
                 "%s"
                 "    r.fc_within = within;\n    r.fc_from = (int32_t)from;\n    r.fc_to = (int32_t)to;\n"
                 "    r.fc_prob = (int32_t)prob;\n    r.fc_positive = positive;\n"
                 "    m->cfg.record(m->cfg.user, &r);\n}\n\n",
            P, ckey);
}

/* Pattern i's tables: ctx_next (transposed: [symbol * contexts +
 * context], so that a transition block, whose symbol is a constant, reads
 * its column at a constant offset), index and pool, as static const data. */
static void emit_tables(Cg *g, int i, const FcTables *t)
{
    FILE *out = g->code.f;
    const char *P = g->P;
    size_t nn = (size_t)t->ncontexts * t->nsym, ni = (size_t)t->nstates * t->ncontexts;
    fprintf(out, "/* Forecast tables: %" PRIu32 " contexts (%s), %" PRIu32 " symbols, %" PRIu32
                 " states, %" PRIu32 " distinct forecasts; %ld bytes. */\n",
            t->ncontexts, t->exact ? "exact" : "node mode, approximate", t->nsym, t->nstates, t->npool, t->bytes);
    uint32_t *tr = arena_alloc(g->arena, nn * sizeof *tr + 1);
    for (uint32_t c = 0; c < t->ncontexts; c++)
        for (uint32_t s = 0; s < t->nsym; s++)
            tr[(size_t)s * t->ncontexts + c] = t->ctx_next[(size_t)c * t->nsym + s];
    put_array(out, P, i, "fc_next", "the context after each symbol: [symbol * contexts + context]", tr, nn,
              max_of(tr, nn));
    put_array(out, P, i, "fc_index", "the forecast of (state, context): [state * contexts + context], 1 + pool entry",
              t->index, ni, max_of(t->index, ni));
    fprintf(out, "/* the distinct forecasts */\nstatic const %s_fc_entry %s_p%d_fc_pool[%" PRIu32 "] = {", P, P, i,
            t->npool ? t->npool : 1);
    for (uint32_t k = 0; k < t->npool; k++)
        fprintf(out, "%s\n    {%u, %u, %u, %u}", k ? "," : "", (unsigned)t->pool[k].from, (unsigned)t->pool[k].to,
                (unsigned)t->pool[k].prob, (unsigned)t->pool[k].positive);
    fputs(t->npool ? "\n};\n\n" : "{0, 0, 0, 0}};\n\n", out);
}

/* Hosted, without a model: the symbol automaton and the clause, as data a
 * program learns tables from at run time (PROG --train-first). */
static void emit_automaton(Cg *g, int i, const FcSymbols *sy)
{
    FILE *out = g->code.f;
    size_t n = (size_t)sy->a.nstates * sy->a.nsym;
    fprintf(out, "/* the symbol automaton: [state * symbols + symbol], -1: the symbol cannot occur */\n"
                 "static const int32_t %s_p%d_fc_auto[%zu] = {",
            g->P, i, n);
    for (size_t k = 0; k < n; k++)
        fprintf(out, "%s%s%" PRId32, k ? "," : "", k % 24 == 0 ? "\n    " : "", sy->next[k]);
    fprintf(out, "\n};\nstatic const uint8_t %s_p%d_fc_final[%" PRIu32 "] = {", g->P, i, sy->a.nstates);
    for (uint32_t q = 0; q < sy->a.nstates; q++)
        fprintf(out, "%s%d", q ? "," : "", sy->final[q]);
    fputs("};\n\n", out);
}

/* The record of forecast `cur` (1 + an entry of pool; 0: none) when it
 * changed, or every time. */
static void put_record(FILE *out, const Cg *g, const AstPattern *p, const char *cur, const char *pool,
                       const char *indent)
{
    fprintf(out, "%suint32_t f = %s;\n", indent, cur);
    fprintf(out, "%sif (f && (f != s->flast || m->cfg.forecast_every) && m->cfg.record)\n"
                 "%s    %s_fc_record(m, %d, \"%s\", e, key_attr, key, %d, %s[f - 1].from, %s[f - 1].to,\n"
                 "%s        %s[f - 1].prob, %s[f - 1].positive);\n%ss->flast = f;\n",
            indent, indent, g->P, g->decl, p->name, p->forecast.kind == FORECAST_WITHIN, pool, pool, indent, pool,
            pool, indent);
}

void cg_emit_forecast_tables(Cg *g, int i, const Plan *plan)
{
    if (!g->fc_any)
        emit_record_fn(g);
    g->fc_any = true;
    emit_tables(g, i, plan->fc_tables);
}

void cg_put_forecast_step(Cg *g, int i, const Plan *plan, int sym, int to, const char *indent)
{
    const FcTables *t = plan->fc_tables;
    if (!t)
        return;
    FILE *out = g->code.f;
    fprintf(out, "%ss->fctx = %s_p%d_fc_next[%" PRIu32 " + s->fctx];\n", indent, g->P, i,
            (uint32_t)sym * t->ncontexts);
    fprintf(out, "%ss->fcur = %s_p%d_fc_index[%" PRIu32 " + s->fctx];\n", indent, g->P, i,
            (uint32_t)to * t->ncontexts);
}

void cg_put_forecast_step_var(Cg *g, int i, const Plan *plan, const char *indent)
{
    const FcTables *t = plan->fc_tables;
    if (!t)
        return;
    FILE *out = g->code.f;
    fprintf(out, "%ss->fctx = %s_p%d_fc_next[s->fsym * %" PRIu32 "u + s->fctx];\n", indent, g->P, i, t->ncontexts);
    fprintf(out, "%ss->fcur = %s_p%d_fc_index[(uint32_t)s->state * %" PRIu32 "u + s->fctx];\n", indent, g->P, i,
            t->ncontexts);
}

void cg_emit_forecast(Cg *g, int i, const Plan *plan)
{
    const AstPattern *p = plan->pattern;
    const FcTables *t = plan->fc_tables;
    FILE *out = g->code.f;
    const char *P = g->P;
    bool learn = !t && !g->o->freestanding;   /* tables may come at run time */
    if (learn && !g->fc_any)   /* with tables: cg_emit_forecast_tables */
        emit_record_fn(g);
    g->fc_any |= learn;
    if (learn) {
        emit_automaton(g, i, plan->fc_symbols);
        cg_line(&g->sec[CG_FIELDS], 0, "const struct sremrt_fc_flat *p%d_fc;   /* run-time forecast tables, or NULL */",
                i);
        fprintf(g->fc_set.f, "case %d:\n        if (f->nsym != %" PRIu32 " || f->nstates != %" PRIu32 ")\n"
                             "            return -1;\n        m->p%d_fc = f;\n        return 0;\n    ",
                g->decl, plan->fc_symbols->a.nsym, plan->fc_symbols->a.nstates, i);
    }
    if (g->fc_count == 0) {   /* once a file: whether any forecast hook has work beyond the compare */
        cg_line(&g->sec[CG_FIELDS], 0, "int fc_slow;   /* forecasts: a symbol callback or --forecast-emit every */");
        cg_line(&g->sec[CG_INIT], 0, "m->fc_slow = m->cfg.symbol != NULL || m->cfg.forecast_every;");
    }
    const char *args = "(%s_matcher *m, %s_p%d_st *s, const %s_event *e, int32_t slot,\n"
                       "        const sremrt_attr *key_attr, int64_t key)\n{\n";
    if (t) {   /* the hot path compares two fields; the rest is out of line */
        fprintf(out, "/* Pattern %s, an event whose forecast changed, or any event with a symbol callback\n"
                     " * or every forecast asked: the symbol to a trainer, the record. */\nstatic void %s_p%d_fc_slow",
                p->name, P, i);
        fprintf(out, args, P, P, i, P);
    } else {
        fprintf(out, "/* Pattern %s after its step: the symbol to a trainer; with run-time tables, the\n"
                     " * context step and a record when the forecast changed (or every time). */\n"
                     "static inline void %s_p%d_forecast",
                p->name, P, i);
        fprintf(out, args, P, P, i, P);
    }
    fprintf(out, "    if (m->cfg.symbol)\n        m->cfg.symbol(m->cfg.user, %d, slot, s->fsym);\n", g->decl);
    char pool[CG_NAME_MAX + 16];
    if (t) {   /* the step moved the context and looked the forecast up */
        snprintf(pool, sizeof pool, "%s_p%d_fc_pool", P, i);
        put_record(out, g, p, "s->fcur", pool, "    ");
        fprintf(out, "}\n\n/* Pattern %s after its step, which moved the context and looked the forecast up:\n"
                     " * nothing to do unless the forecast changed (one compare and a flag). */\n"
                     "static inline void %s_p%d_forecast",
                p->name, P, i);
        fprintf(out, args, P, P, i, P);
        fprintf(out, "    if (s->fcur != s->flast || m->fc_slow)\n        %s_p%d_fc_slow(m, s, e, slot, key_attr, key);\n",
                P, i);
    } else if (learn) {
        fprintf(out, "    const struct sremrt_fc_flat *t = m->p%d_fc;\n    if (t) {\n", i);
        /* run-time tables (--train-first): not transposed, steps here */
        fprintf(out, "        s->fctx = t->ctx_next[(size_t)s->fctx * %" PRIu32 " + s->fsym];\n",
                plan->fc_symbols->a.nsym);
        put_record(out, g, p, "t->index[(size_t)s->state * t->ncontexts + s->fctx]", "t->pool", "        ");
        fputs("    }\n", out);
    } else {   /* no model: symbols only */
        fputs("    (void)e;\n    (void)key_attr;\n    (void)key;\n", out);
    }
    fputs("}\n\n", out);
    /* the trainer's and the program's view: sremc train, --train-first */
    const AstForecast *f = &p->forecast;
    fprintf(g->fc_info.f, "{%d, \"%s\", %" PRIu32 ", %d, UINT64_C(0x%016" PRIx64 "), %d, %d, %d,\n        ", g->decl,
            p->name, plan->fc_symbols->a.nsym, f->order, plan->fc_symbols->hash, t != NULL, t && t->exact,
            f->kind == FORECAST_WITHIN);
    if (learn)
        fprintf(g->fc_info.f, "%" PRIu32 ", %s_p%d_fc_auto, %s_p%d_fc_final, ", plan->fc_symbols->a.nstates, P, i, P,
                i);
    else
        fputs("0, NULL, NULL, ", g->fc_info.f);
    fprintf(g->fc_info.f, "%.17g, %d, %d, %d, %.17g, %.17g, %.17g, %.17g},\n    ", f->theta, f->horizon,
            f->max_spread >= 0 ? f->max_spread : f->horizon, f->within, f->pmin, f->alpha, f->gamma, f->r);
    g->fc_count++;
}
