/* occmap.c: OccMap lists as ring buffers, kept normalized (occmap.h):
 * local expiry of the first list, insertion into active layers only, and
 * removal of the leftmost occurrence (the heads). Every entry is popped at
 * most once, so the work is O(1) amortized per event plus O(layers) when
 * a head changes. */
#include "sremrt/occmap.h"

#include <string.h>

static size_t layout_bytes(int32_t layers, int32_t cap)
{
    return (size_t)layers * ((size_t)cap + 1u) * sizeof(sremrt_occ_entry) +
           2 * (size_t)layers * sizeof(int32_t);
}

size_t sremrt_occmap_bytes(int32_t layers, int32_t cap)
{
    if (layers < 1 || layers > SREMRT_OCCMAP_MAX_LAYERS || cap < 1 || cap > SREMRT_OCCMAP_MAX_CAP)
        return 0;
    return layout_bytes(layers, cap) + sizeof(int64_t) - 1;
}

static int bad_window(sremrt_episode_window window, int64_t width)
{
    if (window == SREMRT_EPISODE_EVENTS)
        return width < 1;
    return window != SREMRT_EPISODE_TIME || width < 0;
}

static int place(sremrt_occmap *m, int32_t layers, int32_t cap, sremrt_episode_window window,
                 int64_t width, void *mem, size_t bytes)
{
    uintptr_t addr = (uintptr_t)mem;
    size_t pad = (size_t)((sizeof(int64_t) - addr % sizeof(int64_t)) % sizeof(int64_t));
    unsigned char *p;
    if (!mem || sremrt_occmap_bytes(layers, cap) == 0 || bad_window(window, width) ||
        bytes < pad || bytes - pad < layout_bytes(layers, cap))
        return -1;
    p = (unsigned char *)mem + pad;
    memset(m, 0, sizeof *m);
    m->layers = layers;
    m->cap = cap;
    m->window = window;
    m->width = width;
    m->ent = (sremrt_occ_entry *)(void *)p;
    p += (size_t)layers * ((size_t)cap + 1u) * sizeof(sremrt_occ_entry);
    m->head = (int32_t *)(void *)p;
    m->len = m->head + layers;
    m->mem = mem;
    m->bytes = bytes;
    memset(m->ent, 0, (size_t)layers * ((size_t)cap + 1u) * sizeof(sremrt_occ_entry));
    sremrt_occmap_clear(m);
    return 0;
}

int sremrt_occmap_init_buf(sremrt_occmap *m, int32_t layers, int32_t cap,
                           sremrt_episode_window window, int64_t width, void *buf, size_t bytes)
{
    if (place(m, layers, cap, window, width, buf, bytes) != 0) {
        memset(m, 0, sizeof *m);
        return -1;
    }
    return 0;
}

int sremrt_occmap_init(sremrt_occmap *m, int32_t layers, int32_t cap,
                       sremrt_episode_window window, int64_t width, const sremrt_alloc *a)
{
    size_t bytes = sremrt_occmap_bytes(layers, cap);
    void *mem;
    memset(m, 0, sizeof *m);
    if (bytes == 0 || bad_window(window, width))
        return -1;
    mem = sremrt_alloc_get(a, bytes, sizeof(int64_t));
    if (!mem)
        return -1;
    place(m, layers, cap, window, width, mem, bytes);
    m->alloc = *a;
    return 0;
}

void sremrt_occmap_free(sremrt_occmap *m)
{
    if (m->alloc.alloc)
        sremrt_alloc_free(&m->alloc, m->mem, m->bytes);
    memset(m, 0, sizeof *m);
}

void sremrt_occmap_clear(sremrt_occmap *m)
{
    int32_t j;
    for (j = 0; j < m->layers; j++)
        m->head[j] = m->len[j] = 0;
}

int32_t sremrt_occmap_active(const sremrt_occmap *m)
{
    int32_t a = 0;
    while (a < m->layers && m->len[a] > 0)
        a++;
    return a;
}

static const sremrt_occ_entry *head_of(const sremrt_occmap *m, int32_t j)
{
    return sremrt_occmap_head(m, j);
}

static void pop(sremrt_occmap *m, int32_t j)
{
    if (++m->head[j] == m->cap + 1)
        m->head[j] = 0;
    m->len[j]--;
}

/* Restores the invariant after heads changed: list j keeps only entries
 * after the head of list j-1 (all of them go if list j-1 is empty). After
 * a completion most lists lose no entry or one, which is done without a
 * branch (the slots are always initialized, so a head can be read even of
 * an empty list); only a second pop costs a test. */
static void normalize(sremrt_occmap *m)
{
    int32_t j, stride = m->cap + 1;
    for (j = 1; j < m->layers; j++) {
        int64_t bar = head_of(m, j - 1)->pos;
        int32_t len = m->len[j - 1] > 0 ? m->len[j] : 0;
        uint32_t c = (uint32_t)(len > 0) & (uint32_t)(head_of(m, j)->pos < bar);
        int32_t h = m->head[j] + (int32_t)c;
        m->head[j] = h == stride ? 0 : h;
        m->len[j] = len - (int32_t)c;
        while (m->len[j] > 0 && head_of(m, j)->pos < bar)
            pop(m, j);
    }
}

void sremrt_occmap_expire_heads(sremrt_occmap *m, int64_t pos, int64_t ts)
{
    int popped = 0;
    while (m->len[0] > 0 && !sremrt_occmap_in_window(m, head_of(m, 0), pos, ts)) {
        pop(m, 0);
        popped = 1;
    }
    if (popped)
        normalize(m);
}

int sremrt_occmap_add(sremrt_occmap *m, int32_t layer, int64_t pos, int64_t ts)
{
    if (layer < 0 || layer >= m->layers || (layer > 0 && m->len[layer - 1] == 0))
        return 0;
    return sremrt_occmap_add_if(m, layer, 1u, pos, ts) ? -1 : 1;
}

int sremrt_occmap_complete(sremrt_occmap *m)
{
    int32_t j;
    if (m->len[m->layers - 1] == 0)
        return 0;
    for (j = 0; j < m->layers; j++)
        pop(m, j);
    normalize(m);
    return 1;
}

int32_t sremrt_occmap_size(const sremrt_occmap *m, int32_t layer)
{
    return m->len[layer];
}

const sremrt_occ_entry *sremrt_occmap_at(const sremrt_occmap *m, int32_t layer, int32_t i)
{
    int32_t slot = m->head[layer] + i;
    if (slot > m->cap)
        slot -= m->cap + 1;
    return &m->ent[(size_t)layer * ((size_t)m->cap + 1u) + (size_t)slot];
}
