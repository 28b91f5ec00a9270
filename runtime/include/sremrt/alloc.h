/* alloc.h: the allocator hook runtime structures take their memory from,
 * a bump arena over a static buffer that implements it for firmware, and
 * a wrapper that caps the bytes another hook hands out. */
#ifndef SREMRT_ALLOC_H
#define SREMRT_ALLOC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* alloc returns size bytes aligned to align (a power of two; 0 means any
 * C type's alignment), or NULL; free takes back what alloc gave, with its
 * size. Both get ctx. The hook is a value: copy it freely. */
typedef struct sremrt_alloc {
    void *(*alloc)(void *ctx, size_t size, size_t align);
    void (*free)(void *ctx, void *p, size_t size);
    void *ctx;
} sremrt_alloc;

/* Largest alignment a C99 object type needs here (what align 0 means). */
#define SREMRT_MAX_ALIGN 16

/* Calls through a hook; sremrt_alloc_free ignores NULL p. */
void *sremrt_alloc_get(const sremrt_alloc *a, size_t size, size_t align);
void sremrt_alloc_free(const sremrt_alloc *a, void *p, size_t size);

/* Moves the first `used` elements of p (a block of `cap` elements of
 * `elem` bytes from a, or NULL) into a new block of `want` elements, the
 * rest zeroed, and gives p back: the new block, or NULL (p unchanged)
 * when a refuses or the size overflows. */
void *sremrt_alloc_grow(const sremrt_alloc *a, void *p, size_t elem, size_t used, size_t cap, size_t want);

/* The host's malloc/free (host.c; firmware builds leave it out).
 * align above what malloc guarantees is refused (returns NULL). */
sremrt_alloc sremrt_alloc_malloc(void);

/* Bump arena over a caller's buffer: no per-block headers, nothing freed
 * but the most recent block; a request that does not fit returns NULL and
 * is counted, so a firmware build can report it instead of crashing. */
typedef struct sremrt_arena {
    unsigned char *base;   /* caller's buffer */
    size_t cap;            /* its size */
    size_t used;           /* bytes handed out, alignment padding included */
    size_t peak;           /* largest `used` seen */
    size_t failures;       /* requests refused for lack of space */
} sremrt_arena;

void sremrt_arena_init(sremrt_arena *ar, void *buf, size_t cap);
void *sremrt_arena_alloc(sremrt_arena *ar, size_t size, size_t align);

/* Takes back p if it is the most recent block (else does nothing). */
void sremrt_arena_free(sremrt_arena *ar, void *p, size_t size);

/* Forgets every block; keeps peak and failures. */
void sremrt_arena_reset(sremrt_arena *ar);

/* The arena as an allocator hook (ctx = ar). */
sremrt_alloc sremrt_arena_hook(sremrt_arena *ar);

/* A hook over another that refuses any block taking the bytes it has
 * handed out past limit (0: no limit; the memory of a program's
 * --max-memory); blocks freed are given back to the count. */
typedef struct sremrt_alloc_limit {
    sremrt_alloc inner;    /* where the memory comes from */
    size_t limit;          /* most bytes out at once; 0: no limit */
    size_t used;           /* bytes out now */
    size_t peak;           /* largest `used` seen */
    size_t refused;        /* requests refused (over the limit, or by inner) */
} sremrt_alloc_limit;

void sremrt_alloc_limit_init(sremrt_alloc_limit *l, const sremrt_alloc *inner, size_t limit);

/* The wrapper as an allocator hook (ctx = l). */
sremrt_alloc sremrt_alloc_limit_hook(sremrt_alloc_limit *l);

#ifdef __cplusplus
}
#endif

#endif
