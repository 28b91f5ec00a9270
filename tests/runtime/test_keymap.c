/* test_keymap.c: the partition table: dense slots in order of first
 * appearance, a full table counting overflows, memory from hook or buffer,
 * growth (slots kept, limits, refusals). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

static void test_insert_find(void)
{
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_keymap km;
    int inserted = -1;
    CU_ASSERT_EQUAL_FATAL(sremrt_keymap_init(&km, 4, &heap), 0);
    CU_ASSERT_EQUAL(sremrt_keymap_find(&km, 42), -1);
    CU_ASSERT_EQUAL(sremrt_keymap_get(&km, 42, &inserted), 0);
    CU_ASSERT_EQUAL(inserted, 1);
    CU_ASSERT_EQUAL(sremrt_keymap_get(&km, -7, &inserted), 1);
    CU_ASSERT_EQUAL(sremrt_keymap_get(&km, 42, &inserted), 0);
    CU_ASSERT_EQUAL(inserted, 0);
    CU_ASSERT_EQUAL(sremrt_keymap_get(&km, INT64_MIN, NULL), 2);
    CU_ASSERT_EQUAL(sremrt_keymap_get(&km, INT64_MAX, NULL), 3);
    CU_ASSERT_EQUAL(sremrt_keymap_find(&km, -7), 1);
    CU_ASSERT_EQUAL(sremrt_keymap_find(&km, INT64_MIN), 2);
    CU_ASSERT_EQUAL(km.count, 4);
    CU_ASSERT_EQUAL(sremrt_keymap_key(&km, 0), 42);
    CU_ASSERT_EQUAL(sremrt_keymap_key(&km, 1), -7);
    CU_ASSERT_EQUAL(sremrt_keymap_key(&km, 3), INT64_MAX);
    CU_ASSERT_EQUAL(km.overflows, 0);
    sremrt_keymap_free(&km);
}

static void test_full(void)
{
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_keymap km;
    int inserted = -1, i;
    CU_ASSERT_EQUAL_FATAL(sremrt_keymap_init(&km, 3, &heap), 0);
    for (i = 0; i < 3; i++)
        CU_ASSERT_EQUAL(sremrt_keymap_get(&km, i * 100, NULL), i);
    CU_ASSERT_EQUAL(sremrt_keymap_get(&km, 999, &inserted), -1);
    CU_ASSERT_EQUAL(inserted, 0);
    CU_ASSERT_EQUAL(sremrt_keymap_get(&km, 998, NULL), -1);
    CU_ASSERT_EQUAL(km.overflows, 2);
    /* known keys still resolve when full, and are not overflows */
    CU_ASSERT_EQUAL(sremrt_keymap_get(&km, 200, NULL), 2);
    CU_ASSERT_EQUAL(sremrt_keymap_find(&km, 999), -1);
    CU_ASSERT_EQUAL(km.overflows, 2);
    /* clear forgets keys, keeps the count of overflows */
    sremrt_keymap_clear(&km);
    CU_ASSERT_EQUAL(sremrt_keymap_find(&km, 200), -1);
    CU_ASSERT_EQUAL(sremrt_keymap_get(&km, 999, NULL), 0);
    CU_ASSERT_EQUAL(km.overflows, 2);
    sremrt_keymap_free(&km);
}

static void test_capacity_zero(void)
{
    char buf[64];
    sremrt_keymap km;
    CU_ASSERT_EQUAL(sremrt_keymap_init_buf(&km, 0, buf, sizeof buf), 0);
    CU_ASSERT_EQUAL(sremrt_keymap_get(&km, 1, NULL), -1);
    CU_ASSERT_EQUAL(km.overflows, 1);
}

/* Many keys with a stride that collides in the low bits, against a list. */
static void test_many_keys(void)
{
    enum { N = 5000 };
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_keymap km;
    int i, ok = 1;
    CU_ASSERT_EQUAL_FATAL(sremrt_keymap_init(&km, N, &heap), 0);
    for (i = 0; i < N; i++)
        ok &= sremrt_keymap_get(&km, (int64_t)i << 32, NULL) == i;
    for (i = N - 1; i >= 0; i--)
        ok &= sremrt_keymap_find(&km, (int64_t)i << 32) == i;
    for (i = 0; i < N; i++)
        ok &= sremrt_keymap_find(&km, ((int64_t)i << 32) + 1) == -1;
    CU_ASSERT(ok);
    CU_ASSERT_EQUAL(sremrt_keymap_get(&km, -1, NULL), -1);
    CU_ASSERT_EQUAL(km.overflows, 1);
    sremrt_keymap_free(&km);
}

static void test_caller_buffer(void)
{
    static unsigned char buf[512];
    sremrt_keymap km;
    size_t need = sremrt_keymap_bytes(10);
    CU_ASSERT(need > 0 && need + 3 <= sizeof buf);
    CU_ASSERT_EQUAL(sremrt_keymap_init_buf(&km, 10, buf + 3, need - 8), -1);
    CU_ASSERT_EQUAL(km.capacity, 0);
    CU_ASSERT_EQUAL(sremrt_keymap_init_buf(&km, 10, NULL, need), -1);
    CU_ASSERT_EQUAL(sremrt_keymap_init_buf(&km, -1, buf, sizeof buf), -1);
    CU_ASSERT_EQUAL(sremrt_keymap_bytes(-1), 0);
    CU_ASSERT_EQUAL(sremrt_keymap_bytes(SREMRT_KEYMAP_MAX + 1), 0);
    /* an odd address is aligned inside the buffer */
    CU_ASSERT_EQUAL_FATAL(sremrt_keymap_init_buf(&km, 10, buf + 3, need), 0);
    CU_ASSERT_EQUAL(sremrt_keymap_get(&km, 5, NULL), 0);
    CU_ASSERT_EQUAL(sremrt_keymap_get(&km, 6, NULL), 1);
    CU_ASSERT_EQUAL(sremrt_keymap_find(&km, 5), 0);
    sremrt_keymap_free(&km);   /* a caller buffer: only forgotten */
    CU_ASSERT_EQUAL(km.capacity, 0);
}

static void test_arena_memory(void)
{
    static uint64_t mem[32];   /* 256 bytes, aligned: the block starts at 0 */
    sremrt_arena ar;
    sremrt_alloc hook;
    sremrt_keymap a, b;
    sremrt_arena_init(&ar, mem, sizeof mem);
    hook = sremrt_arena_hook(&ar);
    /* 8 keys: 64 bytes of keys + 16 buckets * 4 */
    CU_ASSERT_EQUAL(sremrt_keymap_init(&a, 8, &hook), 0);
    CU_ASSERT(ar.used >= 128 && ar.used <= 128 + 16);
    CU_ASSERT_EQUAL(sremrt_keymap_init(&b, 8, &hook), -1);   /* does not fit */
    CU_ASSERT_EQUAL(ar.failures, 1);
    CU_ASSERT_EQUAL(sremrt_keymap_get(&b, 1, NULL), -1);     /* a failed map is safe */
    CU_ASSERT_EQUAL(sremrt_keymap_find(&b, 1), -1);
    sremrt_keymap_free(&a);                                  /* the last block: given back */
    CU_ASSERT_EQUAL(ar.used, 0);
}

static void test_key_text(void)
{
    static const char *const values[] = {"low voltage", "B"};
    sremrt_attr e = {"kind", SREMRT_ENUM, 0, 2, values};
    sremrt_attr b = {"ok", SREMRT_BOOL, 0, 0, NULL};
    sremrt_attr i = {"id", SREMRT_INT, 0, 0, NULL};
    char buf[32], tiny[4];
    CU_ASSERT_EQUAL(sremrt_key_format(buf, sizeof buf, &i, -42), 3);
    ASSERT_STR(buf, "-42");
    sremrt_key_format(buf, sizeof buf, &i, INT64_MIN);
    ASSERT_STR(buf, "-9223372036854775808");
    sremrt_key_format(buf, sizeof buf, &e, 0);
    ASSERT_STR(buf, "low voltage");
    sremrt_key_format(buf, sizeof buf, &e, 1);
    ASSERT_STR(buf, "B");
    sremrt_key_format(buf, sizeof buf, &e, 7);   /* not a value: shown as a number */
    ASSERT_STR(buf, "7");
    sremrt_key_format(buf, sizeof buf, &b, 1);
    ASSERT_STR(buf, "true");
    sremrt_key_format(buf, sizeof buf, &b, 0);
    ASSERT_STR(buf, "false");
    CU_ASSERT_EQUAL(sremrt_key_format(tiny, sizeof tiny, &e, 0), 11);
    ASSERT_STR(tiny, "low");
    CU_ASSERT_EQUAL(sremrt_key_format(tiny, sizeof tiny, &i, 12345), 5);   /* cut, its length told */
    ASSERT_STR(tiny, "123");
}

/* Non-negative integer keys (written without the sink) against printf:
 * 0..99, each power of ten and its neighbours, INT64_MAX. */
static void check_int_key(const sremrt_attr *a, int64_t v)
{
    char buf[32], want[32];
    snprintf(want, sizeof want, "%lld", (long long)v);
    CU_ASSERT_EQUAL(sremrt_key_format(buf, sizeof buf, a, v), strlen(want));
    ASSERT_STR(buf, want);
}

static void test_key_text_int(void)
{
    sremrt_attr i = {"id", SREMRT_INT, 0, 0, NULL};
    for (int64_t v = 0; v < 100; v++)
        check_int_key(&i, v);
    for (int64_t p = 100; p > 0 && p <= INT64_MAX / 10; p *= 10)
        for (int64_t d = -1; d <= 1; d++)
            check_int_key(&i, p + d);
    check_int_key(&i, INT64_MAX);
}

static void test_next_capacity(void)
{
    CU_ASSERT_EQUAL(sremrt_keymap_next_capacity(0, 0), 8);
    CU_ASSERT_EQUAL(sremrt_keymap_next_capacity(0, 3), 3);
    CU_ASSERT_EQUAL(sremrt_keymap_next_capacity(8, 0), 16);
    CU_ASSERT_EQUAL(sremrt_keymap_next_capacity(64, 100), 100);
    CU_ASSERT_EQUAL(sremrt_keymap_next_capacity(100, 100), 0);
    CU_ASSERT_EQUAL(sremrt_keymap_next_capacity(SREMRT_KEYMAP_MAX / 2 + 1, 0), SREMRT_KEYMAP_MAX);
    CU_ASSERT_EQUAL(sremrt_keymap_next_capacity(SREMRT_KEYMAP_MAX, 0), 0);
    CU_ASSERT_EQUAL(sremrt_keymap_next_capacity(8, SREMRT_KEYMAP_MAX + 5), 16);
}

/* Grown by doubling from 8 to 20,000 keys (int64 extremes and a stride
 * that collides in the low bits): every key keeps its slot, against a
 * list; the old blocks go back (the limit wrapper's count ends at 0). */
static void test_grow(void)
{
    enum { N = 20000 };
    sremrt_alloc heap = sremrt_alloc_malloc(), hook;
    sremrt_alloc_limit lim;
    sremrt_keymap km;
    int64_t *keys = malloc(N * sizeof *keys);
    int i, ok = 1, grows = 0;
    CU_ASSERT_FATAL(keys != NULL);
    sremrt_alloc_limit_init(&lim, &heap, 0);
    hook = sremrt_alloc_limit_hook(&lim);
    for (i = 0; i < N; i++)
        keys[i] = i == 0 ? INT64_MIN : i == 1 ? INT64_MAX : ((int64_t)i << 33) - 7;
    CU_ASSERT_EQUAL_FATAL(sremrt_keymap_init(&km, sremrt_keymap_next_capacity(0, 0), &hook), 0);
    for (i = 0; i < N; i++) {
        int inserted = 0;
        int32_t slot = sremrt_keymap_get(&km, keys[i], &inserted);
        if (slot < 0) {
            ok &= sremrt_keymap_grow(&km, sremrt_keymap_next_capacity(km.capacity, 0)) == 0;
            grows++;
            slot = sremrt_keymap_get(&km, keys[i], &inserted);
        }
        ok &= slot == i && inserted;
        if (i % 997 == 0)   /* earlier keys still where they were */
            for (int k = 0; k <= i; k += 13)
                ok &= sremrt_keymap_find(&km, keys[k]) == k && sremrt_keymap_key(&km, k) == keys[k];
    }
    CU_ASSERT(ok);
    CU_ASSERT_EQUAL(grows, 12);   /* 8 -> 16 -> ... -> 32768 */
    CU_ASSERT_EQUAL(km.capacity, 32768);
    for (i = 0; i < N; i++)
        ok &= sremrt_keymap_find(&km, keys[i]) == i;
    CU_ASSERT(ok);
    CU_ASSERT_EQUAL(sremrt_keymap_find(&km, 12345), -1);
    CU_ASSERT_EQUAL(lim.used, sremrt_keymap_bytes(32768));   /* only the last block is out */
    sremrt_keymap_free(&km);
    CU_ASSERT_EQUAL(lim.used, 0);
    free(keys);
}

/* Growth refused: a caller buffer, a smaller capacity, memory past a
 * limit; the table is unchanged each time. */
static void test_grow_refused(void)
{
    static unsigned char buf[512];
    sremrt_alloc heap = sremrt_alloc_malloc(), hook;
    sremrt_alloc_limit lim;
    sremrt_keymap km;
    int i;
    CU_ASSERT_EQUAL_FATAL(sremrt_keymap_init_buf(&km, 4, buf, sizeof buf), 0);
    CU_ASSERT_EQUAL(sremrt_keymap_grow(&km, 8), -1);
    CU_ASSERT_EQUAL(km.capacity, 4);
    sremrt_alloc_limit_init(&lim, &heap, sremrt_keymap_bytes(8) + sremrt_keymap_bytes(4));
    hook = sremrt_alloc_limit_hook(&lim);
    CU_ASSERT_EQUAL_FATAL(sremrt_keymap_init(&km, 4, &hook), 0);
    for (i = 0; i < 4; i++)
        CU_ASSERT_EQUAL(sremrt_keymap_get(&km, i * 10, NULL), i);
    CU_ASSERT_EQUAL(sremrt_keymap_grow(&km, 4), -1);
    CU_ASSERT_EQUAL(sremrt_keymap_grow(&km, 8), 0);   /* both blocks fit at once */
    CU_ASSERT_EQUAL(sremrt_keymap_grow(&km, 16), -1);  /* 8 and 16 do not */
    CU_ASSERT_EQUAL(lim.refused, 1);
    CU_ASSERT_EQUAL(km.capacity, 8);
    for (i = 0; i < 4; i++)
        CU_ASSERT_EQUAL(sremrt_keymap_find(&km, i * 10), i);
    CU_ASSERT_EQUAL(sremrt_keymap_get(&km, 99, NULL), 4);
    sremrt_keymap_free(&km);
    CU_ASSERT_EQUAL(lim.used, 0);
}

/* Composite keys: tuples of 3 int64s that differ in one component each
 * (equal sums, equal pieces elsewhere), against their order of first
 * appearance; growth keeps the slots; the JSON array of each type. */
static void test_tuples(void)
{
    enum { N = 600 };
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_keymap km;
    int i, ok = 1, inserted = -1;
    CU_ASSERT_EQUAL_FATAL(sremrt_keymap_init_tuple(&km, 8, 3, &heap), 0);
    CU_ASSERT_EQUAL(km.width, 3);
    for (i = 0; i < N; i++) {
        int64_t t[3] = {i % 7, i / 7, -(int64_t)i};
        int32_t slot = sremrt_keymap_get_tuple(&km, t, &inserted);
        if (slot == -1 && sremrt_keymap_grow(&km, sremrt_keymap_next_capacity(km.capacity, 0)) == 0)
            slot = sremrt_keymap_get_tuple(&km, t, &inserted);
        ok &= slot == i && inserted == 1;
    }
    for (i = N - 1; i >= 0; i--) {
        int64_t t[3] = {i % 7, i / 7, -(int64_t)i}, u[3] = {i / 7, i % 7, -(int64_t)i};
        const int64_t *got = sremrt_keymap_tuple(&km, i);
        ok &= sremrt_keymap_get_tuple(&km, t, &inserted) == i && inserted == 0;
        ok &= got[0] == t[0] && got[1] == t[1] && got[2] == t[2];
        if (u[0] != u[1])   /* the same values in another order: another key */
            ok &= sremrt_keymap_get_tuple(&km, u, NULL) != i;
    }
    CU_ASSERT(ok);
    sremrt_keymap_free(&km);
    CU_ASSERT_EQUAL(sremrt_keymap_tuple_bytes(4, 0), 0);
    CU_ASSERT_EQUAL(sremrt_keymap_tuple_bytes(4, SREMRT_KEY_MAX_WIDTH + 1), 0);
    CU_ASSERT(sremrt_keymap_tuple_bytes(4, 2) > sremrt_keymap_bytes(4));
}

static void test_tuple_text(void)
{
    static const char *const names[] = {"T", "dts fault"};
    const sremrt_attr ai = {"id", SREMRT_INT, 0, 0, NULL}, ae = {"kind", SREMRT_ENUM, 0, 2, names},
                      ab = {"ok", SREMRT_BOOL, 0, 0, NULL}, as = {"user", SREMRT_STRING, 0, 0, NULL};
    const sremrt_attr *attrs[4] = {&ai, &ae, &ab, &as};
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_strtab st;
    CU_ASSERT_EQUAL_FATAL(sremrt_strtab_init(&st, &heap, 0), 0);
    int64_t id = sremrt_strtab_intern(&st, "o\"brien", 8);
    int64_t v[4] = {-42, 1, 1, id};
    char buf[128];
    sremrt_sink s;
    sremrt_sink_init_buf(&s, buf, sizeof buf);
    sremrt_sink_key_tuple(&s, attrs, v, 4, &st);
    sremrt_sink_end(&s);
    CU_ASSERT_STRING_EQUAL(buf, "[-42,\"dts fault\",true,\"o\\\"brien\"]");
    int64_t w[2] = {0, 99};   /* an id the table does not know: its number */
    sremrt_sink_init_buf(&s, buf, sizeof buf);
    sremrt_sink_key_tuple(&s, attrs + 2, w, 2, &st);
    sremrt_sink_end(&s);
    CU_ASSERT_STRING_EQUAL(buf, "[false,99]");
    sremrt_strtab_free(&st);
}


void add_keymap_tests(void)
{
    CU_pSuite s = CU_add_suite("keymap", NULL, NULL);
    CU_add_test(s, "insert and find", test_insert_find);
    CU_add_test(s, "full map counts overflows", test_full);
    CU_add_test(s, "capacity zero", test_capacity_zero);
    CU_add_test(s, "many keys", test_many_keys);
    CU_add_test(s, "caller buffer", test_caller_buffer);
    CU_add_test(s, "arena memory", test_arena_memory);
    CU_add_test(s, "key text", test_key_text);
    CU_add_test(s, "key text of integers", test_key_text_int);
    CU_add_test(s, "next capacity", test_next_capacity);
    CU_add_test(s, "grow", test_grow);
    CU_add_test(s, "grow refused", test_grow_refused);
    CU_add_test(s, "composite keys", test_tuples);
    CU_add_test(s, "composite key text", test_tuple_text);
}
