/* test_state.c: checkpoints (sremrt/state.h): the codec round trip, every
 * truncation and every changed bit refused, foreign and short buffers; a
 * partition table, episode counters and explore windows saved after k
 * random events and loaded into fresh ones that then give the same
 * results on the rest as the originals (save, load, save: same bytes). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>

#include "rt.h"
#include "sremrt/state.h"

enum { HASH = 12345 };

/* Walks one object of each kind the codec has; *v gets what load read. */
typedef struct plain {
    uint64_t u;
    int64_t i;
    int32_t n;
    int flag;
    char text[5];
} plain;

static int walk_plain(sremrt_state_io *io, plain *p)
{
    sremrt_state_header(io, HASH, 7, 2);
    sremrt_state_u64(io, &p->u);
    sremrt_state_i64(io, &p->i);
    sremrt_state_count(io, &p->n, 100);
    sremrt_state_int(io, &p->flag);
    sremrt_state_bytes(io, p->text, sizeof p->text);
    return sremrt_state_end(io);
}

/* Saves p; the bytes (malloc'd) and their count. */
static unsigned char *save_plain(plain *p, size_t *n)
{
    sremrt_state_io io;
    sremrt_state_begin(&io, SREMRT_STATE_SIZE, NULL, 0);
    walk_plain(&io, p);
    *n = io.pos;
    unsigned char *buf = malloc(*n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
    sremrt_state_begin(&io, SREMRT_STATE_SAVE, buf, *n);
    CU_ASSERT_EQUAL(walk_plain(&io, p), 0);
    CU_ASSERT_EQUAL(io.pos, *n);
    return buf;
}

static int load_plain(const unsigned char *buf, size_t n, plain *p)
{
    sremrt_state_io io;
    memset(p, 0, sizeof *p);
    sremrt_state_begin(&io, SREMRT_STATE_LOAD, (void *)buf, n);
    return walk_plain(&io, p);
}

static void test_round_trip(void)
{
    plain a = {UINT64_MAX - 3, INT64_MIN + 5, 42, -1, "abcd"}, b;
    size_t n;
    unsigned char *buf = save_plain(&a, &n);
    CU_ASSERT_EQUAL(n, SREMRT_STATE_HEADER + 8 + 8 + 4 + 4 + 5);
    CU_ASSERT_EQUAL(load_plain(buf, n, &b), 0);
    CU_ASSERT_EQUAL(b.u, a.u);
    CU_ASSERT_EQUAL(b.i, a.i);
    CU_ASSERT_EQUAL(b.n, 42);
    CU_ASSERT_EQUAL(b.flag, -1);
    CU_ASSERT_STRING_EQUAL(b.text, "abcd");
    sremrt_state_info info;
    CU_ASSERT_EQUAL(sremrt_state_peek(buf, n, &info), 0);
    CU_ASSERT_EQUAL(info.events, 7);
    CU_ASSERT_EQUAL(info.rejected, 2);
    CU_ASSERT_EQUAL(info.body, n - SREMRT_STATE_HEADER);
    CU_ASSERT_EQUAL(info.version, SREMRT_STATE_VERSION);
    CU_ASSERT_EQUAL(memcmp(buf, "SREMCKPT", 8), 0);
    free(buf);
}

/* Every cut and every changed bit: refused, with an error code. */
static void test_damage(void)
{
    plain a = {1, -2, 3, 4, "xyz"}, b;
    size_t n;
    unsigned char *buf = save_plain(&a, &n);
    for (size_t len = 0; len < n; len++)
        CU_ASSERT_EQUAL(load_plain(buf, len, &b), SREMRT_STATE_EFORMAT);
    for (size_t at = 0; at < n; at++)
        for (int bit = 0; bit < 8; bit++) {
            buf[at] ^= (unsigned char)(1u << bit);
            int err = load_plain(buf, n, &b);
            CU_ASSERT(err == SREMRT_STATE_EFORMAT || err == SREMRT_STATE_EVERSION || err == SREMRT_STATE_EFOREIGN);
            buf[at] ^= (unsigned char)(1u << bit);
        }
    CU_ASSERT_EQUAL(load_plain(buf, n, &b), 0);
    CU_ASSERT_EQUAL(sremrt_state_peek(buf, 10, NULL), SREMRT_STATE_EFORMAT);
    free(buf);
}

static int walk_other(sremrt_state_io *io, plain *p)
{
    sremrt_state_header(io, HASH + 1, 0, 0);
    sremrt_state_u64(io, &p->u);
    return sremrt_state_end(io);
}

static void test_foreign_and_space(void)
{
    plain a = {1, 2, 3, 4, "abc"}, b;
    size_t n;
    unsigned char *buf = save_plain(&a, &n);
    sremrt_state_io io;
    sremrt_state_begin(&io, SREMRT_STATE_LOAD, buf, n);
    CU_ASSERT_EQUAL(walk_other(&io, &b), SREMRT_STATE_EFOREIGN);
    sremrt_state_begin(&io, SREMRT_STATE_SAVE, buf, n - 1);   /* one byte short */
    CU_ASSERT_EQUAL(walk_plain(&io, &a), SREMRT_STATE_ESPACE);
    sremrt_state_begin(&io, SREMRT_STATE_SAVE, buf, 3);
    CU_ASSERT_EQUAL(walk_plain(&io, &a), SREMRT_STATE_ESPACE);
    a.n = 101;   /* above the count's bound: load refuses it */
    free(buf);
    buf = save_plain(&a, &n);
    CU_ASSERT_EQUAL(load_plain(buf, n, &b), SREMRT_STATE_EFORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(sremrt_state_strerror(SREMRT_STATE_EFOREIGN), "another pattern file"));
    free(buf);
}

/* ---- runtime objects: saved after k events, loaded, the rest fed to both --- */

typedef int (*walk_fn)(sremrt_state_io *io, void *obj);

/* The object's checkpoint (malloc'd), its length in *n. */
static unsigned char *save_obj(walk_fn walk, void *obj, size_t *n)
{
    sremrt_state_io io;
    sremrt_state_begin(&io, SREMRT_STATE_SIZE, NULL, 0);
    walk(&io, obj);
    *n = io.pos;
    unsigned char *buf = malloc(*n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
    sremrt_state_begin(&io, SREMRT_STATE_SAVE, buf, *n);
    CU_ASSERT_EQUAL(walk(&io, obj), 0);
    return buf;
}

/* Loads buf into obj, saves it again: the same bytes. 0 or the error. */
static int load_obj(walk_fn walk, void *obj, const unsigned char *buf, size_t n)
{
    sremrt_state_io io;
    sremrt_state_begin(&io, SREMRT_STATE_LOAD, (void *)buf, n);
    int err = walk(&io, obj);
    if (err == 0) {
        size_t m;
        unsigned char *again = save_obj(walk, obj, &m);
        CU_ASSERT(m == n && memcmp(again, buf, n) == 0);
        free(again);
    }
    return err;
}

static int walk_keymap(sremrt_state_io *io, void *obj)
{
    sremrt_keymap *km = obj;
    int32_t n = km->count;
    sremrt_state_header(io, HASH, 0, 0);
    sremrt_state_count(io, &n, SREMRT_KEYMAP_MAX);
    sremrt_state_keymap(io, km, n);
    return sremrt_state_end(io);
}

static void test_keymap(void)
{
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_keymap a, b, small;
    CU_ASSERT_EQUAL_FATAL(sremrt_keymap_init(&a, 64, &heap), 0);
    CU_ASSERT_EQUAL_FATAL(sremrt_keymap_init(&b, 64, &heap), 0);
    CU_ASSERT_EQUAL_FATAL(sremrt_keymap_init(&small, 4, &heap), 0);
    for (int i = 0; i < 50; i++)
        sremrt_keymap_get(&a, (int64_t)(i * 7919) % 101 - 50, NULL);
    size_t n;
    unsigned char *buf = save_obj(walk_keymap, &a, &n);
    CU_ASSERT_EQUAL(load_obj(walk_keymap, &b, buf, n), 0);
    CU_ASSERT_EQUAL(b.count, a.count);
    for (int32_t s = 0; s < a.count; s++)
        CU_ASSERT_EQUAL(sremrt_keymap_find(&b, sremrt_keymap_key(&a, s)), s);
    CU_ASSERT_EQUAL(load_obj(walk_keymap, &small, buf, n), SREMRT_STATE_ECONFIG);
    CU_ASSERT_EQUAL(load_obj(walk_keymap, &a, buf, n), SREMRT_STATE_EUSED);
    free(buf);
    sremrt_keymap_free(&a);
    sremrt_keymap_free(&b);
    sremrt_keymap_free(&small);
}

static int walk_episode(sremrt_state_io *io, void *obj)
{
    sremrt_state_header(io, HASH, 0, 0);
    sremrt_state_episode(io, obj);
    return sremrt_state_end(io);
}

/* One random episode configuration and stream; checkpoint after k. */
static void episode_case(uint64_t seed)
{
    sremrt_alloc heap = sremrt_alloc_malloc();
    uint64_t s = seed;
    int k_el = 1 + (int)(seed % 4), n = 200, k = (int)((seed * 7) % 201);
    sremrt_episode_config cfg = {k_el, seed % 3 ? SREMRT_EPISODE_DISTINCT : SREMRT_EPISODE_NONOVERLAPPED,
                                 seed % 2 ? SREMRT_EPISODE_TIME : SREMRT_EPISODE_EVENTS, 3 + (int64_t)(seed % 5),
                                 0, (int32_t)(seed % 5), 0};
    sremrt_episode a, b;
    CU_ASSERT_EQUAL_FATAL(sremrt_episode_init(&a, &cfg, &heap), 0);
    CU_ASSERT_EQUAL_FATAL(sremrt_episode_init(&b, &cfg, &heap), 0);
    int64_t ts = 0;
    uint32_t masks[200];
    int64_t times[200];
    for (int e = 0; e < n; e++) {   /* masks of one or more elements: configurations */
        s = s * 6364136223846793005u + 1442695040888963407u;
        masks[e] = (uint32_t)(s >> 40) & ((1u << k_el) - 1u);
        times[e] = ts += (int64_t)((s >> 20) % 3);
    }
    for (int e = 0; e < k; e++)
        sremrt_episode_push(&a, e + 1, times[e], masks[e]);
    size_t len;
    unsigned char *buf = save_obj(walk_episode, &a, &len);
    CU_ASSERT_EQUAL(load_obj(walk_episode, &b, buf, len), 0);
    int bad = 0;
    for (int e = k; e < n; e++) {
        int ra = sremrt_episode_push(&a, e + 1, times[e], masks[e]);
        int rb = sremrt_episode_push(&b, e + 1, times[e], masks[e]);
        bad |= ra != rb || a.freq != b.freq || a.exact != b.exact;
    }
    if (bad)
        fprintf(stderr, "\nepisode checkpoint: seed %llu differs\n", (unsigned long long)seed);
    CU_ASSERT_FALSE(bad);
    free(buf);
    sremrt_episode_free(&a);
    sremrt_episode_free(&b);
}

static void test_episodes(void)
{
    for (uint64_t seed = 1; seed <= 300; seed++)
        episode_case(seed);
}

typedef struct xp {
    sremrt_explore ex;
    sremrt_explore_part part;
} xp;

static int walk_explore(sremrt_state_io *io, void *obj)
{
    xp *x = obj;
    sremrt_state_header(io, HASH, 0, 0);
    sremrt_state_explore(io, &x->ex);
    sremrt_state_explore_part(io, &x->ex, &x->part);
    return sremrt_state_end(io);
}

static void explore_case(uint64_t seed)
{
    sremrt_alloc heap = sremrt_alloc_malloc();
    static const int32_t pat[3] = {0, 1, 2};
    sremrt_explore_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.pattern = pat;
    cfg.m = 2 + (int32_t)(seed % 2);
    cfg.nvalues = 4;
    cfg.policy = seed % 3 ? SREMRT_EXPLORE_STAM : SREMRT_EXPLORE_STNM;
    cfg.window = (sremrt_explore_window)(seed % 3);
    cfg.width = 4 + (int64_t)(seed % 4);
    cfg.extensions = cfg.variations = 1;
    cfg.confidence = 0.3;
    cfg.algo = (sremrt_explore_algo)(seed % SREMRT_EXPLORE_ALGOS);
    xp a, b;
    CU_ASSERT_EQUAL_FATAL(sremrt_explore_init(&a.ex, &cfg, &heap), 0);
    CU_ASSERT_EQUAL_FATAL(sremrt_explore_init(&b.ex, &cfg, &heap), 0);
    CU_ASSERT_EQUAL_FATAL(sremrt_explore_part_init(&a.ex, &a.part, &heap), 0);
    CU_ASSERT_EQUAL_FATAL(sremrt_explore_part_init(&b.ex, &b.part, &heap), 0);
    uint64_t s = seed;
    int n = 150, k = (int)((seed * 13) % 151);
    int64_t ts = 0;
    int bad = 0;
    unsigned char *buf = NULL;
    size_t len = 0;
    for (int e = 0; e < n; e++) {
        s = s * 6364136223846793005u + 1442695040888963407u;
        int32_t type = (int32_t)((s >> 33) % 4);
        ts += (int64_t)((s >> 20) % 3);
        if (e == k) {
            buf = save_obj(walk_explore, &a, &len);
            CU_ASSERT_EQUAL(load_obj(walk_explore, &b, buf, len), 0);
        }
        sremrt_explore_step sa, sb;
        int na = sremrt_explore_push(&a.ex, &a.part, ts, type, &sa);
        if (e < k)
            continue;
        int nb = sremrt_explore_push(&b.ex, &b.part, ts, type, &sb);
        bad |= na != nb || sa.pattern != sb.pattern || sa.extension != sb.extension || sa.variation != sb.variation;
    }
    bad |= sremrt_ptrie_total(&a.ex.trie) != sremrt_ptrie_total(&b.ex.trie) && k < n;
    if (bad)
        fprintf(stderr, "\nexplore checkpoint: seed %llu differs\n", (unsigned long long)seed);
    CU_ASSERT_FALSE(bad);
    free(buf);
    sremrt_explore_part_free(&a.part);
    sremrt_explore_part_free(&b.part);
    sremrt_explore_free(&a.ex);
    sremrt_explore_free(&b.ex);
}

static void test_explore(void)
{
    for (uint64_t seed = 1; seed <= 200; seed++)
        explore_case(seed);
}

void add_state_tests(void)
{
    CU_pSuite s = CU_add_suite("state", NULL, NULL);
    CU_add_test(s, "round trip", test_round_trip);
    CU_add_test(s, "damage refused", test_damage);
    CU_add_test(s, "foreign and short", test_foreign_and_space);
    CU_add_test(s, "partition table", test_keymap);
    CU_add_test(s, "episode counters", test_episodes);
    CU_add_test(s, "explore windows", test_explore);
}
