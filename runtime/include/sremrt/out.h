/* out.h: the records a generated program writes (docs/language.md section 6), as
 * JSONL for programs or one line of text for people. */
#ifndef SREMRT_OUT_H
#define SREMRT_OUT_H

#include <stddef.h>
#include <stdint.h>
#ifndef SREMRT_FREESTANDING
#include <stdio.h>
#endif

#include "schema.h"
#include "sink.h"
#include "strtab.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sremrt_format {
    SREMRT_TEXT,       /* --format text (default) */
    SREMRT_JSONL       /* --format jsonl */
} sremrt_format;

typedef enum sremrt_kind {
    SREMRT_MATCH, SREMRT_EPISODE, SREMRT_ALERT, SREMRT_SUGGEST, SREMRT_SUMMARY, SREMRT_ERROR,
    SREMRT_FORECAST, SREMRT_ABSENT   /* absent: a match whose absent condition no event met (docs/language.md 3.7) */
} sremrt_kind;

typedef enum sremrt_candidate {
    SREMRT_EXTENSION,  /* <ET_1..ET_m, X> */
    SREMRT_VARIATION   /* <ET_1..ET_m-1, X> */
} sremrt_candidate;

/* One candidate in an explore pattern's summary record. */
typedef struct sremrt_best {
    sremrt_candidate candidate;
    const char *const *sequence;   /* its event types */
    int nsequence;
    int64_t freq;
    double confidence;
} sremrt_best;

/* One record; each kind reads only the fields its comment names. A zeroed
 * record plus the fields a kind needs is always a valid record. */
typedef struct sremrt_record {
    sremrt_kind kind;
    const char *name;              /* pattern or episode: all kinds but error */
    int32_t decl;                  /* its index among the file's patterns and episodes,
                                      in file order (the header's PREFIX_DECL_ constants):
                                      all kinds but error */
    int64_t index;                 /* event index: match, episode, alert, suggest */
    int has_ts;                    /* the schema has a timestamp: write ts */
    int64_t ts;                    /* the event's timestamp */
    const char *key;               /* partition key text; NULL: not partitioned, or
                                      a composite key (match, episode, alert,
                                      summary, forecast) */
    int32_t nkey;                  /* a composite key (partition by a, b, ...): its
                                      attributes, 2..4; 0: none, or `key` above */
    const sremrt_attr *const *key_attrs;   /* [nkey] the key's attributes, in order */
    const int64_t *key_values;     /* [nkey] their values as an event holds them
                                      (int, enum index, bool 0/1, string id in
                                      `strings`); written as a JSON array */
    int64_t freq;                  /* episode, alert, suggest, summary */
    int inexact;                   /* episode, alert, summary: "exact":false */
    sremrt_candidate candidate;    /* suggest */
    const char *const *sequence;   /* suggest: the candidate's event types */
    int nsequence;
    double confidence;             /* suggest */
    int64_t events;                /* summary */
    const sremrt_best *best;       /* summary of an explore pattern (non-NULL, even
                                      when nbest is 0): its best candidates */
    int nbest;
    int64_t line;                  /* error: line (CSV) or record (bin) number */
    const char *message;           /* error */
    const uint64_t *overflow;      /* error: NULL, or an overflow record of the
                                      declaration `name`: counts by sremrt_overflow
                                      kind (SREMRT_OVF_KINDS of them), no line */
    /* match: what matched, the canonical match of docs/language.md 3.4 */
    int64_t start;                 /* index of its first event; 0: not given */
    int32_t nbind;                 /* the pattern's labels; 0: no "bind" written */
    const char *const *bind_names; /* [nbind] the labels, in the pattern's register order */
    const int64_t *bind;           /* [nbind] index of the event bound to each last; 0: absent */
    const sremrt_schema *schema;   /* the layout of the events below; NULL: no "events"
                                      written (a program writes them with --events) */
    const void *start_event;       /* the event at `start` */
    const void *const *bind_events;/* [nbind] the bound events; NULL where absent */
    int32_t events_missing;        /* match, absent: 1 when start_event, or a
                                      bind_events[k] whose bind[k] is not 0, is NULL:
                                      the event no longer kept (counted as the
                                      "events" overflow when the host writes events) */
    /* episode (nonoverlapped frequency): the occurrence counted at index */
    const int64_t *occurrence;     /* [noccurrence] its indices i_1 < ... < i_k; NULL: none */
    int32_t noccurrence;
    /* forecast (docs/language.md 3.6): no floating point, for firmware */
    int32_t fc_within;             /* 0: "interval" fc_from..fc_to; 1: "within" fc_to events */
    int32_t fc_from, fc_to;        /* events of the substream from now, 1-based */
    int32_t fc_prob;               /* the probability, in units of 1e-4 (0..10000) */
    int32_t fc_positive;           /* within: fc_prob reaches the confidence */
    const sremrt_strtab *strings;  /* the table of string attributes' ids (key and
                                      events); NULL: the schema has none */
} sremrt_record;

/* Writes the record as one line, '\n' included, into a sink; in text, a
 * match record's events (schema non-NULL) follow on lines of their own. */
void sremrt_record_emit(sremrt_sink *s, sremrt_format f, const sremrt_record *r);

/* Into a caller buffer, snprintf-style: returns the full length; the text
 * is cut (and NUL-terminated) when that is >= cap. No stdio needed. */
size_t sremrt_record_format(char *buf, size_t cap, sremrt_format f, const sremrt_record *r);

#ifndef SREMRT_FREESTANDING   /* host.c: left out of firmware builds */
/* Host: to a FILE (any length, through a small stack buffer); returns 0,
 * or EOF if the stream reports a write error. */
int sremrt_record_write(FILE *out, sremrt_format f, const sremrt_record *r);

/* Host: a flush-mode sink that writes to out through buf (cap bytes);
 * check ferror(out) for write errors. */
void sremrt_sink_init_file(sremrt_sink *s, char *buf, size_t cap, FILE *out);

/* Host: the error record of a rejected line (usually to stderr). */
int sremrt_write_error(FILE *out, sremrt_format f, int64_t line, const char *message);
#endif

#ifdef __cplusplus
}
#endif

#endif
