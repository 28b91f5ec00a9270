/* test_check.c: the semantic checker: name resolution, types, registers,
 * policies, windows, explore and episode rules, with exact positions, and
 * the checked tree that later stages read. */
#include <string.h>

#include "frontend.h"
#include "unit.h"

/* Lines 1-7 of every run_sensor source: what follows starts at line 8. */
static const char *const sensor =
    "schema Sensor {\n"
    "    type  : enum { T, H };\n"
    "    id    : int;\n"
    "    value : float;\n"
    "    ok    : bool;\n"
    "    time  : timestamp(ms);\n"
    "}\n";

/* Checks sensor + rest; the fixture is left for the caller to inspect. */
static void run_sensor(Fixture *fx, const char *rest)
{
    char src[4096];
    snprintf(src, sizeof src, "%s%s", sensor, rest);
    fx_run(fx, src, true);
}

/* Checks src and asserts exactly the diagnostics given (a NULL-terminated
 * list of whole lines; notes not counted) with nerrors errors among them. */
static void expect_src(const char *src, int nerrors, const char *const *diags)
{
    Fixture fx;
    fx_run(&fx, src, true);
    int n = 0;
    for (int i = 0; diags[i]; i++) {
        char line[512]; /* the whole line, not a prefix of it */
        snprintf(line, sizeof line, "%s\n", diags[i]);
        ASSERT_DIAG(&fx, line);
        if (!strstr(diags[i], ": note: "))
            n++;
    }
    if (fx.nerrors != nerrors)
        fprintf(stderr, "\nwanted %d errors, got %d:\n%s", nerrors, fx.nerrors, fx.diags);
    CU_ASSERT_EQUAL(fx.nerrors, nerrors);
    CU_ASSERT_EQUAL(fx.nerrors + fx.nwarnings, n);
    CU_ASSERT_EQUAL(fx.ast->checked, nerrors == 0);
    fx_done(&fx);
}

/* expect_src on sensor + rest. */
static void expect(const char *rest, int nerrors, const char *const *diags)
{
    char src[4096];
    snprintf(src, sizeof src, "%s%s", sensor, rest);
    expect_src(src, nerrors, diags);
}

/* Asserts sensor + rest checks with no diagnostics at all. */
static void expect_clean(const char *rest)
{
    Fixture fx;
    run_sensor(&fx, rest);
    ASSERT_CLEAN(&fx);
    CU_ASSERT_TRUE(fx.ast->checked);
    fx_done(&fx);
}

/* Asserts the dump has this line (or lines). */
#define ASSERT_DUMP_HAS(fx, text)                                       \
    do {                                                                \
        if (!strstr((fx)->dump, (text)))                                \
            fprintf(stderr, "\nwanted in dump: %s\ngot:\n%s", (text), (fx)->dump); \
        CU_ASSERT_PTR_NOT_NULL(strstr((fx)->dump, (text)));             \
    } while (0)

static AstPattern *pattern_at(const Fixture *fx, int decl)
{
    CU_ASSERT_FATAL(decl < fx->ast->ndecls && fx->ast->decls[decl].kind == DECL_PATTERN);
    return fx->ast->decls[decl].u.pattern;
}

static AstEpisode *episode_at(const Fixture *fx, int decl)
{
    CU_ASSERT_FATAL(decl < fx->ast->ndecls && fx->ast->decls[decl].kind == DECL_EPISODE);
    return fx->ast->decls[decl].u.episode;
}

#define LINES(...) ((const char *const[]){__VA_ARGS__, NULL})

/* ---- names ------------------------------------------------------------- */

static void test_fire_checks_clean(void)
{
    Fixture fx;
    run_sensor(&fx, "pattern fire on Sensor within 10 events {\n"
                    "    x:T  _*  [type == H && id == x.id && value > 60]\n"
                    "}\n");
    ASSERT_CLEAN(&fx);
    CU_ASSERT_TRUE(fx.ast->checked);
    fx_done(&fx);
}

static void test_unknown_names(void)
{
    expect("pattern a on Sensr within 5 events { T }\n"
           "pattern b on Sensor partition by zone within 5 events { x:T [vlaue > 1 && id == x.idd] }\n"
           "pattern c on Sensor within 5 events { y:T [nead(id)] [id == yy.id] [id == zz.id && id == y.id] }\n"
           "pattern d on Sensor { [id == x.id] Hx }\n"
           "episode e on Building within 1 s { T }\n",
           10,
           LINES("t.srem:8:14: error: unknown schema 'Sensr'; did you mean 'Sensor'?",
                 "t.srem:9:34: error: unknown attribute 'zone' in schema 'Sensor'",
                 "t.srem:9:62: error: unknown attribute 'vlaue' in schema 'Sensor'; did you mean 'value'?",
                 "t.srem:9:83: error: unknown attribute 'idd' in schema 'Sensor'; did you mean 'id'?",
                 "t.srem:10:44: error: unknown function 'nead'",
                 "t.srem:10:61: error: unknown register 'yy'; did you mean 'y'?",
                 "t.srem:10:75: error: unknown register 'zz'",
                 "t.srem:11:30: error: unknown register 'x': pattern 'd' writes no registers",
                 "t.srem:11:36: error: unknown enum value 'Hx' in schema 'Sensor'",
                 "t.srem:12:14: error: unknown schema 'Building'"));
}

/* A misspelt name is one mistake per declaration, however often it is used. */
static void test_unknown_reported_once(void)
{
    expect("pattern a on Sensor { [vlaue > 1] [vlaue < 2 || vlaue == 0] Hx Hx }\n"
           "pattern b on Sensor { [vlaue > 1] }\n",
           3,
           LINES("t.srem:8:24: error: unknown attribute 'vlaue' in schema 'Sensor'; did you mean 'value'?",
                 "t.srem:8:61: error: unknown enum value 'Hx' in schema 'Sensor'",
                 "t.srem:9:24: error: unknown attribute 'vlaue' in schema 'Sensor'; did you mean 'value'?"));
}

static void test_duplicates(void)
{
    expect("schema Sensor { k : int; }\n"
           "schema Other { a : enum { X, \"X\" }; b : int; b : float; t : timestamp; u : timestamp(ms); }\n"
           "pattern a on Sensor { T }\n"
           "episode a on Sensor within 1 s { H }\n"
           "extern bool f(int);\n"
           "extern bool f(int);\n",
           6,
           LINES("t.srem:8:8: error: redefinition of schema 'Sensor'",
                 "t.srem:1:8: note: previous definition of 'Sensor' is here",
                 "t.srem:9:30: error: duplicate value 'X' in enum 'a'",
                 "t.srem:9:27: note: previous definition of 'X' is here",
                 "t.srem:9:46: error: duplicate attribute 'b' in schema 'Other'",
                 "t.srem:9:72: error: schema 'Other' has more than one timestamp attribute",
                 "t.srem:11:9: error: redefinition of 'a'",
                 "t.srem:10:9: note: previous definition of 'a' is here",
                 "t.srem:13:13: error: redefinition of extern function 'f'"));
}

/* ---- enum shorthands and string values ----------------------------------- */

static const char *const alarm =
    "schema Alarm {\n"
    "    kind : enum { low_voltage, \"DTS fault\", \"a\\\"b\" };\n"
    "    cell : int;\n"
    "    t    : timestamp(s);\n"
    "}\n";

static void test_string_values_clean(void)
{
    char src[1024];
    snprintf(src, sizeof src, "%s%s", alarm,
             "pattern p on Alarm {\n"
             "    \"DTS fault\" low_voltage \"low_voltage\" \"a\\\"b\"\n"
             "    [kind == \"DTS fault\"] [\"low_voltage\" != kind] [kind == low_voltage]\n"
             "}\n");
    Fixture fx;
    fx_run(&fx, src, true);
    ASSERT_CLEAN(&fx);
    ASSERT_DUMP_HAS(&fx, "    atom 1 \"DTS fault\" = [(kind == \"DTS fault\")]\n"
                         "    atom 2 low_voltage = [(kind == low_voltage)]\n"
                         "    atom 3 low_voltage = [(kind == low_voltage)]\n"
                         "    atom 4 \"a\\\"b\" = [(kind == \"a\\\"b\")]\n"
                         "    atom 5 [(kind == \"DTS fault\")]\n"
                         "    atom 6 [(low_voltage != kind)]\n");
    /* the strings became values of the enum, not strings */
    AstRegex *atom5 = pattern_at(&fx, 1)->body->kids[4];
    CU_ASSERT_EQUAL(atom5->cond->rhs->kind, EX_ENUMVAL);
    CU_ASSERT_EQUAL(atom5->cond->rhs->enum_value, 1);
    AstRegex *atom6 = pattern_at(&fx, 1)->body->kids[5];
    CU_ASSERT_EQUAL(atom6->cond->lhs->kind, EX_ENUMVAL);
    CU_ASSERT_EQUAL(atom6->cond->lhs->enum_value, 0);
    AstRegex *atom1 = pattern_at(&fx, 1)->body->kids[0];
    CU_ASSERT_EQUAL(atom1->value_index, 1);
    CU_ASSERT_STRING_EQUAL(atom1->value_attr->name, "kind");
    fx_done(&fx);
}

static void test_shorthand_errors(void)
{
    char src[1024];
    snprintf(src, sizeof src, "%s%s", alarm,
             "schema Net { src : enum { A, B, \"C D\" }; dst : enum { B, \"C D\" }; via : enum { B }; n : int; }\n"
             "pattern a on Alarm { low_voltag \"DTS faul\" cell }\n"
             "pattern b on Net { A B \"C D\" n }\n");
    expect_src(src, 6,
               LINES("t.srem:7:22: error: unknown enum value 'low_voltag' in schema 'Alarm'; "
                     "did you mean 'low_voltage'?",
                     "t.srem:7:33: error: unknown enum value 'DTS faul' in schema 'Alarm'; "
                     "did you mean 'DTS fault'?",
                     "t.srem:7:44: error: 'cell' is an attribute of schema 'Alarm', not an enum value",
                     "t.srem:8:22: error: 'B' is a value of 'src', 'dst' and 'via'; write [src == B]",
                     "t.srem:8:24: error: 'C D' is a value of both 'src' and 'dst'; write [src == \"C D\"]",
                     "t.srem:8:30: error: 'n' is an attribute of schema 'Net', not an enum value"));
    expect("pattern a on Sensor { ok }\n", 1,
           LINES("t.srem:8:23: error: 'ok' is a bool attribute, not an enum value; write [ok] to test it"));
}

/* ---- types ------------------------------------------------------------------ */

static void test_type_errors(void)
{
    expect("pattern a on Sensor { [type < H] [type == 1] [ok < false] [id % value == 0] [ok + 1 > 0] }\n"
           "pattern b on Sensor { [id] [!value] [ok && id] [-type == T] [id == \"1\"] [ok == 1] }\n"
           "pattern c on Sensor { [type == Q] [type != \"Hx\"] [T] [id == 9223372036854775808] }\n",
           15,
           LINES("t.srem:8:29: error: '<' cannot compare enum 'type' values; use '==' or '!='",
                 "t.srem:8:40: error: type mismatch: cannot compare enum 'type' with 'int'",
                 "t.srem:8:50: error: '<' cannot compare 'bool' values; use '==' or '!='",
                 "t.srem:8:63: error: '%' needs int operands, got 'float'",
                 "t.srem:8:81: error: '+' needs int or float operands, got 'bool'",
                 "t.srem:9:24: error: a condition must be 'bool', got 'int'",
                 "t.srem:9:29: error: '!' needs a bool operand, got 'float'",
                 "t.srem:9:41: error: '&&' needs bool operands, got 'int'",
                 "t.srem:9:49: error: unary '-' needs an int or float operand, got enum 'type'",
                 "t.srem:9:65: error: type mismatch: cannot compare 'int' with a string literal; a string literal "
                 "can only be compared with a string attribute, or with an enum attribute (as one of its values)",
                 "t.srem:9:77: error: type mismatch: cannot compare 'bool' with 'int'",
                 "t.srem:10:32: error: unknown name 'Q': neither an attribute of schema 'Sensor' "
                 "nor a value of enum 'type'",
                 "t.srem:10:44: error: \"Hx\" is not a value of enum 'type'",
                 "t.srem:10:51: error: 'T' is not an attribute of schema 'Sensor' but a value of enum "
                 "'type'; did you mean 'type == T'?",
                 "t.srem:10:61: error: integer literal 9223372036854775808 does not fit in a 64-bit 'int'"));
}

/* int and float mix, bools are conditions, the int64 range is exact. */
static void test_types_clean(void)
{
    expect_clean("extern bool near(float, float);\n"
                 "extern int twice(int);\n"
                 "pattern a on Sensor within 5 events {\n"
                 "    x:[ok] [x.ok && !ok] [ok == true || ok != x.ok] [id < value && value * 2 >= id / 3 + 1.5e-3]\n"
                 "    [id % 7 == -3 && -id > -9223372036854775808 && id <= 9223372036854775807]\n"
                 "    [near(id, value) && twice(id) > value && type != x.type && H == type && \"T\" == type]\n"
                 "}\n");
}

static void test_extern_calls(void)
{
    expect("extern bool near(float, float);\n"
           "extern bool main(int);\n"
           "pattern a on Sensor { [near(value)] [near(id, ok)] [near] }\n",
           4,
           LINES("t.srem:9:13: error: 'main' is reserved in C and cannot name an extern function",
                 "t.srem:10:24: error: 'near' takes 2 arguments, got 1",
                 "t.srem:8:13: note: 'near' is declared here",
                 "t.srem:10:47: error: argument 2 of 'near' must be 'float', got 'bool'",
                 "t.srem:10:53: error: 'near' is a function, not an attribute of schema 'Sensor'; "
                 "call it: 'near(...)'"));
}

/* A value of another enum is not unknown: say whose value it is, and
 * against a non-enum it is a type mismatch naming its enum(s). Each use is
 * reported, like other type errors. */
static void test_values_of_other_enums(void)
{
    expect_src("schema Net { src : enum { A, B }; dst : enum { B, C }; port : int; ok : bool; }\n"
               "pattern a on Net { [src == C] [dst != \"A\"] [port == B] [ok == A] }\n"
               "pattern b on Net { [B == port] [\"A\" < ok] [C != src] [src == C] [dst == B && src == B] }\n",
               8,
               LINES("t.srem:2:28: error: 'C' is not a value of enum 'src' (it is a value of 'dst')",
                     "t.srem:2:39: error: \"A\" is not a value of enum 'dst' (it is a value of 'src')",
                     "t.srem:2:50: error: type mismatch: cannot compare 'int' with value 'B' of enums "
                     "'src' and 'dst'",
                     "t.srem:2:60: error: type mismatch: cannot compare 'bool' with value 'A' of enum 'src'",
                     "t.srem:3:23: error: type mismatch: cannot compare value 'B' of enums 'src' and 'dst' "
                     "with 'int'",
                     "t.srem:3:37: error: type mismatch: cannot compare value \"A\" of enum 'src' with 'bool'",
                     "t.srem:3:44: error: 'C' is not a value of enum 'src' (it is a value of 'dst')",
                     "t.srem:3:62: error: 'C' is not a value of enum 'src' (it is a value of 'dst')"));
}

/* A string literal compares only with an enum attribute, as its value. */
static void test_string_literals_compare_with_enums(void)
{
    expect("pattern a on Sensor { [\"a\" == \"b\"] [\"x\" != value] [\"T\" == type] }\n", 2,
           LINES("t.srem:8:28: error: cannot compare two string literals: a string literal can only be "
                 "compared with a string attribute, or with an enum attribute (as one of its values)",
                 "t.srem:8:41: error: type mismatch: cannot compare a string literal with 'float'; a string "
                 "literal can only be compared with a string attribute, or with an enum attribute (as one of its "
                 "values)"));
}

/* Short names get only a case fix; the other side is never suggested. */
static void test_suggestions(void)
{
    expect("pattern a on Sensor within 5 events { y:T [id == z.id] [Id > 1] [Q] [ok == OK] [type == t] "
           "[value > valeu] [vlaue > 1] }\n",
           7,
           LINES("t.srem:8:50: error: unknown register 'z'; did you mean 'y'?",
                 "t.srem:8:57: error: unknown attribute 'Id' in schema 'Sensor'; did you mean 'id'?",
                 "t.srem:8:66: error: unknown attribute 'Q' in schema 'Sensor'",
                 "t.srem:8:76: error: unknown attribute 'OK' in schema 'Sensor'",
                 "t.srem:8:89: error: unknown name 't': neither an attribute of schema 'Sensor' nor a value "
                 "of enum 'type'; did you mean 'T'?",
                 "t.srem:8:101: error: unknown attribute 'valeu' in schema 'Sensor'",
                 "t.srem:8:109: error: unknown attribute 'vlaue' in schema 'Sensor'; did you mean 'value'?"));
    expect_src("schema K { k : enum { X, Y }; n : int; }\n"
               "pattern a on K { [k == D] [n == m] }\n",
               2,
               LINES("t.srem:2:24: error: unknown name 'D': neither an attribute of schema 'K' nor a value "
                     "of enum 'k'",
                     "t.srem:2:33: error: unknown attribute 'm' in schema 'K'"));
}

/* The partition attribute and the conditions share the report-once rule. */
static void test_partition_reported_once(void)
{
    expect("pattern a on Sensor partition by idd within 5 events { x:T [id == x.idd && idd > 0] }\n"
           "pattern b on Sensor within 5 events { x:T [id == x.idd] }\n",
           2,
           LINES("t.srem:8:34: error: unknown attribute 'idd' in schema 'Sensor'; did you mean 'id'?",
                 "t.srem:9:52: error: unknown attribute 'idd' in schema 'Sensor'; did you mean 'id'?"));
}

/* Integer '/' and '%' by a constant 0 make the condition always false. */
static void test_division_by_zero_warns(void)
{
    expect("pattern a on Sensor { [id / 0 > 1] [id % 0 == 0] [!(id / (2 - 2) > 0)] [id % -0 == 0] }\n"
           "pattern b on Sensor { [value / 0 > 1] [id / 0.0 > 1] [id / 1 > 0 && id % (3 - 2) == 0] }\n"
           "episode c on Sensor within 1 s { [id / 0 > 1] }\n",
           0,
           LINES("t.srem:8:27: warning: integer division by zero: the condition is always false "
                 "[-Wdivision-by-zero]",
                 "t.srem:8:40: warning: integer remainder by zero: the condition is always false "
                 "[-Wdivision-by-zero]",
                 "t.srem:8:56: warning: integer division by zero: the condition is always false "
                 "[-Wdivision-by-zero]",
                 "t.srem:8:76: warning: integer remainder by zero: the condition is always false "
                 "[-Wdivision-by-zero]",
                 "t.srem:10:38: warning: integer division by zero: the condition is always false "
                 "[-Wdivision-by-zero]"));
}

/* ---- registers -------------------------------------------------------------- */

static void test_register_writers(void)
{
    expect("pattern a on Sensor within 9 events { x:(T H) y:(T | H) z:(T)* [id == x.id && id == y.id && id == z.id] }\n"
           "pattern b on Sensor within 9 events { ~(w:T H) [id == w.id] }\n",
           3,
           LINES("t.srem:8:39: error: register 'x' can only be written by a single-event atom",
                 "t.srem:8:47: error: register 'y' can only be written by a single-event atom",
                 "t.srem:9:41: error: register 'w' cannot be written inside '~'"));
}

static void test_register_and(void)
{
    expect("pattern a on Sensor within 9 events { (x:T _ & x:_ H) [id == x.id] }\n"
           "pattern b on Sensor within 9 events { ([id == y.id] _ & y:T _) [id == y.id] }\n"
           "pattern c on Sensor within 9 events { (z:T _ & _ H) [id == z.id] }\n",
           2,
           LINES("t.srem:8:48: error: register 'x' is written in both operands of '&'",
                 "t.srem:8:40: note: 'x' is also written here",
                 "t.srem:9:47: error: register 'y' is written in another operand of '&', "
                 "so it cannot be read here",
                 "t.srem:9:57: note: 'y' is written here"));
}

static void test_register_needs_window(void)
{
    expect("pattern a on Sensor { x:T [id == x.id] }\n"
           "pattern b on Sensor { T _* H }\n",
           1,
           LINES("t.srem:8:9: error: pattern 'a' writes registers, so it needs a window: add a 'within' clause",
                 "t.srem:8:23: note: register 'x' is written here"));
}

/* A read no path can have preceded by a write warns, and the check passes
 * (expect checks ast->checked); reads some path may follow a write do not. */
static void test_uninitialized_register_warns(void)
{
    expect("pattern a on Sensor within 9 events { [id == x.id] x:T [id == x.id] }\n"
           "pattern b on Sensor within 9 events { x:[id == x.id] (y:T | H) [id == y.id] }\n"
           "pattern c on Sensor within 9 events { ([id == z.id] z:T)+ (w:T)? [id == w.id] }\n",
           0,
           LINES("t.srem:8:46: warning: register 'x' is read before any path can have written it "
                 "[-Wuninitialized-register]",
                 "t.srem:9:48: warning: register 'x' is read before any path can have written it "
                 "[-Wuninitialized-register]"));
}

static void test_unused_register_warns(void)
{
    expect("pattern a on Sensor within 9 events { x:T y:H [id == y.id] }\n", 0,
           LINES("t.srem:8:39: warning: register 'x' is written but never read [-Wunused-register]"));
}

/* After an unknown register ('frist' for 'first') the unused-register
 * warning would only repeat the mistake; other declarations still warn. */
static void test_unknown_register_silences_unused(void)
{
    expect("pattern a on Sensor within 10 events { first:T y:H _* [id == frist.id] }\n"
           "pattern b on Sensor within 10 events { first:T _* [id > 0] }\n",
           1,
           LINES("t.srem:8:62: error: unknown register 'frist'; did you mean 'first'?",
                 "t.srem:9:40: warning: register 'first' is written but never read [-Wunused-register]"));
}

/* --werror: the same warning is an error and the check fails. */
static void test_werror(void)
{
    char src[1024];
    snprintf(src, sizeof src, "%s%s", sensor, "pattern a on Sensor within 9 events { [id == x.id] x:T }\n");
    Arena arena;
    Diag diag;
    arena_init(&arena);
    diag_init(&diag, "t.srem", src, strlen(src));
    diag.werror = true;
    Ast *ast = frontend_parse_check("t.srem", src, strlen(src), &arena, &diag);
    CU_ASSERT_EQUAL(diag.nerrors, 1);
    CU_ASSERT_EQUAL(diag.nwarnings, 0);
    CU_ASSERT_FALSE(ast->checked);
    FILE *f = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    diag_flush(&diag, f);
    char text[512] = "";
    rewind(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "t.srem:8:46: error: register 'x' is read before any path can "
                                        "have written it [-Werror=uninitialized-register]\n"));
    diag_free(&diag);
    arena_free(&arena);
}

/* ---- policies, windows, complements ------------------------------------------- */

static void test_policy_plain_sequence(void)
{
    expect("pattern a on Sensor policy stnm { T (H | T) }\n"
           "pattern b on Sensor policy stam { T H* }\n"
           "pattern c on Sensor within 9 events policy stam { ((T) x:[ok] _ (H)) [id == x.id] }\n",
           2,
           LINES("t.srem:8:21: error: policy 'stnm' needs a body that is a plain sequence of single-event atoms",
                 "t.srem:8:38: note: here is a union ('|')",
                 "t.srem:9:21: error: policy 'stam' needs a body that is a plain sequence of single-event atoms",
                 "t.srem:9:37: note: here is a repetition ('*')"));
}

static void test_window_errors(void)
{
    expect("pattern a on Sensor within 500 us { T }\n"
           "pattern b on Sensor within 0 s { T }\n"
           "pattern c on Sensor within 2 weeks { T }\n"
           "pattern d on Sensor within 0 events { T }\n"
           "pattern e on Sensor within 1.5 events { T }\n"
           "schema Plain { k : enum { K }; }\n"
           "pattern f on Plain within 3 min { K }\n"
           "episode g on Plain { K }\n",
           7,
           LINES("t.srem:8:28: error: 500 us is not a whole number of ms (the unit of timestamp 'time')",
                 "t.srem:9:28: error: a time window must be positive, got 0 s",
                 "t.srem:10:30: error: unknown time unit 'weeks'; units are ns, us, ms, s, min, h and d",
                 "t.srem:11:28: error: a count window must be at least 1, got 0",
                 "t.srem:12:28: error: a count window must be a whole number, got 1.5",
                 "t.srem:14:20: error: a time window needs a timestamp attribute, and schema 'Plain' has none",
                 "t.srem:15:9: error: episode 'g' needs a window: add a 'within' clause"));
}

/* Durations become whole numbers of the timestamp unit. */
static void test_window_values(void)
{
    Fixture fx;
    fx_run(&fx,
           "schema S { k : enum { A, B }; t : timestamp(s); }\n"
           "schema M { k : enum { A, B }; t : timestamp(ms); }\n"
           "pattern a on S within 3 min { A }\n"
           "pattern b on M within 1.5 s { A }\n"
           "pattern c on M within 2 h { A }\n"
           "pattern d on M within 7 events { A }\n"
           "episode e on S within 1 d { A B }\n",
           true);
    ASSERT_CLEAN(&fx);
    CU_ASSERT_EQUAL(pattern_at(&fx, 2)->hdr.window.value, 180);
    CU_ASSERT_EQUAL(pattern_at(&fx, 3)->hdr.window.value, 1500);
    CU_ASSERT_EQUAL(pattern_at(&fx, 4)->hdr.window.value, 7200000);
    CU_ASSERT_EQUAL(pattern_at(&fx, 5)->hdr.window.value, 7);
    CU_ASSERT_EQUAL(episode_at(&fx, 6)->hdr.window.value, 86400);
    ASSERT_DUMP_HAS(&fx, "pattern a on S within 3 min [180 s] policy strict\n");
    fx_done(&fx);
}

static void test_complement_needs_count_window(void)
{
    expect("pattern a on Sensor { T ~H }\n"
           "pattern b on Sensor within 5 s { T ~H }\n"
           "pattern c on Sensor within 5 events { T ~(H H) }\n",
           2,
           LINES("t.srem:8:25: error: '~' needs a count window: add 'within N events'",
                 "t.srem:9:36: error: '~' needs a count window: add 'within N events'"));
}

/* ---- numbers ------------------------------------------------------------------- */

static void test_number_ranges(void)
{
    expect("pattern a on Sensor { T{3,1} H{0} T{1.5} H{-1} T{2147483648} H{0,2147483647} }\n"
           "episode b on Sensor within 1 s { T } alert when count >= 0;\n"
           "pattern c on Sensor within 99999999999999999999 events { T }\n"
           "pattern d on Sensor within 9223372036854775807 events { T }\n",
           6,
           LINES("t.srem:8:27: error: the repetition maximum 1 is smaller than the minimum 3",
                 "t.srem:8:32: warning: a repetition of at most 0 times matches only the empty sequence "
                 "[-Wempty-repetition]",
                 "t.srem:8:37: error: a repetition bound must be a whole number, got 1.5",
                 "t.srem:8:44: error: a repetition bound must be at least 0, got -1",
                 "t.srem:8:50: error: a repetition bound must be at most 2147483647, got 2147483648",
                 "t.srem:9:58: error: the alert count must be at least 1, got 0",
                 "t.srem:10:28: error: a count window must be at most 9223372036854775807, "
                 "got 99999999999999999999"));
}

static void test_partition(void)
{
    expect("pattern a on Sensor partition by value { T }\n"
           "pattern b on Sensor partition by time { T }\n"
           "pattern c on Sensor partition by type { T }\n"
           "pattern d on Sensor partition by ok { T }\n",
           2,
           LINES("t.srem:8:34: error: cannot partition by float attribute 'value'; use an int, enum, bool or string attribute",
                 "t.srem:9:34: error: cannot partition by the timestamp attribute 'time'"));
}

/* A float32 attribute is a float in conditions (no '%'), and no key. */
static void test_float32(void)
{
    expect_src("schema R { t : enum { A }; f : float32; }\n"
               "pattern a on R partition by f { A }\n"
               "pattern b on R within 2 events { x:A [f % 2 == 0 && f > x.f + 1] }\n"
               "pattern c on R within 2 events { x:A [f > x.f + 1 && f * 2 < 1.5] }\n",
               2,
               LINES("t.srem:2:29: error: cannot partition by float32 attribute 'f'; use an int, enum, bool or string attribute",
                     "t.srem:3:41: error: '%' needs int operands, got 'float'"));
}

/* ---- episodes and explore --------------------------------------------------------- */

static void test_episode_elements(void)
{
    expect("episode a on Sensor within 1 s { T H* (T | H) x:T [id == x.id] ~T }\n", 5,
           LINES("t.srem:8:36: error: an episode element must be one event (an enum value, [COND] or _), "
                 "not a repetition ('*')",
                 "t.srem:8:40: error: an episode element must be one event (an enum value, [COND] or _), "
                 "not a union ('|')",
                 "t.srem:8:47: error: an episode element cannot store events in registers",
                 "t.srem:8:58: error: an episode element cannot read registers",
                 "t.srem:8:64: error: an episode element must be one event (an enum value, [COND] or _), "
                 "not a complement ('~')"));
}

static const char *const building =
    "schema B { zone : enum { N, S }; kind : enum { Rise, Fan, Power }; t : timestamp; }\n";

static void test_explore_errors(void)
{
    char src[2048];
    snprintf(src, sizeof src, "%s%s", building,
             "pattern a on B within 1 s { Rise Fan } explore extensions confidence 0.5;\n"
             "pattern b on B within 1 s policy stnm { Rise Fan } explore extensions;\n"
             "pattern c on B within 1 s policy stnm { Rise Fan } explore confidence 1.01;\n"
             "pattern d on B within 1 s policy stam { Rise } explore variations confidence 0.5;\n"
             "pattern e on B within 1 s policy stam { Rise [t > 1] } explore variations confidence -1;\n"
             "pattern f on B within 1 s policy stam { Rise N } explore variations confidence 0.5;\n"
             "pattern g on B within 1 s policy stam { Rise Fan Power } explore extensions confidence 0.5;\n");
    expect_src(src, 8,
               LINES("t.srem:2:40: error: explore needs 'policy stnm' or 'policy stam'",
                     "t.srem:3:52: error: explore needs a threshold: add 'confidence' and a number "
                     "between 0 and 1",
                     "t.srem:4:52: error: explore needs 'extensions', 'variations' or both",
                     "t.srem:4:71: error: confidence must be between 0 and 1, got 1.01",
                     "t.srem:5:41: error: explore needs a sequence of at least 2 enum values, got one atom",
                     "t.srem:6:46: error: explore needs a sequence of enum values; this element is a condition",
                     "t.srem:6:86: error: confidence must be between 0 and 1, got -1",
                     "t.srem:7:46: error: explore needs values of one enum: 'N' is a value of 'zone', "
                     "not of 'kind'",
                     "t.srem:8:58: warning: explore has no candidates: every value of 'kind' is in the "
                     "pattern [-Wexplore-no-candidates]"));
}

static void test_explore_clean(void)
{
    Fixture fx;
    char src[1024];
    snprintf(src, sizeof src, "%s%s", building,
             "pattern p on B within 10 min policy stnm { Rise Fan } explore extensions variations confidence 0;\n"
             "pattern q on B within 10 min policy stam { (Rise (Fan)) } explore variations confidence 1;\n");
    fx_run(&fx, src, true);
    ASSERT_CLEAN(&fx);
    CU_ASSERT_PTR_EQUAL(pattern_at(&fx, 1)->explore_attr, &fx.ast->decls[0].u.schema->attrs[1]);
    CU_ASSERT_DOUBLE_EQUAL(pattern_at(&fx, 2)->explore.threshold, 1.0, 0.0);
    ASSERT_DUMP_HAS(&fx, "  explore extensions variations confidence 0 over kind\n");
    fx_done(&fx);
}

/* ---- whole files ---------------------------------------------------------------------- */

/* Every independent mistake of a file is reported in one run. */
static void test_many_errors_in_one_file(void)
{
    Fixture fx;
    run_sensor(&fx, "pattern a on Sensr { T }\n"
                    "pattern b on Sensor within 500 us { T }\n"
                    "pattern c on Sensor within 0 events { [vlaue > 1] }\n"
                    "pattern d on Sensor policy stam { T* }\n"
                    "pattern e on Sensor { ~T x:(T H) }\n"
                    "episode f on Sensor { T H* } alert when count >= 0;\n"
                    "pattern g on Sensor within 1 s { T } explore confidence 7;\n"
                    "pattern h on Sensor { [id % 2.0 == 1] [type < H] Warm [ok + 1] }\n");
    CU_ASSERT_EQUAL(fx.nerrors, 18);
    CU_ASSERT_EQUAL(fx.nwarnings, 0);
    CU_ASSERT_FALSE(fx.ast->checked);
    ASSERT_DIAG(&fx, "t.srem:8:14: error: unknown schema 'Sensr'; did you mean 'Sensor'?\n");
    ASSERT_DIAG(&fx, "t.srem:15:59: error: '+' needs int or float operands, got 'bool'\n");
    fx_done(&fx);
}

/* What later stages read: shorthand conditions, registers in order of first
 * write, positions 1..n, partition attributes and episode elements. */
static void test_checked_tree(void)
{
    Fixture fx;
    run_sensor(&fx, "pattern p on Sensor partition by type within 9 events {\n"
                    "    y:T (x:H | y:_) [id == x.id && value > y.value] z:_* [z.ok]\n"
                    "}\n"
                    "episode e on Sensor partition by id within 2 s { T [ok] _ H }\n");
    ASSERT_CLEAN(&fx);
    ASSERT_DUMP_HAS(&fx, "pattern p on Sensor partition by type within 9 events policy strict\n"
                         "  registers y x z\n"
                         "  seq\n"
                         "    atom 1 y: T = [(type == T)]\n"
                         "    alt\n"
                         "      atom 2 x: H = [(type == H)]\n"
                         "      atom 3 y: _\n"
                         "    atom 4 [((id == x.id) && (value > y.value))]\n"
                         "    star\n"
                         "      atom 5 z: _\n"
                         "    atom 6 [z.ok]\n");
    AstPattern *p = pattern_at(&fx, 1);
    CU_ASSERT_EQUAL(p->nregs, 3);
    CU_ASSERT_EQUAL(p->natoms, 6);
    CU_ASSERT_PTR_EQUAL(p->partition_attr, &p->schema->attrs[0]);
    CU_ASSERT_EQUAL(p->body->kids[0]->reg, 0);
    CU_ASSERT_EQUAL(p->body->kids[1]->kids[0]->reg, 1);
    CU_ASSERT_EQUAL(p->body->kids[1]->kids[1]->reg, 0);
    CU_ASSERT_EQUAL(p->body->kids[2]->cond->lhs->rhs->reg, 1);
    CU_ASSERT_EQUAL(p->body->kids[2]->cond->lhs->rhs->kind, EX_REGATTR);
    CU_ASSERT_EQUAL(p->body->kids[0]->cond->lhs->kind, EX_ATTR);
    CU_ASSERT_EQUAL(p->body->kids[0]->cond->rhs->kind, EX_ENUMVAL);
    AstEpisode *e = episode_at(&fx, 2);
    CU_ASSERT_PTR_EQUAL(e->partition_attr, &e->schema->attrs[1]);
    CU_ASSERT_EQUAL(e->hdr.window.value, 2000);
    CU_ASSERT_EQUAL_FATAL(e->nelements, 4);
    for (int i = 0; i < 4; i++) {
        CU_ASSERT_PTR_EQUAL(e->elements[i], e->body->kids[i]);
        CU_ASSERT_EQUAL(e->elements[i]->position, i + 1);
    }
    CU_ASSERT_STRING_EQUAL(e->elements[3]->value_attr->name, "type");
    CU_ASSERT_EQUAL(e->elements[3]->value_index, 1);
    fx_done(&fx);
}

/* Both kinds of error in one run: the declarations that parsed are
 * checked; one with a syntax error is not, nor are uses of a schema or an
 * extern that has one; a name lost with its declaration is not unknown. */
static void test_syntax_and_semantic_errors(void)
{
    expect("schema Half { a : int; b : ; }\n"
           "extern bool gone(int x y)\n"
           "pattern p on Sensor { T ( H }\n"
           "pattern q on Half { [a > 1 && zz > 2] }\n"
           "pattern r on Sensor { [gone(id)] [idd > 1] }\n"
           "pattern s on Sensor { [typ == H] }\n"
           "pattern t on Sensor within 3 events { x:T [id == y.id] }\n",
           6,
           LINES("t.srem:8:28: error: expected 'int', 'float', 'float32', 'bool', 'enum', 'timestamp' or 'string' before ';'",
                 "t.srem:9:24: error: expected ')' or ',' before 'y'",
                 "t.srem:10:29: error: unexpected '}'",
                 "t.srem:10:25: note: '(' opened here is not closed",
                 "t.srem:12:35: error: unknown attribute 'idd' in schema 'Sensor'; did you mean 'id'?",
                 "t.srem:13:24: error: unknown attribute 'typ' in schema 'Sensor'; did you mean 'type'?",
                 "t.srem:14:50: error: unknown register 'y'; did you mean 'x'?",
                 "t.srem:14:39: note: register 'x' is written here"));
}

void add_check_tests(void)
{
    CU_pSuite suite = CU_add_suite("check", NULL, NULL);
    CU_add_test(suite, "fire checks clean", test_fire_checks_clean);
    CU_add_test(suite, "unknown names", test_unknown_names);
    CU_add_test(suite, "unknown names reported once", test_unknown_reported_once);
    CU_add_test(suite, "duplicates", test_duplicates);
    CU_add_test(suite, "string values clean", test_string_values_clean);
    CU_add_test(suite, "shorthand errors", test_shorthand_errors);
    CU_add_test(suite, "type errors", test_type_errors);
    CU_add_test(suite, "types clean", test_types_clean);
    CU_add_test(suite, "values of other enums", test_values_of_other_enums);
    CU_add_test(suite, "string literals compare with enums", test_string_literals_compare_with_enums);
    CU_add_test(suite, "suggestions", test_suggestions);
    CU_add_test(suite, "partition reported once", test_partition_reported_once);
    CU_add_test(suite, "division by zero warns", test_division_by_zero_warns);
    CU_add_test(suite, "extern calls", test_extern_calls);
    CU_add_test(suite, "register writers", test_register_writers);
    CU_add_test(suite, "registers and '&'", test_register_and);
    CU_add_test(suite, "registers need a window", test_register_needs_window);
    CU_add_test(suite, "uninitialized register warns", test_uninitialized_register_warns);
    CU_add_test(suite, "unused register warns", test_unused_register_warns);
    CU_add_test(suite, "unknown register silences unused", test_unknown_register_silences_unused);
    CU_add_test(suite, "werror", test_werror);
    CU_add_test(suite, "policy needs a plain sequence", test_policy_plain_sequence);
    CU_add_test(suite, "window errors", test_window_errors);
    CU_add_test(suite, "window values", test_window_values);
    CU_add_test(suite, "complement needs a count window", test_complement_needs_count_window);
    CU_add_test(suite, "number ranges", test_number_ranges);
    CU_add_test(suite, "partition", test_partition);
    CU_add_test(suite, "float32", test_float32);
    CU_add_test(suite, "episode elements", test_episode_elements);
    CU_add_test(suite, "explore errors", test_explore_errors);
    CU_add_test(suite, "explore clean", test_explore_clean);
    CU_add_test(suite, "many errors in one file", test_many_errors_in_one_file);
    CU_add_test(suite, "checked tree", test_checked_tree);
    CU_add_test(suite, "syntax and semantic errors", test_syntax_and_semantic_errors);
}
