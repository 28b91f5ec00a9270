/* cg_names.c: enum values and declarations -> the header's named constants
 * (PREFIX_ATTR_VALUE, PREFIX_DECL_NAME) and the table of declaration
 * names; two constants with one C name are an error at the later one. */
#define _POSIX_C_SOURCE 200809L
#include "cg_impl.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* One constant of the header, or a name the generated files define
 * otherwise (what: NULL), which a constant must not take. */
typedef struct Const {
    char       *name;   /* malloc'd */
    const char *what;   /* "enum value", "pattern", "episode"; NULL: generated */
    const char *label;  /* the value or declaration as written; generated: its role */
    const char *attr;   /* enum values: the attribute */
    Loc         loc;
    int         seq;    /* order of appearance: reports go to the later one */
} Const;

char *cg_const_name(const char *P, const char *mid, const char *name)
{
    size_t n = strlen(P) + strlen(mid) + strlen(name) + 3;
    char *text = malloc(n);
    if (!text)
        abort();
    snprintf(text, n, "%s_%s_%s", P, mid, name);
    for (char *c = text; *c; c++)   /* "DTS fault" -> DTS_FAULT */
        *c = isalnum((unsigned char)*c) ? (char)toupper((unsigned char)*c) : '_';
    return text;
}

void cg_put_decl(FILE *out, const Cg *g, const char *name)
{
    char *c = cg_const_name(g->P, "DECL", name);
    fputs(c, out);
    free(c);
}

static int cmp_const(const void *a, const void *b)
{
    const Const *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : x->seq - y->seq;
}

/* What c is, for a message: enum value "low voltage" of 'kind'. */
static void describe(char *buf, size_t cap, const Const *c)
{
    if (!c->what)
        snprintf(buf, cap, "%s", c->label);
    else if (c->attr)
        snprintf(buf, cap, "enum value \"%s\" of '%s'", c->label, c->attr);
    else
        snprintf(buf, cap, "%s '%s'", c->what, c->label);
}

/* Reports every constant whose name an earlier one (or a generated name)
 * has; v sorted. */
static bool report_collisions(Cg *g, const Const *v, int n)
{
    bool ok = true;
    for (int k = 1; k < n; k++) {
        if (strcmp(v[k - 1].name, v[k].name) != 0 || !v[k].what)
            continue;
        int first = k - 1;
        while (first > 0 && strcmp(v[first - 1].name, v[k].name) == 0)
            first--;
        char a[256], b[256];
        describe(a, sizeof a, &v[k]);
        describe(b, sizeof b, &v[first]);
        diag_error(g->diag, v[k].loc, "the header constant %s of %s is also %s", v[k].name, a, b);
        if (v[first].what)
            diag_note(g->diag, v[first].loc, "%s is here", b);
        ok = false;
    }
    return ok;
}

/* The names the generated files define besides the constants, that an
 * upper-case constant can equal: the include guard, the capacity macros
 * of --freestanding and the runs arrays' sizes (prefix as written). */
static const char *const macro[] = {"MAX_KEYS", "MAX_RUNS", "DISTINCT_BUDGET", "OCCMAP_CAP",
                                    "EXPLORE_CAP", "ARENA_BYTES", "RUNS_BYTES", "RS_FLAT", "MAX_STRINGS",
                                    "NSTRINGS", "STRTAB"};
enum { NMACROS = sizeof macro / sizeof macro[0] };

static int add_generated(const Cg *g, Const *v, int n)
{
    char *guard = cg_const_name(g->P, "H", "GENERATED");
    v[n++] = (Const){guard, NULL, "the header's include guard", NULL, {0, 0}, -1};
    for (int k = 0; k < NMACROS; k++) {
        size_t len = strlen(g->P) + strlen(macro[k]) + 2;
        char *name = malloc(len);
        if (!name)
            abort();
        snprintf(name, len, "%s_%s", g->P, macro[k]);
        v[n++] = (Const){name, NULL, "a macro of the generated files", NULL, {0, 0}, -1};
    }
    return n;
}

/* The constants of every enum attribute's values into v (returns how
 * many), and an enum of them per attribute into the header. */
static int add_values(const Cg *g, Const *v, FILE *h)
{
    const AstSchema *s = g->schema;
    int n = 0;
    for (int a = 0; a < s->nattrs; a++) {
        const AstAttr *at = &s->attrs[a];
        if (at->kind != ATTR_ENUM)
            continue;
        fprintf(h, "enum {   /* %s_event.", g->P);
        cg_put_comment_text(h, at->name);
        fputs(" */\n", h);
        for (int x = 0; x < at->nvalues; x++, n++) {
            const AstEnumValue *ev = &at->values[x];
            v[n] = (Const){cg_const_name(g->P, at->name, ev->name), "enum value", ev->name, at->name, ev->loc, n};
            fprintf(h, "    %s = %d,\n", v[n].name, x);
        }
        fputs("};\n\n", h);
    }
    return n;
}

/* The constants of the declarations into v from n on (returns the new
 * count), their enum into the header and their names into names. */
static int add_decls(const Cg *g, Const *v, int n, FILE *h, FILE *names)
{
    int d = 0;
    fputs("/* The declarations, numbered as sremrt_record.decl numbers them: the\n"
          " * patterns and episodes of the file, in file order. */\nenum {\n", h);
    for (int k = 0; k < g->ast->ndecls; k++) {
        const AstDecl *dc = &g->ast->decls[k];
        if (dc->kind != DECL_PATTERN && dc->kind != DECL_EPISODE)
            continue;
        bool pat = dc->kind == DECL_PATTERN;
        const char *name = pat ? dc->u.pattern->name : dc->u.episode->name;
        v[n] = (Const){cg_const_name(g->P, "DECL", name), pat ? "pattern" : "episode", name, NULL,
                       pat ? dc->u.pattern->loc : dc->u.episode->loc, n};
        fprintf(h, "    %s = %d,   /* %s %s */\n", v[n].name, d, v[n].what, name);
        fputs(d++ ? ", " : "", names);
        cg_put_c_string(names, name);
        n++;
    }
    if (d == 0)
        fputs("NULL", names);   /* an array is never empty */
    v[n] = (Const){cg_const_name(g->P, "DECL", "COUNT"), NULL, "the header's count of declarations", NULL,
                   {0, 0}, -1};
    fprintf(h, "    %s = %d   /* how many */\n};\n", v[n].name, d);
    return n + 1;
}

bool cg_emit_constants(Cg *g, FILE *h, FILE *names)
{
    const AstSchema *s = g->schema;
    size_t cap = 2 + NMACROS;   /* DECL_COUNT, the guard, the macros */
    for (int a = 0; a < s->nattrs; a++)
        cap += s->attrs[a].kind == ATTR_ENUM ? (size_t)s->attrs[a].nvalues : 0;
    for (int k = 0; k < g->ast->ndecls; k++)
        cap += g->ast->decls[k].kind == DECL_PATTERN || g->ast->decls[k].kind == DECL_EPISODE;
    Const *v = calloc(cap, sizeof *v);
    if (!v)
        abort();
    int n = add_values(g, v, h);
    n = add_decls(g, v, n, h, names);
    n = add_generated(g, v, n);
    qsort(v, (size_t)n, sizeof *v, cmp_const);
    bool ok = report_collisions(g, v, n);
    for (int k = 0; k < n; k++)
        free(v[k].name);
    free(v);
    return ok;
}
