/* forecast.c: forecast patterns' plans -> symbol automata (transitions of
 * the tdfa or dsra), model counts -> the forecast tables of the generated
 * C, through the runtime's forecast core (docs/forecasting.md). */
#define _POSIX_C_SOURCE 200809L
#include "forecast.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sra_build.h"
#include "sremrt/fc_model.h"

/* ---- plans ------------------------------------------------------------------------ */

void forecast_prepare(Plan **plans, int n, const StrategyOpts *o, Arena *arena, Diag *diag)
{
    for (int i = 0; i < n; i++) {
        Plan *plan = plans[i];
        if (!plan || !plan->pattern->forecast.present || plan->strategy != STRATEGY_TDFA)
            continue;
        const AstPattern *p = plan->pattern;
        if (p->hdr.window.kind == WIN_TIME) {
            diag_warning(diag, p->forecast.loc, "forecast-window",
                         "the waiting times of pattern '%s' ignore its time window: reaching a final "
                         "state counts as a detection, so forecasts may come early",
                         p->name);
            continue;
        }
        if (p->hdr.window.kind != WIN_EVENTS || o->strategy == STRATEGY_TDFA)
            continue;
        /* the unrolled automaton counts the window: its finals detect */
        StrategyOpts d = *o;
        d.strategy = STRATEGY_DSRA;
        if (d.max_states > FC_MAX_EXACT_STATES)   /* unrolling a _* multiplies states */
            d.max_states = FC_MAX_EXACT_STATES;
        Diag quiet;
        diag_init(&quiet, diag->path, diag->src, diag->len);
        Plan *u = strategy_plan(p, &d, arena, &quiet);
        diag_free(&quiet);
        if (u && u->min) {
            u->reason = "register-free with a forecast: the unrolled automaton counts the window";
            plans[i] = u;
        } else {
            diag_warning(diag, p->forecast.loc, "forecast-window",
                         "the waiting times of pattern '%s' ignore its count window: the unrolled "
                         "automaton that counts it has over %d states; reaching a final state counts as "
                         "a detection, so forecasts may come early",
                         p->name, FC_MAX_EXACT_STATES);
        }
    }
}

bool forecast_check_plans(Plan **plans, int n, const StrategyOpts *o, Diag *diag)
{
    bool ok = true;
    for (int i = 0; i < n; i++) {
        Plan *plan = plans[i];
        if (!plan || !plan->pattern->forecast.present || (plan->strategy != STRATEGY_RUNS && plan->min))
            continue;
        const AstPattern *p = plan->pattern;
        char win[96];
        sra_window_text(p, win, sizeof win);
        diag_error(diag, p->forecast.loc,
                   "pattern '%s' (%s) cannot be forecast: it is matched without a deterministic "
                   "automaton (%s), and forecasts need the transition each event takes",
                   p->name, win, plan->reason);
        if (p->nregs > 0 && p->hdr.window.kind != WIN_EVENTS)
            diag_note(diag, p->loc, "a count window ('within N events') gives a pattern with registers one");
        else
            diag_note(diag, p->loc, "a smaller count window, or a larger --max-states (now %d) or --max-code-kb, "
                      "lets it fit", o->max_states);
        plans[i] = NULL;
        ok = false;
    }
    return ok;
}

/* ---- symbols ---------------------------------------------------------------------- */

/* FNV-1a over the text dump of the automaton: its states, transitions
 * and their minterms, so that any change of the pattern's meaning or of
 * the compiler's construction changes it. */
static uint64_t dump_hash(const Dsra *d)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        abort();
    dsra_dump_txt(d, f);
    fclose(f);
    uint64_t h = 14695981039346656037u;
    for (size_t k = 0; k < len; k++) {
        h ^= (unsigned char)text[k];
        h *= 1099511628211u;
    }
    free(text);
    return h;
}

FcSymbols *forecast_symbols(const Plan *plan, Arena *arena)
{
    const Dsra *d = plan->min;
    FcSymbols *sy = arena_alloc(arena, sizeof *sy);
    sy->stay = -1;
    for (int q = 0; q < d->nstates; q++)
        if (d->states[q].nnodes == 0)
            sy->stay = d->ntrans;
    uint32_t nsym = (uint32_t)d->ntrans + (sy->stay >= 0);
    sy->next = arena_alloc(arena, (size_t)d->nstates * nsym * sizeof *sy->next + 1);
    sy->final = arena_alloc(arena, (size_t)d->nstates + 1);
    for (size_t k = 0; k < (size_t)d->nstates * nsym; k++)
        sy->next[k] = -1;
    for (int t = 0; t < d->ntrans; t++)
        sy->next[(size_t)d->trans[t].from * nsym + (uint32_t)t] = d->trans[t].to;
    for (int q = 0; q < d->nstates; q++) {
        sy->final[q] = d->states[q].final;
        if (d->states[q].nnodes == 0)
            sy->next[(size_t)q * nsym + (uint32_t)sy->stay] = q;
    }
    sy->a = (sremrt_fc_automaton){(uint32_t)d->nstates, nsym, 0, sy->next, sy->final};
    sy->hash = dump_hash(d);
    return sy;
}

/* ---- tables --------------------------------------------------------------------------- */

static long width(uint32_t max)
{
    return max < 256 ? 1 : max < 65536 ? 2 : 4;
}

long forecast_table_bytes(const FcTables *t)
{
    uint32_t maxf = 0, maxp = 0;
    for (uint32_t k = 0; k < t->npool; k++) {
        maxf = t->pool[k].to > maxf ? t->pool[k].to : maxf;
        maxp = t->pool[k].prob > maxp ? t->pool[k].prob : maxp;
    }
    return (long)t->ncontexts * t->nsym * width(t->ncontexts) +
           (long)t->nstates * t->ncontexts * width(t->npool + 1) +
           (long)t->npool * (2 * width(maxf) + width(maxp) + 1);
}

/* The pst's parameters as the clause gives them. */
static void clause_params(const AstForecast *f, sremrt_fc_params *pp)
{
    sremrt_fc_params_default(pp);
    pp->order = (uint32_t)f->order;
    pp->pmin = f->pmin;
    pp->alpha = f->alpha;
    pp->gamma = f->gamma;
    pp->r = f->r;
}

static void clause_spec(const AstForecast *f, sremrt_fc_spec *spec)
{
    memset(spec, 0, sizeof *spec);
    spec->kind = f->kind == FORECAST_WITHIN ? SREMRT_FC_WITHIN : SREMRT_FC_INTERVAL;
    spec->theta = f->theta;
    spec->horizon = (uint32_t)f->horizon;
    spec->max_spread = f->max_spread >= 0 ? (uint32_t)f->max_spread : (uint32_t)f->horizon;
    spec->k = (uint32_t)f->within;
}

/* The core's table flattened (sremrt_fc_flatten), copied into the arena. */
static bool fill_tables(FcTables *t, const sremrt_fc_ctx *x, const sremrt_fc_table *tb, Arena *arena)
{
    sremrt_fc_flat *f = sremrt_fc_flatten(x, tb);
    if (!f)
        return false;
    t->nsym = f->nsym;
    t->ncontexts = f->ncontexts;
    t->nstates = f->nstates;
    t->npool = f->npool;
    t->exact = f->exact != 0;
    size_t nn = (size_t)f->ncontexts * f->nsym, ni = (size_t)f->nstates * f->ncontexts;
    t->ctx_next = arena_alloc(arena, nn * sizeof *t->ctx_next + 1);
    t->index = arena_alloc(arena, ni * sizeof *t->index + 1);
    t->pool = arena_alloc(arena, (size_t)f->npool * sizeof *t->pool + 1);
    memcpy(t->ctx_next, f->ctx_next, nn * sizeof *t->ctx_next);
    memcpy(t->index, f->index, ni * sizeof *t->index);
    memcpy(t->pool, f->pool, (size_t)f->npool * sizeof *t->pool);
    sremrt_fc_flat_free(f);
    t->bytes = forecast_table_bytes(t);
    return true;
}

FcTables *forecast_tables(const AstPattern *p, const FcSymbols *sy, const sremrt_fc_counts *counts,
                          Arena *arena, Diag *diag)
{
    const AstForecast *f = &p->forecast;
    if (sremrt_fc_counts_nsym(counts) != sy->a.nsym) {
        diag_error(diag, f->loc, "the model of pattern '%s' has %u symbols, its automaton %u: train it again",
                   p->name, (unsigned)sremrt_fc_counts_nsym(counts), (unsigned)sy->a.nsym);
        return NULL;
    }
    if (sremrt_fc_counts_order(counts) < (uint32_t)f->order)
        diag_warning(diag, f->loc, "forecast-order",
                     "the model of pattern '%s' counted contexts of at most %u symbols, the clause asks "
                     "for order %d: the tree uses the shorter",
                     p->name, (unsigned)sremrt_fc_counts_order(counts), f->order);
    sremrt_fc_params pp;
    sremrt_fc_spec spec;
    clause_params(f, &pp);
    if (pp.order > sremrt_fc_counts_order(counts))
        pp.order = sremrt_fc_counts_order(counts);
    clause_spec(f, &spec);
    char err[256] = "";
    sremrt_fc_pst *pst = sremrt_fc_pst_learn(counts, &pp, err, sizeof err);
    if (!pst) {
        diag_error(diag, f->loc, "pattern '%s': the prediction suffix tree cannot be learned: %s", p->name,
                   err[0] ? err : "out of memory");
        return NULL;
    }
    sremrt_fc_ctx *x = sremrt_fc_ctx_build(pst, FC_MAX_CONTEXTS);
    sremrt_fc_table *tb = x ? sremrt_fc_table_build(&sy->a, x, &spec) : NULL;
    FcTables *t = arena_alloc(arena, sizeof *t);
    if (!tb || !fill_tables(t, x, tb, arena)) {
        t = NULL;
        diag_error(diag, f->loc, "pattern '%s': out of memory computing the forecast tables", p->name);
    }
    sremrt_fc_table_free(tb);
    sremrt_fc_ctx_free(x);
    sremrt_fc_pst_free(pst);
    return t;
}

/* ---- attaching to the plans ------------------------------------------------------------ */

/* The tables of one pattern from the model file, budget checked. */
static bool attach_tables(Plan *plan, FILE *in, const char *model, long max_kb, bool explain, Arena *arena,
                          Diag *diag)
{
    const AstPattern *p = plan->pattern;
    char err[400] = "";
    rewind(in);
    sremrt_fc_counts *c = sremrt_fc_model_read(in, p->name, plan->fc_symbols->hash, err, sizeof err);
    if (!c) {
        diag_error(diag, p->forecast.loc, "%s: %s", model, err);
        return false;
    }
    FcTables *t = forecast_tables(p, plan->fc_symbols, c, arena, diag);
    sremrt_fc_counts_free(c);
    if (!t)
        return false;
    if (explain)
        fprintf(stderr,
                "sremc: pattern %s: forecast: %u symbols, %u contexts (%s), %u states, %u distinct "
                "forecasts, %ld table bytes\n",
                p->name, (unsigned)t->nsym, (unsigned)t->ncontexts, t->exact ? "exact" : "node mode, approximate",
                (unsigned)t->nstates, (unsigned)t->npool, t->bytes);
    if (t->bytes > max_kb * 1024) {
        diag_error(diag, p->forecast.loc,
                   "the forecast tables of pattern '%s' take %ld bytes, over --max-forecast-kb %ld",
                   p->name, t->bytes, max_kb);
        diag_note(diag, p->forecast.loc,
                  "a lower 'order' or a smaller count window makes them smaller; or raise --max-forecast-kb");
        return false;
    }
    plan->fc_tables = t;
    return true;
}

bool forecast_attach(Plan **plans, int n, const char *model, long max_kb, bool explain, bool quiet, Arena *arena,
                     Diag *diag)
{
    FILE *in = NULL;
    bool ok = true;
    for (int i = 0; i < n; i++) {
        Plan *plan = plans[i];
        if (!plan || !plan->pattern->forecast.present || !plan->min)
            continue;
        plan->fc_symbols = forecast_symbols(plan, arena);
        if (!model) {
            if (!quiet)
                diag_warning(diag, plan->pattern->forecast.loc, "forecast-no-model",
                             "pattern '%s' gives no forecasts without a model: train one with 'sremc "
                             "train' and compile with --model",
                             plan->pattern->name);
            continue;
        }
        if (!in && !(in = fopen(model, "r"))) {
            diag_error(diag, plan->pattern->forecast.loc, "cannot open the model '%s': %s", model,
                       strerror(errno));
            return false;
        }
        ok &= attach_tables(plan, in, model, max_kb, explain, arena, diag);
    }
    if (in)
        fclose(in);
    return ok;
}
