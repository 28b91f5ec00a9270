/* state_fw.c: checkpoints of a --freestanding matcher on the host: the
 * sample's events read into memory; for several k, a matcher in one arena
 * of PFX_ARENA_BYTES takes the first k, its state goes into a static
 * buffer, a second matcher in a second arena loads it and takes the rest;
 * its records must be the first matcher's (fed everything) after event k,
 * and saving it at once gives the same bytes. No malloc in the matchers:
 * compiled like arena_fill.c (-DPFX=name -DHDR='"name.h"').
 *
 *   state_fw EVENTS.csv   prints "checkpoints ... same", exit 0 or 1 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include HDR
#include "sremrt/csv.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define N(x) CAT(PFX, x)

enum { MAXEV = 4096, MAXREC = 1 << 16, CKPT = 1 << 22 };

static unsigned char mem[2][N(_ARENA_BYTES)];
static N(_matcher) matcher[2];
static N(_event) events[MAXEV];
static unsigned char ckpt[2][CKPT];

/* What a record says, as far as two runs must agree on it. */
typedef struct seen {
    int kind, decl;
    long long index, freq, start;
} seen;

typedef struct log_ {
    seen r[MAXREC];
    int n;
} log_;

static log_ logs[2];

static void note(void *user, const sremrt_record *r)
{
    log_ *l = user;
    if (l->n < MAXREC)
        l->r[l->n++] = (seen){(int)r->kind, r->decl, (long long)r->index, (long long)r->freq, (long long)r->start};
}

static int start(int w)
{
    sremrt_arena ar;
    N(_config) cfg;
    sremrt_arena_init(&ar, mem[w], sizeof mem[w]);
    N(_config_default)(&cfg);
    static sremrt_arena arenas[2];
    arenas[w] = ar;
    cfg.alloc = sremrt_arena_hook(&arenas[w]);
    cfg.record = note;
    cfg.user = &logs[w];
    logs[w].n = 0;
    return N(_init)(&matcher[w], &cfg);
}

/* push_many over e[0..n-1], past the events it rejects (backwards timestamps). */
static void feed(N(_matcher) *m, const N(_event) *e, size_t n)
{
    for (size_t k = 0; k < n; k++)
        k += N(_push_many)(m, e + k, n - k);
}

/* Matcher 0 on everything, matcher 1 from its checkpoint after k: 0 if
 * matcher 1's records are matcher 0's after event k. */
static int check(int n, int k)
{
    if (start(0) != 0 || start(1) != 0)
        return -1;
    feed(&matcher[0], events, (size_t)k);
    size_t len = N(_state_size)(&matcher[0]);
    int before = logs[0].n;
    if (len > CKPT || N(_state_save)(&matcher[0], ckpt[0], CKPT) != 0 ||
        N(_state_load)(&matcher[1], ckpt[0], len) != 0 || N(_state_size)(&matcher[1]) != len ||
        N(_state_save)(&matcher[1], ckpt[1], CKPT) != 0 || memcmp(ckpt[0], ckpt[1], len) != 0)
        return -2;
    feed(&matcher[0], events + k, (size_t)(n - k));
    feed(&matcher[1], events + k, (size_t)(n - k));
    N(_finish)(&matcher[0]);
    N(_finish)(&matcher[1]);
    int same = logs[0].n - before == logs[1].n &&
               memcmp(&logs[0].r[before], logs[1].r, (size_t)logs[1].n * sizeof(seen)) == 0;
    N(_free)(&matcher[0]);
    N(_free)(&matcher[1]);
    return same ? 0 : -3;
}

int main(int argc, char **argv)
{
    sremrt_csv csv;
    sremrt_alloc heap = sremrt_alloc_malloc();   /* the host's reader, not the matchers */
    FILE *in = argc > 1 ? fopen(argv[1], "r") : NULL;
    if (!in || sremrt_csv_open(&csv, &N(_schema), in, NULL, &heap) != 0) {
        fprintf(stderr, "usage: state_fw EVENTS.csv\n");
        return 2;
    }
    int n = 0, rc;
    while (n < MAXEV && (rc = sremrt_csv_next(&csv, &events[n])) != SREMRT_READ_END && rc != SREMRT_READ_FATAL)
        n += rc == SREMRT_READ_EVENT;
    sremrt_csv_close(&csv);
    fclose(in);
    int ks[] = {0, 1, n / 3, n / 2, n - 1, n}, bad = 0;
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        int r = check(n, ks[i] < 0 ? 0 : ks[i]);
        if (r != 0) {
            printf("checkpoint after %d of %d events: %s\n", ks[i], n,
                   r == -1 ? "init failed" : r == -2 ? "save or load failed, or bytes differ" : "records differ");
            bad = 1;
        }
    }
    if (!bad)
        printf("checkpoints after 0, 1, n/3, n/2, n-1, n of %d events: records and bytes the same\n", n);
    return bad;
}
