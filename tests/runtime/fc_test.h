/* fc_test.h: what the forecasting suites share: a seeded generator, feeding
 * a symbol sequence to counts, and hand-built automata and contexts. */
#ifndef SREMRT_TEST_FC_H
#define SREMRT_TEST_FC_H

#include <stdint.h>
#include <stdlib.h>

#include "sremrt/forecast.h"

/* xorshift64*: reproducible streams; printed seeds rebuild a failure. */
static inline uint64_t fc_rand(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

/* uniform in [0, 1) */
static inline double fc_unit(uint64_t *s)
{
    return (double)(fc_rand(s) >> 11) / 9007199254740992.0;
}

/* a symbol drawn from dist[0..n) */
static inline uint16_t fc_draw(uint64_t *s, const double *dist, uint32_t n)
{
    double u = fc_unit(s), acc = 0;
    uint32_t i;
    for (i = 0; i + 1 < n; i++) {
        acc += dist[i];
        if (u < acc)
            return (uint16_t)i;
    }
    return (uint16_t)(n - 1);
}

/* Counts of seq as one substream: each event's word newest first, shorter
 * at the start (warm = 1) or only full words of order + 1 (warm = 0). */
sremrt_fc_counts *fc_count_seq(const uint16_t *seq, size_t n, uint32_t nsym, uint32_t order, int warm);

/* A context automaton of one context: i.i.d. symbols with dist. */
sremrt_fc_ctx *fc_iid(const double *dist, uint32_t nsym);

void add_fc_learn_tests(void);
void add_fc_wait_tests(void);
void add_fc_score_tests(void);

#endif
