/* overflow_host.c: a library user of tests/fault/overflow.sh's keys.srem
 * (generated with --prefix keys) -> exit status 0 when the per-declaration
 * overflow counts (keys_overflows), the overflow records handed to the
 * callback and the stats agree with what was pushed; else a message.
 *
 * 1,000 events over 40 keys (key = event number % 40, price rising), with
 * cfg.max_keys 16: keys 16..39 are refused, so 600 events are dropped by
 * each of the three partitioned declarations; then the same with no key
 * limit under a memory limit too small for 40 keys but large enough to
 * start: rising's table stops growing (one refusal) and its later keys'
 * events are counted; every block goes back (the limit's count ends at 0). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"

typedef struct seen {
    int overflow_records;     /* error records with counts */
    uint64_t keys[KEYS_DECL_COUNT];
    uint64_t memory[KEYS_DECL_COUNT];
    int matches;
} seen;

static const char *const names[KEYS_DECL_COUNT] = {"rising", "high", "ab"};

static void on_record(void *user, const sremrt_record *r)
{
    seen *s = (seen *)user;
    if (r->kind == SREMRT_MATCH)
        s->matches++;
    if (r->kind != SREMRT_ERROR || !r->overflow)
        return;
    for (int d = 0; d < KEYS_DECL_COUNT; d++)
        if (strcmp(r->name, names[d]) == 0) {
            s->keys[d] = r->overflow[SREMRT_OVF_KEYS];
            s->memory[d] = r->overflow[SREMRT_OVF_MEMORY];
        }
    s->overflow_records++;
}

static int fail(const char *what, unsigned long long got, unsigned long long want)
{
    fprintf(stderr, "overflow_host: %s: %llu, want %llu\n", what, got, want);
    return 1;
}

/* Pushes the 1,000 events; 0 or 1 as main returns. */
static int run(keys_config *cfg, seen *s)
{
    keys_matcher *m = malloc(keys_matcher_size());
    int bad = 0;
    memset(s, 0, sizeof *s);
    cfg->record = on_record;
    cfg->user = s;
    if (!m || keys_init(m, cfg) != 0)
        return fail("init", 1, 0);
    for (int i = 0; i < 1000; i++) {
        keys_event e;
        memset(&e, 0, sizeof e);
        e.symbol = i % 40;
        e.kind = i % 4;
        e.price = i;
        e.time = i;
        if (keys_push(m, &e) != 0)
            bad |= fail("push rejected", 1, 0);
    }
    for (int d = 0; d < KEYS_DECL_COUNT && cfg->max_keys; d++)   /* live before finish */
        if (keys_overflows(m, d)[SREMRT_OVF_KEYS] != 600)
            bad |= fail("keys counted before finish", keys_overflows(m, d)[SREMRT_OVF_KEYS], 600);
    keys_finish(m);
    if (keys_overflows(m, KEYS_DECL_COUNT) != NULL || keys_overflows(m, -1) != NULL)
        bad |= fail("out-of-range declaration", 1, 0);
    int records = 0;
    uint64_t total[SREMRT_OVF_KINDS] = {0};
    for (int d = 0; d < KEYS_DECL_COUNT; d++) {
        const uint64_t *n = keys_overflows(m, d);
        uint64_t any = 0;
        for (int k = 0; k < SREMRT_OVF_KINDS; k++) {
            total[k] += n[k];
            any |= n[k];
        }
        records += any != 0;
        if (n[SREMRT_OVF_KEYS] != s->keys[d] || n[SREMRT_OVF_MEMORY] != s->memory[d])
            bad |= fail("record and keys_overflows differ", s->keys[d], n[SREMRT_OVF_KEYS]);
    }
    if (s->overflow_records != records)   /* one per declaration that dropped anything */
        bad |= fail("overflow records", (unsigned)s->overflow_records, (unsigned)records);
    for (int k = 0; k < SREMRT_OVF_KINDS; k++)
        if (keys_stats(m)->overflow[k] != total[k])
            bad |= fail("stats total", keys_stats(m)->overflow[k], total[k]);
    if (sremrt_stats_exit_status(keys_stats(m)) != 3)
        bad |= fail("exit status", (unsigned)sremrt_stats_exit_status(keys_stats(m)), 3);
    keys_free(m);
    free(m);
    return bad;
}

int main(void)
{
    keys_config cfg;
    seen s;
    int bad = 0;
    keys_config_default(&cfg);
    if (cfg.max_keys != 0)
        bad |= fail("default max_keys (hosted: no limit)", (unsigned)cfg.max_keys, 0);
    cfg.max_keys = 16;
    bad |= run(&cfg, &s);
    for (int d = 0; d < KEYS_DECL_COUNT; d++)
        if (s.keys[d] != 600 || s.memory[d] != 0)
            bad |= fail(names[d], s.keys[d], 600);
    if (s.matches == 0)
        bad |= fail("matches of the first 16 keys", 0, 1);

    /* no key limit, memory for about 8 keys of each table */
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_alloc_limit lim;
    sremrt_alloc_limit_init(&lim, &heap, 0);
    keys_config_default(&cfg);
    cfg.alloc = sremrt_alloc_limit_hook(&lim);
    keys_matcher *probe = malloc(keys_matcher_size());   /* what init alone takes */
    if (!probe || keys_init(probe, &cfg) != 0)
        return fail("probe init", 1, 0);
    size_t start = lim.used;
    keys_free(probe);
    free(probe);
    sremrt_alloc_limit_init(&lim, &heap, start + 8 * 2048);
    bad |= run(&cfg, &s);
    if (s.memory[0] != 1 || s.keys[0] == 0)   /* rising: its table stopped growing, once */
        bad |= fail("memory limit: rising's refusals", s.memory[0], 1);
    if (lim.used != 0)
        bad |= fail("memory given back", lim.used, 0);
    return bad;
}
