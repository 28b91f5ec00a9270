/* canon_ref.c: pattern file + CSV stream -> the reference interpreter's
 * canonical matches (interp_canonical), one JSON line per detection:
 *   {"name":"p","index":5,"start":2,"bind":{"x":2}}
 * index and start 1-based as in a program's records; bind when the
 * pattern has labels, with the labels the canonical parse passes through.
 * Usage: canon_ref FILE.srem STREAM.csv. The CSV is the harness's own:
 * a header of attribute names, then plain comma-separated fields (enum
 * values by name, ints, floats, bools as true/false/1/0). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "interp.h"

enum { MAX_COLS = 64, MAX_LINE = 4096 };

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "canon_ref: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(2);
}

/* Splits line at commas into at most MAX_COLS fields, spaces trimmed. */
static int split(char *line, char **fields)
{
    int n = 0;
    for (char *f = line; f && n < MAX_COLS; n++) {
        char *comma = strchr(f, ',');
        if (comma)
            *comma = '\0';
        while (*f == ' ' || *f == '\t')
            f++;
        char *end = f + strlen(f);
        while (end > f && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n'))
            *--end = '\0';
        fields[n] = f;
        f = comma ? comma + 1 : NULL;
    }
    return n;
}

static Value parse_value(const AstAttr *a, const char *text, int line)
{
    Value v = {0};
    char *end = NULL;
    errno = 0;
    switch (a->kind) {
    case ATTR_ENUM:
        for (int k = 0; k < a->nvalues; k++)
            if (strcmp(a->values[k].name, text) == 0)
                return (Value){.i = k};
        break;
    case ATTR_BOOL:
        if (!strcmp(text, "true") || !strcmp(text, "1"))
            return (Value){.i = 1};
        if (!strcmp(text, "false") || !strcmp(text, "0"))
            return (Value){.i = 0};
        break;
    case ATTR_FLOAT:
        v.f = strtod(text, &end);
        if (a->single)   /* float32: the nearest binary32, as the readers store it */
            v.f = (float)v.f;
        if (end != text && !*end && !errno)
            return v;
        break;
    case ATTR_STRING:   /* the harness's schemas have none: Python's re compares no interned ids */
        break;
    case ATTR_INT:
    case ATTR_TIMESTAMP:
        v.i = strtoll(text, &end, 10);
        if (end != text && !*end && !errno)
            return v;
        break;
    }
    fprintf(stderr, "canon_ref: line %d: bad value '%s' for %s\n", line, text, a->name);
    exit(2);
}

/* The events of the CSV file as rows of schema attributes. */
static Value *read_csv(const char *path, const AstSchema *schema, int *n)
{
    FILE *f = fopen(path, "r");
    if (!f)
        die("cannot open", path);
    char line[MAX_LINE];
    char *fields[MAX_COLS];
    int col[MAX_COLS]; /* schema attribute -> column */
    if (!fgets(line, sizeof line, f))
        die("no header in", path);
    int ncols = split(line, fields);
    for (int a = 0; a < schema->nattrs; a++) {
        col[a] = -1;
        for (int c = 0; c < ncols; c++)
            if (strcmp(fields[c], schema->attrs[a].name) == 0)
                col[a] = c;
        if (col[a] < 0)
            die("the header lacks", schema->attrs[a].name);
    }
    int cap = 64, lineno = 1;
    Value *v = malloc((size_t)cap * (size_t)schema->nattrs * sizeof *v);
    *n = 0;
    while (v && fgets(line, sizeof line, f)) {
        lineno++;
        if (strspn(line, " \t\r\n") == strlen(line))
            continue;
        if (split(line, fields) != ncols)
            die("wrong number of fields on a line of", path);
        if (*n == cap) {
            cap *= 2;
            v = realloc(v, (size_t)cap * (size_t)schema->nattrs * sizeof *v);
            if (!v)
                break;
        }
        for (int a = 0; a < schema->nattrs; a++)
            v[(size_t)*n * (size_t)schema->nattrs + (size_t)a] = parse_value(&schema->attrs[a], fields[col[a]], lineno);
        (*n)++;
    }
    fclose(f);
    if (!v)
        die("out of memory", NULL);
    return v;
}

/* One JSON line for p's canonical match m at event i (0-based). */
static void print_match(const AstPattern *p, int i, const CanonMatch *m)
{
    printf("{\"name\":\"%s\",\"index\":%d,\"start\":%d", p->name, i + 1, m->start + 1);
    if (p->nregs > 0) {
        printf(",\"bind\":{");
        const char *sep = "";
        for (int r = 0; r < p->nregs; r++)
            if (m->bind[r] >= 0) {
                printf("%s\"%s\":%d", sep, p->regs[r].name, m->bind[r] + 1);
                sep = ",";
            }
        printf("}");
    }
    printf("}\n");
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: canon_ref FILE.srem STREAM.csv\n");
        return 2;
    }
    size_t len = 0;
    char *src = frontend_read_file(argv[1], &len);
    if (!src)
        die("cannot read", argv[1]);
    Arena arena;
    Diag diag;
    arena_init(&arena);
    diag_init(&diag, argv[1], src, len);
    Ast *ast = frontend_parse_check(argv[1], src, len, &arena, &diag);
    if (diag.nerrors) { /* warnings (unused labels) are the harness's normal */
        diag_flush(&diag, stderr);
        return 1;
    }
    const AstSchema *schema = NULL;
    int maxregs = 1;
    for (int d = 0; d < ast->ndecls; d++)
        if (ast->decls[d].kind == DECL_PATTERN) {
            const AstPattern *p = ast->decls[d].u.pattern;
            if (schema && p->schema != schema)
                die("the patterns must share one schema", p->name);
            schema = p->schema;
            maxregs = p->nregs > maxregs ? p->nregs : maxregs;
        }
    if (!schema)
        die("no pattern in", argv[1]);
    int n = 0;
    Value *values = read_csv(argv[2], schema, &n);
    Stream s = {n, schema->nattrs, values};
    int *bind = malloc((size_t)maxregs * sizeof *bind);
    CanonMatch m = {0, bind};
    /* in the order of a program's records: by event, then by declaration */
    for (int i = 0; i < n; i++)
        for (int d = 0; d < ast->ndecls; d++)
            if (ast->decls[d].kind == DECL_PATTERN && interp_canonical(ast->decls[d].u.pattern, &s, NULL, i, &m))
                print_match(ast->decls[d].u.pattern, i, &m);
    free(bind);
    free(values);
    diag_free(&diag);
    arena_free(&arena);
    free(src);
    return fflush(stdout) == 0 ? 0 : 2;
}
