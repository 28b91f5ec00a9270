/* bench_interp.c: the reference interpreter (compiler/interp.c) as a benchmark
 * baseline: the first pattern of a .srem file over a prefix of a bench
 * stream -> its detections. Linked with the compiler's objects when
 * bench/run.sh is given them (BENCH_INTERP_OBJS); C11 like the compiler. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "diag.h"
#include "frontend.h"
#include "interp.h"

#include "bench.h"

int bench_interp(const char *path, const uint8_t *ty, const bench_rec *rec, size_t n,
                 uint64_t *count);

/* One-byte types ty ('A' + type) or records rec, whichever is not NULL.
 * Attributes are filled by name: ts, type, val; key (and anything else)
 * is 0. Returns 0, or -1 when the file does not load. */
int bench_interp(const char *path, const uint8_t *ty, const bench_rec *rec, size_t n,
                 uint64_t *count)
{
    size_t len;
    char *src = frontend_read_file(path, &len);
    Arena arena;
    Diag diag;
    Ast *ast;
    const AstPattern *p = NULL;
    int rc = -1;
    if (!src)
        return -1;
    arena_init(&arena);
    diag_init(&diag, path, src, len);
    ast = frontend_parse_check(path, src, len, &arena, &diag);
    for (int d = 0; diag.nerrors == 0 && d < ast->ndecls && !p; d++)
        if (ast->decls[d].kind == DECL_PATTERN)
            p = ast->decls[d].u.pattern;
    if (p) {
        const AstSchema *sc = p->schema;
        int na = sc->nattrs;
        Value *v = calloc(n * (size_t)na + 1, sizeof *v);
        bool *det = malloc(n + 1);
        if (!v || !det)
            abort();
        for (size_t i = 0; i < n; i++)
            for (int a = 0; a < na; a++) {
                const char *name = sc->attrs[a].name;
                Value *x = &v[i * (size_t)na + (size_t)sc->attrs[a].index];
                if (!strcmp(name, "type"))
                    x->i = rec ? (int64_t)rec[i].type : (int64_t)ty[i] - 'A';
                else if (!strcmp(name, "ts"))
                    x->i = rec ? (int64_t)rec[i].ts : (int64_t)i;
                else if (!strcmp(name, "val"))
                    x->f = rec ? (double)rec[i].val : 0.0;
            }
        Stream st = {(int)n, na, v};
        interp_detect(p, &st, NULL, det);
        *count = 0;
        for (size_t i = 0; i < n; i++)
            *count += det[i];
        free(v);
        free(det);
        rc = 0;
    } else {
        diag_flush(&diag, stderr);
    }
    diag_free(&diag);
    arena_free(&arena);
    free(src);
    return rc;
}
