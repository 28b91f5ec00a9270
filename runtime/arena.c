/* arena.c: a caller's static buffer -> aligned blocks handed out in order,
 * the allocator hook for builds without malloc; growing a block; a hook
 * that caps the bytes another hands out. */
#include "sremrt/alloc.h"

#include <stdint.h>
#include <string.h>

void *sremrt_alloc_get(const sremrt_alloc *a, size_t size, size_t align)
{
    return a && a->alloc ? a->alloc(a->ctx, size, align) : NULL;
}

void sremrt_alloc_free(const sremrt_alloc *a, void *p, size_t size)
{
    if (a && a->free && p)
        a->free(a->ctx, p, size);
}

void *sremrt_alloc_grow(const sremrt_alloc *a, void *p, size_t elem, size_t used, size_t cap, size_t want)
{
    unsigned char *q;
    if (elem == 0 || want > (size_t)-1 / elem || used > cap || used > want)
        return NULL;
    q = (unsigned char *)sremrt_alloc_get(a, want * elem, 0);
    if (!q)
        return NULL;
    if (used)
        memcpy(q, p, used * elem);
    memset(q + used * elem, 0, (want - used) * elem);
    sremrt_alloc_free(a, p, cap * elem);
    return q;
}

void sremrt_arena_init(sremrt_arena *ar, void *buf, size_t cap)
{
    ar->base = (unsigned char *)buf;
    ar->cap = buf ? cap : 0;
    ar->used = 0;
    ar->peak = 0;
    ar->failures = 0;
}

void *sremrt_arena_alloc(sremrt_arena *ar, size_t size, size_t align)
{
    size_t pad, at;
    if (align == 0)
        align = SREMRT_MAX_ALIGN;
    if ((align & (align - 1)) != 0 || !ar->base) {
        ar->failures++;
        return NULL;
    }
    /* Align the address, not the offset: the buffer itself may be unaligned. */
    pad = (size_t)((align - ((uintptr_t)(ar->base + ar->used) & (align - 1))) & (align - 1));
    if (pad > ar->cap - ar->used || size > ar->cap - ar->used - pad) {
        ar->failures++;
        return NULL;
    }
    at = ar->used + pad;
    ar->used = at + size;
    if (ar->used > ar->peak)
        ar->peak = ar->used;
    return ar->base + at;
}

/* Compares addresses as integers: p may point anywhere. */
void sremrt_arena_free(sremrt_arena *ar, void *p, size_t size)
{
    uintptr_t q = (uintptr_t)p, b = (uintptr_t)ar->base;
    if (p && ar->base && q >= b && q - b <= ar->used && ar->used - (q - b) == size)
        ar->used = (size_t)(q - b);
}

void sremrt_arena_reset(sremrt_arena *ar)
{
    ar->used = 0;
}

static void *hook_alloc(void *ctx, size_t size, size_t align)
{
    return sremrt_arena_alloc((sremrt_arena *)ctx, size, align);
}

static void hook_free(void *ctx, void *p, size_t size)
{
    sremrt_arena_free((sremrt_arena *)ctx, p, size);
}

static sremrt_alloc make_hook(void *(*alloc)(void *, size_t, size_t), void (*release)(void *, void *, size_t),
                              void *ctx)
{
    sremrt_alloc a;
    a.alloc = alloc;
    a.free = release;
    a.ctx = ctx;
    return a;
}

sremrt_alloc sremrt_arena_hook(sremrt_arena *ar)
{
    return make_hook(hook_alloc, hook_free, ar);
}

/* ---- the limiting wrapper --------------------------------------------------------- */

void sremrt_alloc_limit_init(sremrt_alloc_limit *l, const sremrt_alloc *inner, size_t limit)
{
    l->inner = *inner;
    l->limit = limit;
    l->used = 0;
    l->peak = 0;
    l->refused = 0;
}

static void *limit_alloc(void *ctx, size_t size, size_t align)
{
    sremrt_alloc_limit *l = (sremrt_alloc_limit *)ctx;
    void *p = NULL;
    if (!l->limit || (l->used <= l->limit && size <= l->limit - l->used))
        p = sremrt_alloc_get(&l->inner, size, align);
    if (!p) {
        l->refused++;
        return NULL;
    }
    l->used += size;
    if (l->used > l->peak)
        l->peak = l->used;
    return p;
}

static void limit_free(void *ctx, void *p, size_t size)
{
    sremrt_alloc_limit *l = (sremrt_alloc_limit *)ctx;
    if (!p)
        return;
    sremrt_alloc_free(&l->inner, p, size);
    l->used -= size <= l->used ? size : l->used;
}

sremrt_alloc sremrt_alloc_limit_hook(sremrt_alloc_limit *l)
{
    return make_hook(limit_alloc, limit_free, l);
}
