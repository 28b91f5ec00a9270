/* fc_model.c: forecast counts of several patterns <-> the model file of
 * `sremc train` (fc_model.h); hosted only. */
#ifndef SREMRT_FREESTANDING
#define _POSIX_C_SOURCE 200809L
#include "sremrt/fc_model.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
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
/* ---- flat tables ---------------------------------------------------------- */

static uint32_t renumber(const sremrt_fc_ctx *x, uint32_t c)
{
    return c == x->start ? 0 : c == 0 ? x->start : c;
}

static sremrt_fc_entry rounded(const sremrt_fc_forecast *f)
{
    double p = floor(f->prob * 10000.0 + 0.5);
    sremrt_fc_entry e;
    e.from = (uint16_t)f->from;
    e.to = (uint16_t)f->to;
    e.prob = (uint16_t)(p < 0 ? 0 : p > 10000 ? 10000 : p);
    e.positive = (uint8_t)(f->positive != 0);
    return e;
}

/* Pool entries equal after rounding become one: a hash of the rounded
 * entries (open addressing), so that large pools stay linear. */
static int dedupe(sremrt_fc_flat *f, const sremrt_fc_table *t, uint32_t *to_entry)
{
    size_t cap = 16;
    while (cap < 2 * (size_t)t->npool)
        cap *= 2;
    uint32_t *slot = malloc(cap * sizeof *slot);
    if (!slot)
        return -1;
    memset(slot, 0xff, cap * sizeof *slot);
    f->npool = 0;
    for (uint32_t k = 0; k < t->npool; k++) {
        sremrt_fc_entry e = rounded(&t->pool[k]);
        size_t h = ((size_t)e.from * 131071u + e.to * 8191u + e.prob * 127u + e.positive) & (cap - 1);
        while (slot[h] != UINT32_MAX) {
            const sremrt_fc_entry *o = &f->pool[slot[h]];
            if (o->from == e.from && o->to == e.to && o->prob == e.prob && o->positive == e.positive)
                break;
            h = (h + 1) & (cap - 1);
        }
        if (slot[h] == UINT32_MAX) {
            slot[h] = f->npool;
            f->pool[f->npool++] = e;
        }
        to_entry[k] = slot[h];
    }
    free(slot);
    return 0;
}

sremrt_fc_flat *sremrt_fc_flatten(const sremrt_fc_ctx *x, const sremrt_fc_table *t)
{
    sremrt_fc_flat *f = calloc(1, sizeof *f);
    uint32_t *to_entry = malloc(((size_t)t->npool + 1) * sizeof *to_entry);
    if (f) {
        f->nsym = x->nsym;
        f->ncontexts = x->ncontexts;
        f->nstates = t->nstates;
        f->exact = x->exact;
        f->ctx_next = malloc(((size_t)x->ncontexts * x->nsym + 1) * sizeof *f->ctx_next);
        f->index = malloc(((size_t)t->nstates * x->ncontexts + 1) * sizeof *f->index);
        f->pool = malloc(((size_t)t->npool + 1) * sizeof *f->pool);
    }
    if (!f || !to_entry || !f->ctx_next || !f->index || !f->pool || dedupe(f, t, to_entry) != 0) {
        free(to_entry);
        sremrt_fc_flat_free(f);
        return NULL;
    }
    for (uint32_t c = 0; c < x->ncontexts; c++)
        for (uint32_t s = 0; s < x->nsym; s++)
            f->ctx_next[(size_t)renumber(x, c) * x->nsym + s] = renumber(x, x->next[(size_t)c * x->nsym + s]);
    for (uint32_t q = 0; q < t->nstates; q++)
        for (uint32_t c = 0; c < x->ncontexts; c++) {
            uint32_t v = t->index[(size_t)q * t->ncontexts + c];
            f->index[(size_t)q * x->ncontexts + renumber(x, c)] = v ? 1 + to_entry[v - 1] : 0;
        }
    free(to_entry);
    return f;
}

void sremrt_fc_flat_free(sremrt_fc_flat *f)
{
    if (!f)
        return;
    free(f->ctx_next);
    free(f->index);
    free(f->pool);
    free(f);
}
#else
typedef int sremrt_fc_model_freestanding;   /* ISO C wants a declaration */
#endif
