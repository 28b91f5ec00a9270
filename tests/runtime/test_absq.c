/* test_absq.c: the pending absences' index against a plain list (the
 * oracle: every live item in order of addition, scanned in full): seeded
 * random adds, removals, key walks, expiries and sorts, hosted (growing),
 * fixed (full at its capacity) and under an allocator that refuses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

typedef struct item {
    sremrt_absq_link q;
    int64_t tag;   /* payload: must stay with its slot */
} item;

enum { MAXLIVE = 600 };

typedef struct oracle {
    int32_t slot[MAXLIVE];
    int64_t index[MAXLIVE], key[MAXLIVE], due[MAXLIVE];
    int n;
} oracle;

static unsigned long rng;
static unsigned long next_rand(void)
{
    rng = rng * 6364136223846793005UL + 1442695040888963407UL;
    return (rng >> 33) & 0x7fffffff;
}

/* Seeded run of steps operations; 0, or the step that failed (the seed printed). */
static int run(sremrt_absq *q, unsigned long seed, int steps, int32_t fixed_cap, int timed)
{
    static oracle o;
    int64_t index = 0, now = 0;
    rng = seed;
    o.n = 0;
    for (int step = 1; step <= steps; step++) {
        unsigned long op = next_rand() % 10;
        int64_t key = (int64_t)(next_rand() % 7) - 3;
        if (op < 5) {   /* add: index grows, due a little behind now */
            index++;
            now += (int64_t)(next_rand() % 3);
            int64_t due = now - (int64_t)(next_rand() % 5);
            int32_t s = sremrt_absq_add(q, key, index, timed ? due : 0);
            int full = o.n >= MAXLIVE || (fixed_cap > 0 && o.n >= fixed_cap);
            if (full) {
                if (s >= 0 && o.n >= MAXLIVE)
                    sremrt_absq_remove(q, s);
                if (fixed_cap > 0 && s >= 0)
                    return step;
                continue;
            }
            if (s < 0)
                return step;
            ((item *)sremrt_absq_at(q, s))->tag = index * 10;
            o.slot[o.n] = s;
            o.index[o.n] = index;
            o.key[o.n] = key;
            o.due[o.n++] = timed ? due : 0;
        } else if (op < 7 && o.n > 0) {   /* remove one */
            int x = (int)(next_rand() % (unsigned long)o.n);
            sremrt_absq_remove(q, o.slot[x]);
            o.n--;
            memmove(&o.slot[x], &o.slot[x + 1], (size_t)(o.n - x) * sizeof o.slot[0]);
            memmove(&o.index[x], &o.index[x + 1], (size_t)(o.n - x) * sizeof o.index[0]);
            memmove(&o.key[x], &o.key[x + 1], (size_t)(o.n - x) * sizeof o.key[0]);
            memmove(&o.due[x], &o.due[x + 1], (size_t)(o.n - x) * sizeof o.due[0]);
        } else if (op < 9) {   /* the key's list: the oracle's items of key, in order */
            int x = 0;
            for (int32_t s = sremrt_absq_first(q, key); s >= 0; s = ((item *)sremrt_absq_at(q, s))->q.next) {
                while (x < o.n && o.key[x] != key)
                    x++;
                if (x >= o.n || o.slot[x] != s || ((item *)sremrt_absq_at(q, s))->tag != o.index[x] * 10)
                    return step;
                x++;
            }
            while (x < o.n && o.key[x] != key)
                x++;
            if (x < o.n)
                return step;
        } else if (timed) {   /* expire: those with now > due + d, in index order, then removed */
            uint64_t d = next_rand() % 4;
            int32_t n = sremrt_absq_expired(q, now, d);
            int x = 0, k = 0;
            for (; x < o.n; x++) {
                if (!(now > o.due[x] && (uint64_t)(now - o.due[x]) > d))
                    continue;
                if (k >= n || q->order[k] != o.slot[x])
                    return step;
                k++;
            }
            if (k != n)
                return step;
            for (k = 0; k < n; k++) {
                sremrt_absq_remove(q, q->order[k]);
                for (x = 0; x < o.n && o.slot[x] != q->order[k]; x++)
                    continue;
                o.n--;
                memmove(&o.slot[x], &o.slot[x + 1], (size_t)(o.n - x) * sizeof o.slot[0]);
                memmove(&o.index[x], &o.index[x + 1], (size_t)(o.n - x) * sizeof o.index[0]);
                memmove(&o.key[x], &o.key[x + 1], (size_t)(o.n - x) * sizeof o.key[0]);
                memmove(&o.due[x], &o.due[x + 1], (size_t)(o.n - x) * sizeof o.due[0]);
            }
        } else {   /* everything, in index order */
            if (sremrt_absq_sorted(q) != o.n)
                return step;
            for (int x = 0; x < o.n; x++)
                if (q->order[x] != o.slot[x])
                    return step;
        }
        if (q->n != o.n)
            return step;
    }
    return 0;
}

static void check_run(sremrt_absq *q, unsigned long seed, int32_t fixed_cap, int timed)
{
    int failed = run(q, seed, 20000, fixed_cap, timed);
    if (failed)
        fprintf(stderr, "\nabsq: seed %lu, cap %d, timed %d: wrong at step %d\n", seed, (int)fixed_cap, timed, failed);
    CU_ASSERT_EQUAL(failed, 0);
}

static void test_hosted(void)
{
    sremrt_alloc heap = sremrt_alloc_malloc();
    for (unsigned long seed = 1; seed <= 6; seed++) {
        sremrt_absq q;
        sremrt_absq_init(&q, sizeof(item), (int)(seed & 1), &heap);
        check_run(&q, seed, 0, (int)(seed & 1));
        sremrt_absq_clear(&q);
        CU_ASSERT_EQUAL(q.n, 0);
        CU_ASSERT_EQUAL(sremrt_absq_first(&q, 0), -1);
        sremrt_absq_free(&q);
    }
}

static void test_fixed(void)
{
    static item items[64];
    static int32_t heap[64], order[64];
    static sremrt_absq_key keys[128];
    for (unsigned long seed = 11; seed <= 14; seed++) {
        sremrt_absq q;
        sremrt_absq_init_fixed(&q, sizeof(item), (int)(seed & 1), items, 64, heap, order, keys);
        check_run(&q, seed, 64, (int)(seed & 1));
    }
}

/* A limit the arrays outgrow: add returns -1, what was there stays. */
static void test_refused(void)
{
    sremrt_alloc heap = sremrt_alloc_malloc();
    sremrt_alloc_limit lim;
    sremrt_alloc_limit_init(&lim, &heap, 4000);
    sremrt_alloc hook = sremrt_alloc_limit_hook(&lim);
    sremrt_absq q;
    sremrt_absq_init(&q, sizeof(item), 1, &hook);
    int32_t added = 0;
    while (sremrt_absq_add(&q, added % 3, added + 1, added) >= 0)
        added++;
    CU_ASSERT(added >= 16);
    CU_ASSERT_EQUAL(q.n, added);
    CU_ASSERT_EQUAL(sremrt_absq_sorted(&q), added);
    int32_t n = sremrt_absq_expired(&q, added + 10, 0);
    CU_ASSERT_EQUAL(n, added);
    for (int32_t k = 0; k < n; k++)
        CU_ASSERT_EQUAL(((item *)sremrt_absq_at(&q, q.order[k]))->q.index, k + 1);
    sremrt_absq_free(&q);
}

static void test_hash(void)
{
    int64_t a[2] = {1, 2}, b[2] = {2, 1};
    CU_ASSERT_NOT_EQUAL(sremrt_absq_hash(a, 2), sremrt_absq_hash(b, 2));
    CU_ASSERT_EQUAL(sremrt_absq_hash(a, 2), sremrt_absq_hash(a, 2));
}

void add_absq_tests(void)
{
    CU_pSuite s = CU_add_suite("absq", NULL, NULL);
    CU_add_test(s, "hosted against a list", test_hosted);
    CU_add_test(s, "fixed capacity", test_fixed);
    CU_add_test(s, "growth refused", test_refused);
    CU_add_test(s, "composite key hash", test_hash);
}
