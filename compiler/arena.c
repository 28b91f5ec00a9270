/* arena.c: bump allocation in large blocks; nothing is freed until
 * arena_free, so AST and IR nodes can point at each other freely. */
#include "arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ArenaBlock {
    ArenaBlock *next;
    size_t      used, size;
    max_align_t data[];
};

enum { ARENA_BLOCK = 64 * 1024 };

void arena_init(Arena *a) { a->head = NULL; }

void arena_free(Arena *a)
{
    ArenaBlock *b = a->head;
    while (b) {
        ArenaBlock *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
}

void *arena_alloc(Arena *a, size_t size)
{
    size_t align = sizeof(max_align_t);
    size = (size + align - 1) / align * align;
    if (size == 0)
        size = align;
    ArenaBlock *b = a->head;
    if (!b || b->size - b->used < size) {
        size_t cap = size > ARENA_BLOCK ? size : ARENA_BLOCK;
        b = malloc(sizeof *b + cap);
        if (!b) {
            fputs("sremc: out of memory\n", stderr);
            abort();
        }
        b->next = a->head;
        b->used = 0;
        b->size = cap;
        a->head = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += size;
    memset(p, 0, size);
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *arena_strdup(Arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

void *arena_push(Arena *a, void *items_ptr, int *n, int *cap, size_t elem)
{
    char **items = items_ptr;
    if (*n == *cap) {
        int ncap = *cap ? *cap * 2 : 4;
        char *grown = arena_alloc(a, (size_t)ncap * elem);
        if (*n)
            memcpy(grown, *items, (size_t)*n * elem);
        *items = grown;
        *cap = ncap;
    }
    char *slot = *items + (size_t)(*n)++ * elem;
    memset(slot, 0, elem);
    return slot;
}
