/* stats.h: counters of a generated program's run (events, rejected lines,
 * capacity overflows by kind) and the `--stats` report. */
#ifndef SREMRT_STATS_H
#define SREMRT_STATS_H

#include <stddef.h>
#include <stdint.h>
#ifndef SREMRT_FREESTANDING
#include <stdio.h>
#endif

#include "sink.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A full buffer is counted here, never a memory error. Names (in records
 * and --stats) in comments; each counts what was dropped. */
typedef enum sremrt_overflow {
    SREMRT_OVF_KEYS,         /* "keys": events of a new key dropped, its partition
                                table full (a limit, a capacity, or memory) */
    SREMRT_OVF_RUNS,         /* "runs": runs dropped, a run set full */
    SREMRT_OVF_OCCMAP,       /* "occmap": events dropped from a full OccMap list */
    SREMRT_OVF_TRIE,         /* "trie": explore window entries or trie nodes dropped */
    SREMRT_OVF_BUDGET,       /* "budget": events at which the distinct budget cut work */
    SREMRT_OVF_MEMORY,       /* "memory": blocks the allocator hook refused */
    SREMRT_OVF_START,        /* "start": match records without start (and bind):
                                the events back to it not kept, or the replay
                                out of its bounds (docs/language.md 3.4) */
    SREMRT_OVF_EVENTS,       /* "events": records written without an event they
                                name (start or bound: no longer kept), when the
                                host writes the events (cfg.events, --events) */
    SREMRT_OVF_KINDS
} sremrt_overflow;

/* The old name of SREMRT_OVF_KEYS. */
#define SREMRT_OVF_PARTITIONS SREMRT_OVF_KEYS

typedef struct sremrt_stats {
    uint64_t events;                       /* accepted events */
    uint64_t rejected;                     /* rejected lines or records */
    uint64_t overflow[SREMRT_OVF_KINDS];   /* by kind */
} sremrt_stats;

void sremrt_stats_init(sremrt_stats *st);

/* Short name of an overflow kind ("partitions", "runs", ...). */
const char *sremrt_overflow_name(sremrt_overflow k);

uint64_t sremrt_stats_overflows(const sremrt_stats *st);

/* docs/language.md section 6: 0 if every line was accepted and nothing
 * was dropped for lack of capacity, else 3. */
int sremrt_stats_exit_status(const sremrt_stats *st);

/* The message of a declaration's overflow record (counts by kind):
 * "overflow: 1900 events of new keys dropped (--max-keys), 3 runs
 * dropped (--max-runs)"; the options that raise each limit, as a
 * generated program and sremc name them. Returns the text's length;
 * writes at most cap bytes, NUL included. */
void sremrt_overflow_emit(sremrt_sink *s, const uint64_t *counts);
size_t sremrt_overflow_format(char *buf, size_t cap, const uint64_t *counts);

/* The report, `seconds` being the run's wall time (<= 0: rate unknown):
 *     events     1000000
 *     events/s   52631579
 *     rejected   3
 *     overflows  7 (keys 5, runs 2)
 */
void sremrt_stats_emit(sremrt_sink *s, const sremrt_stats *st, double seconds);
size_t sremrt_stats_format(char *buf, size_t cap, const sremrt_stats *st, double seconds);

#ifndef SREMRT_FREESTANDING   /* host.c: left out of firmware builds */
/* Host: the report to a FILE (stderr for --stats); 0 or EOF on error. */
int sremrt_stats_print(FILE *out, const sremrt_stats *st, double seconds);

/* Host: a monotonic clock in seconds, for the rate. */
double sremrt_clock_seconds(void);
#endif

#ifdef __cplusplus
}
#endif

#endif
