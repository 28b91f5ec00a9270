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
 *   healthy, any history:       Normal 85%, TempHigh 10%, Vibration 5%
 *   healthy, last TempHigh:     Normal 40%, TempHigh 30%, Vibration 30%
 *   wearing, last not Vibration: Normal 55%, Vibration 30%, Fault 10%, TempHigh 5%
 *   wearing, last Vibration:    Normal 35%, Vibration 25%, Fault 35%, TempHigh 5%
 *   wearing, last two Vibration: Fault 60%, Vibration 20%, Normal 20%
 *   last Fault:                 Repair 80%, Normal 20% (a Fault leaves it wearing)
 * so a Fault is more likely the more Vibrations came just before it: an
 * order-2 structure over the pattern's symbols. Integer arithmetic and an
 * own PRNG (splitmix64): the same arguments give the same bytes everywhere. */
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
        {55, 5, 30, 10, 0},   /* wearing */
        {35, 5, 25, 35, 0},   /* wearing, last Vibration */
        {20, 0, 20, 60, 0},   /* wearing, last two Vibration */
        {20, 0, 0, 0, 80},    /* last Fault */
    };
    int row = m->last == FAULT                                  ? 5
            : m->wearing && m->last == VIBRATION && m->before == VIBRATION ? 4
            : m->wearing && m->last == VIBRATION                ? 3
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
