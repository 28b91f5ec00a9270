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

Runs *runs_new(const Sra *nfa, int capacity, Arena *arena)
{
    Runs *r = arena_alloc(arena, sizeof *r);
    const AstPattern *p = nfa->pattern;
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
