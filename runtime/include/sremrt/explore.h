/* explore.h: online exploration of an explore clause (docs/language.md section
 * 5): per event, count the matches of the pattern p = <ET_1..ET_m>, of its
 * extensions <ET_1..ET_m, X> and variations <ET_1..ET_m-1, X> ending at the
 * event, exactly, under stam or stnm and a count or time window; add them
 * to one pattern trie; return the suggestions due. docs/explore.md has the
 * algorithms and why they are exact. */
#ifndef SREMRT_EXPLORE_H
#define SREMRT_EXPLORE_H

#include <stddef.h>
#include <stdint.h>

#include "alloc.h"
#include "out.h"
#include "ptrie.h"
#include "sink.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sremrt_explore_policy {
    SREMRT_EXPLORE_STAM,      /* skip-till-any-match: every index list */
    SREMRT_EXPLORE_STNM       /* skip-till-next-match: one chain per start */
} sremrt_explore_policy;

typedef enum sremrt_explore_window {
    SREMRT_EXPLORE_UNBOUNDED, /* no `within` */
    SREMRT_EXPLORE_EVENTS,    /* within N events: i_n - i_1 + 1 <= N (substream positions) */
    SREMRT_EXPLORE_TIME       /* within D: ts(i_n) - ts(i_1) <= D */
} sremrt_explore_window;

/* Counting algorithm. All are exact (docs/explore.md); they differ in cost:
 * per event, DEFAULT is O(m) to O(m^2) whatever the window; RC and IC are
 * O(events in the window); BF enumerates every match. */
typedef enum sremrt_explore_algo {
    SREMRT_EXPLORE_DEFAULT,   /* sliding infix counts (stam), stage ranks (stnm) */
    SREMRT_EXPLORE_BF,        /* brute force: enumerate the matches */
    SREMRT_EXPLORE_RC,        /* reverse count: walk the window back, count forward */
    SREMRT_EXPLORE_IC,        /* incremental count: prefix counts kept per start */
    SREMRT_EXPLORE_ALGOS
} sremrt_explore_algo;

/* Limits of a configuration. */
#define SREMRT_EXPLORE_MAX_M 64          /* pattern length */
#define SREMRT_EXPLORE_MAX_VALUES 65536  /* values of the event-type enum */
#define SREMRT_EXPLORE_MAX_SUGGEST 2     /* suggestions one event can cause */

/* Window entries a partition keeps when config.capacity is 0: the count
 * window N for `within N events` (never more are needed), capped at
 * SREMRT_EXPLORE_DEFAULT_CAP; SREMRT_EXPLORE_DEFAULT_CAP otherwise. */
#define SREMRT_EXPLORE_DEFAULT_CAP 65536

typedef struct sremrt_explore_config {
    const int32_t *pattern;          /* ET_1..ET_m: value indexes of the event-type enum */
    int32_t m;                       /* 2..SREMRT_EXPLORE_MAX_M */
    int32_t nvalues;                 /* values of that enum; X ranges over the others */
    sremrt_explore_policy policy;
    sremrt_explore_window window;
    int64_t width;                   /* N (events) or D (timestamp units), >= 1 */
    int extensions;                  /* count <ET_1..ET_m, X> */
    int variations;                  /* count <ET_1..ET_m-1, X> */
    double confidence;               /* suggestion threshold, 0..1 */
    sremrt_explore_algo algo;
    int64_t capacity;                /* window entries per partition; 0: default */
} sremrt_explore_config;

/* One suggestion due after an event (docs/language.md section 5). */
typedef struct sremrt_suggestion {
    sremrt_candidate candidate;      /* SREMRT_EXTENSION or SREMRT_VARIATION */
    int32_t type;                    /* X */
    int32_t node;                    /* the candidate's trie node */
    uint64_t freq;                   /* matches counted for it */
    double confidence;               /* freq / all matches counted */
} sremrt_suggestion;

/* What one event did. */
typedef struct sremrt_explore_step {
    uint64_t pattern;                /* matches of p ending at the event */
    uint64_t extension;              /* of <ET_1..ET_m, X>, X the event's type */
    uint64_t variation;              /* of <ET_1..ET_m-1, X> */
    int32_t nsuggest;                /* suggestions due, in record order */
    sremrt_suggestion suggest[SREMRT_EXPLORE_MAX_SUGGEST];
} sremrt_explore_step;

/* Shared by every partition of one pattern: the configuration, the trie,
 * the totals. Read fields freely; change them only through the functions. */
typedef struct sremrt_explore {
    sremrt_explore_config cfg;       /* a copy; cfg.pattern points into mem */
    sremrt_ptrie trie;
    int32_t pattern_node;            /* trie node of p */
    int32_t *path;                   /* path[k]: trie node of ET_1..ET_k (path[0]: root) */
    int32_t *ext_node;               /* per value: node of <p, X>, -1 until counted */
    int32_t *var_node;               /* per value: node of <ET_1..ET_m-1, X>, -1 */
    uint8_t *tinfo;                  /* per value: role flags (explore.c) */
    int32_t *occ;                    /* per value, ascending: k with ET_k == value */
    int32_t *occ_at;                 /* occ[occ_at[v] .. occ_at[v+1]-1] */
    int64_t capacity;                /* window entries per partition */
    uint64_t wrap_limit;             /* stam: events in a window below which no count wraps */
    uint64_t suggest_q, suggest_qmax; /* a candidate with freq * q < total (freq <= qmax)
                                        is below the confidence; q 0: no such test */
    uint64_t events;                 /* events pushed, all partitions */
    uint64_t overflows;              /* window entries dropped for lack of capacity */
    int inexact;                     /* overflows > 0: counts may be low from then on */
    int may_wrap;                    /* a stam count may have exceeded 2^64 (mod 2^64) */
    sremrt_alloc alloc;              /* alloc NULL: caller's buffer */
    void *mem;
    size_t bytes;
} sremrt_explore;

/* Counting state of one partition (one substream); the generated code
 * keeps one per partition key (a keymap slot) and one shared explore. */
typedef struct sremrt_explore_part {
    int64_t pos;                     /* events of this substream so far */
    int64_t head, size, cap;         /* window ring: oldest entry, entries, capacity */
    int64_t *keys;                   /* ring: position or timestamp of each entry */
    int32_t *codes;                  /* ring: event type, or stage (ic stnm) */
    uint64_t *vals;                  /* ring: per-entry counters (ic) */
    uint64_t *cnt;                   /* default/ic: counters (explore.c) */
    uint64_t *g, *h;                 /* stnm: per value, ranks at the last X event */
    uint64_t overflows;              /* entries dropped for lack of capacity */
    sremrt_alloc alloc;
    void *mem;
    size_t bytes;
} sremrt_explore_part;

/* Algorithm names "default", "bf", "rc", "ic"; parse returns -1 if unknown. */
const char *sremrt_explore_algo_name(sremrt_explore_algo a);
int sremrt_explore_algo_parse(const char *name);

/* NULL if cfg is acceptable, else why not (a constant string). */
const char *sremrt_explore_check(const sremrt_explore_config *cfg);

/* Bytes for the shared state (any alignment); 0 if cfg is not acceptable. */
size_t sremrt_explore_bytes(const sremrt_explore_config *cfg);

/* 0, or -1 if cfg is not acceptable or memory is missing. */
int sremrt_explore_init_buf(sremrt_explore *ex, const sremrt_explore_config *cfg, void *buf, size_t bytes);
int sremrt_explore_init(sremrt_explore *ex, const sremrt_explore_config *cfg, const sremrt_alloc *a);
void sremrt_explore_free(sremrt_explore *ex);

/* Bytes for one partition's state, for ex's configuration. */
size_t sremrt_explore_part_bytes(const sremrt_explore *ex);
int sremrt_explore_part_init_buf(const sremrt_explore *ex, sremrt_explore_part *st, void *buf, size_t bytes);
int sremrt_explore_part_init(const sremrt_explore *ex, sremrt_explore_part *st, const sremrt_alloc *a);
void sremrt_explore_part_free(sremrt_explore_part *st);

/* Feeds one event of st's substream: its timestamp (any value without a
 * time window) and its type (value index). Counts the matches ending at it
 * (out->pattern, extension, variation), adds them to the trie, and lists
 * the suggestions now due: extensions before variations, then in enum
 * order. Returns out->nsuggest, or -1 if type is out of range (the event is
 * then ignored, out's counts zero). out may be NULL. */
int32_t sremrt_explore_push(sremrt_explore *ex, sremrt_explore_part *st, int64_t ts,
                            int32_t type, sremrt_explore_step *out);

/* The pieces of sremrt_explore_push for a counting step specialised to
 * one configuration (the code sremc generates per explore clause, default
 * algorithm; docs/explore.md "Generated counting step"). take: adds the
 * counts in out (pattern, extension, variation of the event's type t) to
 * the trie and lists the suggestions due, as push does; returns
 * out->nsuggest. make_room: when st's window ring is full, makes room for
 * one entry as the default algorithm does (stnm: after f[1] counted the
 * new start). in_window: stnm, how many of the ranks lo+1..hi are >= first. */
int32_t sremrt_explore_take(sremrt_explore *ex, int32_t t, sremrt_explore_step *out);
/* The suggestions due once out's counts are in the trie (take's last
 * part; the generated step updates the trie itself, with path[k] == k:
 * init inserts the path first into an empty trie). Returns out->nsuggest. */
int32_t sremrt_explore_due(sremrt_explore *ex, int32_t t, sremrt_explore_step *out);
void sremrt_explore_make_room(sremrt_explore *ex, sremrt_explore_part *st);
static inline uint64_t sremrt_explore_in_window(uint64_t lo, uint64_t hi, uint64_t first)
{
    uint64_t from = lo + 1 > first ? lo + 1 : first;
    return hi >= from ? hi - from + 1 : 0;
}

/* A suggest record for s: name, candidate, sequence (type names from
 * names[], written into seq, which needs m + 1 entries), freq,
 * confidence. The caller sets index, has_ts and ts. */
void sremrt_explore_suggest_record(const sremrt_explore *ex, const sremrt_suggestion *s,
                                   const char *name, const char *const *names,
                                   const char **seq, int32_t seqcap, sremrt_record *rec);

/* Best candidates a summary record lists. */
#define SREMRT_EXPLORE_SUMMARY_BEST 3

/* Storage a summary record points into. */
typedef struct sremrt_explore_summary {
    sremrt_best best[SREMRT_EXPLORE_SUMMARY_BEST];
    const char *seq[SREMRT_EXPLORE_SUMMARY_BEST][SREMRT_EXPLORE_MAX_M + 1];
} sremrt_explore_summary;

/* The end-of-input summary record: events (pushed, all partitions), freq
 * = matches counted for p, and the (at most SREMRT_EXPLORE_SUMMARY_BEST)
 * best candidates as sremrt_explore_best ranks them, their types named by
 * names[] (NULL: "?"); rec points into *store. */
void sremrt_explore_summary_record(const sremrt_explore *ex, const char *name, const char *const *names,
                                   sremrt_explore_summary *store, sremrt_record *rec);

/* Candidates with at least one match, best first: freq descending, then
 * extensions before variations, then enum order. Writes at most cap, returns
 * how many there are. */
int32_t sremrt_explore_best(const sremrt_explore *ex, sremrt_suggestion *best, int32_t cap);

/* Summary for people: totals, then the `top` (at most 16) best candidates:
 *     explore overheat: events=7 matches=4 pattern=1 algorithm=default
 *       variation <TempRise FanStart Alarm> freq=2 confidence=0.5 suggested
 *       extension <TempRise FanStart PowerIncrease Alarm> freq=1 confidence=0.25
 * The first line ends with ` inexact overflows=N`, ` may-wrap`, ` saturated`
 * when those apply. */
void sremrt_explore_summary_emit(sremrt_sink *s, const sremrt_explore *ex, const char *name,
                                 const char *const *names, int32_t top);

#ifdef __cplusplus
}
#endif

#endif
