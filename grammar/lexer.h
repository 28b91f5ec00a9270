/* lexer.h: the re2c scanner's state. One Lexer per parse; no globals,
 * so several files can be scanned at once (fuzzers, tests). */
#ifndef SREMC_LEXER_H
#define SREMC_LEXER_H

#include "ast.h"

typedef struct Lexer {
    const char *src;         /* NUL-terminated copy of the file */
    const char *lim;         /* src + length: the terminating NUL */
    const char *cur, *mar, *tok;
    const char *line_start;
    int         line;
    /* The token before the current one, for "expected ';' after X". */
    const char *prev_tok, *prev_end;
    Loc         prev_loc;
    Loc         tok_loc;     /* position of the current token */
    int         nesting;     /* open ( [ { brackets */
    bool        stopped;     /* gave up (nesting limit): only EOF follows */
    Arena      *arena;
    Diag       *diag;
} Lexer;

/* Deepest bracket nesting accepted; beyond it the parse stops with one
 * clear error instead of exhausting the parser stack. */
enum { LEXER_MAX_NESTING = 256 };

void lexer_init(Lexer *lx, const char *src, size_t len, Arena *arena, Diag *diag);

/* Token codes come from the bison-generated header. */
union SREMSTYPE;
struct SREMLTYPE;
int lexer_next(Lexer *lx, union SREMSTYPE *val, struct SREMLTYPE *loc);

#endif
