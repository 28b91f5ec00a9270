/* machine_gen.c: a deterministic machine-monitoring stream (CSV on stdout)
 * for samples/machine.srem, whose kinds follow a variable-order source, so
 * that a prediction suffix tree has something to learn.
 *
 *   cc -std=c99 -O2 -o machine_gen samples/machine_gen.c
 *   ./machine_gen --machines 4 --events 20000 --seed 1 > machine.csv
 *
 * Header `time,machine,kind`; one event a second, from a machine drawn
 * uniformly. Each machine's next kind depends on its last two kinds and
 * on whether it is wearing (a TempHigh followed by a Vibration sets it;
 * a Repair clears it):
 *   healthy:                    Normal 85%, TempHigh 10%, Vibration 5%
 *   healthy, last TempHigh:     Normal 40%, TempHigh 30%, Vibration 30%
 *   wearing:                    Normal 55%, TempHigh 20%, Vibration 15%, Fault 10%
 *   wearing, last TempHigh:     Normal 35%, TempHigh 25%, Vibration 5%, Fault 35%
 *   wearing, last two TempHigh: Normal 20%, TempHigh 20%, Fault 60%
 *   last Fault:                 Repair 80%, Normal 20% (a Fault leaves it wearing)
 * so a worn machine's Fault is the likelier the more TempHighs came just
 * before it: an order-2 structure. The source depends only on what the
 * pattern's automaton tells apart (wearing is its state after TempHigh
 * Vibration; TempHigh, Fault and Repair are symbols of their own there),
 * so the symbol stream is a variable-order Markov chain of order at most 3
 * and a learned model can match the source (tests/forecast/run.sh).
 * Integer arithmetic and an own PRNG (splitmix64): the same arguments give
 * the same bytes everywhere. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NORMAL, TEMP_HIGH, VIBRATION, FAULT, REPAIR, NKINDS };
static const char *const kind_name[NKINDS] = {"Normal", "TempHigh", "Vibration", "Fault", "Repair"};

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

typedef struct machine {
    int last, before;   /* the last two kinds, -1 at the start */
    int wearing;
} machine;

/* The next kind: percentages per kind for the machine's situation. */
static int next_kind(machine *m)
{
    static const int pct[6][NKINDS] = {
        {85, 10, 5, 0, 0},    /* healthy */
        {40, 30, 30, 0, 0},   /* healthy, last TempHigh */
        {55, 20, 15, 10, 0},  /* wearing */
        {35, 25, 5, 35, 0},   /* wearing, last TempHigh */
        {20, 20, 0, 60, 0},   /* wearing, last two TempHigh */
        {20, 0, 0, 0, 80},    /* last Fault */
    };
    int row = m->last == FAULT                                  ? 5
            : m->wearing && m->last == TEMP_HIGH && m->before == TEMP_HIGH ? 4
            : m->wearing && m->last == TEMP_HIGH                ? 3
            : m->wearing                                        ? 2
            : m->last == TEMP_HIGH                              ? 1
                                                                : 0;
    int r = (int)rnd(100), k = 0;
    while (r >= pct[row][k])
        r -= pct[row][k++];
    if (k == VIBRATION && m->last == TEMP_HIGH)
        m->wearing = 1;
    if (k == REPAIR)
        m->wearing = 0;
    m->before = m->last;
    m->last = k;
    return k;
}

static long arg(int argc, char **argv, const char *name, long def)
{
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return strtol(argv[i + 1], NULL, 10);
    return def;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0) {
            puts("usage: machine_gen [--machines N (4)] [--events N (20000)] [--seed S (1)]");
            return 0;
        }
    long machines = arg(argc, argv, "--machines", 4), events = arg(argc, argv, "--events", 20000);
    rng_state = (uint64_t)arg(argc, argv, "--seed", 1);
    if (machines < 1 || machines > 100000 || events < 0) {
        fputs("machine_gen: --machines 1..100000, --events >= 0\n", stderr);
        return 2;
    }
    machine *m = calloc((size_t)machines, sizeof *m);
    if (!m)
        return 2;
    for (long k = 0; k < machines; k++)
        m[k].last = m[k].before = -1;
    puts("time,machine,kind");
    for (long i = 0; i < events; i++) {
        long k = (long)rnd((uint64_t)machines);
        printf("%ld,%ld,%s\n", 1700000000L + i, k + 1, kind_name[next_kind(&m[k])]);
    }
    free(m);
    return 0;
}
