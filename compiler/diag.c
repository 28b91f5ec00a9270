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

void diag_error(Diag *d, Loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add(d, DIAG_ERROR, loc, NULL, vformat(fmt, ap));
    va_end(ap);
    d->nerrors++;
}

void diag_syntax(Diag *d, Loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add(d, DIAG_ERROR, loc, NULL, vformat(fmt, ap));
    va_end(ap);
    d->nerrors++;
    d->nsyntax++;
}

void diag_warning(Diag *d, Loc loc, const char *flag, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add(d, d->werror ? DIAG_ERROR : DIAG_WARNING, loc, flag, vformat(fmt, ap));
    va_end(ap);
    if (d->werror)
        d->nerrors++;
    else
        d->nwarnings++;
}

void diag_note(Diag *d, Loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add(d, DIAG_NOTE, loc, NULL, vformat(fmt, ap));
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

/* Lines longer than this are shown as a window around the column. */
enum { DIAG_LINE_MAX = 160 };

static void print_source_line(const Diag *d, Loc loc, FILE *out)
{
    if (!d->src || loc.line <= 0)
        return;
    const char *p = d->src, *end = d->src + d->len;
    for (int line = 1; line < loc.line && p < end; p++)
        if (*p == '\n')
            line++;
    const char *eol = p;
    while (eol < end && *eol != '\n' && *eol != '\r')
        eol++;
    const char *from = p, *to = eol;
    if (to - from > DIAG_LINE_MAX) {
        const char *at = p + loc.col - 1;
        from = at - DIAG_LINE_MAX / 2 > p ? at - DIAG_LINE_MAX / 2 : p;
        to = from + DIAG_LINE_MAX < eol ? from + DIAG_LINE_MAX : eol;
    }
    fputs(from > p ? "    ..." : "    ", out);
    for (const char *q = from; q < to; q++)
        fputc(*q == '\0' ? ' ' : *q, out);
    fputs(to < eol ? "...\n    " : "\n    ", out);
    if (from > p)
        fputs("   ", out);
    /* Copy tabs from the line so the caret lines up however tabs render. */
    for (const char *q = from; q < p + loc.col - 1; q++)
        fputc(q < eol && *q == '\t' ? '\t' : ' ', out);
    fputs("^\n", out);
}

void diag_flush(Diag *d, FILE *out)
{
    static const char *const level_name[] = {"error", "warning", "note"};
    if (d->n == 0)
        return;
    qsort(d->entries, (size_t)d->n, sizeof *d->entries, cmp_entries);
    for (int i = 0; i < d->n; i++) {
        const DiagEntry *e = &d->entries[i];
        if (e->loc.line > 0)
            fprintf(out, "%s:%d:%d: ", d->path, e->loc.line, e->loc.col);
        else
            fprintf(out, "%s: ", d->path);
        fprintf(out, "%s: %s", level_name[e->level], e->message);
        if (e->flag)
            fprintf(out, e->level == DIAG_ERROR ? " [-Werror=%s]" : " [-W%s]", e->flag);
        fputc('\n', out);
        print_source_line(d, e->loc, out);
    }
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
