/* arena.h: bump allocator for compiler objects, freed in one go per
 * compilation, plus a growable array built on it. */
#ifndef SREMC_ARENA_H
#define SREMC_ARENA_H

#include <stddef.h>

typedef struct ArenaBlock ArenaBlock;

typedef struct Arena {
    ArenaBlock *head;   /* newest block; older ones chained behind it */
} Arena;

void  arena_init(Arena *a);
void  arena_free(Arena *a);
void *arena_alloc(Arena *a, size_t size);           /* zeroed, aligned */
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_strdup(Arena *a, const char *s);

/* Appends one element of size elem to *items (count *n, capacity *cap),
 * growing it in the arena; returns the new slot, zeroed. */
void *arena_push(Arena *a, void *items_ptr, int *n, int *cap, size_t elem);

#endif
