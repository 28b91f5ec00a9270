/* episode_conf.c: the distinct frequency by configurations, used while
 * events satisfy several elements (episode.c switches here and back).
 * A configuration is (count, free events): the occurrences counted so far
 * on one line of choices, and the events in no counted occurrence that may
 * still be in one, each with the elements it may still play. Per event,
 * each configuration branches on the alternatives (count an occurrence
 * ending at the event, which one, or keep the event free); a configuration
 * that another dominates (at least as good whatever comes next) is
 * dropped. docs/episodes.md has why this is exact, and where the budget
 * cuts. */
#include "episode_impl.h"

#include <string.h>

static ep_conf *conf_at(const sremrt_episode *ep, int32_t s)
{
    return (ep_conf *)(void *)(ep->pool + (size_t)s * ep->slot_bytes);
}

static ep_ev *evs(ep_conf *c)
{
    return (ep_ev *)(void *)(c + 1);
}

static const ep_ev *cevs(const ep_conf *c)
{
    return (const ep_ev *)(const void *)(c + 1);
}

static int32_t take_slot(sremrt_episode *ep)
{
    return ep->spare[--ep->nspare];
}

static void give_slot(sremrt_episode *ep, int32_t s)
{
    ep->spare[ep->nspare++] = s;
}

/* Before an event at (pos, ts): each free event keeps the elements it can
 * still play in some occurrence ending at this event or later: E_1 if the
 * window still allows it as a start, E_m (m > 1) if an earlier free event
 * can play E_m-1. Events left with none are dropped. */
static void conf_normalize(const sremrt_episode *ep, ep_conf *c, int64_t pos, int64_t ts)
{
    ep_ev *v = evs(c);
    uint32_t seen = 0;
    int32_t i, j = 0;
    int single = 1;
    int32_t starts = 0;
    for (i = 0; i < c->n; i++) {
        uint32_t m = v[i].mask, r = m & (seen << 1);
        if ((m & 1u) && sremrt_ep_in_window(ep, v[i].pos, v[i].ts, pos, ts))
            r |= 1u;
        if (r) {
            if (j != i)
                v[j] = v[i];
            v[j].mask = r;
            seen |= r;
            starts += (int32_t)(r & 1u);
            single &= (r & (r - 1u)) == 0;
            j++;
        }
    }
    c->n = j;
    c->single = single;
    c->roles = seen;
    c->starts = starts;
}

static int64_t key_of(const sremrt_episode *ep, const ep_ev *e)
{
    return ep->cfg.window == SREMRT_EPISODE_TIME ? e->ts : e->pos;
}

/* First free event of x from index p on that can stand in for y (plays
 * every element y plays, starts no earlier if y can start); its index + 1,
 * or EP_NONE. */
static int32_t stand_in(const sremrt_episode *ep, const ep_conf *x, int32_t p, const ep_ev *y)
{
    const ep_ev *v = cevs(x);
    for (; p < x->n; p++)
        if ((v[p].mask & y->mask) == y->mask && (!(y->mask & 1u) || key_of(ep, &v[p]) >= key_of(ep, y)))
            return p + 1;
    return EP_NONE;
}

/* 1 if x is at least as good as y whatever comes next: x counted d >= 0
 * more occurrences, and all but at most d of y's free events map, in
 * order, one-to-one onto free events of x that can stand in for them. */
static int dominates(const sremrt_episode *ep, const ep_conf *x, const ep_conf *y)
{
    const ep_ev *yv = cevs(y);
    int32_t *dp = ep->dp, d, s, i;
    int64_t d64;
    if (x->count < y->count)
        return 0;
    d64 = x->count - y->count;
    if (d64 >= y->n)
        return 1;
    d = (int32_t)d64;
    /* Necessary conditions first: enough free events, enough that may
     * start, and (nothing skipped) every element y's events play. */
    if (y->n - d > x->n || y->starts - d > x->starts || (d == 0 && (y->roles & ~x->roles)))
        return 0;
    /* dp[s]: least index of x still unused after mapping y's events so
     * far with s of them skipped (EP_NONE: impossible). */
    dp[0] = 0;
    for (s = 1; s <= d; s++)
        dp[s] = EP_NONE;
    for (i = 0; i < y->n; i++) {
        int any = 0;
        for (s = d; s >= 0; s--) {
            /* Hopeless if y has more events left to map than x has left. */
            int32_t best = dp[s] == EP_NONE || y->n - i - (d - s) > x->n - dp[s]
                               ? EP_NONE : stand_in(ep, x, dp[s], &yv[i]);
            if (s > 0 && dp[s - 1] < best)
                best = dp[s - 1];
            dp[s] = best;
            any |= best != EP_NONE;
        }
        if (!any)
            return 0;
    }
    return 1;
}

/* Adds slot s to the set being built unless a member dominates it; drops
 * the members it dominates; over budget, drops the weakest (lowest count,
 * then fewest free events) and sets *cut. */
static void insert(sremrt_episode *ep, int32_t s, int *cut)
{
    const ep_conf *z = conf_at(ep, s);
    int32_t i, j, worst;
    for (i = 0; i < ep->nnext; i++)
        if (dominates(ep, conf_at(ep, ep->next[i]), z)) {
            give_slot(ep, s);
            return;
        }
    for (i = j = 0; i < ep->nnext; i++) {
        if (dominates(ep, z, conf_at(ep, ep->next[i])))
            give_slot(ep, ep->next[i]);
        else
            ep->next[j++] = ep->next[i];
    }
    ep->nnext = j;
    if (ep->nnext < ep->cfg.budget) {
        ep->next[ep->nnext++] = s;
        return;
    }
    *cut = 1;
    worst = 0;
    for (i = 1; i < ep->nnext; i++) {
        const ep_conf *a = conf_at(ep, ep->next[i]), *w = conf_at(ep, ep->next[worst]);
        if (a->count < w->count || (a->count == w->count && a->n < w->n))
            worst = i;
    }
    {
        const ep_conf *w = conf_at(ep, ep->next[worst]);
        if (z->count < w->count || (z->count == w->count && z->n <= w->n)) {
            give_slot(ep, s);
            return;
        }
    }
    give_slot(ep, ep->next[worst]);
    ep->next[worst] = s;
}

/* The leftmost occurrence of c ending at the event (c normalized for it):
 * ep->chain[0..k-2], or 0 if there is none. */
static int leftmost(const sremrt_episode *ep, ep_conf *c)
{
    const ep_ev *v = evs(c);
    int32_t lv, q = 0;
    for (lv = 0; lv < ep->cfg.k - 1; lv++) {
        uint32_t bit = (uint32_t)1 << lv;
        while (q < c->n && !(v[q].mask & bit))
            q++;
        if (q == c->n)
            return 0;
        ep->chain[lv] = q++;
    }
    return 1;
}

/* c with the occurrence ep->chain (and the event) counted, as a new
 * candidate. */
static void emit_completion(sremrt_episode *ep, ep_conf *c, int64_t pos, int64_t ts, int *cut)
{
    int32_t s = take_slot(ep), i, j = 0, out = 0;
    ep_conf *t = conf_at(ep, s);
    const ep_ev *v = evs(c);
    ep_ev *w = evs(t);
    for (i = 0; i < c->n; i++) {
        if (j < ep->cfg.k - 1 && ep->chain[j] == i) {
            j++;
            continue;
        }
        w[out++] = v[i];
    }
    t->count = c->count + 1;
    t->n = out;
    conf_normalize(ep, t, pos, ts);
    insert(ep, s, cut);
}

/* Every occurrence of c ending at the event, except those another one
 * dominates: at each element, a free event is skipped when the free event
 * just before it (after the previous element's) could play the same
 * element and plays no element it does not (consuming the earlier one
 * leaves a configuration at least as good). At most budget are tried. */
static void enumerate(sremrt_episode *ep, ep_conf *c, int64_t pos, int64_t ts, int *cut)
{
    const ep_ev *v = evs(c);
    int32_t *p = ep->chain, top = ep->cfg.k - 2, lv = 0, tried = 0;
    p[0] = -1;
    while (lv >= 0) {
        uint32_t bit = (uint32_t)1 << lv;
        int32_t lo = lv > 0 ? p[lv - 1] : -1, q;
        for (q = p[lv] + 1; q < c->n; q++) {
            if (!(v[q].mask & bit))
                continue;
            if (q - 1 > lo && (v[q - 1].mask & bit) && (v[q - 1].mask & ~v[q].mask) == 0)
                continue;
            break;
        }
        if (q >= c->n) {
            lv--;
            continue;
        }
        p[lv] = q;
        if (lv < top) {
            lv++;
            p[lv] = q;
            continue;
        }
        if (tried++ == ep->cfg.budget) {
            *cut = 1;
            return;
        }
        emit_completion(ep, c, pos, ts, cut);
    }
}

/* The event becomes a free event of c, playing the elements among roles
 * (bits below k - 1) an earlier free event prepares. */
static void add_free(sremrt_episode *ep, ep_conf *c, int64_t pos, int64_t ts, uint32_t roles)
{
    uint32_t r = roles & (1u | (c->roles << 1));
    ep_ev *e;
    if (!r)
        return;
    if (c->n == ep->cfg.list_cap) {
        ep->overflows++;
        ep->exact = 0;
        return;
    }
    e = &evs(c)[c->n++];
    e->pos = pos;
    e->ts = ts;
    e->mask = r;
    e->pad = 0;
    c->single &= (r & (r - 1u)) == 0;
    c->roles |= r;
    c->starts += (int32_t)(r & 1u);
}

/* The OccMap's free events become the one configuration. */
void sremrt_episode_conf_enter(sremrt_episode *ep)
{
    sremrt_occmap *m = &ep->occ;
    int32_t s = take_slot(ep), at[SREMRT_EPISODE_MAX_K], j, dropped = 0;
    ep_conf *c = conf_at(ep, s);
    ep_ev *w = evs(c);
    for (j = 0; j < m->layers; j++)
        at[j] = 0;
    c->count = ep->freq;
    c->n = 0;
    c->single = 1;
    c->roles = 0;
    c->starts = 0;
    for (;;) {
        int32_t best = -1;
        for (j = 0; j < m->layers; j++)
            if (at[j] < sremrt_occmap_size(m, j) &&
                (best < 0 || sremrt_occmap_at(m, j, at[j])->pos < sremrt_occmap_at(m, best, at[best])->pos))
                best = j;
        if (best < 0)
            break;
        if (c->n < ep->cfg.list_cap) {
            const sremrt_occ_entry *o = sremrt_occmap_at(m, best, at[best]);
            w[c->n].pos = o->pos;
            w[c->n].ts = o->ts;
            w[c->n].mask = (uint32_t)1 << best;
            w[c->n].pad = 0;
            c->roles |= w[c->n].mask;
            c->starts += best == 0;
            c->n++;
        } else {
            dropped++;
        }
        at[best]++;
    }
    if (dropped) {
        ep->overflows += (uint64_t)dropped;
        ep->exact = 0;
    }
    sremrt_occmap_clear(m);
    ep->cur[0] = s;
    ep->configs = 1;
    ep->mode = SREMRT_EP_CONFIGS;
    if (ep->peak < 1)
        ep->peak = 1;
}

/* One configuration of single-element events left: back to the OccMap. */
static void to_occmap(sremrt_episode *ep)
{
    int32_t s = ep->cur[0], i;
    ep_conf *c = conf_at(ep, s);
    const ep_ev *v = evs(c);
    sremrt_occmap_clear(&ep->occ);
    for (i = 0; i < c->n; i++)
        if (sremrt_occmap_add(&ep->occ, sremrt_ep_low_bit(v[i].mask), v[i].pos, v[i].ts) < 0) {
            ep->overflows++;
            ep->exact = 0;
        }
    give_slot(ep, s);
    ep->configs = 0;
    ep->mode = SREMRT_EP_GREEDY;
}

void sremrt_episode_conf_push(sremrt_episode *ep, int64_t pos, int64_t ts, uint32_t mask)
{
    uint32_t last = (uint32_t)1 << (ep->cfg.k - 1), roles = mask & (last - 1u);
    int32_t i, n = ep->configs, *swap;
    int cut = 0;
    ep->nnext = 0;
    for (i = 0; i < n; i++) {
        int32_t s = ep->cur[i];
        ep_conf *c = conf_at(ep, s);
        conf_normalize(ep, c, pos, ts);
        if (mask & last) {
            if (c->single) {
                /* Every free event has one element: the leftmost
                 * occurrence is the best one to count (docs/episodes.md),
                 * and counting it beats leaving an E_k-only event unused. */
                if (leftmost(ep, c)) {
                    emit_completion(ep, c, pos, ts, &cut);
                    if (!roles) {
                        give_slot(ep, s);
                        continue;
                    }
                }
            } else {
                enumerate(ep, c, pos, ts, &cut);
            }
        }
        if (roles)
            add_free(ep, c, pos, ts, roles);
        insert(ep, s, &cut);
    }
    swap = ep->cur;
    ep->cur = ep->next;
    ep->next = swap;
    ep->configs = ep->nnext;
    ep->nnext = 0;
    for (i = 0; i < ep->configs; i++)
        if (conf_at(ep, ep->cur[i])->count > ep->freq)
            ep->freq = conf_at(ep, ep->cur[i])->count;
    if (ep->configs > ep->peak)
        ep->peak = ep->configs;
    if (cut) {
        ep->budget_exceeded++;
        ep->exact = 0;
    }
    if (ep->configs == 1 && conf_at(ep, ep->cur[0])->single)
        to_occmap(ep);
}

