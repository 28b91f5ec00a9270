/* test_parser.c: the bison grammar: shapes of trees (precedence,
 * flattening), clauses, error recovery and limits. Parse only, no checks. */
#include <stdlib.h>
#include <string.h>

#include "unit.h"

/* Dump of the body of `pattern p on S { BODY }`, without the header line. */
static void assert_body(const char *body, const char *want)
{
    char src[512];
    snprintf(src, sizeof src, "pattern p on S { %s }", body);
    Fixture fx;
    fx_run(&fx, src, false);
    ASSERT_CLEAN(&fx);
    const char *nl = strchr(fx.dump, '\n');
    CU_ASSERT_PTR_NOT_NULL_FATAL(nl);
    if (strcmp(nl + 1, want) != 0)
        fprintf(stderr, "\nbody: %s\nwant:\n%sgot:\n%s", body, want, nl + 1);
    CU_ASSERT_STRING_EQUAL(nl + 1, want);
    fx_done(&fx);
}

static void test_regex_precedence(void)
{
    /* loosest first: | & concatenation ~ postfix */
    assert_body("A | B & C D*",
                "  alt\n"
                "    atom A\n"
                "    and\n"
                "      atom B\n"
                "      seq\n"
                "        atom C\n"
                "        star\n"
                "          atom D\n");
    assert_body("~A B+ C?",
                "  seq\n"
                "    not\n"
                "      atom A\n"
                "    plus\n"
                "      atom B\n"
                "    opt\n"
                "      atom C\n");
    assert_body("~A*", "  not\n    star\n      atom A\n");
    /* postfix operators nest, they do not merge */
    assert_body("A{2}{3}*", "  star\n    repeat {3}\n      repeat {2}\n        atom A\n");
    assert_body("A{2} B{2,} _{0,8}",
                "  seq\n"
                "    repeat {2}\n      atom A\n"
                "    repeat {2,}\n      atom B\n"
                "    repeat {0,8}\n      atom _\n");
}

static void test_flattening(void)
{
    /* parentheses leave no node; nested sequences and unions flatten */
    assert_body("(A B) C (D (E))",
                "  seq\n    atom A\n    atom B\n    atom C\n    atom D\n    atom E\n");
    assert_body("A | (B | C) | D", "  alt\n    atom A\n    atom B\n    atom C\n    atom D\n");
    /* a label keeps its group apart (the checker rejects it later) */
    assert_body("A x:(B C)", "  seq\n    atom A\n    seq x:\n      atom B\n      atom C\n");
}

static void test_atoms(void)
{
    assert_body("x:T _ \"DTS fault\" y:[v > 1]",
                "  seq\n"
                "    atom x: T\n"
                "    atom _\n"
                "    atom \"DTS fault\"\n"
                "    atom y: [(v > 1)]\n");
}

static void test_expression_precedence(void)
{
    assert_body("[a + b * c == d || e && !f]",
                "  atom [(((a + (b * c)) == d) || (e && !f))]\n");
    assert_body("[not a == b and c or d]", "  atom [((!(a == b) && c) || d)]\n");
    assert_body("[a - b - c < -x.v % 2]", "  atom [(((a - b) - c) < (-x.v % 2))]\n");
    /* a minus in front of a literal is part of it */
    assert_body("[-9223372036854775808 < - -3]", "  atom [(-9223372036854775808 < --3)]\n");
    assert_body("[f() && g(1, h(x.a), \"s\")]", "  atom [(f() && g(1, h(x.a), \"s\"))]\n");
}

static void test_declarations(void)
{
    const char *src =
        "schema S { k : enum { A, \"b c\", }; i : int; f : float; b : bool; t : timestamp(ms); u : timestamp; }\n"
        "extern float dist(float lat, float, int);\n"
        "pattern p on S policy stam within 2 s partition by i { A } explore confidence 0.5 extensions;\n"
        "episode e on S within 10 events frequency distinct { A [i > 1] } alert when count >= 3;\n"
        "episode e2 on S within 3 min { A };\n";
    Fixture fx;
    fx_run(&fx, src, false);
    ASSERT_CLEAN(&fx);
    CU_ASSERT_STRING_EQUAL(fx.dump,
                           "schema S\n"
                           "  attr k: enum {A, \"b c\"}\n"
                           "  attr i: int\n"
                           "  attr f: float\n"
                           "  attr b: bool\n"
                           "  attr t: timestamp(ms)\n"
                           "  attr u: timestamp(s)\n"
                           "extern float dist(float, float, int)\n"
                           "pattern p on S partition by i within 2 s policy stam\n"
                           "  atom A\n"
                           "  explore extensions confidence 0.5\n"
                           "episode e on S within 10 events frequency distinct alert when count >= 3\n"
                           "  seq\n"
                           "    atom A\n"
                           "    atom [(i > 1)]\n"
                           "episode e2 on S within 3 min frequency nonoverlapped\n"
                           "  atom A\n");
    fx_done(&fx);
}

static void test_clause_errors(void)
{
    Fixture fx;
    fx_run(&fx,
           "pattern p on S within 1 events within 2 events frequency distinct { A }\n"
           "episode e on S policy stam within 1 s { A }\n"
           "episode f on S within 1 s { A } explore extensions;\n",
           false);
    ASSERT_DIAG(&fx, "t.srem:1:32: error: duplicate 'within' clause");
    ASSERT_DIAG(&fx, "t.srem:1:48: error: 'frequency' applies to episodes, not patterns");
    ASSERT_DIAG(&fx, "t.srem:2:16: error: 'policy' applies to patterns, not episodes");
    ASSERT_DIAG(&fx, "t.srem:3:33: error: unexpected 'explore'");
    fx_done(&fx);
}

static void test_recovery_reports_every_error(void)
{
    /* one mistake per declaration: each is found, and the declarations
       after each mistake still parse */
    const char *src =
        "schema S {\n"
        "    k : enum { A, B };\n"
        "    i : int\n"
        "    f : float;\n"
        "}\n"
        "pattern p on S within 10 events { A [i == ] B }\n"
        "pattern q on S within 10 evnts A B }\n"
        "extern bool f(int, int]\n"
        "pattern r on S { A B }\n";
    Fixture fx;
    fx_run(&fx, src, false);
    CU_ASSERT_EQUAL(fx.nsyntax, 4);
    ASSERT_DIAG(&fx, "t.srem:3:12: error: expected ';' after 'int'");
    ASSERT_DIAG(&fx, "t.srem:6:43: error: unexpected ']'");
    ASSERT_DIAG(&fx, "t.srem:7:32: error: expected 'partition', 'within', 'policy', 'frequency' or '{' before 'A'");
    ASSERT_DIAG(&fx, "t.srem:8:23: error: expected identifier, ')' or ',' before ']'");
    CU_ASSERT_PTR_NOT_NULL(strstr(fx.dump, "pattern r on S"));
    CU_ASSERT_PTR_NOT_NULL(strstr(fx.dump, "pattern p on S"));
    fx_done(&fx);
}

static void test_end_of_file(void)
{
    Fixture fx;
    fx_run(&fx, "pattern p on S { A B", false);
    ASSERT_DIAG(&fx, "t.srem:1:21: error: unexpected end of file after 'B'");
    CU_ASSERT_EQUAL(fx.nsyntax, 1);
    fx_done(&fx);
}

/* Deep nesting must give one clear error, never a crash. */
static void test_depth_limits(void)
{
    enum { N = 20000 };
    char *src = malloc(N * 8 + 64);
    strcpy(src, "pattern p on S { [a");
    size_t len = strlen(src);
    for (int i = 0; i < N; i++)
        len += (size_t)sprintf(src + len, " && a");
    strcpy(src + len, "] }");
    Fixture fx;
    fx_run(&fx, src, false);
    CU_ASSERT_EQUAL(fx.nsyntax, 1);
    ASSERT_DIAG(&fx, "error: expression nested more than 1000 deep");
    fx_done(&fx);

    strcpy(src, "pattern p on S { ");
    len = strlen(src);
    for (int i = 0; i < N; i++)
        src[len++] = '(';
    strcpy(src + len, "A");
    fx_run(&fx, src, false); /* the body's '{' counts too */
    CU_ASSERT_EQUAL(fx.nsyntax, 1);
    ASSERT_DIAG(&fx, "t.srem:1:273: error: brackets nested more than 256 deep");
    fx_done(&fx);

    strcpy(src, "pattern p on S { A");
    len = strlen(src);
    for (int i = 0; i < N; i++)
        src[len++] = '*';
    strcpy(src + len, " }");
    fx_run(&fx, src, false);
    CU_ASSERT_EQUAL(fx.nsyntax, 1);
    ASSERT_DIAG(&fx, "error: expression nested more than 1000 deep");
    fx_done(&fx);
    free(src);
}

void add_parser_tests(void)
{
    CU_pSuite suite = CU_add_suite("parser", NULL, NULL);
    CU_add_test(suite, "regex precedence", test_regex_precedence);
    CU_add_test(suite, "flattening", test_flattening);
    CU_add_test(suite, "atoms", test_atoms);
    CU_add_test(suite, "expression precedence", test_expression_precedence);
    CU_add_test(suite, "declarations", test_declarations);
    CU_add_test(suite, "clause errors", test_clause_errors);
    CU_add_test(suite, "recovery reports every error", test_recovery_reports_every_error);
    CU_add_test(suite, "end of file", test_end_of_file);
    CU_add_test(suite, "depth limits", test_depth_limits);
}
