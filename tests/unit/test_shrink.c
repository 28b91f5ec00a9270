/* test_shrink.c: the minimizer of failing differential cases
 * (tests/diff/shrink.h), against deliberately wrong "oracles". */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "../diff/gen.h"
#include "../diff/shrink.h"
#include "interp.h"
#include "unit.h"

typedef struct Seen {
    int calls;
    int unchecked;   /* calls with a source that does not check */
} Seen;

/* Parses src: its pattern, or NULL (and counts it) when it does not check. */
static const AstPattern *parse(Fixture *fx, const char *src, Seen *seen)
{
    fx_run(fx, src, true);
    seen->calls++;
    for (int i = 0; !fx->nerrors && i < fx->ast->ndecls; i++)
        if (fx->ast->decls[i].kind == DECL_PATTERN)
            return fx->ast->decls[i].u.pattern;
    seen->unchecked++;
    return NULL;
}

/* "Fails" whenever an event of type B follows one of type A. */
static bool a_then_b(const char *src, const Value *values, int n, void *ctx)
{
    Fixture fx;
    parse(&fx, src, ctx);
    fx_done(&fx);
    bool a = false;
    for (int k = 0; k < n; k++) {
        int t = (int)values[(size_t)k * GEN_NATTRS + GEN_T].i;
        if (t == 1 && a)
            return true;
        a = a || t == 0;
    }
    return false;
}

static const char *body_of(const char *src) { return strstr(src, "pattern "); }

static void test_stream_a_then_b(void)
{
    int tried = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        Rng r = {seed * 1000003u};
        GenOpts o = {true, true, true, true, true, true, 3, 5, false};
        char src[2048];
        gen_pattern(&r, &o, src, sizeof src);
        Value values[40 * GEN_NATTRS];
        gen_stream(&r, 40, values);
        Seen seen = {0, 0};
        Fixture fx;
        bool ok = parse(&fx, src, &seen) != NULL;
        fx_done(&fx);
        if (!ok || !a_then_b(src, values, 40, &seen))
            continue;
        tried++;
        Shrunk m;
        shrink_case(src, values, 40, a_then_b, &seen, 0, &m);
        CU_ASSERT_EQUAL(seen.unchecked, 0);
        CU_ASSERT_EQUAL_FATAL(m.n, 2);
        CU_ASSERT_EQUAL(m.values[GEN_T].i, 0);
        CU_ASSERT_EQUAL(m.values[GEN_NATTRS + GEN_T].i, 1);
        /* the values are simplified too */
        CU_ASSERT_EQUAL(m.values[GEN_V].i + m.values[GEN_K].i + m.values[GEN_TIME].i, 0);
        /* the oracle ignores the pattern: it shrinks to a single atom */
        Fixture mfx;
        CU_ASSERT_PTR_NOT_NULL(parse(&mfx, m.src, &seen));
        fx_done(&mfx);
        if (strcmp(body_of(m.src), "pattern p on E {\n    _\n}\n") != 0)
            fprintf(stderr, "\nminimized to:\n%s", body_of(m.src));
        CU_ASSERT_STRING_EQUAL(body_of(m.src), "pattern p on E {\n    _\n}\n");
        CU_ASSERT_EQUAL(m.calls, seen.calls - 1 - 1 - 1);
        shrunk_free(&m);
    }
    CU_ASSERT(tried >= 10);
}

/* "Fails" when the pattern has a register and detects the last event. */
static bool reg_detects_last(const char *src, const Value *values, int n, void *ctx)
{
    Fixture fx;
    const AstPattern *p = parse(&fx, src, ctx);
    bool fails = false;
    if (p && p->nregs > 0 && n > 0) {
        bool *det = calloc((size_t)n, sizeof *det);
        Stream s = {n, GEN_NATTRS, values};
        interp_detect(p, &s, NULL, det);
        fails = det[n - 1];
        free(det);
    }
    fx_done(&fx);
    return fails;
}

static void test_pattern(void)
{
    const char *src = GEN_SCHEMA "pattern p on E partition by k within 5 events policy stam {\n"
                                 "    x:A y:[v >= x.v && (k == 1 || v > 0)] [v + y.v > x.v]\n}\n";
    const char *src2 = GEN_SCHEMA "pattern p on E within 6 events {\n"
                                  "    (x:A ((B | [v > x.v]){1,3} ~(C))) & (_ _* [t != B])\n}\n";
    const char *const srcs[] = {src, src2};
    for (int i = 0; i < 2; i++) {
        /* A:1/k1 B:2/k1 C:3/k1 ... enough for both */
        Value values[8 * GEN_NATTRS];
        static const int ts[8] = {0, 1, 2, 0, 1, 1, 2, 0};
        for (int k = 0; k < 8; k++) {
            Value *e = values + k * GEN_NATTRS;
            e[GEN_T].i = ts[k];
            e[GEN_V].i = k + 1;
            e[GEN_K].i = 1;
            e[GEN_TIME].i = k;
        }
        Seen seen = {0, 0};
        Shrunk m;
        shrink_case(srcs[i], values, 8, reg_detects_last, &seen, 0, &m);
        CU_ASSERT_EQUAL(seen.unchecked, 0);
        const char *b = body_of(m.src);
        if (m.n != 1 || strpbrk(strchr(b, '{') + 1, "[|&~{*+?") || strstr(b, "partition") || strstr(b, "policy"))
            fprintf(stderr, "\nminimized %d to %d events:\n%s", i, m.n, b);
        CU_ASSERT_EQUAL(m.n, 1);
        /* one labelled atom is left, under its window */
        CU_ASSERT_PTR_NOT_NULL(strstr(b, "within"));
        CU_ASSERT_PTR_NULL(strpbrk(strchr(b, '{') + 1, "[|&~{*+?"));
        CU_ASSERT_PTR_NULL(strstr(b, "partition"));
        CU_ASSERT_PTR_NULL(strstr(b, "policy"));
        CU_ASSERT_TRUE(reg_detects_last(m.src, m.values, m.n, &seen));
        shrunk_free(&m);
    }
}

/* A case that does not fail comes back as it was, after one call. */
static void test_not_failing(void)
{
    const char *src = GEN_SCHEMA "pattern p on E { A B }\n";
    Value values[3 * GEN_NATTRS] = {{0}};
    Seen seen = {0, 0};
    Shrunk m;
    shrink_case(src, values, 3, a_then_b, &seen, 0, &m);
    CU_ASSERT_EQUAL(m.calls, 1);
    CU_ASSERT_EQUAL(m.n, 3);
    CU_ASSERT_STRING_EQUAL(m.src, src);
    shrunk_free(&m);
}

static void test_scale(void)
{
    const char *old = getenv("SREMC_DIFF_SCALE");
    char *saved = old ? strdup(old) : NULL;
    setenv("SREMC_DIFF_SCALE", "7", 1);
    CU_ASSERT_EQUAL(diff_scale(), 7);
    setenv("SREMC_DIFF_SCALE", "0", 1);
    CU_ASSERT_EQUAL(diff_scale(), 1);
    unsetenv("SREMC_DIFF_SCALE");
    CU_ASSERT_EQUAL(diff_scale(), 1);
    if (saved)
        setenv("SREMC_DIFF_SCALE", saved, 1);
    free(saved);
}

void add_shrink_tests(void)
{
    CU_pSuite s = CU_add_suite("shrink", NULL, NULL);
    CU_add_test(s, "stream: exactly the A and the B", test_stream_a_then_b);
    CU_add_test(s, "pattern: conditions, quantifiers, alternatives go", test_pattern);
    CU_add_test(s, "a case that does not fail", test_not_failing);
    CU_add_test(s, "SREMC_DIFF_SCALE", test_scale);
}
