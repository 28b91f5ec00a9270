/* cg_writer.c: lines at a nesting level -> the indented text of named sections. */
#define _POSIX_C_SOURCE 200809L
#include "cg_writer.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { CG_INDENT = 4 };   /* spaces per nesting level */

const char *cg_sec_hole(CgSec s)
{
    static const char *const hole[CG_NSECTIONS] = {
        [CG_CODE] = "PATTERN_CODE", [CG_INIT] = "INIT_CODE",     [CG_PUSH] = "PUSH_CODE",
        [CG_FREE] = "FREE_CODE",    [CG_EXTERNS] = "EXTERNS",    [CG_FINISH] = "FINISH_CODE",
        [CG_TRIE] = "TRIE_CODE",    [CG_MANY_IN] = "MANY_IN",    [CG_MANY_OUT] = "MANY_OUT",
        [CG_RUN] = "RUN_CODE", [CG_CANON] = "CANON_CODE",      [CG_STATE] = "STATE_CODE",      [CG_MANY_FAST] = "MANY_FAST",
    };
    return s < CG_NSECTIONS ? hole[s] : NULL;
}

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
    if (b->f)
        fclose(b->f);
    b->f = NULL;
    while (b->len > 0 && b->text[b->len - 1] == '\n')
        b->text[--b->len] = '\0';
    return b->text;
}

void cg_bufs_open(Buf *b, int n)
{
    for (int i = 0; i < n; i++)
        cg_buf_open(&b[i]);
}

void cg_bufs_close(Buf *b, int n)
{
    for (int i = 0; i < n; i++)
        cg_buf_close(&b[i]);
}

void cg_bufs_free(Buf *b, int n)
{
    for (int i = 0; i < n; i++) {
        if (b[i].f)
            fclose(b[i].f);
        free(b[i].text);
        b[i] = (Buf){NULL, 0, NULL};
    }
}

static void indent(FILE *f, int level)
{
    fprintf(f, "%*s", level * CG_INDENT, "");
}

void cg_block(Buf *b, int level, const char *text)
{
    for (const char *s = text; *s;) {
        size_t n = strcspn(s, "\n");
        if (n > 0)   /* empty lines stay empty */
            indent(b->f, level);
        fwrite(s, 1, n, b->f);
        fputc('\n', b->f);
        s += n + (s[n] == '\n');
    }
}

void cg_line(Buf *b, int level, const char *fmt, ...)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        abort();
    va_list ap;
    va_start(ap, fmt);
    vfprintf(m, fmt, ap);
    va_end(ap);
    fclose(m);
    cg_block(b, level, text);
    free(text);
}

void cg_blank(Buf *b) { fputc('\n', b->f); }

void cg_begin(Buf *b, int level) { indent(b->f, level); }

void cg_end(Buf *b) { fputc('\n', b->f); }
