/* schema.h: the schema descriptor generated code emits as static const data
 * (attribute names, types, offsets in the event struct, enum value names). */
#ifndef SREMRT_SCHEMA_H
#define SREMRT_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

#include "abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Attribute types and their C representation in the generated event struct. */
typedef enum sremrt_type {
    SREMRT_INT,        /* int64_t */
    SREMRT_FLOAT,      /* double */
    SREMRT_BOOL,       /* uint8_t, 0 or 1 */
    SREMRT_ENUM,       /* int32_t, index into values[] */
    SREMRT_TIMESTAMP,  /* int64_t, in the schema's unit */
    SREMRT_STRING,     /* int64_t, the string's id in a sremrt_strtab */
    SREMRT_FLOAT32     /* float (IEEE binary32); read widened to double, stored
                          rounded to nearest: a schema can describe a caller's
                          record with 32-bit floats exactly */
} sremrt_type;

typedef struct sremrt_attr {
    const char *name;            /* attribute name as in the .srem file */
    sremrt_type type;
    size_t offset;               /* offsetof(NAME_event, attr) */
    int nvalues;                 /* enum: number of values, else 0 */
    const char *const *values;   /* enum: value names in declaration order */
} sremrt_attr;

typedef struct sremrt_schema {
    const char *name;            /* schema name */
    int nattrs;
    const sremrt_attr *attrs;    /* in declaration order */
    int ts_attr;                 /* index of the timestamp attribute, -1 if none */
    size_t event_size;           /* sizeof(NAME_event) */
    int64_t ts_unit_ns;          /* nanoseconds in the timestamp's unit (ABI 7);
                                    0: unknown, ISO-8601 times are refused */
} sremrt_schema;

/* What the event readers (csv.h, bin.h) return from `next`. */
enum {
    SREMRT_READ_EVENT = 0,   /* an event was stored in the caller's buffer */
    SREMRT_READ_END   = 1,   /* end of input */
    SREMRT_READ_BAD   = 2,   /* a malformed line or record: report, skip, go on */
    SREMRT_READ_FATAL = 3    /* the input cannot be read at all (bad header) */
};

/* Index of the attribute called name[0..len), or -1. */
int sremrt_schema_find(const sremrt_schema *s, const char *name, size_t len);

/* Index of the enum value called name[0..len) in attribute a, or -1. */
int sremrt_enum_find(const sremrt_attr *a, const char *name, size_t len);

/* Checks a descriptor (offsets and sizes inside event_size, enum value
 * lists, the timestamp index); 0 if sound, else -1 with a reason in msg. */
int sremrt_schema_check(const sremrt_schema *s, char *msg, size_t cap);

/* Reads an int, timestamp, enum (value index), bool or string (id) attribute of an event
 * as an int64; partition keys and timestamps go through here. */
int64_t sremrt_attr_int(const sremrt_attr *a, const void *event);

/* Reads a float or float32 attribute (or any numeric one, converted) of an event. */
double sremrt_attr_float(const sremrt_attr *a, const void *event);

/* Stores v into an attribute of an event, converted to its C type (a
 * float32 rounded to nearest, ties to even). */
void sremrt_attr_set_int(const sremrt_attr *a, void *event, int64_t v);
void sremrt_attr_set_float(const sremrt_attr *a, void *event, double v);

/* The event's timestamp; 0 when the schema has none. */
int64_t sremrt_event_ts(const sremrt_schema *s, const void *event);

#ifdef __cplusplus
}
#endif

#endif
