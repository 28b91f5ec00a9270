/* sra_eps.c: epsilon-SRA to epsilon-free SRA by epsilon closure, then
 * the states that no run can use (unreachable or dead) removed. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sra_build.h"

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) {
        fputs("sremc: out of memory\n", stderr);
        abort();
    }
    return p;
}

/* A transition of the result before pruning: state q takes sra->trans[t]
 * (which leaves a state of q's closure). */
typedef struct NewTrans {
    int q, t;
} NewTrans;

typedef struct Closure {
    const Sra *sra;
    int       *eps_first, *eps_to;   /* epsilon successors, compressed rows */
    int       *ev_first, *ev_idx;    /* event transitions, compressed rows */
    int       *seen, *stack;         /* seen: stamp of the last closure */
} Closure;

static void closure_open(Closure *c, const Sra *sra)
{
    int n = sra->nstates, m = sra->ntrans;
    c->sra = sra;
    c->eps_first = xcalloc((size_t)n + 1, sizeof(int));
    c->ev_first = xcalloc((size_t)n + 1, sizeof(int));
    c->eps_to = xcalloc((size_t)m, sizeof(int));
    c->ev_idx = xcalloc((size_t)m, sizeof(int));
    c->seen = xcalloc((size_t)n, sizeof(int));
    c->stack = xcalloc((size_t)n, sizeof(int));
    for (int i = 0; i < m; i++)
        (sra->trans[i].eps ? c->eps_first : c->ev_first)[sra->trans[i].from + 1]++;
    for (int s = 0; s < n; s++) {
        c->eps_first[s + 1] += c->eps_first[s];
        c->ev_first[s + 1] += c->ev_first[s];
    }
    int *efill = xcalloc((size_t)n, sizeof(int)), *vfill = xcalloc((size_t)n, sizeof(int));
    for (int i = 0; i < m; i++) {
        int f = sra->trans[i].from;
        if (sra->trans[i].eps)
            c->eps_to[c->eps_first[f] + efill[f]++] = sra->trans[i].to;
        else
            c->ev_idx[c->ev_first[f] + vfill[f]++] = i;
    }
    free(efill);
    free(vfill);
}

static void closure_close(Closure *c)
{
    free(c->eps_first);
    free(c->ev_first);
    free(c->eps_to);
    free(c->ev_idx);
    free(c->seen);
    free(c->stack);
}

/* Appends, for every state p in q's epsilon closure (depth first, p in
 * first-seen order), p's event transitions as q's; returns whether the
 * closure holds a final state, or -1 past max_trans. */
static int close_state(Closure *c, int q, NewTrans **out, int *n, int *cap, long max_trans)
{
    int top = 0, stamp = q + 1;
    bool final = false;
    c->seen[q] = stamp;
    c->stack[top++] = q;
    while (top > 0) {
        int p = c->stack[--top];
        final |= c->sra->final[p];
        for (int i = c->ev_first[p]; i < c->ev_first[p + 1]; i++) {
            if (*n >= max_trans)
                return -1;
            if (*n == *cap) {
                *cap = *cap ? *cap * 2 : 64;
                NewTrans *grown = realloc(*out, (size_t)*cap * sizeof **out);
                if (!grown) {
                    fputs("sremc: out of memory\n", stderr);
                    abort();
                }
                *out = grown;
            }
            (*out)[(*n)++] = (NewTrans){q, c->ev_idx[i]};
        }
        /* reversed, so successors are visited in transition order */
        for (int i = c->eps_first[p + 1] - 1; i >= c->eps_first[p]; i--) {
            int r = c->eps_to[i];
            if (c->seen[r] != stamp) {
                c->seen[r] = stamp;
                c->stack[top++] = r;
            }
        }
    }
    return final;
}

/* Marks, in mark[], every state reachable from the states already marked
 * along the edges (a[i] -> b[i]). */
static void reach(int n, const int *a, const int *b, int m, char *mark)
{
    int *first = xcalloc((size_t)n + 1, sizeof *first), *adj = xcalloc((size_t)m, sizeof *adj);
    int *fill = xcalloc((size_t)n, sizeof *fill), *queue = xcalloc((size_t)n, sizeof *queue);
    for (int i = 0; i < m; i++)
        first[a[i] + 1]++;
    for (int s = 0; s < n; s++)
        first[s + 1] += first[s];
    for (int i = 0; i < m; i++)
        adj[first[a[i]] + fill[a[i]]++] = b[i];
    int head = 0, tail = 0;
    for (int s = 0; s < n; s++)
        if (mark[s])
            queue[tail++] = s;
    while (head < tail) {
        int s = queue[head++];
        for (int i = first[s]; i < first[s + 1]; i++)
            if (!mark[adj[i]]) {
                mark[adj[i]] = 1;
                queue[tail++] = adj[i];
            }
    }
    free(first);
    free(adj);
    free(fill);
    free(queue);
}

/* alive[s]: s is reachable from the start and can reach a final state
 * (over the new transitions); the start is always kept. */
static void mark_alive(const Sra *sra, const NewTrans *nt, int m, const bool *fin, bool *alive)
{
    int n = sra->nstates;
    char *fwd = xcalloc((size_t)n, 1), *bwd = xcalloc((size_t)n, 1);
    int *from = xcalloc((size_t)m, sizeof *from), *to = xcalloc((size_t)m, sizeof *to);
    for (int i = 0; i < m; i++) {
        from[i] = nt[i].q;
        to[i] = sra->trans[nt[i].t].to;
    }
    fwd[sra->start] = 1;
    reach(n, from, to, m, fwd);
    for (int i = 0; i < n; i++)
        bwd[i] = fin[i];
    reach(n, to, from, m, bwd);
    for (int i = 0; i < n; i++)
        alive[i] = (fwd[i] && bwd[i]) || i == sra->start;
    free(fwd);
    free(bwd);
    free(from);
    free(to);
}

Sra *sra_eps_free_max(const Sra *sra, Arena *arena, long max_trans)
{
    int n = sra->nstates;
    Closure c;
    closure_open(&c, sra);
    bool *keep = xcalloc((size_t)n, sizeof *keep), *fin = xcalloc((size_t)n, sizeof *fin);
    keep[sra->start] = true;
    for (int i = 0; i < sra->ntrans; i++)
        if (!sra->trans[i].eps)
            keep[sra->trans[i].to] = true;
    NewTrans *nt = NULL;
    int m = 0, cap = 0;
    bool over = false;
    for (int q = 0; q < n && !over; q++) {
        if (!keep[q])
            continue;
        int r = close_state(&c, q, &nt, &m, &cap, max_trans);
        over = r < 0;
        fin[q] = r > 0;
    }
    closure_close(&c);
    Sra *out = NULL;
    if (!over) {
        bool *alive = xcalloc((size_t)n, sizeof *alive);
        mark_alive(sra, nt, m, fin, alive);
        int *renum = xcalloc((size_t)n, sizeof *renum);
        out = sra_new(arena, sra->pattern, sra->nregs);
        for (int s = 0; s < n; s++)
            if (keep[s] && alive[s]) {
                renum[s] = sra_add_state(out, arena);
                out->final[renum[s]] = fin[s];
            }
        out->start = renum[sra->start];
        for (int i = 0; i < m; i++) {
            const SraTrans *src = &sra->trans[nt[i].t];
            if (!alive[nt[i].q] || !alive[src->to])
                continue;
            SraTrans *t = sra_add_trans(out, arena, renum[nt[i].q], renum[src->to]);
            t->lits = src->lits;
            t->nlits = src->nlits;
            t->writes = src->writes;
            t->nwrites = src->nwrites;
            t->position = src->position;
        }
        free(alive);
        free(renum);
    }
    free(nt);
    free(keep);
    free(fin);
    return out;
}

Sra *sra_eps_free(const Sra *sra, Arena *arena) { return sra_eps_free_max(sra, arena, INT32_MAX); }
