/* intern.h: byte strings (text keys, int vectors) -> dense ids, so equal
 * keys get one id; the determinizer's subset and atom tables use it. */
#ifndef SREMC_INTERN_H
#define SREMC_INTERN_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"

typedef struct InternKey {
    const void *bytes;    /* a copy in the table's arena */
    size_t      len;
} InternKey;

typedef struct Intern {
    Arena     *arena;     /* keys and tables */
    InternKey *keys;      /* [id] */
    int        n, cap;
    int       *slots;     /* open addressing: id + 1, 0 empty */
    int        nslots;    /* a power of two, at least twice n */
} Intern;

void intern_init(Intern *t, Arena *arena);

/* The id of key (len bytes), added when new (*added says so; may be NULL). */
int intern_put(Intern *t, const void *key, size_t len, bool *added);
/* The id of key, or -1. */
int intern_get(const Intern *t, const void *key, size_t len);

static inline const void *intern_bytes(const Intern *t, int id) { return t->keys[id].bytes; }
static inline size_t intern_len(const Intern *t, int id) { return t->keys[id].len; }

#endif
