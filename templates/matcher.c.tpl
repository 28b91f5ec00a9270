/* @@SOURCE_C@@: the matcher sremc generated from @@SOURCE@@ (do not edit):
 * one step function per pattern (@@STRATEGIES@@), driven by @@PREFIX@@_push. */
#include "@@HEADER@@"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "sremrt/abi.h"
#include "sremrt/episode.h"
#include "sremrt/explore.h"
#include "sremrt/keymap.h"
#include "sremrt/tsorder.h"

SREMRT_ABI_REQUIRE(@@PREFIX@@, 3);

/* ======== schema descriptor =============================================== */

@@SCHEMA_DESC@@

/* ======== condition semantics (LANGUAGE.md 3.2) ============================= */

/* Integers wrap modulo 2^64: arithmetic is done in uint64_t and read back
 * as two's complement without implementation-defined conversions. */
static inline int64_t @@PREFIX@@_wrap(uint64_t u)
{
    if (u <= (uint64_t)INT64_MAX)
        return (int64_t)u;
    return (int64_t)(u - (uint64_t)INT64_MAX - 1) + INT64_MIN;
}

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

static inline int64_t @@PREFIX@@_max(int64_t a, int64_t b) { return a > b ? a : b; }

/* Register contents are equal when every attribute is bitwise equal. */
static inline int @@PREFIX@@_same_event(const @@PREFIX@@_event *a, const @@PREFIX@@_event *b)
{
@@SAME_EVENT@@
}

@@EXTERNS@@
@@TYPES_C@@
/* ======== patterns ========================================================== */

@@PATTERN_CODE@@
/* ======== the matcher ======================================================= */

size_t @@PREFIX@@_matcher_size(void) { return sizeof(struct @@PREFIX@@_matcher); }

void @@PREFIX@@_config_default(@@PREFIX@@_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->max_keys = @@MAX_KEYS@@;
    cfg->max_runs = @@MAX_RUNS@@;
    cfg->distinct_budget = @@DISTINCT_BUDGET@@;
    cfg->occmap_cap = @@OCCMAP_CAP@@;
    cfg->explore_algo = SREMRT_EXPLORE_DEFAULT;
    cfg->explore_cap = @@EXPLORE_CAP@@;
#ifndef SREMRT_FREESTANDING
    cfg->alloc = sremrt_alloc_malloc();
#endif
}

/* Sets the fields every record about the event just pushed carries. */
static void @@PREFIX@@_about(const @@PREFIX@@_matcher *m, const @@PREFIX@@_event *e, sremrt_record *r)
{
    r->index = m->index;
    r->has_ts = @@PREFIX@@_schema.ts_attr >= 0;
    r->ts = @@EVENT_TS@@;
}

/* Emits one match record for the event just pushed. */
static void @@PREFIX@@_match(@@PREFIX@@_matcher *m, const char *name, const @@PREFIX@@_event *e,
                             const sremrt_attr *key_attr, int64_t key)
{
    char key_text[128];
    sremrt_record r;
    if (!m->cfg.record)
        return;
    memset(&r, 0, sizeof r);
    r.kind = SREMRT_MATCH;
    r.name = name;
    @@PREFIX@@_about(m, e, &r);
    if (key_attr) {
        sremrt_key_format(key_text, sizeof key_text, key_attr, key);
        r.key = key_text;
    }
    m->cfg.record(m->cfg.user, &r);
}

/* An episode's frequency grew on the event just pushed: its episode
 * record, and its alert record when the frequency just reached alert. */
static void @@PREFIX@@_episode(@@PREFIX@@_matcher *m, const sremrt_episode *c, const char *name,
                               const @@PREFIX@@_event *e, const sremrt_attr *key_attr, int64_t key,
                               int64_t alert)
{
    char key_text[128];
    sremrt_record r;
    if (!m->cfg.record)
        return;
    sremrt_episode_record(c, SREMRT_EPISODE, name, &r);
    @@PREFIX@@_about(m, e, &r);
    if (key_attr) {
        sremrt_key_format(key_text, sizeof key_text, key_attr, key);
        r.key = key_text;
    }
    m->cfg.record(m->cfg.user, &r);
    if (alert > 0 && c->freq == alert) {
        r.kind = SREMRT_ALERT;
        m->cfg.record(m->cfg.user, &r);
    }
}

/* End of input: an episode counter's summary record and its overflows. */
static void @@PREFIX@@_episode_summary(@@PREFIX@@_matcher *m, const sremrt_episode *c, const char *name,
                                       const sremrt_attr *key_attr, int64_t key)
{
    char key_text[128];
    sremrt_record r;
    sremrt_episode_add_stats(c, &m->stats);
    if (!m->cfg.record)
        return;
    sremrt_episode_record(c, SREMRT_SUMMARY, name, &r);
    r.events = (int64_t)c->events;
    if (key_attr) {
        sremrt_key_format(key_text, sizeof key_text, key_attr, key);
        r.key = key_text;
    }
    m->cfg.record(m->cfg.user, &r);
}

/* An explore clause sees the event (of type `type`): count, then the
 * suggest records due. */
static void @@PREFIX@@_explore(@@PREFIX@@_matcher *m, sremrt_explore *ex, sremrt_explore_part *st,
                               const char *name, const @@PREFIX@@_event *e, int32_t type,
                               const char *const *names)
{
    sremrt_explore_step step;
    const char *seq[SREMRT_EXPLORE_MAX_M + 1];
    sremrt_record r;
    int32_t n = sremrt_explore_push(ex, st, @@EVENT_TS@@, type, &step);
    for (int32_t k = 0; k < n && m->cfg.record; k++) {
        sremrt_explore_suggest_record(ex, &step.suggest[k], name, names, seq, SREMRT_EXPLORE_MAX_M + 1, &r);
        @@PREFIX@@_about(m, e, &r);
        m->cfg.record(m->cfg.user, &r);
    }
}

/* End of input: an explore clause's summary record and its overflows. */
static void @@PREFIX@@_explore_summary(@@PREFIX@@_matcher *m, const sremrt_explore *ex, const char *name,
                                       const char *const *names)
{
    sremrt_explore_summary store;
    sremrt_record r;
    m->stats.overflow[SREMRT_OVF_TRIE] += ex->overflows + ex->trie.overflows;
    if (!m->cfg.record)
        return;
    sremrt_explore_summary_record(ex, name, names, &store, &r);
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
        if (cfg->explore_cap > 0)
            m->cfg.explore_cap = cfg->explore_cap;
    }
    sremrt_stats_init(&m->stats);
    sremrt_tsorder_init(&m->order);
    if (sremrt_abi_check(3) != 0)
        return -1;
    /* helpers a given set of patterns may leave unused */
    (void)@@PREFIX@@_wrap;
    (void)@@PREFIX@@_div;
    (void)@@PREFIX@@_mod;
    (void)@@PREFIX@@_max;
    (void)@@PREFIX@@_same_event;
    (void)@@PREFIX@@_match;
    (void)@@PREFIX@@_episode;
    (void)@@PREFIX@@_episode_summary;
    (void)@@PREFIX@@_explore;
    (void)@@PREFIX@@_explore_summary;
    (void)@@PREFIX@@_trie_one;
@@INIT_CODE@@
    return 0;
}

/* The timestamp rule (LANGUAGE.md 2): 1 if e goes backwards (counted,
 * and @@PREFIX@@_error says why), else 0 and e's timestamp is the last. */
static inline int @@PREFIX@@_rejected(@@PREFIX@@_matcher *m, const @@PREFIX@@_event *e)
{
@@TS_CHECK@@
    (void)m;
    (void)e;
    return 0;
}

@@RUN_CODE@@
/* Events one at a time: push, and push_many where it has no faster way. */
static inline size_t @@PREFIX@@_push_each(@@PREFIX@@_matcher *m, const @@PREFIX@@_event *events, size_t n)
{
    size_t k;
    /* The states of small table-driven patterns live in locals for the
     * loop (registers: no store-to-load round trip per event). */
@@MANY_IN@@
    for (k = 0; k < n; k++) {
        const @@PREFIX@@_event *e = &events[k];
        if (@@PREFIX@@_rejected(m, e))
            break;
        m->stats.events++;
        m->index++;
        /* Patterns in declaration order: records of one event come in that order. */
@@PUSH_CODE@@
    }
@@MANY_OUT@@
    return k;
}

size_t @@PREFIX@@_push_many(@@PREFIX@@_matcher *m, const @@PREFIX@@_event *events, size_t n)
{
@@MANY_FAST@@
    return @@PREFIX@@_push_each(m, events, n);
}

int @@PREFIX@@_push(@@PREFIX@@_matcher *m, const @@PREFIX@@_event *e)
{
    return @@PUSH_ONE@@(m, e, 1) == 1 ? 0 : 1;
}

void @@PREFIX@@_finish(@@PREFIX@@_matcher *m)
{
    if (m->finished)
        return;
    m->finished = 1;
    /* Summaries in declaration order; partitions in order of first event. */
@@FINISH_CODE@@
}

void @@PREFIX@@_trie_emit(const @@PREFIX@@_matcher *m, sremrt_sink *s, int dot)
{
@@TRIE_CODE@@
    (void)m;
    (void)s;
    (void)dot;
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
@@FREE_CODE@@
    (void)m;
}

const sremrt_stats *@@PREFIX@@_stats(const @@PREFIX@@_matcher *m) { return &m->stats; }

const char *@@PREFIX@@_error(const @@PREFIX@@_matcher *m) { return m->error; }
