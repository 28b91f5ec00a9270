/* reorder.c: events arriving out of timestamp order by up to D -> the same
 * events in timestamp order (ties by arrival), through a min-heap of keys
 * over a slot array of event bytes; one block holds both, grown by
 * doubling or fixed by the caller. */
#include "sremrt/reorder.h"

#include <string.h>

#define FIRST_CAP 64
#define ALIGN sizeof(int64_t)

/* One block: the heap keys, the free-slot stack, then the event slots. */
static size_t layout_bytes(const sremrt_schema *s, size_t cap)
{
    return cap * (sizeof(sremrt_reorder_key) + sizeof(size_t) + s->event_size);
}

static void place(sremrt_reorder *r, unsigned char *p, size_t cap)
{
    r->heap = (sremrt_reorder_key *)(void *)p;
    r->free_slots = (size_t *)(void *)(p + cap * sizeof(sremrt_reorder_key));
    r->events = p + cap * (sizeof(sremrt_reorder_key) + sizeof(size_t));
    r->cap = cap;
}

size_t sremrt_reorder_bytes(const sremrt_schema *s, size_t cap)
{
    return layout_bytes(s, cap) + ALIGN - 1;
}

static int setup(sremrt_reorder *r, const sremrt_schema *s, int64_t delay)
{
    memset(r, 0, sizeof *r);
    r->schema = s;
    r->delay = delay;
    return s && s->ts_attr >= 0 && delay >= 0 ? 0 : -1;
}

int sremrt_reorder_init(sremrt_reorder *r, const sremrt_schema *s, int64_t delay, const sremrt_alloc *a)
{
    if (setup(r, s, delay) != 0 || !a || !a->alloc)
        return -1;
    r->alloc = *a;
    return 0;
}

int sremrt_reorder_init_buf(sremrt_reorder *r, const sremrt_schema *s, int64_t delay, void *buf, size_t bytes)
{
    size_t pad = buf ? (ALIGN - (uintptr_t)buf % ALIGN) % ALIGN : 0, cap;
    if (setup(r, s, delay) != 0 || !buf || bytes < pad)
        return -1;
    cap = (bytes - pad) / layout_bytes(s, 1);
    place(r, (unsigned char *)buf + pad, cap);
    for (size_t i = 0; i < cap; i++)   /* every slot free, the lowest on top */
        r->free_slots[i] = cap - 1 - i;
    r->nfree = cap;
    return cap > 0 ? 0 : -1;
}

void sremrt_reorder_free(sremrt_reorder *r)
{
    if (r->alloc.alloc && r->cap)
        sremrt_alloc_free(&r->alloc, r->heap, layout_bytes(r->schema, r->cap));
    r->cap = r->n = r->nfree = 0;
}

/* Doubles the block (growing buffers): 0, or -1 if refused. */
static int grow(sremrt_reorder *r)
{
    size_t cap = r->cap ? r->cap * 2 : FIRST_CAP, esz = r->schema->event_size;
    unsigned char *p;
    if (!r->alloc.alloc || cap > SIZE_MAX / 2 / layout_bytes(r->schema, 1))
        return -1;
    if (!(p = (unsigned char *)sremrt_alloc_get(&r->alloc, layout_bytes(r->schema, cap), ALIGN)))
        return -1;
    if (r->cap) {   /* every slot is in use: heap and events move, no free slot */
        memcpy(p, r->heap, r->n * sizeof(sremrt_reorder_key));
        memcpy(p + cap * (sizeof(sremrt_reorder_key) + sizeof(size_t)), r->events, r->cap * esz);
        sremrt_alloc_free(&r->alloc, r->heap, layout_bytes(r->schema, r->cap));
    }
    size_t old = r->cap;
    place(r, p, cap);
    for (size_t i = cap; i > old; i--)
        r->free_slots[r->nfree++] = i - 1;
    return 0;
}

static int before(const sremrt_reorder_key *a, const sremrt_reorder_key *b)
{
    return a->ts < b->ts || (a->ts == b->ts && a->seq < b->seq);
}

static void sift_up(sremrt_reorder *r, size_t i)
{
    sremrt_reorder_key k = r->heap[i];
    while (i > 0 && before(&k, &r->heap[(i - 1) / 2])) {
        r->heap[i] = r->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    r->heap[i] = k;
}

static void sift_down(sremrt_reorder *r, size_t i)
{
    sremrt_reorder_key k = r->heap[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= r->n)
            break;
        if (c + 1 < r->n && before(&r->heap[c + 1], &r->heap[c]))
            c++;
        if (!before(&r->heap[c], &k))
            break;
        r->heap[i] = r->heap[c];
        i = c;
    }
    r->heap[i] = k;
}

int sremrt_reorder_add(sremrt_reorder *r, const void *event, int64_t line)
{
    int64_t ts = sremrt_event_ts(r->schema, event);
    if (r->released && ts < r->last)
        return SREMRT_REORDER_LATE;
    if (r->nfree == 0 && grow(r) != 0) {
        r->force = 1;
        return SREMRT_REORDER_FULL;
    }
    sremrt_reorder_key k = {ts, r->seq++, line, r->free_slots[--r->nfree]};
    memcpy(r->events + k.slot * r->schema->event_size, event, r->schema->event_size);
    r->heap[r->n++] = k;
    sift_up(r, r->n - 1);
    if (r->n > r->peak)
        r->peak = r->n;
    if (!r->arrived || ts > r->max_ts)
        r->max_ts = ts;
    r->arrived = 1;
    return SREMRT_REORDER_HELD;
}

/* The earliest held event is due: its timestamp more than D before the
 * latest arrived one (as unsigned: no overflow), the end, or no room. */
static int due(const sremrt_reorder *r)
{
    if (r->n == 0)
        return 0;
    return r->ending || r->force || (uint64_t)r->max_ts - (uint64_t)r->heap[0].ts > (uint64_t)r->delay;
}

int sremrt_reorder_next(sremrt_reorder *r, void *event, int64_t *line)
{
    if (!due(r))
        return 0;
    if (r->force) {
        r->early++;
        r->force = 0;
    }
    sremrt_reorder_key k = r->heap[0];
    memcpy(event, r->events + k.slot * r->schema->event_size, r->schema->event_size);
    if (line)
        *line = k.line;
    r->free_slots[r->nfree++] = k.slot;
    r->heap[0] = r->heap[--r->n];
    if (r->n)
        sift_down(r, 0);
    r->last = k.ts;
    r->released = 1;
    return 1;
}

void sremrt_reorder_end(sremrt_reorder *r)
{
    r->ending = 1;
}
