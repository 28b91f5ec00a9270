/* arena.c: a caller's static buffer -> aligned blocks handed out in order,
 * the allocator hook for builds without malloc. */
#include "sremrt/alloc.h"

#include <stdint.h>

void *sremrt_alloc_get(const sremrt_alloc *a, size_t size, size_t align)
{
    return a && a->alloc ? a->alloc(a->ctx, size, align) : NULL;
}

void sremrt_alloc_free(const sremrt_alloc *a, void *p, size_t size)
{
    if (a && a->free && p)
        a->free(a->ctx, p, size);
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

sremrt_alloc sremrt_arena_hook(sremrt_arena *ar)
{
    sremrt_alloc a;
    a.alloc = hook_alloc;
    a.free = hook_free;
    a.ctx = ar;
    return a;
}
