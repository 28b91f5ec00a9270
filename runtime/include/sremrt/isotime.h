/* isotime.h: ISO-8601 instants (CSV timestamps) and durations with a unit
 * (PROG --max-delay) -> int64 counts of a timestamp unit, exactly. */
#ifndef SREMRT_ISOTIME_H
#define SREMRT_ISOTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Results of the parsers below; sremrt_time_error names each. */
enum {
    SREMRT_TIME_OK      = 0,
    SREMRT_TIME_SYNTAX  = -1,   /* not of the form at all */
    SREMRT_TIME_NO_ZONE = -2,   /* an ISO time without Z or an offset */
    SREMRT_TIME_RANGE   = -3,   /* a field out of range (month 13, Feb 30, 24:00) */
    SREMRT_TIME_INEXACT = -4,   /* not a whole number of units */
    SREMRT_TIME_BIG     = -5,   /* outside the int64 range of the unit */
    SREMRT_TIME_UNIT    = -6    /* unknown unit (durations), or unit_ns unusable */
};

/* s[0..n): `YYYY-MM-DDTHH:MM:SS[.fraction]` then `Z` or `+HH:MM`/`-HH:MM`
 * (`t` and `z` also accepted, RFC 3339), proleptic Gregorian, years 0000 to
 * 9999, seconds 00 to 59 (no leap second). *out: the instant as units of
 * unit_ns nanoseconds (1, 1000, ...; a divisor or a multiple of a second)
 * since 1970-01-01T00:00:00Z. No libc time functions: freestanding. */
int sremrt_parse_iso8601(const char *s, size_t n, int64_t unit_ns, int64_t *out);

/* s (NUL-terminated): a non-negative integer, taken as units already, or an
 * integer and a unit in one word (`2s`, `500ms`; ns us ms s min h d), which
 * must be a whole number of units of unit_ns nanoseconds. */
int sremrt_parse_duration(const char *s, int64_t unit_ns, int64_t *out);

/* What a result above means, for messages ("is not a whole number of the
 * timestamp's unit"); "" for SREMRT_TIME_OK. */
const char *sremrt_time_error(int rc);

/* Days from 1970-01-01 to the civil date y-m-d (proleptic Gregorian). */
int64_t sremrt_days_from_civil(int64_t y, int m, int d);

#ifdef __cplusplus
}
#endif

#endif
