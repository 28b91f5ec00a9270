/* baselines.c: the floors and naive matchers the benchmark driver times
 * beside the generated matchers (bench/bench_main.c), on the same streams.
 *
 * Floors (docs/workloads.md, B0): the sum of all bytes (bandwidth), a 64-state
 * table DFA `st = T[st][ev]` (one dependent load per event: the serial
 * floor of any automaton), and the sum of one field of every 16-byte record.
 * Naive matchers: what someone would write by hand without an automaton
 * compiler: one run per start event (a list of partial matches, each
 * stepped on every event, dropped when its window or gap runs out), and the
 * enumeration of all triples for counting stam matches. Hand-written O(1)
 * counters (docs/workloads.md's peer row) for B1 and B2: what a specialised
 * matcher of these two patterns can cost. Each is exact for its workload;
 * the driver checks it against the golden counts or the generated
 * matchers. */
#include <stdlib.h>
#include <string.h>

#include "baselines.h"

/* ---- floors ------------------------------------------------------------------- */

uint64_t base_sum8(const uint8_t *ty, size_t n)
{
    uint64_t s = 0;
    size_t i;
    for (i = 0; i < n; i++)
        s += ty[i];
    return s;
}

void base_dfa64_table(uint8_t t[64][256])
{
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    int s, c;
    for (s = 0; s < 64; s++)
        for (c = 0; c < 256; c++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            t[s][c] = (uint8_t)(x % 64);
        }
}

uint64_t base_dfa64(const uint8_t t[64][256], const uint8_t *ty, size_t n)
{
    unsigned st = 0;
    size_t i;
    for (i = 0; i < n; i++)
        st = t[st][ty[i]];
    return st;
}

uint64_t base_rec16(const bench_rec *ev, size_t n)
{
    uint64_t s = 0;
    size_t i;
    for (i = 0; i < n; i++)
        s += ev[i].type;
    return s;
}

/* ---- naive matchers --------------------------------------------------------------- */

/* Detections of `policy stam { a_0 .. a_{m-1} } within w events` (the a_r
 * distinct): every a_0 starts a run that takes the first a_{r+1} after its
 * a_r (for detections, the earliest way through a start is as good as any);
 * a detection at i when e_i = a_{m-1} and a run started at most w - 1
 * events earlier has taken a_0 .. a_{m-2}. Runs are kept in start order in
 * a ring of w slots, so expired ones leave from the front. */
uint64_t base_stam(const uint8_t *ty, size_t n, const uint8_t *atoms, int m, long w)
{
    size_t cap = (size_t)w + 1, head = 0, len = 0, r;
    long *start = malloc(cap * sizeof *start);
    int *state = malloc(cap * sizeof *state);
    uint64_t count = 0;
    long i;
    if (!start || !state)
        abort();
    for (i = 0; i < (long)n; i++) {
        uint8_t e = ty[i];
        int hit = 0;
        while (len > 0 && i - start[head] + 1 > w) {
            head = (head + 1) % cap;
            len--;
        }
        for (r = 0; r < len; r++) {
            size_t s = (head + r) % cap;
            if (state[s] == m - 1)
                hit |= e == atoms[m - 1];
            else if (e == atoms[state[s]])
                state[s]++;
        }
        count += (uint64_t)hit;
        if (e == atoms[0]) {
            size_t s = (head + len) % cap;
            start[s] = i;
            state[s] = 1;
            len++;
        }
    }
    free(start);
    free(state);
    return count;
}

/* End positions of `A.{0,g}B.{0,g}C`: every A starts a run that remembers
 * its latest B (the latest leaves the most room for the C); the run dies
 * when neither its A nor its B can still be followed within a gap of g. */
uint64_t base_gap(const uint8_t *ty, size_t n, long g)
{
    size_t cap = 1024, len = 0, r, keep;
    long *a = malloc(cap * sizeof *a), *b = malloc(cap * sizeof *b);
    uint64_t count = 0;
    long i;
    if (!a || !b)
        abort();
    for (i = 0; i < (long)n; i++) {
        uint8_t e = ty[i];
        int hit = 0;
        for (r = 0, keep = 0; r < len; r++) {
            int a_live = i - a[r] - 1 <= g, b_live = b[r] >= 0 && i - b[r] - 1 <= g;
            if (e == 'C' && b_live)
                hit = 1;
            if (e == 'B' && a_live) {
                b[r] = i;
                b_live = 1;
            }
            if (a_live || b_live) {
                a[keep] = a[r];
                b[keep] = b[r];
                keep++;
            }
        }
        len = keep;
        count += (uint64_t)hit;
        if (e == 'A') {
            if (len == cap) {
                cap *= 2;
                a = realloc(a, cap * sizeof *a);
                b = realloc(b, cap * sizeof *b);
                if (!a || !b)
                    abort();
            }
            a[len] = i;
            b[len] = -1;
            len++;
        }
    }
    free(a);
    free(b);
    return count;
}

/* Matches (triples j < l < i, e_j = A, e_l = B, e_i = C, i - j + 1 <= w)
 * of `policy stam { A B C } within w events`, one by one: at every C, each
 * B of the window with each A before it. The positions of the As and Bs
 * of the last w events are kept in rings. */
uint64_t base_triples(const uint8_t *ty, size_t n, long w)
{
    size_t cap = (size_t)w + 1, ah = 0, al = 0, bh = 0, bl = 0, x, y;
    long *ap = malloc(cap * sizeof *ap), *bp = malloc(cap * sizeof *bp);
    uint64_t count = 0;
    long i;
    if (!ap || !bp)
        abort();
    for (i = 0; i < (long)n; i++) {
        uint8_t e = ty[i];
        while (al > 0 && i - ap[ah] + 1 > w) {
            ah = (ah + 1) % cap;
            al--;
        }
        while (bl > 0 && i - bp[bh] + 1 > w) {
            bh = (bh + 1) % cap;
            bl--;
        }
        if (e == 'C')
            for (y = 0; y < bl; y++) {
                long l = bp[(bh + y) % cap];
                for (x = 0; x < al && ap[(ah + x) % cap] < l; x++)
                    count++;
            }
        else if (e == 'A')
            ap[(ah + al++) % cap] = i;
        else if (e == 'B')
            bp[(bh + bl++) % cap] = i;
    }
    free(ap);
    free(bp);
    return count;
}

/* Detections of `A B+ C within w events` (contiguous): the run started by
 * the last A lives while Bs follow it. */
uint64_t base_kleene(const uint8_t *ty, size_t n, long w)
{
    long start = -1, nb = 0, i;
    uint64_t count = 0;
    for (i = 0; i < (long)n; i++) {
        uint8_t e = ty[i];
        if (start >= 0 && e == 'C' && nb > 0 && i - start + 1 <= w)
            count++;
        if (e == 'A') {
            start = i;
            nb = 0;
        } else if (start >= 0 && e == 'B') {
            nb++;
        } else {
            start = -1;
        }
    }
    return count;
}

/* Detections of `x:A y:[type == B && val > x.val + d] [type == C && val >
 * y.val]` (contiguous, within 3 events) on records, types 0, 1, 2: the run
 * started at i - 2 is checked when the C arrives. Floats compare as the
 * generated code does: the float attribute read as a double. */
uint64_t base_reg3(const bench_rec *ev, size_t n, double d)
{
    uint64_t count = 0;
    size_t i;
    for (i = 2; i < n; i++)
        if (ev[i].type == 2 && ev[i - 1].type == 1 && ev[i - 2].type == 0 &&
            (double)ev[i - 1].val > (double)ev[i - 2].val + d &&
            (double)ev[i].val > (double)ev[i - 1].val)
            count++;
    return count;
}

/* ---- hand-written O(1) counters --------------------------------------------------- */

/* B1, `policy stam { A B C } within w events`: the latest A, and the
 * latest A that precedes the latest B (the latest B leaves the best start,
 * as "latest A before" grows with the position); a detection at a C whose
 * best start is at most w - 1 events back. Branch-free updates. */
uint64_t base_counter_stam(const uint8_t *ty, size_t n, long w)
{
    int64_t last_a = INT64_MIN / 2, last_ab = INT64_MIN / 2, i;
    uint64_t count = 0;
    for (i = 0; i < (int64_t)n; i++) {
        uint8_t e = ty[i];
        count += (uint64_t)(e == 'C' && i - last_ab + 1 <= w);
        last_ab = e == 'B' ? last_a : last_ab;
        last_a = e == 'A' ? i : last_a;
    }
    return count;
}

/* B2, `A.{0,g}B.{0,g}C`: the latest A, the latest B that has an A at most
 * g events before it; a detection at a C at most g events after that B. */
uint64_t base_counter_gap(const uint8_t *ty, size_t n, long g)
{
    int64_t last_a = INT64_MIN / 2, last_b = INT64_MIN / 2, i;
    uint64_t count = 0;
    for (i = 0; i < (int64_t)n; i++) {
        uint8_t e = ty[i];
        count += (uint64_t)(e == 'C' && i - last_b - 1 <= g);
        last_b = e == 'B' && i - last_a - 1 <= g ? i : last_b;
        last_a = e == 'A' ? i : last_a;
    }
    return count;
}
