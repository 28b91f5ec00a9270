/* dsra_sim.c: Dsra + finite stream -> detections, stepping the automaton
 * as generated code will, for the differential tests. */
#include "dsra.h"

#include <stdlib.h>
#include <string.h>

/* One partition's matcher: the state, the slots' tags (tagged tdfa) and
 * the substream seen so far (registers are its last events). */
typedef struct Sim {
    const Dsra        *d;
    const Stream      *s;
    const ExternTable *ext;
    int                state;
    int64_t           *tags, *next;   /* [most members] */
    const Value      **hist;          /* [history + 1]: hist[age] */
    int               *events;        /* substream: global event indices */
    int                nevents;
} Sim;

static const Value *event_at(const Sim *m, int k) { return m->s->values + (size_t)k * (size_t)m->s->nattrs; }

/* Walks the current state's tree; each atom on the path is evaluated
 * once, with its registers read from the history by age. */
static const DsraTrans *step(Sim *m, const Value *ev)
{
    const DsraState *st = &m->d->states[m->state];
    const DsraNode *nd = &st->nodes[0];
    while (nd->atom >= 0) {
        const MtAtom *a = &m->d->mt->atoms[nd->atom];
        EvalCtx ctx = {ev, m->hist, a->regmap, m->ext};
        nd = &st->nodes[eval_cond(a->expr, &ctx) ? nd->hi : nd->lo];
    }
    return &m->d->trans[nd->trans];
}

/* The tag of a slot: the substream position, or the event's timestamp. */
static int64_t tag_now(const Sim *m, const Value *ev, int pos)
{
    const AstPattern *p = m->d->pattern;
    if (m->d->window_kind == WIN_TIME && p && p->schema && p->schema->ts_attr >= 0)
        return ev[p->schema->ts_attr].i;
    return pos;
}

/* Whether the latest start among the final slots is within the window. */
static bool window_holds(const Sim *m, const DsraState *st, int64_t now)
{
    if (!m->d->tagged)
        return st->final;
    if (!st->final)
        return false;
    int64_t best = m->tags[st->finals[0]];
    for (int k = 1; k < st->nfinals; k++)
        if (m->tags[st->finals[k]] > best)
            best = m->tags[st->finals[k]];
    if (m->d->window_kind == WIN_TIME)
        return now - best <= m->d->window;
    return now - best + 1 <= m->d->window;
}

static void run_substream(Sim *m, bool *det)
{
    m->state = 0;
    int H = m->d->history;
    for (int pos = 1; pos <= m->nevents; pos++) {
        int g = m->events[pos - 1];
        const Value *ev = event_at(m, g);
        for (int age = 1; age <= H; age++)
            m->hist[age] = pos - age >= 1 ? event_at(m, m->events[pos - age - 1]) : NULL;
        const DsraTrans *tr = step(m, ev);
        int64_t now = tag_now(m, ev, pos);
        if (tr->tags) {
            int n = m->d->states[tr->to].nmembers;
            for (int k = 0; k < n; k++) {
                const DsraTag *tg = &tr->tags[k];
                int64_t v = tg->fresh ? now : m->tags[tg->from[0]];
                for (int j = 1; j < tg->nfrom; j++)
                    if (m->tags[tg->from[j]] > v)
                        v = m->tags[tg->from[j]];
                m->next[k] = v;
            }
            memcpy(m->tags, m->next, (size_t)n * sizeof *m->tags);
        }
        m->state = tr->to;
        if (window_holds(m, &m->d->states[m->state], now))
            det[g] = true;
    }
}

void dsra_simulate(const Dsra *d, const Stream *s, const ExternTable *ext, bool *det)
{
    memset(det, 0, (size_t)s->n * sizeof *det);
    int maxm = 1;
    for (int i = 0; i < d->nstates; i++)
        if (d->states[i].nmembers > maxm)
            maxm = d->states[i].nmembers;
    Sim m = {.d = d, .s = s, .ext = ext};
    m.tags = calloc((size_t)maxm, sizeof *m.tags);
    m.next = calloc((size_t)maxm, sizeof *m.next);
    m.hist = calloc((size_t)d->history + 1, sizeof *m.hist);
    m.events = calloc((size_t)s->n + 1, sizeof *m.events);
    bool *done = calloc((size_t)s->n + 1, sizeof *done);
    if (!m.tags || !m.next || !m.hist || !m.events || !done)
        abort();
    const AstPattern *p = d->pattern;
    bool part = p && p->partition_attr;
    /* Partitions in order of first appearance, each its own substream. */
    for (int first = 0; first < s->n; first++) {
        if (done[first])
            continue;
        m.nevents = 0;
        for (int k = first; k < s->n; k++)
            if (!done[k] && (!part || eval_same_key(p->partition_attrs, p->npartition, s, k, first))) {
                done[k] = true;
                m.events[m.nevents++] = k;
            }
        run_substream(&m, det);
    }
    free(m.tags);
    free(m.next);
    free(m.hist);
    free(m.events);
    free(done);
}
