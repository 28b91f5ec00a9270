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
    DiagEntry  *entries;
    int         n, cap;
} Diag;

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

/* Prints every entry sorted by position (notes after their anchor) and
 * forgets them; counters are kept. */
void diag_flush(Diag *d, FILE *out);

/* Levenshtein distance, for "did you mean" suggestions. */
int diag_distance(const char *a, const char *b);
/* The closest of names[0..n) to name, or NULL if none is close enough. */
const char *diag_closest(const char *name, const char *const *names, int n);

#endif
