/* test_occmap.c: the OccMap lists: insertion into active layers only,
 * local expiry, the leftmost occurrence taken from the heads, the
 * normalized invariant (heads strictly increasing), ring wrap-around, a
 * full list counted, memory from a hook or a buffer. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>

#include "rt.h"

/* Positions of list j, oldest first, as "1 4 7". */
static const char *list_text(const sremrt_occmap *m, int32_t j, char *buf, size_t cap)
{
    int32_t i;
    size_t at = 0;
    buf[0] = '\0';
    for (i = 0; i < sremrt_occmap_size(m, j) && at + 24 < cap; i++)
        at += (size_t)sprintf(buf + at, i ? " %lld" : "%lld", (long long)sremrt_occmap_at(m, j, i)->pos);
    return buf;
}

#define ASSERT_LIST(m, j, want)                                 \
    do {                                                        \
        char b_[256];                                           \
        ASSERT_STR(list_text((m), (j), b_, sizeof b_), (want)); \
    } while (0)

static void test_active_layers(void)
{
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_occmap m;
    CU_ASSERT_EQUAL_FATAL(sremrt_occmap_init(&m, 2, 8, SREMRT_EPISODE_EVENTS, 100, &heap), 0);
    CU_ASSERT_EQUAL(sremrt_occmap_active(&m), 0);
    CU_ASSERT_EQUAL(sremrt_occmap_add(&m, 1, 1, 0), 0);   /* no E_1 yet: useless */
    CU_ASSERT_EQUAL(sremrt_occmap_add(&m, 0, 2, 0), 1);
    CU_ASSERT_EQUAL(sremrt_occmap_active(&m), 1);
    CU_ASSERT_EQUAL(sremrt_occmap_complete(&m), 0);       /* list 1 empty */
    CU_ASSERT_EQUAL(sremrt_occmap_add(&m, 1, 3, 0), 1);
    CU_ASSERT_EQUAL(sremrt_occmap_add(&m, 0, 4, 0), 1);
    CU_ASSERT_EQUAL(sremrt_occmap_add(&m, 1, 5, 0), 1);
    CU_ASSERT_EQUAL(sremrt_occmap_active(&m), 2);
    CU_ASSERT_EQUAL(sremrt_occmap_add(&m, 2, 6, 0), 0);   /* no such layer */
    CU_ASSERT_EQUAL(sremrt_occmap_add(&m, -1, 6, 0), 0);
    ASSERT_LIST(&m, 0, "2 4");
    ASSERT_LIST(&m, 1, "3 5");
    /* leftmost occurrence: the heads 2, 3 */
    CU_ASSERT_EQUAL(sremrt_occmap_complete(&m), 1);
    ASSERT_LIST(&m, 0, "4");
    ASSERT_LIST(&m, 1, "5");
    CU_ASSERT_EQUAL(sremrt_occmap_complete(&m), 1);
    CU_ASSERT_EQUAL(sremrt_occmap_active(&m), 0);
    CU_ASSERT_EQUAL(sremrt_occmap_complete(&m), 0);
    sremrt_occmap_free(&m);
}

/* After the heads go, entries of list j before the new head of list j-1
 * can never be used: dropped (ONCE's "restore L_1[1] < L_2[1] < ..."). */
static void test_normalize(void)
{
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_occmap m;
    CU_ASSERT_EQUAL_FATAL(sremrt_occmap_init(&m, 3, 8, SREMRT_EPISODE_EVENTS, 100, &heap), 0);
    /* A1 B2 B3 A4 C5 B6 C7 */
    sremrt_occmap_add(&m, 0, 1, 0);
    sremrt_occmap_add(&m, 1, 2, 0);
    sremrt_occmap_add(&m, 1, 3, 0);
    sremrt_occmap_add(&m, 0, 4, 0);
    sremrt_occmap_add(&m, 2, 5, 0);
    sremrt_occmap_add(&m, 1, 6, 0);
    sremrt_occmap_add(&m, 2, 7, 0);
    CU_ASSERT_EQUAL(sremrt_occmap_complete(&m), 1);    /* takes 1 2 5 */
    ASSERT_LIST(&m, 0, "4");
    ASSERT_LIST(&m, 1, "6");                             /* 3 < 4 dropped */
    ASSERT_LIST(&m, 2, "7");
    CU_ASSERT_EQUAL(sremrt_occmap_complete(&m), 1);    /* 4 6 7 */
    CU_ASSERT_EQUAL(sremrt_occmap_active(&m), 0);
    /* an empty list empties the ones after it */
    sremrt_occmap_add(&m, 0, 10, 0);
    sremrt_occmap_add(&m, 1, 11, 0);
    sremrt_occmap_add(&m, 2, 12, 0);
    sremrt_occmap_expire(&m, 200, 0);                   /* 10 is out of a 100-event window */
    CU_ASSERT_EQUAL(sremrt_occmap_active(&m), 0);
    ASSERT_LIST(&m, 1, "");
    ASSERT_LIST(&m, 2, "");
    sremrt_occmap_free(&m);
}

static void test_expire(void)
{
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_occmap m;
    sremrt_occ_entry s = {10, 1000};
    /* time window: 1000 .. 1005 inclusive */
    CU_ASSERT_EQUAL_FATAL(sremrt_occmap_init(&m, 2, 4, SREMRT_EPISODE_TIME, 5, &heap), 0);
    CU_ASSERT(sremrt_occmap_in_window(&m, &s, 11, 1005));
    CU_ASSERT(!sremrt_occmap_in_window(&m, &s, 11, 1006));
    sremrt_occmap_add(&m, 0, 10, 1000);
    sremrt_occmap_add(&m, 0, 11, 1003);
    sremrt_occmap_add(&m, 1, 12, 1004);
    sremrt_occmap_expire(&m, 13, 1005);
    ASSERT_LIST(&m, 0, "10 11");
    sremrt_occmap_expire(&m, 13, 1006);
    ASSERT_LIST(&m, 0, "11");
    ASSERT_LIST(&m, 1, "12");
    sremrt_occmap_expire(&m, 14, 1009);
    CU_ASSERT_EQUAL(sremrt_occmap_active(&m), 0);
    ASSERT_LIST(&m, 1, "");
    sremrt_occmap_free(&m);
    /* count window: within 3 events from position 10 means up to 12 */
    CU_ASSERT_EQUAL_FATAL(sremrt_occmap_init(&m, 1, 4, SREMRT_EPISODE_EVENTS, 3, &heap), 0);
    CU_ASSERT(sremrt_occmap_in_window(&m, &s, 12, 0));
    CU_ASSERT(!sremrt_occmap_in_window(&m, &s, 13, 0));
    sremrt_occmap_free(&m);
}

/* Entries wrap around a small ring; a full list refuses and counts. */
static void test_ring(void)
{
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_occmap m;
    int64_t p = 0;
    int i, ok = 1;
    CU_ASSERT_EQUAL_FATAL(sremrt_occmap_init(&m, 2, 3, SREMRT_EPISODE_EVENTS, 1000, &heap), 0);
    for (i = 0; i < 50; i++) {
        ok &= sremrt_occmap_add(&m, 0, ++p, 0) == 1;
        ok &= sremrt_occmap_add(&m, 0, ++p, 0) == 1;
        ok &= sremrt_occmap_add(&m, 1, ++p, 0) == 1;
        ok &= sremrt_occmap_add(&m, 1, ++p, 0) == 1;
        ok &= sremrt_occmap_complete(&m) == 1;
        ok &= sremrt_occmap_complete(&m) == 1;
        ok &= sremrt_occmap_active(&m) == 0;
    }
    CU_ASSERT(ok);
    sremrt_occmap_add(&m, 0, ++p, 0);
    sremrt_occmap_add(&m, 0, ++p, 0);
    sremrt_occmap_add(&m, 0, ++p, 0);
    CU_ASSERT_EQUAL(sremrt_occmap_add(&m, 0, ++p, 0), -1);
    CU_ASSERT_EQUAL(m.overflows, 1);
    CU_ASSERT_EQUAL(sremrt_occmap_size(&m, 0), 3);
    sremrt_occmap_clear(&m);
    CU_ASSERT_EQUAL(sremrt_occmap_size(&m, 0), 0);
    CU_ASSERT_EQUAL(m.overflows, 1);
    sremrt_occmap_free(&m);
}

static void test_memory(void)
{
    static unsigned char buf[1024];
    sremrt_occmap m;
    size_t bytes = sremrt_occmap_bytes(2, 8);
    CU_ASSERT_FATAL(bytes > 0 && bytes < sizeof buf - 1);
    CU_ASSERT_EQUAL(sremrt_occmap_init_buf(&m, 2, 8, SREMRT_EPISODE_EVENTS, 1, buf + 1, bytes - 8), -1);
    CU_ASSERT_EQUAL(sremrt_occmap_init_buf(&m, 2, 8, SREMRT_EPISODE_EVENTS, 0, buf + 1, bytes), -1);
    CU_ASSERT_EQUAL(sremrt_occmap_init_buf(&m, 2, 8, SREMRT_EPISODE_TIME, -1, buf + 1, bytes), -1);
    CU_ASSERT_EQUAL(sremrt_occmap_init_buf(&m, 0, 8, SREMRT_EPISODE_TIME, 0, buf + 1, bytes), -1);
    CU_ASSERT_EQUAL(sremrt_occmap_bytes(2, 0), 0);
    CU_ASSERT_EQUAL(sremrt_occmap_bytes(SREMRT_OCCMAP_MAX_LAYERS + 1, 1), 0);
    CU_ASSERT_EQUAL_FATAL(sremrt_occmap_init_buf(&m, 2, 8, SREMRT_EPISODE_TIME, 0, buf + 1, bytes), 0);
    CU_ASSERT_EQUAL(sremrt_occmap_add(&m, 0, 1, 7), 1);
    CU_ASSERT_EQUAL(sremrt_occmap_add(&m, 1, 2, 7), 1);
    sremrt_occmap_expire(&m, 3, 7);                       /* tau 0: same timestamp fits */
    CU_ASSERT_EQUAL(sremrt_occmap_complete(&m), 1);
    sremrt_occmap_free(&m);
}

void add_occmap_tests(void)
{
    CU_pSuite s = CU_add_suite("occmap", NULL, NULL);
    CU_add_test(s, "active layers, leftmost occurrence", test_active_layers);
    CU_add_test(s, "normalized heads", test_normalize);
    CU_add_test(s, "local expiry", test_expire);
    CU_add_test(s, "ring and overflow", test_ring);
    CU_add_test(s, "memory", test_memory);
}
