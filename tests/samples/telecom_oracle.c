/* telecom_oracle.c: the records samples/telecom.srem must give for an alarm
 * stream, computed independently of runtime/, checked against a program's JSONL.
 *
 *   telecom_oracle ALARMS.csv            print the expected records (JSONL)
 *   telecom_oracle ALARMS.csv OUT.jsonl  compare; exit 0 if they agree, 1 if not
 *
 * Straight from docs/language.md section 4, not from the runtime's algorithms:
 *   cell_out (per cell, 3 min, nonoverlapped): the greedy choice of the
 *     occurrence that ends earliest after the last one chosen is a maximum
 *     set of non-overlapping intervals (interval scheduling), and it never
 *     looks ahead, so its picks up to event i are the frequency after i;
 *   ap_out (per cell, 5 min, distinct): the two elements are different kinds,
 *     so the frequency is a maximum bipartite matching of reboots to later
 *     faults within 5 min, grown by one augmenting path (Kuhn) per fault;
 *   dts (whole stream, 1 h, nonoverlapped): greedy as for cell_out.
 * A nonoverlapped episode record names its occurrence (section 6): the
 * greatest in lexicographic order among those ending at the record's event
 * that begin after the last pick. Taking each element's event as late as
 * the later ones allow (walking back from the end: the latest
 * bs_disconnect, then the latest low_voltage before it) gives every index
 * its greatest possible value at once, so it is that occurrence.
 * Episode and alert records are compared in order, summaries as a set;
 * every other field of the program's records is ignored. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LV, BD, CW, RB, FT, DTS, NKINDS };
static const char *const kind_name[NKINDS] = {"low_voltage", "bs_disconnect", "carrier_wave",
                                              "ap_reboot",   "ap_fault",      "DTS fault"};

#define CELL_OUT_WINDOW 180
#define CELL_OUT_ALERT 10
#define AP_OUT_WINDOW 300
#define AP_OUT_ALERT 3
#define DTS_WINDOW 3600

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "telecom_oracle: %s%s\n", what, detail ? detail : "");
    exit(2);
}

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    while (*cap < need)
        *cap = *cap ? 2 * *cap : 1024;
    p = realloc(p, *cap * size);
    if (!p)
        die("out of memory", NULL);
    return p;
}

/* ---- records -------------------------------------------------------------------- */

#define MAXOCC 3   /* elements of the longest episode */

typedef struct Rec {
    char kind[16], name[16], key[24];
    long long index, ts, freq, events;
    long long occ[MAXOCC];   /* "occurrence" (1-based indices), nocc of them */
    int nocc;
} Rec;

typedef struct Recs {
    Rec *r;
    size_t n, cap;
} Recs;

static void add(Recs *rs, const char *kind, const char *name, long long index, long long ts,
                const char *key, long long freq, long long events)
{
    Rec *r;
    rs->r = grow(rs->r, &rs->cap, rs->n + 1, sizeof *rs->r);
    r = &rs->r[rs->n++];
    memset(r, 0, sizeof *r);
    strncpy(r->kind, kind, sizeof r->kind - 1);
    strncpy(r->name, name, sizeof r->name - 1);
    strncpy(r->key, key ? key : "", sizeof r->key - 1);
    r->index = index, r->ts = ts, r->freq = freq, r->events = events;
}

/* The occurrence of the record just added (event numbers, 0-based). */
static void add_occurrence(Recs *rs, const long long *events, int n)
{
    Rec *r = &rs->r[rs->n - 1];
    int m;
    for (m = 0; m < n; m++)
        r->occ[m] = events[m] + 1;
    r->nocc = n;
}

static void print(FILE *f, const Rec *r)
{
    int m;
    fprintf(f, "{\"kind\":\"%s\",\"name\":\"%s\"", r->kind, r->name);
    if (strcmp(r->kind, "summary") != 0)
        fprintf(f, ",\"index\":%lld,\"ts\":%lld", r->index, r->ts);
    if (r->key[0])
        fprintf(f, ",\"key\":\"%s\"", r->key);
    if (strcmp(r->kind, "summary") == 0)
        fprintf(f, ",\"events\":%lld", r->events);
    fprintf(f, ",\"freq\":%lld", r->freq);
    if (r->nocc) {
        for (m = 0; m < r->nocc; m++)
            fprintf(f, "%s%lld", m ? "," : ",\"occurrence\":[", r->occ[m]);
        fputc(']', f);
    }
    fputs("}\n", f);
}

static int same(const Rec *a, const Rec *b)
{
    return strcmp(a->kind, b->kind) == 0 && strcmp(a->name, b->name) == 0 &&
           strcmp(a->key, b->key) == 0 && a->index == b->index && a->ts == b->ts &&
           a->freq == b->freq && a->events == b->events && a->nocc == b->nocc &&
           memcmp(a->occ, b->occ, sizeof a->occ) == 0;
}

static int by_name_key(const void *x, const void *y)
{
    const Rec *a = x, *b = y;
    int c = strcmp(a->name, b->name);
    return c ? c : strtoll(a->key, NULL, 10) < strtoll(b->key, NULL, 10) ? -1
                   : strtoll(a->key, NULL, 10) > strtoll(b->key, NULL, 10);
}

/* ---- the alarms ------------------------------------------------------------------- */

static int64_t *ts;      /* per event (0-based; index = i + 1) */
static int32_t *cell;
static int8_t *kind;
static size_t nev, capev[3];

/* Splits a CSV line in place (fields quoted as in RFC 4180, no line breaks inside). */
static int split(char *line, char **field, int max)
{
    int n = 0;
    char *p = line, *w;
    while (n < max) {
        while (*p == ' ' || *p == '\t')
            p++;
        field[n++] = w = p;
        if (*p == '"') {
            for (p++; *p && !(*p == '"' && p[1] != '"'); p++)
                *w++ = *p == '"' ? *++p : *p;
            if (*p)
                p++;
            while (*p && *p != ',')
                p++;
        } else {
            while (*p && *p != ',')
                *w++ = *p++;
            while (w > field[n - 1] && (w[-1] == ' ' || w[-1] == '\t'))
                w--;
        }
        if (*p != ',') {
            *w = '\0';
            break;
        }
        *w = '\0';
        p++;
    }
    return n;
}

static void read_alarms(const char *path)
{
    static char line[4096];
    char *f[16];
    int col[3] = {-1, -1, -1}, n, i, k;
    long lineno = 1;
    FILE *in = fopen(path, "r");
    if (!in)
        die("cannot open ", path);
    if (!fgets(line, sizeof line, in))
        die("no header in ", path);
    line[strcspn(line, "\r\n")] = '\0';
    n = split(line, f, 16);
    for (i = 0; i < n; i++) {
        if (strcmp(f[i], "time") == 0)
            col[0] = i;
        else if (strcmp(f[i], "cell") == 0)
            col[1] = i;
        else if (strcmp(f[i], "kind") == 0)
            col[2] = i;
    }
    if (col[0] < 0 || col[1] < 0 || col[2] < 0)
        die("header lacks time, cell or kind in ", path);
    while (fgets(line, sizeof line, in)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[strspn(line, " \t")] == '\0')
            continue;
        n = split(line, f, 16);
        if (n <= col[0] || n <= col[1] || n <= col[2])
            die("short line in ", path);
        for (k = 0; k < NKINDS && strcmp(f[col[2]], kind_name[k]) != 0; k++)
            ;
        if (k == NKINDS)
            die("unknown kind: ", f[col[2]]);
        ts = grow(ts, &capev[0], nev + 1, sizeof *ts);
        cell = grow(cell, &capev[1], nev + 1, sizeof *cell);
        kind = grow(kind, &capev[2], nev + 1, sizeof *kind);
        ts[nev] = strtoll(f[col[0]], NULL, 10);
        cell[nev] = (int32_t)strtol(f[col[1]], NULL, 10);
        kind[nev] = (int8_t)k;
        if (nev > 0 && ts[nev] < ts[nev - 1]) {
            fprintf(stderr, "telecom_oracle: line %ld: time goes backwards\n", lineno);
            exit(2);
        }
        nev++;
    }
    fclose(in);
}

/* ---- the episodes ------------------------------------------------------------------- */

/* Per cell (cells are small non-negative ints here). */
typedef struct Cell {
    long long events;
    long long cell_out, ap_out;       /* frequencies */
    long long last_end;               /* cell_out: last picked occurrence's end, -1 */
    long long last;                   /* latest event of the cell, -1 */
    size_t *reboots;                  /* ap_out: event numbers of its reboots */
    size_t nreboots, capreboots;
} Cell;

static Cell *cells;
static size_t ncells;
static long long *prev;              /* per event: the cell's previous event, -1 */
static long long *mate;              /* per event: ap_out partner, -1 */
static size_t *nb_lo, *nb_hi;        /* per fault: its candidate reboots, [lo, hi) of the cell's */
static unsigned *seen;               /* per event: augmenting-path visit stamp */
static unsigned stamp;

/* cell_out: the latest low_voltage with a bs_disconnect between it and e,
 * after the last pick and within the window; -1 if none. *bd: the latest
 * such bs_disconnect. */
static long long cell_out_start(size_t e, long long last_end, long long *bd)
{
    long long j = prev[e];
    while (j > last_end && ts[e] - ts[j] <= CELL_OUT_WINDOW && kind[j] != BD)
        j = prev[j];
    if (j <= last_end || ts[e] - ts[j] > CELL_OUT_WINDOW)
        return -1;
    *bd = j;
    for (j = prev[j]; j > last_end && ts[e] - ts[j] <= CELL_OUT_WINDOW; j = prev[j])
        if (kind[j] == LV)
            return j;
    return -1;
}

/* ap_out: Kuhn's augmenting path from fault f. */
static int augment(Cell *c, size_t f)
{
    size_t k;
    for (k = nb_lo[f]; k < nb_hi[f]; k++) {
        size_t r = c->reboots[k];
        if (seen[r] == stamp)
            continue;
        seen[r] = stamp;
        if (mate[r] < 0 || augment(c, (size_t)mate[r])) {
            mate[r] = (long long)f;
            mate[f] = (long long)r;
            return 1;
        }
    }
    return 0;
}

static void run(Recs *out)
{
    long long dts_freq = 0, dts_last_end = -1, dts_pending = -1;
    char key[24];
    size_t e, k;

    prev = malloc(nev * sizeof *prev);
    mate = malloc(nev * sizeof *mate);
    nb_lo = malloc(nev * sizeof *nb_lo);
    nb_hi = malloc(nev * sizeof *nb_hi);
    seen = calloc(nev ? nev : 1, sizeof *seen);
    if (nev && (!prev || !mate || !nb_lo || !nb_hi || !seen))
        die("out of memory", NULL);
    for (e = 0; e < nev; e++) {
        Cell *c;
        if (cell[e] < 0)
            die("negative cell numbers are not supported", NULL);
        if ((size_t)cell[e] >= ncells) {
            size_t old = ncells;
            ncells = (size_t)cell[e] + 1;
            cells = realloc(cells, ncells * sizeof *cells);
            if (!cells)
                die("out of memory", NULL);
            for (; old < ncells; old++) {
                memset(&cells[old], 0, sizeof cells[old]);
                cells[old].last_end = cells[old].last = -1;
            }
        }
        c = &cells[cell[e]];
        c->events++;
        prev[e] = c->last;
        c->last = (long long)e;
        mate[e] = -1;
        snprintf(key, sizeof key, "%ld", (long)cell[e]);

        if (kind[e] == CW) {
            long long occ[3];
            occ[0] = cell_out_start(e, c->last_end, &occ[1]);
            occ[2] = (long long)e;
            if (occ[0] >= 0) {
                c->last_end = (long long)e;
                c->cell_out++;
                add(out, "episode", "cell_out", (long long)e + 1, ts[e], key, c->cell_out, 0);
                add_occurrence(out, occ, 3);
                if (c->cell_out == CELL_OUT_ALERT)
                    add(out, "alert", "cell_out", (long long)e + 1, ts[e], key, c->cell_out, 0);
            }
        } else if (kind[e] == RB) {
            c->reboots = grow(c->reboots, &c->capreboots, c->nreboots + 1, sizeof *c->reboots);
            c->reboots[c->nreboots++] = e;
        } else if (kind[e] == FT) {
            nb_hi[e] = c->nreboots;
            for (k = c->nreboots; k > 0 && ts[e] - ts[c->reboots[k - 1]] <= AP_OUT_WINDOW; k--)
                ;
            nb_lo[e] = k;
            stamp++;
            if (augment(c, e)) {
                c->ap_out++;
                add(out, "episode", "ap_out", (long long)e + 1, ts[e], key, c->ap_out, 0);
                if (c->ap_out == AP_OUT_ALERT)
                    add(out, "alert", "ap_out", (long long)e + 1, ts[e], key, c->ap_out, 0);
            }
        } else if (kind[e] == DTS) {
            if (dts_pending > dts_last_end && ts[e] - ts[dts_pending] <= DTS_WINDOW) {
                long long occ[2];
                occ[0] = dts_pending;   /* the latest fault before e, after the last pick */
                occ[1] = (long long)e;
                dts_last_end = (long long)e;
                dts_pending = -1;
                dts_freq++;
                add(out, "episode", "dts", (long long)e + 1, ts[e], NULL, dts_freq, 0);
                add_occurrence(out, occ, 2);
            } else {
                dts_pending = (long long)e;
            }
        }
    }
    for (k = 0; k < ncells; k++) {
        if (!cells[k].events)
            continue;
        snprintf(key, sizeof key, "%lu", (unsigned long)k);
        add(out, "summary", "cell_out", 0, 0, key, cells[k].cell_out, cells[k].events);
        add(out, "summary", "ap_out", 0, 0, key, cells[k].ap_out, cells[k].events);
    }
    add(out, "summary", "dts", 0, 0, NULL, dts_freq, (long long)nev);
}

/* ---- the program's output ------------------------------------------------------------ */

/* The value of "field": in a JSONL line: a string (into buf) or a number. */
static const char *field(const char *line, const char *name)
{
    char pat[40];
    const char *p;
    snprintf(pat, sizeof pat, "\"%s\":", name);
    p = strstr(line, pat);
    return p ? p + strlen(pat) : NULL;
}

static void text_field(const char *line, const char *name, char *buf, size_t cap)
{
    const char *p = field(line, name);
    size_t n = 0;
    buf[0] = '\0';
    if (!p || *p != '"')
        return;
    for (p++; *p && *p != '"' && n + 1 < cap; p++)
        buf[n++] = *p;
    buf[n] = '\0';
}

static long long num_field(const char *line, const char *name)
{
    const char *p = field(line, name);
    return p ? strtoll(p, NULL, 10) : 0;
}

/* "occurrence":[a,b,...] of a JSONL line into the record just added;
 * more than MAXOCC indices make it differ from any oracle record. */
static void occurrence_field(const char *line, Recs *got)
{
    Rec *r = &got->r[got->n - 1];
    const char *p = field(line, "occurrence");
    char *end;
    if (!p || *p != '[')
        return;
    for (p++; *p && *p != ']'; p = *end == ',' ? end + 1 : end) {
        long long v = strtoll(p, &end, 10);
        if (end == p)
            break;
        if (r->nocc == MAXOCC) {
            r->nocc = -1;
            return;
        }
        r->occ[r->nocc++] = v;
    }
}

static void read_output(const char *path, Recs *got, long long *inexact)
{
    static char line[1 << 16];
    FILE *in = fopen(path, "r");
    if (!in)
        die("cannot open ", path);
    while (fgets(line, sizeof line, in)) {
        char kindbuf[16], name[16], key[24];
        text_field(line, "kind", kindbuf, sizeof kindbuf);
        if (strcmp(kindbuf, "episode") != 0 && strcmp(kindbuf, "alert") != 0 &&
            strcmp(kindbuf, "summary") != 0)
            continue;
        if (strstr(line, "\"exact\":false"))
            (*inexact)++;
        text_field(line, "name", name, sizeof name);
        text_field(line, "key", key, sizeof key);
        add(got, kindbuf, name, num_field(line, "index"), num_field(line, "ts"), key,
            num_field(line, "freq"), num_field(line, "events"));
        occurrence_field(line, got);
    }
    fclose(in);
}

/* Episode and alert records in order, then summaries as sets. */
static int compare(Recs *want, Recs *got)
{
    size_t i, j, nw = 0, ng = 0, shown = 0;
    int bad = 0;
    for (i = 0, j = 0;; i++, j++) {
        while (i < want->n && strcmp(want->r[i].kind, "summary") == 0)
            i++;
        while (j < got->n && strcmp(got->r[j].kind, "summary") == 0)
            j++;
        if (i >= want->n || j >= got->n) {
            if (i < want->n || j < got->n) {
                fprintf(stderr, "telecom_oracle: %s has more episode/alert records, from:\n",
                        i < want->n ? "the oracle" : "the program");
                print(stderr, i < want->n ? &want->r[i] : &got->r[j]);
                bad = 1;
            }
            break;
        }
        nw++;
        if (!same(&want->r[i], &got->r[j])) {
            if (shown++ < 5) {
                fputs("telecom_oracle: record differs: want\n    ", stderr);
                print(stderr, &want->r[i]);
                fputs("  got\n    ", stderr);
                print(stderr, &got->r[j]);
            }
            bad = 1;
        }
    }
    for (i = 0, j = 0; i < want->n; i++)
        if (strcmp(want->r[i].kind, "summary") == 0)
            want->r[j++] = want->r[i];
    want->n = j;
    for (i = 0, j = 0; i < got->n; i++)
        if (strcmp(got->r[i].kind, "summary") == 0)
            got->r[j++] = got->r[i];
    got->n = j;
    qsort(want->r, want->n, sizeof *want->r, by_name_key);
    qsort(got->r, got->n, sizeof *got->r, by_name_key);
    ng = got->n;
    if (want->n != got->n) {
        fprintf(stderr, "telecom_oracle: %lu summaries expected, %lu found\n",
                (unsigned long)want->n, (unsigned long)got->n);
        bad = 1;
    }
    for (i = 0; i < want->n && i < got->n; i++)
        if (!same(&want->r[i], &got->r[i])) {
            if (shown++ < 10) {
                fputs("telecom_oracle: summary differs: want\n    ", stderr);
                print(stderr, &want->r[i]);
                fputs("  got\n    ", stderr);
                print(stderr, &got->r[i]);
            }
            bad = 1;
        }
    if (!bad)
        printf("telecom_oracle: agree: %lu episode/alert records and %lu summaries\n",
               (unsigned long)nw, (unsigned long)ng);
    return bad;
}

static void release(Recs *want, Recs *got)
{
    size_t k;
    for (k = 0; k < ncells; k++)
        free(cells[k].reboots);
    free(cells), free(ts), free(cell), free(kind), free(prev), free(mate), free(nb_lo);
    free(nb_hi), free(seen), free(want->r), free(got->r);
}

int main(int argc, char **argv)
{
    Recs want = {NULL, 0, 0}, got = {NULL, 0, 0};
    long long inexact = 0, totals[2] = {0, 0}, alerts[2] = {0, 0}, keys = 0;
    size_t i;
    if (argc < 2 || argc > 3 || strcmp(argv[1], "--help") == 0) {
        fputs("usage: telecom_oracle ALARMS.csv [OUT.jsonl]\n", argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    read_alarms(argv[1]);
    run(&want);
    if (argc == 2) {
        for (i = 0; i < want.n; i++)
            print(stdout, &want.r[i]);
        release(&want, &got);
        return 0;
    }
    for (i = 0; i < want.n; i++) {
        int which = strcmp(want.r[i].name, "cell_out") == 0 ? 0
                    : strcmp(want.r[i].name, "ap_out") == 0 ? 1 : -1;
        if (which >= 0 && strcmp(want.r[i].kind, "summary") == 0)
            totals[which] += want.r[i].freq, keys += which == 0;
        if (which >= 0 && strcmp(want.r[i].kind, "alert") == 0)
            alerts[which]++;
    }
    printf("telecom_oracle: %lu alarms, %lu cells; cell_out: %lld occurrences, %lld cells alert;"
           " ap_out: %lld, %lld cells alert; dts: %lld\n",
           (unsigned long)nev, (unsigned long)keys, totals[0], alerts[0], totals[1],
           alerts[1], want.r[want.n - 1].freq);
    read_output(argv[2], &got, &inexact);
    if (inexact)
        printf("telecom_oracle: note: %lld records say \"exact\":false\n", inexact);
    i = (size_t)compare(&want, &got);
    release(&want, &got);
    return (int)i;
}
