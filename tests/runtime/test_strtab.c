/* test_strtab.c: the string table against a naive oracle (a list searched
 * from the start): ids dense in order of first appearance, the same string
 * the same id, lengths and embedded bytes kept, the cap and a refusing
 * arena counted, ids stable across growth (segments never move). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

/* A random short string over a small alphabet, so repeats are common. */
static size_t random_text(uint64_t *s, char *buf)
{
    *s = *s * 6364136223846793005u + 1442695040888963407u;
    size_t len = (size_t)(*s >> 60) % 6;
    for (size_t i = 0; i < len; i++) {
        *s = *s * 6364136223846793005u + 1442695040888963407u;
        buf[i] = "ab,\" \xc3"[(*s >> 59) % 6];
    }
    return len;
}

static void test_against_list(void)
{
    enum { N = 20000, CAP = 5000 };
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_strtab t;
    char (*list)[8] = calloc(CAP, sizeof *list);
    size_t *lens = calloc(CAP, sizeof *lens);
    const char *first0 = NULL;
    int n = 0;
    uint64_t seed = 42, s = seed;
    CU_ASSERT_EQUAL_FATAL(sremrt_strtab_init(&t, &heap, 0), 0);
    for (int k = 0; k < N; k++) {
        char buf[8];
        size_t len = random_text(&s, buf);
        int want = -1;
        for (int i = 0; i < n && want < 0; i++)
            if (lens[i] == len && memcmp(list[i], buf, len) == 0)
                want = i;
        if (want < 0 && n < CAP) {
            memcpy(list[n], buf, len);
            lens[n] = len;
            want = n++;
        }
        int64_t got = sremrt_strtab_intern(&t, buf, len);
        if (got != want) {
            fprintf(stderr, "strtab: seed %llu, string %d: id %lld, want %d\n", (unsigned long long)seed, k,
                    (long long)got, want);
            CU_FAIL("id differs from the list's");
            break;
        }
        if (!first0)
            first0 = sremrt_strtab_get(&t, 0, NULL);
    }
    CU_ASSERT_EQUAL(t.count, n);
    for (int i = 0; i < n; i++) {
        size_t len = 99;
        const char *str = sremrt_strtab_get(&t, i, &len);
        CU_ASSERT_FATAL(str != NULL);
        CU_ASSERT_EQUAL(len, lens[i]);
        CU_ASSERT(memcmp(str, list[i], len) == 0 && str[len] == '\0');
    }
    CU_ASSERT(sremrt_strtab_get(&t, 0, NULL) == first0);   /* never moved */
    CU_ASSERT(sremrt_strtab_get(&t, n, NULL) == NULL);
    CU_ASSERT(sremrt_strtab_get(&t, -1, NULL) == NULL);
    CU_ASSERT_EQUAL(t.overflows, 0);
    sremrt_strtab_free(&t);
    free(list);
    free(lens);
}

static void test_many_distinct(void)
{
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_strtab t;
    char buf[32];
    CU_ASSERT_EQUAL_FATAL(sremrt_strtab_init(&t, &heap, 0), 0);
    for (int i = 0; i < 100000; i++) {
        int len = snprintf(buf, sizeof buf, "user%d", i);
        CU_ASSERT_EQUAL_FATAL(sremrt_strtab_intern(&t, buf, (size_t)len), i);
    }
    for (int i = 99999; i >= 0; i -= 7) {
        int len = snprintf(buf, sizeof buf, "user%d", i);
        CU_ASSERT_EQUAL(sremrt_strtab_intern(&t, buf, (size_t)len), i);
        CU_ASSERT_STRING_EQUAL(sremrt_strtab_get(&t, i, NULL), buf);
    }
    sremrt_strtab_free(&t);
}

static void test_limits(void)
{
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_strtab t;
    CU_ASSERT_EQUAL_FATAL(sremrt_strtab_init(&t, &heap, 2), 0);
    CU_ASSERT_EQUAL(sremrt_strtab_intern(&t, "x", 1), 0);
    CU_ASSERT_EQUAL(sremrt_strtab_intern(&t, "", 0), 1);
    CU_ASSERT_EQUAL(sremrt_strtab_intern(&t, "y", 1), -1);
    CU_ASSERT_EQUAL(sremrt_strtab_intern(&t, "x", 1), 0);   /* known strings still found */
    CU_ASSERT_EQUAL(t.overflows, 1);
    sremrt_strtab_free(&t);
    /* an arena that runs out: refused and counted, nothing broken */
    static unsigned char mem[4096];
    sremrt_arena ar;
    sremrt_arena_init(&ar, mem, sizeof mem);
    sremrt_alloc hook = sremrt_arena_hook(&ar);
    CU_ASSERT_EQUAL_FATAL(sremrt_strtab_init(&t, &hook, 0), 0);
    char buf[16];
    int64_t last = -2, refused = 0;
    for (int i = 0; i < 1000; i++) {
        int len = snprintf(buf, sizeof buf, "s%d", i);
        int64_t id = sremrt_strtab_intern(&t, buf, (size_t)len);
        if (id < 0)
            refused++;
        else
            last = id;
    }
    CU_ASSERT(refused > 0 && last > 0);
    CU_ASSERT_EQUAL(t.overflows, refused);
    CU_ASSERT_STRING_EQUAL(sremrt_strtab_get(&t, 0, NULL), "s0");
}

void add_strtab_tests(void)
{
    CU_pSuite s = CU_add_suite("strtab", NULL, NULL);
    CU_add_test(s, "against a list", test_against_list);
    CU_add_test(s, "many distinct strings", test_many_distinct);
    CU_add_test(s, "cap and arena", test_limits);
}
