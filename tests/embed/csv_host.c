/* csv_host.c: the smallest hosted embedding of a generated matcher, built
 * against an installed prefix (tests/check_install.sh) with
 * `cc $(pkg-config --cflags --libs sremrt)`: CSV events from argv[1]
 * through the runtime's reader into the matcher, records as text on
 * standard output. Compiled with -DPFX=name -DHDR='"name.h"'.
 *
 *   csv_host EVENTS.csv   exit 0, or 1 when an event is rejected (an error
 *   record on standard error) */
#include <stdio.h>
#include <stdlib.h>

#include HDR
#include "sremrt/csv.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define N(x) CAT(PFX, x)

/* As the program without --events: the match's events are the
 * callback's to read, not written (the writer writes them with a schema). */
static void print(void *user, const sremrt_record *r)
{
    sremrt_record copy = *r;
    (void)user;
    copy.schema = NULL;
    sremrt_record_write(stdout, SREMRT_TEXT, &copy);
}

int main(int argc, char **argv)
{
    N(_config) cfg;
    sremrt_csv csv;
    sremrt_alloc heap = sremrt_alloc_malloc();
    int bad = 0;
    FILE *in = argc > 1 ? fopen(argv[1], "r") : NULL;
    if (!in) {
        fprintf(stderr, "usage: csv_host EVENTS.csv\n");
        return 2;
    }
    N(_config_default)(&cfg);
    cfg.record = print;
    N(_matcher) *m = malloc(N(_matcher_size)());
    if (!m || N(_init)(m, &cfg) != 0 || sremrt_csv_open(&csv, &N(_schema), in, NULL, &heap) != 0) {
        fprintf(stderr, "csv_host: cannot start\n");
        return 1;
    }
    N(_event) e;
    int rc;
    while ((rc = sremrt_csv_next(&csv, &e)) != SREMRT_READ_END && rc != SREMRT_READ_FATAL) {
        if (rc != SREMRT_READ_EVENT)   /* as the program's error record, on stderr */
            bad = sremrt_write_error(stderr, SREMRT_TEXT, sremrt_csv_line(&csv), sremrt_csv_message(&csv)) || 1;
        else if (N(_push)(m, &e) != 0)
            bad = sremrt_write_error(stderr, SREMRT_TEXT, sremrt_csv_line(&csv), N(_error)(m)) || 1;
    }
    N(_finish)(m);
    sremrt_csv_close(&csv);
    N(_free)(m);
    free(m);
    fclose(in);
    return bad;
}
