/* test_interp.c: condition evaluation (eval_cond) and the reference
 * interpreter on hand-computed streams; smoke test of the random generators. */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../diff/gen.h"
#include "../diff/shrink.h"
#include "eval.h"
#include "interp.h"
#include "unit.h"

/* ---- eval_cond ------------------------------------------------------------------ */

static const char *const schema_x =
    "schema X { t : enum { A, B, C }; v : int; k : int; f : float; ok : bool; time : timestamp(s); }\n"
    "extern bool near(float, float);\n"
    "extern int twice(int);\n"
    "extern float half(float);\n";
enum { X_T, X_V, X_K, X_F, X_OK, X_TIME, X_NATTRS };

typedef struct XEvent {
    Value a[X_NATTRS];
} XEvent;

static XEvent xev(int t, int64_t v, int64_t k, double f, int64_t ok)
{
    XEvent e;
    e.a[X_T].i = t;
    e.a[X_V].i = v;
    e.a[X_K].i = k;
    e.a[X_F].f = f;
    e.a[X_OK].i = ok;
    e.a[X_TIME].i = 0;
    return e;
}

/* The test externs; user counts the calls. */
static Value test_call(void *user, const AstExtern *ext, const Value *args)
{
    int *calls = user;
    Value r;
    (*calls)++;
    if (strcmp(ext->name, "near") == 0)
        r.i = fabs(args[0].f - args[1].f) < 1.0;
    else if (strcmp(ext->name, "twice") == 0)
        r.i = args[0].i * 2;
    else
        r.f = args[0].f / 2;
    return r;
}

/* eval_cond of [cond] on event e with registers x and y (NULL: empty);
 * -1 if the condition does not check. */
static int eval_on(const char *cond, const XEvent *e, const XEvent *x, const XEvent *y, const ExternTable *ext)
{
    char src[2048];
    snprintf(src, sizeof src, "%spattern p on X within 5 events { x:_ y:_ [%s] }\n", schema_x, cond);
    Fixture fx;
    fx_run(&fx, src, true);
    const AstPattern *p = fx_first_pattern(&fx);
    int result = -1;
    if (p) {
        const Value *regs[2] = {x ? x->a : NULL, y ? y->a : NULL};
        EvalCtx ctx = {e->a, regs, NULL, ext};
        result = eval_cond(p->body->kids[2]->cond, &ctx);
    }
    fx_done(&fx);
    return result;
}

#define EVAL(cond, e, x, y, ext, want)                                                          \
    do {                                                                                        \
        int got_ = eval_on((cond), (e), (x), (y), (ext));                                       \
        if (got_ != (want))                                                                     \
            fprintf(stderr, "\nline %d: [%s] gave %d, want %d\n", __LINE__, (cond), got_, (want)); \
        CU_ASSERT_EQUAL(got_, (want));                                                          \
    } while (0)
#define EV(cond, e, want) EVAL(cond, e, NULL, NULL, NULL, want)

static void test_eval_wrapping(void)
{
    XEvent max = xev(0, INT64_MAX, 0, 0, 0), min = xev(0, INT64_MIN, -1, 0, 0);
    EV("v + 1 < v", &max, 1);                          /* 2^63 wraps to -2^63 */
    EV("v + 1 == -9223372036854775808", &max, 1);
    EV("v * 2 == -2", &max, 1);                        /* 2^64 - 2 = -2 mod 2^64 */
    EV("-v == v", &min, 1);                            /* -(-2^63) wraps to itself */
    EV("v - 1 == 9223372036854775807", &min, 1);
    EV("v * -1 == v", &min, 1);
    EV("v == -9223372036854775808", &min, 1);          /* the literal itself */
    EV("v / -1 == v", &min, 1);                        /* INT64_MIN / -1 = INT64_MIN */
    EV("v % -1 == 0", &min, 1);
    EV("v / k == v && v % k == 0", &min, 1);           /* the same through attributes */
}

static void test_eval_division(void)
{
    XEvent a = xev(0, -7, 2, 0, 0), b = xev(0, 7, -2, 0, 0), zero = xev(0, 5, 0, 1.0, 0);
    EV("v / k == -3", &a, 1);                          /* truncates toward zero */
    EV("v % k == -1", &a, 1);                          /* sign of the dividend */
    EV("v / k == -3", &b, 1);
    EV("v % k == 1", &b, 1);
    /* a zero divisor anywhere makes the whole condition false */
    EV("v / k == 0 || true", &zero, 0);
    EV("true || v % k == 1", &zero, 0);
    EV("!(v / k > 0)", &zero, 0);
    EV("(v / k) * 0 == 0", &zero, 0);
    EV("k == 0 && v > 1", &zero, 1);                   /* no division: fine */
    EV("v / (k - k) >= 0 || true", &a, 0);             /* a computed zero too */
    /* float division by zero is IEEE, not undefined */
    EV("f / 0 > 1000", &zero, 1);                      /* 1.0 / 0 = +inf */
    EV("-v / 0.0 < -1000", &zero, 1);                  /* -5.0 / 0.0 = -inf */
}

static void test_eval_empty_register(void)
{
    XEvent e = xev(1, 3, 0, 0, 0), same = xev(0, 3, 0, 0, 0), other = xev(0, 4, 0, 0, 0);
    EVAL("!(v == x.v)", &e, NULL, NULL, NULL, 0);      /* x empty: false, whatever the form */
    EVAL("!(v == x.v)", &e, &same, NULL, NULL, 0);     /* 3 == 3 */
    EVAL("!(v == x.v)", &e, &other, NULL, NULL, 1);    /* 3 != 4 */
    EVAL("t == B || v == x.v", &e, NULL, NULL, NULL, 0);
    EVAL("t == B || v == x.v", &e, &other, NULL, NULL, 1);
    EVAL("true || y.v > 0", &e, &other, NULL, NULL, 0); /* y empty */
    EVAL("x.v < y.v", &e, &same, &other, NULL, 1);
    /* an extern whose argument is undefined is not called */
    int calls = 0;
    ExternTable t = {test_call, &calls};
    EVAL("twice(x.v) == 0 || true", &e, NULL, NULL, &t, 0);
    CU_ASSERT_EQUAL(calls, 0);
}

static void test_eval_float(void)
{
    XEvent nan_ = xev(0, 2, 0, NAN, 0), inf = xev(0, 3, 0, INFINITY, 0), two = xev(0, 3, 0, 2.0, 0);
    EV("f != f", &nan_, 1);                            /* only != holds with NaN */
    EV("f == f", &nan_, 0);
    EV("f < 1 || f >= 1", &nan_, 0);
    EV("!(f < 1)", &nan_, 1);
    EV("f > 1e300", &inf, 1);
    EV("v + 0.5 > 2", &nan_, 1);                       /* 2 promoted: 2.5 > 2 */
    EV("v / 2 * 2.0 == 2", &inf, 1);                   /* int 3 / 2 = 1 first, then 1 * 2.0 */
    EV("v / 2.0 == 1.5", &inf, 1);                     /* promoted before dividing */
    EV("f == 2", &two, 1);
    EV("-f == -2.0", &two, 1);
    EV("f * 0.5 - 1 == 0", &two, 1);
}

static void test_eval_enum_bool(void)
{
    XEvent e = xev(1, 0, 0, 0, 1), xb = xev(1, 0, 0, 0, 0), odd = xev(2, 0, 0, 0, 7);
    EV("t == B", &e, 1);                               /* B is value index 1 */
    EV("t != B", &e, 0);
    EV("t == \"B\"", &e, 1);
    EVAL("t == x.t", &e, &xb, NULL, NULL, 1);
    EVAL("x.t == C", &e, &xb, NULL, NULL, 0);
    EV("ok", &e, 1);
    EV("ok == false", &e, 0);
    EV("!ok", &e, 0);
    EV("ok == true && t == C", &odd, 1);               /* a stored 7 reads as true */
    EVAL("ok != x.ok", &e, &xb, NULL, NULL, 1);
}

static void test_eval_extern(void)
{
    int calls = 0;
    ExternTable t = {test_call, &calls};
    XEvent two = xev(0, 2, 0, 0, 0), three = xev(0, 3, 0, 0, 0), four = xev(0, 4, 0, 0, 0);
    EVAL("near(v, 2.5)", &two, NULL, NULL, &t, 1);     /* |2 - 2.5| < 1 */
    EVAL("near(v, 2.5)", &four, NULL, NULL, &t, 0);
    EVAL("twice(v) == 6", &three, NULL, NULL, &t, 1);
    EVAL("half(v) == 1.5", &three, NULL, NULL, &t, 1); /* int argument converted to float */
    CU_ASSERT_EQUAL(calls, 4);
    /* no table: every call returns 0 / false */
    EV("twice(v) == 0", &three, 1);
    EV("near(v, 3)", &three, 0);
    EV("half(f) == 0", &three, 1);
}

static void test_eval_regmap(void)
{
    Fixture fx;
    char src[1024];
    snprintf(src, sizeof src, "%spattern p on X within 5 events { x:_ y:_ [x.v == 5 && y.v == 7] }\n", schema_x);
    fx_run(&fx, src, true);
    const AstPattern *p = fx_first_pattern(&fx);
    if (p) {
        XEvent e = xev(0, 0, 0, 0, 0), five = xev(0, 5, 0, 0, 0), seven = xev(0, 7, 0, 0, 0);
        const Value *regs[3] = {seven.a, NULL, five.a};
        int map[2] = {2, 0}; /* x lives in slot 2, y in slot 0 */
        EvalCtx ctx = {e.a, regs, map, NULL};
        CU_ASSERT_TRUE(eval_cond(p->body->kids[2]->cond, &ctx));
        int swapped[2] = {0, 2};
        ctx.regmap = swapped;
        CU_ASSERT_FALSE(eval_cond(p->body->kids[2]->cond, &ctx));
        int empty[2] = {1, 0}; /* x in the empty slot */
        ctx.regmap = empty;
        CU_ASSERT_FALSE(eval_cond(p->body->kids[2]->cond, &ctx));
    }
    fx_done(&fx);
}

/* ---- the interpreter on schema S ------------------------------------------------- */

const char *const schema_s = "schema S { t : enum { A, B, C }; v : int; k : int; time : timestamp(s); }\n";

/* Events from tokens `T[v][/k][@time]` (t in A B C; v, k default 0; time
 * defaults to the event's 0-based index): "A1 B2/1 C@5". */
void events(Events *ev, const char *spec)
{
    ev->n = 0;
    const char *s = spec;
    while (*s && ev->n < S_MAX) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        Value *e = ev->v + (size_t)ev->n * S_NATTRS;
        e[S_T].i = *s++ - 'A';
        e[S_V].i = e[S_K].i = 0;
        e[S_TIME].i = ev->n;
        int used = 0;
        long long x;
        if (sscanf(s, "%lld%n", &x, &used) == 1 && (*s == '-' || (*s >= '0' && *s <= '9'))) {
            e[S_V].i = x;
            s += used;
        }
        if (*s == '/' && sscanf(s + 1, "%lld%n", &x, &used) == 1) {
            e[S_K].i = x;
            s += 1 + used;
        }
        if (*s == '@' && sscanf(s + 1, "%lld%n", &x, &used) == 1) {
            e[S_TIME].i = x;
            s += 1 + used;
        }
        ev->n++;
    }
}

/* Detections as a string with one '0' or '1' per event. */
static void detections(const char *schema, const char *pattern, const Value *values, int n, int nattrs, char *out)
{
    char src[4096];
    snprintf(src, sizeof src, "%s%s", schema, pattern);
    Fixture fx;
    fx_run(&fx, src, true);
    const AstPattern *p = fx_first_pattern(&fx);
    strcpy(out, "(does not check)");
    if (p) {
        bool det[S_MAX];
        Stream s = {n, nattrs, values};
        interp_detect(p, &s, NULL, det);
        for (int i = 0; i < n; i++)
            out[i] = det[i] ? '1' : '0';
        out[n] = '\0';
    }
    fx_done(&fx);
}

static void expect_det(int line, const char *pattern, const char *spec, const char *want)
{
    Events ev;
    events(&ev, spec);
    char got[S_MAX + 32];
    detections(schema_s, pattern, ev.v, ev.n, S_NATTRS, got);
    if (strcmp(got, want) != 0)
        fprintf(stderr, "\nline %d: %s on \"%s\": want %s, got %s\n", line, pattern, spec, want, got);
    CU_ASSERT_STRING_EQUAL(got, want);
}

#define DET(pattern, spec, want) expect_det(__LINE__, "pattern p on S " pattern, spec, want)

/* docs/language.md's fire pattern on a hand-made Sensor stream. */
static void test_interp_fire(void)
{
    static const char *const sensor =
        "schema Sensor { type : enum { T, H }; id : int; value : float; ok : bool; time : timestamp(ms); }\n";
    /* type (T 0, H 1), id, value */
    static const struct { int type, id; double value; } in[] = {
        {0, 1, 0},  /* 0 T id1: x candidate */
        {1, 2, 70}, /* 1 H id2: no T with id 2 before */
        {1, 1, 50}, /* 2 H id1: 50 <= 60 */
        {1, 1, 65}, /* 3 H id1 65: x = 0, length 4 -> detection */
        {0, 2, 0},  /* 4 T id2 */
        {1, 2, 61}, /* 5 H id2 61: x = 4 -> detection */
        {0, 3, 0},  /* 6 T id3 */
        {0, 3, 0},  /* 7 */
        {0, 3, 0},  /* 8 */
        {1, 1, 99}, /* 9 H id1: x = 0, length exactly 10 -> detection */
        {1, 1, 99}, /* 10 H id1: x = 0 would be length 11 -> none */
        {1, 3, 61}, /* 11 H id3: x = 6, length 6 -> detection */
    };
    enum { N = sizeof in / sizeof in[0] };
    Value v[N * 5];
    for (int i = 0; i < N; i++) {
        v[i * 5 + 0].i = in[i].type;
        v[i * 5 + 1].i = in[i].id;
        v[i * 5 + 2].f = in[i].value;
        v[i * 5 + 3].i = 1;
        v[i * 5 + 4].i = 1000 * i;
    }
    char got[64];
    detections(sensor,
               "pattern fire on Sensor within 10 events {\n"
               "    x:T  _*  [type == H && id == x.id && value > 60]\n"
               "}\n",
               v, N, 5, got);
    CU_ASSERT_STRING_EQUAL(got, "000101000101");
}

/* Stream S1 (indices 0..9): A B C A C B B B C A. */
#define S1 "A B C A C B B B C A"

static void test_interp_operators(void)
{
    DET("{ A B? C }", S1, "0010100000");               /* A B C at 0..2, A C at 3..4 */
    DET("{ A | C }", S1, "1011100011");
    DET("{ A B* }", S1, "1101000001");                 /* A, A B; B at 5 follows C */
    DET("{ B+ C }", S1, "0010000010");                 /* B C at 1..2, B B B C at 5..8 */
    DET("{ B{2} }", S1, "0000001100");                 /* B B ending at 6 and 7 */
    DET("{ B{2,} C }", S1, "0000000010");              /* only 5..8 has two B's */
    DET("{ C B{2,} C }", S1, "0000000010");            /* C B B B C at 4..8 */
    DET("{ A B? C }", "A B B C", "0000");              /* at most one B */
    DET("{ A B{0,2} C }", "A B B C", "0001");
    DET("{ C B{1,2} C }", S1, "0000000000");           /* C B B B C: three B's */
    DET("{ C B{1,3} C }", S1, "0000000010");
    DET("{ C B{1,} C }", S1, "0000000010");
    DET("{ C B{2} C }", S1, "0000000000");
    DET("{ (A _*) & (_* C) }", S1, "0010100010");      /* from an A to a C */
    DET("{ (A _) & (_ C) }", S1, "0000100000");        /* A C at 3..4 */
    DET("{ A & (A B) }", S1, "0000000000");            /* different lengths */
}

/* A match must be non-empty even when the regex accepts the empty string. */
static void test_interp_nullable(void)
{
    DET("{ A* }", "A B A", "101");
    DET("{ B? }", "A B A", "010");
    DET("{ A* B* }", "B A C", "110");
    DET("{ (A?){3,} }", "A B A", "101");               /* nullable body, iterations that consume nothing */
}

static void test_interp_complement(void)
{
    DET("within 2 events { ~(_ _) }", S1, "1111111111"); /* every single event */
    DET("within 2 events { ~_ }", S1, "0111111111");      /* exactly two events */
    DET("within 3 events { ~(_* B _*) }", S1, "1011100011"); /* no B: the last event is not B */
    /* A, one to three events other than the single "B", then C; length <= 5:
     * 0..2 is A B C (excluded), 0..4 is A [B C A] C */
    DET("within 5 events { A ~B C }", S1, "0000100000");
    /* ~ reads a register: 1 is x = e0 then e1 with the same v (excluded);
     * 2 is x = e1 then e2 with another v, or x = e0 then two events */
    DET("within 3 events { x:_ ~[v == x.v] }", "A1 A1 A2", "001");
    /* x is empty inside ~, so R never holds and ~R is any 1..3 events */
    DET("within 3 events { ~[v == x.v] x:_ }", "A1 A1 A2", "011");
}

static void test_interp_count_window(void)
{
    /* A at 0, B at 3: length 4; A at 4, B at 8: length 5 */
    DET("within 4 events { A _* B }", "A C C B A C C C B", "000100000");
    DET("within 3 events { A _* B }", "A C C B A C C C B", "000000000");
    DET("within 5 events { A _* B }", "A C C B A C C C B", "000100001");
    DET("{ A _* B }", "A C C B A C C C B", "000100001");
}

static void test_interp_time_window(void)
{
    /* 2: 3 - 0 = 3; 4: 14 - 10 = 4; 7: 24 - 21 = 3 (from 20: 4) */
    DET("within 3 s { A _* B }", "A@0 C@1 B@3 A@10 B@14 A@20 A@21 B@24", "00100001");
    DET("within 4 s { A _* B }", "A@0 C@1 B@3 A@10 B@14 A@20 A@21 B@24", "00101001");
    /* equal timestamps: 3 is 6 - 5 = 1 after the A; 4 would need a B at 0 */
    DET("within 1 s { A B B B }", "A@5 B@5 B@5 B@6 B@7", "00010");
}

static void test_interp_registers(void)
{
    /* 1: 2 > x=1; 3: 2 > 3 fails; 4: 5 > x=2; 6: 5 > 5 fails */
    DET("within 5 events { x:A [v > x.v] }", "A1 B2 A3 A2 C5 A5 A5", "0100100");
    /* the condition of x:[...] sees x before the store: empty, so false */
    DET("within 5 events { x:[v > x.v] }", "A1 B2 A3", "000");
    DET("within 5 events { x:[!(v > x.v)] }", "A1 B2 A3", "000");
    /* x holds the event just before the last one */
    DET("within 5 events { (x:_)+ [v == x.v] }", "A1 A2 A2 A3 A3 A3", "001011");
    /* x from one operand of &, y from the other: 3: 1 + 2 = 3; 7: 1 + 1 = 2 */
    DET("within 4 events { ((x:A _ _) & (_ y:_ _)) [v == x.v + y.v] }", "A1 B2 C0 B3 A1 C1 C0 B2", "00010001");
}

/* The same stream under strict, stnm and stam: A B C A A B B C C. */
static void test_interp_policies(void)
{
    const char *s = "A B C A A B B C C";
    DET("within 5 events { A B C }", s, "001000000");               /* contiguous only */
    DET("within 5 events policy strict { A B C }", s, "001000000");
    DET("within 5 events policy stnm { A B C }", s, "001000010");   /* chains 0,1,2 and 3|4,5,7 */
    DET("within 5 events policy stam { A B C }", s, "001000011");   /* 8 via 4,5|6,8 */
    DET("policy stam { ((A) B (C)) }", s, "001000011");     /* parentheses allowed */
    /* stnm takes the first event above x; stam any */
    DET("within 6 events policy stnm { x:A [v > x.v] }", "A1 B0 B3 C5", "0010");
    DET("within 6 events policy stam { x:A [v > x.v] }", "A1 B0 B3 C5", "0011");
    /* stam window from j_1: A at 0 and B at 3 are 4 events apart */
    DET("within 3 events policy stam { A B }", "A C C B A B", "000001");
    DET("within 2 s policy stnm { A B }", "A@0 C@1 B@3 A@4 B@6", "00001");
    DET("policy stnm { A }", "A B A", "101");
}

static void test_interp_partition(void)
{
    DET("partition by k within 2 events { A B }", "A/1 A/2 B/1 B/2", "0011");
    DET("within 2 events { A B }", "A/1 A/2 B/1 B/2", "0010");
    /* key 1: A(0) B(4) C(6) C(7) B(8); 4 is 2 events into its substream */
    DET("partition by k within 3 events { A _* B }", "A/1 C/2 C/2 C/2 B/1 A/2 C/1 C/1 B/1", "000010000");
    DET("within 3 events { A _* B }", "A/1 C/2 C/2 C/2 B/1 A/2 C/1 C/1 B/1", "000000000");
    /* by type: A's are 1 2 3, B's 5 4 */
    DET("partition by t within 3 events { x:_ [v > x.v] }", "A1 B5 A2 B4 A3", "00101");
    DET("within 3 events { x:_ [v > x.v] }", "A1 B5 A2 B4 A3", "01010");
    DET("partition by k policy stnm { A B }", "A/1 A/2 B/2 B/1", "0011");
    DET("policy stnm { A B }", "A/1 A/2 B/2 B/1", "0010");
}

/* interp_absent as "i>k" per match at i whose absent record is at k ('$':
 * the end of input, --flush-absent), in match order. */
static void expect_absent(int line, const char *pattern, const char *spec, const char *want)
{
    Events ev;
    events(&ev, spec);
    char src[4096], got[512] = "(does not check)";
    snprintf(src, sizeof src, "%s%s", schema_s, pattern);
    Fixture fx;
    fx_run(&fx, src, true);
    const AstPattern *p = fx_first_pattern(&fx);
    if (p) {
        int at[S_MAX];
        size_t len = 0;
        Stream st = {ev.n, S_NATTRS, ev.v};
        interp_absent(p, &st, NULL, at);
        got[0] = '\0';
        for (int i = 0; i < ev.n; i++)
            if (at[i] >= 0 && at[i] < ev.n)
                len += (size_t)snprintf(got + len, sizeof got - len, "%s%d>%d", len ? " " : "", i, at[i]);
            else if (at[i] == ev.n)
                len += (size_t)snprintf(got + len, sizeof got - len, "%s%d>$", len ? " " : "", i);
    }
    fx_done(&fx);
    if (strcmp(got, want) != 0)
        fprintf(stderr, "\nline %d: %s on \"%s\": want %s, got %s\n", line, pattern, spec, want, got);
    CU_ASSERT_STRING_EQUAL(got, want);
}

#define ABS(pattern, spec, want) expect_absent(__LINE__, "pattern p on S " pattern, spec, want)

/* docs/language.md 3.7, on hand-computed streams. */
static void test_interp_absent(void)
{
    /* 0: the B at 2 is in the window 0..2; 3: 4, 5 are not B, 6 closes;
       6: open at the end */
    ABS("within 3 events { A } absent [t == B]", "A C B A C C A C", "3>6 6>$");
    /* 3: deadline 5; key 2's C@6 closes it (time: any key), the B@6 is late */
    ABS("partition by k within 2 s { A } absent [t == B]", "A/1@0 C/2@1 B/1@2 A/1@3 C/2@4 C/2@6 B/1@6", "3>5");
    /* count: only key 1's events count; its B at 5 is past the window */
    ABS("partition by k within 2 events { A } absent [t == B]", "A/1 C/2 C/2 C/2 C/1 B/1", "0>5");
    /* 1: x = 0, y = 1, C3 = 1 + 2 meets it; 4: start 3 (0 is too far),
       x = 3, y = 4, neither C5 nor C3 is 2 */
    ABS("within 4 events { x:A _* y:B } absent [t == C && v == x.v + y.v]", "A1 B2 C3 A1 B1 C5 C3", "4>$");
    /* the canonical parse's register: start 1 (the greatest), x = A2; with
       x = A1 the C1 would meet it */
    ABS("within 5 events { (x:_)+ B } absent [v == x.v]", "A1 A2 B0 C1", "2>$");
    /* x empty in the B branch: the condition never holds */
    ABS("within 3 events { x:A | B } absent [v == x.v]", "B1 C1 C1 C1", "0>3");
    /* stam: 2 and 3 both start at 1 (the greatest first index), so the
       window 1..3 of each is closed by 4 */
    ABS("within 4 events policy stam { A B } absent [t == C]", "A A B B C", "");
    ABS("within 3 events policy stam { A B } absent [t == C]", "A A B B A A", "2>4 3>4");
}

/* ---- a second, independent oracle ---------------------------------------------------- */

/* A naive backtracking recognizer in continuation-passing style, written
 * differently from interp.c on purpose (no outcome sets, registers merged
 * by "changed" rather than by write sets): detection at i iff some window
 * start j has body match e_j..e_i exactly. Strict policy only; partitions
 * by copying each substream. Exponential, fine on 12 events. */
enum { NV_MAXREGS = 8 };

typedef struct Naive {
    const AstPattern *p;
    const Value      *values;
    int               nattrs;
    int               n;       /* events e_0 .. e_{n-1} may be consumed */
} Naive;

typedef struct NK NK;
struct NK {
    bool (*fn)(Naive *nv, const NK *k, int pos, const int *regs);
    const NK       *next;
    const AstRegex *r;
    int64_t         t, min, max; /* repetitions */
    int             i;           /* kid index */
    int             start, end;
    const int      *in, *acc;    /* &: registers before it, merged so far */
};

static bool nv_match(Naive *nv, const AstRegex *r, int pos, const int *regs, const NK *k);

static bool nk_exact(Naive *nv, const NK *k, int pos, const int *regs)
{
    (void)nv;
    (void)regs;
    return pos == k->end;
}

static bool nv_atom(Naive *nv, const AstRegex *r, int pos, const int *regs, const NK *k)
{
    if (pos >= nv->n)
        return false;
    const Value *rv[NV_MAXREGS];
    for (int g = 0; g < nv->p->nregs; g++)
        rv[g] = regs[g] < 0 ? NULL : nv->values + (size_t)regs[g] * (size_t)nv->nattrs;
    EvalCtx ctx = {nv->values + (size_t)pos * (size_t)nv->nattrs, rv, NULL, NULL};
    if (r->atom != ATOM_ANY && !eval_cond(r->cond, &ctx))
        return false;
    int after[NV_MAXREGS];
    memcpy(after, regs, sizeof after);
    if (r->reg >= 0)
        after[r->reg] = pos;
    return k->fn(nv, k, pos + 1, after);
}

static bool nv_seq(Naive *nv, const AstRegex *r, int i, int pos, const int *regs, const NK *k);
static bool nk_seq(Naive *nv, const NK *c, int pos, const int *regs) { return nv_seq(nv, c->r, c->i, pos, regs, c->next); }

static bool nv_seq(Naive *nv, const AstRegex *r, int i, int pos, const int *regs, const NK *k)
{
    if (i == r->nkids)
        return k->fn(nv, k, pos, regs);
    NK c = {nk_seq, k, r, 0, 0, 0, i + 1, 0, 0, NULL, NULL};
    return nv_match(nv, r->kids[i], pos, regs, &c);
}

static bool nv_rep(Naive *nv, const AstRegex *body, int64_t min, int64_t max, int64_t t, int pos, const int *regs,
                   const NK *k);

/* After one more iteration: one that consumed nothing changed nothing, so
 * it only helps to reach the minimum. */
static bool nk_rep(Naive *nv, const NK *c, int pos, const int *regs)
{
    int64_t t = c->t + 1;
    if (pos == c->start) {
        if (t > c->min)
            return false;
        t = c->min;
    }
    return nv_rep(nv, c->r, c->min, c->max, t, pos, regs, c->next);
}

static bool nv_rep(Naive *nv, const AstRegex *body, int64_t min, int64_t max, int64_t t, int pos, const int *regs,
                   const NK *k)
{
    if (t >= min && k->fn(nv, k, pos, regs))
        return true;
    if (max >= 0 && t >= max)
        return false;
    NK c = {nk_rep, k, body, t, min, max, 0, pos, 0, NULL, NULL};
    return nv_match(nv, body, pos, regs, &c);
}

static bool nv_and(Naive *nv, const AstRegex *r, int i, int start, int end, const int *in, const int *acc,
                   const NK *k);

/* Kid c->i matched [start, pos): it must end where kid 0 did; a register
 * it changed is its write (the operands write disjoint registers). */
static bool nk_and(Naive *nv, const NK *c, int pos, const int *regs)
{
    if (pos != c->end)
        return false;
    int m[NV_MAXREGS];
    for (int g = 0; g < NV_MAXREGS; g++)
        m[g] = regs[g] != c->in[g] ? regs[g] : c->acc[g];
    return nv_and(nv, c->r, c->i + 1, c->start, c->end, c->in, m, c->next);
}

static bool nk_and0(Naive *nv, const NK *c, int pos, const int *regs)
{
    return nv_and(nv, c->r, 1, c->start, pos, c->in, regs, c->next);
}

static bool nv_and(Naive *nv, const AstRegex *r, int i, int start, int end, const int *in, const int *acc,
                   const NK *k)
{
    if (i == r->nkids)
        return k->fn(nv, k, end, acc);
    NK c = {nk_and, k, r, 0, 0, 0, i, start, end, in, acc};
    return nv_match(nv, r->kids[i], start, in, &c);
}

static bool nv_match(Naive *nv, const AstRegex *r, int pos, const int *regs, const NK *k)
{
    switch (r->kind) {
    case RX_ATOM:   return nv_atom(nv, r, pos, regs, k);
    case RX_SEQ:    return nv_seq(nv, r, 0, pos, regs, k);
    case RX_STAR:   return nv_rep(nv, r->kids[0], 0, -1, 0, pos, regs, k);
    case RX_PLUS:   return nv_rep(nv, r->kids[0], 1, -1, 0, pos, regs, k);
    case RX_OPT:    return nv_rep(nv, r->kids[0], 0, 1, 0, pos, regs, k);
    case RX_REPEAT: return nv_rep(nv, r->kids[0], r->min, r->max, 0, pos, regs, k);
    case RX_ALT:
        for (int i = 0; i < r->nkids; i++)
            if (nv_match(nv, r->kids[i], pos, regs, k))
                return true;
        return false;
    case RX_AND: {
        NK c = {nk_and0, k, r, 0, 0, 0, 0, pos, 0, regs, NULL};
        return nv_match(nv, r->kids[0], pos, regs, &c);
    }
    case RX_NOT: {
        int64_t w = nv->p->hdr.window.value;
        for (int e = pos + 1; e <= nv->n && e - pos <= w; e++) {
            NK exact = {nk_exact, NULL, NULL, 0, 0, 0, 0, 0, e, NULL, NULL};
            if (!nv_match(nv, r->kids[0], pos, regs, &exact) && k->fn(nv, k, e, regs))
                return true;
        }
        return false;
    }
    }
    return false;
}

static bool nv_window(const AstPattern *p, const Value *values, int nattrs, int j, int i)
{
    const AstWindow *w = &p->hdr.window;
    if (w->kind == WIN_EVENTS)
        return i - j + 1 <= w->value;
    if (w->kind == WIN_TIME) {
        int ts = p->schema->ts_attr;
        return values[(size_t)i * nattrs + ts].i - values[(size_t)j * nattrs + ts].i <= w->value;
    }
    return true;
}

static void naive_plain(const AstPattern *p, const Value *values, int n, int nattrs, bool *det)
{
    int empty[NV_MAXREGS];
    for (int g = 0; g < NV_MAXREGS; g++)
        empty[g] = -1;
    for (int i = 0; i < n; i++) {
        det[i] = false;
        for (int j = 0; j <= i && !det[i]; j++) {
            if (!nv_window(p, values, nattrs, j, i))
                continue;
            Naive nv = {p, values, nattrs, i + 1};
            NK exact = {nk_exact, NULL, NULL, 0, 0, 0, 0, 0, i + 1, NULL, NULL};
            det[i] = nv_match(&nv, p->body, j, empty, &exact);
        }
    }
}

/* Whether events a and b have the same partition key: every key attribute equal. */
static bool naive_same_key(const AstPattern *p, const Value *values, int nattrs, int a, int b)
{
    for (int j = 0; j < p->npartition; j++) {
        int x = p->partition_attrs[j]->index;
        if (values[(size_t)a * nattrs + x].i != values[(size_t)b * nattrs + x].i)
            return false;
    }
    return true;
}

static void naive_detect(const AstPattern *p, const Value *values, int n, int nattrs, bool *det)
{
    if (!p->partition_attr) {
        naive_plain(p, values, n, nattrs, det);
        return;
    }
    enum { NMAX = 32 };
    Value sub[NMAX * 8];
    int where[NMAX];
    bool subdet[NMAX];
    for (int k = 0; k < n && k < NMAX; k++) {
        bool first = true;
        for (int q = 0; q < k; q++)
            first = first && !naive_same_key(p, values, nattrs, q, k);
        if (!first)
            continue;
        int m = 0;
        for (int q = k; q < n && q < NMAX; q++)
            if (naive_same_key(p, values, nattrs, q, k)) {
                memcpy(sub + (size_t)m * nattrs, values + (size_t)q * nattrs, (size_t)nattrs * sizeof *sub);
                where[m++] = q;
            }
        naive_plain(p, sub, m, nattrs, subdet);
        for (int q = 0; q < m; q++)
            det[where[q]] = subdet[q];
    }
}

/* The minimizer's predicate: interp and naive differ on the case. */
static bool naive_fails(const char *src, const Value *values, int n, void *ctx)
{
    (void)ctx;
    Fixture fx;
    fx_run(&fx, src, true);
    const AstPattern *p = NULL;
    for (int d = 0; fx.nerrors == 0 && d < fx.ast->ndecls; d++)
        if (fx.ast->decls[d].kind == DECL_PATTERN)
            p = fx.ast->decls[d].u.pattern;
    bool fails = false;
    if (p && p->nregs <= NV_MAXREGS && p->hdr.policy == POLICY_STRICT && n <= 32) {
        bool *a = calloc(2 * (size_t)n + 1, sizeof *a), *b = a + n;
        Stream s = {n, GEN_NATTRS, values};
        interp_detect(p, &s, NULL, a);
        naive_detect(p, values, n, GEN_NATTRS, b);
        fails = memcmp(a, b, (size_t)n) != 0;
        free(a);
    }
    fx_done(&fx);
    return fails;
}

/* The set-based interpreter against the backtracking recognizer on
 * random strict-policy patterns and streams. */
static void test_interp_vs_naive(void)
{
    enum { LEN = 12 };
    const int N = 3000 * diff_scale();
    Rng r = {777};
    GenOpts o = {true, true, true, true, true, false, 3, 5, false};
    char buf[2048];
    int compared = 0, differ = 0;
    for (int i = 0; i < N; i++) {
        gen_pattern(&r, &o, buf, sizeof buf);
        Fixture fx;
        fx_run(&fx, buf, true);
        const AstPattern *p = NULL;
        for (int d = 0; fx.nerrors == 0 && d < fx.ast->ndecls; d++)
            if (fx.ast->decls[d].kind == DECL_PATTERN)
                p = fx.ast->decls[d].u.pattern;
        if (p && p->nregs <= NV_MAXREGS) {
            Value v[LEN * GEN_NATTRS];
            bool a[LEN], b[LEN];
            gen_stream(&r, LEN, v);
            Stream s = {LEN, GEN_NATTRS, v};
            interp_detect(p, &s, NULL, a);
            naive_detect(p, v, LEN, GEN_NATTRS, b);
            compared++;
            if (memcmp(a, b, sizeof a) != 0 && differ++ < 3) {
                fprintf(stderr, "\npattern %d: interp and naive differ\n%s", i, strstr(buf, "pattern"));
                for (int k = 0; k < LEN; k++)
                    fprintf(stderr, "  e%d t=%c v=%" PRId64 " k=%" PRId64 " time=%" PRId64 ": %d %d\n", k,
                            (char)('A' + v[k * GEN_NATTRS + GEN_T].i), v[k * GEN_NATTRS + GEN_V].i,
                            v[k * GEN_NATTRS + GEN_K].i, v[k * GEN_NATTRS + GEN_TIME].i, a[k], b[k]);
                char what[96];
                snprintf(what, sizeof what, "interp against naive, pattern %d of the sequence from seed", i);
                shrink_report(what, 777, buf, v, LEN, naive_fails, NULL, 0);
            }
        }
        fx_done(&fx);
    }
    diff_summary("interp-naive", compared, N - compared, differ);
    CU_ASSERT(compared > N * 9 / 10);
    CU_ASSERT_EQUAL(differ, 0);
}

/* ---- generators ------------------------------------------------------------------ */

static void test_gen_rng(void)
{
    Rng a = {42}, b = {42}, z = {0};
    bool seen[7] = {false};
    for (int i = 0; i < 1000; i++) {
        CU_ASSERT_EQUAL(rng_next(&a), rng_next(&b));
        int x = rng_int(&a, -2, 4);
        CU_ASSERT_EQUAL(x, rng_int(&b, -2, 4));
        CU_ASSERT(x >= -2 && x <= 4);
        if (x >= -2 && x <= 4)
            seen[x + 2] = true;
    }
    for (int i = 0; i < 7; i++)
        CU_ASSERT_TRUE(seen[i]);
    CU_ASSERT_NOT_EQUAL(rng_next(&z), 0);
    CU_ASSERT_EQUAL(rng_int(&a, 3, 3), 3);
}

static void test_gen_stream(void)
{
    Rng r = {7};
    Value v[50 * GEN_NATTRS];
    gen_stream(&r, 50, v);
    for (int i = 0; i < 50; i++) {
        const Value *e = v + i * GEN_NATTRS;
        CU_ASSERT(e[GEN_T].i >= 0 && e[GEN_T].i <= 2);
        CU_ASSERT(e[GEN_V].i >= 0 && e[GEN_V].i <= 3);
        CU_ASSERT(e[GEN_K].i >= 0 && e[GEN_K].i <= 3);
        if (i > 0)
            CU_ASSERT(e[GEN_TIME].i - e[-GEN_NATTRS + GEN_TIME].i >= 0 &&
                      e[GEN_TIME].i - e[-GEN_NATTRS + GEN_TIME].i <= 2);
    }
}

/* 2,000 patterns from a fixed seed with random option sets: at least 95%
 * check without errors, options are obeyed, every feature shows up, and the
 * interpreter runs on each with a 16-event stream. */
static void test_gen_patterns(void)
{
    enum { N = 2000, LEN = 16 };
    Rng r = {20240601};
    int clean = 0, printed = 0;
    int has_not = 0, has_and = 0, has_reg = 0, has_policy = 0, has_part = 0, has_time = 0, detected = 0;
    char buf[2048];
    for (int i = 0; i < N; i++) {
        uint64_t bits = rng_next(&r);
        GenOpts o = {bits & 1, bits & 2, bits & 4, bits & 8, bits & 16, bits & 32, 2 + (int)(bits >> 6) % 3, 6,
                     (bits >> 9) & 1};
        if (i % 2 == 0)
            o = (GenOpts){true, true, true, true, true, true, 3, 6, true};
        gen_pattern(&r, &o, buf, sizeof buf);
        const char *body = strstr(buf, "pattern");
        CU_ASSERT(body && (o.complement || !strchr(body, '~')));
        CU_ASSERT(body && (o.intersection || !strstr(body, " & ")));
        CU_ASSERT(body && (o.registers || !strchr(body, ':')));
        CU_ASSERT(body && (o.policies || o.chains || !strstr(body, "policy")));
        CU_ASSERT(body && (o.partition || !strstr(body, "partition")));
        bool time = body && strstr(body, "within") && !strstr(body, " events");
        CU_ASSERT(o.time_window || !time);
        if (!body)
            continue;
        has_not += strchr(body, '~') != NULL;
        has_and += strstr(body, " & ") != NULL;
        has_reg += strstr(body, "x.") != NULL || strstr(body, "y.") != NULL;
        has_policy += strstr(body, "policy") != NULL;
        has_part += strstr(body, "partition") != NULL;
        has_time += time;

        Fixture fx;
        fx_run(&fx, buf, true);
        if (fx.nerrors == 0) {
            clean++;
            const AstPattern *p = fx_first_pattern(&fx);
            Value v[LEN * GEN_NATTRS];
            bool det[LEN];
            gen_stream(&r, LEN, v);
            Stream s = {LEN, GEN_NATTRS, v};
            if (p) {
                interp_detect(p, &s, NULL, det);
                for (int k = 0; k < LEN; k++)
                    detected += det[k];
            }
        } else if (printed++ < 20) {
            fprintf(stderr, "\ngenerated pattern %d does not check:\n%s%s", i, body, fx.diags);
        }
        fx_done(&fx);
    }
    if (clean * 100 < N * 95)
        fprintf(stderr, "\nonly %d of %d generated patterns check\n", clean, N);
    CU_ASSERT(clean * 100 >= N * 95);
    CU_ASSERT(has_not > 0 && has_and > 0 && has_reg > 0 && has_policy > 0 && has_part > 0 && has_time > 0);
    CU_ASSERT(detected > 0);
}

void add_interp_tests(void)
{
    CU_pSuite suite = CU_add_suite("interp", NULL, NULL);
    CU_add_test(suite, "eval: integers wrap", test_eval_wrapping);
    CU_add_test(suite, "eval: division and zero divisors", test_eval_division);
    CU_add_test(suite, "eval: empty registers", test_eval_empty_register);
    CU_add_test(suite, "eval: floats", test_eval_float);
    CU_add_test(suite, "eval: enums and bools", test_eval_enum_bool);
    CU_add_test(suite, "eval: externs", test_eval_extern);
    CU_add_test(suite, "eval: register map", test_eval_regmap);
    CU_add_test(suite, "interp: fire", test_interp_fire);
    CU_add_test(suite, "interp: absent", test_interp_absent);
    CU_add_test(suite, "interp: operators", test_interp_operators);
    CU_add_test(suite, "interp: empty matches", test_interp_nullable);
    CU_add_test(suite, "interp: complement", test_interp_complement);
    CU_add_test(suite, "interp: count window", test_interp_count_window);
    CU_add_test(suite, "interp: time window", test_interp_time_window);
    CU_add_test(suite, "interp: registers", test_interp_registers);
    CU_add_test(suite, "interp: policies", test_interp_policies);
    CU_add_test(suite, "interp: partition by", test_interp_partition);
    CU_add_test(suite, "interp = naive backtracking on random patterns", test_interp_vs_naive);
    CU_add_test(suite, "gen: rng", test_gen_rng);
    CU_add_test(suite, "gen: streams", test_gen_stream);
    CU_add_test(suite, "gen: patterns check and run", test_gen_patterns);
}
