/* test_lexer.c: the re2c scanner: tokens, values, positions, errors. */
#include <stdlib.h>
#include <string.h>

#include "lexer.h"
#include "parser.h"
#include "unit.h"

typedef struct Tok {
    int        code;
    SREMSTYPE  val;
    SREMLTYPE  loc;
} Tok;

typedef struct Scan {
    Arena arena;
    Diag  diag;
    Tok   toks[512];
    int   n;
} Scan;

static void scan(Scan *s, const char *src, size_t len)
{
    memset(s, 0, sizeof *s);
    arena_init(&s->arena);
    diag_init(&s->diag, "t.srem", src, len);
    Lexer lx;
    lexer_init(&lx, src, len, &s->arena, &s->diag);
    while (s->n < 512) {
        Tok *t = &s->toks[s->n];
        t->code = lexer_next(&lx, &t->val, &t->loc);
        if (t->code == 0)
            break;
        s->n++;
    }
}

static void scan_done(Scan *s)
{
    diag_free(&s->diag);
    arena_free(&s->arena);
}

static void test_keywords_and_identifiers(void)
{
    Scan s;
    scan(&s, "pattern patterns _ _x within Within", 35);
    CU_ASSERT_EQUAL_FATAL(s.n, 6);
    CU_ASSERT_EQUAL(s.toks[0].code, TOK_PATTERN);
    CU_ASSERT_EQUAL(s.toks[1].code, TOK_IDENT);
    CU_ASSERT_STRING_EQUAL(s.toks[1].val.str, "patterns");
    CU_ASSERT_EQUAL(s.toks[2].code, TOK_ANY);
    CU_ASSERT_EQUAL(s.toks[3].code, TOK_IDENT);
    CU_ASSERT_EQUAL(s.toks[4].code, TOK_WITHIN);
    CU_ASSERT_EQUAL(s.toks[5].code, TOK_IDENT); /* keywords are case-sensitive */
    CU_ASSERT_EQUAL(s.diag.nerrors, 0);
    scan_done(&s);
}

static void test_numbers(void)
{
    const char *src = "42 3.5 1e-3 500ms 1.5s 18446744073709551615 18446744073709551616";
    Scan s;
    scan(&s, src, strlen(src));
    CU_ASSERT_EQUAL_FATAL(s.n, 9);
    CU_ASSERT_EQUAL(s.toks[0].code, TOK_NUMBER);
    CU_ASSERT_FALSE(s.toks[0].val.num.is_float);
    CU_ASSERT_EQUAL(s.toks[0].val.num.u, 42);
    CU_ASSERT_TRUE(s.toks[1].val.num.is_float);
    CU_ASSERT_DOUBLE_EQUAL(s.toks[1].val.num.f, 3.5, 1e-12);
    CU_ASSERT_TRUE(s.toks[2].val.num.is_float);
    CU_ASSERT_DOUBLE_EQUAL(s.toks[2].val.num.f, 1e-3, 1e-15);
    CU_ASSERT_STRING_EQUAL(s.toks[2].val.num.text, "1e-3");
    /* a unit glued to a number is a separate identifier */
    CU_ASSERT_EQUAL(s.toks[3].val.num.u, 500);
    CU_ASSERT_EQUAL(s.toks[4].code, TOK_IDENT);
    CU_ASSERT_STRING_EQUAL(s.toks[4].val.str, "ms");
    CU_ASSERT_EQUAL(s.toks[4].loc.first_column, 16);
    CU_ASSERT_STRING_EQUAL(s.toks[5].val.num.text, "1.5");
    CU_ASSERT_STRING_EQUAL(s.toks[6].val.str, "s");
    CU_ASSERT_FALSE(s.toks[7].val.num.overflow);
    CU_ASSERT_EQUAL(s.toks[7].val.num.u, UINT64_MAX);
    CU_ASSERT_TRUE(s.toks[8].val.num.overflow);
    scan_done(&s);
}

static void test_strings(void)
{
    const char *src = "\"DTS fault\" \"a\\\"b\\\\c\\n\\t\"";
    Scan s;
    scan(&s, src, strlen(src));
    CU_ASSERT_EQUAL_FATAL(s.n, 2);
    CU_ASSERT_EQUAL(s.toks[0].code, TOK_STRING);
    CU_ASSERT_STRING_EQUAL(s.toks[0].val.str, "DTS fault");
    CU_ASSERT_STRING_EQUAL(s.toks[1].val.str, "a\"b\\c\n\t");
    CU_ASSERT_EQUAL(s.diag.nerrors, 0);
    scan_done(&s);
}

static void test_operators(void)
{
    const char *src = "== != <= >= < > && || ! and or not | & ~ * + ? - / % : . , ; ( ) [ ] { }";
    static const int want[] = {
        TOK_EQ, TOK_NE, TOK_LE, TOK_GE, TOK_LT, TOK_GT, TOK_AND, TOK_OR, TOK_NOT, TOK_AND, TOK_OR,
        TOK_NOT, '|', '&', '~', '*', '+', '?', '-', '/', '%', ':', '.', ',', ';', '(', ')', '[', ']',
        '{', '}',
    };
    Scan s;
    scan(&s, src, strlen(src));
    CU_ASSERT_EQUAL_FATAL(s.n, (int)(sizeof want / sizeof want[0]));
    for (int i = 0; i < s.n; i++)
        CU_ASSERT_EQUAL(s.toks[i].code, want[i]);
    scan_done(&s);
}

static void test_positions_and_comments(void)
{
    const char *src = "# comment\r\n  // another\n\tfoo  bar # trailing\n  baz";
    Scan s;
    scan(&s, src, strlen(src));
    CU_ASSERT_EQUAL_FATAL(s.n, 3);
    CU_ASSERT_EQUAL(s.toks[0].loc.first_line, 3);
    CU_ASSERT_EQUAL(s.toks[0].loc.first_column, 2);
    CU_ASSERT_EQUAL(s.toks[1].loc.first_column, 7);
    CU_ASSERT_EQUAL(s.toks[2].loc.first_line, 4);
    CU_ASSERT_EQUAL(s.toks[2].loc.first_column, 3);
    scan_done(&s);
}

static void test_bad_characters(void)
{
    /* stray character, lone '=', NUL byte, non-ASCII, unterminated string:
       each reported, scanning goes on */
    const char src[] = "a @ b = c \0 d \xc3\xa9 e \"open";
    Scan s;
    scan(&s, src, sizeof src - 1);
    CU_ASSERT_EQUAL(s.diag.nsyntax, 5);
    CU_ASSERT_EQUAL_FATAL(s.n, 7);
    CU_ASSERT_STRING_EQUAL(s.toks[5].val.str, "e");
    CU_ASSERT_EQUAL(s.toks[6].code, TOK_STRING);
    CU_ASSERT_EQUAL(s.diag.entries[0].loc.col, 3);
    CU_ASSERT_STRING_EQUAL(s.diag.entries[0].message, "stray '@' in pattern file");
    CU_ASSERT_STRING_EQUAL(s.diag.entries[1].message, "'=' is not an operator; did you mean '=='?");
    CU_ASSERT_STRING_EQUAL(s.diag.entries[2].message, "stray NUL byte in source");
    scan_done(&s);
}

static void test_nesting_limit(void)
{
    char src[LEXER_MAX_NESTING + 10];
    memset(src, '(', sizeof src);
    Scan s;
    scan(&s, src, sizeof src);
    CU_ASSERT_EQUAL(s.n, LEXER_MAX_NESTING);
    CU_ASSERT_EQUAL(s.diag.nsyntax, 1);
    scan_done(&s);
}

void add_lexer_tests(void)
{
    CU_pSuite suite = CU_add_suite("lexer", NULL, NULL);
    CU_add_test(suite, "keywords and identifiers", test_keywords_and_identifiers);
    CU_add_test(suite, "numbers", test_numbers);
    CU_add_test(suite, "strings", test_strings);
    CU_add_test(suite, "operators", test_operators);
    CU_add_test(suite, "positions and comments", test_positions_and_comments);
    CU_add_test(suite, "bad characters", test_bad_characters);
    CU_add_test(suite, "nesting limit", test_nesting_limit);
}
