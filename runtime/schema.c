/* schema.c: lookups in a schema descriptor and typed access to the fields
 * of a generated event struct through it. */
#include "sremrt/schema.h"

#include <string.h>

#include "sremrt/sink.h"

int sremrt_schema_find(const sremrt_schema *s, const char *name, size_t len)
{
    int i;
    for (i = 0; i < s->nattrs; i++) {
        const char *a = s->attrs[i].name;
        if (strncmp(a, name, len) == 0 && a[len] == '\0')
            return i;
    }
    return -1;
}

int sremrt_enum_find(const sremrt_attr *a, const char *name, size_t len)
{
    int i;
    for (i = 0; i < a->nvalues; i++) {
        /* exact bytes, compared as far as they agree (most values differ at
         * the first): name may hold a NUL, and be longer than v */
        const char *v = a->values[i];
        size_t j = 0;
        while (j < len && v[j] != '\0' && v[j] == name[j])
            j++;
        if (j == len && v[j] == '\0')
            return i;
    }
    return -1;
}

static size_t type_size(sremrt_type t)
{
    switch (t) {
    case SREMRT_INT:
    case SREMRT_TIMESTAMP:
    case SREMRT_STRING: return sizeof(int64_t);
    case SREMRT_FLOAT: return sizeof(double);
    case SREMRT_FLOAT32: return sizeof(float);
    case SREMRT_ENUM: return sizeof(int32_t);
    case SREMRT_BOOL: return sizeof(uint8_t);
    }
    return 0;
}

static int fail(char *msg, size_t cap, const sremrt_attr *a, const char *why)
{
    sremrt_sink s;
    sremrt_sink_init_buf(&s, msg, cap);
    if (a) {
        sremrt_sink_puts(&s, "attribute ");
        sremrt_sink_puts(&s, a->name ? a->name : "(null)");
        sremrt_sink_puts(&s, ": ");
    }
    sremrt_sink_puts(&s, why);
    sremrt_sink_end(&s);
    return -1;
}

static int check_attr(const sremrt_schema *s, const sremrt_attr *a, char *msg, size_t cap)
{
    int i;
    if (!a->name || !a->name[0])
        return fail(msg, cap, a, "no name");
    if (type_size(a->type) == 0)
        return fail(msg, cap, a, "unknown type");
    if (a->offset > s->event_size || s->event_size - a->offset < type_size(a->type))
        return fail(msg, cap, a, "offset outside the event struct");
    if (a->type != SREMRT_ENUM)
        return a->nvalues == 0 ? 0 : fail(msg, cap, a, "values on a non-enum attribute");
    if (a->nvalues <= 0 || !a->values)
        return fail(msg, cap, a, "enum without values");
    for (i = 0; i < a->nvalues; i++)
        if (!a->values[i])
            return fail(msg, cap, a, "null enum value name");
    return 0;
}

int sremrt_schema_check(const sremrt_schema *s, char *msg, size_t cap)
{
    int i;
    if (s->nattrs < 0 || (s->nattrs > 0 && !s->attrs))
        return fail(msg, cap, NULL, "no attribute table");
    for (i = 0; i < s->nattrs; i++)
        if (check_attr(s, &s->attrs[i], msg, cap) != 0)
            return -1;
    if (s->ts_attr < -1 || s->ts_attr >= s->nattrs)
        return fail(msg, cap, NULL, "timestamp index out of range");
    if (s->ts_attr >= 0 && s->attrs[s->ts_attr].type != SREMRT_TIMESTAMP)
        return fail(msg, cap, &s->attrs[s->ts_attr], "timestamp index names a non-timestamp");
    for (i = 0; i < s->nattrs; i++)
        if (s->attrs[i].type == SREMRT_TIMESTAMP && i != s->ts_attr)
            return fail(msg, cap, &s->attrs[i], "timestamp attribute not named by ts_attr");
    if (msg && cap)
        msg[0] = '\0';
    return 0;
}

/* Fields are read and written with memcpy: the struct is the generated
 * one, but the runtime only knows it as bytes at an offset. */
static double load_float(const sremrt_attr *a, const unsigned char *p)
{
    double f;
    float f32;
    if (a->type == SREMRT_FLOAT32) {
        memcpy(&f32, p, sizeof f32);
        return f32;   /* widening is exact */
    }
    memcpy(&f, p, sizeof f);
    return f;
}

int64_t sremrt_attr_int(const sremrt_attr *a, const void *event)
{
    const unsigned char *p = (const unsigned char *)event + a->offset;
    int64_t i64;
    int32_t i32;
    double f;
    switch (a->type) {
    case SREMRT_INT:
    case SREMRT_TIMESTAMP:
    case SREMRT_STRING:
        memcpy(&i64, p, sizeof i64);
        return i64;
    case SREMRT_ENUM:
        memcpy(&i32, p, sizeof i32);
        return i32;
    case SREMRT_BOOL:
        return *p;
    case SREMRT_FLOAT:
    case SREMRT_FLOAT32:
        f = load_float(a, p);
        return f >= -9.2233720368547758e18 && f < 9.2233720368547758e18 ? (int64_t)f : 0;
    }
    return 0;
}

double sremrt_attr_float(const sremrt_attr *a, const void *event)
{
    if (a->type != SREMRT_FLOAT && a->type != SREMRT_FLOAT32)
        return (double)sremrt_attr_int(a, event);
    return load_float(a, (const unsigned char *)event + a->offset);
}

void sremrt_attr_set_int(const sremrt_attr *a, void *event, int64_t v)
{
    unsigned char *p = (unsigned char *)event + a->offset;
    int32_t i32 = (int32_t)v;
    double f = (double)v;
    float f32 = (float)v;
    switch (a->type) {
    case SREMRT_INT:
    case SREMRT_TIMESTAMP:
    case SREMRT_STRING: memcpy(p, &v, sizeof v); break;
    case SREMRT_ENUM: memcpy(p, &i32, sizeof i32); break;
    case SREMRT_BOOL: *p = (unsigned char)(v != 0); break;
    case SREMRT_FLOAT: memcpy(p, &f, sizeof f); break;
    case SREMRT_FLOAT32: memcpy(p, &f32, sizeof f32); break;
    }
}

void sremrt_attr_set_float(const sremrt_attr *a, void *event, double v)
{
    float f32 = (float)v;
    if (a->type == SREMRT_FLOAT)
        memcpy((unsigned char *)event + a->offset, &v, sizeof v);
    else if (a->type == SREMRT_FLOAT32)
        memcpy((unsigned char *)event + a->offset, &f32, sizeof f32);
    else
        sremrt_attr_set_int(a, event, v >= -9.2233720368547758e18 && v < 9.2233720368547758e18
                                          ? (int64_t)v : 0);
}

int64_t sremrt_event_ts(const sremrt_schema *s, const void *event)
{
    return s->ts_attr < 0 ? 0 : sremrt_attr_int(&s->attrs[s->ts_attr], event);
}
