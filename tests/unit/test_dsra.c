/* test_dsra.c: tdfa and dsra determinization and minimization on hand-built
 * and pattern automata, the budget, and differential runs against interp. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../diff/gen.h"
#include "../diff/shrink.h"
#include "dsra.h"
#include "frontend.h"
#include "interp.h"
#include "nodes.h"
#include "sra_build.h"
#include "unit.h"
#include "unroll.h"

enum {
    N_TDFA_SEEDS = 2000,   /* random register-free patterns */
    N_DSRA_SEEDS = 1000,   /* random patterns with registers, count windows */
    STREAM_LEN = 40,
    NFA_BUDGET = 5000,
    DFA_BUDGET = 20000
};

static AstPattern *pattern_named(const Ast *ast, const char *name)
{
    for (int i = 0; i < ast->ndecls; i++)
        if (ast->decls[i].kind == DECL_PATTERN && (!name || strcmp(ast->decls[i].u.pattern->name, name) == 0))
            return ast->decls[i].u.pattern;
    return NULL;
}

static long total_nodes(const Dsra *d)
{
    long n = 0;
    for (int s = 0; s < d->nstates; s++)
        n += d->states[s].nnodes;
    return n;
}

/* Minimization never grows anything, and both automata are well formed. */
static bool never_grows(const Dsra *dfa, const Dsra *min)
{
    const char *e1 = dsra_check(dfa), *e2 = dsra_check(min);
    if (e1 || e2)
        fprintf(stderr, "\ndsra_check: %s\n", e1 ? e1 : e2);
    bool ok = !e1 && !e2 && min->nstates <= dfa->nstates && min->ntrans <= dfa->ntrans &&
              min->ncubes <= dfa->ncubes && total_nodes(min) <= total_nodes(dfa);
    if (!ok)
        fprintf(stderr, "\nminimization grew: %d/%d states, %d/%d transitions, %d/%d minterms\n",
                dfa->nstates, min->nstates, dfa->ntrans, min->ntrans, dfa->ncubes, min->ncubes);
    return ok;
}

/* The automaton a strategy would determinize for p: the epsilon-free SRA
 * (tdfa), or its unrolling for the count window (dsra). */
static Sra *input_of(const AstPattern *p, bool dsra, Arena *arena, Diag *diag)
{
    Sra *nfa = sra_nfa_from_pattern(p, arena, diag, NFA_BUDGET);
    if (!nfa || !dsra)
        return nfa;
    return sra_unroll(nfa, (int)p->hdr.window.value, arena, diag, DFA_BUDGET);
}

static char *dump_of(const Dsra *d)
{
    char *s = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&s, &len);
    dsra_dump_txt(d, m);
    fclose(m);
    return s;
}

/* Checks src, determinizes and minimizes pattern `name`. */
typedef struct Built {
    Fixture     fx;
    AstPattern *p;
    Dsra       *dfa, *min;
} Built;

static void built_open(Built *b, const char *src, const char *name, bool dsra)
{
    memset(b, 0, sizeof *b);
    fx_run(&b->fx, src, true);
    if (b->fx.nerrors)
        fprintf(stderr, "\n%s", b->fx.diags);
    CU_ASSERT_EQUAL_FATAL(b->fx.nerrors, 0);
    b->p = pattern_named(b->fx.ast, name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b->p);
    Sra *in = input_of(b->p, dsra, &b->fx.arena, &b->fx.diag);
    CU_ASSERT_PTR_NOT_NULL_FATAL(in);
    b->dfa = dsra_determinize(in, DFA_BUDGET, &b->fx.arena, &b->fx.diag);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b->dfa);
    b->min = dsra_minimize(b->dfa, &b->fx.arena);
    CU_ASSERT(never_grows(b->dfa, b->min));
}

/* Detections of both automata and the interpreter on a stream given as
 * rows of attribute values; all three must agree with want ("01..."). */
static void expect_det(Built *b, const int64_t *rows, int n, const char *want)
{
    int na = b->p->schema->nattrs;
    Value *v = calloc((size_t)n * (size_t)na + 1, sizeof *v);
    for (int k = 0; k < n * na; k++)
        v[k].i = rows[k];
    Stream s = {n, na, v};
    bool *det = calloc((size_t)n * 3 + 1, sizeof *det);
    dsra_simulate(b->dfa, &s, NULL, det);
    dsra_simulate(b->min, &s, NULL, det + n);
    interp_detect(b->p, &s, NULL, det + 2 * n);
    for (int k = 0; k < n; k++) {
        bool w = want[k] == '1';
        if (det[k] != w || det[n + k] != w || det[2 * n + k] != w)
            fprintf(stderr, "\n%s event %d: want %d, dfa %d, min %d, interp %d\n", b->p->name, k + 1, w, det[k],
                    det[n + k], det[2 * n + k]);
        CU_ASSERT(det[k] == w && det[n + k] == w && det[2 * n + k] == w);
    }
    free(det);
    free(v);
}

/* ---- tdfa ---------------------------------------------------------------------------- */

static const char TYPES[] = "schema E { t : enum { A, B, C }; v : int; time : timestamp(s); }\n";

static void test_tdfa_sequence(void)
{
    char src[512];
    snprintf(src, sizeof src, "%spattern ab on E { A B }\n", TYPES);
    Built b;
    built_open(&b, src, "ab", false);
    CU_ASSERT_EQUAL(b.dfa->kind, DSRA_TDFA);
    CU_ASSERT(!b.dfa->tagged);
    /* {} -A-> {A seen} -B-> {final}; the final state also sees A. */
    char *got = dump_of(b.min);
    const char *want =
        "tdfa ab (without a window) minimized: 3 states, 7 transitions, 7 minterms, 2 atoms\n"
        "  atom a0: (t == A)\n"
        "  atom a1: (t == B)\n"
        "  state 0 {} start\n"
        "    -> 1  a0\n"
        "    -> 0  !a0\n"
        "  state 1 {1}\n"
        "    -> 1  a0\n"
        "    -> 2  !a0 && a1\n"
        "    -> 0  !a0 && !a1\n"
        "  state 2 {2} final\n"
        "    -> 1  a0\n"
        "    -> 0  !a0\n";
    if (strcmp(got, want) != 0)
        fprintf(stderr, "\ngot:\n%s", got);
    CU_ASSERT_STRING_EQUAL(got, want);
    free(got);
    int64_t rows[] = {0, 0, 0, /**/ 1, 0, 1, /**/ 0, 0, 2, /**/ 2, 0, 3, /**/ 1, 0, 4, /**/ 0, 0, 5, /**/ 1, 0, 6};
    expect_det(&b, rows, 7, "0100001");
    fx_done(&b.fx);
}

/* Count windows: the tag of a run is its start position. */
static void test_tdfa_count_window(void)
{
    char src[512];
    snprintf(src, sizeof src, "%spattern p on E within 3 events { A _* B }\n", TYPES);
    Built b;
    built_open(&b, src, "p", false);
    CU_ASSERT(b.dfa->tagged);
    /* A C B: 3 events, detected; A C C B: 4 events, not; A A C B: the
     * second A is the latest start, detected. */
    int64_t rows[] = {0, 0, 0, 2, 0, 0, 1, 0, 0, /**/ 0, 0, 0, 2, 0, 0, 2, 0, 0, 1, 0, 0,
                      /**/ 0, 0, 0, 0, 0, 0, 2, 0, 0, 1, 0, 0};
    expect_det(&b, rows, 11, "00100000001");
    /* The window is not unrolled: same size as without it. */
    char src2[512];
    snprintf(src2, sizeof src2, "%spattern p on E within 1000 events { A _* B }\n", TYPES);
    Built big;
    built_open(&big, src2, "p", false);
    CU_ASSERT_EQUAL(big.min->nstates, b.min->nstates);
    CU_ASSERT_EQUAL(big.min->ntrans, b.min->ntrans);
    fx_done(&big.fx);
    fx_done(&b.fx);
}

/* Time windows: tags hold timestamps; equal timestamps are fine. */
static void test_tdfa_time_window(void)
{
    char src[512];
    snprintf(src, sizeof src, "%spattern p on E within 2 s { A _* B }\n", TYPES);
    Built b;
    built_open(&b, src, "p", false);
    CU_ASSERT(b.dfa->tagged);
    CU_ASSERT_EQUAL(b.dfa->window_kind, WIN_TIME);
    int64_t rows[] = {0, 0, 10, 2, 0, 11, 1, 0, 12, /* 12 - 10 <= 2 */
                      0, 0, 20, 1, 0, 23,           /* 3 s: no */
                      0, 0, 30, 0, 0, 31, 1, 0, 33, /* the latest A counts */
                      1, 0, 33};                    /* same timestamp */
    expect_det(&b, rows, 9, "001000011");
    fx_done(&b.fx);
}

/* Partitions are independent substreams; count windows count in them. */
static void test_tdfa_partition(void)
{
    const char *src = "schema E { t : enum { A, B, C }; k : int; }\n"
                      "pattern p on E partition by k within 2 events { A B }\n";
    Built b;
    built_open(&b, src, "p", false);
    int64_t rows[] = {0, 1, 0, 2, 1, 1, 1, 2, 2, 2, 1, 1};
    expect_det(&b, rows, 6, "001100");
    fx_done(&b.fx);
}

/* Equivalent subsets merge: after A and after B the futures are equal. */
static void test_minimize_merges(void)
{
    char src[512];
    snprintf(src, sizeof src, "%spattern p on E { A C | B C }\n", TYPES);
    Built b;
    built_open(&b, src, "p", false);
    CU_ASSERT(b.min->nstates < b.dfa->nstates);
    int merged = 0;
    for (int s = 0; s < b.min->nstates; s++)
        merged += b.min->states[s].merged > 1;
    CU_ASSERT(merged > 0);
    int64_t rows[] = {0, 0, 0, 2, 0, 1, 1, 0, 2, 2, 0, 3, 2, 0, 4};
    expect_det(&b, rows, 5, "01010");
    fx_done(&b.fx);
}

/* An empty language: one state, never final, a single minterm. */
static void test_empty_language(void)
{
    char src[512];
    snprintf(src, sizeof src, "%spattern p on E { [v < 3 && v > 5] }\n", TYPES);
    Built b;
    built_open(&b, src, "p", false);
    CU_ASSERT_EQUAL(b.min->nstates, 1);
    CU_ASSERT_EQUAL(b.min->ncubes, 1);
    CU_ASSERT(!b.min->states[0].final);
    fx_done(&b.fx);
}

/* Unsatisfiable minterms are dropped: v < 3 and v > 5 never both hold,
 * so the start tests at most the two conditions, with three leaves. */
static void test_pruned_minterms(void)
{
    char src[512];
    snprintf(src, sizeof src, "%spattern p on E { [v < 3] A | [v > 5] B }\n", TYPES);
    Built b;
    built_open(&b, src, "p", false);
    const DsraState *st = &b.dfa->states[0];
    CU_ASSERT_EQUAL(st->ntrans, 3);
    CU_ASSERT_EQUAL(st->natoms, 2);
    fx_done(&b.fx);
}

/* ---- hand-built automata ------------------------------------------------------------------ */

/* The conditions of `x:A [v == x.v]`, then an unrolled SRA for w = 2
 * built by hand as sra.h describes: depth 0 -x:A-> depth 1 -[v == x.v]->
 * depth 2, x's clone written at depth 1 is SRA register 0 * 3 + 1. */
static void test_hand_unrolled(void)
{
    Fixture fx;
    fx_run(&fx,
           "schema E { t : enum { A, B }; v : int; }\n"
           "pattern p on E within 2 events { x:A [v == x.v] }\n",
           true);
    CU_ASSERT_EQUAL_FATAL(fx.nerrors, 0);
    AstPattern *p = pattern_named(fx.ast, "p");
    const AstExpr *is_a = p->body->kids[0]->cond, *same = p->body->kids[1]->cond;
    Sra *u = sra_new(&fx.arena, p, 1 * 3);
    for (int i = 0; i < 3; i++)
        sra_add_state(u, &fx.arena);
    u->final[2] = true;
    u->window = 2;
    u->depth = arena_alloc(&fx.arena, 3 * sizeof *u->depth);
    u->depth[1] = 1;
    u->depth[2] = 2;
    SraTrans *t = sra_add_trans(u, &fx.arena, 0, 1);
    sra_trans_add_lit(t, &fx.arena, (SraLit){is_a, false, NULL});
    sra_trans_add_write(t, &fx.arena, 1);
    static const int clone1[1] = {1};
    t = sra_add_trans(u, &fx.arena, 1, 2);
    sra_trans_add_lit(t, &fx.arena, (SraLit){same, false, clone1});
    Dsra *d = dsra_determinize(u, 100, &fx.arena, &fx.diag);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(d->kind, DSRA_DSRA);
    CU_ASSERT_EQUAL(d->history, 1);
    CU_ASSERT_EQUAL(d->mt->natoms, 2);
    CU_ASSERT_EQUAL(d->mt->atoms[1].regmap[0], 1); /* x is the previous event */
    Dsra *m = dsra_minimize(d, &fx.arena);
    CU_ASSERT(never_grows(d, m));
    /* A1 A1 B1 A2 A3 B3: detections at 2 (A1 A1), 3 (A1 B1), 6 (A3 B3). */
    Value v[12] = {{0}, {.i = 1}, {0}, {.i = 1}, {.i = 1}, {.i = 1}, {0}, {.i = 2}, {0}, {.i = 3}, {.i = 1}, {.i = 3}};
    Stream s = {6, 2, v};
    bool det[6], mdet[6], want[6];
    dsra_simulate(d, &s, NULL, det);
    dsra_simulate(m, &s, NULL, mdet);
    interp_detect(p, &s, NULL, want);
    static const bool expect[6] = {false, true, true, false, false, true};
    CU_ASSERT(memcmp(det, expect, sizeof det) == 0);
    CU_ASSERT(memcmp(mdet, expect, sizeof det) == 0);
    CU_ASSERT(memcmp(want, expect, sizeof det) == 0);
    fx_done(&fx);
}

/* A hand-built NFA with a self-loop and two ways into one state: the
 * tag of that state takes the max of both sources. */
static void test_hand_tags(void)
{
    Fixture fx;
    fx_run(&fx,
           "schema E { t : enum { A, B, C }; }\n"
           "pattern p on E within 3 events { A B C }\n",
           true);
    CU_ASSERT_EQUAL_FATAL(fx.nerrors, 0);
    AstPattern *p = pattern_named(fx.ast, "p");
    const AstExpr *a = p->body->kids[0]->cond, *bb = p->body->kids[1]->cond, *c = p->body->kids[2]->cond;
    /* 0 -A-> 1, 1 -B-> 1, 0 -B-> 1, 1 -C-> 2: (A | B) B* C */
    Sra *n = sra_new(&fx.arena, p, 0);
    for (int i = 0; i < 3; i++)
        sra_add_state(n, &fx.arena);
    n->final[2] = true;
    sra_trans_add_lit(sra_add_trans(n, &fx.arena, 0, 1), &fx.arena, (SraLit){a, false, NULL});
    sra_trans_add_lit(sra_add_trans(n, &fx.arena, 0, 1), &fx.arena, (SraLit){bb, false, NULL});
    sra_trans_add_lit(sra_add_trans(n, &fx.arena, 1, 1), &fx.arena, (SraLit){bb, false, NULL});
    sra_trans_add_lit(sra_add_trans(n, &fx.arena, 1, 2), &fx.arena, (SraLit){c, false, NULL});
    Dsra *d = dsra_determinize(n, 100, &fx.arena, &fx.diag);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT(d->tagged);
    /* From {1} on B: slot of 1 is fresh (0 -B-> 1 from the new run). */
    bool seen_fresh = false;
    for (int i = 0; i < d->ntrans; i++) {
        const DsraTrans *tr = &d->trans[i];
        if (d->states[tr->from].nmembers == 1 && d->states[tr->to].nmembers == 1 && tr->tags[0].fresh)
            seen_fresh = true;
    }
    CU_ASSERT(seen_fresh);
    Dsra *m = dsra_minimize(d, &fx.arena);
    CU_ASSERT(never_grows(d, m));
    /* A B B C: 4 events, but the run started by the 2nd B is within 3. */
    Value v[6] = {{.i = 0}, {.i = 1}, {.i = 1}, {.i = 2}, {.i = 0}, {.i = 2}};
    Stream s = {6, 1, v};
    bool det[6];
    dsra_simulate(m, &s, NULL, det);
    static const bool expect[6] = {false, false, false, true, false, true};
    CU_ASSERT(memcmp(det, expect, sizeof det) == 0);
    fx_done(&fx);
}

/* ---- dsra from patterns ------------------------------------------------------------------------- */

static void test_dsra_fire(void)
{
    const char *src = "schema Sensor { type : enum { T, H }; id : int; value : float; }\n"
                      "pattern fire on Sensor within 4 events { x:T _* [type == H && id == x.id && value > 60] }\n";
    Built b;
    built_open(&b, src, "fire", true);
    CU_ASSERT_EQUAL(b.dfa->kind, DSRA_DSRA);
    CU_ASSERT_EQUAL(b.dfa->history, 3);
    /* T1 H1(70) T2 H2(50) H1(80) H2(90) H2(90): */
    int64_t rows[] = {0, 1, 0, 1, 1, 0, 0, 2, 0, 1, 2, 0, 1, 1, 0, 1, 2, 0, 1, 2, 0};
    double vals[] = {0, 70, 0, 50, 80, 90, 90};
    for (int k = 0; k < 7; k++)
        memcpy(&rows[k * 3 + 2], &vals[k], sizeof vals[k]);
    expect_det(&b, rows, 7, "0100010");
    fx_done(&b.fx);
}

/* ---- budget -------------------------------------------------------------------------------- */

static void test_budget(void)
{
    /* The classic: "an A eleven events back" needs a DFA that remembers
     * which of the last 11 events were A, and whether a match just ended:
     * 2^12 states. */
    char src[512];
    snprintf(src, sizeof src, "%spattern far on E within 50 events { A _ _ _ _ _ _ _ _ _ _ _ }\n", TYPES);
    Fixture fx;
    fx_run(&fx, src, true);
    CU_ASSERT_EQUAL_FATAL(fx.nerrors, 0);
    AstPattern *p = pattern_named(fx.ast, "far");
    Sra *nfa = sra_nfa_from_pattern(p, &fx.arena, &fx.diag, 1000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(nfa);
    Diag d;
    diag_init(&d, "t.srem", "", 0);
    CU_ASSERT_PTR_NULL(dsra_determinize(nfa, 300, &fx.arena, &d));
    CU_ASSERT_EQUAL(d.nerrors, 1);
    CU_ASSERT(d.n == 1 && strstr(d.entries[0].message, "'far'") &&
              strstr(d.entries[0].message, "within 50 events") &&
              strstr(d.entries[0].message, "300 states") && strstr(d.entries[0].message, "--max-states 300"));
    diag_free(&d);
    Dsra *dfa = dsra_determinize(nfa, 5000, &fx.arena, &fx.diag);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dfa);
    CU_ASSERT_EQUAL(dfa->nstates, 1 << 12);
    Dsra *min = dsra_minimize(dfa, &fx.arena);
    CU_ASSERT(never_grows(dfa, min));
    CU_ASSERT_EQUAL(min->nstates, 1 << 12);
    fx_done(&fx);
}

static void test_budget_dsra(void)
{
    const char *src = "schema E { t : enum { A, B }; v : int; }\n"
                      "pattern wide on E within 12 events { x:_ _* y:[v > x.v] _* [v > y.v] }\n";
    Fixture fx;
    fx_run(&fx, src, true);
    CU_ASSERT_EQUAL_FATAL(fx.nerrors, 0);
    AstPattern *p = pattern_named(fx.ast, "wide");
    Sra *u = input_of(p, true, &fx.arena, &fx.diag);
    CU_ASSERT_PTR_NOT_NULL_FATAL(u);
    Diag d;
    diag_init(&d, "t.srem", "", 0);
    CU_ASSERT_PTR_NULL(dsra_determinize(u, 50, &fx.arena, &d));
    CU_ASSERT(d.n == 1 && strstr(d.entries[0].message, "'wide'") &&
              strstr(d.entries[0].message, "within 12 events") && strstr(d.entries[0].message, "dsra"));
    diag_free(&d);
    fx_done(&fx);
}

/* ---- dumps ------------------------------------------------------------------------------------- */

static void test_dot(void)
{
    char src[512];
    snprintf(src, sizeof src, "%spattern p on E within 3 events { A [v > 1 || v == 0] }\n", TYPES);
    Built b;
    built_open(&b, src, "p", false);
    char *s = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&s, &len);
    dsra_dump_dot(b.min, "p \"min\"", m);
    fclose(m);
    CU_ASSERT(strstr(s, "digraph \"p \\\"min\\\"\" {") != NULL);
    CU_ASSERT(strstr(s, "shape=doublecircle") != NULL);
    CU_ASSERT(strstr(s, "(t == A)") != NULL);
    CU_ASSERT(strstr(s, "tags 0=now") != NULL);
    free(s);
    /* Text dumps are stable: the same input dumps the same. */
    char *a = dump_of(b.dfa), *c = dump_of(dsra_determinize(input_of(b.p, false, &b.fx.arena, &b.fx.diag), 100,
                                                            &b.fx.arena, &b.fx.diag));
    CU_ASSERT_STRING_EQUAL(a, c);
    free(a);
    free(c);
    fx_done(&b.fx);
}

/* ---- samples ------------------------------------------------------------------------------------- */

/* Every sample pattern that fits a strategy determinizes, minimizes
 * without growing, and agrees with the interpreter on a random stream. */
static void test_samples(void)
{
    static const char *const files[] = {"samples/fire.srem", "samples/trend.srem", "samples/ships.srem",
                                        "samples/building.srem"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        size_t len;
        char *raw = frontend_read_file(files[f], &len);
        CU_ASSERT_PTR_NOT_NULL(raw);
        if (!raw)
            continue;
        char *src = strndup(raw, len); /* fx_run wants a C string */
        free(raw);
        Fixture fx;
        fx_run(&fx, src, true);
        if (fx.nerrors)
            fprintf(stderr, "\n%s: %s", files[f], fx.diags);
        CU_ASSERT_EQUAL(fx.nerrors, 0);
        Diag diag;
        diag_init(&diag, files[f], src, len);
        for (int i = 0; i < fx.ast->ndecls; i++) {
            if (fx.ast->decls[i].kind != DECL_PATTERN)
                continue;
            const AstPattern *p = fx.ast->decls[i].u.pattern;
            bool dsra = p->nregs > 0;
            if (dsra && p->hdr.window.kind != WIN_EVENTS)
                continue; /* the runs strategy's */
            Sra *in = input_of(p, dsra, &fx.arena, &diag);
            CU_ASSERT_PTR_NOT_NULL(in);
            Dsra *dfa = in ? dsra_determinize(in, DFA_BUDGET, &fx.arena, &diag) : NULL;
            CU_ASSERT_PTR_NOT_NULL(dfa);
            if (!dfa)
                continue;
            Dsra *min = dsra_minimize(dfa, &fx.arena);
            CU_ASSERT(never_grows(dfa, min));
            if (getenv("UNIT_VERBOSE"))
                fprintf(stderr, "\n%s %s: dfa %d states %d transitions %d minterms %d atoms; min %d / %d / %d\n",
                        files[f], p->name, dfa->nstates, dfa->ntrans, dfa->ncubes, dfa->mt->natoms,
                        min->nstates, min->ntrans, min->ncubes);
        }
        CU_ASSERT_EQUAL(diag.nerrors, 0);
        diag_flush(&diag, stderr);
        diag_free(&diag);
        fx_done(&fx);
        free(src);
    }
}

/* ---- differential ------------------------------------------------------------------------------- */

typedef struct Case {
    Fixture     fx;
    AstPattern *p;
    char        src[2048];
    Value      *values;
    Stream      s;
} Case;

static bool case_open(Case *c, uint64_t seed, const GenOpts *o)
{
    Rng r = {seed};
    gen_pattern(&r, o, c->src, sizeof c->src);
    fx_run(&c->fx, c->src, true);
    c->p = c->fx.nerrors ? NULL : pattern_named(c->fx.ast, NULL);
    if (!c->p) {
        fx_done(&c->fx);
        return false;
    }
    c->values = calloc((size_t)STREAM_LEN * GEN_NATTRS, sizeof *c->values);
    gen_stream(&r, STREAM_LEN, c->values);
    c->s = (Stream){STREAM_LEN, GEN_NATTRS, c->values};
    return true;
}

static void case_close(Case *c)
{
    free(c->values);
    fx_done(&c->fx);
}

static void print_case(const Case *c, uint64_t seed, const char *what, const bool *want, const bool *got)
{
    fprintf(stderr, "\nseed %" PRIu64 ": %s differs from the interpreter\n%s", seed, what, strstr(c->src, "pattern"));
    for (int k = 0; k < STREAM_LEN; k++) {
        const Value *e = c->values + (size_t)k * GEN_NATTRS;
        fprintf(stderr, "  %2d t=%c v=%" PRId64 " k=%" PRId64 " time=%" PRId64 ": want %d got %d%s\n", k + 1,
                (char)('A' + e[GEN_T].i), e[GEN_V].i, e[GEN_K].i, e[GEN_TIME].i, want[k], got[k],
                want[k] != got[k] ? "  <--" : "");
    }
}

/* The failure predicate of the minimizer (ctx: bool, dsra): the pattern
 * still fits the strategy and the DFA or the minimized DFA differs from
 * the interpreter on the stream. */
static bool dsra_fails(const char *src, const Value *values, int n, void *ctx)
{
    bool dsra = *(const bool *)ctx;
    Fixture fx;
    fx_run(&fx, src, true);
    AstPattern *p = fx.nerrors ? NULL : pattern_named(fx.ast, NULL);
    bool fits = p && (dsra ? p->nregs > 0 && p->hdr.window.kind == WIN_EVENTS : p->nregs == 0);
    bool fails = false;
    if (fits) {
        Diag quiet;
        diag_init(&quiet, "t.srem", "", 0);
        Sra *in = input_of(p, dsra, &fx.arena, &quiet);
        Dsra *dfa = in ? dsra_determinize(in, DFA_BUDGET, &fx.arena, &quiet) : NULL;
        diag_free(&quiet);
        if (dfa) {
            Dsra *min = dsra_minimize(dfa, &fx.arena);
            Stream s = {n, GEN_NATTRS, values};
            bool *want = calloc(3 * (size_t)n + 1, sizeof *want), *a = want + n, *b = want + 2 * n;
            interp_detect(p, &s, NULL, want);
            dsra_simulate(dfa, &s, NULL, a);
            dsra_simulate(min, &s, NULL, b);
            fails = memcmp(want, a, (size_t)n) != 0 || memcmp(want, b, (size_t)n) != 0;
            free(want);
        }
    }
    fx_done(&fx);
    return fails;
}

/* Leaf u of node tables t says what transition tr does: tagged, the
 * first and further sources of every target slot and the final slots. */
static bool leaf_agrees(const NodeTables *t, int u, const DsraTrans *tr)
{
    const Dsra *d = t->d;
    const DsraState *to = &d->states[tr->to];
    if (!t->tagged)
        return u == tr->to && t->final.v[u] == to->final;
    int S = t->slots, k0 = t->src_first.v[u], x0 = t->xsrc_first.v[u], x1 = t->xsrc_first.v[u + 1];
    if (t->to.v[u] != tr->to || t->src_first.v[u + 1] - k0 != to->nmembers)
        return false;
    for (int j = 0; j < to->nmembers; j++) {
        const DsraTag *tg = &tr->tags[j];
        bool fresh = tg->fresh || tg->nfrom == 0;
        if (t->src.v[k0 + j] != (fresh ? S : tg->from[0]))
            return false;
        int extra = 0;
        for (int x = x0; x < x1; x++)
            if (t->xsrc.v[x] >> t->src_shift == j) {
                int f = t->xsrc.v[x] & ((1 << t->src_shift) - 1);
                bool found = false;
                for (int k = 1; !fresh && k < tg->nfrom; k++)
                    found = found || tg->from[k] == f;
                extra++;
                if (!found)
                    return false;
            }
        if (extra != (fresh ? 0 : tg->nfrom - 1))
            return false;
    }
    int nf = t->fin_first.v[u + 1] - t->fin_first.v[u];
    if (nf != (to->final ? to->nfinals : 0))
        return false;
    for (int f = 0; f < nf; f++)
        if (t->fin.v[t->fin_first.v[u] + f] != to->finals[f])
            return false;
    return true;
}

/* The node arrays of d (compiler/nodes.c) walk to the transition the
 * trees walk to, for random atom values in every state, and nodes_bytes
 * is what the arrays take. */
static bool nodes_agree(const Dsra *d, Arena *arena, uint64_t seed)
{
    NodeTables *t = nodes_build(d, arena);
    size_t bytes = 0;
    for (int k = 0; k < t->narrays; k++)
        bytes += (size_t)t->arrays[k]->n * (size_t)nodes_width(t->arrays[k]->max);
    bool ok = bytes == nodes_bytes(t);
    char *val = calloc((size_t)d->mt->natoms + 1, 1);
    uint64_t r = seed * 0x9E3779B97F4A7C15u + 1;
    for (int q = 0; q < d->nstates && ok; q++) {
        const DsraState *st = &d->states[q];
        for (int k = 0; k < 16 && ok; k++) {
            for (int a = 0; a < d->mt->natoms; a++) {
                r ^= r << 13, r ^= r >> 7, r ^= r << 17;
                val[a] = (char)(r & 1);
            }
            int v = t->root.v[q];
            if (st->nnodes == 0) {
                ok = t->has_stay && v == t->stay;
                break;
            }
            int n = 0;
            while (st->nodes[n].atom >= 0)
                n = val[st->nodes[n].atom] ? st->nodes[n].hi : st->nodes[n].lo;
            while (v < t->nnodes)
                v = t->kid.v[2 * v + val[t->atoms[t->atom.v[v]]]];
            ok = v < t->stay && leaf_agrees(t, v - t->nnodes, &d->trans[st->nodes[n].trans]);
        }
    }
    if (!ok)
        fprintf(stderr, "\nseed %" PRIu64 ": the node arrays disagree with the trees\n", seed);
    free(val);
    return ok;
}

/* Determinizes c's pattern for the strategy, compares the DFA and the
 * minimized DFA with the interpreter; 1 ok, 0 failed, -1 skipped (over
 * a budget, which the strategy choice would turn into runs). */
static int diff_one(Case *c, uint64_t seed, bool dsra, long *sizes)
{
    Diag quiet;
    diag_init(&quiet, "t.srem", "", 0);
    Sra *in = input_of(c->p, dsra, &c->fx.arena, &quiet);
    Dsra *dfa = in ? dsra_determinize(in, DFA_BUDGET, &c->fx.arena, &quiet) : NULL;
    diag_free(&quiet);
    if (!dfa)
        return -1;
    Dsra *min = dsra_minimize(dfa, &c->fx.arena);
    Dsra *again = dsra_minimize(min, &c->fx.arena);
    bool ok = never_grows(dfa, min) && never_grows(min, again) && nodes_agree(min, &c->fx.arena, seed);
    if (again->nstates != min->nstates || again->ntrans != min->ntrans || again->ncubes != min->ncubes) {
        fprintf(stderr, "\nseed %" PRIu64 ": minimizing twice changed the automaton\n", seed);
        ok = false;
    }
    sizes[0] += dfa->nstates;
    sizes[1] += min->nstates;
    sizes[2] += dfa->ncubes;
    sizes[3] += min->ncubes;
    bool *want = calloc(3 * STREAM_LEN, sizeof *want), *a = want + STREAM_LEN, *b = want + 2 * STREAM_LEN;
    interp_detect(c->p, &c->s, NULL, want);
    dsra_simulate(dfa, &c->s, NULL, a);
    dsra_simulate(min, &c->s, NULL, b);
    if (memcmp(want, a, STREAM_LEN * sizeof *a) != 0) {
        print_case(c, seed, dsra ? "dsra" : "tdfa", want, a);
        ok = false;
    } else if (memcmp(want, b, STREAM_LEN * sizeof *b) != 0) {
        print_case(c, seed, dsra ? "minimized dsra" : "minimized tdfa", want, b);
        ok = false;
    }
    if (!ok && getenv("DSRA_DUMP")) {
        dsra_dump_txt(dfa, stderr);
        dsra_dump_txt(min, stderr);
    }
    if (!ok)
        shrink_report(dsra ? "dsra differential" : "tdfa differential", seed, c->src, c->values, STREAM_LEN,
                      dsra_fails, &dsra, 0);
    free(want);
    return ok;
}

static void differential(bool dsra, int wanted)
{
    GenOpts o = {.registers = dsra, .complement = true, .intersection = true, .time_window = !dsra,
                 .partition = true, .policies = true, .max_window = 7};
    int tested = 0, failed = 0, skipped = 0;
    long sizes[4] = {0, 0, 0, 0};
    for (uint64_t seed = 1; tested < wanted && seed < 40 * (uint64_t)wanted; seed++) {
        Case c;
        if (!case_open(&c, seed, &o))
            continue;
        bool fits = dsra ? c.p->nregs > 0 && c.p->hdr.window.kind == WIN_EVENTS : c.p->nregs == 0;
        int r = fits ? diff_one(&c, seed, dsra, sizes) : -1;
        case_close(&c);
        if (!fits)
            continue;
        if (r < 0) {
            skipped++;
            continue;
        }
        tested++;
        failed += r == 0;
        if (failed > 5)
            break;
    }
    if (getenv("UNIT_VERBOSE"))
        fprintf(stderr, "\n%s: %d patterns, %d over budget, states %ld -> %ld, minterms %ld -> %ld\n",
                dsra ? "dsra" : "tdfa", tested, skipped, sizes[0], sizes[1], sizes[2], sizes[3]);
    diff_summary(dsra ? "dsra" : "tdfa", tested, skipped, failed);
    CU_ASSERT_EQUAL(tested, wanted);
    CU_ASSERT_EQUAL(failed, 0);
}

/* fire within 10 events as node arrays: they walk as the trees do, and
 * sharing subtrees across states leaves a fourth fewer nodes than the trees. */
static void test_nodes_fire(void)
{
    const char *src = "schema Sensor { type : enum { T, H }; id : int; value : float; }\n"
                      "pattern fire on Sensor within 10 events { x:T _* [type == H && id == x.id && value > 60] }\n";
    Built b;
    built_open(&b, src, "fire", true);
    NodeTables *t = nodes_build(b.min, &b.fx.arena);
    CU_ASSERT(nodes_agree(b.min, &b.fx.arena, 1));
    long internal = 0;
    for (int q = 0; q < b.min->nstates; q++)
        for (int n = 0; n < b.min->states[q].nnodes; n++)
            internal += b.min->states[q].nodes[n].atom >= 0;
    CU_ASSERT(t->nnodes < internal * 3 / 4);   /* 3,327 of 4,862 */
    CU_ASSERT_FALSE(t->tagged);
    CU_ASSERT_EQUAL(t->nleaves, b.min->nstates);
    fx_done(&b.fx);
}

static void test_tdfa_differential(void) { differential(false, N_TDFA_SEEDS * diff_scale()); }
static void test_dsra_differential(void) { differential(true, N_DSRA_SEEDS * diff_scale()); }

void add_dsra_tests(void)
{
    CU_pSuite s = CU_add_suite("dsra", NULL, NULL);
    CU_add_test(s, "tdfa: a sequence", test_tdfa_sequence);
    CU_add_test(s, "tdfa: count window tags", test_tdfa_count_window);
    CU_add_test(s, "tdfa: time window tags", test_tdfa_time_window);
    CU_add_test(s, "tdfa: partitions", test_tdfa_partition);
    CU_add_test(s, "minimize merges equivalent subsets", test_minimize_merges);
    CU_add_test(s, "empty language", test_empty_language);
    CU_add_test(s, "unsatisfiable minterms dropped", test_pruned_minterms);
    CU_add_test(s, "hand-built unrolled SRA", test_hand_unrolled);
    CU_add_test(s, "hand-built NFA: tag max", test_hand_tags);
    CU_add_test(s, "dsra: fire", test_dsra_fire);
    CU_add_test(s, "state budget (tdfa)", test_budget);
    CU_add_test(s, "state budget (dsra)", test_budget_dsra);
    CU_add_test(s, "dot and stable dumps", test_dot);
    CU_add_test(s, "samples", test_samples);
    CU_add_test(s, "nodes: fire's trees as shared node arrays", test_nodes_fire);
    CU_add_test(s, "tdfa = interpreter on random register-free patterns", test_tdfa_differential);
    CU_add_test(s, "dsra = interpreter on random patterns with registers", test_dsra_differential);
}
