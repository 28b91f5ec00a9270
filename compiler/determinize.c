/* determinize.c: epsilon-free or unrolled SRA -> Dsra, by the powerset
 * construction with minterms (SRA paper, determinization), streaming. */
#include "dsra.h"

#include <stdlib.h>
#include <string.h>

#include "sra_build.h"

/* The construction follows the SRA paper: a state is a set of NFA states;
 * for each state the conditions on its outgoing transitions are split
 * into mutually exclusive minterms and each satisfiable minterm gets one
 * transition, to the set of targets of the NFA transitions it enables,
 * writing every register they write. Where this one differs:
 *
 * - Minterms are the leaves of a decision tree over normalized atoms
 *   (minterm.h) rather than conjunctions of whole guards and their
 *   negations, so each is a cube (a conjunction of atom literals) that
 *   generated code tests directly, and a branch is cut as soon as its
 *   cube is refuted. Only atoms that still decide the target set are
 *   tested (pick_atom), in one global order (register-free atoms first),
 *   so states with the same transition function mostly get the same
 *   tree and minimization can compare trees.
 *
 * - Final states with no way on are one member (canonical_sinks).
 *
 * - tdfa tags. A run of a register-free pattern is (NFA state q, start
 *   j). Two runs (q, j1) and (q, j2) with j1 < j2 have the same futures,
 *   since transitions depend on q and the events only, and every window
 *   that holds from j1 to some later i also holds from j2 (i - j2 + 1 <
 *   i - j1 + 1; ts(j2) >= ts(j1) because timestamps never decrease). So
 *   whatever detection (q, j1) leads to, (q, j2) leads to as well, and
 *   keeping only the latest start per NFA state is exact for detection.
 *   A state is then a set of NFA states, each with one tag; an NFA state
 *   entered from several sources takes the max of their tags, and one
 *   entered from the fresh run started by the current event takes the
 *   current event (the latest of all). A run whose window has passed
 *   keeps its slot: its tag only gets older, so the window test at
 *   detection time (on the max tag of the final slots) rejects it, and
 *   the states stay those of the window-free DFA: no unrolling, and the
 *   per-event cost does not depend on the window. */

/* One NFA transition out of a source slot of the state being expanded. */
typedef struct Edge {
    int              slot;   /* source slot; -1: the run the event starts */
    int              t;      /* NFA transition */
    const MtFormula *guard;
    signed char      v;      /* guard's value on the current path */
} Edge;

/* One literal of the current path; implied literals (the other branch
 * was refuted) help later refutations but are not tested. */
typedef struct PathLit {
    MtLit lit;
    bool  tested;
} PathLit;

typedef struct Det {
    const Sra        *nfa;
    const AstPattern *p;
    Arena            *arena;      /* the result */
    Arena             scratch;    /* everything else; freed at the end */
    Diag             *diag;
    MtTable          *mt;
    bool              unrolled, tagged;
    int               max_states;
    long              max_trans, max_cells, cells;
    bool              over;       /* the budget was exceeded: stop */
    int              *first, *adj;  /* NFA transitions of q: adj[first[q]..first[q+1]) */
    bool             *alive;      /* NFA state can reach a final state */
    int              *canon;      /* NFA state -> the state runs in it count as */
    const MtFormula **guards;     /* per NFA transition; NULL until built */
    int               history;    /* largest register age read */
    Intern            subsets;    /* member vectors -> state id */
    DsraState        *states;
    int               nstates, states_cap;
    DsraTrans        *trans;
    int               ntrans, trans_cap;
    /* the state being expanded */
    int               cur;
    Edge             *edges;
    int               nedges, edges_cap;
    signed char      *val;        /* [atom]: 1, 0, -1 unknown */
    int               val_cap;
    int               pick;       /* pick_atom's choice so far */
    PathLit          *path;       /* [val_cap] */
    MtLit            *cube;       /* [val_cap]: scratch for satisfiability checks */
    int               npath;
    DsraNode         *nodes;
    int               nnodes, nodes_cap;
    int              *tmp;        /* [NFA states + 2 NFA transitions]: leaf scratch */
    int              *slot_of;    /* [NFA states]: target slot, -1 */
    bool             *t_in, *t_fresh, *t_unknown;  /* [NFA states]: pick_atom */
} Det;

long dsra_trans_budget(int max_states) { return 16L * (max_states > 0 ? max_states : 1); }

/* ---- the NFA ------------------------------------------------------------------------ */

/* Transitions grouped by source (counting sort, so the order is kept). */
static void index_nfa(Det *d)
{
    const Sra *nfa = d->nfa;
    int n = nfa->nstates, m = nfa->ntrans;
    d->first = arena_alloc(&d->scratch, (size_t)(n + 2) * sizeof *d->first);
    d->adj = arena_alloc(&d->scratch, (size_t)(m + 1) * sizeof *d->adj);
    for (int t = 0; t < m; t++)
        d->first[nfa->trans[t].from + 2]++;
    for (int q = 0; q < n; q++)
        d->first[q + 2] += d->first[q + 1];
    for (int t = 0; t < m; t++)
        d->adj[d->first[nfa->trans[t].from + 1]++] = t;
}

/* alive[q]: some final state is reachable from q. Runs elsewhere can
 * never detect anything, so they are not kept in states at all. */
static void mark_alive(Det *d)
{
    const Sra *nfa = d->nfa;
    d->alive = arena_alloc(&d->scratch, (size_t)(nfa->nstates + 1) * sizeof *d->alive);
    for (int q = 0; q < nfa->nstates; q++)
        d->alive[q] = nfa->final[q];
    for (bool changed = true; changed;) {
        changed = false;
        for (int t = 0; t < nfa->ntrans; t++) {
            const SraTrans *tr = &nfa->trans[t];
            if (d->alive[tr->to] && !d->alive[tr->from])
                d->alive[tr->from] = changed = true;
        }
    }
}

/* canon[q]: final states with no way on are all one (the smallest): a
 * run there only says "detected now" and ends. Unrolling makes one such
 * state per depth; without this, subsets would tell apart the depths at
 * which runs ended and multiply. In a tagged tdfa the merged slot takes
 * the max of their tags, which is what detection reads anyway. */
static void canonical_sinks(Det *d)
{
    const Sra *nfa = d->nfa;
    d->canon = arena_alloc(&d->scratch, (size_t)(nfa->nstates + 1) * sizeof *d->canon);
    bool *moves = arena_alloc(&d->scratch, (size_t)(nfa->nstates + 1) * sizeof *moves);
    for (int t = 0; t < nfa->ntrans; t++)
        moves[nfa->trans[t].from] |= d->alive[nfa->trans[t].to];
    int sink = -1;
    for (int q = 0; q < nfa->nstates; q++) {
        d->canon[q] = q;
        if (nfa->final[q] && !moves[q]) {
            if (sink < 0)
                sink = q;
            d->canon[q] = sink;
        }
    }
}

/* The member an NFA transition's run lands in. */
static int target(const Det *d, int t) { return d->canon[d->nfa->trans[t].to]; }

/* Pattern registers a condition reads. */
static void collect_reads(const AstExpr *e, bool *seen, int nregs)
{
    if (!e)
        return;
    if (e->kind == EX_REGATTR && e->reg >= 0 && e->reg < nregs)
        seen[e->reg] = true;
    for (int i = 0; i < e->nargs; i++)
        collect_reads(e->args[i], seen, nregs);
    collect_reads(e->lhs, seen, nregs);
    collect_reads(e->rhs, seen, nregs);
}

/* Where literal lit of a transition out of unrolled state `from` finds
 * its registers: pattern register r maps to the clone written at depth t
 * (SRA register r' * (w + 1) + t), which from the current event (depth
 * depth[from] + 1) is depth[from] + 1 - t events back. Depth 0 means no
 * event wrote it: empty. */
static int *unrolled_locs(Det *d, const SraLit *lit, int from)
{
    int nregs = d->mt->nregs, w = d->nfa->window;
    int *loc = arena_alloc(&d->scratch, (size_t)(nregs + 1) * sizeof *loc);
    bool *seen = arena_alloc(&d->scratch, (size_t)(nregs + 1) * sizeof *seen);
    collect_reads(lit->cond, seen, nregs);
    for (int r = 0; r < nregs; r++) {
        loc[r] = -1;
        if (!lit->regmap || lit->regmap[r] < 0)
            continue;
        int t = lit->regmap[r] % (w + 1);
        if (t >= 1 && t <= d->nfa->depth[from]) {
            loc[r] = d->nfa->depth[from] + 1 - t;
            if (seen[r] && loc[r] > d->history)
                d->history = loc[r];
        }
    }
    return loc;
}

/* The guard of NFA transition t as one formula: the conjunction of its
 * literals, each a whole condition (DEF and F) or its negation. */
static const MtFormula *guard_of(Det *d, int t)
{
    if (d->guards[t])
        return d->guards[t];
    const SraTrans *tr = &d->nfa->trans[t];
    const MtFormula *g = mt_true(d->mt);
    for (int i = 0; i < tr->nlits && g->kind != MF_FALSE; i++) {
        const SraLit *lit = &tr->lits[i];
        const int *loc = d->unrolled ? unrolled_locs(d, lit, tr->from) : NULL;
        const MtFormula *c = mt_condition(d->mt, lit->cond, loc);
        g = mt_and(d->mt, g, lit->neg ? mt_not(d->mt, c) : c);
    }
    d->guards[t] = g;
    return g;
}

/* ---- budget -------------------------------------------------------------------------- */

static void report_budget(Det *d)
{
    const AstPattern *p = d->p;
    char win[96] = "without a window";
    if (p)
        sra_window_text(p, win, sizeof win);
    Loc loc = p ? (p->hdr.window.loc.line ? p->hdr.window.loc : p->loc) : (Loc){0, 0};
    diag_error(d->diag, loc,
               "pattern '%s' (%s): the %s automaton reached %d states and %d transitions, over the "
               "state budget (--max-states %d); raise --max-states or use --strategy runs",
               p ? p->name : "?", win, d->unrolled ? "dsra" : "tdfa", d->nstates, d->ntrans,
               d->max_states);
}

/* Counts n ints of the result against the size budget. */
static bool cells(Det *d, long n)
{
    d->cells += n;
    if (d->cells > d->max_cells)
        d->over = true;
    return !d->over;
}

/* ---- states ---------------------------------------------------------------------------- */

/* The id of the state with these members, created (and queued: states
 * are expanded in id order, so numbering is breadth-first) if new. */
static int state_of(Det *d, const int *members, int n)
{
    bool added;
    int id = intern_put(&d->subsets, members, (size_t)n * sizeof *members, &added);
    if (!added)
        return id;
    if (d->nstates >= d->max_states || !cells(d, 2L * n)) {
        d->over = true;
        return -1;
    }
    DsraState *st = arena_push(&d->scratch, &d->states, &d->nstates, &d->states_cap, sizeof *st);
    st->members = arena_alloc(d->arena, (size_t)(n + 1) * sizeof *st->members);
    if (n)
        memcpy(st->members, members, (size_t)n * sizeof *members);
    st->nmembers = n;
    st->finals = arena_alloc(d->arena, (size_t)(n + 1) * sizeof *st->finals);
    for (int k = 0; k < n; k++)
        if (d->nfa->final[members[k]])
            st->finals[st->nfinals++] = k;
    st->final = st->nfinals > 0;
    st->merged = 1;
    return id;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Sorts v[0..n) and drops duplicates; returns the new length. */
static int sort_unique(int *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_int);
    int m = 0;
    for (int i = 0; i < n; i++)
        if (m == 0 || v[m - 1] != v[i])
            v[m++] = v[i];
    return m;
}

/* Tag updates of a leaf: per target slot, fresh or the max of the
 * source slots whose enabled NFA transitions enter it. */
static DsraTag *leaf_tags(Det *d, const int *members, int n)
{
    DsraTag *tags = arena_alloc(d->arena, (size_t)(n + 1) * sizeof *tags);
    for (int k = 0; k < n; k++)
        d->slot_of[members[k]] = k;
    int *from = d->tmp + n; /* tmp has room for NFA states + edges */
    for (int k = 0; k < n; k++) {
        int nfrom = 0;
        for (int i = 0; i < d->nedges; i++) {
            const Edge *e = &d->edges[i];
            if (target(d, e->t) != members[k] || mt_eval3(e->guard, d->val) != 1)
                continue;
            if (e->slot < 0)
                tags[k].fresh = true;
            else
                from[nfrom++] = e->slot;
        }
        if (tags[k].fresh)
            continue;
        nfrom = sort_unique(from, nfrom);
        tags[k].from = arena_alloc(d->arena, (size_t)(nfrom + 1) * sizeof *tags[k].from);
        memcpy(tags[k].from, from, (size_t)nfrom * sizeof *from);
        tags[k].nfrom = nfrom;
        cells(d, nfrom + 1);
    }
    for (int k = 0; k < n; k++)
        d->slot_of[members[k]] = -1;
    return tags;
}

/* Registers written by the NFA transitions the minterm enables,
 * ascending. Transitions whose guard the minterm leaves open (their
 * target is entered anyway) are not counted: in a dsra the writes are
 * for the dumps only, since atoms read registers by age from the event
 * history and no register is ever copied. */
static void leaf_writes(Det *d, DsraTrans *tr)
{
    int n = 0;
    for (int i = 0; i < d->nedges; i++) {
        const SraTrans *t = &d->nfa->trans[d->edges[i].t];
        if (mt_eval3(d->edges[i].guard, d->val) == 1)
            n += t->nwrites;
    }
    if (n == 0)
        return;
    int *w = arena_alloc(d->arena, (size_t)n * sizeof *w);
    n = 0;
    for (int i = 0; i < d->nedges; i++) {
        const SraTrans *t = &d->nfa->trans[d->edges[i].t];
        if (mt_eval3(d->edges[i].guard, d->val) == 1)
            for (int k = 0; k < t->nwrites; k++)
                w[n++] = t->writes[k];
    }
    tr->writes = w;
    tr->nwrites = sort_unique(w, n);
    cells(d, tr->nwrites);
}

/* DsraTrans.back1 of the leaf being built. In an unrolled SRA a run in
 * state q has consumed depth[q] events (sra.h), so an enabled NFA
 * transition from q into a final state completes the match that starts
 * depth[q] events before the current one (the run the event starts: the
 * start state, depth 0), and the shallowest source is the greatest start.
 * Read before canonical_sinks merges the final states with no way on,
 * whose depths differ. Register-free patterns only: with registers the
 * records replay their bindings anyway. */
static int leaf_back(const Det *d)
{
    const Sra *nfa = d->nfa;
    if (!d->unrolled || !nfa->depth || (d->p && d->p->nregs > 0))
        return 0;
    const DsraState *st = &d->states[d->cur];
    int best = -1;
    for (int i = 0; i < d->nedges; i++) {
        const Edge *e = &d->edges[i];
        if (!nfa->final[nfa->trans[e->t].to] || mt_eval3(e->guard, d->val) != 1)
            continue;
        int q = e->slot < 0 ? nfa->start : st->members[e->slot];
        if (best < 0 || nfa->depth[q] < best)
            best = nfa->depth[q];
    }
    return best + 1;
}

static int new_node(Det *d, int atom, int hi, int lo, int trans)
{
    DsraNode *nd = arena_push(&d->scratch, &d->nodes, &d->nnodes, &d->nodes_cap, sizeof *nd);
    *nd = (DsraNode){atom, hi, lo, trans};
    return d->nnodes - 1;
}

/* Every guard is decided: one transition for this minterm, to the set of
 * targets of the enabled NFA transitions. */
static int leaf(Det *d)
{
    int n = 0;
    for (int i = 0; i < d->nedges; i++)
        if (mt_eval3(d->edges[i].guard, d->val) == 1)
            d->tmp[n++] = target(d, d->edges[i].t);
    n = sort_unique(d->tmp, n);
    int to = state_of(d, d->tmp, n);
    if (to < 0 || d->ntrans >= d->max_trans) {
        d->over = true;
        return -1;
    }
    int *members = d->tmp;
    DsraTrans *tr = arena_push(&d->scratch, &d->trans, &d->ntrans, &d->trans_cap, sizeof *tr);
    tr->from = d->cur;
    tr->to = to;
    tr->cubes = arena_alloc(d->arena, sizeof *tr->cubes);
    tr->ncubes = 1;
    int nlits = 0;
    for (int i = 0; i < d->npath; i++)
        nlits += d->path[i].tested;
    tr->cubes[0].lits = arena_alloc(d->arena, (size_t)(nlits + 1) * sizeof *tr->cubes[0].lits);
    for (int i = 0; i < d->npath; i++)
        if (d->path[i].tested)
            tr->cubes[0].lits[tr->cubes[0].nlits++] = d->path[i].lit;
    cells(d, nlits + 4);
    if (d->tagged)
        tr->tags = leaf_tags(d, members, n);
    if (d->unrolled)
        leaf_writes(d, tr);
    tr->back1 = leaf_back(d);
    return new_node(d, -1, -1, -1, d->ntrans - 1);
}

/* Whether the current path extended with (atom, neg) may be satisfiable. */
static bool extend_ok(Det *d, int atom, bool neg)
{
    for (int i = 0; i < d->npath; i++)
        d->cube[i] = d->path[i].lit;
    d->cube[d->npath] = (MtLit){atom, neg};
    return mt_satisfiable(d->mt, d->cube, d->npath + 1);
}

/* Drops the test of atom from the cubes of transitions first.. (the
 * leaves of a subtree that turned out not to test it after all). */
static void untest(Det *d, int first, int atom)
{
    for (int t = first; t < d->ntrans; t++) {
        DsraCube *c = &d->trans[t].cubes[0];
        int n = 0;
        for (int i = 0; i < c->nlits; i++)
            if (c->lits[i].atom != atom)
                c->lits[n++] = c->lits[i];
        c->nlits = n;
    }
}

/* Whether atom a goes before atom b: atoms that read no register first
 * (they are shared by the runs of every depth, so testing them first
 * decides many guards at once), then by id (the order of appearance). */
static bool before(const Det *d, int a, int b)
{
    bool ra = d->mt->atoms[a].regs, rb = d->mt->atoms[b].regs;
    return ra != rb ? rb : a < b;
}

static void consider(int atom, void *user)
{
    Det *d = user;
    if (d->pick < 0 || before(d, atom, d->pick))
        d->pick = atom;
}

/* The atom to split on next, or -1 when the path decides the leaf: the
 * set of targets, and in a tagged tdfa the tag of each target (fresh, or
 * the max of a known set of source slots). Guards that no longer matter
 * are not split on: once one NFA transition into q is enabled, whether
 * another one is changes nothing (in a tagged tdfa, unless the other one
 * comes from an older slot and no fresh start enters q). So a state whose
 * runs could each reach a final state on its own atom tests them one
 * after the other, not in all 2^n combinations. Among the atoms that
 * matter the first in one global order (before) goes first, so states
 * with the same transition function mostly get the same tree, which is
 * what minimization compares. */
static int pick_atom(Det *d)
{
    for (int i = 0; i < d->nedges; i++) {
        Edge *e = &d->edges[i];
        int q = target(d, e->t);
        e->v = (signed char)mt_eval3(e->guard, d->val);
        d->t_in[q] |= e->v == 1;
        d->t_fresh[q] |= e->v == 1 && e->slot < 0;
        d->t_unknown[q] |= e->v < 0;
    }
    d->pick = -1;
    for (int i = 0; i < d->nedges; i++) {
        const Edge *e = &d->edges[i];
        int q = target(d, e->t);
        bool open = d->t_unknown[q] && (!d->t_in[q] || (d->tagged && !d->t_fresh[q]));
        if (e->v < 0 && open)
            mt_each_unknown(e->guard, d->val, consider, d);
    }
    for (int i = 0; i < d->nedges; i++) {
        int q = target(d, d->edges[i].t);
        d->t_in[q] = d->t_fresh[q] = d->t_unknown[q] = false;
    }
    return d->pick;
}

/* The decision tree below the current path: split on pick_atom; a
 * refuted branch is left out (and its sibling does not test the atom).
 * -1: the path itself is refuted, or the budget ran out. */
static int build(Det *d)
{
    if (d->over)
        return -1;
    int pick = pick_atom(d);
    if (pick < 0)
        return leaf(d);
    bool ok[2] = {extend_ok(d, pick, true), extend_ok(d, pick, false)}; /* [value] */
    int kid[2] = {-1, -1}, first_trans = d->ntrans;
    for (int v = 1; v >= 0; v--) {
        if (!ok[v])
            continue;
        /* pick is tested only if both branches have leaves; the true
         * branch is built first, so the false one knows. */
        bool tested = v == 1 ? ok[0] : kid[1] >= 0;
        d->path[d->npath++] = (PathLit){{pick, v == 0}, tested};
        d->val[pick] = (signed char)v;
        kid[v] = build(d);
        d->val[pick] = -1;
        d->npath--;
        if (d->over)
            return -1;
    }
    if (kid[0] >= 0 && kid[1] >= 0)
        return new_node(d, pick, kid[1], kid[0], -1);
    if (kid[1] >= 0 && ok[0]) /* the false branch was refuted deeper down */
        untest(d, first_trans, pick);
    return kid[0] < 0 ? kid[1] : kid[0];
}

/* The edges of state s: its members' NFA transitions and the start's
 * (the run the next event starts), into live targets, guards not false. */
static void collect_edges(Det *d, int s)
{
    d->nedges = 0;
    const DsraState *st = &d->states[s];
    for (int k = -1; k < st->nmembers; k++) {
        int q = k < 0 ? d->nfa->start : st->members[k];
        for (int a = d->first[q]; a < d->first[q + 1]; a++) {
            int t = d->adj[a];
            if (!d->alive[d->nfa->trans[t].to])
                continue;
            const MtFormula *g = guard_of(d, t);
            if (g->kind == MF_FALSE)
                continue;
            Edge *e = arena_push(&d->scratch, &d->edges, &d->nedges, &d->edges_cap, sizeof *e);
            *e = (Edge){k, t, g, -1};
        }
    }
}

/* Grows the per-atom scratch to the atoms known now. */
static void fit_atoms(Det *d)
{
    int n = d->mt->natoms + 1;
    if (n > d->val_cap) {
        d->val_cap = 2 * n;
        d->val = arena_alloc(&d->scratch, (size_t)d->val_cap * sizeof *d->val);
        d->path = arena_alloc(&d->scratch, (size_t)d->val_cap * sizeof *d->path);
        d->cube = arena_alloc(&d->scratch, (size_t)d->val_cap * sizeof *d->cube);
    }
    memset(d->val, -1, (size_t)d->val_cap * sizeof *d->val);
}

static void expand(Det *d, int s)
{
    d->cur = s;
    collect_edges(d, s);
    fit_atoms(d);
    d->nnodes = 0;
    d->npath = 0;
    d->states[s].first = d->ntrans;
    if (build(d) < 0 && !d->over) /* every minterm refuted: nothing fires */
        leaf(d);
    if (d->over)
        return;
    DsraState *st = &d->states[s];
    st->ntrans = d->ntrans - st->first;
    /* The root goes first: nodes were appended children before parents,
     * so reversing puts every parent before its children. */
    st->nnodes = d->nnodes;
    st->nodes = arena_alloc(d->arena, (size_t)d->nnodes * sizeof *st->nodes);
    int *renum = arena_alloc(&d->scratch, (size_t)d->nnodes * sizeof *renum);
    for (int i = 0; i < d->nnodes; i++)
        renum[i] = d->nnodes - 1 - i;
    for (int i = 0; i < d->nnodes; i++) {
        DsraNode nd = d->nodes[i];
        if (nd.atom >= 0) {
            nd.hi = renum[nd.hi];
            nd.lo = renum[nd.lo];
        }
        st->nodes[renum[i]] = nd;
    }
    cells(d, 4L * d->nnodes);
    dsra_state_atoms(st, d->arena);
}

/* ---- the result -------------------------------------------------------------------------- */

static Dsra *finish(Det *d)
{
    Dsra *out = arena_alloc(d->arena, sizeof *out);
    out->kind = d->unrolled ? DSRA_DSRA : DSRA_TDFA;
    out->tagged = d->tagged;
    out->pattern = d->p;
    out->nfa = d->nfa;
    out->mt = d->mt;
    if (d->unrolled) {
        out->window_kind = WIN_EVENTS;
        out->window = d->nfa->window;
    } else if (d->p) {
        out->window_kind = d->p->hdr.window.kind;
        out->window = d->p->hdr.window.value;
    }
    out->history = d->history;
    out->nstates = d->nstates;
    out->states = arena_alloc(d->arena, (size_t)(d->nstates + 1) * sizeof *out->states);
    memcpy(out->states, d->states, (size_t)d->nstates * sizeof *out->states);
    out->ntrans = d->ntrans;
    out->trans = arena_alloc(d->arena, (size_t)(d->ntrans + 1) * sizeof *out->trans);
    memcpy(out->trans, d->trans, (size_t)d->ntrans * sizeof *out->trans);
    out->ncubes = d->ntrans;
    return out;
}

/* Inputs this construction cannot take: reported, not asserted, since
 * a strategy forced on the command line can bring them here. */
static bool input_ok(Det *d)
{
    const Sra *nfa = d->nfa;
    const char *why = NULL;
    for (int t = 0; t < nfa->ntrans && !why; t++)
        if (nfa->trans[t].eps)
            why = "its automaton has epsilon transitions";
    if (!why && !d->unrolled && ((d->p && d->p->nregs > 0) || nfa->nregs > 0))
        why = "the tdfa strategy needs a register-free pattern";
    if (!why && d->unrolled && nfa->window < 1)
        why = "the unrolled automaton has no window";
    if (!why)
        return true;
    diag_error(d->diag, d->p ? d->p->loc : (Loc){0, 0}, "pattern '%s': cannot determinize: %s",
               d->p ? d->p->name : "?", why);
    return false;
}

Dsra *dsra_determinize(const Sra *nfa, int max_states, Arena *arena, Diag *diag)
{
    Det d = {.nfa = nfa, .p = nfa->pattern, .arena = arena, .diag = diag};
    d.unrolled = nfa->depth != NULL;
    d.tagged = !d.unrolled && d.p && d.p->hdr.window.kind != WIN_NONE;
    d.max_states = max_states > 0 ? max_states : 1;
    d.max_trans = dsra_trans_budget(max_states);
    d.max_cells = 8 * d.max_trans;
    if (!input_ok(&d))
        return NULL;
    arena_init(&d.scratch);
    d.mt = arena_alloc(arena, sizeof *d.mt);
    mt_init(d.mt, arena, d.p, d.p ? d.p->nregs : 0);
    intern_init(&d.subsets, &d.scratch);
    index_nfa(&d);
    mark_alive(&d);
    canonical_sinks(&d);
    d.guards = arena_alloc(&d.scratch, (size_t)(nfa->ntrans + 1) * sizeof *d.guards);
    d.tmp = arena_alloc(&d.scratch, (size_t)(nfa->nstates + 2 * nfa->ntrans + 2) * sizeof *d.tmp);
    d.slot_of = arena_alloc(&d.scratch, (size_t)(nfa->nstates + 1) * sizeof *d.slot_of);
    memset(d.slot_of, -1, (size_t)(nfa->nstates + 1) * sizeof *d.slot_of);
    d.t_in = arena_alloc(&d.scratch, (size_t)(nfa->nstates + 1) * sizeof *d.t_in);
    d.t_fresh = arena_alloc(&d.scratch, (size_t)(nfa->nstates + 1) * sizeof *d.t_fresh);
    d.t_unknown = arena_alloc(&d.scratch, (size_t)(nfa->nstates + 1) * sizeof *d.t_unknown);
    state_of(&d, NULL, 0); /* the start: no runs yet */
    for (int s = 0; s < d.nstates && !d.over; s++)
        expand(&d, s);
    Dsra *out = NULL;
    if (d.over)
        report_budget(&d);
    else
        out = finish(&d);
    arena_free(&d.scratch);
    return out;
}
