@@# matcher.c.tpl: the generated NAME.c (compiler/codegen/cg_emit.c fills it).
@@# Syntax (templates/README.md): @@NAME@@ a hole; "@@IF NAME@@" .. "@@END NAME@@"
@@# keep their lines when hole NAME is not empty ("!NAME": when it is); lines
@@# like these are notes, left out. A hole alone on its line is a block: each
@@# of its lines gets the hole's indentation.
@@# Inline holes:
@@#   PREFIX       the C prefix of every external name (--prefix, or the file's)
@@#   SOURCE_C     this file's name; SOURCE: the .srem file; HEADER: the .h
@@#   STRATEGIES   the strategies of the file's patterns ("tdfa dsra")
@@#   SCHEMA       the schema's name
@@#   TS_FIELD     the event's timestamp field (HAS_TS only)
@@#   MAX_KEYS, MAX_RUNS, DISTINCT_BUDGET, OCCMAP_CAP, EXPLORE_CAP
@@#                the config's defaults (the options of the same names)
@@#   PUSH_ONE     what push calls: push_each or push_in
@@#   NDECLS       patterns and episodes; DECL_NAMES: their names, C strings
@@# Conditions ("1" or empty):
@@#   HAS_TS       the schema has a timestamp
@@#   HAS_EPISODES, HAS_EXPLORE, HAS_KEYMAP
@@#                an episode, an explore clause, a partitioned declaration
@@#   SHARDED      hosted, with a declaration set_shard spreads over shards
@@#   USES_KEYS    something formats or maps partition keys (sremrt/keymap.h)
@@#   USES_WRAP, USES_DIV, USES_MOD, USES_MAX, USES_SAME_EVENT, USES_MATCH,
@@#   USES_ABOUT   the generated code calls PREFIX_wrap, ... (so it is defined)
@@#   USES_HELPERS one of wrap, div, mod, max and same_event
@@#   HAS_CANON    a pattern's records get start and bindings by a replay (CANON_CODE)
@@#   HAS_HIST     and unpartitioned ones read the shared ring of the last events
@@#   STATE_HASH   the checkpoint hash of this file (cg_state_hash), a C constant
@@#   STATE_EVENTS the checkpoint walk saves events of the replays' rings
/* @@SOURCE_C@@: the matcher sremc generated from @@SOURCE@@ (do not edit):
 * one step function per pattern (@@STRATEGIES@@), driven by @@PREFIX@@_push. */
#include "@@HEADER@@"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "sremrt/abi.h"
#include "sremrt/state.h"
#include "sremrt/fc_model.h"
@@IF HAS_CANON@@
#include "sremrt/canon.h"
@@END HAS_CANON@@
@@IF HAS_EPISODES@@
#include "sremrt/episode.h"
@@END HAS_EPISODES@@
@@IF HAS_EXPLORE@@
#include "sremrt/explore.h"
@@END HAS_EXPLORE@@
@@IF USES_KEYS@@
#include "sremrt/keymap.h"
@@END USES_KEYS@@
@@IF HAS_ABSENT@@
#include "sremrt/absq.h"
@@END HAS_ABSENT@@
#include "sremrt/tsorder.h"

SREMRT_ABI_REQUIRE(@@PREFIX@@, 11);

/* ======== schema descriptor =============================================== */

@@# SCHEMA_DESC: the enum value names, PREFIX_attrs and PREFIX_schema
@@SCHEMA_DESC@@

@@IF USES_HELPERS@@
/* ======== condition semantics (docs/language.md 3.2) ============================= */

@@END USES_HELPERS@@
@@IF USES_WRAP@@
/* Integers wrap modulo 2^64: arithmetic is done in uint64_t and read back
 * as two's complement without implementation-defined conversions. */
static inline int64_t @@PREFIX@@_wrap(uint64_t u)
{
    if (u <= (uint64_t)INT64_MAX)
        return (int64_t)u;
    return (int64_t)(u - (uint64_t)INT64_MAX - 1) + INT64_MIN;
}

@@END USES_WRAP@@
@@IF USES_DIV@@
/* A zero divisor makes the whole condition false (*undef); INT64_MIN / -1
 * wraps to INT64_MIN and INT64_MIN % -1 is 0 instead of trapping. */
static inline int64_t @@PREFIX@@_div(int64_t a, int64_t b, int *undef)
{
    if (b == 0) {
        *undef = 1;
        return 0;
    }
    if (b == -1)
        return @@PREFIX@@_wrap(0 - (uint64_t)a);
    return a / b;
}

@@END USES_DIV@@
@@IF USES_MOD@@
/* As @@PREFIX@@_div: a zero divisor is undefined; INT64_MIN % -1 is 0. */
static inline int64_t @@PREFIX@@_mod(int64_t a, int64_t b, int *undef)
{
    if (b == 0) {
        *undef = 1;
        return 0;
    }
    if (b == -1)
        return 0;
    return a % b;
}

@@END USES_MOD@@
@@IF USES_MAX@@
static inline int64_t @@PREFIX@@_max(int64_t a, int64_t b) { return a > b ? a : b; }

@@END USES_MAX@@
@@IF USES_SAME_EVENT@@
/* Register contents are equal when every attribute is bitwise equal. */
static inline int @@PREFIX@@_same_event(const @@PREFIX@@_event *a, const @@PREFIX@@_event *b)
{
@@# SAME_EVENT: one memcmp per attribute
    @@SAME_EVENT@@
}

@@END USES_SAME_EVENT@@
@@IF EXTERNS@@
@@# EXTERNS: the prototypes of the extern predicates
@@EXTERNS@@

@@END EXTERNS@@
@@IF TYPES_C@@
@@# TYPES_C: the matcher struct and the state types (here unless --freestanding)
@@TYPES_C@@

@@END TYPES_C@@
/* ======== patterns ========================================================== */

@@# PATTERN_CODE: per declaration its state type, conditions and step function
@@PATTERN_CODE@@
@@IF HAS_CANON@@
/* ======== start and bindings: the replay (docs/codegen.md) ================= */

@@# CANON_CODE: each pattern's description for runtime/canon.c, PREFIX_canon_fill
@@CANON_CODE@@
@@END HAS_CANON@@
/* ======== the matcher ======================================================= */

/* The names of the declarations, by their PREFIX_DECL_NAME constants. */
static const char *const @@PREFIX@@_decl_names[] = {@@DECL_NAMES@@};

@@IF HAS_ABSENT@@
@@# ABSENT_CODE: the pending absences of the patterns with `absent` (cg_absent.c)
@@ABSENT_CODE@@
@@END HAS_ABSENT@@

size_t @@PREFIX@@_matcher_size(void) { return sizeof(struct @@PREFIX@@_matcher); }

@@IF HAS_STRINGS@@
#define @@PREFIX@@_STRTAB(m) ((m)->strings)
@@END HAS_STRINGS@@
@@IF !HAS_STRINGS@@
#define @@PREFIX@@_STRTAB(m) NULL
@@END !HAS_STRINGS@@

@@# FORECAST_INFO: one entry per forecast pattern, each ending in ",\n    "
static const @@PREFIX@@_forecast_info @@PREFIX@@_forecast_table[] = {
    @@FORECAST_INFO@@{-1, "", 0, 0, 0, 0, 0, 0, 0, NULL, NULL, 0, 0, 0, 0, 0, 0, 0, 0}   /* never an empty array */
};

int32_t @@PREFIX@@_forecast_patterns(const @@PREFIX@@_forecast_info **out)
{
    *out = @@PREFIX@@_forecast_table;
    return @@NFORECASTS@@;
}

#ifndef SREMRT_FREESTANDING
int @@PREFIX@@_forecast_set_tables(@@PREFIX@@_matcher *m, int32_t decl, const struct sremrt_fc_flat *f)
{
    switch (decl) {
@@# FORECAST_SET: "case D: ... return 0;" per forecast pattern compiled without a model
    @@FORECAST_SET@@default:
        (void)m;
        (void)f;
        return -1;
    }
}
#endif

void @@PREFIX@@_config_default(@@PREFIX@@_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->max_keys = @@MAX_KEYS@@;
    cfg->max_runs = @@MAX_RUNS@@;
    cfg->distinct_budget = @@DISTINCT_BUDGET@@;
    cfg->occmap_cap = @@OCCMAP_CAP@@;
@@IF HAS_EXPLORE@@
    cfg->explore_algo = SREMRT_EXPLORE_DEFAULT;
@@END HAS_EXPLORE@@
    cfg->explore_cap = @@EXPLORE_CAP@@;
#ifndef SREMRT_FREESTANDING
    cfg->alloc = sremrt_alloc_malloc();
#endif
}

@@IF USES_ABOUT@@
/* Sets the fields every record about the event just pushed carries. */
static void @@PREFIX@@_about(const @@PREFIX@@_matcher *m, const @@PREFIX@@_event *e, sremrt_record *r)
{
    r->index = m->index;
    r->strings = @@PREFIX@@_STRTAB(m);
@@IF HAS_TS@@
    r->has_ts = 1;
    r->ts = (int64_t)e->@@TS_FIELD@@;
@@END HAS_TS@@
@@IF !HAS_TS@@
    r->has_ts = 0;   /* schema @@SCHEMA@@ has no timestamp */
    r->ts = 0;
    (void)e;
@@END !HAS_TS@@
}

@@END USES_ABOUT@@
@@IF HAS_CKEYS@@
/* A record of a declaration with a composite key (partition by a, b, ...;
 * docs/language.md 3.3): `slot` is the key's slot in the declaration's
 * table, whose tuple the record carries instead of a key text. */
static void @@PREFIX@@_ckey(const @@PREFIX@@_matcher *m, int32_t decl, int64_t slot, sremrt_record *r)
{
    r->strings = @@PREFIX@@_STRTAB(m);   /* a summary record has no event, but its key may have strings */
    switch (decl) {
@@# CKEY_CASES: "case D: { ... return; }" per declaration with a composite key
    @@CKEY_CASES@@default:
        (void)m;
        (void)slot;
        (void)r;
        return;
    }
}

@@END HAS_CKEYS@@
@@IF USES_MATCH@@
/* Emits one match record for the event just pushed. The record is the
 * matcher's (init zeroed it): every field a match record carries is set
 * here or in canon_fill on each call, the others stay zero, so no
 * memset of the whole record per match (B1's dsra: 34 instructions a
 * record of its 73). */
#if defined(__GNUC__)   /* a record is rare next to an event: inlined into a loop, its
                            registers cost the step (B7's runs: 0.8 instructions an event) */
#define @@PREFIX@@_MATCH_NOINLINE __attribute__((noinline))
#else
#define @@PREFIX@@_MATCH_NOINLINE
#endif
static @@PREFIX@@_MATCH_NOINLINE void @@PREFIX@@_match(@@PREFIX@@_matcher *m, int32_t decl, const @@PREFIX@@_event *e,
        const sremrt_attr *key_attr, int64_t key)
{
    char key_text[128];
    sremrt_record *r = &m->mrec;
@@IF HAS_ABSENT@@
    if (@@PREFIX@@_ab_add(m, decl, e, key))
        return;   /* a pattern with `absent`: the match waits for its deadline */
@@END HAS_ABSENT@@
    if (!m->cfg.record)
        return;
    r->kind = SREMRT_MATCH;
    r->name = @@PREFIX@@_decl_names[decl];
    r->decl = decl;
    @@PREFIX@@_about(m, e, r);
    r->key = NULL;
@@IF HAS_CKEYS@@
    r->nkey = 0;
    r->key_attrs = NULL;
    r->key_values = NULL;
@@END HAS_CKEYS@@
    if (key_attr) {
        r->key = sremrt_key_text(key_text, sizeof key_text, key_attr, key, @@PREFIX@@_STRTAB(m));
@@IF HAS_CKEYS@@
        @@PREFIX@@_ckey(m, decl, key, r);
@@END HAS_CKEYS@@
    }
@@IF HAS_CANON@@
    @@PREFIX@@_canon_fill(m, decl, r);
    @@PREFIX@@_canon_lost(m, decl, r);
@@END HAS_CANON@@
    m->cfg.record(m->cfg.user, r);
    r->key = NULL;   /* key_text goes */
}

@@END USES_MATCH@@
@@IF HAS_EPISODES@@
/* An episode's frequency grew on the event just pushed: its episode
 * record, and its alert record when the frequency just reached alert. */
static void @@PREFIX@@_episode(@@PREFIX@@_matcher *m, const sremrt_episode *c, int32_t decl,
        const @@PREFIX@@_event *e, const sremrt_attr *key_attr, int64_t key, int64_t alert)
{
    char key_text[128];
    sremrt_record r;
    if (!m->cfg.record)
        return;
    sremrt_episode_record(c, SREMRT_EPISODE, @@PREFIX@@_decl_names[decl], &r);
    r.decl = decl;
    @@PREFIX@@_about(m, e, &r);
    if (key_attr) {
        r.key = sremrt_key_text(key_text, sizeof key_text, key_attr, key, @@PREFIX@@_STRTAB(m));
@@IF HAS_CKEYS@@
        @@PREFIX@@_ckey(m, decl, key, &r);
@@END HAS_CKEYS@@
    }
    m->cfg.record(m->cfg.user, &r);
    if (alert > 0 && c->freq == alert) {
        r.kind = SREMRT_ALERT;
        r.occurrence = NULL;   /* the episode record names it */
        r.noccurrence = 0;
        m->cfg.record(m->cfg.user, &r);
    }
}

/* End of input: an episode counter's summary record and its overflows;
 * first: the index of the partition's first event (0: not kept), in
 * r.index, the order a program merging shards writes summaries in. */
static void @@PREFIX@@_episode_summary(@@PREFIX@@_matcher *m, const sremrt_episode *c, int32_t decl,
        const sremrt_attr *key_attr, int64_t key, int64_t first, uint64_t *ovf)
{
    char key_text[128];
    sremrt_record r;
    ovf[SREMRT_OVF_OCCMAP] += c->overflows;
    ovf[SREMRT_OVF_BUDGET] += c->budget_exceeded;
    if (!m->cfg.record)
        return;
    sremrt_episode_record(c, SREMRT_SUMMARY, @@PREFIX@@_decl_names[decl], &r);
    r.decl = decl;
    r.events = (int64_t)c->events;
    r.index = first;
    if (key_attr) {
        r.key = sremrt_key_text(key_text, sizeof key_text, key_attr, key, @@PREFIX@@_STRTAB(m));
@@IF HAS_CKEYS@@
        @@PREFIX@@_ckey(m, decl, key, &r);
@@END HAS_CKEYS@@
    }
    m->cfg.record(m->cfg.user, &r);
}

@@END HAS_EPISODES@@
@@IF HAS_EXPLORE@@
/* The suggest records of the n suggestions an explore clause's counting
 * step (NAME_pN_xpush, a sremrt_explore_push specialised to the clause)
 * returned for the event; most events have none and do not come here. */
static void @@PREFIX@@_explore(@@PREFIX@@_matcher *m, sremrt_explore *ex, int32_t decl,
        const @@PREFIX@@_event *e, const sremrt_explore_step *step, int32_t n, const char *const *names)
{
    const char *seq[SREMRT_EXPLORE_MAX_M + 1];
    sremrt_record r;
    for (int32_t k = 0; k < n && m->cfg.record; k++) {
        sremrt_explore_suggest_record(ex, &step->suggest[k], @@PREFIX@@_decl_names[decl], names, seq,
                                      SREMRT_EXPLORE_MAX_M + 1, &r);
        r.decl = decl;
        @@PREFIX@@_about(m, e, &r);
        m->cfg.record(m->cfg.user, &r);
    }
}

/* End of input: an explore clause's summary record and its overflows. */
static void @@PREFIX@@_explore_summary(@@PREFIX@@_matcher *m, const sremrt_explore *ex, int32_t decl,
        const char *const *names, uint64_t *ovf)
{
    sremrt_explore_summary store;
    sremrt_record r;
    ovf[SREMRT_OVF_TRIE] += ex->overflows + ex->trie.overflows;
    if (!m->cfg.record)
        return;
    sremrt_explore_summary_record(ex, @@PREFIX@@_decl_names[decl], names, &store, &r);
    r.decl = decl;
    m->cfg.record(m->cfg.user, &r);
}

/* One explore clause's trie, as text (with the best candidates) or dot. */
static void @@PREFIX@@_trie_one(sremrt_sink *s, const sremrt_explore *ex, const char *name,
        const char *const *names, int32_t nnames, int dot)
{
    if (dot) {
        sremrt_ptrie_emit_dot(s, &ex->trie, name, names, nnames);
        return;
    }
    sremrt_explore_summary_emit(s, ex, name, names, 16);
    sremrt_ptrie_emit_text(s, &ex->trie, names, nnames);
}

@@END HAS_EXPLORE@@
@@IF HAS_STRINGS@@
/* The string table: the shared one, or its own; the literals of the
 * conditions interned first, so that literal i has id i (a shared table
 * gets them from the first matcher, and the others find the same ids). */
static int @@PREFIX@@_strings_init(@@PREFIX@@_matcher *m)
{
    int i;   /* signed: gcc's -Wtype-limits flags `i < 0` on a file without literals */
    m->strings = m->cfg.strings;
    if (!m->strings) {
@@IF FREESTANDING@@
        if (sremrt_strtab_init(&m->own_strings, &m->cfg.alloc, @@PREFIX@@_MAX_STRINGS) != 0)
@@END FREESTANDING@@
@@IF !FREESTANDING@@
        if (sremrt_strtab_init(&m->own_strings, &m->cfg.alloc, 0) != 0)
@@END !FREESTANDING@@
            return -1;
        m->strings = &m->own_strings;
    }
    for (i = 0; i < @@PREFIX@@_NSTRINGS; i++)
        if (sremrt_strtab_intern(m->strings, @@PREFIX@@_strings[i], strlen(@@PREFIX@@_strings[i])) != (int64_t)i)
            return -1;
    return 0;
}

int64_t @@PREFIX@@_intern(@@PREFIX@@_matcher *m, const char *s, size_t len)
{
    return sremrt_strtab_intern(m->strings, s, len);
}

sremrt_strtab *@@PREFIX@@_strtab(@@PREFIX@@_matcher *m) { return m->strings; }
@@END HAS_STRINGS@@
@@IF !HAS_STRINGS@@
int64_t @@PREFIX@@_intern(@@PREFIX@@_matcher *m, const char *s, size_t len)
{
    (void)m;
    (void)s;
    (void)len;
    return -1;   /* schema @@SCHEMA@@ has no string attribute */
}

sremrt_strtab *@@PREFIX@@_strtab(@@PREFIX@@_matcher *m)
{
    (void)m;
    return NULL;
}
@@END !HAS_STRINGS@@

int @@PREFIX@@_init(@@PREFIX@@_matcher *m, const @@PREFIX@@_config *cfg)
{
    memset(m, 0, sizeof *m);
    @@PREFIX@@_config_default(&m->cfg);
    if (cfg) {
        m->cfg.record = cfg->record;
        m->cfg.user = cfg->user;
        if (cfg->max_keys > 0)
            m->cfg.max_keys = cfg->max_keys;
        if (cfg->max_runs > 0)
            m->cfg.max_runs = cfg->max_runs;
        if (cfg->alloc.alloc)
            m->cfg.alloc = cfg->alloc;
        if (cfg->distinct_budget > 0)
            m->cfg.distinct_budget = cfg->distinct_budget;
        if (cfg->occmap_cap > 0)
            m->cfg.occmap_cap = cfg->occmap_cap;
        m->cfg.explore_algo = cfg->explore_algo;
        m->cfg.forecast_every = cfg->forecast_every;
        m->cfg.flush_absent = cfg->flush_absent;
        m->cfg.events = cfg->events;
        m->cfg.symbol = cfg->symbol;
        if (cfg->explore_cap > 0)
            m->cfg.explore_cap = cfg->explore_cap;
        m->cfg.strings = cfg->strings;
    }
    sremrt_stats_init(&m->stats);
    sremrt_tsorder_init(&m->order);
    if (sremrt_abi_check(11) != 0)
        return -1;
@@IF HAS_STRINGS@@
    if (@@PREFIX@@_strings_init(m) != 0)
        return -1;
@@END HAS_STRINGS@@
@@# INIT_CODE: each declaration's allocations and runtime set-up, in order
    @@INIT_CODE@@
    return 0;
}

@@IF SHARDED@@
@@IF USES_MINE@@
/* Whether this matcher runs partition key `key` (set_shard). */
static inline int @@PREFIX@@_mine(const @@PREFIX@@_matcher *m, int64_t key)
{
    return m->nshards <= 1 || sremrt_key_shard(key, m->nshards) == m->shard;
}
@@END USES_MINE@@
@@IF USES_MINE_TUPLE@@

/* Whether this matcher runs composite key key[0..n) (set_shard). */
static inline int @@PREFIX@@_mine_tuple(const @@PREFIX@@_matcher *m, const int64_t *key, int n)
{
    return m->nshards <= 1 || sremrt_tuple_shard(key, n, m->nshards) == m->shard;
}
@@END USES_MINE_TUPLE@@

int @@PREFIX@@_set_shard(@@PREFIX@@_matcher *m, int32_t shard, int32_t nshards)
{
    if (nshards < 1 || shard < 0 || shard >= nshards || m->index > 0)
        return -1;
    m->shard = shard;
    m->nshards = nshards;
    return 0;
}

void @@PREFIX@@_finish_shards(@@PREFIX@@_matcher *const *ms, int32_t n)
{
    for (int32_t i = 1; i < n; i++) {   /* their summaries; their overflows into shard 0's */
        @@PREFIX@@_finish(ms[i]);
        for (int d = 0; d < @@NDECLS@@; d++)
            for (int k = 0; k < SREMRT_OVF_KINDS; k++)
                ms[0]->ovf[d][k] += ms[i]->ovf[d][k];
    }
    @@PREFIX@@_finish(ms[0]);
}
@@END SHARDED@@
@@IF !SHARDED@@
int @@PREFIX@@_set_shard(@@PREFIX@@_matcher *m, int32_t shard, int32_t nshards)
{
    (void)m;   /* no declaration to spread: one shard only */
    return shard == 0 && nshards == 1 ? 0 : -1;
}

void @@PREFIX@@_finish_shards(@@PREFIX@@_matcher *const *ms, int32_t n)
{
    if (n > 0)
        @@PREFIX@@_finish(ms[0]);
}
@@END !SHARDED@@

/* The timestamp rule (docs/language.md 2): 1 if e goes backwards (counted,
 * and @@PREFIX@@_error says why), else 0 and e's timestamp is the last. */
static inline int @@PREFIX@@_rejected(@@PREFIX@@_matcher *m, const @@PREFIX@@_event *e)
{
@@IF HAS_TS@@
    if (m->order.seen && e->@@TS_FIELD@@ < m->order.last) {
        sremrt_tsorder_accept(&m->order, e->@@TS_FIELD@@, m->error, sizeof m->error);
        m->stats.rejected++;
        return 1;
    }
    m->order.last = e->@@TS_FIELD@@;
    m->order.seen = 1;
@@END HAS_TS@@
@@IF !HAS_TS@@
    (void)m;   /* schema @@SCHEMA@@ has no timestamp: no event is rejected */
    (void)e;
@@END !HAS_TS@@
    return 0;
}

@@# RUN_CODE: a one-pattern file's threaded run function (tree layout), or empty
@@RUN_CODE@@
/* Events one at a time: push, and push_many where it has no faster way. */
static inline size_t @@PREFIX@@_push_each(@@PREFIX@@_matcher *m, const @@PREFIX@@_event *events, size_t n)
{
    size_t k;
@@IF MANY_IN@@
    /* The states of small table-driven patterns live in locals for the
     * loop (registers: no store-to-load round trip per event). */
@@# MANY_IN: copies of the patterns' states into locals (MANY_OUT: back)
    @@MANY_IN@@
@@END MANY_IN@@
    for (k = 0; k < n; k++) {
        const @@PREFIX@@_event *e = &events[k];
        if (@@PREFIX@@_rejected(m, e))
            break;
        m->stats.events++;
        m->index++;
        /* Patterns in declaration order: records of one event come in that order. */
@@# PUSH_CODE: each declaration's step on e and the records it makes
        @@PUSH_CODE@@
    }
    @@MANY_OUT@@
    return k;
}

static size_t @@PREFIX@@_push_in(@@PREFIX@@_matcher *m, const @@PREFIX@@_event *events, size_t n)
{
@@# MANY_FAST: a faster whole-array loop (batched or threaded) that returns, or empty
@@MANY_FAST@@
    return @@PREFIX@@_push_each(m, events, n);
}

size_t @@PREFIX@@_push_many(@@PREFIX@@_matcher *m, const @@PREFIX@@_event *events, size_t n)
{
@@IF HAS_HIST@@
    /* replays read the call's events in place, the ring keeps the last */
    @@PREFIX@@_hist_open(m, events, n);
    size_t k = @@PREFIX@@_push_in(m, events, n);
    @@PREFIX@@_hist_keep(m, events, k);
    return k;
@@END HAS_HIST@@
@@IF !HAS_HIST@@
    return @@PREFIX@@_push_in(m, events, n);
@@END !HAS_HIST@@
}

int @@PREFIX@@_push(@@PREFIX@@_matcher *m, const @@PREFIX@@_event *e)
{
@@IF HAS_HIST@@
    @@PREFIX@@_hist_open(m, e, 1);
    size_t k = @@PUSH_ONE@@(m, e, 1);
    @@PREFIX@@_hist_keep(m, e, k);
    return k == 1 ? 0 : 1;
@@END HAS_HIST@@
@@IF !HAS_HIST@@
    return @@PUSH_ONE@@(m, e, 1) == 1 ? 0 : 1;
@@END !HAS_HIST@@
}

/* End of input: each declaration's overflows into the stats, and its
 * overflow record if it dropped anything (docs/language.md section 6). */
static void @@PREFIX@@_overflow_records(@@PREFIX@@_matcher *m)
{
    for (int d = 0; d < @@NDECLS@@; d++) {
        uint64_t any = 0;
        for (int k = 0; k < SREMRT_OVF_KINDS; k++) {
            m->stats.overflow[k] += m->ovf[d][k];
            any |= m->ovf[d][k];
        }
@@IF SHARDED@@
        if (m->shard > 0)   /* finish_shards: shard 0 reports the totals */
            continue;
@@END SHARDED@@
        if (!any || !m->cfg.record)
            continue;
        char message[400];
        sremrt_record r;
        sremrt_overflow_format(message, sizeof message, m->ovf[d]);
        memset(&r, 0, sizeof r);
        r.kind = SREMRT_ERROR;
        r.name = @@PREFIX@@_decl_names[d];
        r.decl = d;
        r.message = message;
        r.overflow = m->ovf[d];
        m->cfg.record(m->cfg.user, &r);
    }
}

void @@PREFIX@@_finish(@@PREFIX@@_matcher *m)
{
    if (m->finished)
        return;
    m->finished = 1;
    /* Summaries in declaration order; partitions in order of first event. */
@@# FINISH_CODE: each episode's and explore clause's summaries
    @@FINISH_CODE@@
    @@PREFIX@@_overflow_records(m);
}

void @@PREFIX@@_trie_emit(const @@PREFIX@@_matcher *m, sremrt_sink *s, int dot)
{
@@IF HAS_EXPLORE@@
@@# TRIE_CODE: PREFIX_trie_one of each explore clause
    @@TRIE_CODE@@
@@END HAS_EXPLORE@@
@@IF !HAS_EXPLORE@@
    (void)m;   /* no explore clause: no trie */
    (void)s;
    (void)dot;
@@END !HAS_EXPLORE@@
}

#ifndef SREMRT_FREESTANDING
int @@PREFIX@@_trie_dot(const @@PREFIX@@_matcher *m, FILE *out)
{
    char buf[1024];
    sremrt_sink s;
    sremrt_sink_init_file(&s, buf, sizeof buf, out);
    @@PREFIX@@_trie_emit(m, &s, 1);
    sremrt_sink_end(&s);
    return ferror(out) ? -1 : 0;
}
#endif

void @@PREFIX@@_free(@@PREFIX@@_matcher *m)
{
@@IF HAS_STRINGS@@
    if (m->strings == &m->own_strings)
        sremrt_strtab_free(&m->own_strings);
    m->strings = NULL;
@@END HAS_STRINGS@@
@@IF FREE_CODE@@
@@# FREE_CODE: what each declaration's init allocated, given back
    @@FREE_CODE@@
@@END FREE_CODE@@
@@IF !FREE_CODE@@
    (void)m;   /* nothing allocated */
@@END !FREE_CODE@@
}

const sremrt_stats *@@PREFIX@@_stats(const @@PREFIX@@_matcher *m) { return &m->stats; }

const uint64_t *@@PREFIX@@_overflows(const @@PREFIX@@_matcher *m, int d)
{
    return d >= 0 && d < @@NDECLS@@ ? m->ovf[d] : NULL;
}

const char *@@PREFIX@@_error(const @@PREFIX@@_matcher *m) { return m->error; }

/* ======== checkpoints (docs/codegen.md) ===================================== */

@@IF STATE_EVENTS@@
/* The events of a ring (and their global indices, idx not NULL) numbered
 * from..to-1, each at its number % cap, oldest first. */
static void @@PREFIX@@_state_events(sremrt_state_io *io, int64_t *idx, @@PREFIX@@_event *ev, int64_t from, int64_t to,
        int64_t cap)
{
    if (io->mode == SREMRT_STATE_LOAD && io->err == SREMRT_STATE_OK && (from < 0 || to - from > cap))
        sremrt_state_fail(io, SREMRT_STATE_EFORMAT);
    for (int64_t t = from; t < to && io->err == SREMRT_STATE_OK; t++) {
        if (idx)
            sremrt_state_i64(io, &idx[t % cap]);
        sremrt_state_bytes(io, &ev[t % cap], sizeof *ev);
    }
}

@@END STATE_EVENTS@@
/* One walk over the whole state: io counts, writes or reads it. Counters
 * first, then each declaration in file order (STATE_CODE, cg_state.c). */
static int @@PREFIX@@_state_io(@@PREFIX@@_matcher *m, sremrt_state_io *io)
{
    sremrt_state_header(io, @@STATE_HASH@@, m->stats.events, m->stats.rejected);
    sremrt_state_u64(io, &m->stats.events);
    sremrt_state_u64(io, &m->stats.rejected);
    for (int k = 0; k < SREMRT_OVF_KINDS; k++)
        sremrt_state_u64(io, &m->stats.overflow[k]);
    sremrt_state_i64(io, &m->order.last);
    sremrt_state_int(io, &m->order.seen);
    sremrt_state_i64(io, &m->index);
    for (size_t d = 0; d < sizeof m->ovf / sizeof m->ovf[0]; d++)
        for (int k = 0; k < SREMRT_OVF_KINDS; k++)
            sremrt_state_u64(io, &m->ovf[d][k]);
@@IF HAS_STRINGS@@
    sremrt_state_strtab(io, m->strings, @@PREFIX@@_NSTRINGS);   /* before the ids that name them */
@@END HAS_STRINGS@@
@@# STATE_CODE: each declaration's part (cg_state.c)
    @@STATE_CODE@@
    return sremrt_state_end(io);
}

size_t @@PREFIX@@_state_size(const @@PREFIX@@_matcher *m)
{
    sremrt_state_io io;
    sremrt_state_begin(&io, SREMRT_STATE_SIZE, NULL, 0);
    @@PREFIX@@_state_io((@@PREFIX@@_matcher *)m, &io);   /* counting writes nothing */
    return io.pos;
}

int @@PREFIX@@_state_save(const @@PREFIX@@_matcher *m, void *buf, size_t cap)
{
    sremrt_state_io io;
    if (m->finished)
        return SREMRT_STATE_EUSED;
    sremrt_state_begin(&io, SREMRT_STATE_SAVE, buf, cap);
    return @@PREFIX@@_state_io((@@PREFIX@@_matcher *)m, &io);   /* saving writes only buf */
}

int @@PREFIX@@_state_load(@@PREFIX@@_matcher *m, const void *buf, size_t len)
{
    sremrt_state_io io;
    if (m->index != 0 || m->stats.rejected != 0 || m->finished)
        return SREMRT_STATE_EUSED;
    sremrt_state_begin(&io, SREMRT_STATE_LOAD, (void *)buf, len);   /* loading reads buf only */
    return @@PREFIX@@_state_io(m, &io);
}

