/* keymap.h: the partition table: int64 key (an int, enum index, bool or
 * string id attribute), or a tuple of 2..4 of them (a composite key),
 * -> dense slot index 0..capacity-1; grows on request. */
#ifndef SREMRT_KEYMAP_H
#define SREMRT_KEYMAP_H

#include <stddef.h>
#include <stdint.h>

#include "alloc.h"
#include "schema.h"
#include "sink.h"
#include "strtab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Open addressing with linear probing over a power-of-two bucket array at
 * most half full; slots are handed out in order of first appearance, so
 * per-partition state can live in plain arrays indexed by slot. */
typedef struct sremrt_keymap {
    int32_t *buckets;     /* slot + 1 per bucket; 0 = empty */
    int64_t *keys;        /* key of each slot, in order of first appearance
                             (a tuple: `width` int64s per slot) */
    int32_t width;        /* int64s per key: 1, or a composite key's 2..4 */
    uint32_t mask;        /* bucket count - 1 */
    int32_t count;        /* slots in use */
    int32_t capacity;     /* slots available */
    uint64_t overflows;   /* gets of a new key that found the map full (the
                             caller may then grow it and try again) */
    sremrt_alloc alloc;   /* where the memory came from; alloc NULL: caller's buffer */
    void *mem;            /* the memory block */
    size_t bytes;         /* its size */
} sremrt_keymap;

/* Largest capacity accepted. */
#define SREMRT_KEYMAP_MAX (1 << 28)
/* Most int64s in a composite key (docs/language.md 3.3). */
#define SREMRT_KEY_MAX_WIDTH 4

/* Bytes a caller buffer needs for a map of `capacity` keys (any alignment). */
size_t sremrt_keymap_bytes(int32_t capacity);

/* Both return 0, or -1 if capacity is out of 0..SREMRT_KEYMAP_MAX or the
 * memory is missing or too small (the map is then empty, capacity 0). */
int sremrt_keymap_init_buf(sremrt_keymap *km, int32_t capacity, void *buf, size_t bytes);
int sremrt_keymap_init(sremrt_keymap *km, int32_t capacity, const sremrt_alloc *a);

/* A table of composite keys, tuples of width (2..SREMRT_KEY_MAX_WIDTH)
 * int64s; width 1 is the map above. The _tuple calls below work on
 * either kind; the int64 calls only on width 1. */
size_t sremrt_keymap_tuple_bytes(int32_t capacity, int32_t width);
int sremrt_keymap_init_tuple(sremrt_keymap *km, int32_t capacity, int32_t width, const sremrt_alloc *a);

/* Slot of the tuple key[0..width), inserting it if absent; as
 * sremrt_keymap_get. */
int32_t sremrt_keymap_get_tuple(sremrt_keymap *km, const int64_t *key, int *inserted);

/* The tuple stored in a slot (0 <= slot < count): width int64s. */
const int64_t *sremrt_keymap_tuple(const sremrt_keymap *km, int32_t slot);

/* Gives memory back to the allocator it came from (not a caller buffer). */
void sremrt_keymap_free(sremrt_keymap *km);

/* Forgets every key; keeps the overflow count. */
void sremrt_keymap_clear(sremrt_keymap *km);

/* Slot of key, or -1 if absent. */
int32_t sremrt_keymap_find(const sremrt_keymap *km, int64_t key);

/* Slot of key, inserting it if absent (*inserted, if not NULL, says so);
 * -1 when the key is new and the map is full (counted in overflows): grow
 * it (sremrt_keymap_grow) and call again, or drop the key. */
int32_t sremrt_keymap_get(sremrt_keymap *km, int64_t key, int *inserted);

/* The capacity to grow a table of `capacity` slots to, doubling (at least
 * 8) up to limit (0 or less: SREMRT_KEYMAP_MAX); 0 when it is there. */
int32_t sremrt_keymap_next_capacity(int32_t capacity, int32_t limit);

/* Moves the table into a block of `capacity` slots from its allocator,
 * keeping every key's slot (per-slot arrays stay valid), and gives the
 * old block back: 0, or -1 (the table unchanged) if the memory came from
 * a caller buffer, capacity is not larger, or the allocator refuses. */
int sremrt_keymap_grow(sremrt_keymap *km, int32_t capacity);

/* Key stored in a slot (0 <= slot < count). */
int64_t sremrt_keymap_key(const sremrt_keymap *km, int32_t slot);

/* The shard 0..n-1 (n >= 1) that owns a partition key when a stream's
 * keys are spread over n matchers (NAME_set_shard): every bit of the key
 * mixed into the high ones (a 64-bit finalizer), scaled to n, so that
 * consecutive keys spread evenly. */
static inline int32_t sremrt_key_shard(int64_t key, int32_t n)
{
    uint64_t h = (uint64_t)key;
    h ^= h >> 33;
    h *= UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 33;
    h *= UINT64_C(0xc4ceb9fe1a85ec53);
    h ^= h >> 33;
    return (int32_t)(((h >> 32) * (uint64_t)n) >> 32);
}

/* The shard of a composite key key[0..n): its components folded into
 * one int64, then sremrt_key_shard. */
static inline int32_t sremrt_tuple_shard(const int64_t *key, int n, int32_t nshards)
{
    uint64_t h = 0;
    for (int i = 0; i < n; i++)
        h = (h ^ (uint64_t)key[i]) * UINT64_C(0x9e3779b97f4a7c15);
    return sremrt_key_shard((int64_t)h, nshards);
}

/* A composite key's values as records show them (docs/language.md 3.3),
 * a JSON array: ints as numbers, strings (their text in st; an id not in
 * st as its number) and enum values as JSON strings, bools as true/false:
 * ["alice","10.0.0.7"], [42,"T"]. */
void sremrt_sink_key_tuple(sremrt_sink *s, const sremrt_attr *const *attrs, const int64_t *key, int n,
                           const sremrt_strtab *st);

/* Key text as records show it (docs/language.md 3.3): decimal for int, the
 * value's name for enum (decimal if out of range), true/false for bool.
 * Returns the text's length; writes at most cap bytes, NUL included. */
size_t sremrt_key_format(char *buf, size_t cap, const sremrt_attr *a, int64_t key);
void sremrt_sink_key(sremrt_sink *s, const sremrt_attr *a, int64_t key);

/* The key's text for a record: a string attribute's key is its string in
 * st (no copy, no length limit); anything else is formatted into buf. */
const char *sremrt_key_text(char *buf, size_t cap, const sremrt_attr *a, int64_t key,
                            const sremrt_strtab *st);

#ifdef __cplusplus
}
#endif

#endif
