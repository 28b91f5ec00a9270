/* tsorder.c: event timestamps -> accepted or rejected with the message
 * error records carry; shared by the CSV and binary input paths. */
#include "sremrt/tsorder.h"

#include "sremrt/sink.h"

void sremrt_tsorder_init(sremrt_tsorder *t)
{
    t->last = 0;
    t->seen = 0;
}

int sremrt_tsorder_accept(sremrt_tsorder *t, int64_t ts, char *msg, size_t cap)
{
    sremrt_sink s;
    if (!t->seen || ts >= t->last) {
        t->last = ts;
        t->seen = 1;
        return 0;
    }
    if (msg) {
        sremrt_sink_init_buf(&s, msg, cap);
        sremrt_sink_puts(&s, "timestamp goes backwards (");
        sremrt_sink_i64(&s, ts);
        sremrt_sink_puts(&s, " < ");
        sremrt_sink_i64(&s, t->last);
        sremrt_sink_putc(&s, ')');
        sremrt_sink_end(&s);
    }
    return -1;
}

int sremrt_tsorder_event(sremrt_tsorder *t, const sremrt_schema *s, const void *event,
                         char *msg, size_t cap)
{
    if (s->ts_attr < 0)
        return 0;
    return sremrt_tsorder_accept(t, sremrt_event_ts(s, event), msg, cap);
}
