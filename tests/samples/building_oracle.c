/* building_oracle.c: the records samples/building.srem must give for an event
 * stream, computed independently of runtime/, checked against a program's JSONL.
 *
 *   building_oracle EVENTS.csv            print the expected records (JSONL)
 *   building_oracle EVENTS.csv OUT.jsonl  compare; exit 0 if they agree, 1 if not
 *
 * Straight from docs/language.md sections 3.3 and 5, not from the runtime's
 * algorithms: pattern overheat = <TempRise FanStart PowerIncrease>, stnm,
 * within 10 min, no partition (the zones share one stream). Every start
 * (TempRise) in the window keeps its own chain, advanced literally: the
 * first FanStart after it, the first PowerIncrease after that; per candidate
 * type X (PressureAlert, VibrationSpike, the types not in p) the first X
 * after its FanStart (variation <TempRise FanStart X>) and the first X after
 * its PowerIncrease (extension <TempRise FanStart PowerIncrease X>). After
 * each event, every candidate is checked for a suggestion (confidence 0.4).
 * match and suggest records are compared in order, then the summary (events,
 * the pattern's freq, and each candidate the program lists in "best"). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TR, FS, PI, PA, VS, NTYPES };
static const char *const type_name[NTYPES] = {"TempRise", "FanStart", "PowerIncrease",
                                              "PressureAlert", "VibrationSpike"};
#define WINDOW 600          /* 10 min in s */
#define THRESHOLD 0.4
#define NCAND 4             /* extension PA, extension VS, variation PA, variation VS */

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "building_oracle: %s%s\n", what, detail ? detail : "");
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

/* match, suggest, summary, or "best" (one candidate of the summary). */
typedef struct Rec {
    char kind[16];
    long long index, ts, freq, events;
    long long start;     /* match: the greatest first index of a chain ending here */
    int ext, x;          /* suggest, best: extension (1) or variation (0); X's type */
    double confidence;
} Rec;

typedef struct Recs {
    Rec *r;
    size_t n, cap;
} Recs;

static Rec *add(Recs *rs, const char *kind)
{
    Rec *r;
    rs->r = grow(rs->r, &rs->cap, rs->n + 1, sizeof *rs->r);
    r = &rs->r[rs->n++];
    memset(r, 0, sizeof *r);
    strncpy(r->kind, kind, sizeof r->kind - 1);
    r->x = -1;
    return r;
}

static void print_seq(FILE *f, const Rec *r)
{
    fprintf(f, ",\"candidate\":\"%s\",\"sequence\":[\"TempRise\",\"FanStart\"%s,\"%s\"]",
            r->ext ? "extension" : "variation", r->ext ? ",\"PowerIncrease\"" : "",
            r->x >= 0 ? type_name[r->x] : "?");
}

static void print(FILE *f, const Rec *r)
{
    fprintf(f, "{\"kind\":\"%s\",\"name\":\"overheat\"", r->kind);
    if (strcmp(r->kind, "match") == 0 || strcmp(r->kind, "suggest") == 0)
        fprintf(f, ",\"index\":%lld,\"ts\":%lld", r->index, r->ts);
    if (strcmp(r->kind, "match") == 0)
        fprintf(f, ",\"start\":%lld", r->start);
    if (strcmp(r->kind, "suggest") == 0 || strcmp(r->kind, "best") == 0)
        print_seq(f, r);
    if (strcmp(r->kind, "summary") == 0)
        fprintf(f, ",\"events\":%lld", r->events);
    if (strcmp(r->kind, "match") != 0)
        fprintf(f, ",\"freq\":%lld", r->freq);
    if (strcmp(r->kind, "suggest") == 0 || strcmp(r->kind, "best") == 0)
        fprintf(f, ",\"confidence\":%.17g", r->confidence);
    fputs("}\n", f);
}

static int close_enough(double a, double b)
{
    double d = a > b ? a - b : b - a;
    return d <= 1e-12 * (a > b ? a : b) + 1e-15;
}

static int same(const Rec *a, const Rec *b)
{
    return strcmp(a->kind, b->kind) == 0 && a->index == b->index && a->ts == b->ts && a->start == b->start &&
           a->freq == b->freq && a->events == b->events && a->ext == b->ext && a->x == b->x &&
           close_enough(a->confidence, b->confidence);
}

/* ---- the stream -------------------------------------------------------------------- */

typedef struct Start {
    int64_t ts;
    long long index;              /* its TempRise's */
    int stage;                    /* 1: TempRise, 2: FanStart, 3: PowerIncrease reached */
    int var_done[NTYPES];         /* its variation chain took its X already */
    int ext_done[NTYPES];         /* its extension chain took its X already */
} Start;

static Start *starts;
static size_t nstarts, capstarts, first;   /* live starts: first..nstarts-1 */

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

static long long nevents;

static void run(const char *path, Recs *out)
{
    static char line[4096];
    char *f[16];
    int col[2] = {-1, -1}, n, i, t, c;
    long long freq_p = 0, freq[NCAND] = {0, 0, 0, 0}, total;
    int suggested[NCAND] = {0, 0, 0, 0};
    int64_t ts, last_ts = INT64_MIN;
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
        else if (strcmp(f[i], "event") == 0)
            col[1] = i;
    }
    if (col[0] < 0 || col[1] < 0)
        die("header lacks time or event in ", path);
    while (fgets(line, sizeof line, in)) {
        long long pm = 0, start = 0;
        size_t s;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[strspn(line, " \t")] == '\0')
            continue;
        n = split(line, f, 16);
        if (n <= col[0] || n <= col[1])
            die("short line in ", path);
        for (t = 0; t < NTYPES && strcmp(f[col[1]], type_name[t]) != 0; t++)
            ;
        if (t == NTYPES)
            die("unknown event type: ", f[col[1]]);
        ts = strtoll(f[col[0]], NULL, 10);
        if (ts < last_ts)
            die("time goes backwards at ", f[col[0]]);
        last_ts = ts;
        nevents++;

        /* Starts out of the window can never match again. */
        while (first < nstarts && ts - starts[first].ts > WINDOW)
            first++;
        for (s = first; s < nstarts; s++) {
            Start *st = &starts[s];
            if (t == FS && st->stage == 1) {
                st->stage = 2;
            } else if (t == PI && st->stage == 2) {
                st->stage = 3;
                pm++;
                start = st->index;   /* later starts come later in the list */
            } else if (t == PA || t == VS) {
                if (st->stage >= 3 && !st->ext_done[t]) {
                    st->ext_done[t] = 1;
                    freq[t == PA ? 0 : 1]++;
                }
                if (st->stage >= 2 && !st->var_done[t]) {
                    st->var_done[t] = 1;
                    freq[t == PA ? 2 : 3]++;
                }
            }
        }
        if (t == TR) {
            starts = grow(starts, &capstarts, nstarts + 1, sizeof *starts);
            memset(&starts[nstarts], 0, sizeof starts[nstarts]);
            starts[nstarts].ts = ts;
            starts[nstarts].index = nevents;
            starts[nstarts++].stage = 1;
        }
        if (pm) {
            Rec *r = add(out, "match");
            r->index = nevents, r->ts = ts, r->start = start;
            freq_p += pm;
        }
        total = freq_p + freq[0] + freq[1] + freq[2] + freq[3];
        for (c = 0; c < NCAND; c++) {
            double conf = total ? (double)freq[c] / (double)total : 0.0;
            if (freq[c] > 0 && conf >= THRESHOLD && !suggested[c]) {
                Rec *r = add(out, "suggest");
                suggested[c] = 1;
                r->index = nevents, r->ts = ts, r->freq = freq[c], r->confidence = conf;
                r->ext = c < 2, r->x = c % 2 ? VS : PA;
            }
        }
    }
    fclose(in);
    {
        Rec *r = add(out, "summary");
        r->events = nevents, r->freq = freq_p;
    }
    total = freq_p + freq[0] + freq[1] + freq[2] + freq[3];
    for (c = 0; c < NCAND; c++) {
        Rec *r = add(out, "best");
        r->freq = freq[c], r->confidence = total ? (double)freq[c] / (double)total : 0.0;
        r->ext = c < 2, r->x = c % 2 ? VS : PA;
    }
}

/* ---- the program's output ------------------------------------------------------------ */

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

/* Candidate fields of a suggest record or of one "best" entry (from p on). */
static void candidate(const char *p, Rec *r)
{
    char cand[16];
    const char *seq = field(p, "sequence"), *end, *last;
    int t;
    text_field(p, "candidate", cand, sizeof cand);
    r->ext = strcmp(cand, "extension") == 0;
    r->freq = num_field(p, "freq");
    r->confidence = field(p, "confidence") ? strtod(field(p, "confidence"), NULL) : -1;
    r->x = -1;
    if (!seq || !(end = strchr(seq, ']')))
        return;
    for (last = end; last > seq && last[-1] != ','; last--)
        ;
    for (t = 0; t < NTYPES; t++)
        if (strncmp(last, "\"", 1) == 0 && strncmp(last + 1, type_name[t], strlen(type_name[t])) == 0 &&
            last[1 + strlen(type_name[t])] == '"')
            r->x = t;
}

static void read_output(const char *path, Recs *got)
{
    static char line[1 << 16];
    FILE *in = fopen(path, "r");
    if (!in)
        die("cannot open ", path);
    while (fgets(line, sizeof line, in)) {
        char kind[16];
        const char *b;
        Rec *r;
        text_field(line, "kind", kind, sizeof kind);
        if (strcmp(kind, "match") == 0) {
            r = add(got, kind);
            r->index = num_field(line, "index"), r->ts = num_field(line, "ts");
            r->start = num_field(line, "start");
        } else if (strcmp(kind, "suggest") == 0) {
            r = add(got, kind);
            r->index = num_field(line, "index"), r->ts = num_field(line, "ts");
            candidate(line, r);
        } else if (strcmp(kind, "summary") == 0) {
            b = field(line, "best");
            r = add(got, kind);
            r->events = num_field(line, "events");
            /* the summary's own freq comes before "best" */
            r->freq = num_field(line, "freq");
            while (b && (b = strstr(b, "{\"candidate\"")) != NULL) {
                candidate(b, add(got, "best"));
                b++;
            }
        }
    }
    fclose(in);
}

static int compare(const Recs *want, const Recs *got)
{
    size_t i, j, shown = 0, matches = 0, suggests = 0, best = 0;
    int bad = 0;
    for (i = 0; i < want->n && i < got->n && strcmp(want->r[i].kind, "best") != 0; i++) {
        if (!same(&want->r[i], &got->r[i])) {
            if (shown++ < 5) {
                fputs("building_oracle: record differs: want\n    ", stderr);
                print(stderr, &want->r[i]);
                fputs("  got\n    ", stderr);
                print(stderr, &got->r[i]);
            }
            bad = 1;
        }
        matches += strcmp(want->r[i].kind, "match") == 0;
        suggests += strcmp(want->r[i].kind, "suggest") == 0;
    }
    if (i < got->n && strcmp(got->r[i].kind, "best") != 0) {
        fputs("building_oracle: the program has more records, from:\n    ", stderr);
        print(stderr, &got->r[i]);
        return 1;
    }
    if (i < want->n && strcmp(want->r[i].kind, "best") != 0) {
        fputs("building_oracle: the oracle has more records, from:\n    ", stderr);
        print(stderr, &want->r[i]);
        return 1;
    }
    /* Each candidate the program lists in its summary, against the oracle's. */
    for (j = i; j < got->n; j++) {
        size_t k;
        for (k = i; k < want->n; k++)
            if (want->r[k].ext == got->r[j].ext && want->r[k].x == got->r[j].x)
                break;
        if (k == want->n || !same(&want->r[k], &got->r[j])) {
            fputs("building_oracle: summary candidate differs: got\n    ", stderr);
            print(stderr, &got->r[j]);
            if (k < want->n) {
                fputs("  want\n    ", stderr);
                print(stderr, &want->r[k]);
            }
            bad = 1;
        }
        best++;
    }
    if (!bad)
        printf("building_oracle: agree: %lu match, %lu suggest records, the summary and %lu of its"
               " candidates\n",
               (unsigned long)matches, (unsigned long)suggests, (unsigned long)best);
    return bad;
}

int main(int argc, char **argv)
{
    Recs want = {NULL, 0, 0}, got = {NULL, 0, 0};
    size_t i;
    if (argc < 2 || argc > 3 || strcmp(argv[1], "--help") == 0) {
        fputs("usage: building_oracle EVENTS.csv [OUT.jsonl]\n", argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    run(argv[1], &want);
    if (argc == 2) {
        for (i = 0; i < want.n; i++)
            print(stdout, &want.r[i]);
        free(starts), free(want.r);
        return 0;
    }
    for (i = 0; i < want.n; i++)
        if (strcmp(want.r[i].kind, "summary") == 0)
            printf("building_oracle: %lld events, %lld matches of the pattern\n", want.r[i].events,
                   want.r[i].freq);
    read_output(argv[2], &got);
    i = (size_t)compare(&want, &got);
    free(starts), free(want.r), free(got.r);
    return (int)i;
}
