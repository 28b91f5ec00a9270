/* csv.h: the CSV event reader of docs/language.md section 6: a header naming
 * attributes, then one event per record, parsed into the generated struct.
 * It reads the input in blocks: from a FILE that is not a regular file (a
 * pipe, a terminal) it reads the descriptor itself, as soon as bytes arrive,
 * so nothing may have been read from such a FILE through stdio before
 * sremrt_csv_open. */
#ifndef SREMRT_CSV_H
#define SREMRT_CSV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "alloc.h"
#include "schema.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SREMRT_CSV_LINE_CAP    65536   /* default longest record, in bytes */
#define SREMRT_CSV_MAX_COLUMNS 1024    /* default most header columns */
#define SREMRT_CSV_MSG_CAP     160     /* room for one error message */
#define SREMRT_CSV_BLOCK       131072  /* most bytes read at a time (2 x line_cap) */
#define SREMRT_CSV_SLACK       64      /* after the block: whole 64-byte loads */

/* Capacities; a zero field takes the default. */
typedef struct sremrt_csv_config {
    size_t line_cap;     /* longest record (quoted line breaks included) */
    int max_columns;     /* most columns a header may have */
} sremrt_csv_config;

typedef struct sremrt_csv {
    const sremrt_schema *schema;
    FILE *in;
    int fd;                /* descriptor read directly (a pipe), or -1: fread */
    char *blk;             /* input block: blk_cap bytes and SREMRT_CSV_SLACK */
    size_t blk_cap;
    size_t pos;            /* next byte to read in blk */
    size_t end;            /* bytes of input in blk */
    size_t chunk;          /* blk offset of the 64 bytes the masks describe */
    uint64_t stop;         /* of those: ',' '\n' '"' '\r' NUL, one bit each */
    char *buf;             /* a record the careful path copied: its fields */
    size_t cap;            /* buf's size: line_cap + 1 */
    size_t len;            /* bytes used in buf */
    const char *rec;       /* the current record's fields: in buf or blk */
    size_t *field;         /* start of each field in rec (max_columns) */
    size_t *field_len;     /* its length (each field is NUL-terminated too) */
    int *column_attr;      /* attribute of each header column; -1: ignored */
    int max_columns;
    int ncols;             /* columns of the header */
    int nfields;           /* fields of the current record */
    int quoted;            /* the current record has a quoted field */
    int eof;               /* the input has ended */
    int read_error;        /* reading the descriptor failed */
    int failed;            /* open failed: next keeps returning FATAL */
    int pending[3];        /* bytes read ahead and given back (a stack) */
    int npending;
    int err_c;             /* byte being handled when a record broke off */
    const char *bad;       /* first problem of the current record, or NULL */
    int64_t line;          /* first line of the last record returned */
    int64_t next_line;     /* line the next byte belongs to */
    char msg[SREMRT_CSV_MSG_CAP];   /* reason of the last BAD or FATAL */
    sremrt_alloc alloc;    /* memory owner; alloc NULL: a caller buffer */
    void *mem;
    size_t bytes;
} sremrt_csv;

/* Bytes a caller buffer needs for cfg (NULL: defaults), any alignment. */
size_t sremrt_csv_bytes(const sremrt_csv_config *cfg);

/* Reads the header. Returns 0, or SREMRT_READ_FATAL with sremrt_csv_line
 * and sremrt_csv_message set: a header lacking a schema attribute, a
 * duplicated attribute column, no header at all, a malformed or overlong
 * header, or memory too small. The caller writes an error record, exits 3;
 * sremrt_csv_open has then already given its buffers back. */
int sremrt_csv_open(sremrt_csv *r, const sremrt_schema *s, FILE *in,
                    const sremrt_csv_config *cfg, const sremrt_alloc *a);
int sremrt_csv_open_buf(sremrt_csv *r, const sremrt_schema *s, FILE *in,
                        const sremrt_csv_config *cfg, void *buf, size_t bytes);

/* Gives the buffers back to the allocator (not to a caller buffer). */
void sremrt_csv_close(sremrt_csv *r);

/* Next event into `event` (schema->event_size bytes, zeroed first):
 * SREMRT_READ_EVENT, SREMRT_READ_END, SREMRT_READ_BAD (a malformed record,
 * already skipped: report line and message, then call again; `event` is
 * then undefined) or SREMRT_READ_FATAL (a read error). */
int sremrt_csv_next(sremrt_csv *r, void *event);

/* First line of the record last returned (1-based) and the reason of the
 * last BAD or FATAL result. */
int64_t sremrt_csv_line(const sremrt_csv *r);
const char *sremrt_csv_message(const sremrt_csv *r);

#ifdef __cplusplus
}
#endif

#endif
