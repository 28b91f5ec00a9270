/* stats.c: run counters -> the `--stats` report text and the exit status
 * they imply. */
#include "sremrt/stats.h"

#include <string.h>

static const char *const overflow_names[SREMRT_OVF_KINDS] = {
    "keys", "runs", "occmap", "trie", "budget", "memory", "start", "events"
};

void sremrt_stats_init(sremrt_stats *st)
{
    memset(st, 0, sizeof *st);
}

const char *sremrt_overflow_name(sremrt_overflow k)
{
    return (unsigned)k < SREMRT_OVF_KINDS ? overflow_names[k] : "?";
}

uint64_t sremrt_stats_overflows(const sremrt_stats *st)
{
    uint64_t n = 0;
    int k;
    for (k = 0; k < SREMRT_OVF_KINDS; k++)
        n += st->overflow[k];
    return n;
}

int sremrt_stats_exit_status(const sremrt_stats *st)
{
    return st->rejected || sremrt_stats_overflows(st) ? 3 : 0;
}

/* What each kind's count counts, and the option that raises its limit. */
static const char *const overflow_what[SREMRT_OVF_KINDS][2] = {
    {" events of new keys dropped", "--max-keys"},
    {" runs dropped", "--max-runs"},
    {" events dropped from OccMap lists", "--occmap-cap"},
    {" explore window entries or trie nodes dropped", "--explore-cap"},
    {" events over the distinct budget", "--distinct-budget"},
    {" blocks of memory refused", "--max-memory"},
    {" match records without start", "events kept / replay bounds"},
    {" records without an event they name", "events kept, --events"},
};

void sremrt_overflow_emit(sremrt_sink *s, const uint64_t *counts)
{
    int k, first = 1;
    sremrt_sink_puts(s, "overflow:");
    for (k = 0; k < SREMRT_OVF_KINDS; k++) {
        if (!counts[k])
            continue;
        sremrt_sink_puts(s, first ? " " : ", ");
        sremrt_sink_u64(s, counts[k]);
        sremrt_sink_puts(s, overflow_what[k][0]);
        sremrt_sink_puts(s, " (");
        sremrt_sink_puts(s, overflow_what[k][1]);
        sremrt_sink_putc(s, ')');
        first = 0;
    }
}

size_t sremrt_overflow_format(char *buf, size_t cap, const uint64_t *counts)
{
    sremrt_sink s;
    sremrt_sink_init_buf(&s, buf, cap);
    sremrt_overflow_emit(&s, counts);
    return sremrt_sink_end(&s);
}

static void line_u64(sremrt_sink *s, const char *label, uint64_t v)
{
    sremrt_sink_puts(s, label);
    sremrt_sink_u64(s, v);
}

static void emit_rate(sremrt_sink *s, uint64_t events, double seconds)
{
    double rate = seconds > 0 ? (double)events / seconds : -1;
    sremrt_sink_puts(s, "events/s   ");
    if (rate < 0 || rate >= 1.8e19)
        sremrt_sink_putc(s, '-');
    else
        sremrt_sink_u64(s, (uint64_t)(rate + 0.5));
    sremrt_sink_putc(s, '\n');
}

/* Only the kinds that overflowed, so a clean run reads "overflows  0". */
static void emit_overflows(sremrt_sink *s, const sremrt_stats *st)
{
    int k, first = 1;
    line_u64(s, "overflows  ", sremrt_stats_overflows(st));
    for (k = 0; k < SREMRT_OVF_KINDS; k++) {
        if (!st->overflow[k])
            continue;
        sremrt_sink_puts(s, first ? " (" : ", ");
        sremrt_sink_puts(s, overflow_names[k]);
        sremrt_sink_putc(s, ' ');
        sremrt_sink_u64(s, st->overflow[k]);
        first = 0;
    }
    if (!first)
        sremrt_sink_putc(s, ')');
    sremrt_sink_putc(s, '\n');
}

void sremrt_stats_emit(sremrt_sink *s, const sremrt_stats *st, double seconds)
{
    line_u64(s, "events     ", st->events);
    sremrt_sink_putc(s, '\n');
    emit_rate(s, st->events, seconds);
    line_u64(s, "rejected   ", st->rejected);
    sremrt_sink_putc(s, '\n');
    emit_overflows(s, st);
}

size_t sremrt_stats_format(char *buf, size_t cap, const sremrt_stats *st, double seconds)
{
    sremrt_sink s;
    sremrt_sink_init_buf(&s, buf, cap);
    sremrt_stats_emit(&s, st, seconds);
    return sremrt_sink_end(&s);
}
