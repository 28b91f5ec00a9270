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
    char        open_kind[256]; /* the open brackets, innermost last ... */
    Loc         open_loc[256];  /* ... and where they are */
    bool        mismatch;    /* the last closing bracket did not match: */
    char        mismatch_kind;  /* the bracket it should have closed */
    Loc         mismatch_loc;
    /* The parser sees one declaration at a time: a declaration keyword
     * (schema, pattern, episode, extern) after the first token ends it, so
     * no syntax error can swallow the next declaration. */
    int         decl_tokens; /* tokens handed out in this declaration */
    int         pending;     /* keyword held back for the next one, or 0 */
    union SREMSTYPE *pending_val;
    Loc         pending_loc;
    const char *pending_tok, *pending_end;
    /* What the declaration is, for one a syntax error leaves without a
     * tree: its keyword token and name (NULL until seen). */
    int         decl_keyword;
    const char *decl_name;
    Loc         decl_name_loc;
    bool        at_eof;      /* the real end of the file was reached */
    bool        stopped;     /* gave up on this declaration (nesting) */
    bool        unterminated;/* an unterminated string: later parse
                                errors in the declaration are its echo */
    Arena      *arena;
    Diag       *diag;
} Lexer;

/* Deepest bracket nesting accepted; beyond it the parse stops with one
 * clear error instead of exhausting the parser stack. */
enum { LEXER_MAX_NESTING = 256 };
_Static_assert(LEXER_MAX_NESTING <= 256, "Lexer.open_kind holds the open brackets");

void lexer_init(Lexer *lx, const char *src, size_t len, Arena *arena, Diag *diag);

/* Starts the next declaration: per-declaration state is reset. */
void lexer_next_declaration(Lexer *lx);

/* Token codes come from the bison-generated header. */
union SREMSTYPE;
struct SREMLTYPE;
int lexer_next(Lexer *lx, union SREMSTYPE *val, struct SREMLTYPE *loc);

#endif
