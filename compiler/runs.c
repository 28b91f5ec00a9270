/* runs.c: the runs strategy's IR (epsilon-free SRA + run layout), its text
 * dump, and a simulator with the bounded run array generated code uses. */
#include "runs.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sra_build.h"

/* Marks in reads the register attributes expression e reads. */
static void mark_reads(const Runs *r, const AstExpr *e, const int *regmap)
{
    if (!e)
        return;
    if (e->kind == EX_REGATTR && e->reg >= 0 && e->attr) {
        int slot = regmap ? regmap[e->reg] : e->reg;
        if (slot >= 0 && slot < r->nregs)
            r->reads[(size_t)slot * (size_t)r->nattrs + (size_t)e->attr->index] = true;
    }
    mark_reads(r, e->lhs, regmap);
    mark_reads(r, e->rhs, regmap);
    for (int i = 0; i < e->nargs; i++)
        mark_reads(r, e->args[i], regmap);
}

/* Whether e reads a register (statically empty or not). */
static bool expr_reads_reg(const AstExpr *e)
{
    if (!e)
        return false;
    if (e->kind == EX_REGATTR || expr_reads_reg(e->lhs) || expr_reads_reg(e->rhs))
        return true;
    for (int i = 0; i < e->nargs; i++)
        if (expr_reads_reg(e->args[i]))
            return true;
    return false;
}

bool runs_direct_fits(const Sra *nfa)
{
    int ntrans = 0;
    for (int t = 0; t < nfa->ntrans; t++) {
        const SraTrans *tr = &nfa->trans[t];
        ntrans += !tr->eps;
        for (int k = 0; k < tr->nlits; k++)
            if (expr_reads_reg(tr->lits[k].cond))
                return false;
    }
    return nfa->nstates <= RUNS_DIRECT_MAX_STATES && ntrans <= RUNS_DIRECT_MAX_TRANS;
}

/* ---- equivalent states merged ------------------------------------------------------------ */

/* The largest automaton whose equivalent states are merged: each round
 * sorts its states, and a chain of n states takes n rounds (`x:A _{3500}
 * [v > x.v]` took 4 s at 4,096; 512 states take 0.1 s at worst). */
enum { RUNS_MERGE_MAX_STATES = 512 };

/* Orders transitions by label: guard literals (the same condition, sign
 * and register map, in order) and the registers written. Equal labels are
 * the same guard and writes as written, all the merge relies on. */
static int label_cmp(const SraTrans *a, const SraTrans *b)
{
    if (a->nlits != b->nlits || a->nwrites != b->nwrites)
        return a->nlits != b->nlits ? (a->nlits < b->nlits ? -1 : 1) : (a->nwrites < b->nwrites ? -1 : 1);
    for (int k = 0; k < a->nlits; k++) {
        const SraLit *x = &a->lits[k], *y = &b->lits[k];
        if (x->cond != y->cond)
            return (uintptr_t)x->cond < (uintptr_t)y->cond ? -1 : 1;
        if (x->neg != y->neg)
            return x->neg < y->neg ? -1 : 1;
        if (x->regmap != y->regmap)
            return (uintptr_t)x->regmap < (uintptr_t)y->regmap ? -1 : 1;
    }
    for (int k = 0; k < a->nwrites; k++)
        if (a->writes[k] != b->writes[k])
            return a->writes[k] < b->writes[k] ? -1 : 1;
    return 0;
}

/* qsort has no context argument: what its comparisons read. */
static struct {
    const Sra     *nfa;
    const int64_t *keys;   /* each state's key list, from off[q], len[q] entries */
    const long    *off, *len;
} merge_ctx;

static int trans_by_label(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    int c = label_cmp(&merge_ctx.nfa->trans[x], &merge_ctx.nfa->trans[y]);
    return c ? c : (x > y) - (x < y);
}

static int key_cmp(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Whether states x and y have equal key lists. */
static int keys_cmp(int x, int y)
{
    long lx = merge_ctx.len[x], ly = merge_ctx.len[y];
    const int64_t *kx = merge_ctx.keys + merge_ctx.off[x], *ky = merge_ctx.keys + merge_ctx.off[y];
    for (long k = 0; k < lx && k < ly; k++)
        if (kx[k] != ky[k])
            return kx[k] < ky[k] ? -1 : 1;
    return (lx > ly) - (lx < ly);
}

static int state_by_keys(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b, c = keys_cmp(x, y);
    return c ? c : (x > y) - (x < y);
}

/* One refinement round: each state's key list is its class, then the
 * distinct (label, class of the target) of its transitions, sorted; the
 * new classes are the distinct lists. Their number. */
static int merge_round(const Sra *nfa, const int *label, const int *first, const int *adj, int *cls,
                       int64_t *keys, long *off, long *len, int *order)
{
    int n = nfa->nstates;
    long at = 0;
    for (int q = 0; q < n; q++) {
        off[q] = at;
        keys[at++] = cls[q];
        long from = at;
        for (int k = first[q]; k < first[q + 1]; k++)
            keys[at++] = (int64_t)label[adj[k]] * (n + 1) + cls[nfa->trans[adj[k]].to];
        qsort(keys + from, (size_t)(at - from), sizeof *keys, key_cmp);
        long u = from;
        for (long k = from; k < at; k++)
            if (k == from || keys[k] != keys[u - 1])
                keys[u++] = keys[k];
        at = u;
        len[q] = at - off[q];
        order[q] = q;
    }
    merge_ctx.keys = keys;
    merge_ctx.off = off;
    merge_ctx.len = len;
    qsort(order, (size_t)n, sizeof *order, state_by_keys);
    int c = -1;
    for (int i = 0; i < n; i++) {
        if (i == 0 || keys_cmp(order[i - 1], order[i]) != 0)
            c++;
        cls[order[i]] = c;   /* the lists are read no more this round: the old class is in them */
    }
    return c + 1;
}

/* The automaton with its equivalent states merged: two states with the
 * same finality whose transitions have the same labels into equivalent
 * states accept the same continuations from the same registers (guards
 * and writes are the same expressions), so a run in one has the future
 * of a run in the other, and their runs merge as runs of one state do
 * (the later start wins; rs_back's proof holds for the merged automaton,
 * whose runs accept the same matches from the same starts). Fewer states
 * is fewer runs to step: `x:A B C` under stam has its "after A" and "A,
 * then anything" states equal, B1's dense step visits 3 states, not 5.
 * Coarsest by refinement from finality (Moore); nfa itself when nothing
 * merges, or it is over RUNS_MERGE_MAX_STATES, or has epsilons. */
const Sra *runs_merge_states(const Sra *nfa, Arena *arena)
{
    int n = nfa->nstates, T = nfa->ntrans;
    if (n < 2 || n > RUNS_MERGE_MAX_STATES || nfa->depth)
        return nfa;
    for (int t = 0; t < T; t++)
        if (nfa->trans[t].eps)
            return nfa;
    int *label = malloc(sizeof(int) * ((size_t)T + 1)), *byl = malloc(sizeof(int) * ((size_t)T + 1));
    int *first = calloc((size_t)n + 1, sizeof(int)), *adj = malloc(sizeof(int) * ((size_t)T + 1));
    int *cls = malloc(sizeof(int) * (size_t)n), *order = malloc(sizeof(int) * (size_t)n);
    int64_t *keys = malloc(sizeof(int64_t) * ((size_t)T + (size_t)n));
    long *off = malloc(sizeof(long) * (size_t)n), *len = malloc(sizeof(long) * (size_t)n);
    if (!label || !byl || !first || !adj || !cls || !order || !keys || !off || !len)
        abort();
    merge_ctx.nfa = nfa;
    for (int t = 0; t < T; t++)
        byl[t] = t;
    qsort(byl, (size_t)T, sizeof *byl, trans_by_label);
    for (int i = 0, id = 0; i < T; i++) {
        id += i > 0 && label_cmp(&nfa->trans[byl[i - 1]], &nfa->trans[byl[i]]) != 0;
        label[byl[i]] = id;
    }
    for (int t = 0; t < T; t++)   /* transitions by source */
        first[nfa->trans[t].from + 1]++;
    for (int q = 0; q < n; q++)
        first[q + 1] += first[q];
    memcpy(order, first, sizeof(int) * (size_t)n);   /* each source's next slot */
    for (int t = 0; t < T; t++)
        adj[order[nfa->trans[t].from]++] = t;
    bool fin = false, non = false;
    for (int q = 0; q < n; q++) {
        cls[q] = nfa->final[q];
        fin |= nfa->final[q];
        non |= !nfa->final[q];
    }
    int ncls = fin + non;
    for (;;) {   /* each round refines the last (a key list begins with the class): stable when as many */
        int now = merge_round(nfa, label, first, adj, cls, keys, off, len, order);
        if (now == ncls)
            break;
        ncls = now;
    }
    const Sra *out = nfa;
    if (ncls < n) {
        int *num = order;   /* classes numbered in order of their first state */
        for (int c = 0; c < ncls; c++)
            num[c] = -1;
        Sra *m = sra_new(arena, nfa->pattern, nfa->nregs);
        for (int q = 0; q < n; q++)
            if (num[cls[q]] < 0) {
                num[cls[q]] = sra_add_state(m, arena);
                m->final[num[cls[q]]] = nfa->final[q];
            }
        for (int q = 0, next = 0; q < n; q++) {   /* a class's transitions: its first state's, each key once */
            if (num[cls[q]] != next)
                continue;
            next++;
            for (int k = first[q]; k < first[q + 1]; k++) {
                const SraTrans *t = &nfa->trans[adj[k]];
                bool dup = false;
                for (int j = first[q]; j < k && !dup; j++)
                    dup = label[adj[j]] == label[adj[k]] && cls[nfa->trans[adj[j]].to] == cls[t->to];
                if (dup)
                    continue;
                SraTrans *c = sra_add_trans(m, arena, num[cls[q]], num[cls[t->to]]);
                c->lits = t->lits;
                c->nlits = t->nlits;
                c->writes = t->writes;
                c->nwrites = t->nwrites;
                c->position = t->position;
            }
        }
        m->start = num[cls[nfa->start]];
        out = m;
    }
    free(label);
    free(byl);
    free(first);
    free(adj);
    free(cls);
    free(order);
    free(keys);
    free(off);
    free(len);
    return out;
}

Runs *runs_new(const Sra *nfa, int capacity, Arena *arena)
{
    Runs *r = arena_alloc(arena, sizeof *r);
    const AstPattern *p = nfa->pattern;
    nfa = runs_merge_states(nfa, arena);
    r->nfa = nfa;
    r->pattern = p;
    r->capacity = capacity < 1 ? 1 : capacity;
    r->nregs = nfa->nregs;
    r->window_kind = p ? p->hdr.window.kind : WIN_NONE;
    r->window = r->window_kind == WIN_NONE ? 0 : p->hdr.window.value;
    r->ts_attr = p && p->schema ? p->schema->ts_attr : -1;
    r->part_attr = p && p->partition_attr ? p->partition_attr->index : -1;
    r->nattrs = p && p->schema ? p->schema->nattrs : 0;
    r->reads = arena_alloc(arena, (size_t)r->nregs * (size_t)r->nattrs + 1);
    memset(r->reads, 0, (size_t)r->nregs * (size_t)r->nattrs + 1);
    r->dead = arena_alloc(arena, (size_t)nfa->nstates + 1);
    for (int q = 0; q < nfa->nstates; q++)
        r->dead[q] = true;
    for (int t = 0; t < nfa->ntrans; t++) {
        const SraTrans *tr = &nfa->trans[t];
        if (!tr->eps)
            r->dead[tr->from] = false;
        for (int k = 0; k < tr->nlits; k++)
            mark_reads(r, tr->lits[k].cond, tr->lits[k].regmap);
    }
    return r;
}

void runs_dump_txt(const Runs *runs, FILE *out)
{
    const AstPattern *p = runs->pattern;
    char win[96] = "without a window";
    if (p)
        sra_window_text(p, win, sizeof win);
    fprintf(out, "runs %s: capacity %d, %d register%s per run, %s", p ? p->name : "?",
            runs->capacity, runs->nregs, runs->nregs == 1 ? "" : "s", win);
    if (p && p->partition_attr)
        ast_put_partition(out, p->partition_attrs, p->npartition);
    fputc('\n', out);
    sra_dump_txt(runs->nfa, out);
}

/* ---- simulation ------------------------------------------------------------------------ */

/* One run: where it is, what its registers hold (event numbers into the
 * stream, -1 empty) and the event it started at (its local position in
 * the partition, and that event's number). */
typedef struct Run {
    int  state;
    int  start_pos, start_ev;
    int *regs;
} Run;

/* A run array of fixed capacity and the storage for its registers. */
typedef struct RunSet {
    Run *runs;
    int  n;
    int *regs;   /* capacity * nregs */
} RunSet;

typedef struct Sim {
    const Runs        *runs;
    const Sra         *nfa;
    const Stream      *s;
    const ExternTable *ext;
    int               *first, *adj;  /* transitions by source state */
    const Value      **regvals;      /* [nregs]: EvalCtx view of one run */
    int               *scratch_regs; /* [nregs]: registers after a write */
    RunsStats         *stats;
} Sim;

static const Value *event_values(const Sim *sim, int ev)
{
    return sim->s->values + (size_t)ev * (size_t)sim->s->nattrs;
}

/* Equal read contents, not equal event numbers: two events with the
 * same values of the attributes guards read from a register behave the
 * same in every later guard, so their runs can merge (bitwise equal
 * values are equal for every condition). A register no guard reads
 * never matters. */
static bool same_regs(const Sim *sim, const int *a, const int *b)
{
    const Runs *ru = sim->runs;
    for (int r = 0; r < ru->nregs; r++) {
        const bool *rd = ru->reads + (size_t)r * (size_t)ru->nattrs;
        bool read = false;
        for (int k = 0; k < ru->nattrs; k++)
            read |= rd[k];
        if (a[r] == b[r] || !read)
            continue;
        if (a[r] < 0 || b[r] < 0)
            return false;
        const Value *va = event_values(sim, a[r]), *vb = event_values(sim, b[r]);
        for (int k = 0; k < ru->nattrs; k++)
            if (rd[k] && memcmp(&va[k], &vb[k], sizeof(Value)) != 0)
                return false;
    }
    return true;
}

/* Adds a run to set, merging with an equal one (the later start wins: it
 * leaves the window last, so it accepts everything the other would).
 * When the set is full the new run is dropped and counted. */
static void add_run(Sim *sim, RunSet *set, int state, const int *regs, int start_pos, int start_ev)
{
    int R = sim->runs->nregs;
    for (int i = 0; i < set->n; i++) {
        Run *r = &set->runs[i];
        if (r->state == state && same_regs(sim, r->regs, regs)) {
            if (start_pos > r->start_pos) {
                r->start_pos = start_pos;
                r->start_ev = start_ev;
            }
            return;
        }
    }
    if (set->n == sim->runs->capacity) {
        sim->stats->overflow++;
        return;
    }
    Run *r = &set->runs[set->n];
    r->state = state;
    r->start_pos = start_pos;
    r->start_ev = start_ev;
    r->regs = set->regs + (size_t)set->n * (size_t)R;
    if (R)
        memcpy(r->regs, regs, (size_t)R * sizeof *regs);
    set->n++;
    if (set->n > sim->stats->peak)
        sim->stats->peak = set->n;
}

/* Whether a run that started at (start_pos, start_ev) may still take the
 * event at (pos, ev): the window of docs/language.md 3.3 from start to it. */
static bool in_window(const Sim *sim, int start_pos, int start_ev, int pos, int ev)
{
    const Runs *ru = sim->runs;
    switch (ru->window_kind) {
    case WIN_EVENTS:
        return (int64_t)pos - start_pos + 1 <= ru->window;
    case WIN_TIME:
        return event_values(sim, ev)[ru->ts_attr].i - event_values(sim, start_ev)[ru->ts_attr].i <=
               ru->window;
    case WIN_NONE:
        break;
    }
    return true;
}

static bool guard_holds(const Sim *sim, const SraTrans *t, const int *regs, const Value *ev)
{
    for (int r = 0; r < sim->runs->nregs; r++)
        sim->regvals[r] = regs[r] < 0 ? NULL : event_values(sim, regs[r]);
    EvalCtx ctx = {.event = ev, .regs = sim->regvals, .externs = sim->ext};
    for (int i = 0; i < t->nlits; i++) {
        ctx.regmap = t->lits[i].regmap;
        bool holds = t->lits[i].cond ? eval_cond(t->lits[i].cond, &ctx) : true;
        if (holds == t->lits[i].neg)
            return false;
    }
    return true;
}

/* Moves one run over event ev into next; true if it reached a final
 * state (a detection, even if the array had no room for the run). */
static bool step_run(Sim *sim, RunSet *next, int state, const int *regs, int start_pos,
                     int start_ev, int ev)
{
    const Value *vals = event_values(sim, ev);
    bool hit = false;
    for (int a = sim->first[state]; a < sim->first[state + 1]; a++) {
        const SraTrans *t = &sim->nfa->trans[sim->adj[a]];
        if (t->eps || !guard_holds(sim, t, regs, vals))
            continue;
        int *nr = sim->scratch_regs;
        if (sim->runs->nregs)
            memcpy(nr, regs, (size_t)sim->runs->nregs * sizeof *nr);
        for (int k = 0; k < t->nwrites; k++)
            nr[t->writes[k]] = ev;
        hit |= sim->nfa->final[t->to];
        if (!sim->runs->dead[t->to])   /* a dead run has no future: not kept */
            add_run(sim, next, t->to, nr, start_pos, start_ev);
    }
    return hit;
}

static RunSet runset_new(const Runs *ru)
{
    RunSet set = {0};
    set.runs = calloc((size_t)ru->capacity, sizeof *set.runs);
    set.regs = calloc((size_t)ru->capacity * (size_t)ru->nregs + 1, sizeof *set.regs);
    if (!set.runs || !set.regs)
        abort();
    return set;
}

/* One partition's substream: events evs[0..n) in order. Existing runs
 * advance first and the run starting at the event last, so when the
 * array is full it is the newest run that is dropped. */
static void simulate_part(Sim *sim, const int *evs, int n, bool *det)
{
    const Runs *ru = sim->runs;
    RunSet cur = runset_new(ru), next = runset_new(ru);
    int *empty = calloc((size_t)ru->nregs + 1, sizeof *empty);
    if (!empty)
        abort();
    for (int r = 0; r < ru->nregs; r++)
        empty[r] = -1;
    for (int pos = 0; pos < n; pos++) {
        int ev = evs[pos];
        bool hit = false;
        next.n = 0;
        for (int i = 0; i < cur.n; i++) {
            const Run *r = &cur.runs[i];
            if (in_window(sim, r->start_pos, r->start_ev, pos, ev))
                hit |= step_run(sim, &next, r->state, r->regs, r->start_pos, r->start_ev, ev);
        }
        hit |= step_run(sim, &next, sim->nfa->start, empty, pos, ev, ev);
        det[ev] = det[ev] || hit;
        RunSet t = cur;
        cur = next;
        next = t;
    }
    free(cur.runs);
    free(cur.regs);
    free(next.runs);
    free(next.regs);
    free(empty);
}


/* Splits the stream into partitions (each event once, in first-seen key
 * order) and simulates each on its own. */
static void simulate_parts(Sim *sim, bool *det)
{
    const Stream *s = sim->s;
    int *evs = malloc(((size_t)s->n + 1) * sizeof *evs);
    bool *done = calloc((size_t)s->n + 1, sizeof *done);
    if (!evs || !done)
        abort();
    for (int k = 0; k < s->n; k++) {
        if (done[k])
            continue;
        int n = 0;
        if (sim->runs->part_attr < 0) {
            for (int j = 0; j < s->n; j++)
                evs[n++] = j;
        } else {
            const AstPattern *p = sim->runs->pattern;
            for (int j = k; j < s->n; j++)
                if (!done[j] && eval_same_key(p->partition_attrs, p->npartition, s, j, k))
                    evs[n++] = j;
        }
        for (int i = 0; i < n; i++)
            done[evs[i]] = true;
        simulate_part(sim, evs, n, det);
    }
    free(evs);
    free(done);
}

void runs_simulate(const Runs *runs, const Stream *s, const ExternTable *ext, bool *det,
                   RunsStats *stats)
{
    RunsStats local;
    Sim sim = {.runs = runs, .nfa = runs->nfa, .s = s, .ext = ext, .stats = stats ? stats : &local};
    *sim.stats = (RunsStats){0, 0};
    memset(det, 0, (size_t)s->n * sizeof *det);
    const Sra *nfa = runs->nfa;
    sim.first = calloc((size_t)nfa->nstates + 2, sizeof *sim.first);
    sim.adj = calloc((size_t)nfa->ntrans + 1, sizeof *sim.adj);
    sim.regvals = calloc((size_t)runs->nregs + 1, sizeof *sim.regvals);
    sim.scratch_regs = calloc((size_t)runs->nregs + 1, sizeof *sim.scratch_regs);
    if (!sim.first || !sim.adj || !sim.regvals || !sim.scratch_regs)
        abort();
    for (int t = 0; t < nfa->ntrans; t++)
        sim.first[nfa->trans[t].from + 2]++;
    for (int q = 0; q < nfa->nstates; q++)
        sim.first[q + 2] += sim.first[q + 1];
    for (int t = 0; t < nfa->ntrans; t++)
        sim.adj[sim.first[nfa->trans[t].from + 1]++] = t;
    simulate_parts(&sim, det);
    free(sim.first);
    free(sim.adj);
    free(sim.regvals);
    free(sim.scratch_regs);
}
