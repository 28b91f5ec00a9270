/* bin.h: binary event input (`--input bin`): raw records of the generated
 * NAME_event struct, schema->event_size bytes each, host byte order. */
#ifndef SREMRT_BIN_H
#define SREMRT_BIN_H

#include <stdint.h>
#include <stdio.h>

#include "alloc.h"
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

/* Records in place, for push_many: the input read in blocks of 64 KiB into
 * an aligned buffer, each call handing out a run of the records there,
 * checked (enum and bool values in range), without copying them again. */
typedef struct sremrt_bin_blocks {
    sremrt_bin rec;                  /* schema, input, record count, message */
    size_t pos, end;                 /* next byte and end of the data in buf */
    size_t run;                      /* most records handed out at once */
    unsigned char *buf;              /* read buffer: run records */
    int eof;                         /* the read buffer's input ended */
    int64_t first;                   /* number of the first record of the last run */
    sremrt_alloc alloc;
} sremrt_bin_blocks;

/* 0, or SREMRT_READ_FATAL (no memory for the read buffer; message set). */
int sremrt_bin_blocks_open(sremrt_bin_blocks *r, const sremrt_schema *s, FILE *in,
                           const sremrt_alloc *a);

/* The next run: *events, *n >= 1 records valid until the next call, and
 * SREMRT_READ_EVENT; SREMRT_READ_END; SREMRT_READ_BAD (one bad record, as
 * sremrt_bin_next says it, skipped: call again); SREMRT_READ_FATAL. */
int sremrt_bin_blocks_next(sremrt_bin_blocks *r, const void **events, size_t *n);

/* Number of the first record of the last run, or of the bad record. */
int64_t sremrt_bin_blocks_line(const sremrt_bin_blocks *r);
const char *sremrt_bin_blocks_message(const sremrt_bin_blocks *r);

/* Gives the read buffer back. */
void sremrt_bin_blocks_close(sremrt_bin_blocks *r);

#ifdef __cplusplus
}
#endif

#endif
