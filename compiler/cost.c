/* cost.c: planned patterns -> estimated table bytes, C size and cc time
 * per layout -> the layout of each plan under the file's code budget.
 *
 * Calibration (user time of cc 13 -O2 -c on `sremc emit` output, this
 * machine; tests/cost/cases.sh inputs, docs/PERFORMANCE.md):
 *   - every generated file has ~11 KB of fixed text (runtime glue), and a
 *     build (main, link) ~0.2 s of its own;
 *   - dsra trees are dear: fire at window 10, 768 states, 5,630 minterms:
 *     741 KB of C, 17.1 s (43 KB/s); samples/ships.srem (38 states, 417
 *     minterms): 78 KB, 1.15 s (68 KB/s); fire at window 4: 25 KB, 0.3 s;
 *   - tdfa trees less so: a 7-atom register-free pattern at window 4
 *     (tagged, 70 states, 1,402 minterms): 639 KB, 5.7 s (112 KB/s);
 *     80 small tagged tdfas: 773 KB, 2.0 s; A{60} B: 168 KB, 1.0 s;
 *   - trees are about 250 bytes of C a state, 130 a minterm and 30 more a
 *     minterm per start tag slot (estimates within ~40% of the emitted C:
 *     make check-cost checks they are not under half of it);
 *   - class tables: 80 tdfa patterns, 349 KB of C, 2.1 s, mostly the
 *     per-pattern conditions and drivers (~4.3 KB a pattern; that file
 *     now takes nodes with one shared walk: 0.5-0.9 s);
 *   - a runs matcher is 6-11 KB of C a pattern (80 patterns: 460 KB).
 * The budget is counted in "tree-equivalent" bytes: tree code weighs
 * COST_TREE_WEIGHT times its size (it compiles 4-10x slower a byte than
 * tables and straight-line code), all other C its size. */
#include "cost.h"

#include <inttypes.h>
#include <limits.h>
#include <string.h>

#include "codegen.h"
#include "nodes.h"
#include "runs.h"
#include "sra_build.h"

/* Coefficients of the estimates (bytes of generated C, microseconds). */
enum {
    COST_PATTERN_C   = 3000,   /* driver, state struct, comments of one pattern */
    COST_ATOM_C      = 250,    /* one atom's condition function */
    COST_STATE_C     = 250,    /* tree: a state's case and prologue */
    COST_MINTERM_C   = 130,    /* tree: one leaf and its transition */
    COST_SLOT_C      = 30,     /* tree: a start tag moved on a transition */
    COST_DATA_CHARS  = 4,      /* C text of one table byte ("255,") */
    COST_LINK_C      = 400,    /* chain: one link */
    COST_RUNS_C      = 2500,   /* runs: the run set and its step */
    COST_RUNS_ATOM_C = 150,    /* runs: one NFA transition's test */
    COST_RUNS_DIRECT_C = 1200, /* runs: the direct-coded dense step, its choice and the table step's wrapper */
    COST_RUNS_DIRECT_TRANS_C = 120, /* ... and one transition in it (B1: 1.7 KB, B4s8: 4.0 KB) */
    COST_DSRA_TREE_US = 20,    /* cc -O2 a byte of dsra tree code (registers by age) */
    COST_TDFA_TREE_US = 8,     /* a byte of tdfa tree code */
    COST_DATA_US     = 5,      /* a byte of other C */
    COST_TREE_WEIGHT = 4,      /* tree code's share of the budget a byte */
    COST_MIN_STATE_C = 200,    /* the least C a state costs as a tree */
    COST_MIN_ROW_C   = 64,     /* ... as a table row (or nodes): 16 classes of 1 byte */
};

int cost_state_cap(long max_code_kb, int npatterns)
{
    if (max_code_kb <= 0)
        return INT_MAX;
    /* every layout of every pattern weighs at least COST_PATTERN_C: what
     * the others leave is all one automaton can have (100 patterns in
     * 320 KB: ~430 states, where determinizing to 5,120 and throwing the
     * automaton away took most of sremc's time) */
    long room = max_code_kb * 1024 - (long)(npatterns > 1 ? npatterns : 1) * COST_PATTERN_C;
    /* the least a state costs in any layout: a table row, or nodes */
    long per_state = COST_MIN_ROW_C;
    long cap = room / per_state;
    return cap > INT_MAX ? INT_MAX : cap < 16 ? 16 : (int)cap;
}

/* Bytes of the narrowest unsigned type that holds 0..n-1. */
static long narrow(long n)
{
    return n <= 256 ? 1 : n <= 65536 ? 2 : 4;
}

/* The nodes layout's tables, exactly as cg_nodes.c emits them. */
long cost_nodes_bytes(const Dsra *d, Arena *arena)
{
    return (long)nodes_bytes(nodes_build(d, arena));
}

/* Start tag slots a transition moves, on average (tagged tdfa). */
static long avg_slots(const Dsra *d)
{
    long m = 0;
    for (int q = 0; q < d->nstates; q++)
        m += d->states[q].nmembers;
    return d->tagged && d->nstates ? (m + d->nstates - 1) / d->nstates : 0;
}

/* Class tables (cg_table.c), where cg_table_plan takes d: per state and
 * class the transition, per transition its target (and tag sources),
 * per state its finality. 0 where tables do not apply. */
static long table_bytes(const Plan *plan, const Dsra *d, Arena *arena)
{
    int nclasses = 0;
    if (!cg_table_classes(d, plan->pattern->schema, arena, &nclasses))
        return 0;
    return (long)d->nstates * nclasses * narrow(d->ntrans) +
           d->ntrans * (narrow(d->nstates) + (d->tagged ? 8 : 0)) + d->nstates;
}

/* The estimate of layout for an automaton d of pattern p. */
static bool estimate_dsra(const Plan *plan, const Dsra *d, Layout layout, Arena *arena, Cost *c)
{
    long fixed = COST_PATTERN_C + (long)d->mt->natoms * COST_ATOM_C;
    c->states = d->nstates;
    c->trans = d->ntrans;
    c->minterms = d->ncubes;
    switch (layout) {
    case LAYOUT_TREE: {
        long tree = (long)d->nstates * COST_STATE_C + (long)d->ncubes * (COST_MINTERM_C + COST_SLOT_C * avg_slots(d));
        c->c_bytes = fixed + tree;
        long us = d->kind == DSRA_DSRA ? COST_DSRA_TREE_US : COST_TDFA_TREE_US;
        c->cc_ms = (tree * us + fixed * COST_DATA_US) / 1000;
        c->weight = tree * COST_TREE_WEIGHT + fixed;
        return true;
    }
    case LAYOUT_TABLE:
        c->table_bytes = table_bytes(plan, d, arena);
        if (!c->table_bytes)
            return false;
        break;
    case LAYOUT_NODES:
        c->table_bytes = cost_nodes_bytes(d, arena);
        break;
    default:
        return false;
    }
    c->c_bytes = fixed + c->table_bytes * COST_DATA_CHARS;
    c->cc_ms = c->c_bytes * COST_DATA_US / 1000;
    c->weight = c->c_bytes;
    return true;
}

/* Code of no automaton: a chain's links or the run set's step. */
static void estimate_small(long c_bytes, Cost *c)
{
    c->c_bytes = c_bytes;
    c->cc_ms = c_bytes * COST_DATA_US / 1000;
    c->weight = c_bytes;
}

/* The C of a runs pattern's direct-coded dense step (bounded:
 * RUNS_DIRECT_MAX_TRANS). */
static long runs_direct_bytes(const Plan *plan)
{
    return COST_RUNS_DIRECT_C + (long)plan->nfa->ntrans * COST_RUNS_DIRECT_TRANS_C;
}

bool cost_estimate(const Plan *plan, Strategy strategy, Layout layout, Arena *arena, Cost *out)
{
    memset(out, 0, sizeof *out);
    out->strategy = strategy;
    out->layout = layout;
    if (strategy == STRATEGY_RUNS) {
        if (!plan->nfa)
            return false;
        out->layout = LAYOUT_AUTO;
        const Sra *walked = runs_merge_states(plan->nfa, arena);   /* what runs_new steps */
        out->states = walked->nstates;
        out->trans = walked->ntrans;
        out->runs_direct = runs_direct_fits(plan->nfa);
        long direct = out->runs_direct ? runs_direct_bytes(plan) : 0;
        estimate_small(COST_PATTERN_C + COST_RUNS_C + (long)plan->nfa->ntrans * COST_RUNS_ATOM_C + direct, out);
        return true;
    }
    if (layout == LAYOUT_CHAIN) {
        if (!plan->chain || strategy != STRATEGY_TDFA)
            return false;
        estimate_small(COST_PATTERN_C + (long)plan->chain->n * COST_LINK_C, out);
        return true;
    }
    return plan->min && plan->strategy == strategy && estimate_dsra(plan, plan->min, layout, arena, out);
}

/* ---- choosing ----------------------------------------------------------------------- */

/* A plan's candidates, fastest first (docs/PERFORMANCE.md): tables for
 * plain DFAs, a chain where the pattern is one, trees, node arrays, runs. */
enum { LADDER_MAX = 7 };   /* table, chain, tree, table, nodes, runs direct, runs tables */

typedef struct Ladder {
    Cost cand[LADDER_MAX];
    int  n, at;       /* candidates; the one chosen */
    bool forced;      /* --strategy or --layout: no fallback to runs */
} Ladder;

static void try_add(Ladder *l, const Plan *plan, Strategy s, Layout layout, Arena *arena)
{
    if (l->n < LADDER_MAX && cost_estimate(plan, s, layout, arena, &l->cand[l->n]))
        l->n++;
}

/* Runs, and where they take the direct-coded step, the same runs by the
 * tables alone after it, lighter by that step's C: a file of many runs
 * patterns over the budget drops their direct steps (a random 100-pattern
 * file: 33 of them, 180 KB of C, 29% more of cc's time). */
static void add_runs(Ladder *l, const Plan *plan, Arena *arena)
{
    int at = l->n;
    try_add(l, plan, STRATEGY_RUNS, LAYOUT_AUTO, arena);
    if (l->n > at && l->cand[at].runs_direct && l->n < LADDER_MAX) {
        Cost *t = &l->cand[l->n++];
        *t = l->cand[at];
        t->runs_direct = false;
        estimate_small(t->c_bytes - runs_direct_bytes(plan), t);
    }
}

/* Where the pattern is a chain and the layout was not asked for: the
 * chain first for tagged automata (or none), after tables for plain ones
 * that are partitioned. Unpartitioned, a chain gives its records' start
 * from its tags where tables would replay the match (cg_canon.c): B2 at
 * w = 10 ran 1.9 ns/event as tables before records had a start, 25 with
 * the replay; but a short gap chain scans its last events for the start
 * (CHAIN_SCAN_MAX), so tables first for it, as before records had one. */
static void auto_ladder(Ladder *l, const Plan *plan, Arena *arena)
{
    Strategy s = plan->strategy;
    int64_t span = chain_span(plan->chain);
    bool scan = span >= 1 && span <= CHAIN_SCAN_MAX;
    bool plain = plan->min && !plan->min->tagged && !(plan->chain && !plan->pattern->partition_attr && !scan);
    if (plain)
        try_add(l, plan, s, LAYOUT_TABLE, arena);
    try_add(l, plan, s, LAYOUT_CHAIN, arena);
    try_add(l, plan, s, LAYOUT_TREE, arena);
    if (!plain)
        try_add(l, plan, s, LAYOUT_TABLE, arena);
    try_add(l, plan, s, LAYOUT_NODES, arena);
}

static void make_ladder(Ladder *l, const Plan *plan, const StrategyOpts *o, Arena *arena)
{
    memset(l, 0, sizeof *l);
    l->forced = o->strategy != STRATEGY_AUTO || o->layout != LAYOUT_AUTO;
    if (plan->strategy == STRATEGY_RUNS) {
        add_runs(l, plan, arena);
        return;
    }
    Layout want = o->layout;
    if (want == LAYOUT_TABLE && !cost_estimate(plan, plan->strategy, want, arena, &l->cand[0]))
        want = LAYOUT_TREE;   /* tables where they fit, else trees (as before) */
    if (want != LAYOUT_AUTO)
        try_add(l, plan, plan->strategy, want, arena);
    if (l->n == 0)   /* auto, or a chain asked of what is not one */
        auto_ladder(l, plan, arena);
    if (o->strategy == STRATEGY_AUTO && o->layout == LAYOUT_AUTO)
        add_runs(l, plan, arena);
}

/* The next candidate of l lighter than its current one, or -1. */
static int lighter(const Ladder *l)
{
    for (int k = l->at + 1; k < l->n; k++)
        if (l->cand[k].weight < l->cand[l->at].weight)
            return k;
    return -1;
}

static const char *why_text(const Plan *plan, const Ladder *l, bool over, Arena *arena)
{
    const Cost *first = &l->cand[0], *c = &l->cand[l->at];
    char buf[200];
    if (l->at == 0 && !l->forced && first->strategy == STRATEGY_RUNS)
        snprintf(buf, sizeof buf, "%s%s", plan->reason, over ? "; the file is over the code budget" : "");
    else if (l->at > 0 && first->strategy == STRATEGY_RUNS)   /* runs' direct step dropped */
        snprintf(buf, sizeof buf, "%s; the direct step (~%ld KB of C) is over the code budget",
                 l->forced ? "as asked" : plan->reason, (runs_direct_bytes(plan) + 1023) / 1024);
    else if (l->at == 0)
        snprintf(buf, sizeof buf, "%s%s", l->forced ? "as asked" : "the fastest that fits",
                 over ? "; the file is over the code budget" : "");
    else
        snprintf(buf, sizeof buf, "%s %s (~%ld KB of C, %ld KB of the budget) over the code budget%s",
                 strategy_name(first->strategy),
                 first->strategy == STRATEGY_RUNS ? "" : layout_name(first->layout),
                 (first->c_bytes + 1023) / 1024, (first->weight + 1023) / 1024,
                 c->strategy == STRATEGY_RUNS ? ": runs" : "");
    return arena_strdup(arena, buf);
}

/* Applies the chosen candidate to its plan. */
static void apply(Plan *plan, const Ladder *l, bool over, const StrategyOpts *o, Arena *arena)
{
    const Cost *c = &l->cand[l->at];
    if (c->strategy == STRATEGY_RUNS && plan->strategy != STRATEGY_RUNS)
        plan_use_runs(plan, o, arena, "the automaton's code is over the code budget (--max-code-kb)");
    plan->layout = c->layout;
    Cost *keep = arena_alloc(arena, sizeof *keep);
    *keep = *c;
    plan->cost = keep;
    plan->why = why_text(plan, l, over, arena);
}

static void over_error(Plan *plan, const Cost *c, const StrategyOpts *o, Diag *diag)
{
    char win[96];
    sra_window_text(plan->pattern, win, sizeof win);
    diag_error(diag, plan->pattern->loc,
               "pattern '%s' (%s): %s%s%s is estimated at %ld KB of C (%ld states, %ld "
               "minterms, %ld table bytes; %ld KB of the budget), and the file is over the code "
               "budget of %ld KB; try %s, a smaller window, or a larger --max-code-kb",
               plan->pattern->name, win, strategy_name(c->strategy),
               c->strategy == STRATEGY_RUNS ? "" : " layout ",
               c->strategy == STRATEGY_RUNS ? "" : layout_name(c->layout), (c->c_bytes + 1023) / 1024,
               c->states, c->minterms, c->table_bytes, (c->weight + 1023) / 1024, o->max_code_kb,
               c->strategy == STRATEGY_RUNS ? "--strategy auto" : "--layout nodes, --strategy runs");
    if (plan->pattern->forecast.present)
        diag_note(diag, plan->pattern->forecast.loc,
                  "a forecast pattern takes the tree or the table layout, whose steps know their "
                  "transition (docs/forecasting.md): a smaller window or a larger --max-code-kb");
}

/* C of the run-set engine, which a file with any runs pattern has once:
 * the size of its templates as built into sremc (they grow with it). */
static long runs_engine_bytes(void)
{
    long n = 0;
    for (int i = 0; cg_templates[i].name; i++)
        if (strcmp(cg_templates[i].name, "runs.c.tpl") == 0 || strcmp(cg_templates[i].name, "runs_types.tpl") == 0)
            n += (long)strlen(cg_templates[i].text);
    return n;
}

/* The first plan whose current candidate is runs, or -1. */
static int first_runs(Plan **plans, const Ladder *l, int n)
{
    for (int i = 0; i < n; i++)
        if (plans[i] && l[i].n && l[i].cand[l[i].at].strategy == STRATEGY_RUNS)
            return i;
    return -1;
}

/* What the file takes of the budget: its plans, and the engine if any runs. */
static long file_weight(Plan **plans, const Ladder *l, int n)
{
    long total = 0;
    for (int i = 0; i < n; i++)
        total += plans[i] && l[i].n ? l[i].cand[l[i].at].weight : 0;
    return total + (first_runs(plans, l, n) >= 0 ? runs_engine_bytes() : 0);
}

bool cost_choose(Plan **plans, int n, const StrategyOpts *o, Arena *arena, Diag *diag)
{
    Ladder *l = arena_alloc(arena, ((size_t)n + 1) * sizeof *l);
    long total, budget = o->max_code_kb > 0 ? o->max_code_kb * 1024 : LONG_MAX;
    for (int i = 0; i < n; i++) {
        if (!plans[i])
            continue;
        /* a forecast pattern's step names the transition it takes: trees,
         * as if forced, or tables when asked; under auto, tables are the
         * lighter step when trees are over the budget (docs/forecasting.md,
         * "Symbols"); node arrays and chains do not keep the transition */
        StrategyOpts fo = *o;
        bool fc = plans[i]->pattern->forecast.present && plans[i]->strategy != STRATEGY_RUNS;
        if (fc) {
            fo.strategy = plans[i]->strategy;
            fo.layout = o->layout == LAYOUT_TABLE ? LAYOUT_TABLE : LAYOUT_TREE;
        }
        make_ladder(&l[i], plans[i], &fo, arena);
        if (fc && o->layout == LAYOUT_AUTO && l[i].n > 0 && l[i].cand[0].layout == LAYOUT_TREE)
            try_add(&l[i], plans[i], plans[i]->strategy, LAYOUT_TABLE, arena);
    }
    /* the largest first: one move of the heaviest plan to its next lighter layout */
    while ((total = file_weight(plans, l, n)) > budget) {
        int best = -1;
        for (int i = 0; i < n; i++)
            if (plans[i] && lighter(&l[i]) >= 0 &&
                (best < 0 || l[i].cand[l[i].at].weight > l[best].cand[l[best].at].weight))
                best = i;
        if (best < 0)
            break;
        l[best].at = lighter(&l[best]);
    }
    /* the engine is told with the first runs pattern (--explain) */
    int engine = first_runs(plans, l, n);
    if (engine >= 0) {
        Cost *c = &l[engine].cand[l[engine].at];
        long bytes = runs_engine_bytes();
        c->c_bytes += bytes;
        c->weight += bytes;
        c->cc_ms += bytes * COST_DATA_US / 1000;
    }
    bool ok = true;
    for (int i = 0; i < n; i++) {
        if (!plans[i] || l[i].n == 0)
            continue;
        const Cost *c = &l[i].cand[l[i].at];
        if (l[i].forced && total > budget && c->weight > budget / (n ? n : 1)) {
            over_error(plans[i], c, o, diag);
            plans[i] = NULL;
            ok = false;
            continue;
        }
        apply(plans[i], &l[i], total > budget, o, arena);
    }
    return ok;
}

void cost_explain(const Plan *plan, FILE *out)
{
    const Cost *c = plan->cost;
    if (!c)
        return;
    fprintf(out, "sremc: pattern %s: strategy %s, layout %s, %ld states, %ld transitions, "
                 "%ld minterms, %ld table bytes, ~%ld KB of C (%ld KB of the budget, ~%ld ms at -O2): %s\n",
            plan->pattern->name, strategy_name(c->strategy),
            c->strategy != STRATEGY_RUNS ? layout_name(c->layout) : c->runs_direct ? "- (direct step)" : "- (table step)",
            c->states, c->trans,
            c->minterms, c->table_bytes, (c->c_bytes + 1023) / 1024, (c->weight + 1023) / 1024, c->cc_ms, plan->why);
}
