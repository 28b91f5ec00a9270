/* test_diag.c: diagnostics: the error limit, the quoted source line
 * (escapes, caret column, line endings) and suggestions. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "unit.h"

/* What diag_flush prints, as a string to free. */
static char *flushed(Diag *d)
{
    char *text = NULL;
    size_t size;
    FILE *f = open_memstream(&text, &size);
    diag_flush(d, f);
    fclose(f);
    return text;
}

static void assert_text(char *got, const char *want)
{
    if (strcmp(got, want) != 0)
        fprintf(stderr, "\nwanted:\n%s\ngot:\n%s", want, got);
    CU_ASSERT_STRING_EQUAL(got, want);
    free(got);
}

/* Past the limit nothing is kept, not even the notes and warnings of the
 * errors kept before; the counters count what is shown. */
static void test_error_limit(void)
{
    Diag d;
    diag_init(&d, "t.srem", "a\n", 2);
    d.max_errors = 2;
    diag_error(&d, (Loc){1, 1}, "one");
    diag_note(&d, (Loc){1, 1}, "note of one");
    diag_error(&d, (Loc){1, 1}, "two");
    CU_ASSERT(!diag_stopped(&d));
    diag_error(&d, (Loc){1, 1}, "three");
    diag_note(&d, (Loc){1, 1}, "note of three");
    diag_warning(&d, (Loc){1, 1}, "flag", "a warning");
    diag_syntax(&d, (Loc){1, 1}, "four");
    CU_ASSERT(diag_stopped(&d));
    CU_ASSERT_EQUAL(d.nerrors, 2);
    CU_ASSERT_EQUAL(d.nwarnings, 0);
    CU_ASSERT_EQUAL(d.nsyntax, 1); /* the declaration is broken all the same */
    assert_text(flushed(&d), "t.srem:1:1: error: one\n    a\n    ^\n"
                             "t.srem:1:1: note: note of one\n    a\n    ^\n"
                             "t.srem:1:1: error: two\n    a\n    ^\n"
                             "t.srem: error: too many errors emitted, stopping now [--max-errors=2]\n");
    diag_error(&d, (Loc){1, 1}, "five");
    assert_text(flushed(&d), ""); /* the limit line once, whatever flushes follow */
}

static void test_no_limit(void)
{
    Diag d;
    diag_init(&d, "t.srem", "", 0);
    for (int i = 0; i < 1000; i++)
        diag_error(&d, (Loc){0, 0}, "e%d", i);
    CU_ASSERT(!diag_stopped(&d));
    CU_ASSERT_EQUAL(d.nerrors, 1000);
    diag_free(&d);
}

/* Control bytes and bytes that are not UTF-8 show as \xNN and the caret
 * moves by the width of the escape; tabs are copied; UTF-8 is one column. */
static void test_escaped_line(void)
{
    static const char src[] = "x\x01\t\xc3\xa9\xff" "A\n";
    Diag d;
    diag_init(&d, "t.srem", src, sizeof src - 1);
    diag_error(&d, (Loc){1, 7}, "here");
    assert_text(flushed(&d), "t.srem:1:7: error: here\n"
                             "    x\\x01\t\xc3\xa9\\xffA\n"
                             "         \t     ^\n");
}

/* The line of a diagnostic comes from the index: the last line without a
 * newline, CR LF endings (the CR is not shown), a lone CR (shown). */
static void test_line_endings(void)
{
    static const char src[] = "one\r\ntw\ro\nthree";
    Diag d;
    diag_init(&d, "t.srem", src, sizeof src - 1);
    diag_error(&d, (Loc){3, 5}, "last");
    diag_error(&d, (Loc){2, 4}, "cr");
    diag_error(&d, (Loc){1, 2}, "crlf");
    diag_error(&d, (Loc){4, 1}, "past the end");
    assert_text(flushed(&d), "t.srem:1:2: error: crlf\n    one\n     ^\n"
                             "t.srem:2:4: error: cr\n    tw\\x0do\n          ^\n"
                             "t.srem:3:5: error: last\n    three\n        ^\n"
                             "t.srem:4:1: error: past the end\n");
}

static void test_closest(void)
{
    const char *names[] = {"first", "second", "third"};
    CU_ASSERT_STRING_EQUAL(diag_closest("frist", names, 3), "first");
    CU_ASSERT_PTR_NULL(diag_closest("zzzzzz", names, 3));
}

void add_diag_tests(void)
{
    CU_pSuite suite = CU_add_suite("diag", NULL, NULL);
    CU_add_test(suite, "error limit", test_error_limit);
    CU_add_test(suite, "no limit", test_no_limit);
    CU_add_test(suite, "escaped source line", test_escaped_line);
    CU_add_test(suite, "line endings", test_line_endings);
    CU_add_test(suite, "closest name", test_closest);
}
