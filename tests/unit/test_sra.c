/* test_sra.c: SRA construction, epsilon elimination and simulator against
 * hand-computed detections and the reference interpreter; dumps, budgets. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../diff/gen.h"
#include "../diff/shrink.h"
#include "interp.h"
#include "sra_build.h"
#include "unit.h"

/* ---- helpers ---------------------------------------------------------------------------- */

static const char *const schema_e =
    "schema E { t : enum { A, B, C }; v : int; k : int; time : timestamp(s); }\n";
enum { E_T, E_V, E_K, E_TIME, E_NATTRS };

/* Events of E from text: "A B:3 C:1:2@7" is type, then optional :v and
 * :k, then optional @time (default: the previous time, 0 at first).
 * Returns the count; values has room for 64 events. */
static int parse_events(const char *text, Value *values)
{
    int n = 0;
    int64_t time = 0;
    const char *c = text;
    while (*c) {
        while (*c == ' ')
            c++;
        if (!*c)
            break;
        Value *e = values + (size_t)n * E_NATTRS;
        e[E_T].i = *c++ - 'A';
        e[E_V].i = e[E_K].i = 0;
        if (*c == ':')
            e[E_V].i = strtoll(c + 1, (char **)&c, 10);
        if (*c == ':')
            e[E_K].i = strtoll(c + 1, (char **)&c, 10);
        if (*c == '@')
            time = strtoll(c + 1, (char **)&c, 10);
        e[E_TIME].i = time;
        n++;
    }
    return n;
}

static void det_text(const bool *det, int n, char *out)
{
    for (int k = 0; k < n; k++)
        out[k] = det[k] ? '1' : '.';
    out[n] = '\0';
}

/* Checks that pattern (a declaration on E) detects want ("..1.1", one
 * character per event) on events, with both the epsilon SRA and the
 * epsilon-free one, and that the reference interpreter agrees. */
static void expect_on(const char *schema, int nattrs, const char *pattern, const Value *values, int n,
                      const char *want)
{
    char src[4096];
    snprintf(src, sizeof src, "%s%s\n", schema, pattern);
    Fixture fx;
    fx_run(&fx, src, true);
    const AstPattern *p = fx_first_pattern(&fx);
    if (!p) {
        fx_done(&fx);
        return;
    }
    Sra *sra = sra_from_pattern(p, &fx.arena, &fx.diag, SRA_MAX_STATES_DEFAULT);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sra);
    Sra *nfa = sra_eps_free(sra, &fx.arena);
    Stream s = {n, nattrs, values};
    bool det[64];
    char got[65];
    const Sra *stages[2] = {sra, nfa};
    const char *names[2] = {"sra", "nfa"};
    for (int i = 0; i < 2; i++) {
        sra_simulate(stages[i], &s, NULL, det);
        det_text(det, n, got);
        if (strcmp(got, want) != 0)
            fprintf(stderr, "\n%s (%s): want %s, got %s\n", pattern, names[i], want, got);
        CU_ASSERT_STRING_EQUAL(got, want);
    }
    interp_detect(p, &s, NULL, det);
    det_text(det, n, got);
    if (strcmp(got, want) != 0)
        fprintf(stderr, "\n%s (interp): want %s, got %s\n", pattern, want, got);
    CU_ASSERT_STRING_EQUAL(got, want);
    fx_done(&fx);
}

static void expect(const char *pattern, const char *events, const char *want)
{
    Value values[64 * E_NATTRS];
    int n = parse_events(events, values);
    CU_ASSERT_EQUAL_FATAL((size_t)n, strlen(want));
    expect_on(schema_e, E_NATTRS, pattern, values, n, want);
}

/* ---- operators ---------------------------------------------------------------------------- */

static void test_atoms(void)
{
    expect("pattern p on E { A }", "A B A C", "1.1.");
    expect("pattern p on E { _ }", "A B C", "111");
    expect("pattern p on E { [v > 2] }", "A:1 B:3 C:5", ".11");
    expect("pattern p on E { [t != A && v == 0] }", "A B:1 C", "..1");
}

static void test_seq_alt(void)
{
    expect("pattern p on E { A B }", "A B A A B", ".1..1");
    expect("pattern p on E { A B C }", "A B C B C", "..1..");
    expect("pattern p on E { A | B C }", "B C A C", ".11.");
    expect("pattern p on E { (A | B) (B | C) }", "A A C B B", "..1.1");
}

static void test_loops(void)
{
    expect("pattern p on E { A* B }", "A A B B C", "..11.");
    expect("pattern p on E { A+ B }", "B A A B", "...1");
    expect("pattern p on E { A? B }", "B A B C B", "1.1.1");
    expect("pattern p on E { A+ }", "A A B A", "11.1");
    expect("pattern p on E { (A B)* C }", "A B A B C C A C", "....11.1");
    /* a star inside a plus: the loops must not leak into each other */
    expect("pattern p on E { (A* B)+ C }", "A C B A B C", "....." "1");
}

static void test_repeat(void)
{
    expect("pattern p on E { A{2} }", "A A A B A", ".11..");
    expect("pattern p on E { A{2,} B }", "A B A A B A A A B", "....1...1");
    expect("pattern p on E { A{1,2} B }", "A A A B B", "...1.");
    expect("pattern p on E { C A{2,3} B }", "C A B C A A B C A A A A B", "......1......");
    expect("pattern p on E { C A{0,1} B }", "C B C A B C A A B", ".1..1....");
    expect("pattern p on E { (A B){2} }", "A B A B A B", "...1.1");
}

/* The SRA paper's running example: a temperature reading, then within
 * 10 events a humidity reading of the same sensor above 60. */
static void test_fire(void)
{
    static const char *const sensor =
        "schema Sensor { type : enum { T, H }; id : int; value : float; ok : bool; time : timestamp(ms); }\n";
    static const struct {
        int    type, id;
        double value;
    } evs[] = {
        {0, 1, 22}, {1, 1, 45}, {0, 2, 30}, {1, 2, 70}, /* 4: id 2 */
        {1, 1, 65},                                    /* 5: id 1, from event 1 */
        {1, 3, 90},                                    /* 6: no T of id 3 yet */
        {0, 3, 25}, {1, 4, 61}, {1, 1, 59}, {0, 4, 10}, {1, 9, 61}, {1, 9, 61},
        {1, 9, 61}, {1, 9, 61}, {1, 9, 61},
        {1, 3, 80},                                    /* 16: T of id 3 at 7, 10 events */
        {0, 5, 20}, {1, 5, 60},                        /* 18: not above 60 */
        {1, 4, 99},                                    /* 19: T of id 4 at 10, 10 events */
        {1, 4, 99},                                    /* 20: 11 events: out */
    };
    enum { N = sizeof evs / sizeof evs[0] };
    Value values[N * 5];
    for (int k = 0; k < N; k++) {
        values[k * 5 + 0].i = evs[k].type;
        values[k * 5 + 1].i = evs[k].id;
        values[k * 5 + 2].f = evs[k].value;
        values[k * 5 + 3].i = 1;
        values[k * 5 + 4].i = 1000 * k;
    }
    expect_on(sensor, 5, "pattern fire on Sensor within 10 events { x:T _* [type == H && id == x.id && value > 60] }",
              values, N, "...11..........1..1.");
}

static void test_registers(void)
{
    /* x is stored by the first atom; y reads x before it is stored */
    expect("pattern p on E within 5 events { x:A [v > x.v] }", "A:1 B:2 A:3 B:3 B:4", ".1...");
    expect("pattern p on E within 5 events { x:_ y:[v > x.v] [v == x.v + y.v] }", "A:1 B:2 C:3 C:5 C:8",
           "..111");
    /* a register rewritten in a loop holds the latest event */
    expect("pattern p on E within 5 events { (x:_)+ [v == x.v] }", "A:1 A:2 A:2 A:1", "..1.");
    /* an empty register makes the whole condition false, negated or not */
    expect("pattern p on E within 5 events { (x:A)? [!(v == x.v)] }", "B:1 A:1 B:2", "..1");
}

static void test_count_window(void)
{
    expect("pattern p on E within 3 events { A _* B }", "A C B", "..1");
    expect("pattern p on E within 3 events { A _* B }", "A C C B", "....");
    expect("pattern p on E within 1 events { A }", "A B A", "1.1");
    expect("pattern p on E within 2 events { x:A [v == x.v]* B }", "A:1 B:1 A:1 A:1 B", ".1..1");
}

static void test_time_window(void)
{
    expect("pattern p on E within 2 s { A _* B }", "A@0 C@1 B@2", "..1");
    expect("pattern p on E within 2 s { A _* B }", "A@0 C@1 B@3", "...");
    /* equal timestamps: any number of events fits */
    expect("pattern p on E within 1 s { A _* B }", "A@5 C C C B", "....1");
    expect("pattern p on E within 2 s { A _* B }", "A@0 A@2 B@4 B@5", "..1.");
}

static void test_policies(void)
{
    /* strict is contiguous; stam and stnm skip */
    expect("pattern p on E within 5 events { x:A [v > x.v] C }", "A:1 B:0 B:2 C", "....");
    expect("pattern p on E within 5 events policy stam { x:A [v > x.v] C }", "A:1 B:0 B:2 C", "...1");
    expect("pattern p on E within 5 events policy stnm { x:A [v > x.v] C }", "A:1 B:0 B:2 C", "...1");
    /* stnm takes the first y above x (5), then finds nothing above it */
    expect("pattern p on E within 6 events policy stam { x:A y:[v > x.v] [v > y.v] }", "A:1 B:5 B:2 C:3",
           "...1");
    expect("pattern p on E within 6 events policy stnm { x:A y:[v > x.v] [v > y.v] }", "A:1 B:5 B:2 C:3",
           "....");
    /* windows count from the first atom */
    expect("pattern p on E within 3 events policy stam { A B }", "A C C B A C B", "......1");
    expect("pattern p on E policy stnm { A _ C }", "A C C B C", "..1..");
    expect("pattern p on E policy stam { A _ C }", "A C C B C", "..1.1");
    expect("pattern p on E within 2 s policy stam { A B }", "A@0 C@1 B@2 B@3", "..1.");
    /* each start has its own chain */
    expect("pattern p on E within 4 events policy stnm { x:A [v == x.v] }", "A:1 A:2 B:2 B:1", "..11");
    expect("pattern p on E within 3 events policy stnm { x:A [v == x.v] }", "A:1 A:2 B:2 B:1", "..1.");
}

static void test_partition(void)
{
    expect("pattern p on E partition by k { A B }", "A:0:1 A:0:2 B:0:1 B:0:2", "..11");
    expect("pattern p on E { A B }", "A:0:1 A:0:2 B:0:1 B:0:2", "..1.");
    /* count windows count the partition's own events */
    expect("pattern p on E partition by k within 2 events { A _* B }", "A:0:1 C:0:2 C:0:2 B:0:1", "...1");
    expect("pattern p on E within 2 events { A _* B }", "A:0:1 C:0:2 C:0:2 B:0:1", "....");
    expect("pattern p on E partition by k within 2 events { x:A [v > x.v] }", "A:1:1 A:5:2 B:2:1 B:3:2", "..1.");
    expect("pattern p on E partition by t within 1 s { A A }", "A@0 B A@1 B A@3", "..1..");
}

static void test_complement(void)
{
    expect("pattern p on E within 3 events { A ~(B) }", "A B", "..");
    expect("pattern p on E within 3 events { A ~(B) }", "A C", ".1");
    expect("pattern p on E within 3 events { A ~(B) }", "A B C", "..1");
    expect("pattern p on E within 3 events { A ~(B) }", "A B C C", "..1.");
    /* only non-empty strings */
    expect("pattern p on E within 2 events { ~(A) }", "A B A", ".11");
    expect("pattern p on E within 2 events { ~(A*) }", "A B A", ".11");
    expect("pattern p on E within 3 events { ~(_* B _*) }", "A C B", "11.");
    /* reads a register written outside */
    expect("pattern p on E within 4 events { x:A ~([v == x.v]*) }", "A:1 B:1 B:2 C:1", "..11");
    /* double complement within the window */
    expect("pattern p on E within 2 events { ~~(A B) }", "A B B", ".1.");
}

static void test_intersection(void)
{
    expect("pattern p on E within 4 events { (A _*) & (_* B) }", "A C B", "..1");
    expect("pattern p on E within 4 events { (A _*) & (_* B) }", "C B A B", "...1");
    expect("pattern p on E within 4 events { (A _*) & (_* B) }", "A A A A B", "....1");
    expect("pattern p on E within 4 events { (A _*) & (_* B) }", "A A A A A B", ".....1");
    expect("pattern p on E within 3 events { (x:A [v > x.v]) & (_ B) }", "A:1 B:2 A:1 B:0 A:1 C:5", ".1....");
    expect("pattern p on E within 3 events { (_ _) & (A B) & (A _) }", "A B A C", ".1..");
    expect("pattern p on E { [v > 1] & [v < 3] }", "A:1 A:2 A:3", ".1.");
}

/* ---- epsilon elimination, dumps, budgets ------------------------------------------------------- */

/* Builds the first pattern of src (on E) into sra and nfa. */
static bool build_both(Fixture *fx, const char *pattern, Sra **sra, Sra **nfa)
{
    char src[4096];
    snprintf(src, sizeof src, "%s%s\n", schema_e, pattern);
    fx_run(fx, src, true);
    const AstPattern *p = fx_first_pattern(fx);
    *sra = p ? sra_from_pattern(p, &fx->arena, &fx->diag, SRA_MAX_STATES_DEFAULT) : NULL;
    *nfa = *sra ? sra_eps_free(*sra, &fx->arena) : NULL;
    return *nfa != NULL;
}

static void test_eps_free_shape(void)
{
    static const char *const patterns[] = {
        "pattern p on E { (A* B?)* C }",
        "pattern p on E within 5 events { x:A ~([v == x.v] B) | (_ & A) }",
        "pattern p on E { ((A | B)+ C{1,3})? A }",
    };
    for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++) {
        Fixture fx;
        Sra *sra, *nfa;
        if (build_both(&fx, patterns[i], &sra, &nfa)) {
            bool *fwd = calloc((size_t)nfa->nstates, 1);
            fwd[nfa->start] = true;
            for (bool changed = true; changed;) {
                changed = false;
                for (int t = 0; t < nfa->ntrans; t++) {
                    CU_ASSERT_FALSE(nfa->trans[t].eps);
                    if (fwd[nfa->trans[t].from] && !fwd[nfa->trans[t].to])
                        fwd[nfa->trans[t].to] = changed = true;
                }
            }
            for (int s = 0; s < nfa->nstates; s++)
                CU_ASSERT_TRUE(fwd[s]);
            CU_ASSERT_TRUE(nfa->nstates <= sra->nstates);
            free(fwd);
        }
        fx_done(&fx);
    }
}

static char *dump_of(const Sra *sra, bool dot)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (dot)
        sra_dump_dot(sra, "p", f);
    else
        sra_dump_txt(sra, f);
    fclose(f);
    return text;
}

static void test_dump_txt(void)
{
    Fixture fx;
    Sra *sra, *nfa;
    if (build_both(&fx, "pattern p on E within 3 events { x:A [v > x.v]* ~(B) }", &sra, &nfa)) {
        char *txt = dump_of(nfa, false);
        /* '!' sorts before '(': skips are numbered first */
        const char *want = "automaton p: 5 states, 9 transitions, register x\n"
                           "  start 0\n"
                           "  final 2\n"
                           "  0 -> 1  [(t == A)] / x  @1\n"
                           "  1 -> 2  [!(t == B)]\n"
                           "  1 -> 3  [(t == B)]\n"
                           "  1 -> 4  [(v > x.v)]  @2\n"
                           "  2 -> 2  _\n"
                           "  3 -> 2  _\n"
                           "  4 -> 2  [!(t == B)]\n"
                           "  4 -> 3  [(t == B)]\n"
                           "  4 -> 4  [(v > x.v)]  @2\n";
        if (strcmp(txt, want) != 0)
            fprintf(stderr, "\n%s", txt);
        CU_ASSERT_STRING_EQUAL(txt, want);
        free(txt);
        txt = dump_of(sra, false);
        CU_ASSERT_PTR_NOT_NULL(strstr(txt, "eps\n"));
        free(txt);
    }
    fx_done(&fx);
}

static void test_dump_dot(void)
{
    Fixture fx;
    char src[1024];
    snprintf(src, sizeof src,
             "schema Q { s : enum { \"say \\\"hi\\\"\", \"back\\\\slash\", \"caf\xc3\xa9\" }; }\n"
             "pattern q on Q { \"say \\\"hi\\\"\" \"back\\\\slash\" \"caf\xc3\xa9\" }\n");
    fx_run(&fx, src, true);
    const AstPattern *p = fx_first_pattern(&fx);
    Sra *sra = p ? sra_from_pattern(p, &fx.arena, &fx.diag, 1000) : NULL;
    if (sra) {
        char *dot = dump_of(sra, true);
        CU_ASSERT_PTR_NOT_NULL(strstr(dot, "digraph \"p\" {"));
        CU_ASSERT_PTR_NOT_NULL(strstr(dot, ", shape=doublecircle];"));
        CU_ASSERT_PTR_NOT_NULL(strstr(dot, "__start -> 0;"));
        CU_ASSERT_PTR_NOT_NULL(strstr(dot, "style=dashed"));
        CU_ASSERT_PTR_NOT_NULL(strstr(dot, "back\\\\\\\\slash"));
        CU_ASSERT_PTR_NOT_NULL(strstr(dot, "caf\xc3\xa9"));
        free(dot);
    }
    fx_done(&fx);
}

/* Building pattern with budget max_states fails with an error containing text. */
static void expect_budget_error(const char *pattern, int max_states, const char *text)
{
    char src[4096];
    snprintf(src, sizeof src, "%s%s\n", schema_e, pattern);
    Fixture fx;
    fx_run(&fx, src, true);
    const AstPattern *p = fx_first_pattern(&fx);
    if (p) {
        Sra *nfa = sra_nfa_from_pattern(p, &fx.arena, &fx.diag, max_states);
        CU_ASSERT_PTR_NULL(nfa);
        char *diags = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&diags, &size);
        diag_flush(&fx.diag, f);
        fclose(f);
        if (!strstr(diags, text))
            fprintf(stderr, "\nwanted: %s\ngot: %s", text, diags);
        CU_ASSERT_PTR_NOT_NULL(strstr(diags, text));
        free(diags);
    }
    fx_done(&fx);
}

static void test_budgets(void)
{
    expect_budget_error("pattern p on E within 5 events { A{1000} }", 100,
                        "t.srem:2:9: error: the automaton of pattern 'p' (within 5 events) is too large: "
                        "more than 100 states (budget from --max-states 100)");
    expect_budget_error("pattern p on E within 2 s { (A{1000}){1000} }", 100000,
                        "pattern 'p' (within 2 s) is too large: more than 100000 states");
    expect_budget_error("pattern p on E { (_?){300} }", 2000,
                        "error: the epsilon-free automaton of pattern 'p' (without a window) is too large: "
                        "more than 16000 transitions");
    expect_budget_error("pattern p on E within 3 events { ~([v==1]|[v==2]|[v==3]|[v==4]|[v==5]|[v==6]|[v==7]|"
                        "[v==8]|[v==9]|[v==10]|[v==11]|[v==12]|[v==13]) }",
                        100000,
                        "error: the complement in pattern 'p' (within 3 events) is too large: a state of its "
                        "automaton tests more than 12 distinct conditions");
    /* within the budget, nested complements stay exact */
    expect("pattern p on E within 3 events { A ~(~(B)) }", "A B A C A B", ".1...1");
    expect("pattern p on E within 3 events { ~(~(A) B) }", "A B B A", "1111");
}

/* ---- differential: random patterns against the reference interpreter --------------------------- */

enum { DIFF_PATTERNS = 3000, DIFF_EVENTS = 16 };

static void print_stream(const Value *v, int n)
{
    for (int k = 0; k < n; k++) {
        const Value *e = v + (size_t)k * GEN_NATTRS;
        fprintf(stderr, "  %2d: t=%c v=%lld k=%lld time=%lld\n", k + 1, "ABC"[e[GEN_T].i % 3],
                (long long)e[GEN_V].i, (long long)e[GEN_K].i, (long long)e[GEN_TIME].i);
    }
}

/* The failure predicate of the minimizer: the interpreter and the epsilon
 * SRA or the epsilon-free one differ on the case. */
static bool sra_fails(const char *src, const Value *values, int n, void *ctx)
{
    (void)ctx;
    Fixture fx;
    fx_run(&fx, src, true);
    const AstPattern *p = NULL;
    for (int i = 0; !fx.nerrors && i < fx.ast->ndecls; i++)
        if (fx.ast->decls[i].kind == DECL_PATTERN)
            p = fx.ast->decls[i].u.pattern;
    Sra *sra = p ? sra_from_pattern(p, &fx.arena, &fx.diag, SRA_MAX_STATES_DEFAULT) : NULL;
    bool fails = false;
    if (sra) {
        Sra *nfa = sra_eps_free(sra, &fx.arena);
        Stream s = {n, GEN_NATTRS, values};
        bool *want = calloc(3 * (size_t)n + 1, sizeof *want), *a = want + n, *b = want + 2 * n;
        interp_detect(p, &s, NULL, want);
        sra_simulate(sra, &s, NULL, a);
        sra_simulate(nfa, &s, NULL, b);
        fails = memcmp(want, a, (size_t)n) != 0 || memcmp(want, b, (size_t)n) != 0;
        free(want);
    }
    fx_done(&fx);
    return fails;
}

/* One seed: a pattern and a stream; false (and a report) on a difference. */
static bool diff_one(uint64_t seed, const GenOpts *o, int *skipped)
{
    Rng r = {seed};
    char src[4096];
    gen_pattern(&r, o, src, sizeof src);
    Value values[DIFF_EVENTS * GEN_NATTRS];
    gen_stream(&r, DIFF_EVENTS, values);
    Fixture fx;
    fx_run(&fx, src, true);
    const AstPattern *p = NULL;
    for (int i = 0; !fx.nerrors && i < fx.ast->ndecls; i++)
        if (fx.ast->decls[i].kind == DECL_PATTERN)
            p = fx.ast->decls[i].u.pattern;
    bool ok = true;
    Sra *sra = p ? sra_from_pattern(p, &fx.arena, &fx.diag, SRA_MAX_STATES_DEFAULT) : NULL;
    if (!sra) {
        (*skipped)++;
        fx_done(&fx);
        return true;
    }
    Sra *nfa = sra_eps_free(sra, &fx.arena);
    Stream s = {DIFF_EVENTS, GEN_NATTRS, values};
    bool want[DIFF_EVENTS], got_sra[DIFF_EVENTS], got_nfa[DIFF_EVENTS];
    interp_detect(p, &s, NULL, want);
    sra_simulate(sra, &s, NULL, got_sra);
    sra_simulate(nfa, &s, NULL, got_nfa);
    if (memcmp(want, got_sra, sizeof want) != 0 || memcmp(want, got_nfa, sizeof want) != 0) {
        char w[DIFF_EVENTS + 1], a[DIFF_EVENTS + 1], b[DIFF_EVENTS + 1];
        det_text(want, DIFF_EVENTS, w);
        det_text(got_sra, DIFF_EVENTS, a);
        det_text(got_nfa, DIFF_EVENTS, b);
        fprintf(stderr, "\nsra differential: seed %llu\n%s\nstream:\n", (unsigned long long)seed, src);
        print_stream(values, DIFF_EVENTS);
        fprintf(stderr, "interp %s\nsra    %s\nnfa    %s\n", w, a, b);
        shrink_report("sra differential", seed, src, values, DIFF_EVENTS, sra_fails, NULL, 0);
        ok = false;
    }
    fx_done(&fx);
    return ok;
}

static void test_differential(void)
{
    static const GenOpts opts[] = {
        {true, true, true, true, true, true, 0, 0, true},  /* everything */
        {false, false, false, false, false, false, 4, 0, false}, /* plain regexes, deeper */
        {true, false, true, false, true, true, 3, 4, false},     /* registers, small windows */
        {false, true, false, false, false, false, 3, 6, false},  /* complements */
    };
    enum { NOPTS = sizeof opts / sizeof opts[0] };
    const uint64_t npatterns = (uint64_t)DIFF_PATTERNS * (uint64_t)diff_scale();
    int failures = 0, skipped = 0;
    uint64_t seed;
    for (seed = 1; seed <= npatterns && failures < 3; seed++)
        if (!diff_one(seed * 0x9E3779B97F4A7C15u, &opts[seed % NOPTS], &skipped))
            failures++;
    diff_summary("sra", (long)(seed - 1) - skipped, skipped, failures);
    CU_ASSERT_EQUAL(failures, 0);
    /* generated patterns check and fit the budget */
    CU_ASSERT_TRUE((uint64_t)skipped < npatterns / 100);
}

void add_sra_tests(void)
{
    CU_pSuite suite = CU_add_suite("sra", NULL, NULL);
    CU_add_test(suite, "atoms", test_atoms);
    CU_add_test(suite, "concatenation and union", test_seq_alt);
    CU_add_test(suite, "star, plus, optional", test_loops);
    CU_add_test(suite, "bounded repetition", test_repeat);
    CU_add_test(suite, "fire (SRA paper)", test_fire);
    CU_add_test(suite, "registers", test_registers);
    CU_add_test(suite, "count windows", test_count_window);
    CU_add_test(suite, "time windows", test_time_window);
    CU_add_test(suite, "policies stam and stnm", test_policies);
    CU_add_test(suite, "partitions", test_partition);
    CU_add_test(suite, "complement", test_complement);
    CU_add_test(suite, "intersection", test_intersection);
    CU_add_test(suite, "epsilon-free shape", test_eps_free_shape);
    CU_add_test(suite, "text dump", test_dump_txt);
    CU_add_test(suite, "dot dump", test_dump_dot);
    CU_add_test(suite, "budgets", test_budgets);
    CU_add_test(suite, "differential against interp", test_differential);
}
