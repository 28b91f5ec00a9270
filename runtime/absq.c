/* absq.c: pending absences (added, met, closed) -> found by key (a hash of
 * keys to their lists, oldest first) and by deadline (a binary heap of the
 * time windows' start timestamps); records then come in index order. */
#include "sremrt/absq.h"

#include <string.h>

static sremrt_absq_link *link_at(const sremrt_absq *q, int32_t s)
{
    return (sremrt_absq_link *)sremrt_absq_at(q, s);
}

/* splitmix64's finalizer: consecutive keys spread over the buckets. */
static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= UINT64_C(0xbf58476d1ce4e5b9);
    x ^= x >> 27;
    x *= UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

int64_t sremrt_absq_hash(const int64_t *values, int32_t n)
{
    uint64_t h = UINT64_C(0x9e3779b97f4a7c15);
    for (int32_t k = 0; k < n; k++)
        h = mix(h ^ (uint64_t)values[k]);
    return (int64_t)h;
}

/* Every slot free, chained in order; no key, an empty heap. */
static void reset(sremrt_absq *q)
{
    for (int32_t s = 0; s < q->cap; s++) {
        sremrt_absq_link *l = link_at(q, s);
        l->used = 0;
        l->next = s + 1 < q->cap ? s + 1 : -1;
    }
    for (int32_t k = 0; k < 2 * q->cap; k++)
        q->keys[k].head = -1;
    q->free = q->cap > 0 ? 0 : -1;
    q->n = 0;
    q->nheap = 0;
}

void sremrt_absq_init(sremrt_absq *q, size_t size, int timed, const sremrt_alloc *alloc)
{
    memset(q, 0, sizeof *q);
    q->size = size;
    q->timed = timed;
    q->alloc = alloc;
    q->free = -1;
}

void sremrt_absq_init_fixed(sremrt_absq *q, size_t size, int timed, void *items, int32_t cap, int32_t *heap,
                            int32_t *order, sremrt_absq_key *keys)
{
    sremrt_absq_init(q, size, timed, NULL);
    q->items = (unsigned char *)items;
    q->cap = cap;
    q->heap = heap;
    q->order = order;
    q->keys = keys;
    reset(q);
}

/* The hosted arrays of cap items (items, heap, order, keys) given back. */
static void give_back(const sremrt_alloc *a, unsigned char *items, size_t size, int32_t *heap, int32_t *order,
                      sremrt_absq_key *keys, int32_t cap)
{
    sremrt_alloc_free(a, items, (size_t)cap * size);
    sremrt_alloc_free(a, heap, (size_t)cap * sizeof *heap);
    sremrt_alloc_free(a, order, (size_t)cap * sizeof *order);
    sremrt_alloc_free(a, keys, 2 * (size_t)cap * sizeof *keys);
}

void sremrt_absq_free(sremrt_absq *q)
{
    if (q->alloc) {
        give_back(q->alloc, q->items, q->size, q->heap, q->order, q->keys, q->cap);
        sremrt_absq_init(q, q->size, q->timed, q->alloc);
    } else {
        reset(q);
    }
}

/* ---- keys ---------------------------------------------------------------------- */

/* The bucket of khash, or the empty one where it would go. */
static int32_t bucket(const sremrt_absq *q, int64_t khash)
{
    uint32_t mask = (uint32_t)(2 * q->cap - 1);
    uint32_t b = (uint32_t)mix((uint64_t)khash) & mask;
    while (q->keys[b].head >= 0 && q->keys[b].khash != khash)
        b = (b + 1) & mask;
    return (int32_t)b;
}

/* Empties bucket b, moving later entries of its run back (no tombstones). */
static void drop_bucket(sremrt_absq *q, uint32_t b)
{
    uint32_t mask = (uint32_t)(2 * q->cap - 1), x = b;
    q->keys[b].head = -1;
    for (;;) {
        x = (x + 1) & mask;
        if (q->keys[x].head < 0)
            return;
        uint32_t home = (uint32_t)mix((uint64_t)q->keys[x].khash) & mask;
        /* x stays if its home lies cyclically in (b, x] */
        if (b <= x ? (b < home && home <= x) : (b < home || home <= x))
            continue;
        q->keys[b] = q->keys[x];
        q->keys[x].head = -1;
        b = x;
    }
}

int32_t sremrt_absq_first(const sremrt_absq *q, int64_t khash)
{
    return q->n > 0 ? q->keys[bucket(q, khash)].head : -1;
}

/* ---- the deadline heap ---------------------------------------------------------------- */

/* Whether slot a's deadline comes before b's (then by index: a total order). */
static int before(const sremrt_absq *q, int32_t a, int32_t b)
{
    const sremrt_absq_link *x = link_at(q, a), *y = link_at(q, b);
    return x->due != y->due ? x->due < y->due : x->index < y->index;
}

static void heap_put(sremrt_absq *q, int32_t at, int32_t s)
{
    q->heap[at] = s;
    link_at(q, s)->hpos = at;
}

static void sift_up(sremrt_absq *q, int32_t at)
{
    int32_t s = q->heap[at];
    while (at > 0 && before(q, s, q->heap[(at - 1) / 2])) {
        heap_put(q, at, q->heap[(at - 1) / 2]);
        at = (at - 1) / 2;
    }
    heap_put(q, at, s);
}

static void sift_down(sremrt_absq *q, int32_t at)
{
    int32_t s = q->heap[at];
    for (;;) {
        int32_t c = 2 * at + 1;
        if (c >= q->nheap)
            break;
        if (c + 1 < q->nheap && before(q, q->heap[c + 1], q->heap[c]))
            c++;
        if (!before(q, q->heap[c], s))
            break;
        heap_put(q, at, q->heap[c]);
        at = c;
    }
    heap_put(q, at, s);
}

/* Takes slot s out of the heap. */
static void heap_remove(sremrt_absq *q, int32_t s)
{
    int32_t at = link_at(q, s)->hpos;
    link_at(q, s)->hpos = -1;
    if (at < 0)
        return;
    int32_t last = q->heap[--q->nheap];
    if (last == s)
        return;
    heap_put(q, at, last);
    sift_up(q, at);
    sift_down(q, link_at(q, last)->hpos);
}

/* ---- adding and removing ---------------------------------------------------------------- */

/* Hosted: twice the slots (16 at first), items where they were; 0 if refused. */
static int grow(sremrt_absq *q)
{
    if (!q->alloc || q->cap > INT32_MAX / 4)
        return 0;
    int32_t cap = q->cap ? 2 * q->cap : 16;
    unsigned char *items = (size_t)cap <= SIZE_MAX / 2 / q->size
        ? (unsigned char *)sremrt_alloc_get(q->alloc, (size_t)cap * q->size, 0) : NULL;
    int32_t *heap = (int32_t *)sremrt_alloc_get(q->alloc, (size_t)cap * sizeof *heap, 0);
    int32_t *order = (int32_t *)sremrt_alloc_get(q->alloc, (size_t)cap * sizeof *order, 0);
    sremrt_absq_key *keys = (sremrt_absq_key *)sremrt_alloc_get(q->alloc, 2 * (size_t)cap * sizeof *keys, 0);
    if (!items || !heap || !order || !keys) {
        give_back(q->alloc, items, q->size, heap, order, keys, cap);
        return 0;
    }
    int32_t old = q->cap;
    if (old > 0)
        memcpy(items, q->items, (size_t)old * q->size);
    if (q->nheap > 0)
        memcpy(heap, q->heap, (size_t)q->nheap * sizeof *heap);
    give_back(q->alloc, q->items, q->size, q->heap, q->order, q->keys, old);
    q->items = items;
    q->heap = heap;
    q->order = order;
    q->keys = keys;
    q->cap = cap;
    for (int32_t k = 0; k < 2 * cap; k++)   /* every key again: the mask changed */
        keys[k].head = -1;
    for (int32_t s = 0; s < old; s++) {
        sremrt_absq_link *l = link_at(q, s);
        if (l->used && l->prev < 0) {   /* a list's head: its key's bucket */
            sremrt_absq_key *k = &keys[bucket(q, l->khash)];
            k->khash = l->khash;
            k->head = s;
            int32_t t = s;
            while (link_at(q, t)->next >= 0)
                t = link_at(q, t)->next;
            k->tail = t;
        }
    }
    for (int32_t s = cap - 1; s >= old; s--) {   /* the new slots, first free first */
        link_at(q, s)->used = 0;
        link_at(q, s)->next = q->free;
        q->free = s;
    }
    return 1;
}

int32_t sremrt_absq_add(sremrt_absq *q, int64_t khash, int64_t index, int64_t due)
{
    if (q->free < 0 && !grow(q))
        return -1;
    int32_t s = q->free;
    sremrt_absq_link *l = link_at(q, s);
    q->free = l->next;
    memset(l, 0, q->size);
    l->index = index;
    l->khash = khash;
    l->due = due;
    l->used = 1;
    l->next = -1;
    l->hpos = -1;
    sremrt_absq_key *k = &q->keys[bucket(q, khash)];
    if (k->head < 0) {
        k->khash = khash;
        k->head = s;
        l->prev = -1;
    } else {
        l->prev = k->tail;
        link_at(q, k->tail)->next = s;
    }
    k->tail = s;
    if (q->timed) {
        q->heap[q->nheap] = s;
        sift_up(q, q->nheap++);
    }
    q->n++;
    return s;
}

void sremrt_absq_remove(sremrt_absq *q, int32_t s)
{
    sremrt_absq_link *l = link_at(q, s);
    if (!l->used)
        return;
    int32_t b = bucket(q, l->khash);
    sremrt_absq_key *k = &q->keys[b];
    if (l->prev >= 0)
        link_at(q, l->prev)->next = l->next;
    else
        k->head = l->next;
    if (l->next >= 0)
        link_at(q, l->next)->prev = l->prev;
    else
        k->tail = l->prev;
    if (k->head < 0)
        drop_bucket(q, (uint32_t)b);
    heap_remove(q, s);
    l->used = 0;
    l->next = q->free;
    q->free = s;
    q->n--;
}

void sremrt_absq_clear(sremrt_absq *q)
{
    if (q->cap > 0)
        reset(q);
}

/* ---- in index order ---------------------------------------------------------------- */

static void sift_index(const sremrt_absq *q, int32_t *a, int32_t n, int32_t at)
{
    int32_t s = a[at];
    for (;;) {
        int32_t c = 2 * at + 1;
        if (c >= n)
            break;
        if (c + 1 < n && link_at(q, a[c + 1])->index > link_at(q, a[c])->index)
            c++;
        if (link_at(q, a[c])->index <= link_at(q, s)->index)
            break;
        a[at] = a[c];
        at = c;
    }
    a[at] = s;
}

/* Heapsort of slots by index: no allocation, O(n log n) at worst. */
static void sort_by_index(const sremrt_absq *q, int32_t *a, int32_t n)
{
    for (int32_t at = n / 2 - 1; at >= 0; at--)
        sift_index(q, a, n, at);
    for (int32_t end = n - 1; end > 0; end--) {
        int32_t t = a[0];
        a[0] = a[end];
        a[end] = t;
        sift_index(q, a, end, 0);
    }
}

int32_t sremrt_absq_expired(sremrt_absq *q, int64_t te, uint64_t d)
{
    int32_t n = 0;
    while (q->nheap > 0) {
        const sremrt_absq_link *l = link_at(q, q->heap[0]);
        if (!(te > l->due && (uint64_t)te - (uint64_t)l->due > d))
            break;   /* the earliest start is within: so is every other */
        int32_t s = q->heap[0];
        heap_remove(q, s);
        q->order[n++] = s;
    }
    if (n > 1)
        sort_by_index(q, q->order, n);
    return n;
}

int32_t sremrt_absq_sorted(sremrt_absq *q)
{
    int32_t n = 0;
    for (int32_t s = 0; s < q->cap; s++)
        if (link_at(q, s)->used)
            q->order[n++] = s;
    sort_by_index(q, q->order, n);
    return n;
}
