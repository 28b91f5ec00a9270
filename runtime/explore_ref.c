/* explore_ref.c: the three reference counting algorithms of an explore
 * clause, exact under any window, with a cost that grows with it:
 *   bf: brute force, enumerates every match (each one counted as found);
 *   rc: reverse count, walks the window back from the event, then counts
 *       forward over it (prefix DP for stam, chain simulation for stnm);
 *   ic: incremental count, each start in the window carries its prefix
 *       counts (stam) or its stage (stnm), updated as events arrive.
 * The window's expired entries are gone when these run (explore.c). */
#include "explore_impl.h"

/* ---- bf ---------------------------------------------------------------------------- */

/* Window entries hold every event (key, type), oldest first. */

/* stam: index lists i_1 < ... < i_k of window entries below `before` with
 * types ET_1..ET_k, counted one by one. */
static uint64_t bf_lists(const sremrt_explore *ex, const sremrt_explore_part *st, int32_t k,
                         int64_t before)
{
    uint64_t n = 0;
    int64_t i;
    int32_t want;
    if (k == 0)
        return 1;
    want = ex->cfg.pattern[k - 1];
    for (i = before - 1; i >= k - 1; i--)
        if (st->codes[sremrt_xring_at(st, i)] == want)
            n += bf_lists(ex, st, k - 1, i);
    return n;
}

/* First entry after index `from` whose type is `want`, or -1. */
static int64_t bf_next(const sremrt_explore_part *st, int64_t from, int32_t want)
{
    int64_t i;
    for (i = from + 1; i < st->size; i++)
        if (st->codes[sremrt_xring_at(st, i)] == want)
            return i;
    return -1;
}

/* stnm: starts whose chain over ET_1..ET_k then `last` ends at the new
 * event (just past the window's entries): follow each start's chain. */
static uint64_t bf_chains(const sremrt_explore *ex, const sremrt_explore_part *st, int32_t k,
                          int32_t last)
{
    uint64_t n = 0;
    int64_t j, at;
    int32_t r;
    for (j = 0; j < st->size; j++) {
        if (st->codes[sremrt_xring_at(st, j)] != ex->cfg.pattern[0])
            continue;
        for (at = j, r = 1; r < k && at >= 0; r++)
            at = bf_next(st, at, ex->cfg.pattern[r]);
        /* the new event is the first `last` after ET_k's event */
        if (at >= 0 && bf_next(st, at, last) < 0)
            n++;
    }
    return n;
}

static uint64_t bf_count(const sremrt_explore *ex, const sremrt_explore_part *st, int32_t k,
                         int32_t last)
{
    if (ex->cfg.policy == SREMRT_EXPLORE_STAM)
        return bf_lists(ex, st, k, st->size);
    return bf_chains(ex, st, k, last);
}

static void ring_add(sremrt_explore *ex, sremrt_explore_part *st, int64_t key, int32_t type)
{
    int64_t j;
    if (st->size == st->cap) {
        sremrt_explore_overflow(ex, st);
        sremrt_xring_pop(st);
    }
    j = sremrt_xring_back(st);
    st->keys[j] = key;
    st->codes[j] = type;
}

/* The stam wrap check of explore.c, with every event of the window as
 * the (larger) bound. */
static void wrap_check(sremrt_explore *ex, const sremrt_explore_part *st)
{
    if (ex->cfg.policy == SREMRT_EXPLORE_STAM && (uint64_t)st->size > ex->wrap_limit)
        ex->may_wrap = 1;
}

void sremrt_explore_bf_push(sremrt_explore *ex, sremrt_explore_part *st, int64_t key,
                            int32_t type, sremrt_explore_step *out)
{
    int32_t m = ex->cfg.m;
    uint8_t ti = ex->tinfo[type];
    if (ti & (SREMRT_XT_CAND | SREMRT_XT_LAST))
        wrap_check(ex, st);
    if (ti & SREMRT_XT_LAST)
        out->pattern = bf_count(ex, st, m - 1, type);
    if ((ti & SREMRT_XT_CAND) && ex->cfg.variations)
        out->variation = bf_count(ex, st, m - 1, type);
    if ((ti & SREMRT_XT_CAND) && ex->cfg.extensions)
        out->extension = bf_count(ex, st, m, type);
    ring_add(ex, st, key, type);
}

/* ---- rc ---------------------------------------------------------------------------- */

void sremrt_explore_rc_push(sremrt_explore *ex, sremrt_explore_part *st, int64_t key,
                            int32_t type, sremrt_explore_step *out)
{
    uint64_t *c = st->cnt, gx = 0, hx = 0;
    int32_t m = ex->cfg.m, n, i, k;
    int64_t lo, e;
    uint8_t ti = ex->tinfo[type];
    if (!(ti & (SREMRT_XT_CAND | SREMRT_XT_LAST))) {
        ring_add(ex, st, key, type);
        return;
    }
    wrap_check(ex, st);
    /* Walk back from the newest predecessor to the oldest start (ET_1) in
     * the window: nothing before it can be part of a match. */
    for (lo = st->size, e = st->size - 1; e >= 0; e--)
        if (st->codes[sremrt_xring_at(st, e)] == ex->cfg.pattern[0])
            lo = e;
    for (k = 0; k <= m; k++)
        c[k] = 0;
    if (ex->cfg.policy == SREMRT_EXPLORE_STAM) {
        /* c[k] = occurrences of ET_1..ET_k among the entries so far. */
        c[0] = 1;
        for (e = lo; e < st->size; e++) {
            const int32_t *occ = sremrt_xocc(ex, st->codes[sremrt_xring_at(st, e)], &n);
            for (i = n - 1; i >= 0; i--)
                c[occ[i]] += c[occ[i] - 1];
        }
        if (ti & SREMRT_XT_LAST)
            out->pattern = c[m - 1];
        if ((ti & SREMRT_XT_CAND) && ex->cfg.variations)
            out->variation = c[m - 1];
        if ((ti & SREMRT_XT_CAND) && ex->cfg.extensions)
            out->extension = c[m];
    } else {
        /* Replay the chains of the window's starts: c[k] = starts that
         * matched ET_1..ET_k (ranks 1..c[k]); gx, hx = c[m-1], c[m] at the
         * last event of this type. */
        for (e = lo; e < st->size; e++) {
            int32_t u = st->codes[sremrt_xring_at(st, e)];
            const int32_t *occ;
            if (u == type && (ti & SREMRT_XT_CAND)) {
                gx = c[m - 1];
                hx = c[m];
                continue;
            }
            occ = sremrt_xocc(ex, u, &n);
            for (i = n - 1; i >= 0 && occ[i] >= 2; i--)
                c[occ[i]] = c[occ[i] - 1];
            if (ex->tinfo[u] & SREMRT_XT_FIRST)
                c[1]++;
        }
        if (ti & SREMRT_XT_LAST)
            out->pattern = c[m - 1] - c[m];
        if ((ti & SREMRT_XT_CAND) && ex->cfg.variations)
            out->variation = c[m - 1] - gx;
        if ((ti & SREMRT_XT_CAND) && ex->cfg.extensions)
            out->extension = c[m] - hx;
    }
    ring_add(ex, st, key, type);
}

/* ---- ic ---------------------------------------------------------------------------- */

/* stam: entry j is a start; vals[j*(m+1) + k] = occurrences of ET_2..ET_k
 * after it so far (k = 1..m: partial matches of ET_1..ET_k from it); cnt[k]
 * = their sum over the window's starts, kept as a sliding sum.
 * stnm: codes[j] = the start's stage (ET_1..ET_stage matched), vals[2j],
 * vals[2j+1] = position at which it reached stage m-1, m (0: not yet);
 * g[X] = position of the last X. */

void sremrt_explore_ic_pop(const sremrt_explore *ex, sremrt_explore_part *st)
{
    int32_t k, m = ex->cfg.m;
    if (ex->cfg.policy == SREMRT_EXPLORE_STAM) {
        const uint64_t *v = st->vals + (size_t)st->head * (size_t)(m + 1);
        for (k = 1; k <= m; k++)
            st->cnt[k] -= v[k];
    }
    sremrt_xring_pop(st);
}

static void ic_stam(sremrt_explore *ex, sremrt_explore_part *st, int32_t type, sremrt_explore_step *out)
{
    uint64_t *s = st->cnt;
    int32_t m = ex->cfg.m, n, i;
    const int32_t *occ;
    uint8_t ti = ex->tinfo[type];
    int64_t j;
    if (ti & SREMRT_XT_CAND) {
        if (ex->cfg.variations)
            out->variation = s[m - 1];
        if (ex->cfg.extensions)
            out->extension = s[m];
        return;
    }
    if (ti & SREMRT_XT_LAST)
        out->pattern = s[m - 1];
    /* Every start in the window takes the event as ET_k (k descending). */
    occ = sremrt_xocc(ex, type, &n);
    for (j = 0; j < st->size; j++) {
        uint64_t *v = st->vals + (size_t)sremrt_xring_at(st, j) * (size_t)(m + 1);
        for (i = n - 1; i >= 0 && occ[i] >= 2; i--)
            v[occ[i]] += v[occ[i] - 1];
    }
    for (i = n - 1; i >= 0 && occ[i] >= 2; i--)
        s[occ[i]] += s[occ[i] - 1];
}

static void ic_stnm(sremrt_explore *ex, sremrt_explore_part *st, int32_t type, sremrt_explore_step *out)
{
    int32_t m = ex->cfg.m;
    uint8_t ti = ex->tinfo[type];
    uint64_t last = st->g[type];
    int64_t j, x;
    if (ti & SREMRT_XT_CAND) {
        for (j = 0; j < st->size; j++) {
            x = sremrt_xring_at(st, j);
            out->variation += ex->cfg.variations && st->vals[2 * x] > last;
            out->extension += ex->cfg.extensions && st->vals[2 * x + 1] > last;
        }
        st->g[type] = (uint64_t)st->pos;
        return;
    }
    for (j = 0; j < st->size; j++) {
        int32_t stage;
        x = sremrt_xring_at(st, j);
        stage = st->codes[x];
        if (stage >= m || ex->cfg.pattern[stage] != type)
            continue;
        st->codes[x] = ++stage;
        if (stage == m - 1)
            st->vals[2 * x] = (uint64_t)st->pos;
        if (stage == m) {
            st->vals[2 * x + 1] = (uint64_t)st->pos;
            out->pattern++;
        }
    }
}

void sremrt_explore_ic_push(sremrt_explore *ex, sremrt_explore_part *st, int64_t key,
                            int32_t type, sremrt_explore_step *out)
{
    int32_t k, m = ex->cfg.m;
    int64_t j;
    int stam = ex->cfg.policy == SREMRT_EXPLORE_STAM;
    if (stam)
        ic_stam(ex, st, type, out);
    else
        ic_stnm(ex, st, type, out);
    if (!(ex->tinfo[type] & SREMRT_XT_FIRST))
        return;
    /* A new start, after the others have moved. */
    if (st->size == st->cap) {
        sremrt_explore_overflow(ex, st);
        sremrt_explore_ic_pop(ex, st);
    }
    j = sremrt_xring_back(st);
    st->keys[j] = key;
    if (stam) {
        uint64_t *v = st->vals + (size_t)j * (size_t)(m + 1);
        for (k = 0; k <= m; k++)
            v[k] = 0;
        v[1] = 1;
        st->cnt[1]++;
    } else {
        st->codes[j] = 1;
        st->vals[2 * j] = m - 1 == 1 ? (uint64_t)st->pos : 0;
        st->vals[2 * j + 1] = 0;
    }
}
