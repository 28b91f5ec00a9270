/* episode.h: the frequency of a serial episode <E_1..E_k> under a window
 * (docs/language.md section 4), exactly, one counter per substream (partition).
 * Per event the caller passes its position, its timestamp and the set of
 * elements it satisfies (a bitmask computed by the generated code: an event
 * may satisfy several elements, e.g. repeated types or overlapping
 * conditions); the counter returns whether the frequency grew.
 *
 * nonoverlapped (ONCE): the latest start of a partial occurrence per
 * prefix, O(elements the event satisfies) per event, no lists, always
 * exact. distinct (ONCE+): the OccMap greedy (occmap.h) while no event
 * satisfies two elements, O(1) amortized per event; otherwise a set of
 * configurations (free events per alternative) pruned by dominance,
 * bounded by a budget. docs/episodes.md has the algorithms and the proofs. */
#ifndef SREMRT_EPISODE_H
#define SREMRT_EPISODE_H

#include <stddef.h>
#include <stdint.h>

#include "alloc.h"
#include "occmap.h"
#include "out.h"
#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sremrt_episode_freq {
    SREMRT_EPISODE_NONOVERLAPPED,   /* `frequency nonoverlapped` (default) */
    SREMRT_EPISODE_DISTINCT         /* `frequency distinct` */
} sremrt_episode_freq;

/* Limits and defaults of a configuration. */
#define SREMRT_EPISODE_MAX_K 32             /* elements (bits of the mask) */
#define SREMRT_EPISODE_MAX_CAP (1 << 20)    /* list_cap */
#define SREMRT_EPISODE_MAX_BUDGET (1 << 16) /* budget */
#define SREMRT_EPISODE_DEFAULT_CAP 64
#define SREMRT_EPISODE_DEFAULT_BUDGET 32

/* flags: the compiler proved that no event satisfies two elements. The
 * counter then never needs configurations and allocates none; a mask with
 * two bits anyway is counted in budget_exceeded, only its lowest element
 * is used, and the result is marked inexact. */
#define SREMRT_EPISODE_EXCLUSIVE 1u

/* What the compiler knows, plus capacities. */
typedef struct sremrt_episode_config {
    int32_t k;                       /* elements, 1..SREMRT_EPISODE_MAX_K */
    sremrt_episode_freq freq;
    sremrt_episode_window window;
    int64_t width;                   /* N >= 1 (events) or D >= 0 (timestamp units) */
    uint32_t flags;                  /* SREMRT_EPISODE_EXCLUSIVE or 0 */
    int32_t list_cap;                /* distinct: free events per OccMap list and per
                                        configuration; 0: default (64, or N for a
                                        count window of N < 64); N never overflows */
    int32_t budget;                  /* distinct: configurations kept, and occurrences
                                        tried per configuration and event
                                        (--distinct-budget); 0: default (32) */
} sremrt_episode_config;

/* One counter: one substream of one episode. Read the public fields
 * freely; change them only through the functions. */
typedef struct sremrt_episode {
    sremrt_episode_config cfg;       /* a copy, defaults filled in */
    int64_t freq;                    /* the frequency after the last event */
    int exact;                       /* 0 from the first overflow or budget cut on:
                                        freq is then a lower bound */
    uint64_t events;                 /* events accepted */
    uint64_t rejected;               /* pushes refused (position or timestamp order) */
    uint64_t overflows;              /* free events dropped: a list or configuration full */
    uint64_t budget_exceeded;        /* events at which the budget cut something */
    int32_t configs;                 /* distinct: configurations now (0: OccMap greedy) */
    int32_t peak;                    /* distinct: most configurations held at once */

    /* Internal state. */
    int32_t mode;                    /* what push does (episode_impl.h) */
    int64_t last_pos, min_ts;        /* the next event's position must be above, its
                                        timestamp at least (time window) */
    uint32_t full;                   /* mask of the k elements */
    uint64_t *start;                 /* nonoverlapped: latest start per prefix and the
                                        indices of its partial occurrence (episode.c) */
    int64_t *occurrence;             /* nonoverlapped: the indices of the occurrence
                                        counted last, k of them; NULL for distinct */
    int32_t noccurrence;             /* 0 until one is counted */
    sremrt_occmap occ;               /* distinct: the OccMap greedy */
    unsigned char *pool;             /* distinct: configuration slots */
    size_t slot_bytes;
    int32_t nslots;
    int32_t *cur, *next, *spare;     /* slot indexes: current set, set being built, free slots */
    int32_t nnext, nspare;
    int32_t *dp;                     /* dominance test scratch */
    int32_t *chain;                  /* occurrence being enumerated */
    sremrt_alloc alloc;              /* alloc NULL: caller's buffer */
    void *mem;
    size_t bytes;
} sremrt_episode;

/* NULL if cfg is acceptable, else why not (a constant string). */
const char *sremrt_episode_check(const sremrt_episode_config *cfg);

/* Bytes for one counter (any alignment); 0 if cfg is not acceptable.
 * nonoverlapped: 8 ((k + 1) W + k), W = k + 1 rounded up to 4, 8 or 16
 * (for k <= 15); distinct: 16 (k - 1) list_cap for the lists,
 * plus, without SREMRT_EPISODE_EXCLUSIVE, about
 * (2 budget + 1) (24 list_cap + 24) for the configurations. */
size_t sremrt_episode_bytes(const sremrt_episode_config *cfg);

/* 0, or -1 if cfg is not acceptable or the memory is missing or too small. */
int sremrt_episode_init_buf(sremrt_episode *ep, const sremrt_episode_config *cfg, void *buf, size_t bytes);
int sremrt_episode_init(sremrt_episode *ep, const sremrt_episode_config *cfg, const sremrt_alloc *a);
void sremrt_episode_free(sremrt_episode *ep);

/* Forgets the stream: frequency 0, exact, every count 0; keeps the memory. */
void sremrt_episode_reset(sremrt_episode *ep);

/* As sremrt_episode_push, with index, the event's global index: what the
 * occurrence of a nonoverlapped counter records (sremrt_episode_push uses
 * pos). A partitioned caller passes the substream position as pos. */
int sremrt_episode_push_index(sremrt_episode *ep, int64_t pos, int64_t ts, uint32_t mask, int64_t index);

/* Feeds one event of the counter's substream: pos, its position there
 * (strictly increasing, above INT64_MIN; what a count window counts: pass the
 * substream position, e.g. the global index when not partitioned), ts, its
 * timestamp (non-decreasing; ignored by a count window), mask, bit m - 1 set
 * iff it satisfies element m (bits from k up are ignored). Events that
 * satisfy no element may be skipped or pushed with mask 0. Returns 1 if the
 * frequency grew (by one: ep->freq is the new value), 0 if not, -1 if pos
 * or ts went backwards (the event is ignored and counted in rejected). */
int sremrt_episode_push(sremrt_episode *ep, int64_t pos, int64_t ts, uint32_t mask);

/* Adds overflows to SREMRT_OVF_OCCMAP and budget_exceeded to
 * SREMRT_OVF_BUDGET (call once per counter, e.g. at end of input). */
void sremrt_episode_add_stats(const sremrt_episode *ep, sremrt_stats *st);

/* Zeroes rec and fills kind (SREMRT_EPISODE, _ALERT or _SUMMARY), name,
 * freq and inexact, and for an episode record of a nonoverlapped counter
 * the occurrence counted last (valid until the next push: the counted one
 * right after a push returned 1): the latest one, docs/language.md 6. The
 * caller sets index, has_ts/ts, key, events. */
void sremrt_episode_record(const sremrt_episode *ep, sremrt_kind kind, const char *name, sremrt_record *rec);

#ifdef __cplusplus
}
#endif

#endif
