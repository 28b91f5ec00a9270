/* cg_forecast.c: a forecast pattern's symbol automaton and tables -> its
 * static const tables, the per-event forecast step and the records
 * (docs/forecasting.md, "In the generated C"). */
#define _POSIX_C_SOURCE 200809L
#include "cg_impl.h"

#include <inttypes.h>
#include <string.h>

#include "forecast.h"

/* The values of one array member, v[k] + add, in braces. */
static void put_values(FILE *out, const uint32_t *v, size_t n, uint32_t add)
{
    fputc('{', out);
    for (size_t k = 0; k < n; k++)
        fprintf(out, "%s%s%" PRIu32, k ? "," : "", k % 24 == 0 ? "\n    " : "", v[k] + add);
    fputs(n ? "\n}" : "0}", out);
}

/* A pattern whose tables are emitted, and the pattern whose context table
 * its step reads: itself, or an earlier one with the same table (the same
 * automaton and model), whose copy it shares. */
typedef struct CgFcTabs {
    int i;
    const FcTables *t;
    int next_of;
    struct CgFcTabs *link;
} CgFcTabs;

static const CgFcTabs *fc_tabs(const Cg *g, int i)
{
    const CgFcTabs *e = g->fc_tabs;
    while (e && e->i != i)
        e = e->link;
    return e;
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
    bool strings = cg_has_strings(g->schema);
    /* out of line: inlined into push, the record's locals crowd the step's registers */
    fprintf(out, "#if defined(__GNUC__)\n#define %s_FC_NOINLINE __attribute__((noinline))\n#else\n"
                 "#define %s_FC_NOINLINE\n#endif\n\n",
            P, P);
    fprintf(out, "/* One entry of a forecast pool: interval from..to (within: 1..k),\n"
                 " * the probability in units of 1e-4, within: positive. */\n"
                 "typedef struct %s_fc_entry {\n    uint16_t from, to, prob;\n    uint8_t positive;\n"
                 "} %s_fc_entry;\n\n",
            P, P);
    char ckey[CG_NAME_MAX + 96] = "";   /* a composite key: the record's tuple (NAME_ckey) */
    if (g->has_ckeys) {
        snprintf(ckey, sizeof ckey, "    r->nkey = 0;\n    if (key_attr)\n        %s_ckey(m, decl, key, r);\n", P);
        fprintf(out, "static void %s_ckey(const %s_matcher *m, int32_t decl, int64_t slot, sremrt_record *r);\n\n",
                P, P);
    }
    fprintf(out, "/* Emits forecast f (a pool entry) of declaration decl for the event just\n"
                 " * pushed, in the matcher's record: zeroed at init, the fields of a forecast\n"
                 " * set here, so that nothing is cleared each time. */\n"
                 "static %s_FC_NOINLINE void %s_fc_record(%s_matcher *m, int32_t decl, const char *name, int within,\n"
                 "        const %s_fc_entry *f, const %s_event *e, const sremrt_attr *key_attr, int64_t key)\n{\n"
                 "    char key_text[128];\n    sremrt_record *r = &m->fc_rec;\n"
                 "    r->kind = SREMRT_FORECAST;\n    r->name = name;\n    r->decl = decl;\n    r->index = m->index;\n",
            P, P, P, P, P);
    int ts = g->schema->ts_attr;
    if (ts >= 0) {
        fputs("    r->has_ts = 1;\n    r->ts = (int64_t)e->", out);
        cg_put_field(out, &g->schema->attrs[ts]);
        fputs(";\n", out);
    } else {
        fputs("    (void)e;\n", out);
    }
    if (strings)
        fprintf(out, "    r->strings = %s_strtab(m);\n"
                     "    r->key = key_attr ? sremrt_key_text(key_text, sizeof key_text, key_attr, key, r->strings) "
                     ": NULL;\n",
                P);
    else   /* no string attribute: the key is formatted, never looked up */
        fputs("    r->key = NULL;\n    if (key_attr) {\n"
              "        sremrt_key_format(key_text, sizeof key_text, key_attr, key);\n        r->key = key_text;\n    }\n",
              out);
    fputs(ckey, out);   /* after the key text: a tuple replaces it */
    fputs("    r->fc_within = within;\n    r->fc_from = f->from;\n    r->fc_to = f->to;\n"
          "    r->fc_prob = f->prob;\n    r->fc_positive = f->positive;\n"
          "    m->cfg.record(m->cfg.user, r);\n    r->key = NULL;   /* key_text goes */\n}\n\n",
          out);
    cg_line(&g->sec[CG_FIELDS], 0, "sremrt_record fc_rec;   /* forecast records (%s_fc_record) */", P);
}

/* Pattern i's tables: ctx_next (transposed: [symbol * contexts +
 * context], so that a transition block, whose symbol is a constant, reads
 * its column at a constant offset) and index (2 + a pool entry, 1: none;
 * never 0, the flast of a new key) as one static const struct, so that a
 * step addresses both from one base; then the pool. A context table equal
 * to an earlier pattern's is not emitted again: the step reads that one. */
static void emit_tables(Cg *g, int i, const FcTables *t)
{
    FILE *out = g->code.f;
    const char *P = g->P;
    size_t nn = (size_t)t->ncontexts * t->nsym, ni = (size_t)t->nstates * t->ncontexts;
    CgFcTabs *e = arena_alloc(g->arena, sizeof *e);
    *e = (CgFcTabs){i, t, i, g->fc_tabs};
    for (const CgFcTabs *o = g->fc_tabs; o; o = o->link)
        if (o->next_of == o->i && o->t->ncontexts == t->ncontexts && o->t->nsym == t->nsym &&
            memcmp(o->t->ctx_next, t->ctx_next, nn * sizeof *t->ctx_next) == 0)
            e->next_of = o->i;
    g->fc_tabs = e;
    fprintf(out, "/* Forecast tables: %" PRIu32 " contexts (%s), %" PRIu32 " symbols, %" PRIu32
                 " states, %" PRIu32 " distinct forecasts; %ld bytes. */\n",
            t->ncontexts, t->exact ? "exact" : "node mode, approximate", t->nsym, t->nstates, t->npool, t->bytes);
    if (e->next_of != i)
        fprintf(out, "/* the context after each symbol: pattern %d's, %s_p%d_fc.next */\n", e->next_of, P, e->next_of);
    fputs("static const struct {\n", out);
    uint32_t *tr = NULL;
    if (e->next_of == i) {
        tr = arena_alloc(g->arena, nn * sizeof *tr + 1);
        for (uint32_t c = 0; c < t->ncontexts; c++)
            for (uint32_t s = 0; s < t->nsym; s++)
                tr[(size_t)s * t->ncontexts + c] = t->ctx_next[(size_t)c * t->nsym + s];
        fprintf(out, "    %s next[%zu];   /* the context after each symbol: [symbol * contexts + context] */\n",
                cg_uint_type((long)max_of(tr, nn) + 1), nn ? nn : 1);
    }
    fprintf(out, "    %s index[%zu];   /* the forecast of (state, context): [state * contexts + context],\n"
                 "                          2 + its pool entry; 1: none (or unreachable) */\n} %s_p%d_fc = {",
            cg_uint_type((long)max_of(t->index, ni) + 2), ni ? ni : 1, P, i);
    if (tr) {
        put_values(out, tr, nn, 0);
        fputs(", ", out);
    }
    put_values(out, t->index, ni, 1);
    fputs("};\n", out);
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

/* The call that emits pool entry `entry`'s record, under an `if` the
 * caller wrote. */
static void put_record_call(FILE *out, const Cg *g, const AstPattern *p, const char *pool, const char *entry,
                            const char *indent)
{
    fprintf(out, "%s    %s_fc_record(m, %d, \"%s\", %d, &%s[%s], e, key_attr, key);\n", indent, g->P, g->decl, p->name,
            p->forecast.kind == FORECAST_WITHIN, pool, entry);
}

/* Run-time tables: the record of forecast `cur` (1 + an entry of pool, a
 * sremrt_fc_entry, copied; 0: none) when it changed, or every time. */
static void put_record(FILE *out, const Cg *g, const AstPattern *p, const char *cur, const char *pool,
                       const char *indent)
{
    fprintf(out, "%suint32_t f = %s;\n", indent, cur);
    fprintf(out, "%sif (f && (f != s->flast || m->cfg.forecast_every) && m->cfg.record) {\n", indent);
    fprintf(out, "%s    %s_fc_entry x = {%s[f - 1].from, %s[f - 1].to, %s[f - 1].prob, %s[f - 1].positive};\n", indent,
            g->P, pool, pool, pool, pool);
    fprintf(out, "%s    %s_fc_record(m, %d, \"%s\", %d, &x, e, key_attr, key);\n%s}\n", indent, g->P, g->decl,
            p->name, p->forecast.kind == FORECAST_WITHIN, indent);
    fprintf(out, "%ss->flast = f;\n", indent);
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
    /* size_t sums: the constant offsets go into the loads' addresses */
    fprintf(out, "%ss->fctx = %s_p%d_fc.next[%" PRIu32 " + (size_t)s->fctx];\n", indent, g->P,
            fc_tabs(g, i)->next_of, (uint32_t)sym * t->ncontexts);
    fprintf(out, "%s*fc = %s_p%d_fc.index[%" PRIu32 " + (size_t)s->fctx];\n", indent, g->P, i,
            (uint32_t)to * t->ncontexts);
}

void cg_put_forecast_step_var(Cg *g, int i, const Plan *plan, const char *indent)
{
    const FcTables *t = plan->fc_tables;
    if (!t)
        return;
    FILE *out = g->code.f;
    fprintf(out, "%ss->fctx = %s_p%d_fc.next[(size_t)s->fsym * %" PRIu32 "u + s->fctx];\n", indent, g->P,
            fc_tabs(g, i)->next_of, t->ncontexts);
    fprintf(out, "%s*fc = %s_p%d_fc.index[(size_t)s->state * %" PRIu32 "u + s->fctx];\n", indent, g->P, i,
            t->ncontexts);
}

const char *cg_forecast_out(const Plan *plan, int param)
{
    if (!plan->fc_tables)
        return "";
    return param ? ", uint32_t *fc" : ", *fc its forecast (2 + a pool entry, 1: none)";
}

const char *cg_forecast_arg(Cg *g, int i, const Plan *plan)
{
    char arg[32];
    if (!plan->fc_tables)
        return "";
    snprintf(arg, sizeof arg, ", &fc%d", i);
    return arena_strdup(g->arena, arg);
}

void cg_put_forecast_push(Cg *g, int i, const Plan *plan, const char *st, const char *slot, const char *key_args,
                          int level, int after)
{
    Buf *pu = &g->sec[CG_PUSH];
    if (!plan->fc_symbols)
        return;
    if (!after && plan->fc_tables)   /* the step's forecast, in a register: no store, no load */
        cg_line(pu, level, "uint32_t fc%d = 1;", i);
    else if (after && plan->fc_tables)
        cg_line(pu, level, "%s_p%d_forecast(m, %s, fc%d, e, %s, %s);", g->P, i, st, i, slot, key_args);
    else if (after)
        cg_line(pu, level, "%s_p%d_forecast(m, %s, e, %s, %s);", g->P, i, st, slot, key_args);
}

void cg_state_forecast(Cg *g, const Plan *plan, const char *st, int level)
{
    if (!plan->fc_tables)
        return;
    Buf *b = &g->sec[CG_STATE];
    cg_line(b, level, "if (io->mode == SREMRT_STATE_LOAD)   /* the mark of this matcher's mode */");
    cg_line(b, level + 1, "%s.flast = (%s.flast & 0x7fffffffu) | m->fc_mark;", st, st);
}

/* With tables: pattern p's hook after its step, and its out-of-line part.
 * The hook compares the forecast with the last one given (flast), and
 * nothing else: a symbol callback or every forecast asked sets
 * m->fc_mark, which flast then carries, so that every event fails the
 * compare and reaches the slow part. */
static void emit_hook(Cg *g, int i, const AstPattern *p, const char *args)
{
    FILE *out = g->code.f;
    const char *P = g->P;
    char pool[CG_NAME_MAX + 16];
    snprintf(pool, sizeof pool, "%s_p%d_fc_pool", P, i);
    fprintf(out, "/* Pattern %s with m->fc_mark, where every event comes to the slow part: the\n"
                 " * symbol to a trainer; 1 if the record is due (the forecast changed, or\n"
                 " * every one is asked). */\n"
                 "static int %s_p%d_fc_every(%s_matcher *m, %s_p%d_st *s, uint32_t f, int32_t slot)\n{\n"
                 "    uint32_t last = s->flast & 0x7fffffffu;\n    s->flast = f | m->fc_mark;\n"
                 "    if (m->cfg.symbol)\n        m->cfg.symbol(m->cfg.user, %d, slot, s->fsym);\n"
                 "    return f != last || m->cfg.forecast_every;\n}\n\n",
            p->name, P, i, P, P, i, g->decl);
    fprintf(out, "/* Pattern %s, after a step whose forecast f is not the last one given: the\n"
                 " * record of a changed forecast (with m->fc_mark, of every event as due). */\n"
                 "static void %s_p%d_fc_changed",
            p->name, P, i);
    fprintf(out, args, P, P, i, P);
    fprintf(out, "    if (!m->fc_mark)\n        s->flast = f;\n"
                 "    else if (!%s_p%d_fc_every(m, s, f, slot))\n        return;\n"
                 "    if (f > 1 && m->cfg.record)\n",
            P, i);
    put_record_call(out, g, p, pool, "f - 2", "    ");
    fprintf(out, "}\n\n/* Pattern %s after its step, which moved the context and looked the forecast f\n"
                 " * up: one compare (see %s_p%d_fc_changed). */\nstatic inline void %s_p%d_forecast",
            p->name, P, i, P, i);
    fprintf(out, args, P, P, i, P);
    fprintf(out, "    if (f != s->flast)\n        %s_p%d_fc_changed(m, s, f, e, slot, key_attr, key);\n}\n\n", P,
            i);
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
    if (g->fc_count == 0) {   /* once a file: the mark of the modes where every event takes the slow part */
        cg_line(&g->sec[CG_FIELDS], 0,
                "uint32_t fc_mark;   /* forecasts: 0x80000000 with a symbol callback or --forecast-emit every, else 0 */");
        cg_line(&g->sec[CG_INIT], 0, "m->fc_mark = m->cfg.symbol != NULL || m->cfg.forecast_every ? 0x80000000u : 0u;");
    }
    const char *args = "(%s_matcher *m, %s_p%d_st *s, const %s_event *e, int32_t slot,\n"
                       "        const sremrt_attr *key_attr, int64_t key)\n{\n";
    if (t) {   /* the step moved the context and looked the forecast up */
        emit_hook(g, i, p,
                  "(%s_matcher *m, %s_p%d_st *s, uint32_t f, const %s_event *e, int32_t slot,\n"
                  "        const sremrt_attr *key_attr, int64_t key)\n{\n");
    } else {
        fprintf(out, "/* Pattern %s after its step: the symbol to a trainer; with run-time tables, the\n"
                     " * context step and a record when the forecast changed (or every time). */\n"
                     "static inline void %s_p%d_forecast",
                p->name, P, i);
        fprintf(out, args, P, P, i, P);
        fprintf(out, "    if (m->cfg.symbol)\n        m->cfg.symbol(m->cfg.user, %d, slot, s->fsym);\n", g->decl);
        if (learn) {
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
    }
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
