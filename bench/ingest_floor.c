/* ingest_floor.c: `ingest_floor FILE REPS [MODE]` -> "SECONDS EVENTS": the
 * 16-byte record-sum floor of docs/PERFORMANCE.md on the records of FILE
 * (int32 type at offset 0, int64 timestamp at 8: the rec shape of
 * bench/ingest.sh as --convert-bin writes it): the median CPU time (user
 * and system, of this thread) of REPS sums of the type fields. MODE says
 * where the records come from, so that the floor of a program fed by a
 * file can be measured beside the in-memory one:
 *   mem (default)  the file read into memory first, not timed;
 *   read:KIB       read(2) in blocks of KIB KiB into one buffer, summed there;
 *   mmap           mapped (MAP_PRIVATE, sequential advice), summed in place;
 *   populate       the same with MAP_POPULATE (the pages mapped up front). */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime */
#define _DEFAULT_SOURCE           /* MAP_POPULATE (Linux) */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* One sum of the file's records through read(2) in blocks of `block`
 * bytes (a multiple of 16). */
static uint64_t sum_read(const char *path, rec16 *buf, size_t block)
{
    uint64_t s = 0;
    ssize_t got;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    while ((got = read(fd, buf, block)) > 0)
        s += sum_types(buf, (size_t)got / sizeof *buf);
    close(fd);
    return s;
}

/* One sum of the file's records mapped (MAP_POPULATE when populate). */
static uint64_t sum_mmap(const char *path, size_t bytes, int populate)
{
    uint64_t s = 0;
    void *p;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
#ifndef MAP_POPULATE
#define MAP_POPULATE 0   /* elsewhere: faulted in as read */
#endif
    p = mmap(NULL, bytes, PROT_READ, MAP_PRIVATE | (populate ? MAP_POPULATE : 0), fd, 0);
    close(fd);
    if (p == MAP_FAILED)
        return 0;
    posix_madvise(p, bytes, POSIX_MADV_SEQUENTIAL);
    s = sum_types((const rec16 *)p, bytes / sizeof(rec16));
    munmap(p, bytes);
    return s;
}

int main(int argc, char **argv)
{
    enum { MAX_REPS = 64 };
    double t[MAX_REPS];
    const char *mode = argc == 4 ? argv[3] : "mem";
    FILE *f = argc == 3 || argc == 4 ? fopen(argv[1], "rb") : NULL;
    int reps = argc >= 3 ? atoi(argv[2]) : 0, i;
    long bytes, kib = strncmp(mode, "read:", 5) == 0 ? atol(mode + 5) : 0;
    rec16 *r;
    size_t n, size;
    volatile uint64_t sink = 0;
    if (!f || reps < 1 || reps > MAX_REPS || sizeof(rec16) != 16 ||
        (strcmp(mode, "mem") && strcmp(mode, "mmap") && strcmp(mode, "populate") && (kib < 1 || kib > 65536))) {
        fprintf(stderr, "usage: ingest_floor FILE REPS [mem|read:KIB|mmap|populate] (REPS 1 to %d)\n", MAX_REPS);
        return 2;
    }
    fseek(f, 0, SEEK_END);
    bytes = ftell(f);
    rewind(f);
    n = (size_t)bytes / sizeof(rec16);
    /* mem: the whole file; read: one block */
    size = kib ? (size_t)kib * 1024 / sizeof(rec16) : n;
    if (!(r = malloc(size * sizeof *r + 1)) || (!kib && fread(r, sizeof *r, n, f) != n))
        return fprintf(stderr, "ingest_floor: cannot read %s\n", argv[1]), 2;
    for (i = 0; i < reps; i++) {
        double t0 = now();
        if (kib)
            sink += sum_read(argv[1], r, size * sizeof *r);
        else if (strcmp(mode, "mem") == 0)
            sink += sum_types(r, n);
        else
            sink += sum_mmap(argv[1], n * sizeof *r, strcmp(mode, "populate") == 0);
        t[i] = now() - t0;
    }
    printf("%.6f %zu\n", median(t, reps), n);
    free(r);
    fclose(f);
    return sink == 0;   /* never: the types are not all 0 */
}
