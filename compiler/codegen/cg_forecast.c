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
                 "typedef struct %s_fc_entry {\n    uint16_t from, to, prob;\n    uint8_t within, positive;\n"
                 "} %s_fc_entry;\n\n",
            P, P);
    fprintf(out, "/* Emits the forecast record f of declaration decl for the event just pushed. */\n"
                 "static void %s_fc_record(%s_matcher *m, int32_t decl, const char *name, const %s_event *e,\n"
                 "        const sremrt_attr *key_attr, int64_t key, const %s_fc_entry *f)\n{\n"
                 "    char key_text[128];\n    sremrt_record r;\n    memset(&r, 0, sizeof r);\n"
                 "    r.kind = SREMRT_FORECAST;\n    r.name = name;\n    r.decl = decl;\n    r.index = m->index;\n",
            P, P, P, P);
    int ts = g->schema->ts_attr;
    if (ts >= 0) {
        fputs("    r.has_ts = 1;\n    r.ts = (int64_t)e->", out);
        cg_put_field(out, &g->schema->attrs[ts]);
        fputs(";\n", out);
    } else {
        fputs("    (void)e;\n", out);
    }
    fprintf(out, "    if (key_attr) {\n        sremrt_key_format(key_text, sizeof key_text, key_attr, key);\n"
                 "        r.key = key_text;\n    }\n"
                 "    r.fc_within = f->within;\n    r.fc_from = f->from;\n    r.fc_to = f->to;\n"
                 "    r.fc_prob = f->prob;\n    r.fc_positive = f->positive;\n"
                 "    m->cfg.record(m->cfg.user, &r);\n}\n\n");
}

/* Pattern i's tables: ctx_next, index and pool, as static const data. */
static void emit_tables(Cg *g, int i, const FcTables *t, bool within)
{
    FILE *out = g->code.f;
    const char *P = g->P;
    size_t nn = (size_t)t->ncontexts * t->nsym, ni = (size_t)t->nstates * t->ncontexts;
    fprintf(out, "/* Forecast tables: %" PRIu32 " contexts (%s), %" PRIu32 " symbols, %" PRIu32
                 " states, %" PRIu32 " distinct forecasts; %ld bytes. */\n",
            t->ncontexts, t->exact ? "exact" : "node mode, approximate", t->nsym, t->nstates, t->npool, t->bytes);
    put_array(out, P, i, "fc_next", "the context after each symbol: [context * symbols + symbol]", t->ctx_next, nn,
              max_of(t->ctx_next, nn));
    put_array(out, P, i, "fc_index", "the forecast of (state, context): [state * contexts + context], 1 + pool entry",
              t->index, ni, max_of(t->index, ni));
    fprintf(out, "/* the distinct forecasts */\nstatic const %s_fc_entry %s_p%d_fc_pool[%" PRIu32 "] = {", P, P, i,
            t->npool ? t->npool : 1);
    for (uint32_t k = 0; k < t->npool; k++)
        fprintf(out, "%s\n    {%" PRIu32 ", %" PRIu32 ", %" PRIu32 ", %d, %d}", k ? "," : "", t->pool[k].from,
                t->pool[k].to, t->pool[k].prob, within, t->pool[k].positive);
    fputs(t->npool ? "\n};\n\n" : "{0, 0, 0, 0, 0}};\n\n", out);
}

void cg_emit_forecast(Cg *g, int i, const Plan *plan)
{
    const AstPattern *p = plan->pattern;
    const FcTables *t = plan->fc_tables;
    FILE *out = g->code.f;
    const char *P = g->P;
    if (t && !g->fc_any)   /* without tables no record is made */
        emit_record_fn(g);
    if (t) {
        g->fc_any = true;
        emit_tables(g, i, t, p->forecast.kind == FORECAST_WITHIN);
    }
    fprintf(out,
            "/* Pattern %s after its step: the symbol to a trainer, then one context step and\n"
            " * one lookup; a record when the forecast changed (or every time). */\n"
            "static inline void %s_p%d_forecast(%s_matcher *m, %s_p%d_st *s, const %s_event *e, int32_t slot,\n"
            "        const sremrt_attr *key_attr, int64_t key)\n{\n",
            p->name, P, i, P, P, i, P);
    fprintf(out, "    if (m->cfg.symbol)\n        m->cfg.symbol(m->cfg.user, %d, slot, s->fsym);\n", g->decl);
    if (!t) {   /* no model: symbols only */
        fputs("    (void)e;\n    (void)key_attr;\n    (void)key;\n}\n\n", out);
    } else {
        fprintf(out, "    s->fctx = %s_p%d_fc_next[(size_t)s->fctx * %" PRIu32 " + s->fsym];\n", P, i, t->nsym);
        fprintf(out, "    uint32_t f = %s_p%d_fc_index[(size_t)s->state * %" PRIu32 " + s->fctx];\n", P, i,
                t->ncontexts);
        fprintf(out, "    if (f && (f != s->flast || m->cfg.forecast_every) && m->cfg.record)\n"
                     "        %s_fc_record(m, %d, \"",
                P, g->decl);
        fputs(p->name, out);
        fprintf(out, "\", e, key_attr, key, &%s_p%d_fc_pool[f - 1]);\n    s->flast = f;\n}\n\n", P, i);
    }
    /* the trainer's and the program's view: sremc train, PROG's --model checks */
    fprintf(g->fc_info.f, "{%d, \"", g->decl);
    fputs(p->name, g->fc_info.f);
    fprintf(g->fc_info.f, "\", %" PRIu32 ", %d, UINT64_C(0x%016" PRIx64 "), %d, %d, %d},\n    ",
            plan->fc_symbols->a.nsym, p->forecast.order, plan->fc_symbols->hash, t != NULL, t && t->exact,
            p->forecast.kind == FORECAST_WITHIN);
    g->fc_count++;
}
