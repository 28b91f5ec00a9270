/* bin.c: a stream of raw event structs -> events, with truncated records
 * and out-of-range enum/bool values turned into error records. */
#include "sremrt/bin.h"

#include <string.h>

#include "sremrt/sink.h"

void sremrt_bin_open(sremrt_bin *r, const sremrt_schema *s, FILE *in)
{
    r->schema = s;
    r->in = in;
    r->record = 0;
    r->done = 0;
    r->msg[0] = '\0';
}

static int truncated(sremrt_bin *r, size_t got)
{
    sremrt_sink s;
    sremrt_sink_init_buf(&s, r->msg, sizeof r->msg);
    sremrt_sink_puts(&s, "truncated record: ");
    sremrt_sink_u64(&s, got);
    sremrt_sink_puts(&s, " of ");
    sremrt_sink_u64(&s, r->schema->event_size);
    sremrt_sink_puts(&s, " bytes");
    sremrt_sink_end(&s);
    return SREMRT_READ_BAD;
}

static int bad_value(sremrt_bin *r, const sremrt_attr *a, int64_t v, const char *what)
{
    sremrt_sink s;
    sremrt_sink_init_buf(&s, r->msg, sizeof r->msg);
    sremrt_sink_puts(&s, "attribute ");
    sremrt_sink_puts(&s, a->name);
    sremrt_sink_puts(&s, ": ");
    sremrt_sink_i64(&s, v);
    sremrt_sink_puts(&s, what);
    sremrt_sink_end(&s);
    return SREMRT_READ_BAD;
}

static int check_values(sremrt_bin *r, const void *event)
{
    int i;
    for (i = 0; i < r->schema->nattrs; i++) {
        const sremrt_attr *a = &r->schema->attrs[i];
        int64_t v;
        if (a->type != SREMRT_ENUM && a->type != SREMRT_BOOL)
            continue;
        v = sremrt_attr_int(a, event);
        if (a->type == SREMRT_ENUM && (v < 0 || v >= a->nvalues))
            return bad_value(r, a, v, " is not an index of its enum");
        if (a->type == SREMRT_BOOL && v > 1)
            return bad_value(r, a, v, " is not a bool (0 or 1)");
    }
    return SREMRT_READ_EVENT;
}

int sremrt_bin_next(sremrt_bin *r, void *event)
{
    size_t got;
    if (r->done)
        return SREMRT_READ_END;
    got = fread(event, 1, r->schema->event_size, r->in);
    if (got == r->schema->event_size) {
        r->record++;
        return check_values(r, event);
    }
    if (ferror(r->in)) {
        strcpy(r->msg, "read error");
        return SREMRT_READ_FATAL;
    }
    r->done = 1;
    if (got == 0)
        return SREMRT_READ_END;
    r->record++;
    return truncated(r, got);
}

int64_t sremrt_bin_line(const sremrt_bin *r)
{
    return r->record;
}

const char *sremrt_bin_message(const sremrt_bin *r)
{
    return r->msg;
}
