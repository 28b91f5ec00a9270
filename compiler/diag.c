/* diag.c: collects diagnostics, then prints them sorted by source
 * position with the offending line and a caret under the column. */
#include "diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void diag_init(Diag *d, const char *path, const char *src, size_t len)
{
    memset(d, 0, sizeof *d);
    d->path = path;
    d->src = src;
    d->len = len;
}

void diag_free(Diag *d)
{
    for (int i = 0; i < d->n; i++) {
        free(d->entries[i].flag);
        free(d->entries[i].message);
    }
    free(d->entries);
    d->entries = NULL;
    d->n = d->cap = 0;
}

static char *vformat(const char *fmt, va_list ap)
{
    char small[256];
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        n = 0;
    char *s = malloc((size_t)n + 1);
    if (!s)
        abort();
    if ((size_t)n < sizeof small)
        memcpy(s, small, (size_t)n + 1);
    else
        vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

/* Whether a report of this level is kept. Past the error limit nothing
 * is: the first error over it stops the diagnostics for good (the notes
 * and warnings after it would explain errors no one sees). */
static bool keep(Diag *d, DiagLevel level)
{
    if (!d->stopped && level == DIAG_ERROR && d->max_errors > 0 && d->nerrors >= d->max_errors)
        d->stopped = true;
    return !d->stopped;
}

static void add(Diag *d, DiagLevel level, Loc loc, const char *flag, char *msg)
{
    if (d->n == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 16;
        d->entries = realloc(d->entries, (size_t)d->cap * sizeof *d->entries);
        if (!d->entries)
            abort();
    }
    DiagEntry *e = &d->entries[d->n];
    e->level = level;
    e->loc = loc;
    e->seq = d->n;
    e->anchor = level == DIAG_NOTE && d->n > 0 ? d->entries[d->n - 1].anchor : d->n;
    e->anchor_loc = e->anchor == d->n ? loc : d->entries[e->anchor].loc;
    e->flag = flag ? strcpy(malloc(strlen(flag) + 1), flag) : NULL;
    e->message = msg;
    d->n++;
}

/* Formats and adds one report unless it is dropped; whether it was kept. */
static bool report(Diag *d, DiagLevel level, const char *flag, Loc loc, const char *fmt, va_list ap)
{
    if (!keep(d, level))
        return false;
    add(d, level, loc, flag, vformat(fmt, ap));
    return true;
}

void diag_error(Diag *d, Loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (report(d, DIAG_ERROR, NULL, loc, fmt, ap))
        d->nerrors++;
    va_end(ap);
}

void diag_syntax(Diag *d, Loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (report(d, DIAG_ERROR, NULL, loc, fmt, ap))
        d->nerrors++;
    va_end(ap);
    d->nsyntax++; /* even when dropped: the declaration is broken */
}

void diag_warning(Diag *d, Loc loc, const char *flag, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (report(d, d->werror ? DIAG_ERROR : DIAG_WARNING, flag, loc, fmt, ap)) {
        if (d->werror)
            d->nerrors++;
        else
            d->nwarnings++;
    }
    va_end(ap);
}

void diag_note(Diag *d, Loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(d, DIAG_NOTE, NULL, loc, fmt, ap);
    va_end(ap);
}

/* Sort key: the anchor's position, then report order. */
static int cmp_entries(const void *pa, const void *pb)
{
    const DiagEntry *a = pa, *b = pb;
    if (a->anchor_loc.line != b->anchor_loc.line)
        return a->anchor_loc.line < b->anchor_loc.line ? -1 : 1;
    if (a->anchor_loc.col != b->anchor_loc.col)
        return a->anchor_loc.col < b->anchor_loc.col ? -1 : 1;
    if (a->anchor != b->anchor)
        return a->anchor < b->anchor ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* stderr is unbuffered: a byte at a time would make a write call per
 * byte of the quoted lines. Diagnostics go through this buffer instead. */
typedef struct OutBuf {
    FILE  *out;
    size_t n;
    char   b[8192];
} OutBuf;

static void out_flush(OutBuf *o)
{
    fwrite(o->b, 1, o->n, o->out);
    o->n = 0;
}

static void out_put(OutBuf *o, const char *s, size_t n)
{
    if (n > sizeof o->b - o->n)
        out_flush(o);
    if (n >= sizeof o->b) {
        fwrite(s, 1, n, o->out);
        return;
    }
    memcpy(o->b + o->n, s, n);
    o->n += n;
}

static void out_str(OutBuf *o, const char *s) { out_put(o, s, strlen(s)); }

static void out_char(OutBuf *o, char c) { out_put(o, &c, 1); }

static void out_fmt(OutBuf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void out_fmt(OutBuf *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = vformat(fmt, ap);
    va_end(ap);
    out_str(o, s);
    free(s);
}

/* Lines longer than this are shown as a window around the column. */
enum { DIAG_LINE_MAX = 160 };

/* Where each line starts, found in one pass over the source, so that
 * quoting the line of each diagnostic does not rescan the file. */
typedef struct LineIndex {
    const char **start; /* [line - 1] */
    int          n;
} LineIndex;

static LineIndex line_index(const Diag *d)
{
    LineIndex ix = {NULL, 0};
    if (!d->src)
        return ix;
    const char *end = d->src + d->len;
    size_t cap = 1;
    for (const char *p = d->src; p < end; p++)
        cap += *p == '\n';
    ix.start = malloc(cap * sizeof *ix.start);
    if (!ix.start)
        abort();
    ix.start[ix.n++] = d->src;
    for (const char *p = d->src; p < end; p++)
        if (*p == '\n')
            ix.start[ix.n++] = p + 1;
    return ix;
}

/* Bytes in a UTF-8 sequence at p (before end), or 0 if it is not one. */
static int utf8_len(const unsigned char *p, const unsigned char *end)
{
    int n = p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 && p[0] < 0xe0 ? 2 : 0;
    if (n == 0 || end - p < n)
        return 0;
    for (int i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    return n;
}

/* One character of a quoted line: its text in out (a tab, a printable
 * character, a UTF-8 sequence, or \xNN for any other byte), its width in
 * columns in *width; returns the bytes it takes. */
static int show_char(const char *q, const char *eol, char out[5], int *width)
{
    const unsigned char *u = (const unsigned char *)q;
    int n = u[0] >= 0x80 ? utf8_len(u, (const unsigned char *)eol) : 1;
    if (n > 1) {
        memcpy(out, q, (size_t)n);
        out[n] = '\0';
        *width = 1;
        return n;
    }
    if (u[0] == '\t' || (u[0] >= 0x20 && u[0] < 0x7f)) {
        out[0] = (char)u[0];
        out[1] = '\0';
        *width = 1;
        return 1;
    }
    static const char hex[] = "0123456789abcdef";
    out[0] = '\\';
    out[1] = 'x';
    out[2] = hex[u[0] >> 4];
    out[3] = hex[u[0] & 15];
    out[4] = '\0';
    *width = 4;
    return 1;
}

/* A message as text: a string literal it quotes may hold any byte, which
 * is shown as in the source lines. */
static void out_text(OutBuf *out, const char *msg)
{
    const char *end = msg + strlen(msg);
    char piece[5];
    int width;
    for (const char *q = msg; q < end;) {
        q += show_char(q, end, piece, &width);
        out_str(out, piece);
    }
}

static void print_source_line(const LineIndex *ix, const char *end, Loc loc, OutBuf *out)
{
    if (loc.line <= 0 || loc.line > ix->n)
        return;
    const char *p = ix->start[loc.line - 1];
    const char *eol = loc.line < ix->n ? ix->start[loc.line] - 1 : end; /* at its '\n' */
    if (eol > p && eol[-1] == '\r' && eol < end)
        eol--; /* CR LF ends the line; a lone CR is shown */
    const char *from = p, *to = eol, *at = p + loc.col - 1;
    if (to - from > DIAG_LINE_MAX) {
        from = at - DIAG_LINE_MAX / 2 > p ? at - DIAG_LINE_MAX / 2 : p;
        to = from + DIAG_LINE_MAX < eol ? from + DIAG_LINE_MAX : eol;
    }
    char piece[5];
    int width;
    out_str(out, from > p ? "    ..." : "    ");
    for (const char *q = from; q < to;) {
        q += show_char(q, to, piece, &width);
        out_str(out, piece);
    }
    out_str(out, to < eol ? "...\n    " : "\n    ");
    if (from > p)
        out_str(out, "   ");
    /* Copy tabs from the line so the caret lines up however tabs render;
     * an escaped byte takes the width of its escape. */
    for (const char *q = from; q < at;) {
        if (q >= to) {
            out_char(out, ' ');
            q++;
            continue;
        }
        const char *next = q + show_char(q, to, piece, &width);
        if (next > at)
            break; /* the column is inside a UTF-8 sequence */
        for (int i = 0; i < width; i++)
            out_char(out, *q == '\t' ? '\t' : ' ');
        q = next;
    }
    out_str(out, "^\n");
}

void diag_flush(Diag *d, FILE *file)
{
    static const char *const level_name[] = {"error", "warning", "note"};
    bool show_stop = d->stopped && !d->stop_shown;
    if (d->n == 0 && !show_stop)
        return;
    qsort(d->entries, (size_t)d->n, sizeof *d->entries, cmp_entries);
    LineIndex ix = line_index(d);
    OutBuf *out = malloc(sizeof *out);
    if (!out)
        abort();
    out->out = file;
    out->n = 0;
    for (int i = 0; i < d->n; i++) {
        const DiagEntry *e = &d->entries[i];
        if (e->loc.line > 0)
            out_fmt(out, "%s:%d:%d: ", d->path, e->loc.line, e->loc.col);
        else
            out_fmt(out, "%s: ", d->path);
        out_fmt(out, "%s: ", level_name[e->level]);
        out_text(out, e->message);
        if (e->flag)
            out_fmt(out, e->level == DIAG_ERROR ? " [-Werror=%s]" : " [-W%s]", e->flag);
        out_char(out, '\n');
        print_source_line(&ix, d->src + d->len, e->loc, out);
    }
    if (show_stop)
        out_fmt(out, "%s: error: too many errors emitted, stopping now [--max-errors=%d]\n", d->path,
                d->max_errors);
    d->stop_shown |= show_stop;
    out_flush(out);
    free(out);
    free(ix.start);
    diag_free(d);
}

int diag_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return 1000;
    int row[65];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j];
            int cost = a[i - 1] == b[j - 1] ? 0 : 1;
            int best = diag + cost;
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

const char *diag_closest(const char *name, const char *const *names, int n)
{
    const char *best = NULL;
    int best_d = 1000;
    int limit = (int)strlen(name) / 3 + 1; /* about a third of the name */
    if (limit > 3)
        limit = 3;
    for (int i = 0; i < n; i++) {
        int dist = diag_distance(name, names[i]);
        if (dist < best_d) {
            best_d = dist;
            best = names[i];
        }
    }
    return best_d <= limit ? best : NULL;
}
