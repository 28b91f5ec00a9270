/* fc_wait.c: automaton x context automaton -> first-passage waiting-time
 * distributions (the backward recursion, every start pair at once), the
 * forecast a distribution gives (sremrt_fc_decide), and the table of
 * forecasts per reachable (state, context) pair. Hosted only. */
#include "sremrt/forecast.h"

#include <stdlib.h>
#include <string.h>

/* The product's one-step matrix over a list of pairs, rows in CSR form:
 * from pair i, with probability val[k], the next pair col[k] (not final);
 * fin[i] is the probability that the next state is final. A context's
 * distribution is renormalised over the symbols possible in the state. */
typedef struct product {
    uint32_t npairs;
    uint32_t *row;     /* npairs + 1 */
    uint32_t *col;
    double *val;
    double *fin;
} product;

static void product_free(product *m)
{
    free(m->row);
    free(m->col);
    free(m->val);
    free(m->fin);
}

/* pairs[i] = q * C + c; slot[q * C + c] = i, or UINT32_MAX when absent
 * (then a successor there cannot occur: callers list closed sets). */
static int product_build(product *m, const sremrt_fc_automaton *a, const sremrt_fc_ctx *x,
                         const uint32_t *pairs, uint32_t npairs, const uint32_t *slot)
{
    uint32_t i, s, k = 0, nsym = a->nsym, C = x->ncontexts;
    size_t most = (size_t)npairs * nsym;
    memset(m, 0, sizeof *m);
    m->npairs = npairs;
    m->row = malloc(((size_t)npairs + 1) * sizeof *m->row);
    m->col = malloc((most ? most : 1) * sizeof *m->col);
    m->val = malloc((most ? most : 1) * sizeof *m->val);
    m->fin = calloc(npairs ? npairs : 1, sizeof *m->fin);
    if (!m->row || !m->col || !m->val || !m->fin)
        return product_free(m), -1;
    for (i = 0; i < npairs; i++) {
        uint32_t q = pairs[i] / C, c = pairs[i] % C;
        const int32_t *to = a->next + (size_t)q * nsym;
        const double *p = x->prob + (size_t)c * nsym;
        double total = 0;
        m->row[i] = k;
        for (s = 0; s < nsym; s++)
            total += to[s] >= 0 ? p[s] : 0;
        for (s = 0; s < nsym && total > 0; s++) {
            double ps = p[s] / total;
            if (to[s] < 0 || ps == 0)
                continue;
            if (a->final[to[s]])
                m->fin[i] += ps;
            else {
                m->col[k] = slot[(size_t)to[s] * C + x->next[(size_t)c * nsym + s]];
                m->val[k++] = ps;
            }
        }
    }
    m->row[npairs] = k;
    return 0;
}

/* wt[i * h + n - 1] = P(first final n steps from pair i):
 * f_1 = fin, f_n(i) = sum_k val[k] f_{n-1}(col[k]). */
static double *backward(const product *m, uint32_t h)
{
    uint32_t i, n, k;
    size_t cells = (size_t)m->npairs * h;
    double *wt = malloc((cells ? cells : 1) * sizeof *wt);
    if (!wt)
        return NULL;
    for (i = 0; i < m->npairs; i++)
        wt[(size_t)i * h] = m->fin[i];
    for (n = 1; n < h; n++)
        for (i = 0; i < m->npairs; i++) {
            double f = 0;
            for (k = m->row[i]; k < m->row[i + 1]; k++)
                f += m->val[k] * wt[(size_t)m->col[k] * h + n - 1];
            wt[(size_t)i * h + n] = f;
        }
    return wt;
}

static int shapes_ok(const sremrt_fc_automaton *a, const sremrt_fc_ctx *x, uint32_t horizon)
{
    return a->nsym == x->nsym && a->nstates > 0 && x->ncontexts > 0 && horizon >= 1
           && a->start < a->nstates && x->start < x->ncontexts
           && (uint64_t)a->nstates * x->ncontexts < UINT32_MAX;
}

double *sremrt_fc_waiting_times(const sremrt_fc_automaton *a, const sremrt_fc_ctx *x,
                                uint32_t horizon)
{
    uint32_t n, i;
    uint32_t *ids;
    product m;
    double *wt = NULL;
    if (!shapes_ok(a, x, horizon))
        return NULL;
    n = a->nstates * x->ncontexts;
    if (!(ids = malloc((size_t)n * sizeof *ids)))
        return NULL;
    for (i = 0; i < n; i++)
        ids[i] = i;
    if (product_build(&m, a, x, ids, n, ids) == 0) {
        wt = backward(&m, horizon);
        product_free(&m);
    }
    free(ids);
    return wt;
}

/* ---- the decision rule ----------------------------------------------------------- */

/* Interval: for each end b, the latest start a whose window still holds
 * theta (two pointers, O(h)); every shortest window is among these. Ties in
 * length go to the higher probability (by more than the tolerance), then
 * the earlier start. */
static sremrt_fc_forecast interval(const double *wt, const sremrt_fc_spec *sp)
{
    sremrt_fc_forecast f;
    double need = sp->theta - SREMRT_FC_TOLERANCE, sum = 0;
    uint32_t a = 0, b, n;
    memset(&f, 0, sizeof f);
    f.none = 1;
    for (b = 0; b < sp->horizon; b++) {
        sum += wt[b];
        while (a < b && sum - wt[a] >= need) {
            sum -= wt[a];
            a++;
        }
        if (sum < need)
            continue;
        if (!f.none && b - a > f.to - f.from)
            continue;
        {
            double exact = 0;
            for (n = a; n <= b; n++)   /* summed afresh: no drift from the running sum */
                exact += wt[n];
            if (f.none || b - a < f.to - f.from || exact > f.prob + SREMRT_FC_TOLERANCE) {
                f.none = 0;
                f.from = a + 1;
                f.to = b + 1;
                f.prob = exact;
            }
        }
    }
    if (!f.none && f.to - f.from > sp->max_spread) {
        memset(&f, 0, sizeof f);
        f.none = 1;
    }
    f.positive = !f.none;
    return f;
}

sremrt_fc_forecast sremrt_fc_decide(const double *wt, const sremrt_fc_spec *spec)
{
    sremrt_fc_forecast f;
    uint32_t n, k;
    if (spec->kind == SREMRT_FC_INTERVAL)
        return interval(wt, spec);
    memset(&f, 0, sizeof f);
    k = spec->k < spec->horizon ? spec->k : spec->horizon;
    for (n = 0; n < k; n++)
        f.prob += wt[n];
    f.from = 1;
    f.to = k;
    f.positive = f.prob >= spec->theta - SREMRT_FC_TOLERANCE;
    return f;
}

/* ---- the table ----------------------------------------------------------------- */

/* Pairs reachable from (start, start) by symbols possible in their states,
 * breadth first: pairs[] and slot[q * C + c] (UINT32_MAX: unreachable). */
static uint32_t reach(const sremrt_fc_automaton *a, const sremrt_fc_ctx *x, uint32_t *pairs,
                      uint32_t *slot)
{
    uint32_t C = x->ncontexts, nsym = a->nsym, n = 0, head = 0, s;
    size_t i, all = (size_t)a->nstates * C;
    for (i = 0; i < all; i++)
        slot[i] = UINT32_MAX;
    slot[(size_t)a->start * C + x->start] = 0;
    pairs[n++] = a->start * C + x->start;
    while (head < n) {
        uint32_t q = pairs[head] / C, c = pairs[head] % C;
        head++;
        for (s = 0; s < nsym; s++) {
            int32_t to = a->next[(size_t)q * nsym + s];
            uint32_t p;
            if (to < 0)
                continue;
            p = (uint32_t)to * C + x->next[(size_t)c * nsym + s];
            if (slot[p] == UINT32_MAX) {
                slot[p] = n;
                pairs[n++] = p;
            }
        }
    }
    return n;
}

/* The pool index of f (added when new), found through an open-addressed
 * table of pool indices keyed by f's bytes. */
static uint32_t pool_index(sremrt_fc_table *t, uint32_t *hash, uint32_t mask, const sremrt_fc_forecast *f)
{
    uint64_t h = 1469598103934665603ull, bits;
    uint32_t i;
    memcpy(&bits, &f->prob, sizeof bits);
    h = (h ^ f->from) * 1099511628211ull;
    h = (h ^ f->to) * 1099511628211ull;
    h = (h ^ (uint64_t)f->positive) * 1099511628211ull;
    h = (h ^ bits) * 1099511628211ull;
    for (i = (uint32_t)(h >> 20) & mask;; i = (i + 1) & mask) {
        const sremrt_fc_forecast *g;
        if (hash[i] == UINT32_MAX) {
            hash[i] = t->npool;
            t->pool[t->npool] = *f;
            return t->npool++;
        }
        g = &t->pool[hash[i]];
        if (g->from == f->from && g->to == f->to && g->positive == f->positive
            && memcmp(&g->prob, &f->prob, sizeof f->prob) == 0)
            return hash[i];
    }
}

/* Fills index and pool from the reachable pairs' distributions. */
static int fill(sremrt_fc_table *t, const uint32_t *pairs, uint32_t npairs, const double *wt,
                const sremrt_fc_spec *spec)
{
    uint32_t cap = 16, i, *hash;
    while (cap < 2 * npairs)
        cap <<= 1;
    t->pool = malloc((size_t)npairs * sizeof *t->pool + 1);
    hash = malloc((size_t)cap * sizeof *hash);
    if (!t->pool || !hash)
        return free(hash), -1;
    memset(hash, 0xff, (size_t)cap * sizeof *hash);
    for (i = 0; i < npairs; i++) {
        sremrt_fc_forecast f = sremrt_fc_decide(wt + (size_t)i * spec->horizon, spec);
        if (!f.none)
            t->index[pairs[i]] = 1 + pool_index(t, hash, cap - 1, &f);
    }
    free(hash);
    return 0;
}

/* The ranges of forecast.h: 0 < theta <= 1, horizon 1..4096, k 1..horizon. */
static int spec_ok(const sremrt_fc_spec *sp)
{
    return sp->theta > 0 && sp->theta <= 1 && sp->horizon >= 1 && sp->horizon <= 4096
           && (sp->kind == SREMRT_FC_INTERVAL || (sp->kind == SREMRT_FC_WITHIN && sp->k >= 1 && sp->k <= sp->horizon));
}

sremrt_fc_table *sremrt_fc_table_build(const sremrt_fc_automaton *a, const sremrt_fc_ctx *x,
                                       const sremrt_fc_spec *spec)
{
    size_t all;
    uint32_t *pairs, *slot, npairs;
    sremrt_fc_table *t;
    sremrt_fc_spec sp;
    product m;
    double *wt = NULL;
    int ok = 0;
    if (!spec_ok(spec) || !shapes_ok(a, x, spec->horizon))
        return NULL;
    sp = *spec;
    if (sp.kind == SREMRT_FC_WITHIN)   /* only the first k steps matter */
        sp.horizon = sp.k;
    all = (size_t)a->nstates * x->ncontexts;
    pairs = malloc(all * sizeof *pairs);
    slot = malloc(all * sizeof *slot);
    t = calloc(1, sizeof *t);
    if (pairs && slot && t && (t->index = calloc(all, sizeof *t->index)) != NULL) {
        t->nstates = a->nstates;
        t->ncontexts = x->ncontexts;
        npairs = reach(a, x, pairs, slot);
        if (product_build(&m, a, x, pairs, npairs, slot) == 0) {
            wt = backward(&m, sp.horizon);
            product_free(&m);
            ok = wt && fill(t, pairs, npairs, wt, &sp) == 0;
        }
    }
    free(wt);
    free(pairs);
    free(slot);
    if (!ok) {
        sremrt_fc_table_free(t);
        return NULL;
    }
    return t;
}

void sremrt_fc_table_free(sremrt_fc_table *t)
{
    if (!t)
        return;
    free(t->index);
    free(t->pool);
    free(t);
}
