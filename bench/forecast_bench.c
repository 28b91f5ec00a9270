/* forecast_bench.c: one generated matcher (-DPFX=name -DHDR='"name.h"')
 * over a file of binary events held in memory: push_many of them all,
 * records counted by a callback that does nothing else, so that what is
 * measured is the matcher (with or without its forecasts, or its
 * training symbols with -DTRAIN), not the reader or the writer
 * (bench/forecast.sh).
 *
 *   forecast_bench EVENTS.bin [load|norec]    prints "events N records R seconds S";
 *   with "load", only reads the events (the cost to subtract); with
 *   "norec", makes no records (the step alone). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include HDR
#include "sremrt/sremrt.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define N(x) CAT(PFX, x)

static void count(void *user, const sremrt_record *r)
{
    (void)r;
    ++*(long *)user;
}

#ifdef TRAIN
#include "sremrt/forecast.h"
/* The trainer's work per symbol, as PROG --fc-train does it: the key's
 * ring of recent symbols, and the counts. */
typedef struct ring {
    uint16_t recent[SREMRT_FC_MAX_ORDER + 1];
    uint32_t len;
} ring;
static sremrt_fc_counts *counts;
static ring rings[1024];
static uint32_t order;

static void symbol(void *user, int32_t decl, int32_t slot, uint32_t s)
{
    (void)user;
    (void)decl;
    ring *r = &rings[slot & 1023];
    for (uint32_t k = order; k > 0; k--)
        r->recent[k] = r->recent[k - 1];
    r->recent[0] = (uint16_t)s;
    if (r->len < order + 1)
        r->len++;
    sremrt_fc_counts_add(counts, r->recent, r->len);
}
#endif

int main(int argc, char **argv)
{
    FILE *in = argc > 1 ? fopen(argv[1], "rb") : NULL;
    if (!in) {
        fprintf(stderr, "usage: forecast_bench EVENTS.bin\n");
        return 2;
    }
    size_t cap = 1 << 16, n = 0;
    N(_event) *ev = malloc(cap * sizeof *ev);
    while (ev && fread(&ev[n], sizeof *ev, 1, in) == 1)
        if (++n == cap)
            ev = realloc(ev, (cap *= 2) * sizeof *ev);
    fclose(in);
    if (!ev)
        return 2;
    long records = 0;
    N(_config) cfg;
    N(_config_default)(&cfg);
    cfg.record = count;
    cfg.user = &records;
#ifdef TRAIN
    const N(_forecast_info) *info;
    if (N(_forecast_patterns)(&info) < 1)
        return 2;
    order = info[0].order;
    counts = sremrt_fc_counts_new(info[0].nsym, order);
    cfg.record = NULL;
    cfg.symbol = symbol;
#endif
    if (argc > 2 && strcmp(argv[2], "norec") == 0)
        cfg.record = NULL;
    N(_matcher) *m = malloc(N(_matcher_size)());
    if (!m || N(_init)(m, &cfg) != 0)
        return 2;
    int load = argc > 2 && strcmp(argv[2], "load") == 0;
    double t0 = sremrt_clock_seconds();
    size_t done = load ? n : N(_push_many)(m, ev, n);
    N(_finish)(m);
    double t = sremrt_clock_seconds() - t0;
    printf("events %zu records %ld seconds %.4f\n", done, records, t);
    N(_free)(m);
    free(m);
    free(ev);
    return done == n ? 0 : 1;
}
