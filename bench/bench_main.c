/* bench_main.c: the first benchmark driver (`make bench`, bench/run.sh).
 *
 * Generates the WORKLOADS.md event stream in memory (bit-exact xorshift64
 * types, 16-byte records {ts, type, val}), pushes every event through each
 * generated matcher of the entry table (build/bench/entries.c), counts the
 * match records, and prints events/s as the median of REPS repetitions
 * beside a trivial loop that only reads the records, measured interleaved
 * with each matcher's repetitions. Times are thread CPU times (see now()).
 *
 * A wrong answer is a failure, not a figure: before timing, every matcher
 * whose workload has a golden count in WORKLOADS.md (SEQ(A,B,C) stam within
 * 10 events, K = 10 and 26, N = 50 M) is run over the full 50 M stream and
 * checked; while timing, every repetition must give the same count, no
 * capacity may overflow, and all strategies of one workload must agree.
 *
 * usage: bench [-n EVENTS] [-r REPS] [--no-golden]        exit 1 on a failed check
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

/* ---- the stream ------------------------------------------------------------ */

#define SEED 88172645463325252ULL

typedef struct gen {
    uint64_t x;
    uint64_t i;
    uint32_t k;
} gen;

static void gen_init(gen *g, uint32_t k)
{
    g->x = SEED;
    g->i = 0;
    g->k = k;
}

/* Event i: step first, then type = x mod K (WORKLOADS.md). val (not part of
 * the bit-exact contract) is the top 24 bits of the same x, in [0, 1). */
static void gen_fill(gen *g, bench_rec *ev, size_t n)
{
    uint64_t x = g->x;
    size_t j;
    for (j = 0; j < n; j++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        ev[j].ts = g->i++;
        ev[j].type = (uint32_t)(x % g->k);
        ev[j].val = (float)(x >> 40) * (1.0f / 16777216.0f);
    }
    g->x = x;
}

/* ---- timing ------------------------------------------------------------------ */

/* Thread CPU time, not wall time: these 2-CPU machines are shared (parallel
 * builds and tests next to the benchmark), and a descheduled benchmark
 * would otherwise report the other processes' share as its own slowness. */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

volatile uint64_t bench_sink;

/* The floor: read every field of every record, no matching. */
__attribute__((noinline)) static uint64_t read_loop(const bench_rec *ev, size_t n)
{
    uint64_t s = 0;
    size_t i;
    for (i = 0; i < n; i++) {
        uint32_t v;
        memcpy(&v, &ev[i].val, sizeof v);
        s += ev[i].ts + ev[i].type + v;
    }
    return s;
}

static double time_read_loop(const bench_rec *ev, size_t n)
{
    double t0 = now();
    bench_sink += read_loop(ev, n);
    return now() - t0;
}

/* One pass of a matcher over ev[0..n): seconds; *count, *ovf out. */
static double time_matcher(const bench_entry *e, const bench_rec *ev, size_t n,
                           uint64_t *count, uint64_t *ovf)
{
    void *m;
    double t0, t;
    *count = 0;
    m = e->ops->open(count);
    t0 = now();
    e->ops->feed(m, ev, n);
    t = now() - t0;
    *ovf = e->ops->close(m);
    return t;
}

/* ---- golden counts ------------------------------------------------------------ */

typedef struct golden {
    const char *pattern;
    int k;
    long w;
    uint64_t n, count;
} golden;

/* WORKLOADS.md, "SEQ(A,B,C) stam within w: detections", N = 50 M. */
static const golden goldens[] = {
    { "seq", 26, 10, 50000000, 85425 },
    { "seq", 10, 10, 50000000, 1125196 },
};

static int check_golden(const bench_entry *e, const golden *g)
{
    enum { CHUNK = 1 << 20 };
    static bench_rec buf[CHUNK];
    gen gn;
    uint64_t count = 0, left = g->n, ovf;
    void *m = e->ops->open(&count);
    double t0 = now();
    gen_init(&gn, (uint32_t)g->k);
    while (left > 0) {
        size_t c = left < CHUNK ? (size_t)left : CHUNK;
        gen_fill(&gn, buf, c);
        e->ops->feed(m, buf, c);
        left -= c;
    }
    ovf = e->ops->close(m);
    printf("golden  %-4s K=%-2d W=%-6ld %-4s N=%" PRIu64 ": %" PRIu64 " detections, "
           "expected %" PRIu64 "%s (%.1f s)\n", e->pattern, e->k, e->w, e->strategy,
           g->n, count, g->count, count == g->count && ovf == 0 ? ": ok" : ": FAILED",
           now() - t0);
    return count == g->count && ovf == 0;
}

/* ---- main ----------------------------------------------------------------------- */

typedef struct result {
    int done;
    uint64_t count;
    double ns, loop_ns;
} result;

int main(int argc, char **argv)
{
    size_t n = 10000000;
    int reps = 5, golden_on = 1, failed = 0;
    int i, j, r, a;
    result *res;
    bench_rec *ev = NULL;
    int cur_k = -1;

    for (a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "-n") && a + 1 < argc)
            n = (size_t)strtoull(argv[++a], NULL, 10);
        else if (!strcmp(argv[a], "-r") && a + 1 < argc)
            reps = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--no-golden"))
            golden_on = 0;
        else {
            fprintf(stderr, "usage: %s [-n EVENTS] [-r REPS] [--no-golden]\n", argv[0]);
            return 2;
        }
    }
    if (n == 0 || reps < 1 || reps > 99) {
        fprintf(stderr, "bench: bad -n or -r\n");
        return 2;
    }
    res = calloc((size_t)bench_n_entries, sizeof *res);
    if (!res) {
        perror("calloc");
        return 1;
    }

    /* 1. Golden counts, over the whole 50 M stream, generated in chunks. */
    if (golden_on) {
        for (i = 0; i < bench_n_entries; i++) {
            const bench_entry *e = &bench_entries[i];
            size_t g;
            if (!e->ops)
                continue;
            for (g = 0; g < sizeof goldens / sizeof goldens[0]; g++)
                if (!strcmp(goldens[g].pattern, e->pattern) && goldens[g].k == e->k &&
                    goldens[g].w == e->w && !check_golden(e, &goldens[g]))
                    failed = 1;
        }
        fflush(stdout);
    }

    /* 2. Timing, one K at a time (the entry table is grouped by K). */
    for (i = 0; i < bench_n_entries; i++) {
        const bench_entry *e = &bench_entries[i];
        double t_m[99], t_l[99];
        uint64_t count0 = 0;
        if (!e->ops)
            continue;
        if (e->k != cur_k) {
            gen g;
            free(ev);
            ev = malloc(n * sizeof *ev);
            if (!ev) {
                perror("malloc");
                return 1;
            }
            gen_init(&g, (uint32_t)e->k);
            gen_fill(&g, ev, n);
            cur_k = e->k;
            time_read_loop(ev, n);   /* warm the pages */
        }
        for (r = 0; r < reps; r++) {
            uint64_t count, ovf;
            t_l[r] = time_read_loop(ev, n);
            t_m[r] = time_matcher(e, ev, n, &count, &ovf);
            if (ovf) {
                printf("FAILED: %s K=%d W=%ld %s: %" PRIu64 " capacity overflows\n",
                       e->pattern, e->k, e->w, e->strategy, ovf);
                failed = 1;
            }
            if (r == 0)
                count0 = count;
            else if (count != count0) {
                printf("FAILED: %s K=%d W=%ld %s: repetition %d counted %" PRIu64
                       ", the first %" PRIu64 "\n", e->pattern, e->k, e->w, e->strategy,
                       r + 1, count, count0);
                failed = 1;
            }
        }
        res[i].done = 1;
        res[i].count = count0;
        res[i].ns = median(t_m, reps) * 1e9 / (double)n;
        res[i].loop_ns = median(t_l, reps) * 1e9 / (double)n;
        fprintf(stderr, "  %s K=%d W=%ld %s: %.2f ns/event\n", e->pattern, e->k, e->w,
                e->strategy, res[i].ns);
    }
    free(ev);

    /* 3. Strategies must agree on each workload. */
    for (i = 0; i < bench_n_entries; i++)
        for (j = i + 1; j < bench_n_entries; j++) {
            const bench_entry *x = &bench_entries[i], *y = &bench_entries[j];
            if (res[i].done && res[j].done && !strcmp(x->pattern, y->pattern) &&
                x->k == y->k && x->w == y->w && res[i].count != res[j].count) {
                printf("FAILED: %s K=%d W=%ld: %s counted %" PRIu64 ", %s %" PRIu64 "\n",
                       x->pattern, x->k, x->w, x->strategy, res[i].count, y->strategy,
                       res[j].count);
                failed = 1;
            }
        }

    /* 4. The table. */
    printf("\nN = %zu events per repetition, median of %d; read loop: the trivial loop, "
           "timed before each repetition of the row\n\n", n, reps);
    printf("| pattern | K | window | strategy | C size | compile s | detections | ns/event "
           "| M events/s | read loop ns/event | x read loop |\n");
    printf("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (i = 0; i < bench_n_entries; i++) {
        const bench_entry *e = &bench_entries[i];
        char size[32] = "-", comp[32] = "-";
        if (e->c_bytes > 0)
            snprintf(size, sizeof size, "%.0f KB", (double)e->c_bytes / 1024);
        if (e->compile_s > 0)
            snprintf(comp, sizeof comp, "%.1f", e->compile_s);
        if (!res[i].done) {
            printf("| %s | %d | %ld | %s | %s | %s | skipped: %s | | | | |\n", e->pattern,
                   e->k, e->w, e->strategy, size, comp, e->skip ? e->skip : "not run");
            continue;
        }
        printf("| %s | %d | %ld | %s | %s | %s | %" PRIu64 " | %.2f | %.1f | %.2f | %.1f |\n",
               e->pattern, e->k, e->w, e->strategy, size, comp, res[i].count, res[i].ns,
               1e3 / res[i].ns, res[i].loop_ns, res[i].ns / res[i].loop_ns);
    }
    printf("\n%s\n", failed ? "bench: FAILED (see above)" : "bench: all counts checked");
    free(res);
    return failed;
}
