/* explore_impl.h: what explore.c (shared state, default algorithms, trie
 * and suggestions) and explore_ref.c (bf, rc, ic) share. Not installed. */
#ifndef SREMRT_EXPLORE_IMPL_H
#define SREMRT_EXPLORE_IMPL_H

#include "sremrt/explore.h"

/* tinfo flags per event-type value. */
#define SREMRT_XT_PATTERN 1u   /* the value is some ET_k */
#define SREMRT_XT_FIRST   2u   /* == ET_1 */
#define SREMRT_XT_LAST    4u   /* == ET_m */
#define SREMRT_XT_CAND    8u   /* not in the pattern: a candidate X */

/* Ring entry i (0 = oldest) of a partition's window. */
static inline int64_t sremrt_xring_at(const sremrt_explore_part *st, int64_t i)
{
    int64_t j = st->head + i;
    return j >= st->cap ? j - st->cap : j;
}

/* Slot for a new entry at the back; the caller has made room (size < cap). */
static inline int64_t sremrt_xring_back(sremrt_explore_part *st)
{
    int64_t j = sremrt_xring_at(st, st->size);
    st->size++;
    return j;
}

static inline void sremrt_xring_pop(sremrt_explore_part *st)
{
    st->head = st->head + 1 == st->cap ? 0 : st->head + 1;
    st->size--;
}

/* Positions k (1-based, ascending) where ET_k == type: occ[0..*n-1]. */
static inline const int32_t *sremrt_xocc(const sremrt_explore *ex, int32_t type, int32_t *n)
{
    *n = ex->occ_at[type + 1] - ex->occ_at[type];
    return ex->occ + ex->occ_at[type];
}

/* A ring entry is dropped for lack of room: counted, counts inexact. */
void sremrt_explore_overflow(sremrt_explore *ex, sremrt_explore_part *st);

/* bf, rc, ic (explore_ref.c). Called after the window's expired entries
 * are gone (entries older than `bound`, already popped); `key` is the
 * event's position or timestamp. Fill out->pattern/extension/variation
 * and take the event into the state. */
void sremrt_explore_bf_push(sremrt_explore *ex, sremrt_explore_part *st, int64_t key,
                            int32_t type, sremrt_explore_step *out);
void sremrt_explore_rc_push(sremrt_explore *ex, sremrt_explore_part *st, int64_t key,
                            int32_t type, sremrt_explore_step *out);
void sremrt_explore_ic_push(sremrt_explore *ex, sremrt_explore_part *st, int64_t key,
                            int32_t type, sremrt_explore_step *out);

/* ic: drops the oldest start, keeping the sliding sums right. */
void sremrt_explore_ic_pop(const sremrt_explore *ex, sremrt_explore_part *st);

#endif
