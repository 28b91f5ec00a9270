/* strtab.h: the string table of string attributes (docs/language.md 2):
 * each distinct string gets an id, 0, 1, 2, ... in the order first seen,
 * so comparing two strings is comparing two int64 ids. A generated
 * matcher's string literals are interned first, in the order of its
 * PREFIX_strings[], so the literal i has id i. */
#ifndef SREMRT_STRTAB_H
#define SREMRT_STRTAB_H

#include <stddef.h>
#include <stdint.h>

#include "alloc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Segment k holds the ids [64 (2^k - 1), 64 (2^(k+1) - 1)): a segment
 * never moves once made, so another thread may read the string of an id
 * it was handed (through a lock, or a queue) while this one interns. */
#define SREMRT_STRTAB_SEGS 32

typedef struct sremrt_strtab {
    sremrt_alloc alloc;
    int64_t count;          /* strings interned: ids 0 .. count-1 */
    int64_t max;            /* most strings; 0: as many as memory allows */
    int64_t overflows;      /* strings refused (max, or memory) */
    const char **seg[SREMRT_STRTAB_SEGS];   /* NUL-terminated bytes by id */
    size_t *lens[SREMRT_STRTAB_SEGS];       /* their lengths */
    int64_t *buckets;       /* open addressing: id + 1, 0 empty */
    size_t nbuckets;        /* a power of two, at least 2 count */
} sremrt_strtab;

/* An empty table taking memory from a; max as above (a table with a max
 * sizes its hash table once, for firmware arenas). 0, or -1. */
int sremrt_strtab_init(sremrt_strtab *t, const sremrt_alloc *a, int64_t max);

/* Bytes (alignment padding included) an arena needs for a table of max
 * strings (max > 0) holding `text` bytes of strings, NULs included. */
size_t sremrt_strtab_bytes(int64_t max, size_t text);
void sremrt_strtab_free(sremrt_strtab *t);

/* The id of s[0..len) (s need not be NUL-terminated), interned if new;
 * -1 (counted in overflows) when the table is full or memory refused. */
int64_t sremrt_strtab_intern(sremrt_strtab *t, const char *s, size_t len);

/* The string of an id, and its length; NULL for an id not interned. */
const char *sremrt_strtab_get(const sremrt_strtab *t, int64_t id, size_t *len);

#ifdef __cplusplus
}
#endif

#endif
