/* arena_fill.c: a --freestanding matcher on the host, with exactly
 * PFX_ARENA_BYTES of arena, fed a sample's CSV events: the arena must be
 * enough for every partition key the stream brings (up to PFX_MAX_KEYS):
 * no allocation refused, no memory overflow counted. Compiled once per
 * sample with -DPFX=name -DHDR='"name.h"' (tests/check_firmware.sh) and
 * linked with lib/libsremrt.a: the reader is the host's CSV reader (with
 * malloc), the matcher the firmware code, whose memory is the arena only.
 *
 *   arena_fill EVENTS.csv   prints "arena PEAK/SIZE keys-ok", exit 0 or 1 */
#include <stdio.h>

#include HDR
#include "sremrt/csv.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define N(x) CAT(PFX, x)

static unsigned char mem[N(_ARENA_BYTES)];
static N(_matcher) matcher;

static void count(void *user, const sremrt_record *r)
{
    (void)r;
    ++*(long *)user;
}

int main(int argc, char **argv)
{
    sremrt_arena ar;
    N(_config) cfg;
    sremrt_csv csv;
    sremrt_alloc heap = sremrt_alloc_malloc();   /* the host's reader, not the matcher */
    long records = 0;
    FILE *in = argc > 1 ? fopen(argv[1], "r") : NULL;
    if (!in) {
        fprintf(stderr, "usage: arena_fill EVENTS.csv\n");
        return 2;
    }
    sremrt_arena_init(&ar, mem, sizeof mem);
    N(_config_default)(&cfg);
    cfg.alloc = sremrt_arena_hook(&ar);
    cfg.record = count;
    cfg.user = &records;
    if (N(_init)(&matcher, &cfg) != 0) {
        fprintf(stderr, "arena_fill: init failed with %zu bytes of arena\n", sizeof mem);
        return 1;
    }
    if (sremrt_csv_open(&csv, &N(_schema), in, NULL, &heap) != 0) {
        fprintf(stderr, "arena_fill: %s\n", sremrt_csv_message(&csv));
        return 1;
    }
    csv.strings = N(_strtab)(&matcher);   /* strings go into the arena too */
    for (;;) {
        N(_event) e;
        int rc = sremrt_csv_next(&csv, &e);
        if (rc == SREMRT_READ_END || rc == SREMRT_READ_FATAL)
            break;
        if (rc == SREMRT_READ_EVENT)
            N(_push)(&matcher, &e);
    }
    N(_finish)(&matcher);
    const sremrt_stats *st = N(_stats)(&matcher);
    int ok = ar.failures == 0 && st->overflow[SREMRT_OVF_MEMORY] == 0;
    printf("arena %zu/%zu bytes, %lu events, %ld records, %s\n", ar.peak, sizeof mem,
           (unsigned long)st->events, records, ok ? "nothing refused" : "ALLOCATIONS REFUSED");
    sremrt_csv_close(&csv);
    N(_free)(&matcher);
    fclose(in);
    return ok ? 0 : 1;
}
