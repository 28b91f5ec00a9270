/* alloc.h: the allocator hook runtime structures take their memory from,
 * and a bump arena over a static buffer that implements it for firmware. */
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

#ifdef __cplusplus
}
#endif

#endif
