/* ingest_floor.c: `ingest_floor FILE REPS` -> "SECONDS EVENTS": the
 * 16-byte record-sum floor of docs/PERFORMANCE.md on the records of FILE
 * (int32 type at offset 0, int64 timestamp at 8: the rec shape of
 * bench/ingest.sh as --convert-bin writes it), the file read into memory
 * first: the median CPU time of REPS sums of the type fields. */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

typedef struct rec16 {
    int32_t type;
    int64_t ts;
} rec16;

/* What the floor does: one load and one add per record. */
static uint64_t sum_types(const rec16 *r, size_t n)
{
    uint64_t s = 0;
    size_t i;
    for (i = 0; i < n; i++)
        s += (uint32_t)r[i].type;
    return s;
}

int main(int argc, char **argv)
{
    enum { MAX_REPS = 64 };
    double t[MAX_REPS];
    FILE *f = argc == 3 ? fopen(argv[1], "rb") : NULL;
    int reps = argc == 3 ? atoi(argv[2]) : 0, i;
    long bytes;
    rec16 *r;
    size_t n;
    volatile uint64_t sink = 0;
    if (!f || reps < 1 || reps > MAX_REPS || sizeof(rec16) != 16) {
        fprintf(stderr, "usage: ingest_floor FILE REPS (REPS 1 to %d)\n", MAX_REPS);
        return 2;
    }
    fseek(f, 0, SEEK_END);
    bytes = ftell(f);
    rewind(f);
    n = (size_t)bytes / sizeof(rec16);
    if (!(r = malloc(n * sizeof *r + 1)) || fread(r, sizeof *r, n, f) != n)
        return fprintf(stderr, "ingest_floor: cannot read %s\n", argv[1]), 2;
    for (i = 0; i < reps; i++) {
        double t0 = now();
        sink += sum_types(r, n);
        t[i] = now() - t0;
    }
    printf("%.6f %zu\n", median(t, reps), n);
    free(r);
    fclose(f);
    return sink == 0;   /* never: the types are not all 0 */
}
