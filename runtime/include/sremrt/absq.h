/* absq.h: the pending absences of a pattern with `absent` (docs/language.md
 * 3.7), indexed by key and by deadline, so that an event costs O(1)
 * expected plus the absences of its own key and those it closes. */
#ifndef SREMRT_ABSQ_H
#define SREMRT_ABSQ_H

#include <stddef.h>
#include <stdint.h>

#include "alloc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The head of every item (a generated obligation type begins with it). */
typedef struct sremrt_absq_link {
    int64_t index;          /* the match's event: absent records come in this order */
    int64_t khash;          /* its key: the partition value, sremrt_absq_hash of a
                               composite key's values, 0 unpartitioned */
    int64_t due;            /* time windows: the start's timestamp (the deadline's order) */
    int32_t next, prev;     /* the key's list, oldest first (-1 ends it); free: next free */
    int32_t hpos;           /* its place in the deadline heap; -1: not there */
    int32_t used;           /* 1: pending */
} sremrt_absq_link;

/* A key with pending absences: its list (head -1: an empty bucket). */
typedef struct sremrt_absq_key {
    int64_t khash;
    int32_t head, tail;
} sremrt_absq_key;

typedef struct sremrt_absq {
    unsigned char *items;   /* cap items of size bytes, each beginning with a link */
    size_t size;
    int32_t cap, n, free;   /* free: the first free slot, -1 none */
    int timed;              /* deadlines in the heap (time windows) */
    int32_t *heap, nheap;   /* slots, a binary heap by (due, index) */
    int32_t *order;         /* [cap]: the slots sremrt_absq_expired or _sorted give */
    sremrt_absq_key *keys;  /* [2 * cap] linear probing by khash */
    const sremrt_alloc *alloc;   /* grows the arrays; NULL: fixed buffers */
} sremrt_absq;

/* Hosted: starts empty, the arrays grow through alloc (kept by pointer). */
void sremrt_absq_init(sremrt_absq *q, size_t size, int timed, const sremrt_alloc *alloc);

/* Fixed capacity (firmware): items[cap * size], heap[cap], order[cap],
 * keys[2 * cap], all the caller's. */
void sremrt_absq_init_fixed(sremrt_absq *q, size_t size, int timed, void *items, int32_t cap, int32_t *heap,
                            int32_t *order, sremrt_absq_key *keys);

/* Gives the hosted arrays back; the queue is then empty (and still usable). */
void sremrt_absq_free(sremrt_absq *q);

/* Removes every pending absence. */
void sremrt_absq_clear(sremrt_absq *q);

/* A new pending absence, last of its key's list: its slot (the item's
 * bytes after the link are zero), or -1 when full (fixed, or the
 * allocator refused). Slots move nothing: an item stays where it is. */
int32_t sremrt_absq_add(sremrt_absq *q, int64_t khash, int64_t index, int64_t due);

/* Removes a pending absence: from its key's list and the heap. */
void sremrt_absq_remove(sremrt_absq *q, int32_t slot);

/* The item at slot. */
static inline void *sremrt_absq_at(const sremrt_absq *q, int32_t slot)
{
    return q->items + (size_t)slot * q->size;
}

/* The oldest pending absence of khash (follow link.next), or -1. */
int32_t sremrt_absq_first(const sremrt_absq *q, int64_t khash);

/* Time windows: the pending absences whose window an event at te closes
 * (te > due and te - due > d, as unsigned differences), taken out of the
 * heap and put in q->order by index: returns how many. They stay pending
 * (in their key's list) until the caller removes each. */
int32_t sremrt_absq_expired(sremrt_absq *q, int64_t te, uint64_t d);

/* Every pending absence in q->order by index: returns q->n. */
int32_t sremrt_absq_sorted(sremrt_absq *q);

/* The khash of a composite key's values (an int, an enum index, a bool,
 * a string id each). */
int64_t sremrt_absq_hash(const int64_t *values, int32_t n);

#ifdef __cplusplus
}
#endif

#endif
