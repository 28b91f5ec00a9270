/* nodes.c: Dsra -> node arrays (nodes.h): the decision trees of all
 * states hash-consed into one node array, leaves into one leaf array. */
#include "nodes.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "intern.h"

typedef struct Build {
    const Dsra *d;
    Arena      *arena;
    int        *dense;          /* MtTable atom id -> dense number, -1: unused */
    Intern      nodes, leaves;  /* keys: {atom, lo, hi}; a leaf's ints */
    int        *key;            /* scratch for a leaf key */
    int         slots;
} Build;

int nodes_width(long max)
{
    return max <= UINT8_MAX ? 1 : max <= UINT16_MAX ? 2 : max <= (long)UINT32_MAX ? 4 : 8;
}

/* Tagged leaf key, three sections ended by -1: to and the first source
 * of each target slot (S: the event itself, a fresh start); the further
 * sources, slot * (S + 1) + from; the final slots. A transition without
 * tags (none are built; the trees keep the old tags then and detect
 * nothing) copies each slot to itself. */
static int leaf_key(Build *b, const DsraTrans *tr)
{
    const DsraState *to = &b->d->states[tr->to];
    int n = 0, S = b->slots;
    b->key[n++] = tr->to;
    for (int k = 0; k < to->nmembers; k++) {
        const DsraTag *tg = tr->tags ? &tr->tags[k] : NULL;
        /* as the trees: no source is a fresh start */
        b->key[n++] = !tg ? k : tg->fresh || tg->nfrom == 0 ? S : tg->from[0];
    }
    b->key[n++] = -1;
    for (int k = 0; tr->tags && k < to->nmembers; k++)
        for (int f = 1; !tr->tags[k].fresh && f < tr->tags[k].nfrom; f++)
            b->key[n++] = k * (S + 1) + tr->tags[k].from[f];
    b->key[n++] = -1;
    if (to->final && tr->tags)
        for (int f = 0; f < to->nfinals; f++)
            b->key[n++] = to->finals[f];
    b->key[n++] = -1;
    return n;
}

/* The leaf of transition t: -(id + 1). */
static int leaf(Build *b, int t)
{
    const DsraTrans *tr = &b->d->trans[t];
    if (!b->d->tagged)   /* the leaf is the target state */
        return -(tr->to + 1);
    int n = leaf_key(b, tr);
    return -(intern_put(&b->leaves, b->key, (size_t)n * sizeof *b->key, NULL) + 1);
}

/* Node n of state st, reduced and shared: a node id >= 0 or a leaf < 0. */
static int build_node(Build *b, const DsraState *st, int n)
{
    const DsraNode *nd = &st->nodes[n];
    if (nd->atom < 0)
        return leaf(b, nd->trans);
    int lo = build_node(b, st, nd->lo), hi = build_node(b, st, nd->hi);
    if (lo == hi)   /* the test decides nothing */
        return lo;
    int key[3] = {b->dense[nd->atom], lo, hi};
    return intern_put(&b->nodes, key, sizeof key, NULL);
}

static NodeArray *add_array(NodeTables *t, NodeArray *a, const char *name, const char *what, long n,
                            Arena *arena)
{
    a->name = name;
    a->what = what;
    a->n = n > 0 ? n : 1;
    a->v = arena_alloc(arena, (size_t)a->n * sizeof *a->v);
    t->arrays[t->narrays++] = a;
    return a;
}

/* max of every array: the values it holds */
static void set_max(NodeArray *a)
{
    a->max = 0;
    for (long k = 0; k < a->n; k++)
        if (a->v[k] > a->max)
            a->max = a->v[k];
}

/* A walk value from build_node's encoding. */
static int walk_value(const NodeTables *t, int v)
{
    return v >= 0 ? v : t->nnodes + (-v - 1);
}

/* Section c of leaf u's key (leaf_key): *len ints from the returned one. */
static const int *key_section(const Build *b, int u, int c, int *len)
{
    const int *k = intern_bytes(&b->leaves, u);
    if (c == 0)
        k++;   /* after to */
    for (; c > 0; k++)
        c -= *k < 0;
    *len = 0;
    while (k[*len] >= 0)
        ++*len;
    return k;
}

/* The tagged leaves' arrays from their keys. */
static void tagged_leaves(NodeTables *t, Build *b, Arena *arena)
{
    NodeArray *first[3] = {&t->src_first, &t->xsrc_first, &t->fin_first}, *vals[3] = {&t->src, &t->xsrc, &t->fin};
    static const char *const names[3][2] = {{"src_first", "src"}, {"xsrc_first", "xsrc"}, {"fin_first", "fin"}};
    static const char *const what[3][2] = {
        {"per leaf: src[src_first[u] + j] is the first tag source of target slot j",
         "a source slot (the slot count: the event itself)"},
        {"per leaf: its further tag sources are xsrc[xsrc_first[u] .. xsrc_first[u + 1])",
         "target slot << shift | source slot: the new tag is the max"},
        {"per leaf: the final slots fin[fin_first[u] .. fin_first[u + 1])",
         "final slots of the target, whose latest new tag is tested"}};
    int S = t->slots, len;
    while ((1 << t->src_shift) <= S)
        t->src_shift++;
    add_array(t, &t->to, "to", "per leaf: the target state", t->nleaves, arena);
    for (int c = 0; c < 3; c++) {
        long total = 0;
        for (int u = 0; u < t->nleaves; u++) {
            key_section(b, u, c, &len);
            total += len;
        }
        add_array(t, first[c], names[c][0], what[c][0], t->nleaves + 1, arena);
        add_array(t, vals[c], names[c][1], what[c][1], total, arena);
        total = 0;
        for (int u = 0; u < t->nleaves; u++) {
            const int *k = key_section(b, u, c, &len);
            first[c]->v[u] = (int)total;
            for (int j = 0; j < len; j++)
                vals[c]->v[total++] = c == 1 ? k[j] / (S + 1) << t->src_shift | k[j] % (S + 1) : k[j];
        }
        first[c]->v[t->nleaves] = (int)total;
    }
    for (int u = 0; u < t->nleaves; u++)
        t->to.v[u] = *(const int *)intern_bytes(&b->leaves, u);
}

NodeTables *nodes_build(const Dsra *d, Arena *arena)
{
    NodeTables *t = arena_alloc(arena, sizeof *t);
    Build b = {.d = d, .arena = arena};
    t->d = d;
    t->tagged = d->tagged;
    intern_init(&b.nodes, arena);
    intern_init(&b.leaves, arena);
    b.dense = arena_alloc(arena, ((size_t)d->mt->natoms + 1) * sizeof *b.dense);
    for (int a = 0; a < d->mt->natoms; a++)
        b.dense[a] = -1;
    int maxkey = 2;
    for (int q = 0; q < d->nstates; q++) {
        const DsraState *st = &d->states[q];
        if (st->nmembers > b.slots)
            b.slots = st->nmembers;
        for (int n = 0; n < st->nnodes; n++)
            if (st->nodes[n].atom >= 0)
                b.dense[st->nodes[n].atom] = 0;
    }
    if (b.slots == 0 || !d->tagged)
        b.slots = 1;
    t->slots = b.slots;
    t->atoms = arena_alloc(arena, ((size_t)d->mt->natoms + 1) * sizeof *t->atoms);
    for (int a = 0; a < d->mt->natoms; a++)   /* dense numbers keep the atom order */
        if (b.dense[a] == 0) {
            b.dense[a] = t->natoms;
            t->atoms[t->natoms++] = a;
        }
    for (int k = 0; k < d->ntrans; k++) {
        int n = 4;
        const DsraTrans *tr = &d->trans[k];
        for (int j = 0; tr->tags && j < d->states[tr->to].nmembers; j++)
            n += tr->tags[j].nfrom + 1;
        n += d->states[tr->to].nmembers + d->states[tr->to].nfinals;
        if (n > maxkey)
            maxkey = n;
    }
    b.key = arena_alloc(arena, (size_t)maxkey * sizeof *b.key);

    int *raw = arena_alloc(arena, ((size_t)d->nstates + 1) * sizeof *raw);
    for (int q = 0; q < d->nstates; q++) {
        const DsraState *st = &d->states[q];
        if (st->nnodes == 0) {
            t->has_stay = true;
            raw[q] = INT32_MIN;
        } else {
            raw[q] = build_node(&b, st, 0);
        }
    }
    t->nnodes = b.nodes.n;
    t->nleaves = d->tagged ? b.leaves.n : d->nstates;
    t->stay = t->nnodes + t->nleaves;
    add_array(t, &t->root, "root", "per state: where its walk starts", d->nstates, arena);
    for (int q = 0; q < d->nstates; q++)
        t->root.v[q] = raw[q] == INT32_MIN ? t->stay : walk_value(t, raw[q]);
    if (t->nnodes > 0) {   /* else every tree is one leaf: no node arrays, the walk has no loop */
        add_array(t, &t->atom, "atom", "per node: the atom it tests", t->nnodes, arena);
        add_array(t, &t->kid, "kid", "per node n: kid[2n] when its atom is false, kid[2n + 1] when true",
                  2L * t->nnodes, arena);
    }
    for (int n = 0; n < t->nnodes; n++) {
        const int *k = intern_bytes(&b.nodes, n);
        t->atom.v[n] = k[0];
        t->kid.v[2 * n] = walk_value(t, k[1]);
        t->kid.v[2 * n + 1] = walk_value(t, k[2]);
    }
    if (d->tagged) {
        tagged_leaves(t, &b, arena);
    } else {
        add_array(t, &t->final, "final", "per state (a leaf is its target state): 1 if final", d->nstates,
                  arena);
        for (int q = 0; q < d->nstates; q++)
            t->final.v[q] = d->states[q].final;
    }
    for (int k = 0; k < t->narrays; k++)
        set_max(t->arrays[k]);
    return t;
}

size_t nodes_bytes(const NodeTables *t)
{
    size_t bytes = 0;
    for (int k = 0; k < t->narrays; k++)
        bytes += (size_t)t->arrays[k]->n * (size_t)nodes_width(t->arrays[k]->max);
    return bytes;
}
