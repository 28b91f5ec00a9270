/* test_canon.c: the canonical match of the reference interpreter
 * (interp_canonical, docs/language.md 3.4) on hand-computed cases, and on
 * random patterns against interp_detect, the outcome sets
 * (interp_has_match) and brute-force stam/stnm chains. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../diff/gen.h"
#include "../diff/shrink.h"
#include "interp.h"
#include "unit.h"

/* The canonical matches of a pattern on schema S as "i:start x=k y=k, ...":
 * one entry per detection (0-based indices), its bound registers by name. */
static void canon_string(const char *pattern, const char *spec, char *out, size_t size)
{
    char src[4096];
    snprintf(src, sizeof src, "%s%s", schema_s, pattern);
    Events ev;
    events(&ev, spec);
    Fixture fx;
    fx_run(&fx, src, true);
    const AstPattern *p = fx_first_pattern(&fx);
    snprintf(out, size, "(does not check)");
    if (p) {
        Stream s = {ev.n, S_NATTRS, ev.v};
        int bind[8];
        CanonMatch m = {0, bind};
        size_t len = 0;
        out[0] = '\0';
        for (int i = 0; i < ev.n && p->nregs <= 8; i++) {
            if (!interp_canonical(p, &s, NULL, i, &m))
                continue;
            len += (size_t)snprintf(out + len, size - len, "%s%d:%d", len ? ", " : "", i, m.start);
            for (int r = 0; r < p->nregs && len < size; r++)
                if (bind[r] >= 0)
                    len += (size_t)snprintf(out + len, size - len, " %s=%d", p->regs[r].name, bind[r]);
            if (len >= size)
                break;
        }
    }
    fx_done(&fx);
}

static void expect_canon(int line, const char *pattern, const char *spec, const char *want)
{
    char got[1024];
    canon_string(pattern, spec, got, sizeof got);
    if (strcmp(got, want) != 0)
        fprintf(stderr, "\nline %d: %s on \"%s\": want %s, got %s\n", line, pattern, spec, want, got);
    CU_ASSERT_STRING_EQUAL(got, want);
}

#define CANON(pattern, spec, want) expect_canon(__LINE__, "pattern p on S within 9 events " pattern, spec, want)
#define CANON_H(header, pattern, spec, want) expect_canon(__LINE__, "pattern p on S " header " " pattern, spec, want)

/* R | S: R first, even when S would bind more. */
static void test_canon_alternation(void)
{
    CANON("{ x:A B | A y:B }", "A B", "1:0 x=0");
    CANON("{ A y:B | x:A B }", "A B", "1:0 y=1");
    CANON("{ x:A | y:B }", "A B C", "0:0 x=0, 1:1 y=1");  /* labels not passed through are absent */
    CANON("{ (x:_ | y:_) _ }", "A B", "1:0 x=0");
}

/* The start is the greatest j; repetitions take one more iteration first. */
static void test_canon_greedy(void)
{
    CANON("{ A (x:_)* (y:_)* }", "A B C", "0:0, 1:0 x=1, 2:0 x=2");
    CANON("{ (x:_)* (y:B)* }", "A B B", "0:0 x=0, 1:1 x=1, 2:2 x=2"); /* start 2, not 0 */
    /* the star gives back what the rest needs */
    CANON("{ A (x:_)* y:B }", "A B B", "1:0 y=1, 2:0 x=1 y=2");
    CANON("{ A (x:_)? (y:_)? }", "A B C", "0:0, 1:0 x=1, 2:0 x=1 y=2");
    CANON("{ A (x:_){1,2} (y:_){0,2} }", "A B C C C", "1:0 x=1, 2:0 x=2, 3:0 x=2 y=3, 4:0 x=2 y=4");
    CANON("{ A (x:_){2} }", "A B C", "2:0 x=2");
}

/* Python's rule: an optional iteration that consumed nothing ends the
 * repetition. Below, the first iteration's first parse, (y:C)?, is empty
 * at A, so the star stops there and _* takes A: nothing is bound (an
 * engine that refuses empty iterations would bind x instead). */
static void test_canon_empty_iterations(void)
{
    CANON("{ C ((y:C)? | x:A)* _* }", "C A", "0:0, 1:0");
    /* the tail fails after the empty iteration: back into x:A */
    CANON("{ C ((y:C)? | x:A)* B }", "C A B", "2:0 x=1");
    /* the inner star takes both A's, then an empty outer iteration stops it */
    CANON("{ C ((x:A)*)* B }", "C A A B", "3:0 x=2");
    /* mandatory iterations may be empty (at 0, both are) */
    CANON("{ C ((x:B)?){2,} }", "C B", "0:0, 1:0 x=1");
}

/* A label inside a repetition, or written twice, keeps its last binding. */
static void test_canon_last_binding(void)
{
    CANON("{ C (x:A B)+ C }", "C A B A B C", "5:0 x=3");
    CANON("{ x:A _ x:B }", "A C B", "2:0 x=2");
    CANON("{ C (x:A | B)+ C }", "C A B C", "3:0 x=1");
}

/* & and ~: spans longest first. */
static void test_canon_and_not(void)
{
    CANON("{ (x:A _*) & (_* y:_) }", "A B A C", "0:0 x=0 y=0, 1:0 x=0 y=1, 2:2 x=2 y=2, 3:2 x=2 y=3");
    /* the longest span [0,3) before [0,2): y is the last B */
    CANON("{ ((x:A _*) & (_* y:B)) _* }", "A B B", "1:0 x=0 y=1, 2:0 x=0 y=2");
    /* ~B takes both C's: the star after it binds nothing */
    CANON_H("within 4 events", "{ A ~B (y:_)* }", "A C C", "1:0, 2:0");
    /* at 1, ~B would be the single B; at 2, it takes B C */
    CANON_H("within 4 events", "{ A ~B (y:_)* }", "A B C", "2:0");
}

/* stam: the lexicographically smallest j_2, j_3, ...; stnm: the one chain. */
static void test_canon_policies(void)
{
    CANON("policy stam { x:A y:B C }", "A A B B C", "4:1 x=1 y=2");
    CANON("policy stnm { x:A y:B C }", "A A B B C", "4:1 x=1 y=2");
    /* the smallest j_2 = 1 fails at the end: j_2 = 2 */
    CANON("policy stam { x:A y:B [v == y.v] }", "A B1 B2 C2", "3:0 x=0 y=2");
    CANON("policy stam { x:A [v > x.v] }", "A1 B0 B3 C5", "2:0 x=0, 3:0 x=0");
    CANON("policy stnm { x:A [v > x.v] }", "A1 B0 B3 C5", "2:0 x=0");
    /* stnm from 0 ends at 2; from 3 at 4; nothing ends at 5 (stam: from 3) */
    CANON("policy stnm { x:A y:B }", "A C B A B B", "2:0 x=0 y=2, 4:3 x=3 y=4");
    CANON("policy stam { x:A y:B }", "A C B A B B", "2:0 x=0 y=2, 4:3 x=3 y=4, 5:3 x=3 y=5");
    CANON("policy stam { x:A }", "A B A", "0:0 x=0, 2:2 x=2");
}

static void test_canon_windows(void)
{
    /* at 2, the only start is 0, 3 s before: no detection */
    CANON_H("within 2 s", "{ A (x:_)* }", "A@0 C@1 C@3", "0:0, 1:0 x=1");
    CANON_H("within 3 s", "{ A (x:_)* }", "A@0 C@1 C@3", "0:0, 1:0 x=1, 2:0 x=2");
    /* the greatest start within 3 events */
    CANON_H("within 3 events", "{ (x:A)+ _* B }", "A A A C C B", "");
    CANON_H("within 4 events", "{ (x:A)+ _* B }", "A A A C C B", "5:2 x=2");
    CANON_H("within 2 s policy stam", "{ x:A y:B }", "A@0 A@1 B@3", "2:1 x=1 y=2");
}

/* Substreams, global indices. */
static void test_canon_partition(void)
{
    CANON_H("partition by k within 4 events", "{ x:A (y:_)* }", "A/1 A/2 B/1 C/2 C/1",
            "0:0 x=0, 1:1 x=1, 2:0 x=0 y=2, 3:1 x=1 y=3, 4:0 x=0 y=4");
    CANON_H("partition by k within 2 events", "{ x:A (y:_)* }", "A/1 A/2 B/1 C/2 C/1",
            "0:0 x=0, 1:1 x=1, 2:0 x=0 y=2, 3:1 x=1 y=3");
    CANON_H("partition by k policy stnm within 9 events", "{ x:A y:B }", "A/1 A/2 B/2 B/1",
            "2:1 x=1 y=2, 3:0 x=0 y=3");
}

/* The examples of docs/language.md 3.4 (1-based there, 0-based here). */
static void test_canon_docs(void)
{
    CANON("{ A (x:_)* y:B }", "A B B", "1:0 y=1, 2:0 x=1 y=2");
    CANON("{ (x:_)* (y:B)* }", "A B B", "0:0 x=0, 1:1 x=1, 2:2 x=2");
    CANON("{ A (x:B | y:B)+ }", "A B B", "1:0 x=1, 2:0 x=2");
    CANON("{ ((x:A _*) & (_* y:B)) _* }", "A B B", "1:0 x=0 y=1, 2:0 x=0 y=2");
    CANON("{ A ((y:C)? | x:B)* _* }", "A B B", "0:0, 1:0, 2:0");
    CANON("policy stam { x:A y:B }", "A A B B", "2:1 x=1 y=2, 3:1 x=1 y=3");
}

/* ---- against interp_detect on random patterns ------------------------------------- */

/* Does e read a register? */
static bool reads_register(const AstExpr *e)
{
    bool any = e && (e->kind == EX_REGATTR || reads_register(e->lhs) || reads_register(e->rhs));
    for (int i = 0; e && !any && i < e->nargs; i++)
        any = reads_register(e->args[i]);
    return any;
}

/* Some atom labelled reg accepts event: true for an atom that reads
 * registers (not checked here); *checked when some atom was labelled reg. */
static bool bound_atom_holds(const AstRegex *r, int reg, const Value *event, bool *checked)
{
    if (r->kind == RX_ATOM) {
        if (r->reg != reg)
            return false;
        *checked = true;
        if (reads_register(r->cond))
            return true;
        EvalCtx ctx = {event, NULL, NULL, NULL};
        return r->atom == ATOM_ANY || eval_cond(r->cond, &ctx);
    }
    bool any = false;
    for (int i = 0; i < r->nkids; i++)
        any = bound_atom_holds(r->kids[i], reg, event, checked) || any;
    return any;
}

/* Whether events a and b of s have the same partition key (true when
 * the pattern is not partitioned): every key attribute equal. */
static bool same_key(const AstPattern *p, const Stream *s, int a, int b)
{
    for (int j = 0; j < p->npartition; j++) {
        int x = p->partition_attrs[j]->index;
        if (s->values[(size_t)a * s->nattrs + x].i != s->values[(size_t)b * s->nattrs + x].i)
            return false;
    }
    return true;
}

/* The events of s with i's partition key and index in [from, i], as a
 * stream; interp_detect on it says whether some match starts in there. */
static bool detects_from(const AstPattern *p, const Stream *s, int from, int i)
{
    Value *v = malloc((size_t)(i + 1) * (size_t)s->nattrs * sizeof *v);
    int n = 0;
    for (int q = from; q <= i; q++)
        if (same_key(p, s, q, i))
            memcpy(v + (size_t)n++ * s->nattrs, s->values + (size_t)q * s->nattrs, (size_t)s->nattrs * sizeof *v);
    bool *det = calloc((size_t)n + 1, sizeof *det);
    Stream sub = {n, s->nattrs, v};
    interp_detect(p, &sub, NULL, det);
    bool d = n > 0 && det[n - 1];
    free(det);
    free(v);
    return d;
}

/* ---- stam and stnm by brute force ---- */

enum { BF_MAXM = 16, BF_MAXREGS = 4 };

typedef struct Brute {
    const AstPattern *p;
    const Stream     *s;
    AstRegex *const  *atoms;
    int               m;
    const int        *sub;      /* i's substream up to i (stream indices) */
    int               n;
    int               chain[BF_MAXM];   /* positions in sub */
    int               regs[BF_MAXM + 1][BF_MAXREGS]; /* before atom r (stream indices) */
    bool              found;
    int               best[BF_MAXM], best_regs[BF_MAXREGS];
} Brute;

/* Does atom r accept stream event k with the registers before it? */
static bool bf_accepts(const Brute *b, int r, int k)
{
    const AstRegex *a = b->atoms[r];
    const Value *regs[BF_MAXREGS];
    for (int g = 0; g < b->p->nregs; g++)
        regs[g] = b->regs[r][g] < 0 ? NULL : b->s->values + (size_t)b->regs[r][g] * b->s->nattrs;
    EvalCtx ctx = {b->s->values + (size_t)k * b->s->nattrs, regs, NULL, NULL};
    return a->atom == ATOM_ANY || eval_cond(a->cond, &ctx);
}

/* stnm's rule for the chain so far: each j_r is the first event after
 * j_{r-1} that atom r accepts. */
static bool bf_next_match(const Brute *b)
{
    for (int r = 1; r < b->m; r++)
        for (int q = b->chain[r - 1] + 1; q < b->chain[r]; q++)
            if (bf_accepts(b, r, b->sub[q]))
                return false;
    return true;
}

/* Every chain chain[0] < ... < chain[m-1] = n - 1; keeps the one the
 * policy picks: stam the smallest by explicit comparison, stnm the one
 * that obeys bf_next_match (there is at most one). */
static void bf_chains(Brute *b, int r)
{
    if (r == b->m) {
        if (b->chain[b->m - 1] != b->n - 1)
            return;
        bool pick = b->p->hdr.policy == POLICY_STNM ? bf_next_match(b) : !b->found;
        for (int q = 1; b->p->hdr.policy == POLICY_STAM && b->found && q < b->m && !pick; q++) {
            if (b->sub[b->chain[q]] != b->best[q]) {
                pick = b->sub[b->chain[q]] < b->best[q];
                break;
            }
        }
        if (pick) {
            b->found = true;
            for (int q = 0; q < b->m; q++)
                b->best[q] = b->sub[b->chain[q]];
            memcpy(b->best_regs, b->regs[b->m], sizeof b->best_regs);
        }
        return;
    }
    for (int q = b->chain[r - 1] + 1; q < b->n; q++) {
        if (!bf_accepts(b, r, b->sub[q]))
            continue;
        b->chain[r] = q;
        memcpy(b->regs[r + 1], b->regs[r], sizeof b->regs[r]);
        if (b->atoms[r]->reg >= 0)
            b->regs[r + 1][b->atoms[r]->reg] = b->sub[q];
        bf_chains(b, r + 1);
    }
}

/* The bindings of the chain from stream event start to i that the policy
 * picks, into regs; false if there is none. */
static bool bf_policy(const AstPattern *p, const Stream *s, int start, int i, int *regs)
{
    Brute *b = calloc(1, sizeof *b);
    int *sub = malloc((size_t)(i + 1) * sizeof *sub);
    b->p = p;
    b->s = s;
    b->atoms = p->body->kind == RX_SEQ ? p->body->kids : &p->body;
    b->m = p->body->kind == RX_SEQ ? p->body->nkids : 1;
    for (int q = start; q <= i; q++)
        if (same_key(p, s, q, i))
            sub[b->n++] = q;
    b->sub = sub;
    for (int g = 0; g < BF_MAXREGS; g++)
        b->regs[0][g] = -1;
    bool ok = false;
    if (b->m <= BF_MAXM && p->nregs <= BF_MAXREGS && bf_accepts(b, 0, start)) {
        b->chain[0] = 0;
        memcpy(b->regs[1], b->regs[0], sizeof b->regs[0]);
        if (b->atoms[0]->reg >= 0)
            b->regs[1][b->atoms[0]->reg] = start;
        bf_chains(b, 1);
        ok = b->found;
        memcpy(regs, b->best_regs, (size_t)p->nregs * sizeof *regs);
    }
    free(sub);
    free(b);
    return ok;
}

/* What is wrong with the canonical match at i, or NULL: it exists iff
 * interp_detect detects at i; its start is a match start (a detection on
 * the events from it) and the greatest (none on the events after it);
 * its bindings lie in [start, i], in i's partition, on events their atoms
 * accept. */
static const char *canon_fault(const AstPattern *p, const Stream *s, const bool *det, int i, const CanonMatch *m,
                               bool found)
{
    if (found != det[i])
        return found ? "a canonical match without a detection" : "a detection without a canonical match";
    if (!found)
        return NULL;
    if (m->start < 0 || m->start > i)
        return "start out of range";
    if (!detects_from(p, s, m->start, i))
        return "no match from start";
    int want[BF_MAXREGS];
    if (p->hdr.policy == POLICY_STRICT && !interp_has_match(p, s, NULL, m->start, i, m->bind))
        return "no match from start with these bindings";
    if (p->hdr.policy != POLICY_STRICT &&
        (!bf_policy(p, s, m->start, i, want) || memcmp(want, m->bind, (size_t)p->nregs * sizeof *want) != 0))
        return "not the chain of the policy";
    if (m->start < i && detects_from(p, s, m->start + 1, i))
        return "a later start matches";
    for (int r = 0; r < p->nregs; r++) {
        int b = m->bind[r];
        if (b < 0)
            continue;
        if (b < m->start || b > i)
            return "binding out of the match";
        if (!same_key(p, s, b, i))
            return "binding in another partition";
        bool checked = false;
        if (!bound_atom_holds(p->body, r, s->values + (size_t)b * s->nattrs, &checked) || !checked)
            return "bound event fails its atom";
    }
    return NULL;
}

/* The shrinker's predicate: some index of the case has a fault. */
static bool canon_fails(const char *src, const Value *values, int n, void *ctx)
{
    (void)ctx;
    Fixture fx;
    fx_run(&fx, src, true);
    const AstPattern *p = NULL;
    for (int d = 0; fx.nerrors == 0 && d < fx.ast->ndecls; d++)
        if (fx.ast->decls[d].kind == DECL_PATTERN)
            p = fx.ast->decls[d].u.pattern;
    bool fails = false;
    if (p) {
        Stream s = {n, GEN_NATTRS, values};
        bool *det = calloc((size_t)n + 1, sizeof *det);
        int *bind = calloc((size_t)p->nregs + 1, sizeof *bind);
        CanonMatch m = {0, bind};
        interp_detect(p, &s, NULL, det);
        for (int i = 0; i < n && !fails; i++)
            fails = canon_fault(p, &s, det, i, &m, interp_canonical(p, &s, NULL, i, &m)) != NULL;
        free(bind);
        free(det);
    }
    fx_done(&fx);
    return fails;
}

/* One random case through canon_fault (the shrinker on the first few
 * failures); false if the pattern does not check. */
static bool canon_case(const char *src, Value *v, int len, uint64_t seed, int c, long *matches, long *failed)
{
    Fixture fx;
    fx_run(&fx, src, true);
    const AstPattern *p = fx.nerrors ? NULL : fx_first_pattern(&fx);
    if (!p || p->nregs > BF_MAXREGS) {
        fx_done(&fx);
        return false;
    }
    Stream s = {len, GEN_NATTRS, v};
    bool *det = calloc((size_t)len, sizeof *det);
    int bind[BF_MAXREGS];
    CanonMatch m = {0, bind};
    interp_detect(p, &s, NULL, det);
    const char *fault = NULL;
    int at = 0;
    for (int i = 0; i < len && !fault; i++) {
        bool found = interp_canonical(p, &s, NULL, i, &m);
        *matches += found;
        fault = canon_fault(p, &s, det, i, &m, found);
        at = i;
    }
    if (fault && (*failed)++ < 3) {
        fprintf(stderr, "\npattern %d (seed %" PRIu64 "): %s at event %d\n%s", c, seed, fault, at,
                strstr(src, "pattern"));
        char what[96];
        snprintf(what, sizeof what, "canonical match, pattern %d of the sequence from seed", c);
        shrink_report(what, seed, src, v, len, canon_fails, NULL, 0);
    }
    free(det);
    fx_done(&fx);
    return true;
}

/* Thousands of random patterns of every kind (registers, ~, &, time
 * windows, partitions, policies, chains): canon_fault finds nothing. */
static void test_canon_random(void)
{
    enum { LEN = 12, SEED = 1515 };
    const int N = 3000 * diff_scale();
    Rng r = {SEED};
    char buf[2048];
    long compared = 0, failed = 0, matches = 0;
    for (int c = 0; c < N; c++) {
        GenOpts o = {true, true, true, true, true, true, 3, 6, c % 5 == 0};
        gen_pattern(&r, &o, buf, sizeof buf);
        Value v[LEN * GEN_NATTRS];
        gen_stream(&r, LEN, v);
        compared += canon_case(buf, v, LEN, SEED, c, &matches, &failed);
    }
    diff_summary("canon-detect", compared, N - compared, failed);
    CU_ASSERT(compared > N * 9 / 10);
    CU_ASSERT(matches > N);
    CU_ASSERT_EQUAL(failed, 0);
}

/* stam and stnm on sequences of 2 to 5 atoms, labels x and y anywhere
 * (rewritten too), conditions on what earlier atoms stored: the chain each
 * policy picks, against bf_policy. */
static void test_canon_random_chains(void)
{
    enum { LEN = 12, SEED = 2026 };
    static const char *const plain[] = {"A", "B", "C", "_", "[v > 1]"};
    static const char *const reads[] = {"[v > x.v]", "[v == y.v]", "[t == x.t]", "[k != y.k]"};
    const int N = 2000 * diff_scale();
    Rng r = {SEED};
    long compared = 0, failed = 0, matches = 0;
    for (int c = 0; c < N; c++) {
        char buf[1024];
        int len = snprintf(buf, sizeof buf, "%spattern p on E%s within %d %s policy %s {", GEN_SCHEMA,
                           rng_int(&r, 0, 3) ? "" : " partition by k", rng_int(&r, 2, 10),
                           rng_int(&r, 0, 2) ? "events" : "s", rng_int(&r, 0, 1) ? "stam" : "stnm");
        unsigned written = 0;
        for (int a = rng_int(&r, 2, 5); a > 0; a--) {
            int label = rng_int(&r, -1, 1), pick = rng_int(&r, 0, 8);
            const char *atom = plain[pick % 5];
            if (pick >= 5 && (written & (1u << (pick - 5) % 2)))
                atom = reads[pick - 5]; /* x for 0 and 2, y for 1 and 3 */
            len += snprintf(buf + len, sizeof buf - (size_t)len, " %s%s", label < 0 ? "" : label ? "y:" : "x:", atom);
            if (label >= 0)
                written |= 1u << label;
        }
        snprintf(buf + len, sizeof buf - (size_t)len, " }\n");
        Value v[LEN * GEN_NATTRS];
        gen_stream(&r, LEN, v);
        compared += canon_case(buf, v, LEN, SEED, c, &matches, &failed);
    }
    diff_summary("canon-chains", compared, N - compared, failed);
    CU_ASSERT(compared > N * 9 / 10);
    CU_ASSERT(matches > N);
    CU_ASSERT_EQUAL(failed, 0);
}

void add_canon_tests(void)
{
    CU_pSuite suite = CU_add_suite("canon", NULL, NULL);
    CU_add_test(suite, "canon: alternation left first", test_canon_alternation);
    CU_add_test(suite, "canon: greatest start, greedy repetition", test_canon_greedy);
    CU_add_test(suite, "canon: empty iterations", test_canon_empty_iterations);
    CU_add_test(suite, "canon: last binding", test_canon_last_binding);
    CU_add_test(suite, "canon: & and ~", test_canon_and_not);
    CU_add_test(suite, "canon: stam and stnm", test_canon_policies);
    CU_add_test(suite, "canon: windows", test_canon_windows);
    CU_add_test(suite, "canon: partitions", test_canon_partition);
    CU_add_test(suite, "canon: the examples of the reference", test_canon_docs);
    CU_add_test(suite, "canon: against interp_detect on random patterns", test_canon_random);
    CU_add_test(suite, "canon: random stam and stnm chains against brute force", test_canon_random_chains);
}
