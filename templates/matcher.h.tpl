@@# matcher.h.tpl: the generated NAME.h (compiler/codegen/cg_emit.c fills it;
@@# the syntax and the holes they share: matcher.c.tpl). Its own holes:
@@#   GUARD         the include guard
@@#   FREESTANDING  (a condition) --freestanding: no stdio, no malloc
@@#   EVENT_FIELDS  one member per schema attribute
@@#   CONSTANTS     an enum per enum attribute, one of the declarations
@@#   TYPES_H       --freestanding: the matcher struct and the state types
/* @@HEADER@@: the matcher sremc generated from @@SOURCE@@ (do not edit).
 * Events go in through @@PREFIX@@_push; records come out through the
 * config's callback. C99; every external name starts with @@PREFIX@@_. */
#ifndef @@GUARD@@
#define @@GUARD@@
@@IF FREESTANDING@@

/* --freestanding: no stdio, no malloc (runtime headers leave them out). */
#ifndef SREMRT_FREESTANDING
#define SREMRT_FREESTANDING 1
#endif
@@END FREESTANDING@@

#include <stddef.h>
#include <stdint.h>

#include "sremrt/alloc.h"
@@IF TYPES_H@@
@@IF HAS_EPISODES@@
#include "sremrt/episode.h"
@@END HAS_EPISODES@@
@@IF HAS_EXPLORE@@
#include "sremrt/explore.h"
@@END HAS_EXPLORE@@
@@IF HAS_KEYMAP@@
#include "sremrt/keymap.h"
@@END HAS_KEYMAP@@
@@IF HAS_ABSENT@@
#include "sremrt/absq.h"
@@END HAS_ABSENT@@
@@END TYPES_H@@
#include "sremrt/out.h"
#include "sremrt/schema.h"
#include "sremrt/sink.h"
#include "sremrt/state.h"
#include "sremrt/stats.h"
#include "sremrt/tsorder.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One event of schema @@SCHEMA@@, laid out as @@PREFIX@@_schema describes. */
typedef struct @@PREFIX@@_event {
    @@EVENT_FIELDS@@
} @@PREFIX@@_event;

/* Named constants, PREFIX_ATTR_VALUE and PREFIX_DECL_NAME in capitals with
 * '_' for each character that cannot be in a C name: the values of each enum
 * attribute, as @@PREFIX@@_event holds them, then the declarations. */
@@CONSTANTS@@

/* The descriptor the runtime's readers use to fill @@PREFIX@@_event. */
extern const sremrt_schema @@PREFIX@@_schema;
@@IF HAS_CKEYS@@

/* Composite partition keys (partition by a, b, ...; docs/language.md 3.3):
 * a record of such a declaration has r->key NULL and r->nkey 2..4, the key's
 * attributes r->key_attrs[0..nkey-1] in the clause's order and their values
 * r->key_values[0..nkey-1] as an event holds them (an int, an enum index, a
 * bool 0/1, a string id in r->strings); like the key text, they live only
 * until the callback returns. sremrt_sink_key_tuple writes the JSON array. */
@@END HAS_CKEYS@@

/* What @@PREFIX@@_init needs; @@PREFIX@@_config_default fills the defaults.
 * Records: cfg.record gets each record as it is made, inside push,
 * push_many and finish. r->decl is its declaration (a PREFIX_DECL_NAME
 * constant below; not in error records), r->name that declaration's name, a
 * string that lives as long as the program. The record and everything
 * else it points to (key, sequence, best, message, and a match's
 * bind_names, bind, start_event and bind_events, an episode record's
 * occurrence) live only until the callback returns: copy what you keep.
 * An episode record of a nonoverlapped episode names the occurrence it
 * counted: r->occurrence[0..r->noccurrence-1], global indices.
 * What matched (docs/language.md 3.4), in every match record: r->start,
 * the global index of the match's first event (0: unknown, when it lies
 * beyond the events a pattern keeps: hosted, all within an unpartitioned
 * pattern's time window (the ring grows through cfg.alloc), else 256
 * (--freestanding: 32) with a time window or none, at most 4,096 with a
 * count window; or when the replay that finds it ran out of its work
 * bounds; each such record counted, SREMRT_OVF_START in
 * @@PREFIX@@_overflows); for
 * a pattern with labels, r->nbind of them, r->bind_names[k] (in the
 * pattern's register order) and r->bind[k], the global index of the event
 * bound to label k last (0: the canonical parse does not pass through it).
 * r->schema describes the events: r->start_event is the event at start,
 * r->bind_events[k] the event bound to label k (NULL where absent), each a
 * const @@PREFIX@@_event *, copies the matcher keeps or the array given to
 * push_many. An event is given while it is among the events kept for it
 * (the same for push and push_many); r->events_missing is 1 when start
 * or a bound label names an event no longer kept (its pointer NULL). */
typedef struct @@PREFIX@@_config {
    void (*record)(void *user, const sremrt_record *r);  /* each record; NULL: none */
    void *user;            /* passed to record */
    int32_t max_keys;      /* partition keys per partitioned declaration (--max-keys):
                              hosted, a hard limit: the tables start small and grow
                              through alloc as keys arrive, up to it; --freestanding,
                              the fixed capacity. 0: the default (@@PREFIX@@_config_default:
                              sremc's --max-keys; hosted without it, no limit) */
    int32_t max_runs;      /* live runs per runs pattern and partition (--max-runs):
                              hosted, a hard limit: the run sets start small and grow
                              through alloc, up to it; --freestanding, the fixed
                              capacity. 0: the default (sremc's --max-runs; hosted
                              without it, no limit) */
    int32_t distinct_budget; /* distinct episodes: configurations kept per episode and
                              partition (--distinct-budget); 0: default (32) */
    int32_t occmap_cap;    /* distinct episodes: free events per OccMap list; 0: default */
    int32_t explore_algo;  /* explore counting: a sremrt_explore_algo (0: default) */
    int64_t explore_cap;   /* explore: window entries per partition; 0: default */
    int32_t forecast_every;/* forecast patterns: a forecast record after every event
                              (a program's --forecast-emit every); 0: only when the
                              forecast of the key differs from the last one given */
    int32_t flush_absent;  /* patterns with `absent` (docs/language.md 3.7): at finish, an
                              absent record for each match still waiting (a program's
                              --flush-absent); 0: those are dropped */
    int32_t events;        /* the host writes the records' events (a program's --events):
                              each match or absent record with r->events_missing is
                              counted, SREMRT_OVF_EVENTS in @@PREFIX@@_overflows; 0:
                              not counted (the flag is set either way) */
    void (*symbol)(void *user, int32_t decl, int32_t slot, uint32_t symbol);
                           /* forecast patterns: after each event of a substream, the
                              symbol it took (the transition of the pattern's automaton)
                              and the substream (slot: the partition key's number, 0
                              unpartitioned), for training (sremc train); NULL: none */
    sremrt_alloc alloc;    /* where memory comes from (alloc NULL: malloc); hosted
                              tables grow through it: wrap it in sremrt_alloc_limit
                              to bound the memory (a program's --max-memory) */
    sremrt_strtab *strings;/* string attributes: the string table to share (matchers
                              fed the same events, e.g. one per thread); NULL: the
                              matcher's own, grown through alloc */
} @@PREFIX@@_config;

/* Allocate @@PREFIX@@_matcher_size() bytes (any C alignment); opaque except
 * in --freestanding code, where the type is complete below so that a
 * firmware can declare one statically. */
typedef struct @@PREFIX@@_matcher @@PREFIX@@_matcher;
@@TYPES_H@@
size_t @@PREFIX@@_matcher_size(void);
void @@PREFIX@@_config_default(@@PREFIX@@_config *cfg);

/* 0, or -1 when the runtime library speaks another ABI or the allocator
 * refused the memory the capacities need (then call @@PREFIX@@_free). */
int @@PREFIX@@_init(@@PREFIX@@_matcher *m, const @@PREFIX@@_config *cfg);

/* String attributes hold ids: a C host gets the id of s[0..len) from
 * @@PREFIX@@_intern (the same string, the same id; -1 when the table is full:
 * hosted, memory refused), and --input bin carries these ids. strtab is the
 * table a reader interns into (sremrt_csv.strings; NULL: the schema has no
 * string attribute). */
int64_t @@PREFIX@@_intern(@@PREFIX@@_matcher *m, const char *s, size_t len);
sremrt_strtab *@@PREFIX@@_strtab(@@PREFIX@@_matcher *m);

/* Feeds one event: 0, or nonzero when it is rejected (its timestamp goes
 * backwards: @@PREFIX@@_error says why) and not matched. */
int @@PREFIX@@_push(@@PREFIX@@_matcher *m, const @@PREFIX@@_event *e);

/* Feeds e[0..n-1] in order, one call for many events (the step is inlined
 * into one loop): returns n, or the index of the first event rejected (as
 * push would have; @@PREFIX@@_error says why), after which nothing more was
 * fed; feed the rest from the next one on. */
size_t @@PREFIX@@_push_many(@@PREFIX@@_matcher *m, const @@PREFIX@@_event *e, size_t n);

/* End of stream: the summary records (one per episode and partition key,
 * one per explore clause, in declaration order), then, for each
 * declaration that dropped anything for lack of capacity (a limit, a
 * capacity, memory refused, a distinct budget), one overflow record:
 * kind SREMRT_ERROR, its name, a message and the counts in r->overflow;
 * and the totals added to the stats. Once; push no more. */
void @@PREFIX@@_finish(@@PREFIX@@_matcher *m);

/* Threads (a program's --threads): n matchers, each given its shard
 * 0..n-1 of n before its first push, are fed the same events; each runs
 * only the partition keys k of its shard (sremrt_key_shard(k, n) == shard)
 * of the partitioned patterns (without explore clause) and episodes, and
 * shard 0 alone every other declaration. The records of an event come
 * from one matcher per declaration; a partition's summary record carries
 * the index of its first event in r.index. 0, or -1 when shard or n is
 * out of range, an event was pushed already, or n > 1 and the file has
 * nothing to spread (then run one matcher). */
int @@PREFIX@@_set_shard(@@PREFIX@@_matcher *m, int32_t shard, int32_t nshards);

/* End of stream for ms[0..n-1], the shards of one stream: finishes
 * shards 1..n-1 (their summaries), adds what they dropped to shard 0, and
 * finishes shard 0 (its summaries, then the overflow records with the
 * totals; its stats then hold them). */
void @@PREFIX@@_finish_shards(@@PREFIX@@_matcher *const *ms, int32_t n);

/* The pattern tries of the explore clauses, one after the other: as text
 * (totals, best candidates, then the nodes) or, dot nonzero, as Graphviz
 * digraphs. Nothing when the file has no explore clause. */
void @@PREFIX@@_trie_emit(const @@PREFIX@@_matcher *m, sremrt_sink *s, int dot);

#ifndef SREMRT_FREESTANDING
/* Host: the tries as Graphviz dot to out; 0, or -1 on a write error. */
int @@PREFIX@@_trie_dot(const @@PREFIX@@_matcher *m, FILE *out);
#endif

/* The forecast patterns (docs/forecasting.md), for a trainer: each one's
 * declaration, name, number of symbols, the model order of its clause,
 * the hash of its automaton (a model file must carry the same), whether
 * this matcher was compiled with its tables (sremc --model) and whether
 * they are exact (not the context automaton's node mode), and its kind.
 * Returns how many; *out points at them. Forecast records (kind
 * SREMRT_FORECAST) come after the match records of their event: r->fc_within
 * 0 for an interval r->fc_from..r->fc_to (events from now), 1 for
 * P(detection within r->fc_to events) with r->fc_positive; r->fc_prob the
 * probability in units of 1e-4. */
typedef struct @@PREFIX@@_forecast_info {
    int32_t decl;
    const char *name;
    uint32_t nsym, order;
    uint64_t hash;
    int tables, exact;
    int within;   /* forecast within K events; 0: interval */
    /* hosted, compiled without tables: the symbol automaton (next[q *
       nsym + s], -1: s cannot occur in q; final[q]), else 0 and NULL */
    uint32_t nstates;
    const int32_t *next;
    const uint8_t *final;
    /* the clause (docs/language.md 3.6): the decision, then the learner */
    double theta;
    uint32_t horizon, max_spread, k;
    double pmin, alpha, gamma, r;
} @@PREFIX@@_forecast_info;
int32_t @@PREFIX@@_forecast_patterns(const @@PREFIX@@_forecast_info **out);

#ifndef SREMRT_FREESTANDING
struct sremrt_fc_flat;
/* Hosted: forecast tables learned at run time (a program's --train-first,
 * sremrt_fc_flatten of the forecasting core's table) for forecast pattern
 * decl, compiled without --model; f must outlive m. Each key's context
 * starts afresh. 0, or -1 when decl is no such pattern or f has other
 * sizes. */
int @@PREFIX@@_forecast_set_tables(@@PREFIX@@_matcher *m, int32_t decl, const struct sremrt_fc_flat *f);
#endif

/* Gives back the memory init and push took from the allocator. */
void @@PREFIX@@_free(@@PREFIX@@_matcher *m);

/* Accepted and rejected events so far; the overflow totals once finish
 * has run (sremrt_stats_exit_status: 3 if anything was rejected or
 * dropped). */
const sremrt_stats *@@PREFIX@@_stats(const @@PREFIX@@_matcher *m);

/* What declaration d (a PREFIX_DECL_NAME constant above) dropped so far, counts by
 * sremrt_overflow kind (SREMRT_OVF_KINDS of them; episodes' and explore
 * clauses' OccMap, budget and trie counts once finish has run), or NULL
 * if d is out of range. Valid until @@PREFIX@@_free. */
const uint64_t *@@PREFIX@@_overflows(const @@PREFIX@@_matcher *m, int d);

/* Checkpoints (docs/codegen.md): the matcher's whole state as bytes, and
 * back. state_size gives the bytes state_save writes now; state_save
 * writes them into buf (cap bytes): 0, or SREMRT_STATE_ESPACE (buf too
 * small), SREMRT_STATE_EUSED (finish has run). state_load takes them into
 * a matcher fresh from init with the same config (capacities: the same
 * options): 0, or SREMRT_STATE_EFORMAT (not a checkpoint, truncated,
 * corrupted), _EVERSION (another format or runtime ABI), _EFOREIGN (another
 * pattern file, or another build of it), _ECONFIG (other capacities),
 * _EMEMORY (allocator refused), _EUSED (m has taken events); foreign and
 * damaged checkpoints are refused before m changes; after any other error
 * free m and init it again. Fed the events after the checkpoint's, a loaded
 * matcher gives exactly the records of one that never stopped.
 * sremrt_state_strerror names a code; sremrt_state_peek reads the header
 * (events taken, hash) without a matcher. */
size_t @@PREFIX@@_state_size(const @@PREFIX@@_matcher *m);
int @@PREFIX@@_state_save(const @@PREFIX@@_matcher *m, void *buf, size_t cap);
int @@PREFIX@@_state_load(@@PREFIX@@_matcher *m, const void *buf, size_t len);

/* Why the last push returned nonzero. */
const char *@@PREFIX@@_error(const @@PREFIX@@_matcher *m);

#ifdef __cplusplus
}
#endif

#endif
