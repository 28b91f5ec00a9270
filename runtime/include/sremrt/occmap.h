/* occmap.h: OccMap, the per-element lists of ONCE/ONCE+ (Li et al.), as
 * the distinct-frequency counter (episode.h) uses them while no event
 * satisfies two elements of the episode. List j (0-based) holds the free
 * events (in no counted occurrence) that satisfy element j + 1, oldest
 * first, in a ring buffer of fixed capacity; events of the last element
 * are never stored (an occurrence can only end at the event being pushed).
 *
 * Invariant after every call ("normalized", docs/episodes.md): the
 * non-empty lists are 0..a-1 for some a (list j is "active" if list j-1 is
 * non-empty), and their heads are strictly increasing in position:
 * L_1[1] < L_2[1] < ... An entry of list j that precedes the
 * head of list j-1 can never be part of an occurrence and is dropped; so the
 * leftmost occurrence among the free events is always made of the heads. */
#ifndef SREMRT_OCCMAP_H
#define SREMRT_OCCMAP_H

#include <stddef.h>
#include <stdint.h>

#include "alloc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How an episode's window is measured (docs/language.md section 4). */
typedef enum sremrt_episode_window {
    SREMRT_EPISODE_EVENTS,   /* within N events: i_k - i_1 + 1 <= N (substream positions) */
    SREMRT_EPISODE_TIME      /* within D: ts(i_k) - ts(i_1) <= D */
} sremrt_episode_window;

/* An event as the lists keep it: its position in the substream (the
 * order; the count window) and its timestamp (the time window). */
typedef struct sremrt_occ_entry {
    int64_t pos;
    int64_t ts;
} sremrt_occ_entry;

typedef struct sremrt_occmap {
    int32_t layers;                  /* lists: elements 1..k-1 */
    int32_t cap;                     /* entries per list */
    sremrt_episode_window window;
    int64_t width;                   /* N (events) or D (timestamp units) */
    sremrt_occ_entry *ent;           /* list j: ring ent[j * (cap + 1) ..], one slot always free */
    int32_t *head;                   /* per list: ring slot of the oldest entry */
    int32_t *len;                    /* per list: entries */
    uint64_t overflows;              /* entries refused because their list was full */
    sremrt_alloc alloc;              /* alloc NULL: caller's buffer */
    void *mem;
    size_t bytes;
} sremrt_occmap;

/* Largest list capacity and number of lists accepted. */
#define SREMRT_OCCMAP_MAX_CAP (1 << 24)
#define SREMRT_OCCMAP_MAX_LAYERS 31

/* Bytes a caller buffer needs (any alignment); 0 if out of range. */
size_t sremrt_occmap_bytes(int32_t layers, int32_t cap);

/* 0, or -1 if layers (1..SREMRT_OCCMAP_MAX_LAYERS), cap
 * (1..SREMRT_OCCMAP_MAX_CAP) or width (>= 1 events, >= 0 time) is out of
 * range or the memory is missing or too small. */
int sremrt_occmap_init_buf(sremrt_occmap *m, int32_t layers, int32_t cap,
                           sremrt_episode_window window, int64_t width, void *buf, size_t bytes);
int sremrt_occmap_init(sremrt_occmap *m, int32_t layers, int32_t cap,
                       sremrt_episode_window window, int64_t width, const sremrt_alloc *a);
void sremrt_occmap_free(sremrt_occmap *m);

/* Empties every list; keeps the overflow count. */
void sremrt_occmap_clear(sremrt_occmap *m);

/* 1 if an occurrence starting at s and ending at (pos, ts) satisfies the
 * window (pos > s->pos, ts >= s->ts; differences taken in uint64, exact
 * for any int64 values in this order). */
static inline int sremrt_occmap_in_window(const sremrt_occmap *m, const sremrt_occ_entry *s,
                                          int64_t pos, int64_t ts)
{
    if (m->window == SREMRT_EPISODE_TIME)
        return (uint64_t)ts - (uint64_t)s->ts <= (uint64_t)m->width;
    return (uint64_t)pos - (uint64_t)s->pos < (uint64_t)m->width;
}

/* The oldest entry of a non-empty list. */
static inline const sremrt_occ_entry *sremrt_occmap_head(const sremrt_occmap *m, int32_t layer)
{
    return &m->ent[(size_t)layer * ((size_t)m->cap + 1u) + (size_t)m->head[layer]];
}

/* Local expiry before an event at (pos, ts) is handled: drops the heads of
 * list 0 that no occurrence ending at this event or later can start with,
 * then normalizes. The inline part only looks at the head. */
void sremrt_occmap_expire_heads(sremrt_occmap *m, int64_t pos, int64_t ts);
static inline void sremrt_occmap_expire(sremrt_occmap *m, int64_t pos, int64_t ts)
{
    /* The head slot is always initialized (to zero if unused): one branch. */
    if ((m->len[0] > 0) & !sremrt_occmap_in_window(m, sremrt_occmap_head(m, 0), pos, ts))
        sremrt_occmap_expire_heads(m, pos, ts);
}

/* Appends an event satisfying element layer + 1 (layer < layers). Only
 * into an active layer: list 0 always, list j if list j-1 is non-empty.
 * Returns 1 if stored, 0 if the layer is not active (the event can never be
 * in an occurrence: nothing to store), -1 if the list is full (counted in
 * overflows; the event is dropped). Positions must increase. */
int sremrt_occmap_add(sremrt_occmap *m, int32_t layer, int64_t pos, int64_t ts);

/* sremrt_occmap_add for `use` 1, nothing for `use` 0, with no branch on
 * the data (the stream's element masks are as unpredictable as its event
 * types): the entry is written into the free slot either way. Returns 1 if
 * it was refused for a full list (counted), else 0. layer < layers. */
static inline uint32_t sremrt_occmap_add_if(sremrt_occmap *m, int32_t layer, uint32_t use,
                                            int64_t pos, int64_t ts)
{
    int32_t len = m->len[layer], stride = m->cap + 1, slot = m->head[layer] + len;
    uint32_t full, ok;
    sremrt_occ_entry *e;
    slot -= slot >= stride ? stride : 0;
    e = &m->ent[(size_t)layer * (size_t)stride + (size_t)slot];
    e->pos = pos;
    e->ts = ts;
    use &= (uint32_t)(layer == 0) | (uint32_t)(m->len[layer - (layer > 0)] > 0);
    full = use & (uint32_t)(len == m->cap);
    ok = use & (full ^ 1u);
    m->len[layer] = len + (int32_t)ok;
    if (full)
        m->overflows++;
    return full;
}

/* An event of the last element arrived (after sremrt_occmap_expire for
 * it): if every list is non-empty, the heads and that event form the
 * leftmost occurrence ending at it; they are removed, the lists
 * normalized, and 1 returned. Else 0 and nothing changes. */
int sremrt_occmap_complete(sremrt_occmap *m);

/* Lists that are non-empty (they are 0..n-1). */
int32_t sremrt_occmap_active(const sremrt_occmap *m);

/* Entries of a list, and entry i (0 = oldest) of it. */
int32_t sremrt_occmap_size(const sremrt_occmap *m, int32_t layer);
const sremrt_occ_entry *sremrt_occmap_at(const sremrt_occmap *m, int32_t layer, int32_t i);

#ifdef __cplusplus
}
#endif

#endif
