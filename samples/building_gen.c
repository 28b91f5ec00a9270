/* building_gen.c: a deterministic sensor-event stream (CSV on stdout) for
 * samples/building.srem: overheating incidents in the zones of a building.
 *
 *   cc -std=c99 -O2 -o building_gen samples/building_gen.c
 *   ./building_gen --zones 6 --hours 168 --seed 1 > building.csv
 *
 * Header `time,zone,event`, then hours x events-per-hour events in
 * non-decreasing time (seconds). An incident is TempRise, then FanStart
 * (20 s to 2 min later), then a third step 30 s to 3 min later; now and then
 * an incident is too slow for the 10 min window or stops early. Its third
 * step changes over the run, so what follows <TempRise FanStart> changes:
 *   first 15%:  PowerIncrease (the pattern itself);
 *   next 45%:   mostly PressureAlert instead (a clogged filter): the
 *               variation <TempRise FanStart PressureAlert> gains confidence
 *               until it is suggested (0.4), some 25-45% into the run;
 *   last 40%:   mostly PowerIncrease then VibrationSpike (a worn fan
 *               bearing): the extension <... PowerIncrease VibrationSpike>
 *               and the variation <TempRise FanStart VibrationSpike> grow.
 * Background noise of every type in every zone makes up about 30%. The
 * run opens with a start-up incident in each of the first zones, before
 * any noise, so that no candidate is suggested merely for coming first.
 * The pattern has no `partition by zone`: all zones form one stream, and
 * the default density (20 events an hour) keeps incidents of different
 * zones mostly apart within the 10 min window; much denser streams chain
 * events across zones and blur the phases. Integer arithmetic and an own
 * PRNG (splitmix64): the same arguments give the same bytes everywhere. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TEMP_RISE, FAN_START, POWER_INCREASE, PRESSURE_ALERT, VIBRATION_SPIKE, NTYPES };
static const char *const type_name[NTYPES] = {"TempRise", "FanStart", "PowerIncrease",
                                              "PressureAlert", "VibrationSpike"};

/* Noise mix (relative weights per type). */
static const unsigned noise_mix[NTYPES] = {3, 3, 1, 1, 1};

#define HOUR 3600

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

/* ---- events ------------------------------------------------------------------ */

typedef struct Event {
    int64_t time;
    uint64_t seq;     /* generation order: breaks ties of time */
    int32_t zone;
    int32_t type;
} Event;

static Event *events;
static size_t nevents, capevents;

static void emit(int64_t time, int32_t zone, int type)
{
    if (nevents == capevents) {
        capevents = capevents ? 2 * capevents : 4096;
        events = realloc(events, capevents * sizeof *events);
        if (!events) {
            fputs("building_gen: out of memory\n", stderr);
            exit(1);
        }
    }
    events[nevents].time = time;
    events[nevents].seq = nevents;
    events[nevents].zone = zone;
    events[nevents].type = type;
    nevents++;
}

static int by_time(const void *a, const void *b)
{
    const Event *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* ---- incidents ------------------------------------------------------------------ */

/* The third step of an incident: which phase of the run decides. */
enum { NORMAL, CLOGGED, WORN, STOPS, SLOW };

static int incident_kind(int64_t elapsed, int64_t total)
{
    int r = (int)rnd(100);
    int phase = elapsed * 100 < total * 15 ? 0 : elapsed * 100 < total * 60 ? 1 : 2;
    if (r < 6)
        return STOPS;
    if (r < 12)
        return SLOW;
    if (phase == 0)
        return NORMAL;
    return r < 94 ? (phase == 1 ? CLOGGED : WORN) : NORMAL;
}

/* One incident from t in zone z: returns the events emitted. */
static int incident(int64_t t, int32_t z, int kind)
{
    int64_t fan = t + 20 + (int64_t)rnd(100), third = fan + 30 + (int64_t)rnd(150);
    emit(t, z, TEMP_RISE);
    switch (kind) {
    case STOPS:                          /* the fan alone cools it down */
        if (rnd(2)) {
            emit(fan, z, FAN_START);
            return 2;
        }
        return 1;
    case SLOW:                           /* the fan starts late: out of the window */
        fan = t + 400 + (int64_t)rnd(200);
        emit(fan, z, FAN_START);
        emit(fan + 30 + (int64_t)rnd(150), z, POWER_INCREASE);
        return 3;
    case CLOGGED:                        /* pressure builds instead of power */
        emit(fan, z, FAN_START);
        emit(third, z, PRESSURE_ALERT);
        return 3;
    case WORN:                           /* power, then the bearing vibrates */
        emit(fan, z, FAN_START);
        emit(third, z, POWER_INCREASE);
        emit(third + 10 + (int64_t)rnd(110), z, VIBRATION_SPIKE);
        return 4;
    default:
        emit(fan, z, FAN_START);
        emit(third, z, POWER_INCREASE);
        return 3;
    }
}

/* ---- main ---------------------------------------------------------------------- */

static void usage(FILE *f)
{
    fputs("usage: building_gen [--zones N] [--hours H] [--seed S] [--events-per-hour N] [--start T]\n"
          "Writes a CSV event stream (time,zone,event) for samples/building.srem to standard\n"
          "output: overheating incidents (TempRise, FanStart, then PowerIncrease, or\n"
          "PressureAlert, or PowerIncrease and VibrationSpike, by phase of the run) and\n"
          "background noise. The same arguments give the same output on every machine.\n\n"
          "  --zones N            zones, numbered 1..N (default 6)\n"
          "  --hours H            hours of events (default 168, a week)\n"
          "  --seed S             PRNG seed (default 1)\n"
          "  --events-per-hour N  events per hour (default 20, at least 10); hours x N in all\n"
          "  --start T            timestamp of the first event, in s (default 1700000000)\n"
          "  --help               print this help and exit\n",
          f);
}

static int64_t number(const char *opt, const char *s, int64_t min, int64_t max)
{
    char *end;
    long long v;
    if (!s) {
        fprintf(stderr, "building_gen: %s needs a value\n", opt);
        exit(2);
    }
    v = strtoll(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < min || v > max) {
        fprintf(stderr, "building_gen: %s: not an integer in %lld..%lld: %s\n", opt, (long long)min,
                (long long)max, s);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    int64_t zones = 6, hours = 168, per_hour = 20, start = 1700000000, total, made = 0, quiet;
    uint64_t seed = 1, mix_cum[NTYPES], budget;
    size_t i;
    int a, z;

    for (a = 1; a < argc; a++) {
        const char *o = argv[a], *v = a + 1 < argc ? argv[a + 1] : NULL;
        if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(o, "--zones") == 0) {
            zones = number(o, v, 1, 1000000), a++;
        } else if (strcmp(o, "--hours") == 0) {
            hours = number(o, v, 1, 24 * 3650), a++;
        } else if (strcmp(o, "--seed") == 0) {
            seed = (uint64_t)number(o, v, 0, INT64_MAX), a++;
        } else if (strcmp(o, "--events-per-hour") == 0) {
            per_hour = number(o, v, 10, 10000000), a++;
        } else if (strcmp(o, "--start") == 0) {
            start = number(o, v, 0, INT64_MAX / 2), a++;
        } else {
            fprintf(stderr, "building_gen: unknown argument %s\n", o);
            usage(stderr);
            return 2;
        }
    }
    rng_state = seed;
    for (i = 0; i < NTYPES; i++)
        mix_cum[i] = (i ? mix_cum[i - 1] : 0) + noise_mix[i];
    total = hours * HOUR;
    budget = (uint64_t)(hours * per_hour);

    /* Start-up: one clean incident in each of the first zones, 2 min apart. */
    quiet = 0;
    for (z = 1; z <= zones && z <= 4; z++) {
        made += incident(start + 120 * (z - 1), z, NORMAL);
        quiet = 120 * z + 300;
    }
    /* Incidents: about 70% of the events (3.3 events each). */
    for (; made * 10 < (int64_t)budget * 7;) {
        int64_t t = quiet + (int64_t)rnd((uint64_t)(total - quiet));
        int kind = incident_kind(t, total);
        int32_t zone = 1 + (int32_t)rnd((uint64_t)zones);
        made += incident(start + t, zone, kind);
    }
    /* Noise: the rest, every type, every zone, after the start-up. */
    for (; made < (int64_t)budget; made++) {
        int64_t t = quiet + (int64_t)rnd((uint64_t)(total - quiet));
        int32_t zone = 1 + (int32_t)rnd((uint64_t)zones);
        uint64_t r = rnd(mix_cum[NTYPES - 1]);
        int type = 0;
        while (mix_cum[type] <= r)
            type++;
        emit(start + t, zone, type);
    }

    qsort(events, nevents, sizeof *events, by_time);
    puts("time,zone,event");
    for (i = 0; i < nevents; i++)
        printf("%lld,%ld,%s\n", (long long)events[i].time, (long)events[i].zone,
               type_name[events[i].type]);
    free(events);
    return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
