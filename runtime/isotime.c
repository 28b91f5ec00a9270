/* isotime.c: ISO-8601 instants and durations with a unit (text) -> exact
 * int64 counts of a timestamp unit; integer arithmetic only, so firmware
 * builds keep it (no libc time functions, no time zone database). */
#include "sremrt/isotime.h"

#define NS_PER_S INT64_C(1000000000)

int64_t sremrt_days_from_civil(int64_t y, int m, int d)
{
    /* Count years from March, so the leap day is the last day of a year:
     * a year's days before month m then follow (153 * m' + 2) / 5. */
    int64_t mar = m > 2 ? m - 3 : m + 9;
    int64_t yy = m > 2 ? y : y - 1;
    int64_t era = (yy >= 0 ? yy : yy - 399) / 400;   /* 400-year cycles: 146097 days */
    int64_t yoe = yy - era * 400;
    int64_t doy = (153 * mar + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;   /* 719468: 0000-03-01 to 1970-01-01 */
}

static int leap(int64_t y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int month_days(int64_t y, int m)
{
    static const unsigned char days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && leap(y) ? 29 : days[m - 1];
}

/* count decimal digits at s[*i], as a number; -1 if they are not there. */
static int64_t digits(const char *s, size_t n, size_t *i, int count)
{
    int64_t v = 0;
    for (int k = 0; k < count; k++, (*i)++) {
        if (*i >= n || s[*i] < '0' || s[*i] > '9')
            return -1;
        v = v * 10 + (s[*i] - '0');
    }
    return v;
}

/* s[*i] is c (then skipped): 1, else 0. */
static int expect(const char *s, size_t n, size_t *i, char c)
{
    if (*i >= n || s[*i] != c)
        return 0;
    (*i)++;
    return 1;
}

/* The fraction after '.': nanoseconds; digits past the ninth must be 0
 * (else the instant is finer than any unit). */
static int fraction(const char *s, size_t n, size_t *i, int64_t *ns)
{
    int k = 0, inexact = 0;
    *ns = 0;
    for (; *i < n && s[*i] >= '0' && s[*i] <= '9'; (*i)++, k++) {
        if (k < 9)
            *ns = *ns * 10 + (s[*i] - '0');
        else if (s[*i] != '0')
            inexact = 1;
    }
    if (k == 0)
        return SREMRT_TIME_SYNTAX;
    for (; k < 9; k++)
        *ns *= 10;
    return inexact ? SREMRT_TIME_INEXACT : SREMRT_TIME_OK;
}

/* The zone: Z, or +HH:MM / -HH:MM as seconds east of UTC. */
static int zone(const char *s, size_t n, size_t *i, int64_t *east)
{
    int64_t h, m;
    int sign;
    if (*i >= n)
        return SREMRT_TIME_NO_ZONE;
    if (s[*i] == 'Z' || s[*i] == 'z') {
        (*i)++;
        *east = 0;
        return SREMRT_TIME_OK;
    }
    if (s[*i] != '+' && s[*i] != '-')
        return SREMRT_TIME_SYNTAX;
    sign = s[(*i)++] == '-' ? -1 : 1;
    if ((h = digits(s, n, i, 2)) < 0 || !expect(s, n, i, ':') || (m = digits(s, n, i, 2)) < 0)
        return SREMRT_TIME_SYNTAX;
    if (h > 23 || m > 59)
        return SREMRT_TIME_RANGE;
    *east = sign * (h * 3600 + m * 60);
    return SREMRT_TIME_OK;
}

/* seconds and ns (0 <= ns < 1e9) as units of unit_ns, exactly. */
static int to_units(int64_t sec, int64_t ns, int64_t unit_ns, int64_t *out)
{
    if (unit_ns <= 0)
        return SREMRT_TIME_UNIT;
    if (unit_ns <= NS_PER_S) {
        int64_t per = NS_PER_S / unit_ns;   /* units in a second */
        if (NS_PER_S % unit_ns != 0)
            return SREMRT_TIME_UNIT;
        if (ns % unit_ns != 0)
            return SREMRT_TIME_INEXACT;
        if (sec > INT64_MAX / per || (sec == INT64_MAX / per && ns / unit_ns > INT64_MAX % per)
            || sec < INT64_MIN / per)   /* C division truncates: INT64_MIN / per is in range */
            return SREMRT_TIME_BIG;
        *out = sec * per + ns / unit_ns;
        return SREMRT_TIME_OK;
    }
    if (unit_ns % NS_PER_S != 0)
        return SREMRT_TIME_UNIT;
    if (ns != 0 || sec % (unit_ns / NS_PER_S) != 0)
        return SREMRT_TIME_INEXACT;
    *out = sec / (unit_ns / NS_PER_S);
    return SREMRT_TIME_OK;
}

int sremrt_parse_iso8601(const char *s, size_t n, int64_t unit_ns, int64_t *out)
{
    size_t i = 0;
    int64_t y, mo, d, h, mi, sec, ns = 0, east = 0;
    int rc = SREMRT_TIME_OK, frc;
    if ((y = digits(s, n, &i, 4)) < 0 || !expect(s, n, &i, '-') || (mo = digits(s, n, &i, 2)) < 0
        || !expect(s, n, &i, '-') || (d = digits(s, n, &i, 2)) < 0)
        return SREMRT_TIME_SYNTAX;
    if (!expect(s, n, &i, 'T') && !expect(s, n, &i, 't'))
        return SREMRT_TIME_SYNTAX;
    if ((h = digits(s, n, &i, 2)) < 0 || !expect(s, n, &i, ':') || (mi = digits(s, n, &i, 2)) < 0
        || !expect(s, n, &i, ':') || (sec = digits(s, n, &i, 2)) < 0)
        return SREMRT_TIME_SYNTAX;
    if (expect(s, n, &i, '.') && (rc = fraction(s, n, &i, &ns)) == SREMRT_TIME_SYNTAX)
        return rc;
    if ((frc = zone(s, n, &i, &east)) != SREMRT_TIME_OK)
        return frc;
    if (i != n)
        return SREMRT_TIME_SYNTAX;
    if (mo < 1 || mo > 12 || d < 1 || d > month_days(y, (int)mo) || h > 23 || mi > 59 || sec > 59)
        return SREMRT_TIME_RANGE;
    if (rc != SREMRT_TIME_OK)   /* a fraction finer than a nanosecond */
        return rc;
    sec += sremrt_days_from_civil(y, (int)mo, (int)d) * 86400 + h * 3600 + mi * 60 - east;
    return to_units(sec, ns, unit_ns, out);
}

int sremrt_parse_duration(const char *s, int64_t unit_ns, int64_t *out)
{
    static const struct { const char *name; int64_t ns; } units[] = {
        {"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", NS_PER_S},
        {"min", 60 * NS_PER_S}, {"h", 3600 * NS_PER_S}, {"d", 86400 * NS_PER_S},
    };
    int64_t v = 0;
    size_t i = 0;
    for (; s[i] >= '0' && s[i] <= '9'; i++) {
        if (v > (INT64_MAX - (s[i] - '0')) / 10)
            return SREMRT_TIME_BIG;
        v = v * 10 + (s[i] - '0');
    }
    if (i == 0)
        return SREMRT_TIME_SYNTAX;
    if (s[i] == '\0') {   /* a bare number: units of the timestamp already */
        *out = v;
        return SREMRT_TIME_OK;
    }
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
        const char *a = units[u].name, *b = s + i;
        while (*a && *a == *b)
            a++, b++;
        if (*a || *b)
            continue;
        if (unit_ns <= 0)
            return SREMRT_TIME_UNIT;
        /* v * ns / unit_ns, whole: split to stay in int64 */
        int64_t ns = units[u].ns, g = ns % unit_ns == 0 ? ns / unit_ns : 0;
        if (g) {
            if (v > INT64_MAX / g)
                return SREMRT_TIME_BIG;
            *out = v * g;
            return SREMRT_TIME_OK;
        }
        if (unit_ns % ns != 0 || v % (unit_ns / ns) != 0)
            return SREMRT_TIME_INEXACT;
        *out = v / (unit_ns / ns);
        return SREMRT_TIME_OK;
    }
    return SREMRT_TIME_UNIT;
}

const char *sremrt_time_error(int rc)
{
    switch (rc) {
    case SREMRT_TIME_OK:
        return "";
    case SREMRT_TIME_NO_ZONE:
        return "has no time zone (Z or an offset like +02:00)";
    case SREMRT_TIME_RANGE:
        return "is not a valid date and time";
    case SREMRT_TIME_INEXACT:
        return "is not a whole number of the timestamp's unit";
    case SREMRT_TIME_BIG:
        return "is out of the int64 range of the timestamp's unit";
    case SREMRT_TIME_UNIT:
        return "has an unknown unit (ns us ms s min h d)";
    default:
        return "is not a timestamp (an integer or an ISO-8601 time)";
    }
}
