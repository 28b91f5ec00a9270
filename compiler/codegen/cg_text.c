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


void cg_buf_open(Buf *b)
{
    b->text = NULL;
    b->len = 0;
    b->f = open_memstream(&b->text, &b->len);
    if (!b->f)
        abort();
}

const char *cg_buf_close(Buf *b)
{
    fclose(b->f);
    b->f = NULL;
    /* Holes end without a newline: the template has its own. */
    while (b->len > 0 && b->text[b->len - 1] == '\n')
        b->text[--b->len] = '\0';
    return b->text;
}

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


/* Writes the template with every @@NAME@@ filled; an unknown hole is an
 * error (a template and this file out of step). */
bool cg_fill(const char *tpl, const char *tname, const Hole *holes, int nholes, Diag *diag,
                 FILE *out)
{
    const char *p = tpl;
    for (;;) {
        const char *at = strstr(p, "@@");
        if (!at) {
            fputs(p, out);
            return true;
        }
        fwrite(p, 1, (size_t)(at - p), out);
        const char *end = strstr(at + 2, "@@");
        size_t n = end ? (size_t)(end - at - 2) : 0;
        int i = 0;
        while (end && i < nholes && !(strlen(holes[i].name) == n && strncmp(holes[i].name, at + 2, n) == 0))
            i++;
        if (!end || i == nholes) {
            Loc none = {0, 0};
            diag_error(diag, none, "template '%s': unknown hole '%.*s'", tname,
                       end ? (int)n : 20, at);
            return false;
        }
        fputs(holes[i].value, out);
        p = end + 2;
    }
}
