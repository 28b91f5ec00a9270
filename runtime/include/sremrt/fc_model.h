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

#ifdef __cplusplus
}
#endif

#endif
#endif
