/* sra_sim.c: runs an SRA of any stage (with or without epsilons) over a
 * finite stream and marks the detections of docs/language.md 3.3. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sra_build.h"

static void *xrealloc(void *p, size_t size)
{
    p = realloc(p, size ? size : 1);
    if (!p) {
        fputs("sremc: out of memory\n", stderr);
        abort();
    }
    return p;
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) {
        fputs("sremc: out of memory\n", stderr);
        abort();
    }
    return p;
}

/* ---- run sets: runs keyed by (state, registers) --------------------------------------- */

/* A run is RUN_REGS + nregs ints: its state, the index of the event it
 * started at, that event's position in the run's partition, and per
 * register the index of the stored event (-1: empty). */
enum { RUN_STATE, RUN_START, RUN_POS, RUN_REGS };

typedef struct RunSet {
    int   *data;
    int    n, cap;     /* runs */
    int   *slots;      /* run index + 1, 0 empty; nslots a power of two */
    size_t nslots;
} RunSet;

/* What the runs of one SRA share while simulating one stream. */
typedef struct Sim {
    const Sra         *sra;
    const Stream      *s;
    const ExternTable *ext;
    int                stride;        /* ints per run */
    int               *ev_first, *ev_idx, *eps_first, *eps_idx;   /* rows */
    WindowKind         win;
    int64_t            win_value;
    int                ts_attr;
    bool               monotone;      /* timestamps never decrease */
    const Value      **regv;          /* scratch for EvalCtx.regs */
    int               *tmp, *succ;    /* scratch runs */
    int               *work;          /* closure worklist */
    int                nwork, work_cap;
} Sim;

static uint64_t run_hash(const int *run, int stride)
{
    uint64_t h = 1469598103934665603u ^ (uint32_t)run[RUN_STATE];
    for (int i = RUN_REGS; i < stride; i++)
        h = (h ^ (uint32_t)run[i]) * 1099511628211u;
    return (h * 1099511628211u) ^ (h >> 31);
}

static bool run_same(const int *a, const int *b, int stride)
{
    return a[RUN_STATE] == b[RUN_STATE] &&
           memcmp(a + RUN_REGS, b + RUN_REGS, (size_t)(stride - RUN_REGS) * sizeof *a) == 0;
}

static void set_clear(RunSet *rs)
{
    rs->n = 0;
    if (rs->slots)
        memset(rs->slots, 0, rs->nslots * sizeof *rs->slots);
}

static void set_free(RunSet *rs)
{
    free(rs->data);
    free(rs->slots);
}

static void set_rehash(RunSet *rs, int stride)
{
    rs->nslots = rs->nslots ? rs->nslots * 2 : 64;
    rs->slots = xrealloc(rs->slots, rs->nslots * sizeof *rs->slots);
    memset(rs->slots, 0, rs->nslots * sizeof *rs->slots);
    for (int r = 0; r < rs->n; r++) {
        size_t i = run_hash(rs->data + (size_t)r * stride, stride) & (rs->nslots - 1);
        while (rs->slots[i])
            i = (i + 1) & (rs->nslots - 1);
        rs->slots[i] = r + 1;
    }
}

/* True if a start at event a is at least as good as one at event b:
 * every window that holds from b then holds from a. */
static bool start_better(const Sim *sim, int a, int b)
{
    if (sim->win == WIN_TIME && sim->ts_attr >= 0) {
        int64_t ta = sim->s->values[(size_t)a * sim->s->nattrs + sim->ts_attr].i;
        int64_t tb = sim->s->values[(size_t)b * sim->s->nattrs + sim->ts_attr].i;
        if (ta != tb)
            return ta > tb;
    }
    return a >= b;
}

/* Adds run (stride ints), or raises the start of the equal run already in
 * the set. Returns the index of a run that is new or got a better start,
 * -1 if nothing changed.
 *
 * Merging is exact: runs with equal state and registers read the same
 * registers and take the same transitions on every future event, so they
 * reach final states at the same indices; only the window check, which
 * depends on the start alone, can tell them apart. A window that holds
 * from an earlier start holds from a later one (count positions grow; for
 * time windows "later" means a larger start timestamp), so the run with
 * the latest start detects whenever any of the merged runs would. */
static int set_add(Sim *sim, RunSet *rs, const int *run)
{
    int stride = sim->stride;
    if ((size_t)rs->n * 2 >= rs->nslots)
        set_rehash(rs, stride);
    size_t i = run_hash(run, stride) & (rs->nslots - 1);
    while (rs->slots[i]) {
        int r = rs->slots[i] - 1;
        int *old = rs->data + (size_t)r * stride;
        if (run_same(old, run, stride)) {
            if (old[RUN_START] == run[RUN_START] || !start_better(sim, run[RUN_START], old[RUN_START]))
                return -1;
            old[RUN_START] = run[RUN_START];
            old[RUN_POS] = run[RUN_POS];
            return r;
        }
        i = (i + 1) & (rs->nslots - 1);
    }
    if (rs->n == rs->cap) {
        rs->cap = rs->cap ? rs->cap * 2 : 16;
        rs->data = xrealloc(rs->data, (size_t)rs->cap * stride * sizeof *rs->data);
    }
    memcpy(rs->data + (size_t)rs->n * stride, run, (size_t)stride * sizeof *run);
    rs->slots[i] = ++rs->n;
    return rs->n - 1;
}

/* ---- windows, guards, epsilon closure ------------------------------------------------------ */

/* Does the window hold for a run that started at event start (partition
 * position pos0) and has just taken event k (position pos)? */
static bool in_window(const Sim *sim, int start, int pos0, int k, int pos)
{
    if (sim->win == WIN_EVENTS)
        return (int64_t)pos - pos0 + 1 <= sim->win_value;
    if (sim->win == WIN_TIME && sim->ts_attr >= 0) {
        int64_t tk = sim->s->values[(size_t)k * sim->s->nattrs + sim->ts_attr].i;
        int64_t tj = sim->s->values[(size_t)start * sim->s->nattrs + sim->ts_attr].i;
        if (tk <= tj)
            return true;
        return (uint64_t)tk - (uint64_t)tj <= (uint64_t)sim->win_value; /* exact, no overflow */
    }
    return true;
}

/* A run out of its window now stays out (positions and, on a monotone
 * stream, timestamps only grow): it can be dropped. */
static bool droppable(const Sim *sim, const int *run, int k, int pos)
{
    if (sim->win == WIN_TIME && !sim->monotone)
        return false;
    return !in_window(sim, run[RUN_START], run[RUN_POS], k, pos);
}

/* Points sim->regv at the events run's registers hold (NULL: empty). */
static void load_regs(Sim *sim, const int *run)
{
    const Stream *s = sim->s;
    for (int r = 0; r < sim->sra->nregs; r++) {
        int e = run[RUN_REGS + r];
        sim->regv[r] = e < 0 ? NULL : s->values + (size_t)e * s->nattrs;
    }
}

/* Each literal evaluated on event k with the registers of load_regs. */
static bool guard_holds(Sim *sim, const SraTrans *t, int k)
{
    const Stream *s = sim->s;
    EvalCtx ctx = {s->values + (size_t)k * s->nattrs, sim->regv, NULL, sim->ext};
    for (int i = 0; i < t->nlits; i++) {
        const SraLit *l = &t->lits[i];
        ctx.regmap = l->regmap;
        bool v = l->cond ? eval_cond(l->cond, &ctx) : true;
        if (v == l->neg)
            return false;
    }
    return true;
}

static void work_push(Sim *sim, int r)
{
    if (sim->nwork == sim->work_cap) {
        sim->work_cap = sim->work_cap ? sim->work_cap * 2 : 64;
        sim->work = xrealloc(sim->work, (size_t)sim->work_cap * sizeof *sim->work);
    }
    sim->work[sim->nwork++] = r;
}

/* Closes rs under epsilon transitions, starting from the runs on the
 * worklist (copies keep registers and start). */
static void close_eps(Sim *sim, RunSet *rs)
{
    while (sim->nwork > 0) {
        int r = sim->work[--sim->nwork];
        memcpy(sim->tmp, rs->data + (size_t)r * sim->stride, (size_t)sim->stride * sizeof *sim->tmp);
        int q = sim->tmp[RUN_STATE];
        for (int i = sim->eps_first[q]; i < sim->eps_first[q + 1]; i++) {
            sim->tmp[RUN_STATE] = sim->sra->trans[sim->eps_idx[i]].to;
            int added = set_add(sim, rs, sim->tmp);
            if (added >= 0)
                work_push(sim, added);
        }
    }
}

/* ---- one event of one partition ---------------------------------------------------------------- */

/* Adds the fresh run of event k to cur, advances every run of cur over
 * event k into next, and says whether a run of next is final in window. */
static bool step(Sim *sim, RunSet *cur, RunSet *next, int k, int pos)
{
    const Sra *sra = sim->sra;
    int *fresh = sim->tmp;
    fresh[RUN_STATE] = sra->start;
    fresh[RUN_START] = k;
    fresh[RUN_POS] = pos;
    for (int i = RUN_REGS; i < sim->stride; i++)
        fresh[i] = -1;
    int added = set_add(sim, cur, fresh);
    if (added >= 0) {
        work_push(sim, added);
        close_eps(sim, cur);
    }
    int *succ = sim->succ;
    for (int r = 0; r < cur->n; r++) {
        const int *run = cur->data + (size_t)r * sim->stride;
        if (droppable(sim, run, k, pos))
            continue;
        int q = run[RUN_STATE];
        load_regs(sim, run);
        for (int i = sim->ev_first[q]; i < sim->ev_first[q + 1]; i++) {
            const SraTrans *t = &sra->trans[sim->ev_idx[i]];
            if (!guard_holds(sim, t, k))
                continue;
            memcpy(succ, run, (size_t)sim->stride * sizeof *succ);
            succ[RUN_STATE] = t->to;
            for (int w = 0; w < t->nwrites; w++)
                succ[RUN_REGS + t->writes[w]] = k;
            int a = set_add(sim, next, succ);
            if (a >= 0)
                work_push(sim, a);
        }
    }
    close_eps(sim, next);
    for (int r = 0; r < next->n; r++) {
        const int *run = next->data + (size_t)r * sim->stride;
        if (sra->final[run[RUN_STATE]] && in_window(sim, run[RUN_START], run[RUN_POS], k, pos))
            return true;
    }
    return false;
}

/* ---- partitions ---------------------------------------------------------------------------------- */

typedef struct Part {
    int     first;    /* its first event: the key's representative */
    uint64_t hash;    /* its key's hash */
    int     pos;      /* events of this partition so far */
    RunSet  runs;     /* epsilon-closed after each event */
} Part;

typedef struct Parts {
    const AstAttr *const *keys;   /* the key attributes, nkeys of them (0: one partition) */
    int    nkeys;
    const Stream *s;
    Part  *items;
    int    n, cap;
    int   *slots;     /* index + 1 */
    size_t nslots;
} Parts;

static void parts_rehash(Parts *ps)
{
    ps->nslots = ps->nslots ? ps->nslots * 2 : 16;
    ps->slots = xrealloc(ps->slots, ps->nslots * sizeof *ps->slots);
    memset(ps->slots, 0, ps->nslots * sizeof *ps->slots);
    for (int p = 0; p < ps->n; p++) {
        size_t i = ps->items[p].hash & (ps->nslots - 1);
        while (ps->slots[i])
            i = (i + 1) & (ps->nslots - 1);
        ps->slots[i] = p + 1;
    }
}

/* The partition of event k. */
static Part *part_of(Parts *ps, int k)
{
    if ((size_t)ps->n * 2 >= ps->nslots)
        parts_rehash(ps);
    uint64_t hash = eval_key_hash(ps->keys, ps->nkeys, ps->s, k);
    size_t i = hash & (ps->nslots - 1);
    while (ps->slots[i]) {
        Part *p = &ps->items[ps->slots[i] - 1];
        if (p->hash == hash && eval_same_key(ps->keys, ps->nkeys, ps->s, p->first, k))
            return p;
        i = (i + 1) & (ps->nslots - 1);
    }
    if (ps->n == ps->cap) {
        ps->cap = ps->cap ? ps->cap * 2 : 8;
        ps->items = xrealloc(ps->items, (size_t)ps->cap * sizeof *ps->items);
    }
    Part *p = &ps->items[ps->n];
    memset(p, 0, sizeof *p);
    p->first = k;
    p->hash = hash;
    ps->slots[i] = ++ps->n;
    return p;
}

/* ---- the simulator --------------------------------------------------------------------------------- */

/* Compressed rows of the event (non-epsilon) and epsilon transitions. */
static void sim_rows(Sim *sim)
{
    const Sra *sra = sim->sra;
    int n = sra->nstates, m = sra->ntrans;
    sim->ev_first = xcalloc((size_t)n + 1, sizeof(int));
    sim->eps_first = xcalloc((size_t)n + 1, sizeof(int));
    sim->ev_idx = xcalloc((size_t)m, sizeof(int));
    sim->eps_idx = xcalloc((size_t)m, sizeof(int));
    int *efill = xcalloc((size_t)n, sizeof(int)), *vfill = xcalloc((size_t)n, sizeof(int));
    for (int i = 0; i < m; i++)
        (sra->trans[i].eps ? sim->eps_first : sim->ev_first)[sra->trans[i].from + 1]++;
    for (int s = 0; s < n; s++) {
        sim->ev_first[s + 1] += sim->ev_first[s];
        sim->eps_first[s + 1] += sim->eps_first[s];
    }
    for (int i = 0; i < m; i++) {
        int f = sra->trans[i].from;
        if (sra->trans[i].eps)
            sim->eps_idx[sim->eps_first[f] + efill[f]++] = i;
        else
            sim->ev_idx[sim->ev_first[f] + vfill[f]++] = i;
    }
    free(efill);
    free(vfill);
}

static void sim_open(Sim *sim, const Sra *sra, const Stream *s, const ExternTable *ext)
{
    const AstPattern *p = sra->pattern;
    memset(sim, 0, sizeof *sim);
    sim->sra = sra;
    sim->s = s;
    sim->ext = ext;
    sim->stride = RUN_REGS + sra->nregs;
    sim->win = p ? p->hdr.window.kind : WIN_NONE;
    sim->win_value = p ? p->hdr.window.value : 0;
    sim->ts_attr = p && p->schema ? p->schema->ts_attr : -1;
    sim->monotone = true;
    for (int k = 1; sim->ts_attr >= 0 && k < s->n; k++)
        if (s->values[(size_t)k * s->nattrs + sim->ts_attr].i <
            s->values[(size_t)(k - 1) * s->nattrs + sim->ts_attr].i)
            sim->monotone = false;
    sim->regv = xrealloc(NULL, ((size_t)sra->nregs + 1) * sizeof *sim->regv);
    sim->tmp = xcalloc((size_t)sim->stride, sizeof *sim->tmp);
    sim->succ = xcalloc((size_t)sim->stride, sizeof *sim->succ);
    sim_rows(sim);
}

static void sim_close(Sim *sim)
{
    free(sim->ev_first);
    free(sim->ev_idx);
    free(sim->eps_first);
    free(sim->eps_idx);
    free(sim->regv);
    free(sim->tmp);
    free(sim->succ);
    free(sim->work);
}

void sra_simulate(const Sra *sra, const Stream *s, const ExternTable *ext, bool *det)
{
    const AstPattern *p = sra->pattern;
    Sim sim;
    sim_open(&sim, sra, s, ext);
    Parts parts = {.s = s};
    if (p && p->partition_attr) {
        parts.keys = p->partition_attrs;
        parts.nkeys = p->npartition;
    }
    RunSet next = {0};
    for (int k = 0; k < s->n; k++) {
        Part *part = part_of(&parts, k);
        part->pos++;
        set_clear(&next);
        det[k] = sra->nstates > 0 && step(&sim, &part->runs, &next, k, part->pos);
        RunSet t = part->runs;
        part->runs = next;
        next = t;
    }
    for (int i = 0; i < parts.n; i++)
        set_free(&parts.items[i].runs);
    free(parts.items);
    free(parts.slots);
    set_free(&next);
    sim_close(&sim);
}
