/* bin.h: binary event input (`--input bin`): raw records of the generated
 * NAME_event struct, schema->event_size bytes each, host byte order. */
#ifndef SREMRT_BIN_H
#define SREMRT_BIN_H

#include <stdint.h>
#include <stdio.h>

#include "schema.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SREMRT_BIN_MSG_CAP 128

typedef struct sremrt_bin {
    const sremrt_schema *schema;
    FILE *in;
    int64_t record;      /* 1-based number of the last record read */
    int done;            /* end reached (or a truncated record seen) */
    char msg[SREMRT_BIN_MSG_CAP];   /* reason of the last BAD or FATAL */
} sremrt_bin;

void sremrt_bin_open(sremrt_bin *r, const sremrt_schema *s, FILE *in);

/* Next record into event: SREMRT_READ_EVENT, SREMRT_READ_END,
 * SREMRT_READ_BAD (a truncated last record, an enum index out of range or
 * a bool other than 0/1: report, call again) or SREMRT_READ_FATAL (read
 * error). Values are checked because generated code indexes tables by them. */
int sremrt_bin_next(sremrt_bin *r, void *event);

/* The record number, which error records carry as their `line`. */
int64_t sremrt_bin_line(const sremrt_bin *r);
const char *sremrt_bin_message(const sremrt_bin *r);

#ifdef __cplusplus
}
#endif

#endif
