/* check.h: the semantic checker, parsed Ast -> checked Ast (names and
 * types resolved in place, every semantic error of the file reported). */
#ifndef SREMC_CHECK_H
#define SREMC_CHECK_H

#include <stdbool.h>

#include "arena.h"
#include "ast.h"
#include "diag.h"

/* Resolves names and types in place and reports every semantic error of the
 * file to diag. Returns true (and sets ast->checked) when there were no
 * errors. Warnings do not fail it (unless diag->werror makes them errors).
 * Nodes it creates (the conditions of shorthand atoms) live in arena. */
bool check_ast(Ast *ast, Arena *arena, Diag *diag);

#endif
