/* episode.c: exact episode frequencies (episode.h; docs/episodes.md has
 * the algorithms and why they are exact).
 *
 * nonoverlapped: the latest start of a partial occurrence of E_1..E_m
 * (m < k) among the events after the last counted occurrence; an event of
 * E_k completes one iff the start for E_1..E_k-1 is inside the window.
 * That is ONCE's Validate&Eliminate (the latest minimal occurrence, then
 * clear), kept incrementally, with events ordered by position. Each
 * prefix also keeps the indices of its latest partial occurrence (a row),
 * extended as its start is: the counted occurrence is then the latest
 * one, the greatest in lexicographic order (docs/language.md 6).
 *
 * distinct: while every event satisfies at most one element, the OccMap
 * greedy (occmap.h): at an event of E_k, count the leftmost occurrence among
 * the free events and remove it. Once an event satisfies several elements,
 * a set of configurations, each (count, free events with the elements each
 * may still play), one per alternative that is not dominated by another;
 * back to the OccMap when a single configuration of single-element events
 * is left. */
#include "episode_impl.h"
#include "sremrt/state.h"

#include <string.h>

/* ---- configuration and memory ----------------------------------------- */

const char *sremrt_episode_check(const sremrt_episode_config *cfg)
{
    if (cfg->k < 1 || cfg->k > SREMRT_EPISODE_MAX_K)
        return "episode length out of 1..32";
    if (cfg->freq != SREMRT_EPISODE_NONOVERLAPPED && cfg->freq != SREMRT_EPISODE_DISTINCT)
        return "unknown frequency kind";
    if (cfg->window == SREMRT_EPISODE_EVENTS) {
        if (cfg->width < 1)
            return "count window below 1 event";
    } else if (cfg->window == SREMRT_EPISODE_TIME) {
        if (cfg->width < 0)
            return "negative time window";
    } else {
        return "unknown window kind";
    }
    if (cfg->list_cap < 0 || cfg->list_cap > SREMRT_EPISODE_MAX_CAP)
        return "list capacity out of range";
    if (cfg->budget < 0 || cfg->budget > SREMRT_EPISODE_MAX_BUDGET)
        return "distinct budget out of range";
    return NULL;
}

/* Byte offsets of the parts of a counter's block (8-aligned). */
typedef struct ep_layout {
    uint64_t start, occurrence, occ, occ_bytes, pool, cur, next, spare, dp, chain, total;
    uint64_t slot_bytes;
    int32_t nslots;
} ep_layout;

static uint64_t up8(uint64_t x)
{
    return (x + 7u) & ~(uint64_t)7u;
}

static void with_defaults(sremrt_episode_config *c)
{
    /* Free events all lie inside the window: a count window of N < 64
     * never needs more than N. */
    if (c->list_cap == 0)
        c->list_cap = c->window == SREMRT_EPISODE_EVENTS && c->width < SREMRT_EPISODE_DEFAULT_CAP
                          ? (int32_t)c->width : SREMRT_EPISODE_DEFAULT_CAP;
    if (c->budget == 0)
        c->budget = SREMRT_EPISODE_DEFAULT_BUDGET;
}

static int general_needed(const sremrt_episode_config *c)
{
    return c->freq == SREMRT_EPISODE_DISTINCT && c->k > 1 && !(c->flags & SREMRT_EPISODE_EXCLUSIVE);
}

/* nonoverlapped: a slot's words (nonoverlapped_push): k + 1, rounded up
 * to 4, 8 or 16 so that small slots copy as a block of constant size. */
static int32_t slot_words(int32_t k)
{
    return k + 1 <= 4 ? 4 : k + 1 <= 8 ? 8 : k + 1 <= 16 ? 16 : k + 1;
}

/* c has its defaults. The sizes are bounded (k <= 32, list_cap <= 2^20,
 * budget <= 2^16), so uint64 cannot overflow; size_t might. */
static int layout(const sremrt_episode_config *c, ep_layout *L)
{
    uint64_t at = 8;   /* never an empty block */
    memset(L, 0, sizeof *L);
    if (c->freq == SREMRT_EPISODE_NONOVERLAPPED && c->k > 1) {
        L->start = at;
        at = up8(at + ((uint64_t)c->k + 1u) * (uint64_t)slot_words(c->k) * sizeof(uint64_t));
    }
    if (c->freq == SREMRT_EPISODE_NONOVERLAPPED) {
        L->occurrence = at;
        at = up8(at + (uint64_t)c->k * sizeof(int64_t));
    }
    if (c->freq == SREMRT_EPISODE_DISTINCT && c->k > 1) {
        L->occ = at;
        L->occ_bytes = sremrt_occmap_bytes(c->k - 1, c->list_cap);
        if (L->occ_bytes == 0)
            return -1;
        at = up8(at + L->occ_bytes);
    }
    if (general_needed(c)) {
        L->slot_bytes = sizeof(ep_conf) + (uint64_t)c->list_cap * sizeof(ep_ev);
        L->nslots = 2 * c->budget + 1;
        L->pool = at;
        at = up8(at + L->slot_bytes * (uint64_t)L->nslots);
        L->cur = at;
        at = up8(at + (uint64_t)c->budget * sizeof(int32_t));
        L->next = at;
        at = up8(at + (uint64_t)c->budget * sizeof(int32_t));
        L->spare = at;
        at = up8(at + (uint64_t)L->nslots * sizeof(int32_t));
        L->dp = at;
        at = up8(at + ((uint64_t)c->list_cap + 2u) * sizeof(int32_t));
        L->chain = at;
        at = up8(at + (uint64_t)c->k * sizeof(int32_t));
    }
    L->total = at;
    return L->total > (uint64_t)SIZE_MAX - 8u ? -1 : 0;
}

size_t sremrt_episode_bytes(const sremrt_episode_config *cfg)
{
    sremrt_episode_config c = *cfg;
    ep_layout L;
    if (sremrt_episode_check(&c) != NULL)
        return 0;
    with_defaults(&c);
    if (layout(&c, &L) != 0)
        return 0;
    return (size_t)L.total + 7u;   /* slack to align a caller's buffer */
}

static int place(sremrt_episode *ep, const sremrt_episode_config *cfg, void *mem, size_t bytes)
{
    sremrt_episode_config c = *cfg;
    uintptr_t addr = (uintptr_t)mem;
    size_t pad = (size_t)((8u - addr % 8u) % 8u);
    unsigned char *base;
    ep_layout L;
    if (!mem || sremrt_episode_check(&c) != NULL)
        return -1;
    with_defaults(&c);
    if (layout(&c, &L) != 0 || bytes < pad || bytes - pad < (size_t)L.total)
        return -1;
    base = (unsigned char *)mem + pad;
    memset(ep, 0, sizeof *ep);
    ep->cfg = c;
    ep->full = c.k >= 32 ? 0xffffffffu : ((uint32_t)1 << c.k) - 1u;
    if (L.start)
        ep->start = (uint64_t *)(void *)(base + L.start);
    if (L.occurrence)
        ep->occurrence = (int64_t *)(void *)(base + L.occurrence);
    if (L.occ &&
        sremrt_occmap_init_buf(&ep->occ, c.k - 1, c.list_cap, c.window, c.width,
                               base + L.occ, (size_t)L.occ_bytes) != 0)
        return -1;
    if (L.pool) {
        ep->pool = base + L.pool;
        ep->slot_bytes = (size_t)L.slot_bytes;
        ep->nslots = L.nslots;
        ep->cur = (int32_t *)(void *)(base + L.cur);
        ep->next = (int32_t *)(void *)(base + L.next);
        ep->spare = (int32_t *)(void *)(base + L.spare);
        ep->dp = (int32_t *)(void *)(base + L.dp);
        ep->chain = (int32_t *)(void *)(base + L.chain);
    }
    ep->mem = mem;
    ep->bytes = bytes;
    sremrt_episode_reset(ep);
    return 0;
}

int sremrt_episode_init_buf(sremrt_episode *ep, const sremrt_episode_config *cfg, void *buf, size_t bytes)
{
    if (place(ep, cfg, buf, bytes) != 0) {
        memset(ep, 0, sizeof *ep);
        return -1;
    }
    return 0;
}

int sremrt_episode_init(sremrt_episode *ep, const sremrt_episode_config *cfg, const sremrt_alloc *a)
{
    size_t bytes = sremrt_episode_bytes(cfg);
    void *mem;
    memset(ep, 0, sizeof *ep);
    if (bytes == 0)
        return -1;
    mem = sremrt_alloc_get(a, bytes, 8);
    if (!mem)
        return -1;
    if (place(ep, cfg, mem, bytes) != 0) {
        sremrt_alloc_free(a, mem, bytes);
        memset(ep, 0, sizeof *ep);
        return -1;
    }
    ep->alloc = *a;
    return 0;
}

void sremrt_episode_free(sremrt_episode *ep)
{
    if (ep->alloc.alloc)
        sremrt_alloc_free(&ep->alloc, ep->mem, ep->bytes);
    memset(ep, 0, sizeof *ep);
}

void sremrt_episode_reset(sremrt_episode *ep)
{
    int32_t i;
    if (!ep->mem)
        return;   /* init failed: stays refusing */
    ep->freq = 0;
    ep->exact = 1;
    ep->events = ep->rejected = ep->overflows = ep->budget_exceeded = 0;
    ep->configs = ep->peak = 0;
    ep->last_pos = INT64_MIN;
    ep->min_ts = INT64_MIN;
    if (ep->start)
        memset(ep->start, 0, ((size_t)ep->cfg.k + 1u) * (size_t)slot_words(ep->cfg.k) * sizeof(uint64_t));
    ep->noccurrence = 0;
    if (ep->occ.layers) {
        sremrt_occmap_clear(&ep->occ);
        ep->occ.overflows = 0;
    }
    if (ep->cfg.k == 1)
        ep->mode = SREMRT_EP_ONE;
    else if (ep->cfg.freq == SREMRT_EPISODE_NONOVERLAPPED)
        ep->mode = SREMRT_EP_NONOVERLAPPED;
    else
        ep->mode = SREMRT_EP_GREEDY;
    ep->nnext = 0;
    ep->nspare = ep->nslots;
    for (i = 0; i < ep->nslots; i++)
        ep->spare[i] = ep->nslots - 1 - i;
}

/* ---- helpers ---------------------------------------------------------- */

/* Index of the highest set bit of x != 0 (no branches). */
static int32_t high_bit(uint32_t x)
{
    x |= x >> 1;
    x |= x >> 2;
    x |= x >> 4;
    x |= x >> 8;
    x |= x >> 16;
    return sremrt_ep_low_bit(x - (x >> 1));
}

/* ---- nonoverlapped ---------------------------------------------------- */

/* Slot m (W words at S + W m, slot_words): the start of the latest
 * partial occurrence of E_1..E_m (m = 1..k-1) among the events after the
 * last counted occurrence (its timestamp for a time window, else its
 * position: what the window measures), its validity (0/1), then the
 * indices of that partial occurrence's m events; slot 0: the event being
 * pushed (the empty prefix E_1..E_0 "starts" there); slot k: a dummy. A
 * prefix m + 1 has a start only if prefix m has one, so copying slot m to
 * slot m + 1 needs no test: an invalid start only ever lands on an invalid
 * one. No branch on the data but the rare completion (a stream's element
 * masks are as unpredictable as its event types), and no state read and
 * written by every event (such chains through memory bound the rate). The
 * copy is the whole slot, of a size fixed per counter (a block of 4, 8 or
 * 16 words for k <= 15), the indices past m included. */
enum { SLOT_START, SLOT_VALID, SLOT_INDEX };

static void copy_slot(uint64_t *S, int32_t W, int32_t to, int32_t from, int64_t index)
{
    uint64_t *t = S + W * to;
    const uint64_t *f = S + W * from;
    int32_t i;
    if (W == 4)
        memcpy(t, f, 4 * sizeof *t);
    else if (W == 8)
        memcpy(t, f, 8 * sizeof *t);
    else if (W == 16)
        memcpy(t, f, 16 * sizeof *t);
    else
        for (i = 0; i < W; i++)
            t[i] = f[i];
    t[SLOT_INDEX + from] = (uint64_t)index;
}

/* The occurrence counted at index: slot k - 1's indices, then index. */
static void count_occurrence(sremrt_episode *ep, const uint64_t *slot, int64_t index)
{
    int32_t k = ep->cfg.k, i;
    for (i = 0; i < k - 1; i++)
        ep->occurrence[i] = (int64_t)slot[SLOT_INDEX + i];
    ep->occurrence[k - 1] = index;
    ep->noccurrence = k;
    ep->freq++;
}

static void nonoverlapped_push(sremrt_episode *ep, int64_t pos, int64_t ts, uint32_t mask, int64_t index)
{
    int32_t k = ep->cfg.k, W = slot_words(k), m;
    uint64_t *S = ep->start, *last = S + W * (k - 1);
    int64_t at = ep->cfg.window == SREMRT_EPISODE_TIME ? ts : pos;
    if ((mask >> (k - 1)) & (uint32_t)last[SLOT_VALID] &
        (uint32_t)sremrt_ep_in_window(ep, (int64_t)last[SLOT_START], (int64_t)last[SLOT_START], at, at)) {
        /* The next occurrence must start after this event. */
        for (m = 1; m < k; m++)
            S[W * m + SLOT_VALID] = 0;
        count_occurrence(ep, last, index);
        return;
    }
    mask &= ep->full >> 1;
    S[SLOT_START] = (uint64_t)at;
    S[SLOT_VALID] = 1;
    if ((mask & (mask - 1u)) == 0) {
        /* One element, or none (then into the dummy slot). */
        uint32_t none = (uint32_t)(mask == 0);
        m = sremrt_ep_low_bit(mask | none);
        copy_slot(S, W, m + 1 + (int32_t)none * (k - 1 - m), m, index);
        return;
    }
    /* Higher elements first: each extends the prefixes as they were
     * before this event, which it can join only once. */
    while (mask) {
        m = high_bit(mask);
        copy_slot(S, W, m + 1, m, index);
        mask &= ~((uint32_t)1 << m);
    }
}

/* ---- distinct: OccMap greedy ------------------------------------------ */

/* mask has at most one bit. At an event of E_k, the leftmost occurrence
 * among the free events (the heads) is counted; an event of E_m < E_k
 * joins list m if it is active. Branches only where something happens
 * (an expiry, a completion). */
static void greedy_push(sremrt_episode *ep, int64_t pos, int64_t ts, uint32_t mask)
{
    sremrt_occmap *m = &ep->occ;
    uint32_t low = mask & (ep->full >> 1);
    sremrt_occmap_expire(m, pos, ts);
    if ((mask >> (ep->cfg.k - 1)) & (uint32_t)(m->len[m->layers - 1] > 0)) {
        sremrt_occmap_complete(m);
        ep->freq++;
        return;
    }
    if (sremrt_occmap_add_if(m, sremrt_ep_low_bit(low | (uint32_t)(low == 0)), (uint32_t)(low != 0), pos, ts)) {
        ep->overflows++;
        ep->exact = 0;
    }
}

/* ---- the API ---------------------------------------------------------- */

int sremrt_episode_push(sremrt_episode *ep, int64_t pos, int64_t ts, uint32_t mask)
{
    return sremrt_episode_push_index(ep, pos, ts, mask, pos);
}

int sremrt_episode_push_index(sremrt_episode *ep, int64_t pos, int64_t ts, uint32_t mask, int64_t index)
{
    int64_t before = ep->freq;
    if ((pos <= ep->last_pos) | (ts < ep->min_ts)) {
        ep->rejected++;
        return -1;
    }
    mask &= ep->full;
    switch (ep->mode) {
    case SREMRT_EP_ONE:
        if ((mask & 1u) && ep->occurrence)   /* nonoverlapped: the event is the occurrence */
            count_occurrence(ep, NULL, index);
        else
            ep->freq += mask & 1u;
        break;
    case SREMRT_EP_NONOVERLAPPED:
        nonoverlapped_push(ep, pos, ts, mask, index);
        break;
    case SREMRT_EP_GREEDY:
        if ((mask & (mask - 1u)) == 0) {
            greedy_push(ep, pos, ts, mask);
            break;
        }
        if (!ep->pool) {
            /* SREMRT_EPISODE_EXCLUSIVE broken: keep the lowest element. */
            ep->budget_exceeded++;
            ep->exact = 0;
            greedy_push(ep, pos, ts, mask & (~mask + 1u));
            break;
        }
        sremrt_episode_conf_enter(ep);
        sremrt_episode_conf_push(ep, pos, ts, mask);
        break;
    case SREMRT_EP_CONFIGS:
        if (mask)
            sremrt_episode_conf_push(ep, pos, ts, mask);
        break;
    default:
        return -1;   /* init failed */
    }
    ep->events++;
    ep->last_pos = pos;
    ep->min_ts = ep->cfg.window == SREMRT_EPISODE_TIME ? ts : INT64_MIN;
    return ep->freq > before;
}

void sremrt_episode_add_stats(const sremrt_episode *ep, sremrt_stats *st)
{
    st->overflow[SREMRT_OVF_OCCMAP] += ep->overflows;
    st->overflow[SREMRT_OVF_BUDGET] += ep->budget_exceeded;
}

void sremrt_episode_record(const sremrt_episode *ep, sremrt_kind kind, const char *name, sremrt_record *rec)
{
    memset(rec, 0, sizeof *rec);
    rec->kind = kind;
    rec->name = name;
    rec->freq = ep->freq;
    rec->inexact = !ep->exact;
    if (kind == SREMRT_EPISODE && ep->noccurrence) {
        rec->occurrence = ep->occurrence;
        rec->noccurrence = ep->noccurrence;
    }
}

/* ---- checkpoints (state.h) ------------------------------------------------ */

/* The OccMap's lists, each oldest first (a loaded list starts at slot 0). */
static void state_lists(sremrt_state_io *io, sremrt_occmap *m)
{
    int32_t stride = m->cap + 1;
    for (int32_t j = 0; j < m->layers && io->err == SREMRT_STATE_OK; j++) {
        int32_t len = m->len[j];
        sremrt_state_count(io, &len, m->cap);
        for (int32_t i = 0; i < len && io->err == SREMRT_STATE_OK; i++) {
            int32_t slot = io->mode == SREMRT_STATE_LOAD ? i : (m->head[j] + i) % stride;
            sremrt_occ_entry *e = &m->ent[(size_t)j * (size_t)stride + (size_t)slot];
            sremrt_state_i64(io, &e->pos);
            sremrt_state_i64(io, &e->ts);
        }
        if (io->mode == SREMRT_STATE_LOAD && io->err == SREMRT_STATE_OK) {
            m->head[j] = 0;
            m->len[j] = len;
        }
    }
}

/* The configurations, current ones in order (loaded into slots 0..configs-1,
 * the rest spare): each one's header and free events. */
static void state_configs(sremrt_state_io *io, sremrt_episode *c)
{
    int load = io->mode == SREMRT_STATE_LOAD;
    for (int32_t i = 0; i < c->configs && io->err == SREMRT_STATE_OK; i++) {
        ep_conf *f = (ep_conf *)(void *)(c->pool + (size_t)(load ? i : c->cur[i]) * c->slot_bytes);
        ep_ev *ev = (ep_ev *)(void *)(f + 1);
        int32_t roles = (int32_t)f->roles;
        if (load)
            c->cur[i] = i;
        sremrt_state_i64(io, &f->count);
        sremrt_state_count(io, &f->n, c->cfg.list_cap);
        sremrt_state_i32(io, &f->single);
        sremrt_state_i32(io, &roles);
        sremrt_state_i32(io, &f->starts);
        f->roles = (uint32_t)roles;
        for (int32_t e = 0; e < f->n && io->err == SREMRT_STATE_OK; e++) {
            int32_t mask = (int32_t)ev[e].mask;
            sremrt_state_i64(io, &ev[e].pos);
            sremrt_state_i64(io, &ev[e].ts);
            sremrt_state_i32(io, &mask);
            ev[e].mask = (uint32_t)mask;
        }
    }
    if (load && io->err == SREMRT_STATE_OK) {   /* between events: every other slot is spare */
        c->nnext = 0;
        c->nspare = c->nslots - c->configs;
        for (int32_t i = 0; i < c->nspare; i++)
            c->spare[i] = c->nslots - 1 - i;
    }
}

/* A counter's state, logically: its counts, then what its mode keeps
 * (latest starts and the occurrence counted last; the OccMap's lists; the
 * configurations), never the unused part of its block. A counter the
 * allocator refused (k = 0) stays one. */
void sremrt_state_episode(sremrt_state_io *io, sremrt_episode *c)
{
    int32_t k = c->cfg.k;
    int load = io->mode == SREMRT_STATE_LOAD;
    sremrt_state_i32(io, &k);
    if (io->err != SREMRT_STATE_OK || (k == 0 && c->cfg.k == 0))
        return;
    if (k == 0) {   /* refused when the checkpoint was taken */
        sremrt_episode_free(c);
        memset(c, 0, sizeof *c);
        return;
    }
    if (c->cfg.k == 0 || k != c->cfg.k) {
        sremrt_state_fail(io, c->cfg.k == 0 ? SREMRT_STATE_EMEMORY : SREMRT_STATE_EFORMAT);
        return;
    }
    int32_t list_cap = c->cfg.list_cap, budget = c->cfg.budget;
    sremrt_state_i32(io, &list_cap);   /* the options that size the lists */
    sremrt_state_i32(io, &budget);
    if (load && io->err == SREMRT_STATE_OK && (list_cap != c->cfg.list_cap || budget != c->cfg.budget)) {
        sremrt_state_fail(io, SREMRT_STATE_ECONFIG);
        return;
    }
    sremrt_state_i64(io, &c->freq);
    sremrt_state_int(io, &c->exact);
    sremrt_state_u64(io, &c->events);
    sremrt_state_u64(io, &c->rejected);
    sremrt_state_u64(io, &c->overflows);
    sremrt_state_u64(io, &c->budget_exceeded);
    sremrt_state_count(io, &c->configs, c->pool ? c->cfg.budget : 0);
    sremrt_state_i32(io, &c->peak);
    sremrt_state_count(io, &c->mode, SREMRT_EP_CONFIGS);
    sremrt_state_i64(io, &c->last_pos);
    sremrt_state_i64(io, &c->min_ts);
    sremrt_state_count(io, &c->noccurrence, k);
    sremrt_state_u64(io, &c->occ.overflows);
    if (c->start)
        for (size_t i = 0; i < ((size_t)k + 1u) * (size_t)slot_words(k); i++)
            sremrt_state_u64(io, &c->start[i]);
    if (c->occurrence)
        for (int32_t i = 0; i < k; i++)
            sremrt_state_i64(io, &c->occurrence[i]);
    if (c->occ.layers)
        state_lists(io, &c->occ);
    if (c->pool)
        state_configs(io, c);
}
