/* gen.c: seeded random .srem pattern files and event streams over one fixed
 * schema, for differential tests; patterns are built to pass the checker. */
#include "gen.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "frontend.h"
#include "strategy.h"

uint64_t rng_next(Rng *r)
{
    uint64_t x = r->s ? r->s : 0x9E3779B97F4A7C15u; /* 0 is a fixed point */
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->s = x;
    return x * 0x2545F4914F6CDD1Du;
}

int rng_int(Rng *r, int lo, int hi)
{
    if (hi <= lo)
        return lo;
    uint64_t span = (uint64_t)((int64_t)hi - lo) + 1;
    return (int)((int64_t)lo + (int64_t)((rng_next(r) >> 11) % span));
}

/* True with probability pct/100. */
static bool chance(Rng *r, int pct) { return rng_int(r, 0, 99) < pct; }

/* ---- text output ------------------------------------------------------------ */

typedef struct Out {
    char  *buf;
    size_t size, len;  /* len stops at size - 1: the text is cut short */
} Out;

static void put(Out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(Out *o, const char *fmt, ...)
{
    if (o->len + 1 >= o->size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(o->buf + o->len, o->size - o->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->len = o->len + (size_t)n < o->size ? o->len + (size_t)n : o->size - 1;
}

/* ---- patterns ------------------------------------------------------------------ */

/* Registers are bits of a mask: bit 0 is x, bit 1 is y. */
enum { NREGS = 2 };
static const char *const reg_names[NREGS] = {"x", "y"};
static const char *const type_names[3] = {"A", "B", "C"};
const char *const gen_strings[GEN_NSTRINGS] = {"a", "b", "c", "d d"};

typedef struct Gen {
    Rng           *r;
    const GenOpts *o;
    Out            out;
    WindowKind     win;
    int            max_depth;
    unsigned       defined;  /* registers whose label is already written:
                                only those may be read (a read of a register
                                no label writes is an error) */
} Gen;

/* What a subtree may do with registers. */
typedef struct Ctx {
    unsigned writable;   /* may carry these labels */
    unsigned readable;   /* may read these (when defined) */
} Ctx;

/* A random register of mask, or -1 if none. */
static int pick_reg(Gen *g, unsigned mask)
{
    int regs[NREGS], n = 0;
    for (int i = 0; i < NREGS; i++)
        if (mask & (1u << i))
            regs[n++] = i;
    return n ? regs[rng_int(g->r, 0, n - 1)] : -1;
}

/* An int (or, with allow_float, possibly float) term: v, k, a literal, a
 * register's v or k, or arithmetic on two terms. */
static void gen_term(Gen *g, unsigned readable, int depth, bool allow_float)
{
    int reg = pick_reg(g, readable & g->defined);
    int choice = rng_int(g->r, 0, depth >= 2 ? 5 : 8);
    switch (choice) {
    case 0:
    case 1: put(&g->out, "v"); return;
    case 2: put(&g->out, "k"); return;
    case 3:
        if (allow_float && chance(g->r, 30))
            put(&g->out, "%d.5", rng_int(g->r, 0, 2));
        else
            put(&g->out, "%d", rng_int(g->r, -1, 3));
        return;
    case 4:
    case 5:
        if (reg >= 0)
            put(&g->out, "%s.%s", reg_names[reg], chance(g->r, 60) ? "v" : "k");
        else
            put(&g->out, "%d", rng_int(g->r, 0, 3));
        return;
    case 6:
        put(&g->out, "-(");
        gen_term(g, readable, depth + 1, allow_float);
        put(&g->out, ")");
        return;
    default: {
        static const char ops[] = "+-*/%";
        char op = ops[rng_int(g->r, 0, 4)];
        bool fl = allow_float && op != '%';
        put(&g->out, "(");
        gen_term(g, readable, depth + 1, fl);
        put(&g->out, " %c ", op);
        gen_term(g, readable, depth + 1, fl);
        put(&g->out, ")");
        return;
    }
    }
}

static const char *relop(Gen *g)
{
    static const char *const ops[] = {"==", "!=", "<", "<=", ">", ">="};
    return ops[rng_int(g->r, 0, 5)];
}

static const char *attr_name(Gen *g) { return chance(g->r, 60) ? "v" : "k"; }

/* u against a literal (either side) or a register's u. */
static void gen_string_cmp(Gen *g, int reg, const char *eq)
{
    const char *lit = gen_strings[rng_int(g->r, 0, GEN_NLITERALS - 1)];
    if (reg >= 0 && chance(g->r, 40))
        put(&g->out, "u %s %s.u", eq, reg_names[reg]);
    else if (chance(g->r, 50))
        put(&g->out, "u %s \"%s\"", eq, lit);
    else
        put(&g->out, "\"%s\" %s u", lit, eq);
}

/* One comparison, from shapes that make conditions hold about half the
 * time on small values: on the enum t, an attribute against a literal or a
 * register, a division that may divide by zero, or two random terms. */
static void gen_cmp(Gen *g, unsigned readable)
{
    int reg = pick_reg(g, readable & g->defined);
    const char *eq = chance(g->r, 70) ? "==" : "!=";
    const char *t = type_names[rng_int(g->r, 0, 2)];
    switch (rng_int(g->r, 0, 9)) {
    case 0:
    case 1:
        if (chance(g->r, 40))
            gen_string_cmp(g, reg, eq);
        else
            put(&g->out, "t %s %s", eq, t);
        return;
    case 2:
        if (reg < 0)
            put(&g->out, "t %s %s", eq, t);
        else if (chance(g->r, 50))
            put(&g->out, "t %s %s.t", eq, reg_names[reg]);
        else
            put(&g->out, "%s.t %s %s", reg_names[reg], eq, t);
        return;
    case 3:
        put(&g->out, "%s %s %d", attr_name(g), relop(g), rng_int(g->r, 0, 3));
        return;
    case 4:
    case 5:
        if (reg < 0) {
            put(&g->out, "%s %s %s", attr_name(g), relop(g), attr_name(g));
        } else if (chance(g->r, 15)) {
            put(&g->out, "time - %s.time <= %d", reg_names[reg], rng_int(g->r, 0, 3));
        } else {
            const char *a = attr_name(g);
            put(&g->out, "%s %s %s.%s", a, relop(g), reg_names[reg], chance(g->r, 80) ? a : attr_name(g));
            if (chance(g->r, 30))
                put(&g->out, " %c %d", chance(g->r, 50) ? '+' : '-', rng_int(g->r, 1, 2));
        }
        return;
    case 6:
        /* k is 0 a quarter of the time: the whole condition is then false */
        put(&g->out, "v %c ", chance(g->r, 60) ? '/' : '%');
        if (reg >= 0 && chance(g->r, 30))
            put(&g->out, "%s.", reg_names[reg]);
        put(&g->out, "k %s %d", relop(g), rng_int(g->r, 0, 2));
        return;
    default:
        gen_term(g, readable, 1, true);
        put(&g->out, " %s ", relop(g));
        gen_term(g, readable, 1, true);
        return;
    }
}

static void gen_cond(Gen *g, unsigned readable, int depth)
{
    int choice = depth >= 2 ? 0 : rng_int(g->r, 0, 7);
    switch (choice) {
    case 5:
        put(&g->out, "!(");
        gen_cond(g, readable, depth + 1);
        put(&g->out, ")");
        return;
    case 6:
    case 7:
        put(&g->out, "(");
        gen_cond(g, readable, depth + 1);
        put(&g->out, choice == 6 ? " && " : " || ");
        gen_cond(g, readable, depth + 1);
        put(&g->out, ")");
        return;
    default:
        if (chance(g->r, 4))
            put(&g->out, chance(g->r, 50) ? "true" : "false");
        else
            gen_cmp(g, readable);
        return;
    }
}

/* One event: a shorthand, `_` or [COND], maybe with a label. */
static void gen_atom(Gen *g, Ctx c)
{
    int reg = chance(g->r, 35) ? pick_reg(g, c.writable) : -1;
    if (reg >= 0) {
        put(&g->out, "%s:", reg_names[reg]);
        g->defined |= 1u << reg; /* its own condition may read it (still the old value) */
    }
    int kind = rng_int(g->r, 0, 99);
    if (kind < 30)
        put(&g->out, "%s", type_names[rng_int(g->r, 0, 2)]);
    else if (kind < 45)
        put(&g->out, "_");
    else {
        put(&g->out, "[");
        gen_cond(g, c.readable, 0);
        put(&g->out, "]");
    }
}

static void gen_rx(Gen *g, Ctx c, int depth);

/* R & S: each writable register goes to at most one operand, which alone
 * may write and read it (docs/language.md 3.1). */
static void gen_and(Gen *g, Ctx c, int depth)
{
    unsigned own[2] = {0, 0};
    for (int i = 0; i < NREGS; i++) {
        int who = rng_int(g->r, 0, 2);
        if ((c.writable & (1u << i)) && who < 2)
            own[who] |= 1u << i;
    }
    put(&g->out, "(");
    for (int k = 0; k < 2; k++) {
        Ctx kc = {own[k], c.readable & ~own[1 - k]};
        if (k)
            put(&g->out, " & ");
        gen_rx(g, kc, depth + 1);
    }
    put(&g->out, ")");
}

static void gen_postfix(Gen *g)
{
    switch (rng_int(g->r, 0, 5)) {
    case 0: put(&g->out, "*"); return;
    case 1: put(&g->out, "+"); return;
    case 2: put(&g->out, "?"); return;
    case 3: put(&g->out, "{%d}", rng_int(g->r, 0, 3)); return; /* {0}: the empty sequence */
    case 4: put(&g->out, "{%d,}", rng_int(g->r, 0, 2)); return;
    default: {
        int lo = rng_int(g->r, 0, 2);
        put(&g->out, "{%d,%d}", lo, rng_int(g->r, lo, 3));
        return;
    }
    }
}

/* A regex; every operator is parenthesized, so precedence never matters. */
static void gen_rx(Gen *g, Ctx c, int depth)
{
    if (depth >= g->max_depth || (depth > 0 && chance(g->r, 35))) {
        gen_atom(g, c);
        return;
    }
    bool can_not = g->o->complement && g->win == WIN_EVENTS;
    switch (rng_int(g->r, 0, 9)) {
    case 0:
    case 1:
    case 2: {
        int n = rng_int(g->r, 2, 3);
        put(&g->out, "(");
        for (int i = 0; i < n; i++) {
            if (i)
                put(&g->out, " ");
            gen_rx(g, c, depth + 1);
        }
        put(&g->out, ")");
        return;
    }
    case 3:
    case 4:
        put(&g->out, "(");
        gen_rx(g, c, depth + 1);
        put(&g->out, " | ");
        gen_rx(g, c, depth + 1);
        put(&g->out, ")");
        return;
    case 5:
        if (g->o->intersection) {
            gen_and(g, c, depth);
            return;
        }
        break;
    case 6:
        if (can_not) {
            Ctx nc = {0, c.readable}; /* ~R may read registers, not write them */
            put(&g->out, "~");
            gen_rx(g, nc, depth + 1);
            return;
        }
        break;
    default:
        break;
    }
    put(&g->out, "(");
    gen_rx(g, c, depth + 1);
    put(&g->out, ")");
    gen_postfix(g);
}

/* A plain sequence of 1..4 atoms, for stam/stnm. */
static void gen_policy_body(Gen *g, Ctx c)
{
    int m = rng_int(g->r, 1, 4);
    bool outer = chance(g->r, 15);
    if (outer)
        put(&g->out, "(");
    for (int i = 0; i < m; i++) {
        bool paren = chance(g->r, 10);
        put(&g->out, "%s%s", i ? " " : "", paren ? "(" : "");
        gen_atom(g, c);
        if (paren)
            put(&g->out, ")");
    }
    if (outer)
        put(&g->out, ")");
}

/* A strict sequence of 1..5 atoms with gaps between (a chain without a
 * window), now and then a gap that is not one: `_{1,k}`. */
static void gen_gap_body(Gen *g, Ctx c)
{
    int m = rng_int(g->r, 1, 5);
    for (int i = 0; i < m; i++) {
        if (i) {
            int gap = rng_int(g->r, 0, 9);
            if (gap < 3)
                put(&g->out, " _{0,%d}", rng_int(g->r, 0, 4)); /* _{0,0}: no gap */
            else if (gap < 4)
                put(&g->out, " _*");
            else if (gap < 5)
                put(&g->out, " _?");
            else if (gap < 6)
                put(&g->out, " _{0,2} _{0,1}");
            else if (gap < 7)
                put(&g->out, " _{1,3}");
        }
        put(&g->out, " ");
        gen_atom(g, c);
    }
}

/* 0: none, 1: a policy, 2: a strict sequence with gaps (chains). */
static int gen_header(Gen *g)
{
    int shape = g->o->chains && chance(g->r, 60) ? (chance(g->r, 50) ? 1 : 2) : 0;
    put(&g->out, "pattern p on E");
    if (g->o->partition && chance(g->r, 30)) {
        static const char *const keys[3] = {"k", "t", "u"};
        if (chance(g->r, 35)) {   /* a composite key: two or three of them, in any order */
            int first = rng_int(g->r, 0, 2), step = rng_int(g->r, 1, 2), n = rng_int(g->r, 2, 3);
            put(&g->out, " partition by %s", keys[first]);
            for (int j = 1; j < n; j++)
                put(&g->out, ", %s", keys[(first + j * step) % 3]);
        } else {
            put(&g->out, " partition by %s", chance(g->r, 60) ? "k" : chance(g->r, 50) ? "t" : "u");
        }
    }
    int w = shape == 2 && chance(g->r, 70) ? 0 : rng_int(g->r, 0, 9);
    int max_window = g->o->max_window > 1 ? g->o->max_window : 6;
    if (w < 2) {
        g->win = WIN_NONE;
    } else if (w < 7 || !g->o->time_window) {
        g->win = WIN_EVENTS;
        put(&g->out, " within %d events", rng_int(g->r, 2, max_window));
    } else {
        g->win = WIN_TIME;
        if (chance(g->r, 20))
            put(&g->out, " within %d000 ms", rng_int(g->r, 1, 5));
        else
            put(&g->out, " within %d s", rng_int(g->r, 1, 5));
    }
    if (shape == 0 && g->o->policies && chance(g->r, 25))
        shape = 1;
    if (shape == 1)
        put(&g->out, " policy %s", chance(g->r, 50) ? "stam" : "stnm");
    return shape;
}

static void gen_file(Rng *r, const GenOpts *o, bool absent, char *buf, size_t size)
{
    Gen g = {r, o, {buf, size, 0}, WIN_NONE, o->max_depth > 0 ? o->max_depth : 3, 0};
    if (size == 0)
        return;
    buf[0] = '\0';
    put(&g.out, "%s", GEN_SCHEMA);
    int shape = gen_header(&g);
    unsigned regs = o->registers && g.win != WIN_NONE ? (1u << NREGS) - 1 : 0;
    Ctx c = {regs, regs};
    put(&g.out, " {\n    ");
    if (shape == 1)
        gen_policy_body(&g, c);
    else if (shape == 2)
        gen_gap_body(&g, c);
    else
        gen_rx(&g, c, 0);
    put(&g.out, "\n}");
    if (absent && g.win != WIN_NONE && chance(r, 70)) {   /* an absence needs a window */
        put(&g.out, " absent [");
        gen_cond(&g, regs, 0);
        put(&g.out, "]");
    }
    put(&g.out, "\n");
}

void gen_pattern(Rng *r, const GenOpts *o, char *buf, size_t size) { gen_file(r, o, false, buf, size); }

void gen_pattern_absent(Rng *r, const GenOpts *o, char *buf, size_t size) { gen_file(r, o, true, buf, size); }

void gen_stream(Rng *r, int n, Value *values)
{
    int64_t time = rng_int(r, 0, 3);
    for (int i = 0; i < n; i++) {
        Value *e = values + (size_t)i * GEN_NATTRS;
        if (i > 0)
            time += rng_int(r, 0, 2);
        e[GEN_T].i = rng_int(r, 0, 2);
        e[GEN_V].i = rng_int(r, 0, 3);
        e[GEN_K].i = rng_int(r, 0, 3);
        e[GEN_TIME].i = time;
        e[GEN_U].i = rng_int(r, 0, GEN_NSTRINGS - 1);
    }
}

void gen_string_ids(const char *const *strings, int nstrings, Value *values, int n)
{
    int64_t id[GEN_NSTRINGS];
    int next = nstrings;
    for (int s = 0; s < GEN_NSTRINGS; s++) {
        id[s] = -1;
        for (int i = 0; i < nstrings; i++)
            if (strcmp(strings[i], gen_strings[s]) == 0)
                id[s] = i;
        if (id[s] < 0)
            id[s] = next++;
    }
    for (int e = 0; e < n; e++) {
        Value *u = &values[(size_t)e * GEN_NATTRS + GEN_U];
        u->i = id[u->i];
    }
}

bool gen_applies(const char *src, int strategy, int max_states, int *chosen)
{
    Arena arena;
    arena_init(&arena);
    Diag diag;
    diag_init(&diag, "gen.srem", src, strlen(src));
    Ast *ast = frontend_parse_check("gen.srem", src, strlen(src), &arena, &diag);
    bool ok = diag.nerrors == 0;
    for (int i = 0; ok && i < ast->ndecls; i++)
        if (ast->decls[i].kind == DECL_PATTERN) {
            StrategyOpts o = {(Strategy)strategy, max_states, 1024, LAYOUT_AUTO, 0, 1};
            Plan *plan = strategy_plan(ast->decls[i].u.pattern, &o, &arena, &diag);
            ok = plan != NULL && diag.nerrors == 0;
            if (ok && chosen)
                *chosen = (int)plan->strategy;
        }
    diag_free(&diag);
    arena_free(&arena);
    return ok;
}

bool gen_write_csv(const char *path, const Value *values, int n)
{
    static const char *const tnames[] = {"A", "B", "C"};
    FILE *c = fopen(path, "w");
    if (!c)
        return false;
    fputs("t,v,k,time,u\n", c);
    for (int e = 0; e < n; e++) {
        const Value *v = values + e * GEN_NATTRS;
        fprintf(c, "%s,%lld,%lld,%lld,%s\n", tnames[v[GEN_T].i], (long long)v[GEN_V].i, (long long)v[GEN_K].i,
                (long long)v[GEN_TIME].i, gen_strings[v[GEN_U].i]);
    }
    return fclose(c) == 0;
}
