/* telecom_gen.c: a deterministic alarm stream (CSV on stdout) for
 * samples/telecom.srem, after the ONCE paper's Table 4 (telecom alarms).
 *
 *   cc -std=c99 -O2 -o telecom_gen samples/telecom_gen.c
 *   ./telecom_gen --cells 400 --days 1 --seed 1 > alarms.csv
 *
 * Header `time,cell,kind`, then days x alarms-per-day alarms in non-decreasing
 * time (seconds; each day's alarms start in that day, a few spill past its
 * midnight), made of:
 *   - background noise of every kind, from every cell, busier by day;
 *   - cell failures: low_voltage, bs_disconnect, carrier_wave within
 *     seconds to minutes (sometimes exactly at or just past the 3 min
 *     window, sometimes slower, interleaved with other alarms, repeated,
 *     flapping or cut short);
 *   - AP failures: ap_reboot then ap_fault within 5 min (sometimes just
 *     past it or slower, sometimes two reboots and two faults);
 *   - occasional pairs of "DTS fault" alarms.
 * A few failure-prone cells (about 4%, at least one) get most failures, so
 * their cell_out and ap_out alerts fire; another 16% fail now and then.
 * Integer arithmetic and an own PRNG (splitmix64): the same arguments give
 * the same bytes on every machine. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LOW_VOLTAGE, BS_DISCONNECT, CARRIER_WAVE, AP_REBOOT, AP_FAULT, DTS_FAULT, NKINDS };

/* CSV spellings; "DTS fault" quoted as in RFC 4180 (the reader accepts both). */
static const char *const kind_csv[NKINDS] = {"low_voltage", "bs_disconnect", "carrier_wave",
                                             "ap_reboot",   "ap_fault",      "\"DTS fault\""};

/* Noise mix per 10000 alarms: mostly alarms that are harmless alone. */
static const unsigned noise_mix[NKINDS] = {3200, 2900, 3197, 300, 400, 3};

/* Relative alarm rate per hour of the day (quiet nights, busy days). */
static const unsigned hour_weight[24] = {3, 2, 2, 2, 2, 3, 5, 7, 9, 10, 10, 10,
                                         10, 10, 10, 10, 10, 9, 8, 7, 6, 5, 4, 3};

#define DAY 86400

/* ---- PRNG: splitmix64 (Steele, Lea, Flood 2014) ---------------------------- */

static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* Uniform in 0..n-1 (n >= 1), without modulo bias. */
static uint64_t rnd(uint64_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n, r;
    do
        r = rng_next();
    while (r >= limit);
    return r % n;
}

/* An index drawn with the given cumulative weights (cum[n-1] = total). */
static size_t pick(const uint64_t *cum, size_t n)
{
    uint64_t r = rnd(cum[n - 1]);
    size_t lo = 0, hi = n - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cum[mid] > r)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* ---- events ------------------------------------------------------------------ */

typedef struct Alarm {
    int64_t time;
    uint64_t seq;     /* generation order: breaks ties of time */
    int32_t cell;
    int32_t kind;
} Alarm;

static Alarm *alarms;
static size_t nalarms, capalarms;
static uint64_t nextseq;

static void emit(int64_t time, int32_t cell, int kind)
{
    if (nalarms == capalarms) {
        capalarms = capalarms ? 2 * capalarms : 4096;
        alarms = realloc(alarms, capalarms * sizeof *alarms);
        if (!alarms) {
            fputs("telecom_gen: out of memory\n", stderr);
            exit(1);
        }
    }
    alarms[nalarms].time = time;
    alarms[nalarms].seq = nextseq++;
    alarms[nalarms].cell = cell;
    alarms[nalarms].kind = kind;
    nalarms++;
}

static int by_time(const void *a, const void *b)
{
    const Alarm *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* ---- the day's model ------------------------------------------------------------ */

static uint64_t hour_cum[24];
static uint64_t *fail_cum, *ap_cum, *noise_cum;   /* per cell: cumulative weights */
static int32_t ncells;

/* A second of the day, busier by day. */
static int64_t when(int64_t day_start)
{
    return day_start + 3600 * (int64_t)pick(hour_cum, 24) + (int64_t)rnd(3600);
}

static int32_t any_cell(void)
{
    return 1 + (int32_t)rnd((uint64_t)ncells);
}

static int32_t noisy_cell(void)
{
    return 1 + (int32_t)pick(noise_cum, (size_t)ncells);
}

/* Alarms of any kind of the cell between t and t + span. */
static int interleave(int64_t t, int64_t span, int32_t cell)
{
    int n = 1 + (int)rnd(2), i;
    for (i = 0; i < n; i++) {
        int64_t at = t + (int64_t)rnd((uint64_t)span + 1);   /* see main: one draw a call */
        emit(at, cell, (int)rnd(NKINDS - 1));
    }
    return n;
}

/* One cell failure from t: returns the alarms emitted. */
static int cell_failure(int64_t t, int32_t cell)
{
    int64_t g1, g2;
    int r = (int)rnd(100), n = 3, i, reps;
    if (r < 52) {                       /* typical: within a minute or two */
        g1 = 1 + (int64_t)rnd(60);
        g2 = 1 + (int64_t)rnd(90);
    } else if (r < 62) {                /* right at the 3 min window: 180 s in, 181 s out */
        g1 = 1 + (int64_t)rnd(170);
        g2 = 180 - g1 + (int64_t)rnd(2);
    } else if (r < 75) {                /* slow: mostly too slow */
        g1 = 60 + (int64_t)rnd(200);
        g2 = 60 + (int64_t)rnd(300);
    } else if (r < 87) {                /* repeated: the triple again, 1 to 3 times */
        reps = 2 + (int)rnd(3);
        n = 0;
        for (i = 0; i < reps; i++) {
            emit(t, cell, LOW_VOLTAGE);
            emit(t + 1 + (int64_t)rnd(20), cell, BS_DISCONNECT);
            emit(t + 21 + (int64_t)rnd(20), cell, CARRIER_WAVE);
            t += 42 + (int64_t)rnd(120);
            n += 3;
        }
        return n;
    } else if (r < 94) {                /* flapping: LV BD LV BD CW CW */
        emit(t, cell, LOW_VOLTAGE);
        emit(t + 5, cell, BS_DISCONNECT);
        emit(t + 10 + (int64_t)rnd(10), cell, LOW_VOLTAGE);
        emit(t + 25 + (int64_t)rnd(10), cell, BS_DISCONNECT);
        emit(t + 40 + (int64_t)rnd(30), cell, CARRIER_WAVE);
        emit(t + 75 + (int64_t)rnd(60), cell, CARRIER_WAVE);
        return 6;
    } else {                            /* cut short: power comes back */
        emit(t, cell, LOW_VOLTAGE);
        if (r < 98) {
            emit(t + 1 + (int64_t)rnd(60), cell, BS_DISCONNECT);
            return 2;
        }
        return 1;
    }
    emit(t, cell, LOW_VOLTAGE);
    emit(t + g1, cell, BS_DISCONNECT);
    emit(t + g1 + g2, cell, CARRIER_WAVE);
    if (rnd(100) < 30)
        n += interleave(t, g1 + g2, cell);
    return n;
}

/* One AP failure from t: returns the alarms emitted. */
static int ap_failure(int64_t t, int32_t cell)
{
    int r = (int)rnd(100);
    emit(t, cell, AP_REBOOT);
    if (r < 60) {                       /* typical: the fault within 5 min */
        emit(t + 1 + (int64_t)rnd(290), cell, AP_FAULT);
    } else if (r < 68) {                /* right at the window: 300 s in, 301 s out */
        emit(t + 300 + (int64_t)rnd(2), cell, AP_FAULT);
    } else if (r < 80) {                /* slow: too late */
        emit(t + 301 + (int64_t)rnd(900), cell, AP_FAULT);
    } else if (r < 90) {                /* two reboots, two faults: distinct counts 2 */
        emit(t + 1 + (int64_t)rnd(60), cell, AP_REBOOT);
        emit(t + 61 + (int64_t)rnd(60), cell, AP_FAULT);
        emit(t + 121 + (int64_t)rnd(120), cell, AP_FAULT);
        return 4;
    } else if (r < 95) {                /* two reboots, one fault */
        emit(t + 1 + (int64_t)rnd(60), cell, AP_REBOOT);
        emit(t + 61 + (int64_t)rnd(120), cell, AP_FAULT);
        return 3;
    } else {                            /* the reboot fixed it */
        return 1;
    }
    return 2;
}

/* Two (now and then three) "DTS fault" alarms, mostly within an hour. */
static int dts_pair(int64_t t)
{
    emit(t, any_cell(), DTS_FAULT);
    t += 60 + (int64_t)rnd(4200);
    emit(t, any_cell(), DTS_FAULT);
    if (rnd(100) < 20) {
        t += 1 + (int64_t)rnd(600);
        emit(t, any_cell(), DTS_FAULT);
        return 3;
    }
    return 2;
}

/* Cumulative per-cell weights: cells in a shuffled order, the first hot%
 * (at least one) weigh hot, the next warm% (at least one) weigh warm. */
static uint64_t *cell_weights(int hotpct, uint64_t hot, int warmpct, uint64_t warm)
{
    int32_t *order = malloc((size_t)ncells * sizeof *order), i, j, nhot, nwarm;
    uint64_t *cum = malloc((size_t)ncells * sizeof *cum), *w = malloc((size_t)ncells * sizeof *w);
    if (!order || !cum || !w) {
        fputs("telecom_gen: out of memory\n", stderr);
        exit(1);
    }
    for (i = 0; i < ncells; i++)
        order[i] = i;
    for (i = ncells - 1; i > 0; i--) {
        int32_t tmp;
        j = (int32_t)rnd((uint64_t)i + 1);
        tmp = order[i], order[i] = order[j], order[j] = tmp;
    }
    nhot = ncells * hotpct / 100;
    nhot = nhot < 1 ? 1 : nhot;
    nwarm = ncells * warmpct / 100;
    nwarm = nwarm < 1 ? 1 : nwarm;
    for (i = 0; i < ncells; i++)
        w[order[i]] = i < nhot ? hot : i < nhot + nwarm ? warm : 1;
    for (i = 0; i < ncells; i++)
        cum[i] = (i ? cum[i - 1] : 0) + w[i];
    free(order);
    free(w);
    return cum;
}

/* ---- main ---------------------------------------------------------------------- */

static void usage(FILE *f)
{
    fputs("usage: telecom_gen [--cells N] [--days D] [--seed S] [--alarms-per-day N] [--start T]\n"
          "Writes a CSV alarm stream (time,cell,kind) for samples/telecom.srem to standard\n"
          "output: background noise, cell failures (low_voltage, bs_disconnect,\n"
          "carrier_wave), AP failures (ap_reboot, ap_fault) and \"DTS fault\" pairs.\n"
          "The same arguments give the same output on every machine.\n\n"
          "  --cells N           cells, numbered 1..N (default 400)\n"
          "  --days D            days of alarms (default 1)\n"
          "  --seed S            PRNG seed (default 1)\n"
          "  --alarms-per-day N  alarms per day (default 250000, at least 100); days x N in all\n"
          "  --start T           timestamp of the first day's midnight, in s (default 1700000000)\n"
          "  --help              print this help and exit\n",
          f);
}

static int64_t number(const char *opt, const char *s, int64_t min, int64_t max)
{
    char *end;
    long long v;
    if (!s) {
        fprintf(stderr, "telecom_gen: %s needs a value\n", opt);
        exit(2);
    }
    v = strtoll(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < min || v > max) {
        fprintf(stderr, "telecom_gen: %s: not an integer in %lld..%lld: %s\n", opt, (long long)min,
                (long long)max, s);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    int64_t cells = 400, days = 1, per_day = 250000, start = 1700000000, d;
    uint64_t seed = 1;
    uint64_t mix_cum[NKINDS];
    size_t done, i;
    int a;

    for (a = 1; a < argc; a++) {
        const char *o = argv[a], *v = a + 1 < argc ? argv[a + 1] : NULL;
        if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(o, "--cells") == 0) {
            cells = number(o, v, 1, 1000000), a++;
        } else if (strcmp(o, "--days") == 0) {
            days = number(o, v, 1, 3650), a++;
        } else if (strcmp(o, "--seed") == 0) {
            seed = (uint64_t)number(o, v, 0, INT64_MAX), a++;
        } else if (strcmp(o, "--alarms-per-day") == 0) {
            per_day = number(o, v, 100, 100000000), a++;
        } else if (strcmp(o, "--start") == 0) {
            start = number(o, v, 0, INT64_MAX / 2), a++;
        } else {
            fprintf(stderr, "telecom_gen: unknown argument %s\n", o);
            usage(stderr);
            return 2;
        }
    }
    ncells = (int32_t)cells;
    rng_state = seed;
    for (i = 0; i < 24; i++)
        hour_cum[i] = (i ? hour_cum[i - 1] : 0) + hour_weight[i];
    for (i = 0; i < NKINDS; i++)
        mix_cum[i] = (i ? mix_cum[i - 1] : 0) + noise_mix[i];
    fail_cum = cell_weights(4, 60, 16, 6);
    ap_cum = cell_weights(4, 40, 16, 4);
    noise_cum = cell_weights(5, 40, 0, 1);

    puts("time,cell,kind");
    for (d = 0; d < days; d++) {
        int64_t day_start = start + d * DAY, made = 0, k;
        int64_t cell_bursts = per_day * 12 / 1000, ap_bursts = per_day * 3 / 1000;
        int64_t dts_pairs = 1 + per_day / 25000;
        /* At most one random draw among a call's arguments: C leaves their
         * order unspecified, and the output must not depend on the compiler. */
        for (k = 0; k < cell_bursts; k++) {
            int64_t t = when(day_start);
            made += cell_failure(t, 1 + (int32_t)pick(fail_cum, (size_t)ncells));
        }
        for (k = 0; k < ap_bursts; k++) {
            int64_t t = when(day_start);
            made += ap_failure(t, 1 + (int32_t)pick(ap_cum, (size_t)ncells));
        }
        for (k = 0; k < dts_pairs; k++)
            made += dts_pair(when(day_start));
        for (; made < per_day; made++) {
            int64_t t = when(day_start);
            int32_t cell = noisy_cell();
            emit(t, cell, (int)pick(mix_cum, NKINDS));
        }

        /* Everything before the next midnight is final: later days start there. */
        qsort(alarms, nalarms, sizeof *alarms, by_time);
        for (done = 0; done < nalarms && (d == days - 1 || alarms[done].time < day_start + DAY);
             done++)
            printf("%lld,%ld,%s\n", (long long)alarms[done].time, (long)alarms[done].cell,
                   kind_csv[alarms[done].kind]);
        memmove(alarms, alarms + done, (nalarms - done) * sizeof *alarms);
        nalarms -= done;
    }
    free(alarms);
    free(fail_cum);
    free(ap_cum);
    free(noise_cum);
    return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
