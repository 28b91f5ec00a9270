/* unit.h: helpers shared by the CUnit suites: run the front end on a
 * string and capture its diagnostics and dumps as strings. */
#ifndef SREMC_UNIT_H
#define SREMC_UNIT_H

#include <CUnit/CUnit.h>

#include "ast.h"
#include "eval.h"

typedef struct Fixture {
    Arena  arena;
    Diag   diag;
    Ast   *ast;
    int    nerrors, nwarnings, nsyntax;
    char  *diags;        /* everything the diagnostics printed */
    char  *dump;         /* ast_dump_txt of the result */
} Fixture;

/* Parses (check = false) or parses and checks src as file "t.srem". */
void fx_run(Fixture *fx, const char *src, bool check);
void fx_done(Fixture *fx);

/* True if the diagnostics contain text. */
bool fx_has(const Fixture *fx, const char *text);

/* Asserts the file checks with no diagnostics at all. */
#define ASSERT_CLEAN(fx)                                   \
    do {                                                   \
        if ((fx)->diags[0])                                \
            fprintf(stderr, "\n%s", (fx)->diags);          \
        CU_ASSERT_STRING_EQUAL((fx)->diags, "");           \
    } while (0)

/* Asserts one diagnostic printed this exact text (e.g. "t.srem:3:5: error: ..."). */
#define ASSERT_DIAG(fx, text)                              \
    do {                                                   \
        if (!fx_has((fx), (text)))                         \
            fprintf(stderr, "\nwanted: %s\ngot:\n%s", (text), (fx)->diags); \
        CU_ASSERT(fx_has((fx), (text)));                   \
    } while (0)

/* The first pattern of a checked file, or NULL (the failure is asserted). */
const AstPattern *fx_first_pattern(const Fixture *fx);

/* Schema S of the interpreter tests, and events on it (test_interp.c). */
extern const char *const schema_s;
enum { S_T, S_V, S_K, S_TIME, S_NATTRS, S_MAX = 64 };

typedef struct Events {
    int   n;
    Value v[S_MAX * S_NATTRS];
} Events;

/* Events from tokens `T[v][/k][@time]` (t in A B C; v, k default 0; time
 * defaults to the event's 0-based index): "A1 B2/1 C@5". */
void events(Events *ev, const char *spec);

void add_diag_tests(void);
void add_lexer_tests(void);
void add_parser_tests(void);
void add_check_tests(void);
void add_interp_tests(void);
void add_canon_tests(void);
void add_unroll_tests(void);
void add_sra_tests(void);
void add_minterm_tests(void);
void add_dsra_tests(void);
void add_forecast_tests(void);
void add_shrink_tests(void);
void add_writer_tests(void);

#endif
