/* keymap.c: partition keys -> dense slots in an open-addressing table
 * whose memory comes from a hook (and can grow through it) or a caller
 * buffer (fixed). */
#include "sremrt/keymap.h"

#include <string.h>

static uint32_t bucket_count(int32_t capacity)
{
    uint32_t n = 2;
    while (n < 2u * (uint32_t)capacity)
        n <<= 1;
    return n;
}

/* Layout: keys (width int64s each) then buckets (int32), plus slack to align keys. */
static size_t layout_bytes(int32_t capacity, int32_t width)
{
    return (size_t)capacity * (size_t)width * sizeof(int64_t) + bucket_count(capacity) * sizeof(int32_t);
}

size_t sremrt_keymap_tuple_bytes(int32_t capacity, int32_t width)
{
    if (capacity < 0 || capacity > SREMRT_KEYMAP_MAX || width < 1 || width > SREMRT_KEY_MAX_WIDTH)
        return 0;
    return layout_bytes(capacity, width) + sizeof(int64_t) - 1;
}

size_t sremrt_keymap_bytes(int32_t capacity)
{
    return sremrt_keymap_tuple_bytes(capacity, 1);
}

static void set_empty(sremrt_keymap *km)
{
    memset(km, 0, sizeof *km);
}

static int place(sremrt_keymap *km, int32_t capacity, int32_t width, void *mem, size_t bytes)
{
    uintptr_t addr = (uintptr_t)mem;
    size_t pad = (size_t)((sizeof(int64_t) - addr % sizeof(int64_t)) % sizeof(int64_t));
    unsigned char *p;
    if (!mem || bytes < pad || bytes - pad < layout_bytes(capacity, width))
        return -1;
    p = (unsigned char *)mem + pad;
    km->keys = (int64_t *)(void *)p;
    km->buckets = (int32_t *)(void *)(p + (size_t)capacity * (size_t)width * sizeof(int64_t));
    km->width = width;
    km->mask = bucket_count(capacity) - 1;
    km->capacity = capacity;
    km->mem = mem;
    km->bytes = bytes;
    sremrt_keymap_clear(km);
    return 0;
}

int sremrt_keymap_init_buf(sremrt_keymap *km, int32_t capacity, void *buf, size_t bytes)
{
    set_empty(km);
    if (capacity < 0 || capacity > SREMRT_KEYMAP_MAX || place(km, capacity, 1, buf, bytes) != 0) {
        set_empty(km);
        return -1;
    }
    return 0;
}

int sremrt_keymap_init(sremrt_keymap *km, int32_t capacity, const sremrt_alloc *a)
{
    return sremrt_keymap_init_tuple(km, capacity, 1, a);
}

int sremrt_keymap_init_tuple(sremrt_keymap *km, int32_t capacity, int32_t width, const sremrt_alloc *a)
{
    size_t bytes = sremrt_keymap_tuple_bytes(capacity, width);
    void *mem;
    set_empty(km);
    if (bytes == 0)
        return -1;
    mem = sremrt_alloc_get(a, bytes, sizeof(int64_t));
    if (!mem)
        return -1;
    place(km, capacity, width, mem, bytes);
    km->alloc = *a;
    return 0;
}

void sremrt_keymap_free(sremrt_keymap *km)
{
    if (km->alloc.alloc)
        sremrt_alloc_free(&km->alloc, km->mem, km->bytes);
    set_empty(km);
}

void sremrt_keymap_clear(sremrt_keymap *km)
{
    if (km->buckets)
        memset(km->buckets, 0, ((size_t)km->mask + 1) * sizeof(int32_t));
    km->count = 0;
}

/* splitmix64's finalizer: consecutive ids spread over the buckets. */
static uint32_t hash(int64_t key)
{
    uint64_t h = (uint64_t)key;
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9u;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebu;
    h ^= h >> 31;
    return (uint32_t)h;
}

/* Bucket holding key, or the empty bucket where it would go. */
static uint32_t probe(const sremrt_keymap *km, int64_t key)
{
    uint32_t b = hash(key) & km->mask;
    while (km->buckets[b] != 0 && km->keys[km->buckets[b] - 1] != key)
        b = (b + 1) & km->mask;
    return b;
}

int32_t sremrt_keymap_find(const sremrt_keymap *km, int64_t key)
{
    if (!km->buckets)
        return -1;
    return km->buckets[probe(km, key)] - 1;
}

/* The slot in bucket b (found by a probe for key, of width int64s: a
 * constant 1 from sremrt_keymap_get, so the hot single-key path inlines
 * to a store), or the key's new slot there; -1, counted, when it is new
 * and the map is full. */
static inline int32_t take(sremrt_keymap *km, uint32_t b, const int64_t *key, int32_t width, int *inserted)
{
    if (km->buckets[b] != 0)
        return km->buckets[b] - 1;
    if (km->count == km->capacity) {
        km->overflows++;
        return -1;
    }
    if (width == 1)
        km->keys[km->count] = key[0];
    else
        memcpy(km->keys + (size_t)km->count * (size_t)width, key, (size_t)width * sizeof(int64_t));
    km->buckets[b] = ++km->count;
    if (inserted)
        *inserted = 1;
    return km->count - 1;
}

/* No table (capacity 0, or init failed): every get is an overflow. */
static inline int32_t no_table(sremrt_keymap *km, int *inserted)
{
    if (inserted)
        *inserted = 0;
    if (km->buckets)
        return 0;
    km->overflows++;
    return -1;
}

int32_t sremrt_keymap_get(sremrt_keymap *km, int64_t key, int *inserted)
{
    if (no_table(km, inserted) != 0)
        return -1;
    return take(km, probe(km, key), &key, 1, inserted);
}

/* ---- composite keys: tuples of width int64s ---- */

static const int64_t *tuple_at(const sremrt_keymap *km, int32_t slot)
{
    return km->keys + (size_t)slot * (size_t)km->width;
}

static uint32_t hash_tuple(const int64_t *key, int32_t width)
{
    uint64_t h = 0;
    for (int32_t i = 0; i < width; i++)
        h = (h ^ (uint64_t)key[i]) * 0x9e3779b97f4a7c15u;
    return hash((int64_t)h);
}

static int same_tuple(const int64_t *a, const int64_t *b, int32_t width)
{
    for (int32_t i = 0; i < width; i++)
        if (a[i] != b[i])
            return 0;
    return 1;
}

/* Bucket holding the tuple, or the empty bucket where it would go. */
static uint32_t probe_tuple(const sremrt_keymap *km, const int64_t *key)
{
    uint32_t b = hash_tuple(key, km->width) & km->mask;
    while (km->buckets[b] != 0 && !same_tuple(tuple_at(km, km->buckets[b] - 1), key, km->width))
        b = (b + 1) & km->mask;
    return b;
}

int32_t sremrt_keymap_get_tuple(sremrt_keymap *km, const int64_t *key, int *inserted)
{
    if (km->width == 1)
        return sremrt_keymap_get(km, key[0], inserted);
    if (no_table(km, inserted) != 0)
        return -1;
    return take(km, probe_tuple(km, key), key, km->width, inserted);
}

const int64_t *sremrt_keymap_tuple(const sremrt_keymap *km, int32_t slot)
{
    return tuple_at(km, slot);
}

int32_t sremrt_keymap_next_capacity(int32_t capacity, int32_t limit)
{
    int32_t top = limit > 0 && limit < SREMRT_KEYMAP_MAX ? limit : SREMRT_KEYMAP_MAX;
    if (capacity >= top)
        return 0;
    if (capacity < 8)
        return 8 < top ? 8 : top;
    return capacity <= top / 2 ? capacity * 2 : top;
}

/* Rehashing moves no slot: keys[] is copied as is, buckets rebuilt. */
int sremrt_keymap_grow(sremrt_keymap *km, int32_t capacity)
{
    sremrt_keymap big;
    int32_t i;
    if (!km->alloc.alloc || capacity <= km->capacity ||
        sremrt_keymap_init_tuple(&big, capacity, km->width, &km->alloc) != 0)
        return -1;
    if (km->count > 0)
        memcpy(big.keys, km->keys, (size_t)km->count * (size_t)km->width * sizeof(int64_t));
    for (i = 0; i < km->count; i++)
        big.buckets[km->width == 1 ? probe(&big, km->keys[i]) : probe_tuple(&big, tuple_at(km, i))] = i + 1;
    big.count = km->count;
    big.overflows = km->overflows;
    sremrt_keymap_free(km);
    *km = big;
    return 0;
}

int64_t sremrt_keymap_key(const sremrt_keymap *km, int32_t slot)
{
    return km->keys[(size_t)slot * (size_t)km->width];
}

/* One value of a composite key, as put_key writes a single key but with
 * strings and enum values quoted (a JSON array's elements). */
static void sink_key_value(sremrt_sink *s, const sremrt_attr *a, int64_t v, const sremrt_strtab *st)
{
    const char *str = a->type == SREMRT_STRING && st ? sremrt_strtab_get(st, v, NULL) : NULL;
    if (str)
        sremrt_sink_json_str(s, str);
    else if (a->type == SREMRT_ENUM && v >= 0 && v < a->nvalues)
        sremrt_sink_json_str(s, a->values[v]);
    else
        sremrt_sink_key(s, a, v);
}

void sremrt_sink_key_tuple(sremrt_sink *s, const sremrt_attr *const *attrs, const int64_t *key, int n,
                           const sremrt_strtab *st)
{
    sremrt_sink_putc(s, '[');
    for (int i = 0; i < n; i++) {
        if (i)
            sremrt_sink_putc(s, ',');
        sink_key_value(s, attrs[i], key[i], st);
    }
    sremrt_sink_putc(s, ']');
}

void sremrt_sink_key(sremrt_sink *s, const sremrt_attr *a, int64_t key)
{
    if (a->type == SREMRT_BOOL)
        sremrt_sink_puts(s, key ? "true" : "false");
    else if (a->type == SREMRT_ENUM && key >= 0 && key < a->nvalues)
        sremrt_sink_puts(s, a->values[key]);
    else
        sremrt_sink_i64(s, key);
}

const char *sremrt_key_text(char *buf, size_t cap, const sremrt_attr *a, int64_t key,
                            const sremrt_strtab *st)
{
    const char *s = a->type == SREMRT_STRING && st ? sremrt_strtab_get(st, key, NULL) : NULL;
    if (s)
        return s;
    sremrt_key_format(buf, cap, a, key);
    return buf;
}

/* Any key through the sink: names, negative numbers, a short buffer. */
static size_t key_format_sink(char *buf, size_t cap, const sremrt_attr *a, int64_t key)
{
    sremrt_sink s;
    sremrt_sink_init_buf(&s, buf, cap);
    sremrt_sink_key(&s, a, key);
    return sremrt_sink_end(&s);
}

size_t sremrt_key_format(char *buf, size_t cap, const sremrt_attr *a, int64_t key)
{
    if (a->type == SREMRT_BOOL || a->type == SREMRT_ENUM || key < 0 || cap <= 20)
        return key_format_sink(buf, cap, a, key);
    /* the common key, a non-negative integer, written directly: every match
       and forecast record formats its key. Its digits are counted first
       and written in place, last first, with no scratch copy to reverse */
    uint64_t v = (uint64_t)key;
    size_t n = 1;
    for (uint64_t t = v; t >= 10; t /= 10)
        n++;
    buf[n] = '\0';
    for (size_t k = n; k-- > 0; v /= 10)
        buf[k] = (char)('0' + v % 10);
    return n;
}
