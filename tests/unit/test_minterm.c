/* test_minterm.c: atom normalization (one atom per comparison up to
 * negation and side order) and each rule of the sound minterm check. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "minterm.h"
#include "unit.h"

/* Conditions come from one pattern over this schema: atom i of the body
 * is the i-th condition (registers x, y). */
static const char SCHEMA[] =
    "schema S { t : enum { A, B, C }; a : int; b : int; c : int; v : float; w : float; ok : bool; }\n"
    "extern int f(int);\n";

typedef struct Conds {
    Fixture        fx;
    AstPattern    *p;
    const AstExpr *c[16];
    int            n;
    MtTable        mt;
    int            loc[2];   /* x and y: ages 1 and 2 */
} Conds;

static void collect(Conds *cs, const AstRegex *rx)
{
    if (rx->kind == RX_ATOM) {
        if (cs->n < 16)
            cs->c[cs->n++] = rx->cond;
        return;
    }
    for (int i = 0; i < rx->nkids; i++)
        collect(cs, rx->kids[i]);
}

/* body: a regex such as "[a < 3] [a >= 3]"; x and y are written by a
 * leading `x:_ y:_` so conditions may read them. */
static void conds_open(Conds *cs, const char *body)
{
    memset(cs, 0, sizeof *cs);
    char src[2048];
    snprintf(src, sizeof src, "%spattern p on S within 9 events { x:_ y:_ %s }\n", SCHEMA, body);
    fx_run(&cs->fx, src, true);
    if (cs->fx.nerrors)
        fprintf(stderr, "\n%s", cs->fx.diags);
    CU_ASSERT_EQUAL_FATAL(cs->fx.nerrors, 0);
    for (int i = 0; i < cs->fx.ast->ndecls; i++)
        if (cs->fx.ast->decls[i].kind == DECL_PATTERN)
            cs->p = cs->fx.ast->decls[i].u.pattern;
    collect(cs, cs->p->body);
    /* Skip x:_ y:_ (their conditions are NULL). */
    memmove(cs->c, cs->c + 2, (size_t)(cs->n - 2) * sizeof *cs->c);
    cs->n -= 2;
    mt_init(&cs->mt, &cs->fx.arena, cs->p, cs->p->nregs);
    cs->loc[0] = 1;
    cs->loc[1] = 2;
}

static const MtFormula *cond(Conds *cs, int i) { return mt_condition(&cs->mt, cs->c[i], cs->loc); }

static void conds_close(Conds *cs) { fx_done(&cs->fx); }

/* The formula as text, e.g. "!a0". */
static char *text(const MtFormula *f)
{
    char *s = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&s, &len);
    mt_dump_formula(f, m);
    fclose(m);
    return s;
}

static void assert_text(const MtFormula *f, const char *want)
{
    char *got = text(f);
    if (strcmp(got, want) != 0)
        fprintf(stderr, "\nwanted %s, got %s\n", want, got);
    CU_ASSERT_STRING_EQUAL(got, want);
    free(got);
}

/* ---- normalization --------------------------------------------------------------- */

static void test_int_relops(void)
{
    Conds cs;
    conds_open(&cs, "[a < b] [a >= b] [b > a] [b <= a] [a <= b] [b < a] [a > b]");
    assert_text(cond(&cs, 0), "a0");
    assert_text(cond(&cs, 1), "!a0");
    assert_text(cond(&cs, 2), "a0");
    assert_text(cond(&cs, 3), "!a0");
    assert_text(cond(&cs, 4), "!a1"); /* a <= b is !(b < a) */
    assert_text(cond(&cs, 5), "a1");
    assert_text(cond(&cs, 6), "a1");
    CU_ASSERT_EQUAL(cs.mt.natoms, 2);
    conds_close(&cs);
}

static void test_float_relops(void)
{
    /* With NaN, v >= w is not !(v < w): separate atoms; only swaps and != */
    Conds cs;
    conds_open(&cs, "[v < w] [v >= w] [w > v] [w <= v] [v == w] [w != v] [v < 3] [3.0 > v] [a < 2.5]");
    assert_text(cond(&cs, 0), "a0");
    assert_text(cond(&cs, 1), "a1");
    assert_text(cond(&cs, 2), "a0");
    assert_text(cond(&cs, 3), "a1");
    assert_text(cond(&cs, 4), "a2");
    assert_text(cond(&cs, 5), "!a2");
    assert_text(cond(&cs, 6), "a3");
    assert_text(cond(&cs, 7), "a3"); /* 3 and 3.0 are one constant for floats */
    assert_text(cond(&cs, 8), "a4");
    CU_ASSERT_EQUAL(cs.mt.atoms[4].dom, MT_FLOAT);
    CU_ASSERT_EQUAL(cs.mt.natoms, 5);
    conds_close(&cs);
}

static void test_enum_bool_atoms(void)
{
    Conds cs;
    conds_open(&cs, "[t == A] [A != t] [\"A\" == t] [ok] [ok == true] [ok != true] [!ok] [false == ok] A");
    assert_text(cond(&cs, 0), "a0");
    assert_text(cond(&cs, 1), "!a0");
    assert_text(cond(&cs, 2), "a0");
    assert_text(cond(&cs, 3), "a1");
    assert_text(cond(&cs, 4), "a1");
    assert_text(cond(&cs, 5), "!a1");
    assert_text(cond(&cs, 6), "!a1");
    assert_text(cond(&cs, 7), "!a1");
    assert_text(cond(&cs, 8), "a0"); /* the shorthand A is t == A */
    CU_ASSERT_EQUAL(cs.mt.natoms, 2);
    conds_close(&cs);
}

static void test_constants_fold(void)
{
    Conds cs;
    conds_open(&cs, "[1 < 2] [2 + 2 == 5] [a < 1 + 2] [a < 3] [1.0 / 0 > 1] [a == a / 0]");
    assert_text(cond(&cs, 0), "true");
    assert_text(cond(&cs, 1), "false");
    assert_text(cond(&cs, 2), "a0");
    assert_text(cond(&cs, 3), "a0");
    assert_text(cond(&cs, 4), "true");  /* float division: infinity */
    assert_text(cond(&cs, 5), "false"); /* integer division by zero: undefined */
    conds_close(&cs);
}

/* DEF: every integer divisor, nested ones too, and register emptiness. */
static void test_definedness(void)
{
    Conds cs;
    conds_open(&cs, "[!(a / b > 1)] [a % (b / c) == 0 || true] [a / 2 > 1] [a == x.a] [v / w > 1.0]");
    assert_text(cond(&cs, 0), "(!a0 && !a1)");
    /* (a % (b / c)): divisors b / c and c; the || true does not excuse them */
    assert_text(cond(&cs, 1), "(!a2 && !a3)"); /* a4, the == 0, folds away */
    assert_text(cond(&cs, 2), "a5");
    assert_text(cond(&cs, 3), "a6");
    assert_text(cond(&cs, 4), "a7"); /* float division is never undefined */
    /* x empty: false as a whole, even negated inside */
    CU_ASSERT_EQUAL(mt_condition(&cs.mt, cs.c[3], NULL)->kind, MF_FALSE);
    int empty_x[2] = {-1, 2};
    CU_ASSERT_EQUAL(mt_condition(&cs.mt, cs.c[3], empty_x)->kind, MF_FALSE);
    conds_close(&cs);
}

/* Registers are part of an atom's identity by location. */
static void test_register_locations(void)
{
    Conds cs;
    conds_open(&cs, "[a == x.a] [x.a == a] [a == y.a]");
    assert_text(cond(&cs, 0), "a0");
    assert_text(cond(&cs, 1), "a0");
    assert_text(cond(&cs, 2), "a1");
    int other[2] = {3, 2};
    assert_text(mt_condition(&cs.mt, cs.c[0], other), "a2");
    CU_ASSERT_EQUAL(cs.mt.atoms[0].regmap[0], 1);
    CU_ASSERT_EQUAL(cs.mt.atoms[2].regmap[0], 3);
    /* y's location does not matter to an atom that only reads x */
    int moved_y[2] = {1, 5};
    assert_text(mt_condition(&cs.mt, cs.c[0], moved_y), "a0");
    conds_close(&cs);
}

static void test_bool_iff(void)
{
    Conds cs;
    conds_open(&cs, "[ok == (a < b)] [(a < 3 && a < 3)]");
    assert_text(cond(&cs, 0), "((a0 && a1) || (!a0 && !a1))");
    assert_text(cond(&cs, 1), "(a2 && a2)");
    CU_ASSERT_EQUAL(cs.mt.natoms, 3);
    conds_close(&cs);
}

static void test_eval3_and_pick(void)
{
    Conds cs;
    conds_open(&cs, "[a < 1 || (b < 2 && c < 3)]");
    const MtFormula *f = cond(&cs, 0);
    signed char val[3] = {-1, -1, -1};
    CU_ASSERT_EQUAL(mt_eval3(f, val), -1);
    CU_ASSERT_EQUAL(mt_pick(f, val), 0);
    val[0] = 0;
    CU_ASSERT_EQUAL(mt_pick(f, val), 1);
    val[1] = 0;
    CU_ASSERT_EQUAL(mt_eval3(f, val), 0);
    CU_ASSERT_EQUAL(mt_pick(f, val), -1);
    val[1] = 1;
    val[2] = 1;
    CU_ASSERT_EQUAL(mt_eval3(f, val), 1);
    conds_close(&cs);
}

/* ---- satisfiability -------------------------------------------------------------------- */

/* The literal a condition stands for: its one atom, maybe negated; with
 * divisions, the last conjunct (DEF comes first). */
static MtLit main_lit(const MtFormula *f)
{
    bool neg = false;
    for (;;) {
        if (f->kind == MF_AND)
            f = f->b;
        else if (f->kind == MF_NOT)
            f = f->a, neg = !neg;
        else
            break;
    }
    CU_ASSERT_EQUAL(f->kind, MF_ATOM);
    return (MtLit){f->atom, neg};
}

/* Whether the cube of the given conditions' literals is kept. */
static bool sat_of(Conds *cs, const int *which, int n)
{
    MtLit lits[16];
    for (int i = 0; i < n; i++)
        lits[i] = main_lit(cond(cs, which[i]));
    return mt_satisfiable(&cs->mt, lits, n);
}

#define SAT(body, ...) check_sat(body, true, (int[]){__VA_ARGS__}, (int)(sizeof((int[]){__VA_ARGS__}) / sizeof(int)))
#define UNSAT(body, ...) check_sat(body, false, (int[]){__VA_ARGS__}, (int)(sizeof((int[]){__VA_ARGS__}) / sizeof(int)))

static void check_sat(const char *body, bool want, const int *which, int n)
{
    Conds cs;
    conds_open(&cs, body);
    bool got = sat_of(&cs, which, n);
    if (got != want)
        fprintf(stderr, "\n%s: wanted %s\n", body, want ? "kept" : "refuted");
    CU_ASSERT_EQUAL(got, want);
    conds_close(&cs);
}

static void test_sat_complement(void)
{
    UNSAT("[a < 3] [a >= 3]", 0, 1);
    UNSAT("[a == b] [b != a]", 0, 1);
    UNSAT("[ok] [!ok]", 0, 1);
    UNSAT("[f(a) < 3] [f(a) >= 3]", 0, 1); /* the same atom, even opaque */
    UNSAT("[a == x.a] [x.a != a]", 0, 1);
    UNSAT("[x.a == y.a] [y.a != x.a]", 0, 1);
    SAT("[a < 3] [a < 3]", 0, 1);
}

static void test_sat_int_intervals(void)
{
    UNSAT("[a < 3] [a > 5]", 0, 1);
    SAT("[a < 3] [a > 1]", 0, 1);
    UNSAT("[a < 3] [a > 1] [a != 2]", 0, 1, 2);
    UNSAT("[a == 2] [a == 3]", 0, 1);
    UNSAT("[a >= 3] [a <= 3] [a != 3]", 0, 1, 2);
    UNSAT("[a == 4] [a < 4]", 0, 1);
    SAT("[a >= 3] [a <= 4] [a != 3]", 0, 1, 2);
    UNSAT("[a + 1 < 3] [a + 1 > 5]", 0, 1);   /* the same arithmetic term */
    SAT("[a + 1 < 3] [a + 2 > 5]", 0, 1);     /* different terms: kept */
    UNSAT("[x.a < 0] [x.a > 0] [x.a != 0]", 0, 1, 2);
    SAT("[x.a < 0] [y.a > 0]", 0, 1);
    UNSAT("[a < -9223372036854775807 - 1]", 0); /* nothing is below INT64_MIN */
    UNSAT("[a > 9223372036854775807]", 0);
    SAT("[a >= 9223372036854775807]", 0);
}

static void test_sat_int_partial(void)
{
    /* a / b may be undefined: then both negations hold */
    SAT("[a / b < 3] [a / b > 5]", 0, 0);
    UNSAT("[a / b < 3] [a / b > 5]", 0, 1);
    SAT("[!(a / b < 5)] [!(a / b > 3)]", 0, 1);
    UNSAT("[!(a / b < 3)] [a / b < 1]", 0, 1); /* a positive literal proves it defined */
}

static void test_sat_float_intervals(void)
{
    UNSAT("[v < 3] [v > 5]", 0, 1);
    SAT("[v < 3.0] [v > 2.0]", 0, 1);
    SAT("[v <= 3] [v >= 3]", 0, 1);
    UNSAT("[v <= 3] [v >= 3] [v != 3]", 0, 1, 2);
    UNSAT("[v < 3] [v >= 3]", 0, 1);
    UNSAT("[v == 0.0] [v != -0.0]", 0, 1); /* -0 == +0 */
    /* NaN satisfies every negated comparison: !(v < 5) && !(v > 3) is kept */
    SAT("[!(v < 5)] [!(v > 3)]", 0, 1);
    SAT("[!(v <= 3)] [!(v > 3)]", 0, 1); /* not complements for floats */
    UNSAT("[!(a <= 3)] [!(a > 3)]", 0, 1); /* complements for ints */
    SAT("[v >= 3] [!(v >= 3)]", 1, 1);
    /* ...unless a positive comparison rules NaN out */
    UNSAT("[!(v < 3)] [v < 2]", 0, 1);
    UNSAT("[a < 2.5] [a > 2.5]", 0, 1); /* an int compared as a double */
    UNSAT("[v < 0.0 / 0.0]", 0);        /* nothing is below NaN */
    SAT("[!(v < 0.0 / 0.0)] [v < 1]", 0, 1);
}

static void test_sat_enum(void)
{
    UNSAT("[t == A] [t == B]", 0, 1);
    UNSAT("[t != A] [t != B] [t != C]", 0, 1, 2);
    SAT("[t != A] [t != B]", 0, 1);
    UNSAT("A [t != A]", 0, 1);
    UNSAT("[t == x.t] [t == A] [x.t == B]", 0, 1, 2);
    SAT("[t == x.t] [t == A] [y.t == B]", 0, 1, 2);
}

static void test_sat_term_equalities(void)
{
    UNSAT("[a == b] [b == c] [a != c]", 0, 1, 2);
    UNSAT("[a == b] [a < b]", 0, 1);
    UNSAT("[a == b] [a == 1] [b == 2]", 0, 1, 2);
    UNSAT("[a == b] [a < 1] [b > 1]", 0, 1, 2);
    SAT("[a == b] [a <= b]", 0, 1);
    UNSAT("[v == w] [v < w]", 0, 1);
    SAT("[!(v == w)] [!(w == v)]", 0, 1);
}

/* What must be kept: externs, registers compared with each other,
 * orderings between different terms, unmodelled shapes. */
static void test_sat_kept(void)
{
    SAT("[f(a) < 3] [f(a) > 5]", 0, 1);
    SAT("[x.a < y.a] [y.a < x.a]", 0, 1);
    SAT("[a < b] [b < a]", 0, 1);
    SAT("[a < b] [b < c] [c < a]", 0, 1, 2);
    SAT("[a * a < 0] [a < 5]", 0, 1);
    SAT("[a != b] [b != c] [a != c]", 0, 1, 2);
    SAT("[t != x.t] [t != y.t] [x.t != y.t] [t != C]", 0, 1, 2, 3); /* would need pigeonholes */
    SAT("[v < w] [!(v < w + 0.0)]", 0, 1);
}


/* Whole conditions that no event satisfies together (episode elements the
 * compiler may count with the exclusive greedy). */
static void check_disjoint(const char *body, bool want)
{
    Conds cs;
    conds_open(&cs, body);
    bool got = mt_disjoint(&cs.mt, cond(&cs, 0), cond(&cs, 1));
    if (got != want)
        fprintf(stderr, "\n%s: wanted %s\n", body, want ? "disjoint" : "overlapping");
    CU_ASSERT_EQUAL(got, want);
    conds_close(&cs);
}

static void test_disjoint(void)
{
    check_disjoint("A B", true);
    check_disjoint("A A", false);
    check_disjoint("A _", false);
    check_disjoint("[a > 1] [a < 0]", true);
    check_disjoint("[a > 0] [a > 1]", false);
    check_disjoint("[t == A && a > 1] [t == B || a < 1]", true);
    check_disjoint("[t == A && a > 1] [t == B || a < 2]", true);   /* ints: no a with 1 < a < 2 */
    check_disjoint("[t == A && a > 1] [t == B || a < 3]", false);
    check_disjoint("[(t == A || t == B) && a > 0] [t == C || a < 0]", true);
    check_disjoint("[f(a) > 1] [f(a) < 0]", false);   /* opaque: not reasoned about */
    check_disjoint("[a / b > 1] [a / b < 1]", true);   /* both need b != 0 and then differ */
    check_disjoint("[v < 1.0] [v > 2.0]", true);
    check_disjoint("[v < 1.0] [!(v < 1.0)]", true);
    check_disjoint("[!(v < 1.0)] [!(v >= 1.0)]", false);   /* NaN satisfies both */
}

void add_minterm_tests(void)
{
    CU_pSuite s = CU_add_suite("minterm", NULL, NULL);
    CU_add_test(s, "int relops: one atom up to negation", test_int_relops);
    CU_add_test(s, "float relops: swaps only", test_float_relops);
    CU_add_test(s, "enum and bool atoms", test_enum_bool_atoms);
    CU_add_test(s, "constants fold", test_constants_fold);
    CU_add_test(s, "definedness", test_definedness);
    CU_add_test(s, "register locations", test_register_locations);
    CU_add_test(s, "bool comparisons as iff", test_bool_iff);
    CU_add_test(s, "three-valued evaluation", test_eval3_and_pick);
    CU_add_test(s, "sat: complementary literals", test_sat_complement);
    CU_add_test(s, "sat: int intervals", test_sat_int_intervals);
    CU_add_test(s, "sat: possibly undefined terms", test_sat_int_partial);
    CU_add_test(s, "sat: float intervals and NaN", test_sat_float_intervals);
    CU_add_test(s, "sat: enum domains", test_sat_enum);
    CU_add_test(s, "sat: equalities between terms", test_sat_term_equalities);
    CU_add_test(s, "sat: kept", test_sat_kept);
    CU_add_test(s, "disjoint conditions", test_disjoint);
}
