/* fc_core_bench.c: training and compile-time costs of the forecasting core
 * (runtime/fc_*.c) -> a table on stdout and JSON lines (--json FILE).
 *
 * Training: sremrt_fc_counts_add on a seeded stream over 17 symbols (a
 * variable-order source), order 3, one substream and 1,000 interleaved
 * ones (the caller's ring of recent symbols per key included), events per
 * CPU second, median of 3. Then the learner, the context automaton and the
 * table of a 40-state random automaton at horizon 200, in CPU ms.
 * Usage: fc_core_bench [--events N] [--json FILE] */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sremrt/forecast.h"
#include "timing.h"

enum { NSYM = 17, ORDER = 3, REPS = 3 };

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

/* Mostly the successor of the last symbol, sometimes a skewed draw: a
 * stream with structure at depths 1 and 2, like an automaton's. */
static uint16_t *make_stream(size_t n, uint64_t seed)
{
    uint16_t *s = malloc(n * sizeof *s);
    size_t i;
    if (!s)
        return NULL;
    s[0] = 0;
    s[1] = 1;
    for (i = 2; i < n; i++) {
        uint64_t r = rnd(&seed);
        if (r % 4 != 0)
            s[i] = (uint16_t)((s[i - 1] + (s[i - 2] & 1) + 1) % NSYM);
        else
            s[i] = (uint16_t)((r >> 8) % ((r >> 40) % 2 ? 4 : NSYM));
    }
    return s;
}

/* One key per event (keys[i]), a ring of the last ORDER + 1 symbols per key. */
static double train(const uint16_t *seq, const uint32_t *keys, size_t n, uint32_t nkeys,
                    sremrt_fc_counts **out)
{
    uint16_t (*ring)[ORDER + 1] = calloc(nkeys, sizeof *ring);
    uint32_t *len = calloc(nkeys, sizeof *len);
    sremrt_fc_counts *c = sremrt_fc_counts_new(NSYM, ORDER);
    double t0;
    size_t i;
    if (!ring || !len || !c)
        exit(2);
    t0 = now();
    for (i = 0; i < n; i++) {
        uint32_t k = keys ? keys[i] : 0, j;
        uint16_t *r = ring[k];
        for (j = ORDER; j > 0; j--)   /* newest first: shift, then put */
            r[j] = r[j - 1];
        r[0] = seq[i];
        if (len[k] < ORDER + 1)
            len[k]++;
        if (sremrt_fc_counts_add(c, r, len[k]) != 0)
            exit(2);
    }
    t0 = now() - t0;
    free(ring);
    free(len);
    *out = c;
    return t0;
}

static double rate(const uint16_t *seq, const uint32_t *keys, size_t n, uint32_t nkeys,
                   sremrt_fc_counts **keep)
{
    double r[REPS];
    int i;
    for (i = 0; i < REPS; i++) {
        sremrt_fc_counts *c;
        r[i] = (double)n / train(seq, keys, n, nkeys, &c);
        if (i == REPS - 1 && keep)
            *keep = c;
        else
            sremrt_fc_counts_free(c);
    }
    return median(r, REPS);
}

int main(int argc, char **argv)
{
    size_t n = 10000000, i;
    const char *json = NULL;
    uint64_t seed = 42;
    uint16_t *seq;
    uint32_t *keys, q, s;
    sremrt_fc_counts *c = NULL;
    sremrt_fc_params p;
    sremrt_fc_pst *t;
    sremrt_fc_ctx *x;
    sremrt_fc_spec sp;
    sremrt_fc_table *tab;
    int32_t next[40 * NSYM];
    uint8_t final[40];
    sremrt_fc_automaton a = {40, NSYM, 0, next, final};
    double one, many, t_learn, t_ctx, t_table;
    FILE *out;
    for (i = 1; i < (size_t)argc; i++) {
        if (!strcmp(argv[i], "--events") && i + 1 < (size_t)argc)
            n = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--json") && i + 1 < (size_t)argc)
            json = argv[++i];
        else {
            fprintf(stderr, "usage: fc_core_bench [--events N] [--json FILE]\n");
            return 2;
        }
    }
    seq = make_stream(n, 7);
    keys = malloc(n * sizeof *keys);
    if (!seq || !keys)
        return 2;
    for (i = 0; i < n; i++)
        keys[i] = (uint32_t)(rnd(&seed) % 1000);
    one = rate(seq, NULL, n, 1, NULL);
    many = rate(seq, keys, n, 1000, &c);

    sremrt_fc_params_default(&p);
    t_learn = now();
    t = sremrt_fc_pst_learn(c, &p, NULL, 0);
    t_learn = now() - t_learn;
    t_ctx = now();
    x = t ? sremrt_fc_ctx_build(t, 4096) : NULL;
    t_ctx = now() - t_ctx;
    for (q = 0; q < 40; q++) {
        final[q] = q % 13 == 12;
        for (s = 0; s < NSYM; s++)
            next[q * NSYM + s] = (int32_t)(rnd(&seed) % 40);
    }
    memset(&sp, 0, sizeof sp);
    sp.kind = SREMRT_FC_INTERVAL;
    sp.theta = 0.5;
    sp.horizon = 200;
    sp.max_spread = 200;
    t_table = now();
    tab = x ? sremrt_fc_table_build(&a, x, &sp) : NULL;
    t_table = now() - t_table;
    if (!tab)
        return 2;
    printf("forecast training (counts_add, order %d, %d symbols, %zu events, median of %d):\n"
           "  one substream        %6.1f M events/s\n"
           "  1,000 substreams     %6.1f M events/s\n"
           "learn pst              %8.1f ms (%u nodes)\n"
           "context automaton      %8.1f ms (%u contexts, %s)\n"
           "table, 40 states, h 200 %7.1f ms (%u pool entries)\n",
           ORDER, NSYM, n, REPS, one / 1e6, many / 1e6, t_learn * 1e3, sremrt_fc_pst_nodes(t),
           t_ctx * 1e3, x->ncontexts, x->exact ? "closure" : "node mode", t_table * 1e3, tab->npool);
    if (json && (out = fopen(json, "w")) != NULL) {
        fprintf(out, "{\"bench\":\"fc_core\",\"events\":%zu,\"order\":%d,\"nsym\":%d,"
                     "\"train_eps_one\":%.0f,\"train_eps_1000_keys\":%.0f,\"learn_ms\":%.2f,"
                     "\"pst_nodes\":%u,\"ctx_ms\":%.2f,\"contexts\":%u,\"table_ms\":%.2f}\n",
                n, ORDER, NSYM, one, many, t_learn * 1e3, sremrt_fc_pst_nodes(t), t_ctx * 1e3,
                x->ncontexts, t_table * 1e3);
        fclose(out);
    }
    sremrt_fc_table_free(tab);
    sremrt_fc_ctx_free(x);
    sremrt_fc_pst_free(t);
    sremrt_fc_counts_free(c);
    free(seq);
    free(keys);
    return 0;
}
