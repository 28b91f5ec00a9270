/* frontend.c: reads a pattern file and runs the lexer, parser and
 * checker over it (the checker skips declarations with syntax errors). */
#include "frontend.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

char *frontend_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            fclose(f);
            return NULL;
        }
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        cap *= 2;
        char *grown = realloc(buf, cap);
        if (!grown)
            free(buf);
        buf = grown;
    }
    if (ferror(f)) {
        int err = errno; /* e.g. EISDIR: keep it past fclose */
        fclose(f);
        free(buf);
        errno = err;
        return NULL;
    }
    fclose(f);
    *len = n;
    return buf;
}

Ast *frontend_parse_check(const char *path, const char *src, size_t len, Arena *arena, Diag *diag)
{
    Ast *ast = parse_source(path, src, len, arena, diag);
    /* Like clang, one run shows both kinds of error: the checker skips the
     * declarations with syntax errors and what depends on them. */
    if (!diag_stopped(diag))
        check_ast(ast, arena, diag);
    return ast;
}
