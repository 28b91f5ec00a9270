/* fc_model.c: forecast counts of several patterns <-> the model file of
 * `sremc train` (fc_model.h); hosted only. */
#ifndef SREMRT_FREESTANDING
#define _POSIX_C_SOURCE 200809L
#include "sremrt/fc_model.h"

#include <inttypes.h>
#include <string.h>

static const char magic[] = "sremc-forecast-model";

int sremrt_fc_model_begin(FILE *out)
{
    return fprintf(out, "%s %d\n", magic, SREMRT_FC_MODEL_VERSION) < 0 ? -1 : 0;
}

/* The counts go through a temporary file first: the section header says
 * how many lines they take, so a reader can hand exactly those to
 * sremrt_fc_counts_read. */
int sremrt_fc_model_pattern(FILE *out, const char *name, uint64_t hash, const sremrt_fc_counts *c)
{
    FILE *tmp = tmpfile();
    if (!tmp)
        return -1;
    int rc = sremrt_fc_counts_write(c, tmp) < 0 || fflush(tmp) != 0 ? -1 : 0;
    long lines = 0;
    int ch;
    rewind(tmp);
    while (rc == 0 && (ch = getc(tmp)) != EOF)
        lines += ch == '\n';
    uint16_t none = 0;
    if (rc == 0 && fprintf(out, "pattern %s nsym %" PRIu32 " order %" PRIu32 " hash %016" PRIx64
                                " events %" PRIu64 " lines %ld\n",
                           name, sremrt_fc_counts_nsym(c), sremrt_fc_counts_order(c), hash,
                           sremrt_fc_counts_get(c, &none, 0), lines) < 0)
        rc = -1;
    rewind(tmp);
    while (rc == 0 && (ch = getc(tmp)) != EOF)
        if (putc(ch, out) == EOF)
            rc = -1;
    fclose(tmp);
    return rc;
}

int sremrt_fc_model_end(FILE *out)
{
    return fputs("end\n", out) == EOF ? -1 : 0;
}

/* Copies `lines` lines of in into a temporary file, for counts_read. */
static FILE *section(FILE *in, long lines)
{
    FILE *tmp = tmpfile();
    int ch;
    while (tmp && lines > 0 && (ch = getc(in)) != EOF) {
        putc(ch, tmp);
        lines -= ch == '\n';
    }
    if (tmp)
        rewind(tmp);
    return tmp;
}

sremrt_fc_counts *sremrt_fc_model_read(FILE *in, const char *name, uint64_t hash, char *err, size_t errlen)
{
    char line[512], pname[256];
    int version = 0;
    if (!fgets(line, sizeof line, in) || sscanf(line, "sremc-forecast-model %d", &version) != 1) {
        snprintf(err, errlen, "not a forecast model (no 'sremc-forecast-model' line: made by 'sremc train'?)");
        return NULL;
    }
    if (version != SREMRT_FC_MODEL_VERSION) {
        snprintf(err, errlen, "model version %d, this sremc reads version %d: train it again", version,
                 SREMRT_FC_MODEL_VERSION);
        return NULL;
    }
    while (fgets(line, sizeof line, in)) {
        unsigned nsym, order;
        uint64_t h, events;
        long lines;
        if (sscanf(line, "pattern %255s nsym %u order %u hash %" SCNx64 " events %" SCNu64 " lines %ld", pname,
                   &nsym, &order, &h, &events, &lines) != 6 || lines < 0) {
            if (strncmp(line, "end", 3) == 0)
                break;
            snprintf(err, errlen, "malformed model section: %.200s", line);
            return NULL;
        }
        FILE *sec = section(in, lines);
        if (!sec) {
            snprintf(err, errlen, "out of memory");
            return NULL;
        }
        if (strcmp(pname, name) != 0) {
            fclose(sec);
            continue;
        }
        if (h != hash) {
            fclose(sec);
            snprintf(err, errlen,
                     "the model of pattern '%s' was trained on another automaton (hash %016" PRIx64
                     ", now %016" PRIx64 "): the pattern or sremc changed since 'sremc train'; train again",
                     name, h, hash);
            return NULL;
        }
        char cerr[256] = "";
        sremrt_fc_counts *c = sremrt_fc_counts_read(sec, cerr, sizeof cerr);
        fclose(sec);
        if (!c)
            snprintf(err, errlen, "pattern '%s': %s", name, cerr);
        return c;
    }
    snprintf(err, errlen, "the model has no pattern '%s': train it with the current pattern file", name);
    return NULL;
}
#else
typedef int sremrt_fc_model_freestanding;   /* ISO C wants a declaration */
#endif
