/* test_canon.c: the replay of runtime/canon.c on hand-built descriptions:
 * the examples of docs/language.md 3.4, stam and stnm chains, ~R, a
 * condition that reads a register, the work budget, and the parse from
 * a known start (sremrt_canon_at). */
#include "rt.h"

#include "sremrt/canon.h"

/* Events are characters; condition k holds on "ABC"[k], condition 3 on an
 * event equal to register 0's (false while it is empty). */
static int cond(int32_t k, const void *e, const void *const *regs)
{
    char c = *(const char *)e;
    if (k == 3)
        return regs[0] != NULL && *(const char *)regs[0] == c;
    return c == "ABC"[k];
}

enum { ATOM = SREMRT_CN_ATOM, SEQ = SREMRT_CN_SEQ, ALT = SREMRT_CN_ALT, AND = SREMRT_CN_AND,
       NOT = SREMRT_CN_NOT, REP = SREMRT_CN_REP };
#define ANY -1

/* The canonical match of pat over the events s (the detection its last),
 * as "start x:pos y:pos" (0-based), "none" or "budget"; from start at
 * alone when at >= 0 (sremrt_canon_at). */
static const char *replay_from(const sremrt_canon_node *nodes, int32_t root, int32_t policy, const int32_t *chain,
                               int32_t nchain, int32_t nregs, const char *s, int64_t budget, int32_t at)
{
    static char out[64];
    const void *ev[16], *regs[4];
    int32_t bind[4], pos[4], n = (int32_t)strlen(s);
    for (int32_t k = 0; k < n; k++)
        ev[k] = s + k;
    sremrt_canon_pat p = {nodes, root, policy, chain, nchain, nregs, cond};
    sremrt_canon_io io = {ev, n, 0, budget, bind, pos, regs};
    int32_t j = at >= 0 ? sremrt_canon_at(&p, &io, at) : sremrt_canon_find(&p, &io);
    if (j < 0)
        return j == -1 ? "none" : "budget";
    int len = snprintf(out, sizeof out, "%d", (int)j);
    for (int32_t r = 0; r < nregs; r++)
        if (bind[r] >= 0)
            len += snprintf(out + len, sizeof out - (size_t)len, " %c:%d", "xyz"[r], (int)bind[r]);
    return out;
}

static const char *replay(const sremrt_canon_node *nodes, int32_t root, int32_t policy, const int32_t *chain,
                          int32_t nchain, int32_t nregs, const char *s, int64_t budget)
{
    return replay_from(nodes, root, policy, chain, nchain, nregs, s, budget, -1);
}

#define STRICT(nodes, root, nregs, s) \
    replay(nodes, root, SREMRT_CANON_STRICT, NULL, 0, nregs, s, 0)

/* The table of docs/language.md 3.4, on A B B. */
static void test_reference_examples(void)
{
    /* A (x:_)* y:B */
    static const sremrt_canon_node e1[] = {
        {ATOM, 0, -1, 0, 0}, {ATOM, ANY, 0, 0, 0}, {REP, 1, -1, 0, -1}, {ATOM, 1, 1, 0, 0},
        {SEQ, 2, 3, 0, 0}, {SEQ, 0, 4, 0, 0}};
    ASSERT_STR(STRICT(e1, 5, 2, "ABB"), "0 x:1 y:2");
    /* (x:_)* (y:B)* */
    static const sremrt_canon_node e2[] = {
        {ATOM, ANY, 0, 0, 0}, {REP, 0, -1, 0, -1}, {ATOM, 1, 1, 0, 0}, {REP, 2, -1, 0, -1}, {SEQ, 1, 3, 0, 0}};
    ASSERT_STR(STRICT(e2, 4, 2, "ABB"), "2 x:2");
    /* A (x:B | y:B)+ */
    static const sremrt_canon_node e3[] = {
        {ATOM, 0, -1, 0, 0}, {ATOM, 1, 0, 0, 0}, {ATOM, 1, 1, 0, 0}, {ALT, 1, 2, 0, 0}, {REP, 3, -1, 1, -1},
        {SEQ, 0, 4, 0, 0}};
    ASSERT_STR(STRICT(e3, 5, 2, "ABB"), "0 x:2");
    /* ((x:A _*) & (_* y:B)) _* */
    static const sremrt_canon_node e4[] = {
        {ATOM, 0, 0, 0, 0}, {ATOM, ANY, -1, 0, 0}, {REP, 1, -1, 0, -1}, {SEQ, 0, 2, 0, 0},
        {ATOM, ANY, -1, 0, 0}, {REP, 4, -1, 0, -1}, {ATOM, 1, 1, 0, 0}, {SEQ, 5, 6, 0, 0},
        {AND, 3, 7, 0, 0}, {ATOM, ANY, -1, 0, 0}, {REP, 9, -1, 0, -1}, {SEQ, 8, 10, 0, 0}};
    ASSERT_STR(STRICT(e4, 11, 2, "ABB"), "0 x:0 y:2");
    /* A ((y:C)? | x:B)* _* : the first iteration matches empty, the star stops */
    static const sremrt_canon_node e5[] = {
        {ATOM, 0, -1, 0, 0}, {ATOM, 2, 1, 0, 0}, {REP, 1, -1, 0, 1}, {ATOM, 1, 0, 0, 0}, {ALT, 2, 3, 0, 0},
        {REP, 4, -1, 0, -1}, {ATOM, ANY, -1, 0, 0}, {REP, 6, -1, 0, -1}, {SEQ, 5, 7, 0, 0}, {SEQ, 0, 8, 0, 0}};
    ASSERT_STR(STRICT(e5, 9, 2, "ABB"), "0");
    /* no match ends at the last event */
    ASSERT_STR(STRICT(e1, 5, 2, "BBA"), "none");
}

/* x:A y:B under stam on A A B B: at 3 and at 4, start 2 (1-based). */
static void test_chains(void)
{
    static const sremrt_canon_node n[] = {{ATOM, 0, 0, 0, 0}, {ATOM, 1, 1, 0, 0}, {ATOM, 2, -1, 0, 0}};
    static const int32_t chain[] = {0, 1}, chain3[] = {0, 1, 2};
    ASSERT_STR(replay(n, 0, SREMRT_CANON_STAM, chain, 2, 2, "AAB", 0), "1 x:1 y:2");
    ASSERT_STR(replay(n, 0, SREMRT_CANON_STAM, chain, 2, 2, "AABB", 0), "1 x:1 y:3");
    /* stam A B C on A B A B C C: at the last C, the greatest start is 2
       (0-based); its chain with the smallest later indices is 2 3 5 */
    ASSERT_STR(replay(n, 0, SREMRT_CANON_STAM, chain3, 3, 2, "ABABCC", 0), "2 x:2 y:3");
    /* stnm: a start's one chain takes the first C, so it ends at 4, not 5 */
    ASSERT_STR(replay(n, 0, SREMRT_CANON_STNM, chain3, 3, 2, "ABABCC", 0), "none");
    ASSERT_STR(replay(n, 0, SREMRT_CANON_STNM, chain3, 3, 2, "ABABC", 0), "2 x:2 y:3");
}

/* ~(A B) within 3 events: spans from the longest down that A B does not match. */
static void test_not(void)
{
    static const sremrt_canon_node n[] = {{ATOM, 0, -1, 0, 0}, {ATOM, 1, -1, 0, 0}, {SEQ, 0, 1, 0, 0},
                                          {NOT, 2, -1, 3, 0}};
    ASSERT_STR(STRICT(n, 3, 0, "AB"), "1");    /* "AB" is matched; "B" is not */
    ASSERT_STR(STRICT(n, 3, 0, "BAC"), "2");   /* the greatest start: "C" */
}

/* x:_ _* [same as x]: the condition reads the register as the parse goes. */
static void test_register(void)
{
    static const sremrt_canon_node n[] = {{ATOM, ANY, 0, 0, 0}, {ATOM, ANY, -1, 0, 0}, {REP, 1, -1, 0, -1},
                                          {ATOM, 3, -1, 0, 0}, {SEQ, 2, 3, 0, 0}, {SEQ, 0, 4, 0, 0}};
    ASSERT_STR(STRICT(n, 5, 1, "ABCAB"), "1 x:1");
    ASSERT_STR(STRICT(n, 5, 1, "ABCAC"), "2 x:2");
    ASSERT_STR(STRICT(n, 5, 1, "ABC"), "none");
}

/* (_*)* _* B on many events: a tiny budget gives up instead of guessing. */
static void test_budget(void)
{
    static const sremrt_canon_node n[] = {{ATOM, ANY, -1, 0, 0}, {REP, 0, -1, 0, -1}, {REP, 1, -1, 0, -1},
                                          {ATOM, 1, -1, 0, 0}, {SEQ, 2, 3, 0, 0}};
    ASSERT_STR(replay(n, 4, SREMRT_CANON_STRICT, NULL, 0, 0, "AAAAAAAAAAAAAAAB", 3), "budget");
    ASSERT_STR(replay(n, 4, SREMRT_CANON_STRICT, NULL, 0, 0, "AAAAAAAAAAAAAAAB", 0), "15");
}

/* sremrt_canon_at: the canonical parse from the one start given (the
 * runs strategy knows it), its bindings those of that start's parse; a
 * start that does not parse, or past the events, is none. */
static const char *replay_at(const sremrt_canon_node *nodes, int32_t root, int32_t nregs, const char *s, int32_t j)
{
    return replay_from(nodes, root, SREMRT_CANON_STRICT, NULL, 0, nregs, s, 0, j);
}

static void test_at(void)
{
    /* (x:_)* (y:B)* on A B B: from 0 the greedy star takes all three */
    static const sremrt_canon_node e2[] = {
        {ATOM, ANY, 0, 0, 0}, {REP, 0, -1, 0, -1}, {ATOM, 1, 1, 0, 0}, {REP, 2, -1, 0, -1}, {SEQ, 1, 3, 0, 0}};
    ASSERT_STR(replay_at(e2, 4, 2, "ABB", 0), "0 x:2");
    ASSERT_STR(replay_at(e2, 4, 2, "ABB", 2), "2 x:2");
    ASSERT_STR(replay_at(e2, 4, 2, "ABB", 3), "none");
    /* x:_ _* [same as x] on A B C A B: only 1 parses */
    static const sremrt_canon_node n[] = {{ATOM, ANY, 0, 0, 0}, {ATOM, ANY, -1, 0, 0}, {REP, 1, -1, 0, -1},
                                          {ATOM, 3, -1, 0, 0}, {SEQ, 2, 3, 0, 0}, {SEQ, 0, 4, 0, 0}};
    ASSERT_STR(replay_at(n, 5, 1, "ABCAB", 1), "1 x:1");
    ASSERT_STR(replay_at(n, 5, 1, "ABCAB", 0), "none");
    ASSERT_STR(replay_at(n, 5, 1, "ABCAB", 2), "none");
}

void add_canon_tests(void)
{
    CU_pSuite s = CU_add_suite("canon", NULL, NULL);
    CU_add_test(s, "the examples of language.md 3.4", test_reference_examples);
    CU_add_test(s, "stam and stnm chains", test_chains);
    CU_add_test(s, "complement", test_not);
    CU_add_test(s, "a condition reads a register", test_register);
    CU_add_test(s, "work budget", test_budget);
    CU_add_test(s, "the parse from a known start", test_at);
}
