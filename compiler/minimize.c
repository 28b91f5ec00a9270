/* minimize.c: Dsra -> equivalent Dsra, never larger, by Moore's partition
 * refinement: unreachable, dead and equivalent states go, minterms merge. */
#include "dsra.h"

#include <stdlib.h>
#include <string.h>

/* Moore, "Gedanken-experiments on sequential machines" (1956): start from
 * the partition by output and split classes until every state of a class
 * has the same signature. Here a state's signature is its decision tree
 * with leaves replaced by (class of the target, tag update) and tests
 * whose two branches are then equal removed. Equal signatures mean equal
 * transition functions up to classes. The converse holds for trees over
 * the same atoms in the determinizer's one order, except where a branch
 * was refuted by satisfiability (or an atom order differs): such states
 * stay apart, which costs size, not correctness. Signatures are
 * hash-consed into ints, so a round costs time linear in the trees.
 * (Hopcroft's algorithm has a better bound; the trees would have to be
 * split into per-minterm predecessor lists for it, and the automata here
 * are bounded by the state budget.)
 *
 * The output of a state is its finality; in a tagged tdfa also its slot
 * count and which slots are final, and the signature includes the tag
 * updates by slot position. States of a class thus act the same on every
 * tag vector, slot by slot, which makes merging them exact; it may keep
 * apart states equal up to a permutation of slots, which is sound.
 * Register writes are not part of the signature: a dsra reads registers
 * by age from the event history (dsra.h), so writes have no effect. */

typedef struct Min {
    const Dsra *d;
    Arena      *arena;      /* the result */
    Arena       round;      /* one round's signatures; reset each round */
    int        *cls;        /* [state]: class, -1 unreachable */
    int        *next;       /* [state]: class being computed */
    bool       *dead;       /* [state]: no final state reachable */
    int        *ids;        /* [node of one state]: signature id */
    int         nids;
    Intern      sigs;
} Min;

/* ---- reachability ------------------------------------------------------------------- */

static void mark_reachable(Min *m, bool *reach)
{
    const Dsra *d = m->d;
    int *queue = malloc(((size_t)d->nstates + 1) * sizeof *queue);
    if (!queue)
        abort();
    int head = 0, tail = 0;
    reach[0] = true;
    queue[tail++] = 0;
    while (head < tail) {
        const DsraState *st = &d->states[queue[head++]];
        for (int i = st->first; i < st->first + st->ntrans; i++)
            if (!reach[d->trans[i].to]) {
                reach[d->trans[i].to] = true;
                queue[tail++] = d->trans[i].to;
            }
    }
    free(queue);
}

/* dead[s]: no final state reachable from s (iterated to a fixpoint over
 * the transitions, which are few next to the states' trees). */
static void mark_dead(Min *m)
{
    const Dsra *d = m->d;
    bool *live = calloc((size_t)d->nstates + 1, sizeof *live);
    if (!live)
        abort();
    for (int s = 0; s < d->nstates; s++)
        live[s] = d->states[s].final;
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = d->ntrans - 1; i >= 0; i--)
            if (live[d->trans[i].to] && !live[d->trans[i].from])
                live[d->trans[i].from] = changed = true;
    }
    for (int s = 0; s < d->nstates; s++)
        m->dead[s] = !live[s];
    free(live);
}

/* ---- signatures ------------------------------------------------------------------------ */

/* Scratch int vector for building keys. */
typedef struct Key {
    int *v;
    int  n, cap;
} Key;

static void key_push(Key *k, int x)
{
    if (k->n == k->cap) {
        k->cap = k->cap ? 2 * k->cap : 16;
        int *grown = realloc(k->v, (size_t)k->cap * sizeof *grown);
        if (!grown)
            abort();
        k->v = grown;
    }
    k->v[k->n++] = x;
}

static int key_intern(Min *m, Key *k) { return intern_put(&m->sigs, k->v, (size_t)k->n * sizeof *k->v, NULL); }

/* A leaf's part of the signature: -1, the target's class, the start of
 * what it completes (back1), then per target slot -1 (fresh) or the
 * number of sources and the sources. */
static int leaf_sig(Min *m, const DsraTrans *tr, Key *k)
{
    k->n = 0;
    key_push(k, -1);
    key_push(k, m->cls[tr->to]);
    key_push(k, tr->back1);   /* a Mealy output: states differing in it stay apart */
    for (int s = 0; tr->tags && s < m->d->states[tr->to].nmembers; s++) {
        const DsraTag *tg = &tr->tags[s];
        key_push(k, tg->fresh ? -1 : tg->nfrom);
        for (int j = 0; j < tg->nfrom; j++)
            key_push(k, tg->from[j]);
    }
    return key_intern(m, k);
}

/* Signature ids of every node of state s, children first (they come
 * after their parent); a test whose branches agree takes their id. */
static int tree_sig(Min *m, int s, Key *k)
{
    const DsraState *st = &m->d->states[s];
    if (st->nnodes > m->nids) {
        m->nids = 2 * st->nnodes;
        free(m->ids);
        m->ids = malloc((size_t)m->nids * sizeof *m->ids);
        if (!m->ids)
            abort();
    }
    for (int i = st->nnodes - 1; i >= 0; i--) {
        const DsraNode *nd = &st->nodes[i];
        if (nd->atom < 0) {
            m->ids[i] = leaf_sig(m, &m->d->trans[nd->trans], k);
        } else if (m->ids[nd->hi] == m->ids[nd->lo]) {
            m->ids[i] = m->ids[nd->hi];
        } else {
            k->n = 0;
            key_push(k, nd->atom);
            key_push(k, m->ids[nd->hi]);
            key_push(k, m->ids[nd->lo]);
            m->ids[i] = key_intern(m, k);
        }
    }
    return m->ids[0];
}

/* The initial partition: dead states, then finality (and for tagged
 * automata the slot count and final slots). */
static int initial_classes(Min *m, Key *k)
{
    const Dsra *d = m->d;
    intern_init(&m->sigs, &m->round);
    for (int s = 0; s < d->nstates; s++) {
        if (m->cls[s] < 0)
            continue;
        const DsraState *st = &d->states[s];
        k->n = 0;
        key_push(k, m->dead[s] ? -2 : st->final);
        if (d->tagged && !m->dead[s]) {
            key_push(k, st->nmembers);
            for (int j = 0; j < st->nfinals; j++)
                key_push(k, st->finals[j]);
        }
        m->cls[s] = key_intern(m, k);
    }
    return m->sigs.n;
}

/* One round: class = (old class, reduced tree). Returns the class count. */
static int refine(Min *m, Key *k)
{
    const Dsra *d = m->d;
    arena_free(&m->round);
    intern_init(&m->sigs, &m->round);
    Intern classes;
    intern_init(&classes, &m->round);
    for (int s = 0; s < d->nstates; s++) {
        m->next[s] = -1;
        if (m->cls[s] < 0)
            continue;
        int key[2] = {m->cls[s], m->dead[s] ? -2 : tree_sig(m, s, k)};
        m->next[s] = intern_put(&classes, key, sizeof key, NULL);
    }
    memcpy(m->cls, m->next, (size_t)d->nstates * sizeof *m->cls);
    return classes.n;
}

/* ---- the result ---------------------------------------------------------------------------- */

typedef struct Out {
    Min       *m;
    int       *rep;        /* [class]: its smallest state */
    int       *num;        /* [class]: new state number, -1 */
    int       *order;      /* [new number]: class */
    int        nnew;
    DsraState *states;
    DsraTrans *trans;
    int        ntrans, trans_cap;
    /* the state being built */
    DsraNode  *nodes;
    int        nnodes, nodes_cap;
    int       *leaf_key;   /* [transition of the result]: leaf signature */
    int        leaf_cap;
    MtLit     *path;
    int        npath;
    Key        k;
} Out;

static int new_number(Out *o, int cls)
{
    if (o->num[cls] < 0) {
        o->num[cls] = o->nnew;
        o->order[o->nnew++] = cls;
    }
    return o->num[cls];
}

/* A leaf of the reduced tree: the transition for its signature, created
 * on first use, gets the path as one more cube. */
static int out_leaf(Out *o, int first, const DsraTrans *src, int sig)
{
    Min *m = o->m;
    int t = first;
    while (t < o->ntrans && o->leaf_key[t] != sig)
        t++;
    if (t == o->ntrans) {
        DsraTrans *tr = arena_push(m->arena, &o->trans, &o->ntrans, &o->trans_cap, sizeof *tr);
        if (o->ntrans > o->leaf_cap) {
            o->leaf_cap = 2 * o->ntrans;
            o->leaf_key = realloc(o->leaf_key, (size_t)o->leaf_cap * sizeof *o->leaf_key);
            if (!o->leaf_key)
                abort();
        }
        o->leaf_key[t] = sig;
        tr->from = o->nnew; /* fixed up by the caller */
        tr->to = new_number(o, m->cls[src->to]);
        tr->writes = src->writes;
        tr->nwrites = src->nwrites;
        tr->tags = src->tags;
        tr->back1 = src->back1;
    }
    DsraTrans *tr = &o->trans[t];
    DsraCube *cubes = arena_alloc(m->arena, (size_t)(tr->ncubes + 1) * sizeof *cubes);
    if (tr->ncubes)
        memcpy(cubes, tr->cubes, (size_t)tr->ncubes * sizeof *cubes);
    DsraCube *c = &cubes[tr->ncubes];
    c->lits = arena_alloc(m->arena, (size_t)(o->npath + 1) * sizeof *c->lits);
    memcpy(c->lits, o->path, (size_t)o->npath * sizeof *c->lits);
    c->nlits = o->npath;
    tr->cubes = cubes;
    tr->ncubes++;
    DsraNode *nd = arena_push(m->arena, &o->nodes, &o->nnodes, &o->nodes_cap, sizeof *nd);
    *nd = (DsraNode){-1, -1, -1, t};
    return o->nnodes - 1;
}

/* Copies the reduced tree below node i of state s (ids from tree_sig),
 * parents before children, hi branch first. */
static int out_tree(Out *o, int s, int i, int first)
{
    Min *m = o->m;
    const DsraState *st = &m->d->states[s];
    const DsraNode *nd = &st->nodes[i];
    while (nd->atom >= 0 && m->ids[nd->hi] == m->ids[nd->lo])
        nd = &st->nodes[nd->hi];
    if (nd->atom < 0)
        return out_leaf(o, first, &m->d->trans[nd->trans], m->ids[nd - st->nodes]);
    int me = o->nnodes;
    DsraNode *slot = arena_push(m->arena, &o->nodes, &o->nnodes, &o->nodes_cap, sizeof *slot);
    slot->atom = nd->atom;
    slot->trans = -1;
    o->path[o->npath++] = (MtLit){nd->atom, false};
    int hi = out_tree(o, s, nd->hi, first);
    o->path[o->npath - 1].neg = true;
    int lo = out_tree(o, s, nd->lo, first);
    o->npath--;
    o->nodes[me].hi = hi;
    o->nodes[me].lo = lo;
    return me;
}

/* A dead class: nothing it does matters, so one transition to itself. */
static void out_dead(Out *o, DsraState *st, int self, const DsraState *rep)
{
    Min *m = o->m;
    DsraTrans *tr = arena_push(m->arena, &o->trans, &o->ntrans, &o->trans_cap, sizeof *tr);
    tr->from = tr->to = self;
    tr->cubes = arena_alloc(m->arena, sizeof *tr->cubes);
    tr->ncubes = 1;
    if (m->d->tagged) {
        tr->tags = arena_alloc(m->arena, ((size_t)rep->nmembers + 1) * sizeof *tr->tags);
        for (int k = 0; k < rep->nmembers; k++) {
            tr->tags[k].from = arena_alloc(m->arena, sizeof *tr->tags[k].from);
            tr->tags[k].from[0] = k;
            tr->tags[k].nfrom = 1;
        }
    }
    st->nodes = arena_alloc(m->arena, sizeof *st->nodes);
    st->nodes[0] = (DsraNode){-1, -1, -1, o->ntrans - 1};
    st->nnodes = 1;
}

static void out_state(Out *o, int n)
{
    Min *m = o->m;
    int cls = o->order[n], s = o->rep[cls];
    const DsraState *rep = &m->d->states[s];
    DsraState *st = &o->states[n];
    st->members = rep->members;
    st->nmembers = rep->nmembers;
    st->finals = rep->finals;
    st->nfinals = rep->nfinals;
    st->final = rep->final;
    st->first = o->ntrans;
    if (m->dead[s]) {
        out_dead(o, st, n, rep);
    } else {
        tree_sig(m, s, &o->k);
        o->nodes = NULL;
        o->nnodes = o->nodes_cap = 0;
        o->npath = 0;
        out_tree(o, s, 0, o->ntrans);
        st->nodes = o->nodes;
        st->nnodes = o->nnodes;
    }
    st->ntrans = o->ntrans - st->first;
    for (int i = st->first; i < o->ntrans; i++)
        o->trans[i].from = n;
    dsra_state_atoms(st, m->arena);
}

static Dsra *build_result(Min *m, int nclasses)
{
    const Dsra *d = m->d;
    Out o = {.m = m};
    o.rep = malloc(((size_t)nclasses + 1) * sizeof *o.rep);
    o.num = malloc(((size_t)nclasses + 1) * sizeof *o.num);
    o.order = malloc(((size_t)nclasses + 1) * sizeof *o.order);
    o.path = malloc(((size_t)d->mt->natoms + 1) * sizeof *o.path);
    if (!o.rep || !o.num || !o.order || !o.path)
        abort();
    for (int c = 0; c < nclasses; c++)
        o.rep[c] = -1, o.num[c] = -1;
    Dsra *out = arena_alloc(m->arena, sizeof *out);
    *out = *d;
    out->minimized = true;
    out->states = arena_alloc(m->arena, ((size_t)nclasses + 1) * sizeof *out->states);
    for (int s = d->nstates - 1; s >= 0; s--)
        if (m->cls[s] >= 0)
            o.rep[m->cls[s]] = s;
    int *merged = calloc((size_t)nclasses + 1, sizeof *merged);
    if (!merged)
        abort();
    for (int s = 0; s < d->nstates; s++)
        if (m->cls[s] >= 0)
            merged[m->cls[s]]++;
    o.states = out->states;
    /* Breadth-first from the start's class: numbering as the dumps want. */
    new_number(&o, m->cls[0]);
    for (int n = 0; n < o.nnew; n++) {
        out_state(&o, n);
        out->states[n].merged = merged[o.order[n]];
    }
    out->nstates = o.nnew;
    out->trans = o.trans;
    out->ntrans = o.ntrans;
    out->ncubes = 0;
    for (int i = 0; i < o.ntrans; i++)
        out->ncubes += o.trans[i].ncubes;
    free(merged);
    free(o.rep);
    free(o.num);
    free(o.order);
    free(o.path);
    free(o.leaf_key);
    free(o.k.v);
    return out;
}

Dsra *dsra_minimize(const Dsra *d, Arena *arena)
{
    Min m = {.d = d, .arena = arena};
    arena_init(&m.round);
    size_t n = (size_t)d->nstates + 1;
    m.cls = malloc(n * sizeof *m.cls);
    m.next = malloc(n * sizeof *m.next);
    m.dead = calloc(n, sizeof *m.dead);
    bool *reach = calloc(n, sizeof *reach);
    if (!m.cls || !m.next || !m.dead || !reach)
        abort();
    mark_reachable(&m, reach);
    mark_dead(&m);
    for (int s = 0; s < d->nstates; s++)
        m.cls[s] = reach[s] ? 0 : -1;
    Key k = {0};
    int nclasses = initial_classes(&m, &k);
    for (;;) {
        int again = refine(&m, &k);
        if (again == nclasses)
            break;
        nclasses = again;
    }
    /* Signatures of the final round are rebuilt per state in out_state. */
    arena_free(&m.round);
    intern_init(&m.sigs, &m.round);
    Dsra *out = build_result(&m, nclasses);
    arena_free(&m.round);
    free(k.v);
    free(m.cls);
    free(m.next);
    free(m.dead);
    free(m.ids);
    free(reach);
    return out;
}
