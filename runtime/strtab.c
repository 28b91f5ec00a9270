/* strtab.c: strings -> ids and back (strtab.h), a hash table of ids over
 * segments that never move. */
#include "sremrt/strtab.h"

#include <string.h>

enum { SEG0 = 64 };

/* Buckets to start with: for a table with a max, enough that it never
 * rehashes (count * 2 < nbuckets, one always free). */
static size_t buckets_for(int64_t max)
{
    size_t n = 64;
    while (max > 0 && (uint64_t)n < 2 * (uint64_t)max + 2)
        n *= 2;
    return n;
}

size_t sremrt_strtab_bytes(int64_t max, size_t text)
{
    size_t bytes = buckets_for(max) * sizeof(int64_t) + SREMRT_MAX_ALIGN, have = 0;
    for (int k = 0; have < (size_t)max && k < SREMRT_STRTAB_SEGS; k++) {
        size_t n = (size_t)SEG0 << k;
        bytes += n * (sizeof(const char *) + sizeof(size_t)) + 2 * SREMRT_MAX_ALIGN;
        have += n;
    }
    return bytes + text;
}

int sremrt_strtab_init(sremrt_strtab *t, const sremrt_alloc *a, int64_t max)
{
    memset(t, 0, sizeof *t);
    t->alloc = *a;
    t->max = max;
    t->nbuckets = buckets_for(max);
    t->buckets = sremrt_alloc_grow(a, NULL, sizeof *t->buckets, 0, 0, t->nbuckets);
    return t->buckets ? 0 : -1;
}

/* Segment of an id and its first id. */
static int seg_of(int64_t id, int64_t *first)
{
    int k = 0;
    int64_t base = 0, size = SEG0;
    while (id >= base + size) {
        base += size;
        size *= 2;
        k++;
    }
    *first = base;
    return k;
}

static size_t seg_size(int k) { return (size_t)SEG0 << k; }

void sremrt_strtab_free(sremrt_strtab *t)
{
    int64_t id;
    for (id = 0; id < t->count; id++) {
        size_t len;
        const char *s = sremrt_strtab_get(t, id, &len);
        sremrt_alloc_free(&t->alloc, (void *)s, len + 1);
    }
    for (int k = 0; k < SREMRT_STRTAB_SEGS; k++) {
        sremrt_alloc_free(&t->alloc, (void *)t->seg[k], seg_size(k) * sizeof *t->seg[k]);
        sremrt_alloc_free(&t->alloc, t->lens[k], seg_size(k) * sizeof *t->lens[k]);
    }
    sremrt_alloc_free(&t->alloc, t->buckets, t->nbuckets * sizeof *t->buckets);
    memset(t, 0, sizeof *t);
}

/* FNV-1a: strings are short (names, addresses); any decent mix will do. */
static uint64_t hash(const char *s, size_t len)
{
    uint64_t h = 14695981039346656037u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211u;
    return h ^ (h >> 29);
}

const char *sremrt_strtab_get(const sremrt_strtab *t, int64_t id, size_t *len)
{
    int64_t first;
    if (id < 0 || id >= t->count)
        return NULL;
    int k = seg_of(id, &first);
    if (len)
        *len = t->lens[k][id - first];
    return t->seg[k][id - first];
}

/* Doubles the buckets when they are half full; -1 when refused. */
static int rehash(sremrt_strtab *t)
{
    size_t n = t->nbuckets * 2;
    int64_t *b = sremrt_alloc_grow(&t->alloc, NULL, sizeof *b, 0, 0, n);
    if (!b)
        return -1;
    for (int64_t id = 0; id < t->count; id++) {
        size_t len;
        const char *s = sremrt_strtab_get(t, id, &len);
        size_t i = (size_t)hash(s, len) & (n - 1);
        while (b[i])
            i = (i + 1) & (n - 1);
        b[i] = id + 1;
    }
    sremrt_alloc_free(&t->alloc, t->buckets, t->nbuckets * sizeof *t->buckets);
    t->buckets = b;
    t->nbuckets = n;
    return 0;
}

/* Stores a copy of s as id t->count; -1 when memory is refused. */
static int store(sremrt_strtab *t, const char *s, size_t len)
{
    int64_t first;
    int k = seg_of(t->count, &first);
    if (k >= SREMRT_STRTAB_SEGS)
        return -1;
    if (!t->seg[k]) {
        const char **seg = sremrt_alloc_grow(&t->alloc, NULL, sizeof *seg, 0, 0, seg_size(k));
        size_t *lens = seg ? sremrt_alloc_grow(&t->alloc, NULL, sizeof *lens, 0, 0, seg_size(k)) : NULL;
        if (!lens) {
            sremrt_alloc_free(&t->alloc, (void *)seg, seg_size(k) * sizeof *seg);
            return -1;
        }
        t->seg[k] = seg;
        t->lens[k] = lens;
    }
    char *copy = sremrt_alloc_get(&t->alloc, len + 1, 1);
    if (!copy)
        return -1;
    memcpy(copy, s, len);
    copy[len] = '\0';
    t->seg[k][t->count - first] = copy;
    t->lens[k][t->count - first] = len;
    t->count++;
    return 0;
}

int64_t sremrt_strtab_intern(sremrt_strtab *t, const char *s, size_t len)
{
    size_t mask = t->nbuckets - 1, i = (size_t)hash(s, len) & mask;
    for (; t->buckets[i]; i = (i + 1) & mask) {
        size_t n;
        const char *have = sremrt_strtab_get(t, t->buckets[i] - 1, &n);
        if (n == len && memcmp(have, s, len) == 0)
            return t->buckets[i] - 1;
    }
    /* count + 2 <= nbuckets keeps a bucket empty, so probing ends even
       when a rehash was refused */
    if ((t->max > 0 && t->count >= t->max) || (size_t)t->count + 2 > t->nbuckets || store(t, s, len) != 0) {
        t->overflows++;
        return -1;
    }
    t->buckets[i] = t->count;   /* the new id + 1 */
    if ((size_t)t->count * 2 >= t->nbuckets)
        (void)rehash(t);        /* refused: it is tried again next time */
    return t->count - 1;
}
