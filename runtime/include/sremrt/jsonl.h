/* jsonl.h: the JSON Lines event reader (`--input jsonl`, docs/language.md
 * section 6): one flat JSON object per line, keys naming attributes in any
 * order, parsed into the generated struct. */
#ifndef SREMRT_JSONL_H
#define SREMRT_JSONL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "alloc.h"
#include "schema.h"
#include "strtab.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SREMRT_JSONL_LINE_CAP 65536    /* default longest line, in bytes */
#define SREMRT_JSONL_BLOCK    262144   /* default bytes asked of fread at once */
#define SREMRT_JSONL_DEPTH    64       /* deepest nesting of a skipped value */
#define SREMRT_JSONL_MSG_CAP  160      /* room for one error message */

/* Capacities; a zero field takes the default. */
typedef struct sremrt_jsonl_config {
    size_t line_cap;     /* longest line, its line end not counted */
    size_t block;        /* bytes read at once */
} sremrt_jsonl_config;

typedef struct sremrt_jsonl {
    const sremrt_schema *schema;
    FILE *in;
    char *buf;             /* read buffer: lines [beg, end), one spare byte after */
    size_t cap;            /* buf's size without the spare byte */
    size_t line_cap;
    size_t beg, end;
    uint32_t *seen;        /* per attribute: the stamp of the line that set it */
    int *order;            /* attribute of each key position of the last line */
    int *names;            /* attribute names hashed: index or -1 (nslots) */
    size_t nslots;
    uint32_t stamp;        /* this line's stamp (never 0) */
    int eof;               /* fread has returned short */
    int skipping;          /* dropping the rest of an overlong line */
    int plain;             /* no name or enum value has a byte JSON escapes */
    int failed;            /* open failed: next keeps returning FATAL */
    int64_t line;          /* line of the last record returned (1-based) */
    int64_t next_line;     /* line the byte at beg belongs to */
    char msg[SREMRT_JSONL_MSG_CAP];   /* reason of the last BAD or FATAL */
    sremrt_strtab *strings;/* string attributes are interned here (the caller
                              sets it after open, e.g. PREFIX_strtab(m)); NULL:
                              their values are rejected */
    sremrt_alloc alloc;    /* memory owner; alloc NULL: a caller buffer */
    void *mem;
    size_t bytes;
} sremrt_jsonl;

/* Bytes a caller buffer needs for schema s and cfg (NULL: defaults). */
size_t sremrt_jsonl_bytes(const sremrt_schema *s, const sremrt_jsonl_config *cfg);

/* Sets the reader up; 0, or SREMRT_READ_FATAL (memory too small, message
 * set). Nothing is read yet: JSON Lines have no header. */
int sremrt_jsonl_open(sremrt_jsonl *r, const sremrt_schema *s, FILE *in,
                      const sremrt_jsonl_config *cfg, const sremrt_alloc *a);
int sremrt_jsonl_open_buf(sremrt_jsonl *r, const sremrt_schema *s, FILE *in,
                          const sremrt_jsonl_config *cfg, void *buf, size_t bytes);

/* Gives the buffers back to the allocator (not to a caller buffer). */
void sremrt_jsonl_close(sremrt_jsonl *r);

/* Next event into `event` (schema->event_size bytes, zeroed first), blank
 * lines skipped: SREMRT_READ_EVENT, SREMRT_READ_END, SREMRT_READ_BAD (a
 * malformed line, already skipped: report line and message, call again;
 * `event` is then undefined) or SREMRT_READ_FATAL (a read error). */
int sremrt_jsonl_next(sremrt_jsonl *r, void *event);

/* Line of the record last returned (1-based) and the reason of the last
 * BAD or FATAL result. */
int64_t sremrt_jsonl_line(const sremrt_jsonl *r);
const char *sremrt_jsonl_message(const sremrt_jsonl *r);

#ifdef __cplusplus
}
#endif

#endif
