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


/* Counts equal a naive count of every word's occurrences, for an alphabet
 * kept in dense blocks and one kept in the map. */
static void test_counts_naive(void)
{
    static const uint32_t alphabets[] = {3, 100};
    uint64_t seed = 0x5eed000a;
    size_t k;
    for (k = 0; k < 2; k++) {
        uint32_t nsym = alphabets[k], len;
        uint16_t seq[3000];
        size_t n = 3000, i, j;
        sremrt_fc_counts *c;
        for (i = 0; i < n; i++)   /* skewed, so that long words repeat */
            seq[i] = (uint16_t)(fc_rand(&seed) % (fc_rand(&seed) % 4 ? 3 : nsym));
        c = fc_count_seq(seq, n, nsym, 2, 1);
        for (i = 0; i < 400; i++) {
            uint16_t w[3];
            uint64_t want = 0;
            size_t at = fc_rand(&seed) % n, p;
            len = 1 + (uint32_t)(fc_rand(&seed) % 3);
            for (j = 0; j < len; j++)   /* a word that occurs, or a random one */
                w[j] = i % 2 && at >= j ? seq[at - j] : (uint16_t)(fc_rand(&seed) % nsym);
            for (p = len - 1; p < n; p++) {
                int match = 1;
                for (j = 0; j < len && match; j++)
                    match = seq[p - j] == w[j];
                want += match;
            }
            CU_ASSERT_EQUAL(sremrt_fc_counts_get(c, w, len), want);
        }
        sremrt_fc_counts_free(c);
    }
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


/* Smoothed distributions sum to 1 and none is below gamma. */
static void check_invariants(const sremrt_fc_pst *t, double gamma)
{
    uint32_t node, s, nsym = sremrt_fc_pst_nsym(t);
    for (node = 0; node < sremrt_fc_pst_nodes(t); node++) {
        double sum = 0;
        for (s = 0; s < nsym; s++) {
            double p = sremrt_fc_pst_prob(t, node, (uint16_t)s);
            CU_ASSERT(p >= gamma * (1 - 1e-12));
            sum += p;
        }
        CU_ASSERT_DOUBLE_EQUAL(sum, 1.0, 1e-12);
        if (node > 0)   /* a node's label extends its parent's by one older symbol */
            CU_ASSERT_EQUAL(sremrt_fc_pst_depth(t, node),
                            sremrt_fc_pst_depth(t, (uint32_t)sremrt_fc_pst_parent(t, node)) + 1);
    }
}

/* A variable-order source over {a, b, c}: P(.|"ba") and P(.|"cca") (text
 * order: a is the newest), else P(.|empty). Returns the source's context
 * (0 empty, 1 "ba", 2 "cca") for a history given newest first, or -1 when
 * the label is too short to tell. */
static const double vo_dist[3][3] = {{.4, .3, .3}, {.9, .05, .05}, {.05, .05, .9}};

static int vo_context(const uint16_t *h, uint32_t len)
{
    if (len == 0 || h[0] != 0)
        return 0;
    if (len < 2)
        return -1;
    if (h[1] == 1)
        return 1;
    if (h[1] != 2)
        return 0;
    if (len < 3)
        return -1;
    return h[2] == 2 ? 2 : 0;
}

static uint16_t *vo_stream(uint64_t *seed, size_t n)
{
    uint16_t *seq = malloc(n * sizeof *seq), h[3];
    size_t i, j;
    CU_ASSERT_PTR_NOT_NULL_FATAL(seq);
    for (i = 0; i < n; i++) {
        uint32_t len = i < 3 ? (uint32_t)i : 3;
        int ctx;
        for (j = 0; j < len; j++)
            h[j] = seq[i - 1 - j];
        ctx = vo_context(h, len);
        seq[i] = fc_draw(seed, vo_dist[ctx < 0 ? 0 : ctx], 3);
    }
    return seq;
}

/* The learned tree holds the true contexts, with probabilities within 3
 * standard errors (plus the smoothing's shift); every node whose label
 * tells the source's context within 4. */
static void test_variable_order_source(void)
{
    uint64_t seed = 0x5eed0004;
    size_t n = 400000;
    uint16_t *seq = vo_stream(&seed, n);
    sremrt_fc_counts *c = fc_count_seq(seq, n, 3, 4, 1);
    sremrt_fc_params p = params(4, 0.001, 0, 0.001, 1.05);
    sremrt_fc_pst *t = sremrt_fc_pst_learn(c, &p, NULL, 0);
    uint32_t node, s, told = 0;
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    check_invariants(t, p.gamma);
    CU_ASSERT(node_of(t, "ab", "abc") > 0);    /* "ba" */
    CU_ASSERT(node_of(t, "acc", "abc") > 0);   /* "cca" */
    for (node = 0; node < sremrt_fc_pst_nodes(t); node++) {
        uint16_t lab[SREMRT_FC_MAX_ORDER + 1];
        uint32_t d = sremrt_fc_pst_depth(t, node), i, m = node;
        uint64_t total = 0;
        int ctx, is_true;
        for (i = d; i > 0; i--, m = (uint32_t)sremrt_fc_pst_parent(t, m))
            lab[i] = sremrt_fc_pst_symbol(t, m);
        ctx = vo_context(lab + 1, d);
        if (ctx < 0 || node == 0)
            continue;
        told++;
        is_true = (ctx == 1 && d == 2) || (ctx == 2 && d == 3);
        for (s = 0; s < 3; s++) {
            lab[0] = (uint16_t)s;
            total += sremrt_fc_counts_get(c, lab, d + 1);
        }
        for (s = 0; s < 3; s++) {
            double want = vo_dist[ctx][s], got = sremrt_fc_pst_prob(t, node, (uint16_t)s);
            double se = sqrt(want * (1 - want) / (double)total);
            double bound = (is_true ? 3 : 4) * se + 3 * p.gamma;
            if (fabs(got - want) > bound)
                fprintf(stderr, "\nsource node %u (depth %u, context %d) symbol %u: %g, true %g, bound %g\n",
                        node, d, ctx, s, got, want, bound);
            CU_ASSERT(fabs(got - want) <= bound);
        }
    }
    CU_ASSERT(told >= 2);
    sremrt_fc_pst_free(t);
    sremrt_fc_counts_free(c);
    free(seq);
}

/* A full order-2 source: all 9 depth-2 contexts are found. */
static void test_full_order_two(void)
{
    static const double dist[9][3] = {
        {.7, .2, .1}, {.1, .7, .2}, {.2, .1, .7}, {.1, .2, .7}, {.7, .1, .2},
        {.2, .7, .1}, {.5, .4, .1}, {.1, .5, .4}, {.4, .1, .5},
    };
    uint64_t seed = 0x5eed0005;
    size_t n = 200000, i;
    uint16_t *seq = malloc(n * sizeof *seq);
    sremrt_fc_counts *c;
    sremrt_fc_params p = params(3, 0.001, 0, 0.001, 1.05);
    sremrt_fc_pst *t;
    uint32_t a, b;
    CU_ASSERT_PTR_NOT_NULL_FATAL(seq);
    seq[0] = 0;
    seq[1] = 1;
    for (i = 2; i < n; i++)   /* newest first: seq[i-1], then seq[i-2] */
        seq[i] = fc_draw(&seed, dist[seq[i - 1] * 3 + seq[i - 2]], 3);
    c = fc_count_seq(seq, n, 3, 3, 1);
    t = sremrt_fc_pst_learn(c, &p, NULL, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    check_invariants(t, p.gamma);
    for (a = 0; a < 3; a++)
        for (b = 0; b < 3; b++) {
            int32_t m = sremrt_fc_pst_child(t, 0, (uint16_t)a);
            CU_ASSERT_FATAL(m > 0);
            m = sremrt_fc_pst_child(t, (uint32_t)m, (uint16_t)b);
            CU_ASSERT_FATAL(m > 0);
            CU_ASSERT(fabs(sremrt_fc_pst_prob(t, (uint32_t)m, 0) - dist[a * 3 + b][0]) < 0.02);
        }
    sremrt_fc_pst_free(t);
    sremrt_fc_counts_free(c);
    free(seq);
}

/* An i.i.d. stream: ideally the root alone. The false-positive rate (nodes
 * beyond the root over the contexts the learner examined, those with
 * P^ >= pmin) is printed and bounded loosely. */
static void test_iid_source(void)
{
    static const double dist[3] = {.5, .3, .2};
    static const size_t sizes[] = {10000, 100000, 1000000};
    uint64_t seed = 0x5eed0006;
    size_t k, i;
    for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        uint16_t *seq = malloc(n * sizeof *seq), w[4];
        sremrt_fc_counts *c;
        sremrt_fc_params p = params(3, 0.001, 0, 0.001, 1.05);
        sremrt_fc_pst *t;
        uint32_t examined = 0, x, len, shallow = 0;
        double rate;
        CU_ASSERT_PTR_NOT_NULL_FATAL(seq);
        for (i = 0; i < n; i++)
            seq[i] = fc_draw(&seed, dist, 3);
        c = fc_count_seq(seq, n, 3, 3, 1);
        t = sremrt_fc_pst_learn(c, &p, NULL, 0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(t);
        check_invariants(t, p.gamma);
        for (len = 1; len <= 3; len++)   /* every word of 1..3 symbols */
            for (x = 0; x < 27; x++) {
                w[0] = x % 3;
                w[1] = x / 3 % 3;
                w[2] = x / 9;
                if (x >= (len == 1 ? 3u : len == 2 ? 9u : 27u))
                    continue;
                examined += (double)sremrt_fc_counts_get(c, w, len) / (double)(n - len + 1) >= p.pmin;
            }
        for (x = 1; x < sremrt_fc_pst_nodes(t); x++)
            shallow += sremrt_fc_pst_depth(t, x) == 1;
        rate = (double)(sremrt_fc_pst_nodes(t) - 1) / examined;
        printf("\n  i.i.d. source, %zu symbols, order 3, r 1.05: %u nodes beyond the root of %u contexts "
               "examined (false-positive rate %.3f)", n, sremrt_fc_pst_nodes(t) - 1, examined, rate);
        if (n >= 1000000) {   /* counts enough to see no difference */
            CU_ASSERT_EQUAL(shallow, 0);
            CU_ASSERT(rate <= 0.1);
        }
        sremrt_fc_pst_free(t);
        sremrt_fc_counts_free(c);
        free(seq);
    }
}

void add_fc_learn_tests(void)
{
    CU_pSuite s = CU_add_suite("forecast: counts and pst", NULL, NULL);
    CU_add_test(s, "cst of aaabaabaaa", test_cst_pairs);
    CU_add_test(s, "counts limits", test_counts_add_limits);
    CU_add_test(s, "counts against a naive count", test_counts_naive);
    CU_add_test(s, "counts text round trip", test_counts_round_trip);
    CU_add_test(s, "counts malformed", test_counts_malformed);
    CU_add_test(s, "abracadabra (Begleiter et al. Fig. 5)", test_abracadabra);
    CU_add_test(s, "parameters", test_params);
    CU_add_test(s, "variable-order source", test_variable_order_source);
    CU_add_test(s, "full order-2 source", test_full_order_two);
    CU_add_test(s, "i.i.d. source", test_iid_source);
}
