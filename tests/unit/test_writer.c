/* test_writer.c: the template filler (cg_fill: holes, blocks, IF/END,
 * notes, errors) and the section writer (cg_line, cg_block). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "codegen/cg_impl.h"
#include "unit.h"

/* tpl filled with holes: the text (malloc'd), or NULL on an error, whose
 * message goes to *err (malloc'd) when err is not NULL. */
static char *fill(const char *tpl, const Hole *holes, int n, char **err)
{
    Diag diag;
    diag_init(&diag, "t.tpl", "", 0);
    char *text = NULL, *msg = NULL;
    size_t len = 0, mlen = 0;
    FILE *out = open_memstream(&text, &len);
    bool ok = cg_fill(tpl, "t.tpl", holes, n, &diag, out);
    fclose(out);
    FILE *m = open_memstream(&msg, &mlen);
    diag_flush(&diag, m);
    fclose(m);
    diag_free(&diag);
    if (err)
        *err = msg;
    else
        free(msg);
    if (!ok) {
        free(text);
        return NULL;
    }
    return text;
}

static void test_holes(void)
{
    Hole h[] = {{"P", "fire"}, {"N", "3"}};
    char *t = fill("int @@P@@_x = @@N@@;\nvoid @@P@@_f(void);\n", h, 2, NULL);
    CU_ASSERT_STRING_EQUAL(t, "int fire_x = 3;\nvoid fire_f(void);\n");
    free(t);
}

/* A hole alone on its line takes its column to every line; empty lines
 * stay empty; an empty block leaves out its line. */
static void test_blocks(void)
{
    Hole h[] = {{"BODY", "a();\nif (x)\n    b();\n\nc();"}, {"NONE", ""}};
    char *t = fill("{\n    @@BODY@@\n    @@NONE@@\n}\n", h, 2, NULL);
    CU_ASSERT_STRING_EQUAL(t, "{\n    a();\n    if (x)\n        b();\n\n    c();\n}\n");
    free(t);
}

static void test_conditions(void)
{
    Hole h[] = {{"YES", "1"}, {"NO", ""}, {"X", "x"}};
    const char *tpl = "@@# a note, left out\n"
                      "a\n"
                      "@@IF YES@@\n"
                      "b @@X@@\n"
                      "@@IF NO@@\n"
                      "c\n"
                      "@@END NO@@\n"
                      "@@IF !NO@@\n"
                      "d\n"
                      "@@END !NO@@\n"
                      "@@END YES@@\n"
                      "@@IF NO@@\n"
                      "@@IF YES@@\n"
                      "e\n"
                      "@@END YES@@\n"
                      "@@END NO@@\n"
                      "f\n";
    char *t = fill(tpl, h, 3, NULL);
    CU_ASSERT_STRING_EQUAL(t, "a\nb x\nd\nf\n");
    free(t);
}

/* A template and the generator out of step is an error, never output. */
static void test_errors(void)
{
    static const struct {
        const char *tpl, *want;
    } cases[] = {
        {"x @@B@@ y\n", "unknown hole 'B'"},
        {"@@IF A@@\nx\n", "IF without END 'A'"},
        {"@@IF A@@\nx\n@@END B@@\n", "END without its IF 'B'"},
        {"@@IF C@@\nx\n@@END C@@\n", "unknown condition 'C'"},
    };
    Hole h[] = {{"A", "1"}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char *err = NULL;
        CU_ASSERT_PTR_NULL(fill(cases[k].tpl, h, 1, &err));
        if (!strstr(err, cases[k].want))
            fprintf(stderr, "\nwanted: %s\ngot: %s", cases[k].want, err);
        CU_ASSERT(strstr(err, cases[k].want) != NULL);
        free(err);
    }
}

/* cg_line indents by level, a '\n' inside starts a line at the same
 * level; sections close without trailing newlines. */
static void test_lines(void)
{
    Buf b[2];
    cg_bufs_open(b, 2);
    cg_line(&b[0], 0, "if (m->p%d)", 3);
    cg_line(&b[0], 1, "for (;;)\n    step();");
    cg_begin(&b[1], 2);
    fputs("x = 1;", b[1].f);
    cg_end(&b[1]);
    cg_block(&b[1], 1, "y();\n\nz();");
    cg_bufs_close(b, 2);
    CU_ASSERT_STRING_EQUAL(b[0].text, "if (m->p3)\n    for (;;)\n        step();");
    CU_ASSERT_STRING_EQUAL(b[1].text, "        x = 1;\n    y();\n\n    z();");
    cg_bufs_free(b, 2);
    CU_ASSERT_PTR_NULL(b[0].text);
}

void add_writer_tests(void)
{
    CU_pSuite s = CU_add_suite("writer", NULL, NULL);
    CU_add_test(s, "holes", test_holes);
    CU_add_test(s, "block holes take their column", test_blocks);
    CU_add_test(s, "IF, IF !, END, notes", test_conditions);
    CU_add_test(s, "unknown holes and unbalanced IFs are errors", test_errors);
    CU_add_test(s, "lines at a nesting level", test_lines);
}
