/* fc_model.h: the model file of `sremc train` (docs/forecasting.md):
 * the symbol counts of each forecast pattern, with the hash of the
 * automaton they were counted on. Hosted only.
 *
 *   sremc-forecast-model 1
 *   pattern NAME nsym N order M hash HHHHHHHHHHHHHHHH events E lines L
 *   ... L lines: sremrt_fc_counts_write ...
 *   end
 *
 * one `pattern` section per forecast pattern, in declaration order. */
#ifndef SREMRT_FC_MODEL_H
#define SREMRT_FC_MODEL_H

#ifndef SREMRT_FREESTANDING
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "forecast.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SREMRT_FC_MODEL_VERSION 1

/* The first line. 0, or -1 on a write error. */
int sremrt_fc_model_begin(FILE *out);
/* One pattern's section: its name, the hash of its automaton, how many
 * events were counted, and the counts. 0, or -1 on a write error. */
int sremrt_fc_model_pattern(FILE *out, const char *name, uint64_t hash, const sremrt_fc_counts *c);
/* The last line. 0, or -1 on a write error. */
int sremrt_fc_model_end(FILE *out);

/* The counts of pattern `name` from a model file read from the start:
 * NULL with a message in err when the file is not a model, names no such
 * pattern, or was counted on another automaton (hash differs: the
 * pattern changed since `sremc train`). */
sremrt_fc_counts *sremrt_fc_model_read(FILE *in, const char *name, uint64_t hash, char *err, size_t errlen);

/* A forecast table as generated code reads it: contexts renumbered so
 * that 0 is the start context (a new substream's, a zeroed state's),
 * probabilities rounded to units of 1e-4 and the pool deduplicated after
 * the rounding (so that a changed entry is a change a reader sees):
 * ctx_next[c * nsym + s], index[q * ncontexts + c] (0 or 1 + a pool entry). */
typedef struct sremrt_fc_entry {
    uint16_t from, to;    /* interval; within: 1 and k */
    uint16_t prob;        /* 0..10000 */
    uint8_t positive;     /* within */
} sremrt_fc_entry;

typedef struct sremrt_fc_flat {
    uint32_t nsym, ncontexts, nstates, npool;
    uint32_t *ctx_next;
    uint32_t *index;
    sremrt_fc_entry *pool;
    int exact;
} sremrt_fc_flat;

/* NULL when out of memory. */
sremrt_fc_flat *sremrt_fc_flatten(const sremrt_fc_ctx *x, const sremrt_fc_table *t);
void sremrt_fc_flat_free(sremrt_fc_flat *f);

#ifdef __cplusplus
}
#endif

#endif
#endif
