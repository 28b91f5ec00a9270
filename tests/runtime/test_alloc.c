/* test_alloc.c: the bump arena: alignment, exhaustion counted rather than
 * crashing, giving back the last block, and the hooks over it and malloc;
 * growing a block; the limiting wrapper. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>

#include "rt.h"

static int aligned(const void *p, size_t a)
{
    return (uintptr_t)p % a == 0;
}

static void test_alignment(void)
{
    static unsigned char mem[200];
    sremrt_arena ar;
    void *p;
    sremrt_arena_init(&ar, mem + 1, sizeof mem - 1);   /* an odd start */
    p = sremrt_arena_alloc(&ar, 1, 1);
    CU_ASSERT_PTR_EQUAL(p, mem + 1);
    p = sremrt_arena_alloc(&ar, 8, 8);
    CU_ASSERT(aligned(p, 8));
    p = sremrt_arena_alloc(&ar, 3, 0);   /* 0: the largest alignment */
    CU_ASSERT(aligned(p, SREMRT_MAX_ALIGN));
    p = sremrt_arena_alloc(&ar, 4, 64);
    CU_ASSERT(aligned(p, 64));
    CU_ASSERT_PTR_NULL(sremrt_arena_alloc(&ar, 4, 3));   /* not a power of two */
    CU_ASSERT_EQUAL(ar.failures, 1);
}

static void test_exhaustion(void)
{
    static unsigned char mem[64];
    sremrt_arena ar;
    sremrt_arena_init(&ar, mem, sizeof mem);
    CU_ASSERT_PTR_NOT_NULL(sremrt_arena_alloc(&ar, 60, 1));
    CU_ASSERT_PTR_NULL(sremrt_arena_alloc(&ar, 5, 1));
    CU_ASSERT_PTR_NOT_NULL(sremrt_arena_alloc(&ar, 4, 1));   /* exactly full */
    CU_ASSERT_EQUAL(ar.used, 64);
    CU_ASSERT_PTR_NULL(sremrt_arena_alloc(&ar, 1, 1));
    CU_ASSERT_PTR_NOT_NULL(sremrt_arena_alloc(&ar, 0, 1));   /* nothing still fits */
    CU_ASSERT_PTR_NULL(sremrt_arena_alloc(&ar, (size_t)-1, 1));   /* no wrap-around */
    CU_ASSERT_EQUAL(ar.failures, 3);
    sremrt_arena_reset(&ar);
    CU_ASSERT_EQUAL(ar.used, 0);
    CU_ASSERT_EQUAL(ar.peak, 64);
    CU_ASSERT_EQUAL(ar.failures, 3);
    CU_ASSERT_PTR_NOT_NULL(sremrt_arena_alloc(&ar, 64, 1));
}

static void test_no_buffer(void)
{
    sremrt_arena ar;
    sremrt_arena_init(&ar, NULL, 100);
    CU_ASSERT_PTR_NULL(sremrt_arena_alloc(&ar, 1, 1));
    CU_ASSERT_EQUAL(ar.failures, 1);
}

static void test_free_last(void)
{
    static unsigned char mem[64];
    sremrt_arena ar;
    void *a, *b;
    int outside;
    sremrt_arena_init(&ar, mem, sizeof mem);
    a = sremrt_arena_alloc(&ar, 8, 8);
    b = sremrt_arena_alloc(&ar, 8, 8);
    sremrt_arena_free(&ar, a, 8);   /* not the last block: kept */
    CU_ASSERT_EQUAL(ar.used, 16);
    sremrt_arena_free(&ar, b, 8);
    CU_ASSERT_EQUAL(ar.used, 8);
    sremrt_arena_free(&ar, &outside, 8);   /* not ours: ignored */
    sremrt_arena_free(&ar, NULL, 0);
    CU_ASSERT_EQUAL(ar.used, 8);
    CU_ASSERT_PTR_EQUAL(sremrt_arena_alloc(&ar, 8, 8), b);
}

static void test_hooks(void)
{
    static unsigned char mem[32];
    sremrt_arena ar;
    sremrt_alloc hook, heap = sremrt_alloc_malloc();
    void *p;
    sremrt_arena_init(&ar, mem, sizeof mem);
    hook = sremrt_arena_hook(&ar);
    p = sremrt_alloc_get(&hook, 16, 8);
    CU_ASSERT_PTR_EQUAL(p, mem);
    CU_ASSERT_PTR_NULL(sremrt_alloc_get(&hook, 17, 1));
    CU_ASSERT_EQUAL(ar.failures, 1);
    sremrt_alloc_free(&hook, p, 16);
    CU_ASSERT_EQUAL(ar.used, 0);
    /* malloc: what malloc promises, no more */
    p = sremrt_alloc_get(&heap, 100, 16);
    CU_ASSERT_PTR_NOT_NULL(p);
    sremrt_alloc_free(&heap, p, 100);
    CU_ASSERT_PTR_NULL(sremrt_alloc_get(&heap, 100, 64));
    /* no hook at all */
    CU_ASSERT_PTR_NULL(sremrt_alloc_get(NULL, 1, 1));
    sremrt_alloc_free(NULL, mem, 1);
}

/* A block grown keeps its elements and zeroes the rest; a refusal leaves
 * it as it was. */
static void test_grow_block(void)
{
    static uint64_t mem[64];
    sremrt_arena ar;
    sremrt_alloc hook;
    int32_t *p, *q;
    int i, ok = 1;
    sremrt_arena_init(&ar, mem, sizeof mem);
    hook = sremrt_arena_hook(&ar);
    p = sremrt_alloc_grow(&hook, NULL, sizeof *p, 0, 0, 4);
    CU_ASSERT_FATAL(p != NULL);
    for (i = 0; i < 4; i++)
        ok &= p[i] == 0;
    p[0] = 7, p[1] = -1, p[2] = 9;
    q = sremrt_alloc_grow(&hook, p, sizeof *p, 3, 4, 16);
    CU_ASSERT_FATAL(q != NULL);
    ok &= q[0] == 7 && q[1] == -1 && q[2] == 9;
    for (i = 3; i < 16; i++)
        ok &= q[i] == 0;
    CU_ASSERT(ok);
    CU_ASSERT_PTR_NULL(sremrt_alloc_grow(&hook, q, sizeof *q, 3, 16, 1000));   /* does not fit */
    CU_ASSERT_EQUAL(q[2], 9);
    CU_ASSERT_PTR_NULL(sremrt_alloc_grow(&hook, q, sizeof *q, 3, 16, (size_t)-1 / 2));   /* overflows */
    CU_ASSERT_PTR_NULL(sremrt_alloc_grow(&hook, q, sizeof *q, 17, 16, 32));   /* used > cap */
}

/* The wrapper refuses what would take it past the limit, counts the
 * refusals, gives freed bytes back; 0 is no limit. */
static void test_limit(void)
{
    sremrt_alloc heap = sremrt_alloc_malloc(), hook;
    sremrt_alloc_limit lim;
    void *a, *b, *c;
    sremrt_alloc_limit_init(&lim, &heap, 1000);
    hook = sremrt_alloc_limit_hook(&lim);
    a = sremrt_alloc_get(&hook, 600, 0);
    CU_ASSERT_FATAL(a != NULL);
    CU_ASSERT_PTR_NULL(sremrt_alloc_get(&hook, 401, 0));
    b = sremrt_alloc_get(&hook, 400, 8);
    CU_ASSERT_FATAL(b != NULL);
    CU_ASSERT_EQUAL(lim.used, 1000);
    CU_ASSERT_PTR_NULL(sremrt_alloc_get(&hook, 1, 0));
    CU_ASSERT_EQUAL(lim.refused, 2);
    sremrt_alloc_free(&hook, a, 600);
    CU_ASSERT_EQUAL(lim.used, 400);
    c = sremrt_alloc_get(&hook, 600, 0);
    CU_ASSERT(c != NULL);
    CU_ASSERT_EQUAL(lim.peak, 1000);
    CU_ASSERT_PTR_NULL(sremrt_alloc_get(&hook, 8, 4096));   /* the inner hook refuses: counted */
    CU_ASSERT_EQUAL(lim.refused, 3);
    sremrt_alloc_free(&hook, b, 400);
    sremrt_alloc_free(&hook, c, 600);
    sremrt_alloc_free(&hook, NULL, 5);
    CU_ASSERT_EQUAL(lim.used, 0);
    sremrt_alloc_limit_init(&lim, &heap, 0);
    a = sremrt_alloc_get(&hook, 1 << 20, 0);
    CU_ASSERT(a != NULL);
    sremrt_alloc_free(&hook, a, 1 << 20);
    CU_ASSERT_EQUAL(lim.used, 0);
    CU_ASSERT_EQUAL(lim.refused, 0);
}

void add_alloc_tests(void)
{
    CU_pSuite s = CU_add_suite("arena", NULL, NULL);
    CU_add_test(s, "alignment", test_alignment);
    CU_add_test(s, "exhaustion", test_exhaustion);
    CU_add_test(s, "no buffer", test_no_buffer);
    CU_add_test(s, "free the last block", test_free_last);
    CU_add_test(s, "hooks", test_hooks);
    CU_add_test(s, "grow a block", test_grow_block);
    CU_add_test(s, "limit", test_limit);
}
