/* fc_impl.h: what the forecasting core's files (fc_counts.c, fc_pst.c,
 * fc_ctx.c) share: a hash map from (parent node, symbol) to child node, the
 * one child index of their trees, so that a node costs the same whatever
 * the alphabet size. Hosted only (malloc). Not installed. */
#ifndef SREMRT_FC_IMPL_H
#define SREMRT_FC_IMPL_H

#include <stdint.h>
#include <stdlib.h>

#include "sremrt/forecast.h"

/* Open addressing, linear probing; keys 0 = empty. */
typedef struct sremrt_fcm {
    uint64_t *keys;
    uint32_t *vals;
    uint32_t mask;   /* capacity - 1, capacity a power of two */
    uint32_t n;
} sremrt_fcm;

int sremrt_fcm_init(sremrt_fcm *m, uint32_t capacity_hint);   /* 0 or -1 */
void sremrt_fcm_free(sremrt_fcm *m);
int sremrt_fcm_put(sremrt_fcm *m, uint32_t parent, uint32_t sym, uint32_t child);   /* 0 or -1 */

static inline uint64_t sremrt_fcm_key(uint32_t parent, uint32_t sym)
{
    return (((uint64_t)parent << 17) | sym) + 1;
}

/* The child of parent under sym, or -1. Inline: it is the counter's inner loop. */
static inline int64_t sremrt_fcm_get(const sremrt_fcm *m, uint32_t parent, uint32_t sym)
{
    uint64_t key = sremrt_fcm_key(parent, sym);
    uint32_t i = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & m->mask;
    for (;;) {
        uint64_t k = m->keys[i];
        if (k == key)
            return m->vals[i];
        if (k == 0)
            return -1;
        i = (i + 1) & m->mask;
    }
}

/* Resizes the array ptr to cap elements through tmp (a void * lvalue):
 * 0, or -1 with ptr unchanged. For the trees' parallel arrays. */
#define SREMRT_FC_RESIZE(ptr, cap, tmp) \
    (((tmp) = realloc((ptr), (size_t)(cap) * sizeof *(ptr))) != NULL ? ((ptr) = (tmp), 0) : -1)

/* Validates learner parameters against an alphabet; 0, or -1 with err set. */
int sremrt_fc_params_check(const sremrt_fc_params *p, uint32_t nsym, char *err, size_t errlen);

#endif
