/* nats.h: the NATS JetStream mode of generated programs (`PROG --nats`,
 * `PROG --nats-publish`; docs/SCALING.md): batches of events from one
 * partition's stream -> a matcher -> JSONL results, exactly once across
 * crashes. Built into lib/libsremrt_nats.a only where libnats is found;
 * this header needs nothing of libnats. */
#ifndef SREMRT_NATS_H
#define SREMRT_NATS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "out.h"
#include "schema.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Exit status of a matcher fenced off by another instance of its partition. */
#define SREMRT_NATS_FENCED 4

/* What the command line said (NULL or 0: the default). */
typedef struct sremrt_nats_conf {
    const char *prog;        /* for messages */
    const char *urls;        /* nats://host:port, comma-separated */
    const char *stream;      /* base name S: partition P reads stream S_P, subject S.P */
    int partition;           /* P, 0-based */
    int npartitions;         /* N */
    const char *results;     /* results subject (default S.out.P, stream S_OUT_P) */
    const char *bucket;      /* checkpoint KV bucket (default S_ckpt), key pP */
    int csv;                 /* payloads without a Sremc-Payload header are CSV, not bin */
    int events;              /* --events: match records carry their events */
    sremrt_format format;    /* error records on standard error */
    double idle;             /* stop after this many seconds without input; 0: never */
    double checkpoint_secs;  /* a checkpoint at most this often (default 5 s); < 0: after every batch */
    int batch;               /* publisher: events per message (default 1000) */
    const char *run_id;      /* publisher: message id prefix (default: pid and time) */
} sremrt_nats_conf;

/* The generated matcher, through plain function pointers. */
typedef struct sremrt_nats_matcher {
    const sremrt_schema *schema;
    void *m;
    size_t (*push_many)(void *m, const void *events, size_t n);
    const char *(*error)(void *m);
    /* state save and restore; NULL: no checkpoints, every start replays
     * the partition from its first message (still exactly once). */
    size_t (*state_size)(void *m);
    int (*state_save)(void *m, void *buf, size_t n);
    int (*state_load)(void *m, const void *buf, size_t n);
} sremrt_nats_matcher;

typedef struct sremrt_nats sremrt_nats;

/* A session (not yet connected); NULL when out of memory. */
sremrt_nats *sremrt_nats_new(const sremrt_nats_conf *c);

/* The matcher's cfg.record in --nats mode (user: the session). */
void sremrt_nats_record(void *user, const sremrt_record *r);

/* Runs the partition until --idle seconds pass without input (or forever):
 * 0, SREMRT_NATS_FENCED, or 3 after an error (reported on stderr). */
int sremrt_nats_run(sremrt_nats *s, const sremrt_nats_matcher *mt);

void sremrt_nats_free(sremrt_nats *s);

/* --nats-publish: the events of in (CSV, or bin records) to the N
 * partition streams (created if missing), each event to partition
 * fnv1a32(key text) mod N, key = attribute route_attr (-1: N must be 1).
 * Exit status: 0, 2 (usage), 3 (a rejected line or a publish failure). */
int sremrt_nats_publish(const sremrt_nats_conf *c, const sremrt_schema *schema, int route_attr,
                        FILE *in, int bin, int strict);

/* FNV-1a, 32 bits, of len bytes: NATS's {{partition(n, ...)}} mapping. */
uint32_t sremrt_fnv1a32(const char *p, size_t len);

#ifdef __cplusplus
}
#endif

#endif
