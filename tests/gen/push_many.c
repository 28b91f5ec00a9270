/* push_many.c: NAME_push_many gives the records push gives, event by event,
 * and stops at a rejected event, returning its index (tests/gen/run.sh
 * builds it with the matcher of push_many.srem, prefix pm). Argument
 * "rare": A is 1 event in 64 instead of 1 in 4, so a matcher that skips
 * the events that cannot leave its start state skips long runs, the
 * rejected event among them. A second argument "small": push_many
 * gets 1 to 8 events a call instead of 1 to 700, so that a skip starts
 * (and an idle chain is tested, cg_accel.c) at thousands of points,
 * and two events share each timestamp (a time window's last moment).
 * Every match record's start_event must be the stream's event at start.
 * A third argument N: explore windows of N entries (explore_cap), so that
 * full rings make room. Without it, a third matcher counts with the
 * runtime's rc (--explore-algo rc) through push_many: the same records
 * (a file without explore clauses ignores the setting). A fourth
 * argument "backs": 24 events go backwards instead of 1, 131 apart, so
 * that a skip's timestamp test meets one at many places of its blocks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pm.h"

#define N 20000
#define MAX_BACKS 24

typedef struct Log {
    char *text;
    size_t len, cap;
} Log;

/* The stream, and the match records whose start_event is not the event
 * of global index start in it (the rejected events have no index:
 * index x is ev[accepted[x - 1]]): the ring of the last events checked
 * against the array itself. */
static const pm_event *stream;
static int accepted[N];
static long bad_start_events;

static void check_start_event(const sremrt_record *r)
{
    if (r->kind != SREMRT_MATCH || r->start < 1 || !r->start_event)
        return;
    const pm_event *e = r->start_event, *want = &stream[accepted[r->start - 1]];   /* field by field: not the padding */
    if ((e->ts != want->ts || e->type != want->type || e->k != want->k || e->v != want->v) && bad_start_events++ == 0)
        fprintf(stderr, "push_many: the start event of the record at %lld is not event %lld\n",
                (long long)r->index, (long long)r->start);
}

/* Room for n more bytes (and a NUL) at the end of l. */
static char *log_room(Log *l, size_t n)
{
    if (l->len + n + 1 > l->cap) {
        l->cap = 2 * (l->len + n + 1);
        l->text = realloc(l->text, l->cap);
    }
    return l->text + l->len;
}

static void log_record(void *user, const sremrt_record *r)
{
    Log *l = user;
    check_start_event(r);
    char line[256];
    size_t n = sremrt_record_format(line, sizeof line, SREMRT_JSONL, r);
    char *at = log_room(l, n);
    if (n < sizeof line)
        memcpy(at, line, n);
    else   /* a long record (an explore summary): formatted in place */
        sremrt_record_format(at, n + 1, SREMRT_JSONL, r);
    l->len += n;
}

#ifdef PM_TRIE
static void log_bytes(void *user, const char *p, size_t n)
{
    Log *l = user;
    memcpy(log_room(l, n), p, n);
    l->len += n;
}

/* -DPM_TRIE (a file with explore clauses): the tries as text after the
 * records, every node's count and freq. */
static void log_trie(Log *l, const pm_matcher *m)
{
    char buf[256];
    sremrt_sink s;
    sremrt_sink_init_flush(&s, buf, sizeof buf, log_bytes, l);
    pm_trie_emit(m, &s, 0);
    sremrt_sink_end(&s);
}
#else
static void log_trie(Log *l, const pm_matcher *m)
{
    (void)l;
    (void)m;
}
#endif

/* a and b the same but where a says "algorithm=default" and b
 * "algorithm=rc" (the tries' headers). */
static int same_but_algo(const Log *a, const Log *b)
{
    static const char da[] = "algorithm=default", db[] = "algorithm=rc";
    size_t i = 0, j = 0, na = sizeof da - 1, nb = sizeof db - 1;
    while (i < a->len && j < b->len) {
        if (a->len - i >= na && b->len - j >= nb && memcmp(a->text + i, da, na) == 0 &&
            memcmp(b->text + j, db, nb) == 0) {
            i += na;
            j += nb;
        } else if (a->text[i++] != b->text[j++]) {
            return 0;
        }
    }
    return i == a->len && j == b->len;
}

static int64_t explore_cap;

static pm_matcher *open_matcher(Log *l, int32_t algo)
{
    pm_config cfg;
    pm_config_default(&cfg);
    cfg.explore_cap = explore_cap;
    cfg.explore_algo = algo;
    cfg.record = log_record;
    cfg.user = l;
    pm_matcher *m = malloc(pm_matcher_size());
    if (!m || pm_init(m, &cfg) != 0)
        exit(2);
    return m;
}

int main(int argc, char **argv)
{
    int rare = argc > 1 && strcmp(argv[1], "rare") == 0;
    size_t most = argc > 2 && strcmp(argv[2], "small") == 0 ? 8 : 700;
    explore_cap = argc > 3 ? atol(argv[3]) : 0;
    static pm_event ev[N];
    unsigned long long x = 88172645463325252ull;
    for (int i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        ev[i].ts = most == 8 ? i / 2 : i;
        ev[i].type = (int32_t)(x % 4);
        if (rare)
            ev[i].type = (x >> 40) % 64 == 0 ? 0 : (int32_t)(1 + x % 3);
        ev[i].k = (int64_t)(x >> 8 & 3);
        ev[i].v = (int64_t)(x >> 16 & 15);
    }
    int backs = argc > 4 && strcmp(argv[4], "backs") == 0 ? MAX_BACKS : 1, back[MAX_BACKS + 1], nacc = 0;
    static char is_back[N];
    for (int q = 0; q < backs; q++) {   /* go backwards: rejected */
        back[q] = 7777 + 131 * q;
        ev[back[q]].ts = ev[back[q] - 1].ts - 777;
        is_back[back[q]] = 1;
    }
    back[backs] = N;
    for (int i = 0; i < N; i++)
        if (!is_back[i])
            accepted[nacc++] = i;
    stream = ev;
    Log one = {0}, many = {0}, ref = {0};
    pm_matcher *a = open_matcher(&one, 0), *b = open_matcher(&many, 0);
    pm_matcher *c = explore_cap ? NULL : open_matcher(&ref, SREMRT_EXPLORE_RC);
    int rejected = 0;
    for (int i = 0; i < N; i++)
        rejected += pm_push(a, &ev[i]);
    size_t at = 0, fed = 0, stops = 0;
    while (at < N) {   /* uneven chunks, restarting after a rejected event */
        size_t n = 1 + (size_t)(x = x * 6364136223846793005ull + 1, x >> 33) % most;
        if (n > N - at)
            n = N - at;
        size_t k = pm_push_many(b, &ev[at], n);
        fed += k;
        if (k < n) {
            stops++;
            if (!is_back[at + k]) {
                fprintf(stderr, "push_many: stopped at %zu, not at a rejected event\n", at + k);
                return 1;
            }
            k++;   /* skip it */
        }
        at += k;
    }
    pm_finish(a);
    pm_finish(b);
    log_trie(&one, a);
    log_trie(&many, b);
    int ok = rejected == backs && stops == (size_t)backs && fed == (size_t)(N - backs) && one.len == many.len &&
             one.len > 0 && !bad_start_events &&
             memcmp(one.text, many.text, one.len) == 0 &&
             pm_stats(a)->events == pm_stats(b)->events;
    printf("push_many: %s (%zu bytes of records, %llu events, %d rejected)\n", ok ? "same records as push" : "DIFFERS",
           one.len, (unsigned long long)pm_stats(b)->events, backs);
    if (c) {   /* the rejected events skipped */
        pm_push_many(c, ev, (size_t)back[0]);
        for (int q = 0; q < backs; q++)
            pm_push_many(c, ev + back[q] + 1, (size_t)(back[q + 1] - back[q] - 1));
        pm_finish(c);
        log_trie(&ref, c);
        int same = same_but_algo(&one, &ref);
        printf("push_many: %s\n", same ? "the same records with rc" : "DIFFERS from rc");
        ok &= same;
        pm_free(c);
        free(c);
        free(ref.text);
    }
    pm_free(a);
    pm_free(b);
    free(a);
    free(b);
    free(one.text);
    free(many.text);
    return !ok;
}
