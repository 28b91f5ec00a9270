/* fc_score.c: (per key: detections, forecasts) -> forecast_summary numbers
 * (--forecast-stats): interval precision, spread, distance, unpredicted
 * detections; within: TP/FP/TN/FN, precision, recall, F1, MCC. Hosted only. */
#include "sremrt/forecast.h"

#include <stdlib.h>
#include <string.h>

/* A forecast waiting for its key's next detection. */
typedef struct pending {
    uint64_t now;
    uint32_t from, to;
    int positive;
} pending;

typedef struct key_state {
    uint64_t pos;            /* events of this key so far */
    uint64_t since;          /* forecasts since its last detection */
    pending *p;
    uint32_t n, cap;
} key_state;

struct sremrt_fc_score {
    sremrt_fc_kind kind;
    key_state *keys;
    uint32_t nkeys;
    sremrt_fc_summary sum;   /* counters; the ratios are filled by summary() */
    uint64_t spread, distance;
};

sremrt_fc_score *sremrt_fc_score_new(sremrt_fc_kind kind)
{
    sremrt_fc_score *s = calloc(1, sizeof *s);
    if (s)
        s->kind = kind;
    return s;
}

void sremrt_fc_score_free(sremrt_fc_score *s)
{
    uint32_t i;
    if (!s)
        return;
    for (i = 0; i < s->nkeys; i++)
        free(s->keys[i].p);
    free(s->keys);
    free(s);
}

/* Adds one scored forecast to the counters of a summary. */
static void tally(sremrt_fc_summary *sum, uint64_t *spread, uint64_t *distance,
                  const pending *e, int hit)
{
    sum->scored++;
    sum->hits += hit != 0;
    *spread += e->to - e->from;
    *distance += e->from;
    if (e->positive)
        *(hit ? &sum->tp : &sum->fp) += 1;
    else
        *(hit ? &sum->fn : &sum->tn) += 1;
}

static key_state *key_at(sremrt_fc_score *s, uint32_t key)
{
    if (key >= s->nkeys) {
        uint32_t n = s->nkeys ? s->nkeys : 16;
        key_state *k;
        if (key == UINT32_MAX)   /* no room for a slot count past it */
            return NULL;
        while (n <= key)
            n = n > UINT32_MAX / 2 ? UINT32_MAX : n * 2;
        if (!(k = realloc(s->keys, (size_t)n * sizeof *k)))
            return NULL;
        memset(k + s->nkeys, 0, (size_t)(n - s->nkeys) * sizeof *k);
        s->keys = k;
        s->nkeys = n;
    }
    return &s->keys[key];
}

/* A detection at event t scores every pending forecast of the key. */
static void detect(sremrt_fc_score *s, key_state *k, uint64_t t)
{
    uint32_t i;
    int any = 0;
    for (i = 0; i < k->n; i++) {
        const pending *e = &k->p[i];
        int hit = e->now + e->from <= t && t <= e->now + e->to;
        any |= hit;
        tally(&s->sum, &s->spread, &s->distance, e, hit);
    }
    s->sum.detections++;
    s->sum.unpredicted += !any;
    s->sum.unforecast += k->since == 0;
    k->n = 0;
    k->since = 0;
}

/* Room for one more pending forecast at event t (before its detection is
 * seen): forecasts whose last event is before t, with no detection since,
 * are misses; drop them, and grow when that frees less than half. */
static int make_room(sremrt_fc_score *s, key_state *k, uint64_t t)
{
    uint32_t i, kept = 0;
    if (k->n < k->cap)
        return 0;
    for (i = 0; i < k->n; i++) {
        if (k->p[i].now + k->p[i].to < t)
            tally(&s->sum, &s->spread, &s->distance, &k->p[i], 0);
        else
            k->p[kept++] = k->p[i];
    }
    k->n = kept;
    if (kept > k->cap / 2 || k->cap == 0) {
        uint32_t cap = k->cap ? k->cap * 2 : 16;
        pending *p = realloc(k->p, (size_t)cap * sizeof *p);
        if (!p)
            return -1;
        k->p = p;
        k->cap = cap;
    }
    return 0;
}

int sremrt_fc_score_event(sremrt_fc_score *s, uint32_t key, int detected, const sremrt_fc_forecast *f)
{
    key_state *k = key_at(s, key);
    uint64_t t;
    if (!k)
        return -1;
    t = k->pos;
    if (f && !f->none && make_room(s, k, t) != 0)
        return -1;
    k->pos++;
    s->sum.events++;
    if (detected)
        detect(s, k, t);
    if (f && !f->none) {
        pending *e = &k->p[k->n++];
        e->now = t;
        e->from = f->from;
        e->to = f->to;
        e->positive = f->positive;
        s->sum.forecasts++;
        k->since++;
    }
    return 0;
}

/* sqrt by Newton's method, so that the library needs no libm. */
static double root(double x)
{
    double r = x > 1 ? x : 1, last = 0;
    int i;
    if (x <= 0)
        return 0;
    for (i = 0; i < 2000 && r != last; i++) {
        last = r;
        r = 0.5 * (r + x / r);
    }
    return r;
}

static double ratio(double a, double b)
{
    return b > 0 ? a / b : 0;
}

void sremrt_fc_score_summary(const sremrt_fc_score *s, sremrt_fc_summary *out)
{
    uint64_t spread = s->spread, distance = s->distance;
    double tp, fp, tn, fn, margins;
    uint32_t i, j;
    *out = s->sum;
    /* the end: forecasts whose interval has passed are misses, the others
     * reach past the input and are not scored */
    for (i = 0; i < s->nkeys; i++) {
        const key_state *k = &s->keys[i];
        for (j = 0; j < k->n; j++) {
            if (k->p[j].now + k->p[j].to < k->pos)
                tally(out, &spread, &distance, &k->p[j], 0);
            else
                out->unscored++;
        }
    }
    tp = (double)out->tp;
    fp = (double)out->fp;
    tn = (double)out->tn;
    fn = (double)out->fn;
    out->mean_spread = ratio((double)spread, (double)out->scored);
    out->mean_distance = ratio((double)distance, (double)out->scored);
    out->unpredicted_ratio = ratio((double)out->unpredicted, (double)out->detections);
    out->precision = s->kind == SREMRT_FC_INTERVAL ? ratio((double)out->hits, (double)out->scored)
                                                   : ratio(tp, tp + fp);
    out->recall = ratio(tp, tp + fn);
    out->f1 = ratio(2 * tp, 2 * tp + fp + fn);
    margins = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn);
    out->mcc = margins > 0 ? (tp * tn - fp * fn) / root(margins) : 0;
}
