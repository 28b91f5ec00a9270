/* intern.c: an open-addressing hash table over byte strings, all memory
 * in one arena (nothing to free; a doubling leaves the old slots behind). */
#include "intern.h"

#include <stdint.h>
#include <string.h>

void intern_init(Intern *t, Arena *arena)
{
    memset(t, 0, sizeof *t);
    t->arena = arena;
}

/* FNV-1a: keys are short and this is not exposed to adversaries. */
static uint32_t hash_bytes(const void *key, size_t len)
{
    const unsigned char *p = key;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 16777619u;
    }
    return h;
}

static void slot_insert(Intern *t, int id)
{
    uint32_t mask = (uint32_t)t->nslots - 1;
    uint32_t h = hash_bytes(t->keys[id].bytes, t->keys[id].len) & mask;
    while (t->slots[h])
        h = (h + 1) & mask;
    t->slots[h] = id + 1;
}

/* Load factor at most 1/2 keeps probe sequences short. */
static void grow_slots(Intern *t)
{
    if (2 * (t->n + 1) <= t->nslots)
        return;
    t->nslots = t->nslots ? 2 * t->nslots : 64;
    t->slots = arena_alloc(t->arena, (size_t)t->nslots * sizeof *t->slots);
    for (int id = 0; id < t->n; id++)
        slot_insert(t, id);
}

int intern_get(const Intern *t, const void *key, size_t len)
{
    if (!t->nslots)
        return -1;
    uint32_t mask = (uint32_t)t->nslots - 1;
    for (uint32_t h = hash_bytes(key, len) & mask; t->slots[h]; h = (h + 1) & mask) {
        const InternKey *k = &t->keys[t->slots[h] - 1];
        if (k->len == len && (len == 0 || memcmp(k->bytes, key, len) == 0))
            return t->slots[h] - 1;
    }
    return -1;
}

int intern_put(Intern *t, const void *key, size_t len, bool *added)
{
    int id = intern_get(t, key, len);
    if (added)
        *added = id < 0;
    if (id >= 0)
        return id;
    grow_slots(t); /* room for the key about to be added */
    void *copy = arena_alloc(t->arena, len ? len : 1);
    if (len)
        memcpy(copy, key, len);
    InternKey *k = arena_push(t->arena, &t->keys, &t->n, &t->cap, sizeof *k);
    k->bytes = copy;
    k->len = len;
    id = t->n - 1;
    slot_insert(t, id);
    return id;
}
