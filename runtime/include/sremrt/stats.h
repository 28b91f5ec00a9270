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

/* A full buffer is counted here, never a memory error. */
typedef enum sremrt_overflow {
    SREMRT_OVF_PARTITIONS,   /* partition table full: a new key's events dropped */
    SREMRT_OVF_RUNS,         /* run set full: a run dropped */
    SREMRT_OVF_OCCMAP,       /* OccMap list full: an entry dropped */
    SREMRT_OVF_TRIE,         /* pattern trie full: a node not added */
    SREMRT_OVF_BUDGET,       /* distinct-frequency budget exceeded */
    SREMRT_OVF_MEMORY,       /* the allocator hook refused a block */
    SREMRT_OVF_KINDS
} sremrt_overflow;

typedef struct sremrt_stats {
    uint64_t events;                       /* accepted events */
    uint64_t rejected;                     /* rejected lines or records */
    uint64_t overflow[SREMRT_OVF_KINDS];   /* by kind */
} sremrt_stats;

void sremrt_stats_init(sremrt_stats *st);

/* Short name of an overflow kind ("partitions", "runs", ...). */
const char *sremrt_overflow_name(sremrt_overflow k);

uint64_t sremrt_stats_overflows(const sremrt_stats *st);

/* docs/language.md section 6: 0 if every line was accepted, else 3. */
int sremrt_stats_exit_status(const sremrt_stats *st);

/* The report, `seconds` being the run's wall time (<= 0: rate unknown):
 *     events     1000000
 *     events/s   52631579
 *     rejected   3
 *     overflows  7 (partitions 5, runs 2)
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
