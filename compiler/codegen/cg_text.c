/* cg_text.c: small text helpers and templates: C comments and strings, field names, prefixes, template holes. */
#define _POSIX_C_SOURCE 200809L
#include "cg_impl.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- small text helpers --------------------------------------------------------- */

/* Text inside a C comment: no comment end, no trigraphs, one line. */
void cg_put_comment_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (s[0] == '*' && s[1] == '/')
            fputs("* ", out);
        else if (s[0] == '?' && s[1] == '?')
            fputs("? ", out);
        else if (*s == '\n' || *s == '\r')
            fputc(' ', out);
        else
            fputc(*s, out);
    }
}

void cg_put_expr_comment(FILE *out, const AstExpr *e)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        abort();
    if (e)
        ast_dump_expr(e, f);
    else
        fputs("true", f);
    fclose(f);
    cg_put_comment_text(out, text);
    free(text);
}

/* A C string literal (escapes quotes, backslashes, '?' against trigraphs
 * and every byte outside printable ASCII). */
void cg_put_c_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\' || *p == '?')
            fprintf(out, "\\%c", *p);
        else if (*p < 32 || *p > 126)
            fprintf(out, "\\%03o", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

/* A number of the source, as written (for comments). */
void cg_put_number(FILE *out, const AstNumber *n)
{
    if (n->text)
        cg_put_comment_text(out, n->text);
    else if (n->is_float)
        fprintf(out, "%g", n->negative ? -n->f : n->f);
    else
        fprintf(out, "%s%" PRIu64, n->negative ? "-" : "", n->u);
}

/* A window in the source's units: "within 10 min", "within 5 events". */
void cg_put_window(FILE *out, const AstWindow *w)
{
    if (w->kind == WIN_NONE) {
        fputs("no window", out);
        return;
    }
    fputs("within ", out);
    cg_put_number(out, &w->amount);
    if (w->kind == WIN_TIME && w->unit_name)
        fprintf(out, " %s", w->unit_name);
    else
        fputs(w->kind == WIN_TIME ? " s" : " events", out);
}

static const char *const c_keywords[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
    "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
    "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
    "union", "unsigned", "void", "volatile", "while", "bool", "true", "false", NULL};

/* The struct member of an attribute: its name, with '_' after a C keyword
 * or a name the C implementation reserves. */
void cg_put_field(FILE *out, const AstAttr *a)
{
    fputs(a->name, out);
    for (int i = 0; c_keywords[i]; i++)
        if (strcmp(a->name, c_keywords[i]) == 0) {
            fputc('_', out);
            return;
        }
    if (a->name[0] == '_')
        fputc('_', out);
}

void cg_prefix_from_path(const char *path, char *buf, size_t size)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strcspn(base, ".");
    size_t k = 0;
    if (size < 4) {
        if (size)
            buf[0] = '\0';
        return;
    }
    if (n == 0 || isdigit((unsigned char)base[0]) || base[0] == '_')
        buf[k++] = 'm', buf[k++] = '_';
    for (size_t i = 0; i < n && k + 1 < size && k < CG_MAX_PREFIX; i++)
        buf[k++] = isalnum((unsigned char)base[i]) ? base[i] : '_';
    buf[k] = '\0';
}

bool cg_valid_prefix(const char *p)
{
    if (!p || !(isalpha((unsigned char)p[0])))
        return false;
    for (const char *s = p; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return false;
    return strlen(p) <= CG_MAX_PREFIX;
}

/* ---- templates -------------------------------------------------------------------- */

/* The template text (malloc'd), from the directory or the embedded copy. */
char *cg_load_template(const CgOptions *o, const char *name, Diag *diag)
{
    Loc none = {0, 0};
    if (o->template_dir) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", o->template_dir, name);
        FILE *f = fopen(path, "rb");
        if (!f) {
            diag_error(diag, none, "cannot read template '%s': %s", path, strerror(errno));
            return NULL;
        }
        char *text = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&text, &len);
        char chunk[4096];
        size_t n;
        while (m && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
            fwrite(chunk, 1, n, m);
        fclose(f);
        if (!m)
            abort();
        fclose(m);
        return text;
    }
    for (int i = 0; cg_templates[i].name; i++)
        if (strcmp(cg_templates[i].name, name) == 0)
            return strdup(cg_templates[i].text);
    diag_error(diag, none, "template '%s' is not built into sremc", name);
    return NULL;
}


/* Template syntax (templates/README.md): @@NAME@@ is a hole; a line
 * "@@# ..." is a note for the reader of the template, left out of the
 * output; lines "@@IF NAME@@" and "@@END NAME@@" keep what is between
 * them only when hole NAME is not empty, "@@IF !NAME@@" only when it is
 * (they nest). A hole alone on its line after spaces is a block: every
 * line of its text gets those spaces, and an empty one leaves out the line. */

typedef struct Filler {
    const char *tname;
    const Hole *holes;
    int         nholes;
    Diag       *diag;
    FILE       *out;
} Filler;

static bool fill_error(const Filler *f, const char *what, const char *at, size_t n)
{
    Loc none = {0, 0};
    diag_error(f->diag, none, "template '%s': %s '%.*s'", f->tname, what, (int)(n > 40 ? 40 : n), at);
    return false;
}

static const Hole *find_hole(const Filler *f, const char *name, size_t n)
{
    for (int i = 0; i < f->nholes; i++)
        if (strlen(f->holes[i].name) == n && strncmp(f->holes[i].name, name, n) == 0)
            return &f->holes[i];
    return NULL;
}

/* The name of a directive line "@@WORD NAME@@\n" (line starts there). */
static bool directive(const char *line, const char *word, const char **name, size_t *n)
{
    size_t w = strlen(word);
    if (strncmp(line, "@@", 2) != 0 || strncmp(line + 2, word, w) != 0 || line[2 + w] != ' ')
        return false;
    *name = line + 3 + w;
    *n = strcspn(*name, "@\n");
    return strncmp(*name + *n, "@@", 2) == 0;
}

/* Text with every line after the first indented by indent (empty lines
 * stay empty). */
static void put_indented(FILE *out, const char *text, const char *indent, size_t ni)
{
    for (const char *s = text; *s; s++) {
        fputc(*s, out);
        if (*s == '\n' && s[1] && s[1] != '\n')
            fwrite(indent, 1, ni, out);
    }
}

/* A line that is only a block hole with no text: left out whole. */
static bool empty_block(const Filler *f, const char *line, size_t len)
{
    size_t lead = strspn(line, " ");
    if (len < lead + 4 || strncmp(line + lead, "@@", 2) != 0 || strncmp(line + len - 2, "@@", 2) != 0)
        return false;
    const char *name = line + lead + 2;
    size_t n = len - lead - 4;
    if (memchr(name, '@', n))
        return false;
    const Hole *h = find_hole(f, name, n);
    return h && !h->value[0];
}

/* One line of the template (without its newline), holes filled. */
static bool fill_line(const Filler *f, const char *line, size_t len)
{
    const char *p = line, *end = line + len;
    size_t lead = strspn(line, " ");
    while (p < end) {
        const char *at = strstr(p, "@@");
        if (!at || at >= end) {
            fwrite(p, 1, (size_t)(end - p), f->out);
            return true;
        }
        fwrite(p, 1, (size_t)(at - p), f->out);
        const char *close = strstr(at + 2, "@@");
        if (!close || close >= end)
            return fill_error(f, "unclosed hole", at, (size_t)(end - at));
        size_t n = (size_t)(close - at - 2);
        const Hole *h = find_hole(f, at + 2, n);
        if (!h)
            return fill_error(f, "unknown hole", at + 2, n);
        bool block = at == line + lead && close + 2 == end;
        if (block)
            put_indented(f->out, h->value, line, lead);
        else
            fputs(h->value, f->out);
        p = close + 2;
    }
    return true;
}

/* Writes the template with every hole filled and every directive obeyed;
 * an unknown hole or an unbalanced IF is an error (a template and the
 * code generator out of step). */
bool cg_fill(const char *tpl, const char *tname, const Hole *holes, int nholes, Diag *diag, FILE *out)
{
    Filler f = {tname, holes, nholes, diag, out};
    const char *open[16];   /* names of the IFs we are in */
    size_t open_n[16];
    int depth = 0, skip = 0;   /* skip: depth of the outermost false IF, 0: none */
    for (const char *line = tpl; *line;) {
        size_t len = strcspn(line, "\n");
        const char *next = line + len + (line[len] == '\n');
        const char *name;
        size_t n;
        if (strncmp(line, "@@#", 3) == 0) {
            /* a note for the template's reader */
        } else if (directive(line, "IF", &name, &n)) {
            bool neg = name[0] == '!';
            const Hole *h = find_hole(&f, name + neg, n - neg);
            if (!h)
                return fill_error(&f, "unknown condition", name, n);
            if (depth == 16)
                return fill_error(&f, "IFs nested too deep at", name, n);
            open[depth] = name;
            open_n[depth++] = n;
            if (!skip && !h->value[0] != neg)
                skip = depth;
        } else if (directive(line, "END", &name, &n)) {
            if (depth == 0 || open_n[depth - 1] != n || strncmp(open[depth - 1], name, n) != 0)
                return fill_error(&f, "END without its IF", name, n);
            if (skip == depth--)
                skip = 0;
        } else if (!skip && !empty_block(&f, line, len)) {
            if (!fill_line(&f, line, len))
                return false;
            if (line[len] == '\n')
                fputc('\n', out);
        }
        line = next;
    }
    if (depth > 0)
        return fill_error(&f, "IF without END", open[depth - 1], open_n[depth - 1]);
    return true;
}
