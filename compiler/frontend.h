/* frontend.h: source file to checked Ast, the part of the pipeline that
 * `sremc check`, the dumps, the tests and the fuzzer share. */
#ifndef SREMC_FRONTEND_H
#define SREMC_FRONTEND_H

#include "ast.h"

/* Reads a whole file; NULL with errno set on failure. Caller frees. */
char *frontend_read_file(const char *path, size_t *len);

/* Parses and checks the declarations that parsed (unless the error limit
 * stopped the parse). Returns the Ast (never NULL); diag->nerrors says
 * whether it can be used. */
Ast *frontend_parse_check(const char *path, const char *src, size_t len, Arena *arena, Diag *diag);

#endif
