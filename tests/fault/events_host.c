/* events_host.c: a library user of tests/fault/overflow.sh's one.srem
 * (generated with --prefix lost: `A _* C`, window-less, so its start event
 * is kept while it is among the last 256 events and the event itself) ->
 * exit status 0 when the records' start_event and events_missing and the
 * "events" overflow count agree with what was pushed; else a message.
 *
 * Streams: an A, NB Bs and a C, for NB 255 (the start at hand) and 399
 * (not), each fed by push one at a time and by push_many in one call, with
 * cfg.events 1 (counted) and 0 (flagged, not counted). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lost.h"

typedef struct seen {
    int matches;
    int64_t start;
    int missing;           /* events_missing of the match */
    int has_event;         /* start_event given */
    int64_t start_v;       /* its v */
    uint64_t counted;      /* the overflow record's "events" */
} seen;

static void on_record(void *user, const sremrt_record *r)
{
    seen *s = (seen *)user;
    if (r->kind == SREMRT_ERROR && r->overflow)
        s->counted = r->overflow[SREMRT_OVF_EVENTS];
    if (r->kind != SREMRT_MATCH)
        return;
    s->matches++;
    s->start = r->start;
    s->missing = r->events_missing;
    s->has_event = r->start_event != NULL;
    s->start_v = r->start_event ? ((const lost_event *)r->start_event)->v : -1;
}

static int fail(const char *what, int nb, int many, int events, long long got, long long want)
{
    fprintf(stderr, "events_host: %s (NB %d, %s, cfg.events %d): %lld, want %lld\n", what, nb,
            many ? "push_many" : "push", events, got, want);
    return 1;
}

static int run(int nb, int many, int events)
{
    int n = nb + 2, bad = 0;
    lost_event *ev = calloc((size_t)n, sizeof *ev);
    lost_matcher *m = malloc(lost_matcher_size());
    lost_config cfg;
    seen s;
    memset(&s, 0, sizeof s);
    lost_config_default(&cfg);
    cfg.record = on_record;
    cfg.user = &s;
    cfg.events = events;
    if (!ev || !m || lost_init(m, &cfg) != 0)
        return fail("init", nb, many, events, 1, 0);
    for (int i = 0; i < n; i++) {
        ev[i].type = i == 0 ? LOST_TYPE_A : i == n - 1 ? LOST_TYPE_C : LOST_TYPE_B;
        ev[i].v = i + 1;
    }
    if (many)
        bad |= lost_push_many(m, ev, (size_t)n) != (size_t)n;
    else
        for (int i = 0; i < n; i++)
            bad |= lost_push(m, &ev[i]) != 0;
    lost_finish(m);
    int lost = nb + 2 > 257;   /* the start is the (NB + 2)th last event */
    if (bad)
        bad = fail("an event rejected", nb, many, events, 1, 0);
    if (s.matches != 1 || s.start != 1)
        bad |= fail("the match and its start", nb, many, events, s.matches * 1000 + s.start, 1001);
    if (s.missing != lost || s.has_event == lost)
        bad |= fail("events_missing", nb, many, events, s.missing, lost);
    if (!lost && s.start_v != 1)
        bad |= fail("the start event's v", nb, many, events, s.start_v, 1);
    uint64_t want = (uint64_t)(lost && events);
    if (s.counted != want || lost_overflows(m, 0)[SREMRT_OVF_EVENTS] != want)
        bad |= fail("the events overflow", nb, many, events, (long long)s.counted, (long long)want);
    lost_free(m);
    free(m);
    free(ev);
    return bad;
}

int main(void)
{
    int bad = 0;
    for (int nb = 255; nb <= 399; nb += 144)
        for (int many = 0; many < 2; many++)
            for (int events = 0; events < 2; events++)
                bad |= run(nb, many, events);
    return bad;
}
