/* state_cost.c: what a checkpoint of a generated matcher costs: a CSV
 * stream fed to the matcher, then its state's bytes and the median time
 * of NAME_state_save and of NAME_state_load (into a matcher fresh from
 * init) over R repetitions. Compiled per matcher with -DPFX=name
 * -DHDR='"name.h"' (bench/state.sh):
 *
 *   state_cost EVENTS.csv [R]   prints "bytes B save U us load V us" */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include HDR
#include "sremrt/csv.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define N(x) CAT(PFX, x)

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return v[n / 2];
}

int main(int argc, char **argv)
{
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_csv csv;
    FILE *in = argc > 1 ? fopen(argv[1], "r") : NULL;
    int reps = argc > 2 ? atoi(argv[2]) : 21;
    N(_config) cfg;
    N(_config_default)(&cfg);
    N(_matcher) *m = malloc(N(_matcher_size)()), *fresh = malloc(N(_matcher_size)());
    if (!in || reps < 1 || !m || !fresh || N(_init)(m, &cfg) != 0 ||
        sremrt_csv_open(&csv, &N(_schema), in, NULL, &heap) != 0) {
        fprintf(stderr, "usage: state_cost EVENTS.csv [REPETITIONS]\n");
        return 2;
    }
    N(_event) e;
    int rc;
    while ((rc = sremrt_csv_next(&csv, &e)) != SREMRT_READ_END && rc != SREMRT_READ_FATAL)
        if (rc == SREMRT_READ_EVENT)
            N(_push)(m, &e);
    size_t n = N(_state_size)(m);
    unsigned char *buf = malloc(n);
    double *save = malloc(sizeof(double) * (size_t)reps), *load = malloc(sizeof(double) * (size_t)reps);
    if (!buf || !save || !load)
        return 2;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        int err = N(_state_save)(m, buf, N(_state_size)(m));
        double t1 = now();
        if (err || N(_init)(fresh, &cfg) != 0)
            return 1;
        double t2 = now();
        err = N(_state_load)(fresh, buf, n);
        double t3 = now();
        N(_free)(fresh);
        if (err)
            return 1;
        save[r] = (t1 - t0) * 1e6;
        load[r] = (t3 - t2) * 1e6;
    }
    printf("events %llu bytes %zu save %.1f us load %.1f us\n", (unsigned long long)N(_stats)(m)->events, n,
           median(save, reps), median(load, reps));
    sremrt_csv_close(&csv);
    N(_free)(m);
    free(m);
    free(fresh);
    free(buf);
    free(save);
    free(load);
    fclose(in);
    return 0;
}
