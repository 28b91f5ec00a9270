/* @@SOURCE_C@@: the matcher sremc generated from @@SOURCE@@ (do not edit):
 * one step function per pattern (@@STRATEGIES@@), driven by @@PREFIX@@_push. */
#include "@@HEADER@@"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "sremrt/abi.h"
#include "sremrt/keymap.h"
#include "sremrt/tsorder.h"

SREMRT_ABI_REQUIRE(@@PREFIX@@, 1);

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
/* ======== patterns ========================================================== */

@@PATTERN_CODE@@
/* ======== the matcher ======================================================= */

struct @@PREFIX@@_matcher {
    @@PREFIX@@_config cfg;     /* as given to init, defaults filled in */
    sremrt_stats stats;        /* events, rejected, overflows */
    sremrt_tsorder order;      /* the timestamp-goes-backwards rule */
    int64_t index;             /* global index of the last accepted event */
    char error[96];            /* why the last push was rejected */
@@MATCHER_FIELDS@@
};

size_t @@PREFIX@@_matcher_size(void) { return sizeof(struct @@PREFIX@@_matcher); }

void @@PREFIX@@_config_default(@@PREFIX@@_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->max_keys = 1024;
    cfg->max_runs = @@MAX_RUNS@@;
    cfg->alloc = sremrt_alloc_malloc();
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
    r.index = m->index;
    r.has_ts = @@PREFIX@@_schema.ts_attr >= 0;
    r.ts = sremrt_event_ts(&@@PREFIX@@_schema, e);
    if (key_attr) {
        sremrt_key_format(key_text, sizeof key_text, key_attr, key);
        r.key = key_text;
    }
    m->cfg.record(m->cfg.user, &r);
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
    }
    sremrt_stats_init(&m->stats);
    sremrt_tsorder_init(&m->order);
    if (sremrt_abi_check(1) != 0)
        return -1;
    /* helpers a given set of patterns may leave unused */
    (void)@@PREFIX@@_wrap;
    (void)@@PREFIX@@_div;
    (void)@@PREFIX@@_mod;
    (void)@@PREFIX@@_max;
    (void)@@PREFIX@@_same_event;
    (void)@@PREFIX@@_match;
@@INIT_CODE@@
    return 0;
}

int @@PREFIX@@_push(@@PREFIX@@_matcher *m, const @@PREFIX@@_event *e)
{
@@TS_CHECK@@
    m->stats.events++;
    m->index++;
    /* Patterns in declaration order: records of one event come in that order. */
@@PUSH_CODE@@
    return 0;
}

void @@PREFIX@@_finish(@@PREFIX@@_matcher *m)
{
    (void)m;
}

void @@PREFIX@@_free(@@PREFIX@@_matcher *m)
{
@@FREE_CODE@@
    (void)m;
}

const sremrt_stats *@@PREFIX@@_stats(const @@PREFIX@@_matcher *m) { return &m->stats; }

const char *@@PREFIX@@_error(const @@PREFIX@@_matcher *m) { return m->error; }
