/* test_fc_learn.c: counts and the pst learner (runtime/fc_counts.c,
 * fc_pst.c) against outside oracles: the counter suffix tree of
 * "aaabaabaaa", the tree of Begleiter, El-Yaniv and Yona 2004 (Fig. 5) for
 * "abracadabra", streams of known variable-order sources. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "fc_test.h"
#include "rt.h"

sremrt_fc_counts *fc_count_seq(const uint16_t *seq, size_t n, uint32_t nsym, uint32_t order, int warm)
{
    sremrt_fc_counts *c = sremrt_fc_counts_new(nsym, order);
    uint16_t recent[SREMRT_FC_MAX_ORDER + 1];
    size_t i, j;
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    for (i = 0; i < n; i++) {
        size_t len = i + 1 < order + 1 ? i + 1 : order + 1;
        if (!warm && len < order + 1)
            continue;
        for (j = 0; j < len; j++)
            recent[j] = seq[i - j];
        CU_ASSERT_EQUAL(sremrt_fc_counts_add(c, recent, (uint32_t)len), 0);
    }
    return c;
}

static size_t letters(const char *text, const char *alphabet, uint16_t *seq)
{
    size_t n = 0;
    for (; *text; text++)
        seq[n++] = (uint16_t)(strchr(alphabet, *text) - alphabet);
    return n;
}

static uint64_t get(const sremrt_fc_counts *c, const char *word, const char *alphabet)
{
    uint16_t w[32];
    size_t n = letters(word, alphabet, w);
    return sremrt_fc_counts_get(c, w, (uint32_t)n);
}

/* Wayeb's CST test: pairs of "aaabaabaaa", newest first. */
static void test_cst_pairs(void)
{
    uint16_t seq[16];
    size_t n = letters("aaabaabaaa", "ab", seq);
    sremrt_fc_counts *c = fc_count_seq(seq, n, 2, 1, 0);
    CU_ASSERT_EQUAL(get(c, "", "ab"), 9);
    CU_ASSERT_EQUAL(get(c, "a", "ab"), 7);
    CU_ASSERT_EQUAL(get(c, "b", "ab"), 2);
    CU_ASSERT_EQUAL(get(c, "aa", "ab"), 5);
    CU_ASSERT_EQUAL(get(c, "ab", "ab"), 2);
    CU_ASSERT_EQUAL(get(c, "ba", "ab"), 2);
    CU_ASSERT_EQUAL(get(c, "bb", "ab"), 0);
    CU_ASSERT_EQUAL(get(c, "aaa", "ab"), 0);   /* longer than order + 1 */
    sremrt_fc_counts_free(c);
    /* with the warm-up word of the first event */
    c = fc_count_seq(seq, n, 2, 1, 1);
    CU_ASSERT_EQUAL(get(c, "", "ab"), 10);
    CU_ASSERT_EQUAL(get(c, "a", "ab"), 8);
    CU_ASSERT_EQUAL(get(c, "aa", "ab"), 5);
    sremrt_fc_counts_free(c);
}

static void test_counts_add_limits(void)
{
    sremrt_fc_counts *c = sremrt_fc_counts_new(3, 2);
    uint16_t w[5] = {0, 1, 2, 0, 1}, bad[2] = {0, 3};
    CU_ASSERT_PTR_NULL(sremrt_fc_counts_new(0, 2));
    CU_ASSERT_PTR_NULL(sremrt_fc_counts_new(3, 0));
    CU_ASSERT_PTR_NULL(sremrt_fc_counts_new(3, SREMRT_FC_MAX_ORDER + 1));
    CU_ASSERT_EQUAL(sremrt_fc_counts_add(c, w, 5), 0);   /* cut to order + 1 */
    CU_ASSERT_EQUAL(sremrt_fc_counts_get(c, w, 3), 1);
    CU_ASSERT_EQUAL(sremrt_fc_counts_get(c, w, 4), 0);
    CU_ASSERT_EQUAL(sremrt_fc_counts_add(c, bad, 2), -1);   /* symbol out of range: nothing */
    CU_ASSERT_EQUAL(sremrt_fc_counts_get(c, NULL, 0), 1);
    CU_ASSERT_EQUAL(sremrt_fc_counts_get(c, bad, 1), 1);
    CU_ASSERT_EQUAL(sremrt_fc_counts_nsym(c), 3);
    CU_ASSERT_EQUAL(sremrt_fc_counts_order(c), 2);
    sremrt_fc_counts_free(c);
}

/* Writes c to a string (the caller frees it). */
static char *counts_text(const sremrt_fc_counts *c)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(sremrt_fc_counts_write(c, f), 0);
    fclose(f);
    return buf;
}

static void test_counts_round_trip(void)
{
    uint64_t seed = 0x5eed0001;
    uint16_t seq[3000];
    size_t i;
    sremrt_fc_counts *c, *d;
    char *a, *b, err[128];
    FILE *f;
    for (i = 0; i < 3000; i++)
        seq[i] = (uint16_t)(fc_rand(&seed) % 4);
    c = fc_count_seq(seq, 3000, 4, 3, 1);
    a = counts_text(c);
    f = RT_STR(a);
    d = sremrt_fc_counts_read(f, err, sizeof err);
    fclose(f);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    b = counts_text(d);
    ASSERT_STR(b, a);
    for (i = 3; i < 3000; i++)   /* every word of the stream, both sides */
        CU_ASSERT_EQUAL(sremrt_fc_counts_get(d, seq + i - 3, 4), sremrt_fc_counts_get(c, seq + i - 3, 4));
    CU_ASSERT_EQUAL(sremrt_fc_counts_get(d, NULL, 0), 3000);
    free(a);
    free(b);
    sremrt_fc_counts_free(c);
    sremrt_fc_counts_free(d);
}

/* Malformed files: NULL and the line of the fault. */
static void test_counts_malformed(void)
{
    static const struct {
        const char *text, *err;
    } cases[] = {
        {"", "line 1: expected \"sremrt-fc-counts 1\""},
        {"sremrt-fc-counts 2\n", "line 1: expected \"sremrt-fc-counts 1\""},
        {"sremrt-fc-counts 1\nnsym 0 order 2\n", "line 2: expected \"nsym N order M\" (N 1..65535, M 1..16)"},
        {"sremrt-fc-counts 1\nnsym 2 order 17\n", "line 2: expected \"nsym N order M\" (N 1..65535, M 1..16)"},
        {"sremrt-fc-counts 1\nnsym 2 order 1\nx\n", "line 3: expected the number of events"},
        {"sremrt-fc-counts 1\nnsym 2 order 1\n5\n3 0\n2 1\n4 0 1\n", "line 6: count 4 above its prefix's 3"},
        {"sremrt-fc-counts 1\nnsym 2 order 1\n5\n3 0\n2 2\n", "line 5: expected a symbol 0..1"},
        {"sremrt-fc-counts 1\nnsym 2 order 1\n5\n3 0\n1 0 1 1\n", "line 5: word longer than order + 1 = 2"},
        {"sremrt-fc-counts 1\nnsym 2 order 1\n5\n1 0 1\n", "line 4: the word's prefix has no count before it"},
        {"sremrt-fc-counts 1\nnsym 2 order 1\n5\n3 0\n3 0\n", "line 5: word given twice"},
        {"sremrt-fc-counts 1\nnsym 2 order 1\n5\n0 0\n", "line 4: expected a count above 0"},
        {"sremrt-fc-counts 1\nnsym 2 order 1\n5\n3\n", "line 4: the empty word's count comes once, on line 3"},
        {"sremrt-fc-counts 1\nnsym 2 order 1\n5\n9 0\n", "line 4: count 9 above its prefix's 5"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[160] = "";
        FILE *f = RT_STR(cases[i].text);
        sremrt_fc_counts *c = sremrt_fc_counts_read(f, err, sizeof err);
        fclose(f);
        CU_ASSERT_PTR_NULL(c);
        ASSERT_STR(err, cases[i].err);
        sremrt_fc_counts_free(c);
    }
}

static sremrt_fc_params params(uint32_t order, double pmin, double alpha, double gamma, double r)
{
    sremrt_fc_params p;
    p.order = order;
    p.pmin = pmin;
    p.alpha = alpha;
    p.gamma = gamma;
    p.r = r;
    return p;
}

/* The node of a label given newest first as letters, or -1. */
static int32_t node_of(const sremrt_fc_pst *t, const char *label, const char *alphabet)
{
    int32_t node = 0;
    for (; *label && node >= 0; label++)
        node = sremrt_fc_pst_child(t, (uint32_t)node, (uint16_t)(strchr(alphabet, *label) - alphabet));
    return node;
}

/* Begleiter, El-Yaniv and Yona 2004, Fig. 5 (forecasting.md 1.8): every
 * node and every probability within 0.005. */
static void test_abracadabra(void)
{
    static const char *const ab = "abcdr";
    static const struct {
        const char *label;   /* newest first */
        double p[5];         /* a b c d r */
    } fig5[] = {
        {"", {.45, .183, .092, .092, .183}},
        {"a", {.001, .498, .25, .25, .001}},
        {"ac", {.001, .001, .001, .996, .001}},
        {"ad", {.001, .996, .001, .001, .001}},
        {"ar", {.001, .001, .996, .001, .001}},
        {"b", {.001, .001, .001, .001, .996}},
        {"c", {.996, .001, .001, .001, .001}},
        {"d", {.996, .001, .001, .001, .001}},
        {"r", {.996, .001, .001, .001, .001}},
    };
    uint16_t seq[16];
    size_t n = letters("abracadabra", ab, seq), i, s;
    sremrt_fc_counts *c = fc_count_seq(seq, n, 5, 12, 1);
    sremrt_fc_params p = params(12, 0.001, 0.01, 0.001, 1.05);
    char err[128];
    sremrt_fc_pst *t = sremrt_fc_pst_learn(c, &p, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(sremrt_fc_pst_nodes(t), 9);
    for (i = 0; i < sizeof fig5 / sizeof fig5[0]; i++) {
        int32_t node = node_of(t, fig5[i].label, ab);
        CU_ASSERT_FATAL(node >= 0);
        CU_ASSERT_EQUAL(sremrt_fc_pst_depth(t, (uint32_t)node), strlen(fig5[i].label));
        for (s = 0; s < 5; s++) {
            double got = sremrt_fc_pst_prob(t, (uint32_t)node, (uint16_t)s);
            if (fabs(got - fig5[i].p[s]) > 0.005)
                fprintf(stderr, "\nabracadabra [%s] %c: %g, Fig. 5 %g\n", fig5[i].label, ab[s], got,
                        fig5[i].p[s]);
            CU_ASSERT(fabs(got - fig5[i].p[s]) <= 0.005);
        }
    }
    /* lookups: the deepest match of "...rac" newest first is [a c]?  no: c, a */
    {
        uint16_t recent[3] = {0, 2, 4};   /* a, then c before it, r before that */
        CU_ASSERT_EQUAL(sremrt_fc_pst_find(t, recent, 3), (uint32_t)node_of(t, "ac", ab));
        CU_ASSERT_EQUAL(sremrt_fc_pst_find(t, recent, 0), 0);
        CU_ASSERT_EQUAL(sremrt_fc_pst_parent(t, (uint32_t)node_of(t, "ac", ab)), node_of(t, "a", ab));
        CU_ASSERT_EQUAL(sremrt_fc_pst_symbol(t, (uint32_t)node_of(t, "ac", ab)), 2);
        CU_ASSERT_EQUAL(sremrt_fc_pst_parent(t, 0), -1);
    }
    sremrt_fc_pst_free(t);
    sremrt_fc_counts_free(c);
}

static void test_params(void)
{
    static const struct {
        sremrt_fc_params p;
        const char *err;
    } bad[] = {
        {{0, .001, 0, .001, 1.05}, "order 0 is not in 1..16"},
        {{17, .001, 0, .001, 1.05}, "order 17 is not in 1..16"},
        {{3, 0, 0, .001, 1.05}, "pmin 0 is not in (0, 1)"},
        {{3, 1, 0, .001, 1.05}, "pmin 1 is not in (0, 1)"},
        {{3, .001, -1, .001, 1.05}, "alpha -1 is negative or not finite"},
        {{3, .001, 0, 0, 1.05}, "gamma 0 is not in (0, 1/4]"},
        {{3, .001, 0, .3, 1.05}, "gamma 0.3 is not in (0, 1/4]"},
        {{3, .001, 0, .001, 1}, "r 1 is not above 1"},
    };
    uint16_t seq[4] = {0, 1, 2, 3};
    sremrt_fc_counts *c = fc_count_seq(seq, 4, 4, 2, 1);
    sremrt_fc_params d;
    size_t i;
    sremrt_fc_params_default(&d);
    CU_ASSERT_EQUAL(d.order, 3);
    CU_ASSERT_DOUBLE_EQUAL(d.pmin, 0.001, 0);
    CU_ASSERT_DOUBLE_EQUAL(d.alpha, 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(d.gamma, 0.001, 0);
    CU_ASSERT_DOUBLE_EQUAL(d.r, 1.05, 0);
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[128] = "";
        CU_ASSERT_PTR_NULL(sremrt_fc_pst_learn(c, &bad[i].p, err, sizeof err));
        ASSERT_STR(err, bad[i].err);
    }
    {
        /* gamma * nsym = 1 is allowed: every distribution uniform */
        sremrt_fc_params p = params(2, .001, 0, .25, 1.05);
        sremrt_fc_pst *t = sremrt_fc_pst_learn(c, &p, NULL, 0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(t);
        CU_ASSERT_DOUBLE_EQUAL(sremrt_fc_pst_prob(t, 0, 1), 0.25, 1e-15);
        sremrt_fc_pst_free(t);
    }
    sremrt_fc_counts_free(c);
}

void add_fc_learn_tests(void)
{
    CU_pSuite s = CU_add_suite("forecast: counts and pst", NULL, NULL);
    CU_add_test(s, "cst of aaabaabaaa", test_cst_pairs);
    CU_add_test(s, "counts limits", test_counts_add_limits);
    CU_add_test(s, "counts text round trip", test_counts_round_trip);
    CU_add_test(s, "counts malformed", test_counts_malformed);
    CU_add_test(s, "abracadabra (Begleiter et al. Fig. 5)", test_abracadabra);
    CU_add_test(s, "parameters", test_params);
}
