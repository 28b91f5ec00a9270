/* fc_ctx.c: prediction suffix tree -> context automaton: the PSA closure
 * (exact) with the warm-up contexts of short histories, or, over the
 * budget, node mode (Wayeb's approximation). Hosted only.
 *
 * Closure: a tree T over the symbols and an end-of-history mark $ (symbol
 * nsym), holding every pst node, in which every inner node has all nsym + 1
 * children. Each history h, read newest first and followed by $, has
 * exactly one leaf of T as a prefix; the leaves are the contexts. The leaf
 * of h determines the pst node of h (no pst label extends a leaf). T is
 * split until the leaf of s.h is found from s and h's leaf alone: walking s
 * then the leaf's label ends at a leaf. */
#include "fc_impl.h"

#include <stdlib.h>
#include <string.h>

typedef struct tree {
    uint32_t nsym, n, cap, leaves, limit;
    uint32_t *parent;
    uint16_t *sym;
    uint8_t *depth;
    uint8_t *inner;
    uint32_t *pst;      /* the deepest pst node whose label is a prefix of this one's */
    sremrt_fcm kids;
    const sremrt_fc_pst *t;
} tree;

static int reserve(tree *x, uint32_t more)
{
    uint32_t cap;
    void *p;
    if (x->n + more <= x->cap)
        return 0;
    cap = x->cap * 2 > x->n + more ? x->cap * 2 : x->n + more;
    if (SREMRT_FC_RESIZE(x->parent, cap, p) || SREMRT_FC_RESIZE(x->sym, cap, p)
        || SREMRT_FC_RESIZE(x->depth, cap, p) || SREMRT_FC_RESIZE(x->inner, cap, p)
        || SREMRT_FC_RESIZE(x->pst, cap, p))
        return -1;
    x->cap = cap;
    return 0;
}

/* A new leaf under parent; its pst node deepens when parent's label is a
 * pst label with a child under s ($ never is). */
static int add_leaf(tree *x, uint32_t parent, uint32_t s)
{
    uint32_t id = x->n, pn = x->pst[parent];
    int32_t k = -1;
    if (reserve(x, 1) != 0 || sremrt_fcm_put(&x->kids, parent, s, id) != 0)
        return -1;
    x->n++;
    x->leaves++;
    x->parent[id] = parent;
    x->sym[id] = (uint16_t)s;
    x->depth[id] = (uint8_t)(x->depth[parent] + 1);
    x->inner[id] = 0;
    if (s < x->nsym && sremrt_fc_pst_depth(x->t, pn) == x->depth[parent])
        k = sremrt_fc_pst_child(x->t, pn, (uint16_t)s);
    x->pst[id] = k >= 0 ? (uint32_t)k : pn;
    return 0;
}

/* Makes a leaf inner: all nsym + 1 children. -1 when out of memory or over
 * the limit of leaves. */
static int split(tree *x, uint32_t node)
{
    uint32_t s;
    if (x->inner[node])
        return 0;
    x->inner[node] = 1;
    x->leaves--;
    for (s = 0; s <= x->nsym; s++)
        if (sremrt_fcm_get(&x->kids, node, s) < 0 && add_leaf(x, node, s) != 0)
            return -1;
    return x->leaves > x->limit ? -1 : 0;
}

/* T's start: every pst node, each pst node with children made inner. pst
 * nodes come parents first, so a node's parent is in T before it. */
static int seed(tree *x)
{
    uint32_t node, n = sremrt_fc_pst_nodes(x->t);
    uint32_t *in_t = malloc((size_t)n * sizeof *in_t);   /* pst node -> T node */
    int rc = in_t ? 0 : -1;
    x->n = 1;
    x->leaves = 1;
    x->parent[0] = 0;
    x->sym[0] = 0;
    x->depth[0] = 0;
    x->inner[0] = 0;
    x->pst[0] = 0;
    if (in_t)
        in_t[0] = 0;
    for (node = 1; node < n && rc == 0; node++) {
        uint32_t up = in_t[sremrt_fc_pst_parent(x->t, node)];
        rc = split(x, up);
        in_t[node] = (uint32_t)sremrt_fcm_get(&x->kids, up, sremrt_fc_pst_symbol(x->t, node));
    }
    free(in_t);
    return rc;
}

/* Walks s, then node's label newest first, from the root; returns the leaf
 * it ends at, or -1 - (the inner node) when the label ran out first. */
static int64_t walk(const tree *x, uint32_t node, uint32_t s)
{
    uint16_t lab[SREMRT_FC_MAX_ORDER + 2];
    uint32_t d = x->depth[node], i;
    int64_t at;
    for (i = d; i > 0; i--, node = x->parent[node])
        lab[i - 1] = x->sym[node];
    if (!x->inner[0])
        return 0;
    at = sremrt_fcm_get(&x->kids, 0, s);
    for (i = 0; i < d && x->inner[at]; i++)
        at = sremrt_fcm_get(&x->kids, (uint32_t)at, lab[i]);
    return x->inner[at] ? -1 - at : at;
}

/* Splits until every leaf's every step ends at a leaf. -1 over the limit. */
static int close_tree(tree *x)
{
    int changed = 1;
    while (changed) {
        uint32_t node, n = x->n, s;
        changed = 0;
        for (node = 0; node < n; node++) {
            if (x->inner[node])
                continue;
            for (s = 0; s < x->nsym && !x->inner[node]; s++)
                if (walk(x, node, s) < 0) {
                    if (split(x, node) != 0)
                        return -1;
                    changed = 1;
                }
        }
    }
    return 0;
}

static void tree_free(tree *x)
{
    free(x->parent);
    free(x->sym);
    free(x->depth);
    free(x->inner);
    free(x->pst);
    sremrt_fcm_free(&x->kids);
}

static sremrt_fc_ctx *ctx_alloc(uint32_t ncontexts, uint32_t nsym, int exact)
{
    sremrt_fc_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->ncontexts = ncontexts;
    c->nsym = nsym;
    c->exact = exact;
    c->next = malloc((size_t)ncontexts * nsym * sizeof *c->next);
    c->prob = malloc((size_t)ncontexts * nsym * sizeof *c->prob);
    if (!c->next || !c->prob) {
        sremrt_fc_ctx_free(c);
        return NULL;
    }
    return c;
}

static void copy_dist(sremrt_fc_ctx *c, uint32_t ctx, const sremrt_fc_pst *t, uint32_t node)
{
    uint32_t s;
    for (s = 0; s < c->nsym; s++)
        c->prob[(size_t)ctx * c->nsym + s] = sremrt_fc_pst_prob(t, node, (uint16_t)s);
}

/* The reachable leaves from the start, numbered in breadth-first order. */
static sremrt_fc_ctx *number_leaves(const tree *x, uint32_t max_contexts)
{
    uint32_t *id = malloc((size_t)x->n * sizeof *id), *queue = malloc((size_t)x->n * sizeof *queue);
    uint32_t head = 0, n = 0, s, i, nsym = x->nsym;
    int64_t start = x->inner[0] ? sremrt_fcm_get(&x->kids, 0, nsym) : 0;
    sremrt_fc_ctx *c = NULL;
    if (!id || !queue)
        goto done;
    for (i = 0; i < x->n; i++)
        id[i] = UINT32_MAX;
    id[start] = n;
    queue[n++] = (uint32_t)start;
    while (head < n) {
        uint32_t node = queue[head++];
        for (s = 0; s < nsym; s++) {
            uint32_t to = (uint32_t)walk(x, node, s);
            if (id[to] == UINT32_MAX) {
                id[to] = n;
                queue[n++] = to;
            }
        }
    }
    if (n > max_contexts || !(c = ctx_alloc(n, nsym, 1)))
        goto done;
    for (i = 0; i < n; i++) {
        for (s = 0; s < nsym; s++)
            c->next[(size_t)i * nsym + s] = id[walk(x, queue[i], s)];
        copy_dist(c, i, x->t, x->pst[queue[i]]);
    }
    c->start = 0;
done:
    free(id);
    free(queue);
    return c;
}

static sremrt_fc_ctx *closure(const sremrt_fc_pst *t, uint32_t max_contexts)
{
    tree x;
    sremrt_fc_ctx *c = NULL;
    memset(&x, 0, sizeof x);
    x.t = t;
    x.nsym = sremrt_fc_pst_nsym(t);
    /* unreachable leaves are dropped at the end: allow some slack */
    x.limit = max_contexts > UINT32_MAX / 8 ? UINT32_MAX : max_contexts * 8;
    if (sremrt_fcm_init(&x.kids, 64) == 0 && reserve(&x, 64) == 0 && seed(&x) == 0
        && close_tree(&x) == 0)
        c = number_leaves(&x, max_contexts);
    tree_free(&x);
    return c;
}

/* Node mode: the context is a pst node; after s it is the deepest node
 * matching s followed by the node's label (older symbols forgotten). */
static sremrt_fc_ctx *node_mode(const sremrt_fc_pst *t)
{
    uint32_t n = sremrt_fc_pst_nodes(t), nsym = sremrt_fc_pst_nsym(t), node, s;
    sremrt_fc_ctx *c = ctx_alloc(n, nsym, 0);
    uint16_t lab[SREMRT_FC_MAX_ORDER + 1];
    if (!c)
        return NULL;
    for (node = 0; node < n; node++) {
        uint32_t d = sremrt_fc_pst_depth(t, node), m = node, i;
        for (i = d; i > 0; i--, m = (uint32_t)sremrt_fc_pst_parent(t, m))
            lab[i] = sremrt_fc_pst_symbol(t, m);
        for (s = 0; s < nsym; s++) {
            lab[0] = (uint16_t)s;
            c->next[(size_t)node * nsym + s] = sremrt_fc_pst_find(t, lab, d + 1);
        }
        copy_dist(c, node, t, node);
    }
    c->start = 0;
    return c;
}

sremrt_fc_ctx *sremrt_fc_ctx_build(const sremrt_fc_pst *t, uint32_t max_contexts)
{
    sremrt_fc_ctx *c = closure(t, max_contexts);
    return c ? c : node_mode(t);
}

void sremrt_fc_ctx_free(sremrt_fc_ctx *x)
{
    if (!x)
        return;
    free(x->next);
    free(x->prob);
    free(x);
}
