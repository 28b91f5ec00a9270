/* test_csv_gen.c: the CSV reader against a generator that knows the answer.
 * Seeded random streams of the Sensor schema (rt.h): columns in any order
 * with an ignored one, values quoted or not (commas, "" quotes, line breaks
 * inside quotes), blanks around fields, LF and CRLF, blank lines, and lines
 * with one problem each (field count, a bad value, NUL, a byte after a
 * closing quote, a quote or '\r' inside unquoted data, an overlong line, an
 * unterminated quote at the end). The generator writes, beside the text,
 * what each record must give (event or error record, with its line), from
 * the rules of docs/language.md section 6; small line_cap values make the
 * reader's blocks end anywhere; streams come through fmemopen and through a
 * pipe written in random pieces. SREMC_CSV_SEED picks the seed (printed on
 * failure); SREMC_DIFF_SCALE multiplies the streams. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rt.h"

#define TEXT_CAP (1 << 20)
#define WANT_CAP (1 << 20)
#define STREAMS 300          /* streams at scale 1 */
#define RECORDS 120          /* most records of a stream */

typedef struct gen {
    uint64_t rng;
    char *text;              /* the CSV stream */
    size_t n;
    char *want;              /* one line per record: what the reader must say */
    size_t nwant;
    int64_t line;            /* physical line the next byte is on */
    size_t line_cap;
    int order[6];            /* column i holds attribute order[i]; 5: ignored */
    int ncols;
} gen;

static uint64_t rnd(gen *g)
{
    g->rng ^= g->rng >> 12;
    g->rng ^= g->rng << 25;
    g->rng ^= g->rng >> 27;
    return g->rng * 0x2545F4914F6CDD1Du;
}

static int below(gen *g, int n)
{
    return (int)(rnd(g) % (uint64_t)n);
}

static void put(gen *g, const char *s, size_t n)
{
    if (g->n + n < TEXT_CAP) {
        memcpy(g->text + g->n, s, n);
        g->n += n;
    }
}

static void puts_(gen *g, const char *s)
{
    put(g, s, strlen(s));
}

static void want(gen *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g->nwant += (size_t)vsnprintf(g->want + g->nwant, WANT_CAP - g->nwant, fmt, ap);
    va_end(ap);
}

/* ---- one field ------------------------------------------------------------------- */

/* A field's text as the reader must see it, and how to write it. */
typedef struct field {
    char text[96];           /* the value (unescaped) */
    int must_quote;          /* it holds ',' '"' or a line break, or edge blanks */
    int plain_only;          /* written as is, never quoted (an injected problem) */
} field;

static void blanks(gen *g)
{
    int k = below(g, 8) == 0 ? 1 + below(g, 3) : 0;
    while (k--)
        puts_(g, below(g, 2) ? " " : "\t");
}

/* Writes f; returns the bytes the reader keeps of it, and in *peak the
 * most it holds while reading it: an unquoted field's trailing blanks are
 * stored, then dropped before its NUL (the line limit counts both ways). */
static size_t write_field(gen *g, const field *f, int edge_blanks, size_t *peak)
{
    size_t stored = 0;
    const char *s;
    if (edge_blanks)
        blanks(g);
    if (!f->plain_only && (f->must_quote || below(g, 4) == 0)) {
        puts_(g, "\"");
        for (s = f->text; *s; s++) {
            if (*s == '"')
                puts_(g, "\"\"");
            else if (*s == '\n' && below(g, 2))
                puts_(g, "\r\n");
            else
                put(g, s, 1);
            g->line += *s == '\n';
            stored++;
        }
        puts_(g, "\"");
        if (edge_blanks)
            blanks(g);
        *peak = stored + 1;
        return stored + 1;
    }
    puts_(g, f->text);
    stored = strlen(f->text);
    *peak = stored + 1;
    if (edge_blanks && below(g, 8) == 0) {
        puts_(g, " ");
        *peak = stored + 1;   /* the blank, in place of the NUL to come */
    }
    return stored + 1;
}

/* ---- values ---------------------------------------------------------------------- */

static const char *const type_names[] = {"T", "H", "DTS fault", "a, \"b\"", "two\nlines"};

typedef struct values {
    int type;
    long long id, time;
    char value[40];
    int ok;
} values;

static void random_values(gen *g, values *v)
{
    static const char *const floats[] = {"61.5", "0", "-0.0", "1e3", "2.5E-3", ".5", "7.",
                                         "1e400", "-1e-400", "inf", "nan", "0x1p4"};
    v->type = below(g, 5);
    v->id = (long long)(rnd(g) >> (1 + below(g, 63)));
    if (below(g, 2))
        v->id = -v->id;
    v->time = 1700000000000ll + below(g, 1000000);
    if (below(g, 3))
        snprintf(v->value, sizeof v->value, "%s", floats[below(g, 12)]);
    else
        snprintf(v->value, sizeof v->value, "%.*g", 1 + below(g, 17),
                 (double)(int64_t)rnd(g) / (double)(1 + (rnd(g) >> (1 + below(g, 63)))));
    v->ok = below(g, 2);
}

static void set(field *f, const char *text)
{
    snprintf(f->text, sizeof f->text, "%s", text);
    f->must_quote = strpbrk(text, ",\"\n\r") != NULL || text[0] == ' ' || text[0] == '\t' ||
                    (text[0] && strchr(" \t", text[strlen(text) - 1]));
    f->plain_only = 0;
}

/* The field of attribute a (0..4, 5: the ignored column). */
static void make_field(gen *g, const values *v, int a, field *f)
{
    static const char *const oks[][2] = {{"false", "true"}, {"0", "1"}, {"FALSE", "True"}};
    char tmp[64];
    switch (a) {
    case 0: set(f, type_names[v->type]); break;
    case 1:
        snprintf(tmp, sizeof tmp, below(g, 10) ? "%lld" : (v->id >= 0 ? "+%lld" : "%lld"), v->id);
        set(f, tmp);
        break;
    case 2: set(f, v->value); break;
    case 3: set(f, oks[below(g, 3)][v->ok]); break;
    case 4:
        snprintf(tmp, sizeof tmp, "%lld", v->time);
        set(f, tmp);
        break;
    default: {
        static const char *const notes[] = {"", "x", "a, b", "say \"hi\"", "two\nlines",
                                            "long note, long note, long note, long note"};
        set(f, notes[below(g, 6)]);
    }
    }
}

/* ---- records --------------------------------------------------------------------- */

enum { GOOD, FEWER, MORE_FIELDS, BAD_INT, NUL_BYTE, AFTER_QUOTE, QUOTE_INSIDE, CR_INSIDE, KINDS };

static void want_event(gen *g, int64_t line, const values *v)
{
    double d = strtod(v->value, NULL);
    want(g, "%lld event type=%d id=%lld value=%a ok=%d time=%lld\n", (long long)line, v->type,
         v->id, d, v->ok, v->time);
}

static void line_end(gen *g)
{
    puts_(g, below(g, 3) ? "\n" : "\r\n");
    g->line++;
}

/* A short valid text for attribute a, the value in v to match. */
static void shorten(field *f, int a, values *v)
{
    static const char *const text[] = {"T", "7", "1.5", "true", "1700000000000", "x"};
    set(f, text[a]);
    if (a == 0)
        v->type = 0;
    else if (a == 1)
        v->id = 7;
    else if (a == 2)
        snprintf(v->value, sizeof v->value, "1.5");
    else if (a == 3)
        v->ok = 1;
    else if (a == 4)
        v->time = 1700000000000ll;
}

/* One record with problem `kind`; the expected result appended to want. */
static void record(gen *g, int kind)
{
    values v;
    field f[7];
    int64_t first = g->line;
    size_t kept = 0, most = 0, need, k;   /* bytes held: after each field, at most */
    int i, n = g->ncols, problem_col = below(g, g->ncols);
    random_values(g, &v);
    for (i = 0; i < g->ncols; i++)
        make_field(g, &v, g->order[i], &f[i]);
    if (kind != GOOD)
        for (i = 0; i < g->ncols; i++)   /* short and single-line: one problem only */
            if (strchr(f[i].text, '\n') || strlen(f[i].text) > 13)
                shorten(&f[i], g->order[i], &v);
    /* the reader resynchronizes after an overlong line at the next line
     * break, quoted or not: a line that may be overlong stays on one line */
    for (i = 0, need = 0; i < g->ncols; i++)
        need += strlen(f[i].text) + 2;
    if (need > g->line_cap + 1)
        for (i = 0; i < g->ncols; i++)
            if (strchr(f[i].text, '\n'))
                shorten(&f[i], g->order[i], &v);
    if (kind == FEWER)
        n--;
    if (kind == MORE_FIELDS) {
        set(&f[n], "extra");
        n++;
    }
    if (kind == BAD_INT || kind == QUOTE_INSIDE || kind == CR_INSIDE) {
        /* the id column, written plain: a bad int */
        for (problem_col = 0; g->order[problem_col] != 1; problem_col++)
            continue;
        set(&f[problem_col], kind == BAD_INT ? "12x" : kind == QUOTE_INSIDE ? "1\"2" : "3\r4");
        f[problem_col].plain_only = 1;
    }
    if (kind == NUL_BYTE) {
        snprintf(f[problem_col].text, sizeof f[problem_col].text, "T");
        f[problem_col].plain_only = 1;
    }
    for (i = 0; i < n; i++) {
        if (i)
            puts_(g, ",");
        if (kind == NUL_BYTE && i == problem_col) {
            put(g, "T\0T", 3);
            kept += 4;
            continue;
        }
        k = write_field(g, &f[i], kind == GOOD || kind == FEWER || kind == MORE_FIELDS, &need);
        if (kept + need > most)
            most = kept + need;
        kept += k;
        if (kind == AFTER_QUOTE && i == problem_col && g->text[g->n - 1] == '"')
            puts_(g, "x");
        else if (kind == AFTER_QUOTE && i == problem_col)
            kind = GOOD;   /* the field was not quoted: no problem after all */
    }
    line_end(g);
    if (kind == NUL_BYTE)
        want(g, "%lld error NUL byte in line\n", (long long)first);
    else if (kind == AFTER_QUOTE)
        want(g, "%lld error unexpected character after a closing quote\n", (long long)first);
    else if (most > g->line_cap + 1)
        want(g, "%lld error line longer than %zu bytes\n", (long long)first, g->line_cap);
    else if (n != g->ncols)
        want(g, "%lld error expected %d fields, got %d\n", (long long)first, g->ncols, n);
    else if (kind == BAD_INT || kind == QUOTE_INSIDE || kind == CR_INSIDE)
        want(g, "%lld error attribute id: \"%s\" is not an int\n", (long long)first,
             f[problem_col].text);
    else
        want_event(g, first, &v);
}

static void blank_line(gen *g)
{
    static const char *const blank[] = {"", " ", "\t", "  \t "};
    puts_(g, blank[below(g, 4)]);
    line_end(g);
}

static void header(gen *g)
{
    static const char *const names[] = {"type", "id", "value", "ok", "time", "note"};
    int i;
    g->ncols = below(g, 2) ? 6 : 5;
    for (i = 0; i < g->ncols; i++)
        g->order[i] = i;
    for (i = g->ncols - 1; i > 0; i--) {
        int j = below(g, i + 1), t = g->order[i];
        g->order[i] = g->order[j];
        g->order[j] = t;
    }
    for (i = 0; i < g->ncols; i++) {
        if (i)
            puts_(g, ",");
        blanks(g);
        puts_(g, below(g, 4) ? names[g->order[i]] : g->order[i] == 0 ? "\"type\"" : names[g->order[i]]);
    }
    line_end(g);
}

/* A whole stream: header, records, maybe a last line without a line break
 * or with an unterminated quote. */
static void stream(gen *g)
{
    static const size_t caps[] = {64, 90, 200, 700, 65536};
    int i, nrec = below(g, RECORDS);
    g->n = g->nwant = 0;
    g->want[0] = '\0';
    g->line = 1;
    g->line_cap = caps[below(g, 5)];
    header(g);
    for (i = 0; i < nrec; i++) {
        if (below(g, 12) == 0)
            blank_line(g);
        else
            record(g, below(g, 3) ? GOOD : below(g, KINDS));
    }
    if (below(g, 4) == 0 && g->n > 0 && g->text[g->n - 1] == '\n') {
        g->n -= g->text[g->n - 2] == '\r' ? 2 : 1;   /* no line break after the last record */
        g->line--;
    } else if (below(g, 8) == 0) {
        want(g, "%lld error unterminated quoted field\n", (long long)g->line);
        puts_(g, "T,\"1");
    }
}

/* ---- the reader's side ----------------------------------------------------------- */

/* A CSV reader's entry points: the library's, or csv_ref.c's. */
typedef struct reader_api {
    int (*open)(sremrt_csv *, const sremrt_schema *, FILE *, const sremrt_csv_config *,
                const sremrt_alloc *);
    int (*next)(sremrt_csv *, void *);
    int64_t (*line)(const sremrt_csv *);
    const char *(*message)(const sremrt_csv *);
    void (*close)(sremrt_csv *);
} reader_api;

static const reader_api library = {sremrt_csv_open, sremrt_csv_next, sremrt_csv_line,
                                   sremrt_csv_message, sremrt_csv_close};
static const reader_api reference = {ref_csv_open, ref_csv_next, ref_csv_line, ref_csv_message,
                                     ref_csv_close};

/* Everything reader `api` says about the stream in f, in the want format. */
static char *read_with(const reader_api *api, FILE *f, size_t line_cap, char *out, size_t cap)
{
    sremrt_csv r;
    sremrt_csv_config cfg;
    sremrt_alloc hook = sremrt_alloc_malloc();
    rt_event e;
    size_t n = 0;
    int rc;
    cfg.line_cap = line_cap;
    cfg.max_columns = 8;
    out[0] = '\0';
    if (api->open(&r, &rt_sensor, f, &cfg, &hook) != 0) {
        snprintf(out, cap, "header refused: %s\n", api->message(&r));
        return out;
    }
    while ((rc = api->next(&r, &e)) != SREMRT_READ_END && rc != SREMRT_READ_FATAL) {
        if (rc == SREMRT_READ_EVENT)
            n += (size_t)snprintf(out + n, cap - n, "%lld event type=%d id=%lld value=%a ok=%d time=%lld\n",
                                  (long long)api->line(&r), e.type, (long long)e.id, e.value,
                                  e.ok, (long long)e.time);
        else
            n += (size_t)snprintf(out + n, cap - n, "%lld error %s\n",
                                  (long long)api->line(&r), api->message(&r));
        if (n >= cap)
            break;
    }
    api->close(&r);
    return out;
}

static char *read_all(FILE *f, size_t line_cap, char *out, size_t cap)
{
    return read_with(&library, f, line_cap, out, cap);
}

/* The stream through a pipe, written by a child in random pieces. */
static FILE *piped(gen *g)
{
    int fd[2];
    pid_t pid;
    if (pipe(fd) != 0)
        return NULL;
    pid = fork();
    if (pid == 0) {
        size_t off = 0;
        close(fd[0]);
        while (off < g->n) {
            size_t k = 1 + (size_t)below(g, 300);
            ssize_t w;
            if (k > g->n - off)
                k = g->n - off;
            w = write(fd[1], g->text + off, k);
            if (w <= 0)
                _exit(1);
            off += (size_t)w;
        }
        _exit(0);
    }
    close(fd[1]);
    return pid < 0 ? NULL : fdopen(fd[0], "r");
}

static unsigned long seed(void)
{
    const char *s = getenv("SREMC_CSV_SEED");
    return s ? strtoul(s, NULL, 10) : 18ul;
}

static long streams(void)
{
    const char *s = getenv("SREMC_DIFF_SCALE");
    long k = s ? atol(s) : 1;
    return STREAMS * (k > 0 ? k : 1);
}

static void test_generated_streams(void)
{
    gen g;
    char *got = malloc(WANT_CAP);
    long i, fails = 0;
    unsigned long s = seed();
    g.text = malloc(TEXT_CAP);
    g.want = malloc(WANT_CAP);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g.text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g.want);
    g.rng = (uint64_t)s * 0x9E3779B97F4A7C15u + 7;
    for (i = 0; i < streams(); i++) {
        int use_pipe = i % 8 == 7;
        FILE *f;
        stream(&g);
        f = use_pipe ? piped(&g) : rt_mem(g.text, g.n);
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        read_all(f, g.line_cap, got, WANT_CAP);
        fclose(f);
        if (use_pipe)
            wait(NULL);
        if (strcmp(got, g.want) != 0 && fails++ < 3) {
            fprintf(stderr, "\nstream %ld of seed %lu (SREMC_CSV_SEED=%lu), line_cap %zu, %s:\n"
                    "--- text:\n%.*s\n--- wanted:\n%s--- got:\n%s", i, s, s, g.line_cap,
                    use_pipe ? "pipe" : "fmemopen", (int)(g.n > 3000 ? 3000 : g.n), g.text, g.want,
                    got);
        }
    }
    CU_ASSERT_EQUAL(fails, 0);
    free(got);
    free(g.text);
    free(g.want);
}

/* ---- token streams: the reader against its masks and careful path ---------------- */

/* Pieces that sit at the edges of the plain path: short and long numbers,
 * signs, points, exponents, blanks, quotes ('""', quoted commas and line
 * breaks), '\r', enum names, bools. */
static const char *const tokens[] = {
    "0", "7", "61.5", "-0.0", "+12", "-3", "1700000004000", "123456789012345678",
    "1234567890123456789", "99999999999999999999", "1.2345678901234567", "1e3", ".5", "7.",
    "-", "+", ".", "1.2.3", "12x", "0x10", "inf", "T", "H", "DTS fault", "true", "FALSE",
    "1", "x", " ", "\t", "\"", "\"\"", "\"a, b\"", "\"two\nlines\"", "\"61.5\"", "\r",
    "\r\n", "e", "E-2", "\"T\" ", " \"H\"", "\"\"\"x\"\"\"",
};

/* A valid text for attribute a (5: the ignored column), mostly plain. */
static void token_value(gen *g, int a)
{
    char tmp[64];
    switch (a) {
    case 0: puts_(g, below(g, 8) ? type_names[below(g, 3)] : "\"H\""); return;
    case 1: snprintf(tmp, sizeof tmp, "%lld", (long long)(rnd(g) >> below(g, 64)) - 1000); break;
    case 2:
        snprintf(tmp, sizeof tmp, "%.*f", below(g, 9), (double)(int64_t)(rnd(g) >> below(g, 64)) /
                                                           (double)(1 + below(g, 1000)));
        break;
    case 3: puts_(g, below(g, 2) ? "true" : "0"); return;
    case 4: snprintf(tmp, sizeof tmp, "%lld", 1700000000000ll + below(g, 1000000)); break;
    default: puts_(g, below(g, 2) ? "note" : "\"a, b\""); return;
    }
    puts_(g, tmp);
}

/* A random line for the columns order[0..ncols): each field a valid value
 * (most often) or one to three random tokens, now and then a NUL, a
 * missing or extra comma, or blanks around it. */
static void token_line(gen *g, const int *order, int ncols)
{
    int i, k, nf = ncols + (below(g, 20) == 0) - (below(g, 20) == 0);
    for (i = 0; i < nf; i++) {
        if (i)
            puts_(g, ",");
        if (below(g, 40) == 0)
            puts_(g, " ");
        if (i < ncols && below(g, 6))
            token_value(g, order[i]);
        else
            for (k = below(g, 3); k >= 0; k--)
                puts_(g, tokens[below(g, (int)(sizeof tokens / sizeof *tokens))]);
        if (below(g, 40) == 0)
            puts_(g, below(g, 2) ? " " : "\t");
        if (below(g, 100) == 0)
            put(g, "\0", 1);
    }
    puts_(g, below(g, 4) ? "\n" : "\r\n");
}

static void test_token_streams(void)
{
    static const char *const headers[] = {"type,id,value,ok,time\n", "time,ok,value,id,type\n",
                                          "type,id,note,value,ok,time\n"};
    static const int orders[][6] = {{0, 1, 2, 3, 4}, {4, 3, 2, 1, 0}, {0, 1, 5, 2, 3, 4}};
    static const size_t caps[] = {16, 40, 90, 65536};
    gen g;
    char *got = malloc(WANT_CAP), *want_ = malloc(WANT_CAP);
    long i, fails = 0, count = streams() * 4;
    unsigned long s = seed();
    g.text = malloc(TEXT_CAP);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    CU_ASSERT_PTR_NOT_NULL_FATAL(want_);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g.text);
    g.rng = (uint64_t)s * 0x9E3779B97F4A7C15u + 11;
    for (i = 0; i < count; i++) {
        int j, lines = below(&g, 60), h = below(&g, 3);
        size_t cap = caps[below(&g, 4)];
        FILE *f;
        g.n = 0;
        puts_(&g, headers[h]);
        for (j = 0; j < lines; j++)
            token_line(&g, orders[h], 5 + (h == 2));
        if (below(&g, 4) == 0 && g.text[g.n - 1] == '\n')
            g.n--;                 /* no line break after the last line */
        f = rt_mem(g.text, g.n);
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        read_with(&library, f, cap, got, WANT_CAP);
        fclose(f);
        f = rt_mem(g.text, g.n);
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        read_with(&reference, f, cap, want_, WANT_CAP);
        fclose(f);
        if (strcmp(got, want_) != 0 && fails++ < 3)
            fprintf(stderr, "\ntoken stream %ld of seed %lu (SREMC_CSV_SEED=%lu), line_cap %zu:\n"
                    "--- text:\n%.*s\n--- masks and careful path:\n%s--- reader:\n%s", i, s, s,
                    cap, (int)(g.n > 3000 ? 3000 : g.n), g.text, want_, got);
    }
    CU_ASSERT_EQUAL(fails, 0);
    free(got);
    free(want_);
    free(g.text);
}

void add_csv_gen_tests(void)
{
    CU_pSuite s = CU_add_suite("csv generated streams", NULL, NULL);
    CU_add_test(s, "generated streams against their answers", test_generated_streams);
    CU_add_test(s, "token streams against the masks and careful path", test_token_streams);
}
