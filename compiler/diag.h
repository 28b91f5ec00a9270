/* diag.h: diagnostics with file:line:col, the source line and a caret.
 * Stages report into a Diag; diag_flush prints them in source order. */
#ifndef SREMC_DIAG_H
#define SREMC_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct Loc {
    int line;   /* 1-based; 0 = no position (whole file) */
    int col;    /* 1-based byte column */
} Loc;

typedef enum DiagLevel { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } DiagLevel;

typedef struct DiagEntry {
    DiagLevel level;
    Loc       loc;
    int       seq;        /* order of report, to keep sorting stable */
    int       anchor;     /* notes sort with the entry they follow */
    Loc       anchor_loc; /* position of that entry: the sort key */
    char     *flag;       /* warnings: "-Wunused-register" style name */
    char     *message;
} DiagEntry;

typedef struct Diag {
    const char *path;     /* as the user named the file */
    const char *src;      /* whole source text, for the quoted line */
    size_t      len;
    int         nerrors, nwarnings;
    int         nsyntax;  /* lexer/parser errors: later stages do not run */
    bool        werror;   /* warnings count as errors */
    int         max_errors; /* errors kept; 0 = no limit (diag_init) */
    bool        stopped;  /* max_errors was passed: later reports are
                             dropped and the stages stop early */
    bool        stop_shown; /* the "too many errors" line was printed */
    DiagEntry  *entries;
    int         n, cap;
} Diag;

/* sremc's default --max-errors, like clang's -ferror-limit. */
enum { DIAG_MAX_ERRORS_DEFAULT = 20 };

void diag_init(Diag *d, const char *path, const char *src, size_t len);
void diag_free(Diag *d);

void diag_error(Diag *d, Loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void diag_syntax(Diag *d, Loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* flag names the warning without its "-W", e.g. "uninitialized-register". */
void diag_warning(Diag *d, Loc loc, const char *flag, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* A note attaches to the error or warning reported just before it. */
void diag_note(Diag *d, Loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Whether the error limit was passed: the lexer, the parser and the
 * checker stop there, so a file of garbage costs no more than 20 errors. */
static inline bool diag_stopped(const Diag *d) { return d->stopped; }

/* Prints every entry sorted by position (notes after their anchor), then
 * "too many errors" if the limit was passed, and forgets them; counters
 * are kept. Control bytes and bytes that are not UTF-8 in a quoted source
 * line are shown as \xNN, the caret still under its column. */
void diag_flush(Diag *d, FILE *out);

/* Levenshtein distance, for "did you mean" suggestions. */
int diag_distance(const char *a, const char *b);
/* The closest of names[0..n) to name, or NULL if none is close enough. */
const char *diag_closest(const char *name, const char *const *names, int n);

#endif
