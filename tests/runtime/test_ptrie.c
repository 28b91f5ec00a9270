/* test_ptrie.c: the pattern trie (nodes, counts, dumps) and the explore
 * state around it: the paper's worked example under every algorithm,
 * suggestion order and records, summaries, capacities, 64-bit limits. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>

#include "rt.h"

static const char *const abcd[] = {"A", "B", "C", "D", "E"};

static void test_trie_nodes(void)
{
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_ptrie t;
    int32_t seq[4] = {2, 0, 1, 3}, got[4];
    int32_t n_c, n_a, n_b, n_ca, n_cab;
    CU_ASSERT_EQUAL_FATAL(sremrt_ptrie_init(&t, 6, &heap), 0);
    CU_ASSERT_EQUAL(t.count, 1);
    CU_ASSERT_EQUAL(sremrt_ptrie_total(&t), 0);
    /* children kept in type order whatever the insertion order */
    n_c = sremrt_ptrie_add_child(&t, 0, 2);
    n_a = sremrt_ptrie_add_child(&t, 0, 0);
    n_b = sremrt_ptrie_add_child(&t, 0, 1);
    CU_ASSERT_EQUAL(sremrt_ptrie_add_child(&t, 0, 2), n_c);
    CU_ASSERT_EQUAL(t.nodes[0].child, n_a);
    CU_ASSERT_EQUAL(t.nodes[n_a].sibling, n_b);
    CU_ASSERT_EQUAL(t.nodes[n_b].sibling, n_c);
    CU_ASSERT_EQUAL(t.nodes[n_c].sibling, -1);
    CU_ASSERT_EQUAL(sremrt_ptrie_child(&t, 0, 1), n_b);
    CU_ASSERT_EQUAL(sremrt_ptrie_child(&t, 0, 3), -1);
    CU_ASSERT_EQUAL(sremrt_ptrie_child(&t, 99, 1), -1);
    n_cab = sremrt_ptrie_insert(&t, seq, 3);
    n_ca = t.nodes[n_cab].parent;
    CU_ASSERT_EQUAL(t.nodes[n_ca].parent, n_c);
    CU_ASSERT_EQUAL(t.nodes[n_cab].depth, 3);
    CU_ASSERT_EQUAL(t.count, 6);
    /* full: refused and counted, nothing else changes */
    CU_ASSERT_EQUAL(sremrt_ptrie_insert(&t, seq, 4), -1);
    CU_ASSERT_EQUAL(t.overflows, 1);
    CU_ASSERT_EQUAL(sremrt_ptrie_insert(&t, seq, 3), n_cab);
    CU_ASSERT_EQUAL(sremrt_ptrie_sequence(&t, n_cab, got, 4), 3);
    CU_ASSERT(got[0] == 2 && got[1] == 0 && got[2] == 1);
    CU_ASSERT_EQUAL(sremrt_ptrie_sequence(&t, n_cab, got, 1), 3);
    CU_ASSERT_EQUAL(got[0], 2);
    /* counts: freq at the node, count along the path */
    sremrt_ptrie_add(&t, n_cab, 4);
    sremrt_ptrie_add(&t, n_c, 1);
    sremrt_ptrie_add(&t, n_a, 5);
    CU_ASSERT_EQUAL(t.nodes[n_cab].freq, 4);
    CU_ASSERT_EQUAL(t.nodes[n_cab].count, 4);
    CU_ASSERT_EQUAL(t.nodes[n_ca].count, 4);
    CU_ASSERT_EQUAL(t.nodes[n_ca].freq, 0);
    CU_ASSERT_EQUAL(t.nodes[n_c].count, 5);
    CU_ASSERT_EQUAL(t.nodes[n_c].freq, 1);
    CU_ASSERT_EQUAL(sremrt_ptrie_total(&t), 10);
    CU_ASSERT_DOUBLE_EQUAL(sremrt_ptrie_confidence(&t, n_a), 0.5, 0);
    CU_ASSERT_EQUAL(t.nodes[n_ca].end, 0);
    CU_ASSERT_EQUAL(t.nodes[n_cab].end, 1);
    /* saturation at UINT64_MAX, counted */
    sremrt_ptrie_add(&t, n_b, UINT64_MAX - 3);
    CU_ASSERT_EQUAL(t.nodes[0].count, UINT64_MAX);
    CU_ASSERT_EQUAL(t.nodes[n_b].freq, UINT64_MAX - 3);
    CU_ASSERT_EQUAL(t.saturated, 1);
    sremrt_ptrie_clear(&t);
    CU_ASSERT_EQUAL(t.count, 1);
    CU_ASSERT_EQUAL(sremrt_ptrie_total(&t), 0);
    CU_ASSERT_EQUAL(t.overflows, 1);
    sremrt_ptrie_free(&t);
}

static void test_trie_buffers(void)
{
    unsigned char buf[512];
    sremrt_ptrie t;
    CU_ASSERT_EQUAL(sremrt_ptrie_bytes(0), 0);
    CU_ASSERT_EQUAL(sremrt_ptrie_bytes(SREMRT_PTRIE_MAX + 1), 0);
    CU_ASSERT(sremrt_ptrie_bytes(3) >= 3 * sizeof(sremrt_ptrie_node));
    CU_ASSERT_EQUAL(sremrt_ptrie_init_buf(&t, 3, buf + 1, sremrt_ptrie_bytes(3)), 0);
    CU_ASSERT_EQUAL(sremrt_ptrie_add_child(&t, 0, 7), 1);
    sremrt_ptrie_free(&t);   /* a caller buffer: nothing to give back */
    CU_ASSERT_EQUAL(sremrt_ptrie_init_buf(&t, 3, buf, sremrt_ptrie_bytes(3) - 8), -1);
    CU_ASSERT_EQUAL(t.capacity, 0);
    CU_ASSERT_EQUAL(sremrt_ptrie_add_child(&t, 0, 1), -1);
    CU_ASSERT_EQUAL(sremrt_ptrie_total(&t), 0);
    CU_ASSERT_EQUAL(sremrt_ptrie_init_buf(&t, 0, buf, sizeof buf), -1);
}

/* ---- explore helpers ----------------------------------------------------------------- */

typedef struct xrun {
    sremrt_explore ex;
    sremrt_explore_part part;
} xrun;

static void xrun_init(xrun *r, const int32_t *pattern, int32_t m, int32_t nvalues,
                      sremrt_explore_policy pol, sremrt_explore_window win, int64_t width,
                      double conf, sremrt_explore_algo algo)
{
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_explore_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.pattern = pattern;
    cfg.m = m;
    cfg.nvalues = nvalues;
    cfg.policy = pol;
    cfg.window = win;
    cfg.width = width;
    cfg.extensions = 1;
    cfg.variations = 1;
    cfg.confidence = conf;
    cfg.algo = algo;
    CU_ASSERT_EQUAL_FATAL(sremrt_explore_init(&r->ex, &cfg, &heap), 0);
    CU_ASSERT_EQUAL_FATAL(sremrt_explore_part_init(&r->ex, &r->part, &heap), 0);
}

static void xrun_free(xrun *r)
{
    sremrt_explore_part_free(&r->part);
    sremrt_explore_free(&r->ex);
}

static const char *trie_text(const sremrt_explore *ex, char *buf, size_t cap)
{
    sremrt_sink s;
    sremrt_sink_init_buf(&s, buf, cap);
    sremrt_ptrie_emit_text(&s, &ex->trie, abcd, 5);
    sremrt_sink_end(&s);
    return buf;
}

static uint64_t node_count(const sremrt_explore *ex, const char *seq)
{
    int32_t node = 0;
    for (; *seq && node >= 0; seq++)
        node = sremrt_ptrie_child(&ex->trie, node, *seq - 'A');
    return node >= 0 ? ex->trie.nodes[node].count : 0;
}

static uint64_t node_freq(const sremrt_explore *ex, const char *seq)
{
    int32_t node = 0;
    for (; *seq && node >= 0; seq++)
        node = sremrt_ptrie_child(&ex->trie, node, *seq - 'A');
    return node >= 0 ? ex->trie.nodes[node].freq : 0;
}

/* The paper's example: A1 A2 B3 A4 B5 C6 D7, <A,B,C>, stnm, window 10.
 * "count" is docs/language.md's: matches passing through the node. */
static void test_worked_example(void)
{
    static const int32_t abc[] = {0, 1, 2};
    static const int32_t stream[] = {0, 0, 1, 0, 1, 2, 3};
    static const char *const want =
        "<root> count=9\n"
        "  A count=9\n"
        "    A B count=9\n"
        "      A B C count=6 freq=3 pattern confidence=0.3333333333333333\n"
        "        A B C D count=3 freq=3 extension confidence=0.3333333333333333 suggested\n"
        "      A B D count=3 freq=3 variation confidence=0.3333333333333333 suggested\n";
    int a, w, i;
    for (a = 0; a < SREMRT_EXPLORE_ALGOS; a++)
        for (w = 0; w < 2; w++) {
            xrun r;
            sremrt_explore_step st;
            char buf[1024];
            xrun_init(&r, abc, 3, 4, SREMRT_EXPLORE_STNM,
                      w ? SREMRT_EXPLORE_TIME : SREMRT_EXPLORE_EVENTS, 10, 0.3,
                      (sremrt_explore_algo)a);
            for (i = 0; i < 6; i++)
                CU_ASSERT_EQUAL(sremrt_explore_push(&r.ex, &r.part, i + 1, stream[i], &st), 0);
            /* after C6 */
            CU_ASSERT_EQUAL(st.pattern, 3);
            CU_ASSERT_EQUAL(node_count(&r.ex, "ABC"), 3);
            CU_ASSERT_EQUAL(node_freq(&r.ex, "ABC"), 3);
            /* after D7: ABCD = 3, ABD = 3, count(ABC) = 3 + 3 = 6, freq(ABC) = 3 */
            CU_ASSERT_EQUAL(sremrt_explore_push(&r.ex, &r.part, 7, stream[6], &st), 2);
            CU_ASSERT_EQUAL(st.pattern, 0);
            CU_ASSERT_EQUAL(st.extension, 3);
            CU_ASSERT_EQUAL(st.variation, 3);
            CU_ASSERT_EQUAL(node_freq(&r.ex, "ABCD"), 3);
            CU_ASSERT_EQUAL(node_freq(&r.ex, "ABD"), 3);
            CU_ASSERT_EQUAL(node_count(&r.ex, "ABC"), 6);
            CU_ASSERT_EQUAL(node_freq(&r.ex, "ABC"), 3);
            CU_ASSERT_EQUAL(node_count(&r.ex, "AB"), 9);
            CU_ASSERT_EQUAL(sremrt_ptrie_total(&r.ex.trie), 9);
            /* both due on D7 (confidence 3/9 >= 0.3), extension first */
            CU_ASSERT_EQUAL(st.suggest[0].candidate, SREMRT_EXTENSION);
            CU_ASSERT_EQUAL(st.suggest[0].type, 3);
            CU_ASSERT_EQUAL(st.suggest[0].freq, 3);
            CU_ASSERT_DOUBLE_EQUAL(st.suggest[0].confidence, 1.0 / 3.0, 0);
            CU_ASSERT_EQUAL(st.suggest[1].candidate, SREMRT_VARIATION);
            ASSERT_STR(trie_text(&r.ex, buf, sizeof buf), want);
            CU_ASSERT_EQUAL(r.ex.inexact, 0);
            CU_ASSERT_EQUAL(r.ex.may_wrap, 0);
            xrun_free(&r);
        }
}

/* The same stream under stam: every index list counts. */
static void test_worked_example_stam(void)
{
    static const int32_t abc[] = {0, 1, 2};
    static const int32_t stream[] = {0, 0, 1, 0, 1, 2, 3};
    int a, i;
    for (a = 0; a < SREMRT_EXPLORE_ALGOS; a++) {
        xrun r;
        sremrt_explore_step st;
        xrun_init(&r, abc, 3, 4, SREMRT_EXPLORE_STAM, SREMRT_EXPLORE_EVENTS, 10, 0.5,
                  (sremrt_explore_algo)a);
        for (i = 0; i < 6; i++)
            sremrt_explore_push(&r.ex, &r.part, i + 1, stream[i], &st);
        /* (1,3,6) (2,3,6) (1,5,6) (2,5,6) (4,5,6) */
        CU_ASSERT_EQUAL(st.pattern, 5);
        CU_ASSERT_EQUAL(sremrt_explore_push(&r.ex, &r.part, 7, stream[6], &st), 0);
        CU_ASSERT_EQUAL(st.extension, 5);
        CU_ASSERT_EQUAL(st.variation, 5);
        CU_ASSERT_EQUAL(node_count(&r.ex, "ABC"), 10);
        CU_ASSERT_EQUAL(sremrt_ptrie_total(&r.ex.trie), 15);
        xrun_free(&r);
        /* window 3 events: at C6 only starts 4.. count: (4,5,6) */
        xrun_init(&r, abc, 3, 4, SREMRT_EXPLORE_STAM, SREMRT_EXPLORE_EVENTS, 3, 0.5,
                  (sremrt_explore_algo)a);
        for (i = 0; i < 7; i++)
            sremrt_explore_push(&r.ex, &r.part, i + 1, stream[i], &st);
        CU_ASSERT_EQUAL(node_freq(&r.ex, "ABC"), 1);
        CU_ASSERT_EQUAL(node_freq(&r.ex, "ABCD"), 0);   /* (4,5,6,7) is 4 events */
        CU_ASSERT_EQUAL(node_freq(&r.ex, "ABD"), 0);    /* (4,5,7) spans 4 events */
        xrun_free(&r);
    }
}

/* Suggestion rules: due once, only at or above the threshold, extension
 * before variation, after all of the event's updates. */
static void test_suggest_rules(void)
{
    static const int32_t ab[] = {0, 1};
    xrun r;
    sremrt_explore_step st;
    sremrt_record rec;
    const char *seq[4];
    char line[256];
    int a;
    for (a = 0; a < SREMRT_EXPLORE_ALGOS; a++) {
        xrun_init(&r, ab, 2, 4, SREMRT_EXPLORE_STNM, SREMRT_EXPLORE_UNBOUNDED, 0, 0.5,
                  (sremrt_explore_algo)a);
        /* A B: p once (total 1) */
        CU_ASSERT_EQUAL(sremrt_explore_push(&r.ex, &r.part, 1, 0, &st), 0);
        CU_ASSERT_EQUAL(sremrt_explore_push(&r.ex, &r.part, 2, 1, &st), 0);
        CU_ASSERT_EQUAL(st.pattern, 1);
        /* C: <A,B,C> 1 and <A,C> 1, total 3: 1/3 < 0.5, nothing due */
        CU_ASSERT_EQUAL(sremrt_explore_push(&r.ex, &r.part, 3, 2, &st), 0);
        CU_ASSERT_EQUAL(st.extension, 1);
        CU_ASSERT_EQUAL(st.variation, 1);
        /* A C: <A,C> again (start 2), <A,B,C> not (start 1 consumed by C3): 2/4 */
        CU_ASSERT_EQUAL(sremrt_explore_push(&r.ex, &r.part, 4, 0, &st), 0);
        CU_ASSERT_EQUAL(sremrt_explore_push(&r.ex, &r.part, 5, 2, &st), 1);
        CU_ASSERT_EQUAL(st.extension, 0);
        CU_ASSERT_EQUAL(st.variation, 1);
        CU_ASSERT_EQUAL(st.suggest[0].candidate, SREMRT_VARIATION);
        CU_ASSERT_EQUAL(st.suggest[0].type, 2);
        CU_ASSERT_EQUAL(st.suggest[0].freq, 2);
        CU_ASSERT_DOUBLE_EQUAL(st.suggest[0].confidence, 0.5, 0);
        sremrt_explore_suggest_record(&r.ex, &st.suggest[0], "over", abcd, seq, 4, &rec);
        rec.index = 5;
        rec.has_ts = 1;
        rec.ts = 5000;
        sremrt_record_format(line, sizeof line, SREMRT_JSONL, &rec);
        ASSERT_STR(line, "{\"kind\":\"suggest\",\"name\":\"over\",\"index\":5,\"ts\":5000,"
                         "\"candidate\":\"variation\",\"sequence\":[\"A\",\"C\"],"
                         "\"freq\":2,\"confidence\":0.5}\n");
        /* A C again: 3/5, but never twice */
        CU_ASSERT_EQUAL(sremrt_explore_push(&r.ex, &r.part, 6, 0, &st), 0);
        CU_ASSERT_EQUAL(sremrt_explore_push(&r.ex, &r.part, 7, 2, &st), 0);
        CU_ASSERT_EQUAL(st.variation, 1);
        CU_ASSERT_EQUAL(r.ex.trie.nodes[r.ex.var_node[2]].suggested, 1);
        /* type out of range: ignored */
        CU_ASSERT_EQUAL(sremrt_explore_push(&r.ex, &r.part, 8, 4, &st), -1);
        CU_ASSERT_EQUAL(sremrt_explore_push(&r.ex, &r.part, 8, -1, NULL), -1);
        CU_ASSERT_EQUAL(r.ex.events, 7);
        xrun_free(&r);
    }
    /* threshold 0: due at the first match; threshold 1: only if alone */
    xrun_init(&r, ab, 2, 3, SREMRT_EXPLORE_STAM, SREMRT_EXPLORE_UNBOUNDED, 0, 0.0,
              SREMRT_EXPLORE_DEFAULT);
    sremrt_explore_push(&r.ex, &r.part, 1, 0, &st);
    CU_ASSERT_EQUAL(sremrt_explore_push(&r.ex, &r.part, 2, 2, &st), 1);
    CU_ASSERT_EQUAL(st.suggest[0].candidate, SREMRT_VARIATION);
    CU_ASSERT_DOUBLE_EQUAL(st.suggest[0].confidence, 1.0, 0);
    xrun_free(&r);
    xrun_init(&r, ab, 2, 3, SREMRT_EXPLORE_STAM, SREMRT_EXPLORE_UNBOUNDED, 0, 1.0,
              SREMRT_EXPLORE_DEFAULT);
    sremrt_explore_push(&r.ex, &r.part, 1, 0, &st);
    sremrt_explore_push(&r.ex, &r.part, 2, 1, &st);
    CU_ASSERT_EQUAL(sremrt_explore_push(&r.ex, &r.part, 3, 2, &st), 0);   /* 1/3 each */
    xrun_free(&r);
}

/* Partitions: one state per key, one shared trie. */
static void test_partitions(void)
{
    static const int32_t ab[] = {0, 1};
    sremrt_alloc heap = sremrt_alloc_malloc();
    xrun r;
    sremrt_explore_part p2;
    sremrt_explore_step st;
    xrun_init(&r, ab, 2, 3, SREMRT_EXPLORE_STAM, SREMRT_EXPLORE_EVENTS, 2, 0.9,
              SREMRT_EXPLORE_DEFAULT);
    CU_ASSERT_EQUAL_FATAL(sremrt_explore_part_init(&r.ex, &p2, &heap), 0);
    /* key 1: A . B ; key 2: A B interleaved: within 2 events per substream */
    sremrt_explore_push(&r.ex, &r.part, 1, 0, &st);
    sremrt_explore_push(&r.ex, &p2, 2, 0, &st);
    sremrt_explore_push(&r.ex, &p2, 3, 1, &st);
    CU_ASSERT_EQUAL(st.pattern, 1);
    sremrt_explore_push(&r.ex, &r.part, 4, 1, &st);
    CU_ASSERT_EQUAL(st.pattern, 1);   /* positions 1 and 2 of key 1's substream */
    CU_ASSERT_EQUAL(node_freq(&r.ex, "AB"), 2);
    CU_ASSERT_EQUAL(r.part.pos, 2);
    CU_ASSERT_EQUAL(p2.pos, 2);
    CU_ASSERT_EQUAL(r.ex.events, 4);
    sremrt_explore_part_free(&p2);
    xrun_free(&r);
}

static void test_summary(void)
{
    static const int32_t ab[] = {0, 1};
    static const int32_t stream[] = {0, 1, 2, 0, 3, 0, 1, 3, 4, 0, 3};
    xrun r;
    sremrt_explore_step st;
    sremrt_suggestion best[4];
    sremrt_record rec;
    sremrt_explore_summary store;
    char buf[512];
    sremrt_sink s;
    int i;
    xrun_init(&r, ab, 2, 5, SREMRT_EXPLORE_STNM, SREMRT_EXPLORE_UNBOUNDED, 0, 0.9,
              SREMRT_EXPLORE_DEFAULT);
    for (i = 0; i < 11; i++)
        sremrt_explore_push(&r.ex, &r.part, i + 1, stream[i], &st);
    /* Starts A1 A4 A6 A10. p: A1-B2, A4-B7, A6-B7 (3). <A,C>: A1-C3;
     * <A,B,C>: A1-B2-C3. <A,D>: A1-D5, A4-D5, A6-D8, A10-D11 (4); <A,B,D>:
     * A1-B2-D5, A4-B7-D8, A6-B7-D8 (3). <A,E>: A1 A4 A6 - E9 (3); <A,B,E>:
     * A1-B2-E9, A4-B7-E9, A6-B7-E9 (3). Total 18. */
    CU_ASSERT_EQUAL(sremrt_explore_best(&r.ex, best, 4), 6);
    CU_ASSERT_EQUAL(best[0].candidate, SREMRT_VARIATION);
    CU_ASSERT_EQUAL(best[0].type, 3);
    CU_ASSERT_EQUAL(best[0].freq, 4);
    CU_ASSERT_EQUAL(best[1].candidate, SREMRT_EXTENSION);   /* ties: extensions first */
    CU_ASSERT_EQUAL(best[1].type, 3);
    CU_ASSERT_EQUAL(best[2].candidate, SREMRT_EXTENSION);   /* then enum order */
    CU_ASSERT_EQUAL(best[2].type, 4);
    CU_ASSERT_EQUAL(best[3].candidate, SREMRT_VARIATION);
    CU_ASSERT_EQUAL(best[3].type, 4);
    CU_ASSERT_EQUAL(best[3].freq, 3);
    CU_ASSERT_EQUAL(sremrt_explore_best(&r.ex, best, 0), 6);
    sremrt_explore_summary_record(&r.ex, "over", abcd, &store, &rec);
    sremrt_record_format(buf, sizeof buf, SREMRT_JSONL, &rec);
    ASSERT_STR(buf, "{\"kind\":\"summary\",\"name\":\"over\",\"events\":11,\"freq\":3,\"best\":["
                    "{\"candidate\":\"variation\",\"sequence\":[\"A\",\"D\"],\"freq\":4,\"confidence\":0.2222222222222222},"
                    "{\"candidate\":\"extension\",\"sequence\":[\"A\",\"B\",\"D\"],\"freq\":3,\"confidence\":0.16666666666666666},"
                    "{\"candidate\":\"extension\",\"sequence\":[\"A\",\"B\",\"E\"],\"freq\":3,\"confidence\":0.16666666666666666}]}\n");
    sremrt_record_format(buf, sizeof buf, SREMRT_TEXT, &rec);
    ASSERT_STR(buf, "summary over events=11 freq=3 best=[variation=<A D> freq=4 confidence=0.2222222222222222, "
                    "extension=<A B D> freq=3 confidence=0.16666666666666666, "
                    "extension=<A B E> freq=3 confidence=0.16666666666666666]\n");
    sremrt_sink_init_buf(&s, buf, sizeof buf);
    sremrt_explore_summary_emit(&s, &r.ex, "over", abcd, 2);
    sremrt_sink_end(&s);
    ASSERT_STR(buf, "explore over: events=11 matches=18 pattern=3 algorithm=default\n"
                    "  variation <A D> freq=4 confidence=0.2222222222222222\n"
                    "  extension <A B D> freq=3 confidence=0.16666666666666666\n");
    sremrt_sink_init_buf(&s, buf, sizeof buf);
    sremrt_ptrie_emit_dot(&s, &r.ex.trie, "over", abcd, 5);
    sremrt_sink_end(&s);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "digraph \"over\" {\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "  n2 [label=\"B\\ncount=10\\nfreq=3\\nconf=0.16666666666666666\\npattern\", style=bold];\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "  n1 -> n2;\n"));
    xrun_free(&r);
}

static void test_config(void)
{
    static const int32_t ab[] = {0, 1};
    static const int32_t bad[] = {0, 7};
    sremrt_explore_config cfg;
    sremrt_explore ex;
    sremrt_explore_part part;
    unsigned char buf[4096], pbuf[4096];
    sremrt_explore_step st;
    memset(&cfg, 0, sizeof cfg);
    cfg.pattern = ab;
    cfg.m = 2;
    cfg.nvalues = 3;
    cfg.policy = SREMRT_EXPLORE_STNM;
    cfg.window = SREMRT_EXPLORE_EVENTS;
    cfg.width = 5;
    cfg.variations = 1;
    cfg.confidence = 0.5;
    CU_ASSERT_PTR_NULL(sremrt_explore_check(&cfg));
    CU_ASSERT(sremrt_explore_bytes(&cfg) > 0);
    CU_ASSERT(sremrt_explore_bytes(&cfg) < sizeof buf);
    CU_ASSERT_EQUAL_FATAL(sremrt_explore_init_buf(&ex, &cfg, buf + 3, sizeof buf - 3), 0);
    CU_ASSERT_EQUAL(ex.capacity, 5);              /* a count window needs N entries */
    CU_ASSERT(sremrt_explore_part_bytes(&ex) < sizeof pbuf);
    CU_ASSERT_EQUAL(sremrt_explore_part_init_buf(&ex, &part, pbuf, 8), -1);
    CU_ASSERT_EQUAL(sremrt_explore_push(&ex, &part, 1, 0, &st), -1);   /* no memory: ignored */
    CU_ASSERT_EQUAL_FATAL(sremrt_explore_part_init_buf(&ex, &part, pbuf + 1, sizeof pbuf - 1), 0);
    sremrt_explore_push(&ex, &part, 1, 0, &st);
    sremrt_explore_push(&ex, &part, 2, 2, &st);
    CU_ASSERT_EQUAL(st.variation, 1);
    CU_ASSERT_EQUAL(st.extension, 0);             /* extensions not asked for */
    CU_ASSERT_EQUAL(ex.ext_node[2], -1);
    sremrt_explore_part_free(&part);
    sremrt_explore_free(&ex);
    CU_ASSERT_EQUAL(sremrt_explore_init_buf(&ex, &cfg, buf, 16), -1);
    cfg.pattern = bad;
    CU_ASSERT_PTR_NOT_NULL(sremrt_explore_check(&cfg));
    CU_ASSERT_EQUAL(sremrt_explore_bytes(&cfg), 0);
    cfg.pattern = ab;
    cfg.m = 1;
    CU_ASSERT_PTR_NOT_NULL(sremrt_explore_check(&cfg));
    cfg.m = 2;
    cfg.variations = 0;
    CU_ASSERT_PTR_NOT_NULL(sremrt_explore_check(&cfg));
    cfg.variations = 1;
    cfg.confidence = 1.5;
    CU_ASSERT_PTR_NOT_NULL(sremrt_explore_check(&cfg));
    cfg.confidence = 0.5;
    cfg.width = 0;
    CU_ASSERT_PTR_NOT_NULL(sremrt_explore_check(&cfg));
    cfg.window = SREMRT_EXPLORE_UNBOUNDED;
    CU_ASSERT_PTR_NULL(sremrt_explore_check(&cfg));
    CU_ASSERT_EQUAL(sremrt_explore_algo_parse("rc"), SREMRT_EXPLORE_RC);
    CU_ASSERT_EQUAL(sremrt_explore_algo_parse("default"), SREMRT_EXPLORE_DEFAULT);
    CU_ASSERT_EQUAL(sremrt_explore_algo_parse("fast"), -1);
    ASSERT_STR(sremrt_explore_algo_name(SREMRT_EXPLORE_IC), "ic");
    /* an arena that runs dry: init fails cleanly */
    {
        sremrt_arena ar;
        sremrt_alloc hook;
        sremrt_arena_init(&ar, buf, 64);
        hook = sremrt_arena_hook(&ar);
        CU_ASSERT_EQUAL(sremrt_explore_init(&ex, &cfg, &hook), -1);
        CU_ASSERT_EQUAL(ar.failures, 1);
    }
}

/* A full window ring: entries dropped, counted, counts marked inexact and
 * never above the exact ones. */
static void test_capacity_overflow(void)
{
    static const int32_t abc[] = {0, 1, 2};
    int pol, a, i;
    for (pol = 0; pol < 2; pol++)
        for (a = 0; a < SREMRT_EXPLORE_ALGOS; a++) {
            sremrt_alloc heap = sremrt_alloc_malloc();
            sremrt_explore_config cfg;
            sremrt_explore small, exact;
            sremrt_explore_part ps, pe;
            sremrt_explore_step s1, s2;
            uint64_t x = 12345;
            int low = 0;
            memset(&cfg, 0, sizeof cfg);
            cfg.pattern = abc;
            cfg.m = 3;
            cfg.nvalues = 5;
            cfg.policy = (sremrt_explore_policy)pol;
            cfg.window = SREMRT_EXPLORE_EVENTS;
            cfg.width = 40;
            cfg.extensions = cfg.variations = 1;
            cfg.confidence = 0.5;
            cfg.algo = (sremrt_explore_algo)a;
            cfg.capacity = 4;
            CU_ASSERT_EQUAL_FATAL(sremrt_explore_init(&small, &cfg, &heap), 0);
            cfg.capacity = 0;
            cfg.algo = SREMRT_EXPLORE_RC;
            CU_ASSERT_EQUAL_FATAL(sremrt_explore_init(&exact, &cfg, &heap), 0);
            CU_ASSERT_EQUAL(exact.capacity, 40);
            CU_ASSERT_EQUAL_FATAL(sremrt_explore_part_init(&small, &ps, &heap), 0);
            CU_ASSERT_EQUAL_FATAL(sremrt_explore_part_init(&exact, &pe, &heap), 0);
            for (i = 0; i < 400; i++) {
                int32_t t;
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                t = (int32_t)(x % 5);
                sremrt_explore_push(&small, &ps, i, t, &s1);
                sremrt_explore_push(&exact, &pe, i, t, &s2);
                CU_ASSERT(s1.pattern <= s2.pattern && s1.extension <= s2.extension &&
                          s1.variation <= s2.variation);
                low += s1.pattern < s2.pattern || s1.extension < s2.extension ||
                       s1.variation < s2.variation;
            }
            CU_ASSERT(low > 0);
            CU_ASSERT(small.overflows > 0);
            CU_ASSERT_EQUAL(small.overflows, ps.overflows);
            CU_ASSERT_EQUAL(small.inexact, 1);
            CU_ASSERT_EQUAL(exact.inexact, 0);
            CU_ASSERT(ps.size <= 4);
            sremrt_explore_part_free(&ps);
            sremrt_explore_part_free(&pe);
            sremrt_explore_free(&small);
            sremrt_explore_free(&exact);
        }
}

/* stam counts are computed modulo 2^64: exact below 2^64, flagged above.
 * <A x19, B> after 150 A's in a 100-event window: C(99, 19) mod 2^64 at B,
 * checked against Pascal's triangle mod 2^64. */
static void test_wrap(void)
{
    int32_t pat[20];
    static uint64_t pascal[100][20];
    int a, i, k;
    for (k = 0; k < 19; k++)
        pat[k] = 0;
    pat[19] = 1;
    for (i = 0; i < 100; i++)
        for (k = 0; k < 20; k++)
            pascal[i][k] = k == 0 ? 1 : i == 0 ? 0 : pascal[i - 1][k - 1] + pascal[i - 1][k];
    for (a = 0; a < SREMRT_EXPLORE_ALGOS; a++) {
        xrun r;
        sremrt_explore_step st;
        if (a == SREMRT_EXPLORE_BF)
            continue;   /* would enumerate ~10^20 lists */
        xrun_init(&r, pat, 20, 3, SREMRT_EXPLORE_STAM, SREMRT_EXPLORE_EVENTS, 100, 0.5,
                  (sremrt_explore_algo)a);
        for (i = 0; i < 150; i++)
            sremrt_explore_push(&r.ex, &r.part, i + 1, 0, &st);
        CU_ASSERT_EQUAL(r.ex.may_wrap, 0);
        sremrt_explore_push(&r.ex, &r.part, 151, 1, &st);
        CU_ASSERT_EQUAL(st.pattern, pascal[99][19]);
        if (a != SREMRT_EXPLORE_IC)
            CU_ASSERT_EQUAL(r.ex.may_wrap, 1);
        xrun_free(&r);
    }
    {
        /* m = 2: C(k, 2) < 2^64 - 1 up to k = 6074001000 */
        static const int32_t ab[] = {0, 1};
        xrun r;
        xrun_init(&r, ab, 2, 3, SREMRT_EXPLORE_STAM, SREMRT_EXPLORE_UNBOUNDED, 0, 0.5,
                  SREMRT_EXPLORE_DEFAULT);
        CU_ASSERT_EQUAL(r.ex.wrap_limit, 6074001000u);
        xrun_free(&r);
    }
}

void add_ptrie_tests(void)
{
    CU_pSuite s = CU_add_suite("ptrie", NULL, NULL);
    CU_add_test(s, "trie nodes and counts", test_trie_nodes);
    CU_add_test(s, "trie buffers", test_trie_buffers);
    CU_add_test(s, "worked example (stnm)", test_worked_example);
    CU_add_test(s, "worked example (stam)", test_worked_example_stam);
    CU_add_test(s, "suggestion rules", test_suggest_rules);
    CU_add_test(s, "partitions", test_partitions);
    CU_add_test(s, "summary and dumps", test_summary);
    CU_add_test(s, "configuration", test_config);
    CU_add_test(s, "capacity overflow", test_capacity_overflow);
    CU_add_test(s, "64-bit counts", test_wrap);
}
