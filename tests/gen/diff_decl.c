/* diff_decl.c: random episodes and explore patterns -> batched .srem files
 * -> `sremc build` programs run on random CSV streams (under every
 * --explore-algo), every JSONL record compared with brute-force oracles
 * written from docs/language.md sections 4, 5 and 6. Usage:
 *   diff_decl SREMC WORKDIR [NPROGRAMS [SEED [DECLS]]]
 * NPROGRAMS (default 12) is multiplied by SREMC_DIFF_SCALE; each program
 * holds DECLS (default 16) declarations and is built with -O0. Prints the
 * seed, the declaration and the stream of the first mismatch, then both
 * minimized (the declaration alone, events dropped while it still fails).
 *
 * The oracles share nothing with the compiler or the runtime: element
 * conditions come from a small grammar evaluated here; nonoverlapped
 * frequency is interval scheduling over every (first, last) pair that has
 * an occurrence, and the occurrence an episode record names is the
 * greatest in lexicographic order of every occurrence enumerated that ends
 * there and begins after the one counted before; distinct frequency is an exhaustive search over which
 * partial occurrences the events extend; explore counts enumerate the
 * matches ending at each event. The compiler's exclusivity proof (the
 * "pairwise exclusive (proved)" comment in the generated C) is checked
 * against every event of a finite domain. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum {
    NT = 4,             /* values of t */
    MAXK = 4,           /* episode elements */
    MAXLEN = 40,        /* events per stream */
    MAXDECLS = 64,
    POOL = 48,          /* condition nodes per declaration */
    STREAMS = 10,       /* streams per program */
    DSTATES = 50000,    /* distinct oracle: states per step before it gives up */
    SHRINK_RUNS = 300,
    BUDGET = 4096,      /* --distinct-budget: far more than these streams need, so every count is exact */
};

static const char *const tnames[NT] = {"A", "B", "C", "D"};
static const char *const gnames[2] = {"P", "Q"};
static const char *const algos[] = {"default", "bf", "rc", "ic"};
enum { NALGOS = 4 };
static const char *const kinds[] = {"match", "episode", "alert", "suggest", "summary"};
enum { NKINDS = 5 };

#define SCHEMA                                                                                  \
    "schema S {\n    t : enum { A, B, C, D };\n    g : enum { P, Q };\n    x : int;\n"          \
    "    k : int;\n    time : timestamp(ms);\n}\n"

/* ---- random numbers (splitmix64) ---------------------------------------------------------- */

typedef struct Rng {
    uint64_t s;
} Rng;

static uint64_t rng_next(Rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, n). */
static int rnd(Rng *r, int n)
{
    return n <= 1 ? 0 : (int)(rng_next(r) % (uint64_t)n);
}

static bool chance(Rng *r, int percent)
{
    return rnd(r, 100) < percent;
}

/* ---- strings ------------------------------------------------------------------------------- */

typedef struct Str {
    char  *p;
    size_t n, cap;
} Str;

static void str_add(Str *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void str_add(Str *s, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        size_t room = s->cap - s->n;
        va_start(ap, fmt);
        int k = vsnprintf(s->p ? s->p + s->n : NULL, room, fmt, ap);
        va_end(ap);
        if (k < 0)
            abort();
        if ((size_t)k < room) {
            s->n += (size_t)k;
            return;
        }
        s->cap = (s->cap + (size_t)k + 64) * 2;
        s->p = realloc(s->p, s->cap);
        if (!s->p)
            abort();
    }
}

static void str_clear(Str *s)
{
    s->n = 0;
    if (s->p)
        s->p[0] = '\0';
}

/* The shortest "%.Ng" that reads back as v (the runtime's float form). */
static void add_double(Str *s, double v)
{
    char tmp[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, v);
        if (strtod(tmp, NULL) == v)
            break;
    }
    str_add(s, "%s", tmp);
}

/* ---- events -------------------------------------------------------------------------------- */

typedef struct Event {
    int     t, g, x, k;
    int64_t ts;
} Event;

static int gen_stream(Rng *r, Event *ev)
{
    int n = 10 + rnd(r, MAXLEN - 10 + 1), ntypes = chance(r, 15) ? 2 : 3 + rnd(r, 2);
    int64_t ts = 1700000000000 + 500 * rnd(r, 4);
    for (int i = 0; i < n; i++) {
        int gap = rnd(r, 100);
        ts += gap < 30 ? 0 : gap < 65 ? 500 : gap < 90 ? 1000 : 2500;
        ev[i] = (Event){rnd(r, ntypes), rnd(r, 2), rnd(r, 4), 1 + rnd(r, 3), ts};
    }
    return n;
}

static bool write_csv(const char *path, const Event *ev, int n)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fputs("t,g,x,k,time\n", f);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s,%s,%d,%d,%lld\n", tnames[ev[i].t], gnames[ev[i].g], ev[i].x, ev[i].k,
                (long long)ev[i].ts);
    return fclose(f) == 0;
}

/* ---- conditions ---------------------------------------------------------------------------- */

enum { CK_TRUE, CK_TEQ, CK_TNE, CK_GEQ, CK_GNE, CK_XCMP, CK_XMOD, CK_AND, CK_OR, CK_NOT };
enum { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE };
static const char *const opnames[] = {"==", "!=", "<", "<=", ">", ">="};
static const int flipped[] = {OP_EQ, OP_NE, OP_GT, OP_GE, OP_LT, OP_LE};   /* c op x == x flipped(op) c */

typedef struct Cond {
    int kind, op, v;    /* v: value index, constant, or x % 2 result */
    int l, r;           /* operands (pool indexes) */
    bool flip, word;    /* `2 < x` for `x > 2`; `and` for `&&`, `"A"` for `A` */
} Cond;

enum { EL_T, EL_G, EL_ANY, EL_COND };

typedef struct Elem {
    int  kind, v, root; /* shorthand value, or the condition's pool index */
    bool quote;         /* "A" instead of A */
} Elem;

/* A declaration: an episode, or a pattern with an explore clause. */
typedef struct Decl {
    bool    explore;
    char    name[16];
    int     part;           /* 0: none, 1: by k, 2: by g, 3: by g, k (a composite key) */
    int     win;            /* 0: none (explore only), 1: events, 2: time */
    int64_t width;          /* N, or D in ms */
    /* episode */
    int     nel;
    Elem    el[MAXK];
    bool    distinct, alert_given;
    int64_t alert;
    Cond    pool[POOL];
    int     npool;
    bool    proved;         /* the compiler says pairwise exclusive */
    /* explore */
    int     m, seq[3];
    bool    stam, ext, var;
    double  conf;
    char    text[1024];
} Decl;

static int cnew(Decl *d, Cond c)
{
    if (d->npool >= POOL)
        abort();
    d->pool[d->npool] = c;
    return d->npool++;
}

static int catom(Decl *d, int kind, int op, int v)
{
    return cnew(d, (Cond){kind, op, v, -1, -1, false, false});
}

static int cbin(Decl *d, int kind, int l, int r)
{
    return cnew(d, (Cond){kind, 0, 0, l, r, false, false});
}

static bool ceval(const Decl *d, int c, const Event *e)
{
    const Cond *n = &d->pool[c];
    switch (n->kind) {
    case CK_TRUE: return true;
    case CK_TEQ: return e->t == n->v;
    case CK_TNE: return e->t != n->v;
    case CK_GEQ: return e->g == n->v;
    case CK_GNE: return e->g != n->v;
    case CK_XMOD: return e->x % 2 == n->v;
    case CK_AND: return ceval(d, n->l, e) && ceval(d, n->r, e);
    case CK_OR: return ceval(d, n->l, e) || ceval(d, n->r, e);
    case CK_NOT: return !ceval(d, n->l, e);
    case CK_XCMP:
        switch (n->op) {
        case OP_EQ: return e->x == n->v;
        case OP_NE: return e->x != n->v;
        case OP_LT: return e->x < n->v;
        case OP_LE: return e->x <= n->v;
        case OP_GT: return e->x > n->v;
        default: return e->x >= n->v;
        }
    }
    abort();
}

static void cprint(const Decl *d, int c, Str *s)
{
    const Cond *n = &d->pool[c];
    switch (n->kind) {
    case CK_TRUE: str_add(s, "true"); return;
    case CK_TEQ:
    case CK_TNE:
    case CK_GEQ:
    case CK_GNE: {
        const char *attr = n->kind <= CK_TNE ? "t" : "g";
        const char *val = n->kind <= CK_TNE ? tnames[n->v] : gnames[n->v];
        const char *op = n->kind == CK_TEQ || n->kind == CK_GEQ ? "==" : "!=";
        const char *q = n->word ? "\"" : "";
        if (n->flip)
            str_add(s, "%s%s%s %s %s", q, val, q, op, attr);
        else
            str_add(s, "%s %s %s%s%s", attr, op, q, val, q);
        return;
    }
    case CK_XCMP:
        if (n->flip)
            str_add(s, "%d %s x", n->v, opnames[flipped[n->op]]);
        else
            str_add(s, "x %s %d", opnames[n->op], n->v);
        return;
    case CK_XMOD: str_add(s, "x %% 2 == %d", n->v); return;
    case CK_NOT:
        str_add(s, n->word ? "not (" : "!(");
        cprint(d, n->l, s);
        str_add(s, ")");
        return;
    default: {
        const char *op = n->kind == CK_AND ? (n->word ? "and" : "&&") : (n->word ? "or" : "||");
        for (int side = 0; side < 2; side++) {
            int k = side ? n->r : n->l;
            bool paren = d->pool[k].kind == CK_AND || d->pool[k].kind == CK_OR;
            str_add(s, "%s", paren ? "(" : "");
            cprint(d, k, s);
            str_add(s, "%s", paren ? ")" : "");
            if (!side)
                str_add(s, " %s ", op);
        }
        return;
    }
    }
}

/* A random atom over t, g and x (x is 0..3 in streams). */
static int gen_atom(Rng *r, Decl *d)
{
    int k = rnd(r, 100), c;
    if (k < 25)
        c = catom(d, CK_TEQ, 0, rnd(r, NT));
    else if (k < 35)
        c = catom(d, CK_TNE, 0, rnd(r, NT));
    else if (k < 70)
        c = catom(d, CK_XCMP, rnd(r, 6), rnd(r, 4));
    else if (k < 80)
        c = catom(d, rnd(r, 2) ? CK_GEQ : CK_GNE, 0, rnd(r, 2));
    else if (k < 95)
        c = catom(d, CK_XMOD, 0, rnd(r, 2));
    else
        c = catom(d, CK_TRUE, 0, 0);
    d->pool[c].flip = chance(r, 20) && d->pool[c].kind != CK_XMOD && d->pool[c].kind != CK_TRUE;
    d->pool[c].word = chance(r, 10) && d->pool[c].kind >= CK_TEQ && d->pool[c].kind <= CK_GNE;
    return c;
}

static int gen_cond(Rng *r, Decl *d, int depth)
{
    if (depth == 0 || chance(r, 45))
        return gen_atom(r, d);
    int k = rnd(r, 100), c;
    if (k < 45)
        c = cbin(d, CK_AND, gen_cond(r, d, depth - 1), gen_cond(r, d, depth - 1));
    else if (k < 90)
        c = cbin(d, CK_OR, gen_cond(r, d, depth - 1), gen_cond(r, d, depth - 1));
    else
        c = cbin(d, CK_NOT, gen_cond(r, d, depth - 1), -1);
    d->pool[c].word = chance(r, 15);
    return c;
}

static Elem econd(int c)
{
    return (Elem){EL_COND, 0, c, false};
}

/* Up to 4 elements no event can satisfy two of; returns how many. */
static int gen_family(Rng *r, Decl *d, Elem *f)
{
    int n = 0;
    switch (rnd(r, 4)) {
    case 0: {   /* x ranges: [x < c1], [x >= c1 && x < c2], ..., or x == c */
        if (chance(r, 50)) {
            int c1 = 1 + rnd(r, 2), c2 = c1 + 1 + rnd(r, 2);
            f[n++] = econd(catom(d, CK_XCMP, OP_LT, c1));
            f[n++] = econd(cbin(d, CK_AND, catom(d, CK_XCMP, OP_GE, c1), catom(d, CK_XCMP, OP_LT, c2)));
            f[n++] = econd(catom(d, CK_XCMP, OP_GE, c2));
            d->pool[f[2].root].flip = chance(r, 30);
        } else {
            for (int v = 0; v < 4; v++)
                f[n++] = econd(catom(d, CK_XCMP, OP_EQ, v));
        }
        break;
    }
    case 1: {   /* types in groups: shorthand, [t == V], [t == V && x ...], [t == V || t == W] */
        int perm[NT] = {0, 1, 2, 3};
        for (int i = NT - 1; i > 0; i--) {
            int j = rnd(r, i + 1), t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        for (int i = 0; i < NT;) {
            int size = i + 1 < NT && chance(r, 30) ? 2 : 1;
            if (size == 2)
                f[n++] = econd(cbin(d, CK_OR, catom(d, CK_TEQ, 0, perm[i]), catom(d, CK_TEQ, 0, perm[i + 1])));
            else if (chance(r, 40))
                f[n++] = (Elem){EL_T, perm[i], -1, false};
            else if (chance(r, 50))
                f[n++] = econd(catom(d, CK_TEQ, 0, perm[i]));
            else
                f[n++] = econd(cbin(d, CK_AND, catom(d, CK_TEQ, 0, perm[i]), gen_atom(r, d)));
            i += size;
        }
        break;
    }
    case 2: {   /* one type split by x, the others by g */
        int v = rnd(r, NT), c = 1 + rnd(r, 3);
        f[n++] = econd(cbin(d, CK_AND, catom(d, CK_TEQ, 0, v), catom(d, CK_XCMP, OP_LT, c)));
        f[n++] = econd(cbin(d, CK_AND, catom(d, CK_TEQ, 0, v),
                            cbin(d, CK_NOT, catom(d, CK_XCMP, OP_LT, c), -1)));
        f[n++] = econd(cbin(d, CK_AND, catom(d, CK_TNE, 0, v), catom(d, CK_GEQ, 0, 0)));
        f[n++] = econd(cbin(d, CK_AND, catom(d, CK_TNE, 0, v), catom(d, CK_GEQ, 0, 1)));
        break;
    }
    default: {  /* g, then x within Q */
        int c = rnd(r, 3);
        f[n++] = chance(r, 50) ? (Elem){EL_G, 0, -1, false} : econd(catom(d, CK_GEQ, 0, 0));
        f[n++] = econd(cbin(d, CK_AND, catom(d, CK_GEQ, 0, 1), catom(d, CK_XCMP, OP_GT, c)));
        f[n++] = econd(cbin(d, CK_AND, catom(d, CK_GNE, 0, 0), catom(d, CK_XCMP, OP_LE, c)));
        break;
    }
    }
    return n;
}

static Elem gen_elem(Rng *r, Decl *d)
{
    int k = rnd(r, 100);
    if (k < 30)
        return (Elem){EL_T, rnd(r, NT), -1, false};
    if (k < 38)
        return (Elem){EL_G, rnd(r, 2), -1, false};
    if (k < 48)
        return (Elem){EL_ANY, 0, -1, false};
    return econd(gen_cond(r, d, 2));
}

static bool elem_holds(const Decl *d, const Elem *el, const Event *e)
{
    switch (el->kind) {
    case EL_T: return e->t == el->v;
    case EL_G: return e->g == el->v;
    case EL_ANY: return true;
    default: return ceval(d, el->root, e);
    }
}

static uint32_t emask(const Decl *d, const Event *e)
{
    uint32_t m = 0;
    for (int i = 0; i < d->nel; i++)
        if (elem_holds(d, &d->el[i], e))
            m |= 1u << i;
    return m;
}

/* Two elements share an event of the domain t, g, x in -3..7. */
static bool overlap_in_domain(const Decl *d)
{
    for (int t = 0; t < NT; t++)
        for (int g = 0; g < 2; g++)
            for (int x = -3; x <= 7; x++) {
                Event e = {t, g, x, 1, 0};
                uint32_t m = emask(d, &e);
                if (m & (m - 1))
                    return true;
            }
    return false;
}

/* ---- declarations --------------------------------------------------------------------------- */

static const int64_t tight_ms[] = {500, 1000, 1500, 2000};
static const int64_t loose_ms[] = {3000, 5000, 60000};

static void gen_window(Rng *r, Decl *d, bool tight)
{
    if (chance(r, 50)) {
        d->win = 1;
        d->width = tight ? 1 + rnd(r, 5) : (int64_t[]){6, 8, 12, 40}[rnd(r, 4)];
    } else {
        d->win = 2;
        d->width = tight ? tight_ms[rnd(r, 4)] : loose_ms[rnd(r, 3)];
    }
}

static void window_text(Rng *r, const Decl *d, Str *s)
{
    if (d->win == 1)
        str_add(s, " within %lld events", (long long)d->width);
    else if (d->win == 2) {
        if (d->width % 60000 == 0 && chance(r, 70))
            str_add(s, " within %lld min", (long long)(d->width / 60000));
        else if (d->width % 1000 == 0 && chance(r, 70))
            str_add(s, " within %lld s", (long long)(d->width / 1000));
        else
            str_add(s, " within %lld ms", (long long)d->width);
    }
}

/* The partition clause of Decl.part 1..3 (0: none). */
static const char *const part_names[4] = {"", "k", "g", "g, k"};

static void gen_episode(Rng *r, Decl *d, int idx)
{
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "e%d", idx);
    int kr = rnd(r, 100);
    d->nel = kr < 10 ? 1 : kr < 45 ? 2 : kr < 80 ? 3 : 4;
    d->distinct = chance(r, 50);
    d->part = rnd(r, 100) < 40 ? 0 : chance(r, 65) ? 1 : 2;
    if (d->part && chance(r, 25))
        d->part = 3;   /* a composite key: g, k */
    gen_window(r, d, chance(r, d->distinct ? 80 : 50));   /* the distinct oracle prefers tight windows */
    d->alert_given = chance(r, 40);
    d->alert = 1 + rnd(r, 4);
    int mode = rnd(r, 3);
    if (mode == 0) {            /* shorthands of one enum: the table, repeats possible */
        int span = 2 + rnd(r, 3);
        bool g = chance(r, 15);
        for (int i = 0; i < d->nel; i++)
            d->el[i] = (Elem){g ? EL_G : EL_T, rnd(r, g ? 2 : span), -1, false};
    } else if (mode == 1) {     /* an exclusive family, repeats sometimes */
        Elem f[NT];
        int nf = gen_family(r, d, f);
        bool repeat = chance(r, 30);
        if (d->nel > nf && !repeat)
            d->nel = nf;
        for (int i = 0; i < d->nel; i++) {
            int j = rnd(r, nf - (repeat ? 0 : i));
            d->el[i] = f[j];
            if (!repeat) {
                f[j] = f[nf - 1 - i];
                f[nf - 1 - i] = d->el[i];
            }
        }
    } else {                    /* a pool of up to 3 random elements */
        Elem f[3];
        int nf = 1 + rnd(r, 3);
        for (int i = 0; i < nf; i++)
            f[i] = gen_elem(r, d);
        for (int i = 0; i < d->nel; i++)
            d->el[i] = f[rnd(r, nf)];
    }
    for (int i = 0; i < d->nel; i++)
        d->el[i].quote = chance(r, 10);
    Str s = {0};
    str_add(&s, "episode %s on S", d->name);
    if (d->part)
        str_add(&s, " partition by %s", part_names[d->part]);
    window_text(r, d, &s);
    if (d->distinct)
        str_add(&s, " frequency distinct");
    else if (chance(r, 50))
        str_add(&s, " frequency nonoverlapped");
    str_add(&s, " {");
    for (int i = 0; i < d->nel; i++) {
        const Elem *el = &d->el[i];
        if (el->kind == EL_T)
            str_add(&s, el->quote ? " \"%s\"" : " %s", tnames[el->v]);
        else if (el->kind == EL_G)
            str_add(&s, el->quote ? " \"%s\"" : " %s", gnames[el->v]);
        else if (el->kind == EL_ANY)
            str_add(&s, " _");
        else {
            str_add(&s, " [");
            cprint(d, el->root, &s);
            str_add(&s, "]");
        }
    }
    str_add(&s, " }");
    if (d->alert_given)
        str_add(&s, " alert when count >= %lld;", (long long)d->alert);
    snprintf(d->text, sizeof d->text, "%s\n", s.p);
    free(s.p);
}

static const char *const confs[] = {"0", "0.1", "0.2", "0.25", "0.3", "0.3333333333333333", "0.4", "0.5",
                                    "0.6", "1.0"};

static void gen_explore(Rng *r, Decl *d, int idx)
{
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "x%d", idx);
    d->explore = true;
    d->m = chance(r, 60) ? 2 : 3;
    int span = chance(r, 60) ? 2 : chance(r, 70) ? 3 : NT;   /* the other values are the candidates */
    for (int i = 0; i < d->m; i++)
        d->seq[i] = rnd(r, span);
    d->stam = chance(r, 50);
    d->part = rnd(r, 100) < 50 ? 0 : chance(r, 70) ? 1 : 2;
    if (d->part && chance(r, 25))
        d->part = 3;   /* a composite key: g, k */
    if (chance(r, 20))
        d->win = 0;
    else
        gen_window(r, d, chance(r, 50));
    if (d->win == 1 && d->width < d->m && chance(r, 80))   /* mostly windows that can hold a match */
        d->width = d->m + rnd(r, 3);
    int w = rnd(r, 3);
    d->ext = w != 1;
    d->var = w != 0;
    const char *conf = confs[rnd(r, (int)(sizeof confs / sizeof *confs))];
    d->conf = strtod(conf, NULL);
    Str s = {0};
    str_add(&s, "pattern %s on S", d->name);
    if (d->part)
        str_add(&s, " partition by %s", part_names[d->part]);
    window_text(r, d, &s);
    str_add(&s, " policy %s {", d->stam ? "stam" : "stnm");
    for (int i = 0; i < d->m; i++)
        str_add(&s, " %s", tnames[d->seq[i]]);
    str_add(&s, " } explore");
    bool swap = chance(r, 30);
    if (d->ext && !swap)
        str_add(&s, " extensions");
    if (d->var)
        str_add(&s, " variations");
    if (d->ext && swap)
        str_add(&s, " extensions");
    str_add(&s, " confidence %s;", conf);
    snprintf(d->text, sizeof d->text, "%s\n", s.p);
    free(s.p);
}

/* ---- the oracles ----------------------------------------------------------------------------- */

/* One partition's substream: global event indexes in order. */
typedef struct Sub {
    int64_t key;
    int     n, at[MAXLEN];
} Sub;

/* Event i's key: k, g, or the pair (g, k) packed into one int64. */
static int64_t key_of(const Decl *d, const Event *e)
{
    if (d->part == 3)
        return (int64_t)e->g << 32 | (int64_t)(uint32_t)e->k;
    return d->part == 1 ? e->k : d->part == 2 ? e->g : 0;
}

/* Substreams in order of first appearance; part[i]: which one event i joins. */
static int split(const Decl *d, const Event *ev, int n, Sub *subs, int *part)
{
    int nsubs = 0;
    for (int i = 0; i < n; i++) {
        int64_t key = key_of(d, &ev[i]);
        int s = 0;
        while (s < nsubs && subs[s].key != key)
            s++;
        if (s == nsubs) {
            subs[nsubs].key = key;
            subs[nsubs++].n = 0;
        }
        subs[s].at[subs[s].n++] = i;
        part[i] = s;
    }
    return nsubs;
}

static void add_key(Str *s, const Decl *d, int64_t key)
{
    if (d->part == 1)
        str_add(s, ",\"key\":\"%lld\"", (long long)key);
    else if (d->part == 2)
        str_add(s, ",\"key\":\"%s\"", gnames[key]);
    else if (d->part == 3)   /* docs/language.md 3.3: a typed JSON array */
        str_add(s, ",\"key\":[\"%s\",%d]", gnames[key >> 32], (int)(int32_t)(uint32_t)(key & 0xffffffff));
}

/* Positions p < q (0-based in the substream) are within the window. */
static bool in_window(const Decl *d, const Event *ev, const Sub *sb, int p, int q)
{
    if (d->win == 1)
        return q - p + 1 <= d->width;
    if (d->win == 2)
        return ev[sb->at[q]].ts - ev[sb->at[p]].ts <= d->width;
    return true;
}

/* An occurrence with first event s and last event e (substream positions). */
static bool occurs(const Decl *d, const Event *ev, const Sub *sb, const uint32_t *mask, int s, int e)
{
    int k = d->nel;
    if (!(mask[s] & 1u) || !(mask[e] & (1u << (k - 1))) || !in_window(d, ev, sb, s, e))
        return false;
    if (k == 1)
        return s == e;
    if (s >= e)
        return false;
    int need = 1;
    for (int q = s + 1; q < e && need < k - 1; q++)
        if (mask[q] & (1u << need))
            need++;
    return need == k - 1;
}

/* Nonoverlapped: f[p] after substream positions 0..p, by interval scheduling
 * over the (first, last) pairs that have an occurrence. */
static void freq_nonoverlapped(const Decl *d, const Event *ev, const Sub *sb, const uint32_t *mask, int *f)
{
    for (int e = 0; e < sb->n; e++) {
        int best = e ? f[e - 1] : 0;
        for (int s = 0; s <= e; s++)
            if (occurs(d, ev, sb, mask, s, e)) {
                int v = (s ? f[s - 1] : 0) + 1;
                if (v > best)
                    best = v;
            }
        f[e] = best;
    }
}

/* Nonoverlapped: the occurrence an episode record names (docs/language.md
 * 6), by enumeration: every occurrence ending at substream position e that
 * begins after position `after` (the end of the one counted before, -1),
 * the greatest list in lexicographic order kept in best. */
typedef struct OccSearch {
    const Decl *d;
    const Event *ev;
    const Sub *sb;
    const uint32_t *mask;
    int e, after;
    int cur[MAXK], best[MAXK];
    bool found;
} OccSearch;

static bool lex_greater(const int *a, const int *b, int k)
{
    for (int m = 0; m < k; m++)
        if (a[m] != b[m])
            return a[m] > b[m];
    return false;
}

/* Element m at a position from `from` on; the last one at e. */
static void occ_enum(OccSearch *o, int m, int from)
{
    int k = o->d->nel;
    if (m == k - 1) {
        if (from > o->e || !(o->mask[o->e] & (1u << m)))
            return;
        o->cur[m] = o->e;
        if (!in_window(o->d, o->ev, o->sb, o->cur[0], o->e))
            return;
        if (!o->found || lex_greater(o->cur, o->best, k))
            memcpy(o->best, o->cur, sizeof o->best);
        o->found = true;
        return;
    }
    for (int q = from; q < o->e; q++)
        if (o->mask[q] & (1u << m)) {
            o->cur[m] = q;
            occ_enum(o, m + 1, q + 1);
        }
}

/* ",\"occurrence\":[...]" of the record counted at e, in global indices;
 * false if no occurrence qualifies (the oracles disagree with each other). */
static bool add_occurrence(Str *s, const Decl *d, const Event *ev, const Sub *sb, const uint32_t *mask, int e,
                           int after)
{
    OccSearch o = {.d = d, .ev = ev, .sb = sb, .mask = mask, .e = e, .after = after, .found = false};
    occ_enum(&o, 0, after + 1);
    if (!o.found)
        return false;
    for (int m = 0; m < d->nel; m++)
        str_add(s, "%s%d", m ? "," : ",\"occurrence\":[", sb->at[o.best[m]] + 1);
    str_add(s, "]");
    return true;
}

/* Distinct: a state is the set of partial occurrences kept open (start
 * position -> elements matched so far) and the occurrences completed; every
 * event is skipped, starts a partial, or extends one. Partials that cannot
 * complete within their window with the events still to come are dropped. */
typedef struct DState {
    int     c;              /* occurrences completed */
    uint8_t n;              /* open partials */
    uint8_t start[MAXLEN], stage[MAXLEN];   /* by start, ascending */
} DState;

typedef struct DSet {
    DState  *s;
    int      n;
    uint64_t *tab;          /* open addressing: generation << 32 | index */
    uint64_t gen;           /* entries of older generations are empty */
    uint32_t mask;
} DSet;

static uint64_t dhash(const DState *st)
{
    uint64_t h = 1469598103934665603ull ^ st->n;
    for (int i = 0; i < st->n; i++)
        h = (h ^ (uint64_t)(st->start[i] * 8 + st->stage[i])) * 1099511628211ull;
    return h;
}

static bool dsame(const DState *a, const DState *b)
{
    return a->n == b->n && memcmp(a->start, b->start, a->n) == 0 && memcmp(a->stage, b->stage, a->n) == 0;
}

/* false if the set is full */
static bool dset_add(DSet *d, const DState *st)
{
    uint32_t h = (uint32_t)dhash(st) & d->mask;
    while (d->tab[h] >> 32 == d->gen) {
        DState *o = &d->s[(uint32_t)d->tab[h]];
        if (dsame(o, st)) {
            if (st->c > o->c)
                o->c = st->c;
            return true;
        }
        h = (h + 1) & d->mask;
    }
    if (d->n >= DSTATES)
        return false;
    d->s[d->n] = *st;
    d->tab[h] = d->gen << 32 | (uint32_t)d->n++;
    return true;
}

/* A partial started at position j with `stage` elements can still complete
 * with positions after p. */
static bool can_complete(const Decl *d, const Event *ev, const Sub *sb, const uint32_t *mask, int j, int stage,
                         int p)
{
    int need = stage;
    for (int q = p + 1; q < sb->n && in_window(d, ev, sb, j, q); q++)
        if (mask[q] & (1u << need))
            if (++need == d->nel)
                return true;
    return false;
}

/* Inserts st after position p, its hopeless partials dropped. */
static bool dput(DSet *set, const Decl *d, const Event *ev, const Sub *sb, const uint32_t *mask, DState st, int p)
{
    int w = 0;
    for (int i = 0; i < st.n; i++)
        if (can_complete(d, ev, sb, mask, st.start[i], st.stage[i], p)) {
            st.start[w] = st.start[i];
            st.stage[w++] = st.stage[i];
        }
    st.n = (uint8_t)w;
    return dset_add(set, &st);
}

static DSet dsets[2];

static bool freq_distinct(const Decl *d, const Event *ev, const Sub *sb, const uint32_t *mask, int *f)
{
    for (int b = 0; b < 2; b++)
        if (!dsets[b].s) {
            dsets[b].s = malloc(sizeof(DState) * DSTATES);
            dsets[b].mask = (1u << 17) - 1;
            dsets[b].tab = calloc(dsets[b].mask + 1, sizeof(uint64_t));
            if (!dsets[b].s || !dsets[b].tab)
                abort();
        }
    DSet *cur = &dsets[0], *nxt = &dsets[1];
    cur->gen++;
    cur->n = 0;
    DState empty = {0};
    dset_add(cur, &empty);
    int k = d->nel;
    for (int p = 0; p < sb->n; p++) {
        nxt->gen++;
        nxt->n = 0;
        uint32_t m = mask[p];
        int best = 0;
        for (int i = 0; i < cur->n; i++) {
            const DState *st = &cur->s[i];
            DState t = *st;
            if (!dput(nxt, d, ev, sb, mask, t, p))       /* skip the event */
                return false;
            if (m & 1u) {                                /* start */
                t = *st;
                if (k == 1)
                    t.c++;
                else {
                    t.start[t.n] = (uint8_t)p;           /* p is above every start */
                    t.stage[t.n++] = 1;
                }
                if (!dput(nxt, d, ev, sb, mask, t, p))
                    return false;
            }
            for (int j = 0; j < st->n; j++) {            /* extend partial j */
                if (!(m & (1u << st->stage[j])) || !in_window(d, ev, sb, st->start[j], p))
                    continue;
                t = *st;
                if (st->stage[j] + 1 == k) {
                    t.c++;
                    memmove(t.start + j, t.start + j + 1, (size_t)(t.n - j - 1));
                    memmove(t.stage + j, t.stage + j + 1, (size_t)(t.n - j - 1));
                    t.n--;
                } else
                    t.stage[j]++;
                if (!dput(nxt, d, ev, sb, mask, t, p))
                    return false;
            }
        }
        for (int i = 0; i < nxt->n; i++)
            if (nxt->s[i].c > best)
                best = nxt->s[i].c;
        f[p] = best;
        DSet *tmp = cur;
        cur = nxt;
        nxt = tmp;
    }
    return true;
}

/* Records of an episode: recs[i] for event i, then its summaries. */
static bool oracle_episode(const Decl *d, const Event *ev, int n, Str *recs, Str *sum)
{
    Sub subs[MAXLEN];
    int part[MAXLEN];
    int nsubs = split(d, ev, n, subs, part);
    for (int s = 0; s < nsubs; s++) {
        const Sub *sb = &subs[s];
        uint32_t mask[MAXLEN];
        int f[MAXLEN];
        for (int p = 0; p < sb->n; p++)
            mask[p] = emask(d, &ev[sb->at[p]]);
        if (d->distinct) {
            if (!freq_distinct(d, ev, sb, mask, f))
                return false;
        } else
            freq_nonoverlapped(d, ev, sb, mask, f);
        int counted = -1;   /* nonoverlapped: end of the occurrence counted last */
        for (int p = 0; p < sb->n; p++) {
            if (p ? f[p] == f[p - 1] : f[p] == 0)
                continue;
            int i = sb->at[p];
            for (int kind = 0; kind < 2; kind++) {
                if (kind == 1 && !(d->alert_given && f[p] == d->alert))
                    continue;
                str_add(&recs[i], "{\"kind\":\"%s\",\"name\":\"%s\",\"index\":%d,\"ts\":%lld",
                        kind ? "alert" : "episode", d->name, i + 1, (long long)ev[i].ts);
                add_key(&recs[i], d, sb->key);
                str_add(&recs[i], ",\"freq\":%d", f[p]);
                if (kind == 0 && !d->distinct && !add_occurrence(&recs[i], d, ev, sb, mask, p, counted)) {
                    fprintf(stderr, "diff_decl: %s: the frequency grew at event %d, but no occurrence "
                                    "ends there after event %d\n", d->name, i + 1,
                            counted < 0 ? 0 : sb->at[counted] + 1);
                    exit(2);
                }
                str_add(&recs[i], "}\n");
            }
            counted = p;
        }
        str_add(sum, "{\"kind\":\"summary\",\"name\":\"%s\"", d->name);
        add_key(sum, d, sb->key);
        str_add(sum, ",\"events\":%d,\"freq\":%d}\n", sb->n, sb->n ? f[sb->n - 1] : 0);
    }
    if (nsubs == 0 && !d->part)
        str_add(sum, "{\"kind\":\"summary\",\"name\":\"%s\",\"events\":0,\"freq\":0}\n", d->name);
    return true;
}

/* Matches of seq (len) ending at substream position e under d's policy and
 * window. */
static uint64_t count_matches(const Decl *d, const Event *ev, const Sub *sb, const int *seq, int len, int e)
{
    uint64_t total = 0;
    if (ev[sb->at[e]].t != seq[len - 1])
        return 0;
    for (int s = 0; s < e; s++) {
        if (ev[sb->at[s]].t != seq[0] || !in_window(d, ev, sb, s, e))
            continue;
        if (d->stam) {      /* w[q][r]: lists of the first r + 1 types from s ending at q */
            uint64_t w[MAXLEN][4] = {{0}};
            w[s][0] = 1;
            for (int q = s + 1; q <= e; q++)
                for (int r = 1; r < len; r++)
                    if (ev[sb->at[q]].t == seq[r])
                        for (int q2 = s; q2 < q; q2++)
                            w[q][r] += w[q2][r - 1];
            total += w[e][len - 1];
        } else {            /* the one chain from s */
            int cur = s, r;
            for (r = 1; r < len; r++) {
                int q = cur + 1;
                while (q < sb->n && ev[sb->at[q]].t != seq[r])
                    q++;
                if (q >= sb->n)
                    break;
                cur = q;
            }
            if (r == len && cur == e)
                total++;
        }
    }
    return total;
}

typedef struct Cand {
    bool     var;
    int      x;
    uint64_t freq;
} Cand;

static void add_sequence(Str *s, const Decl *d, bool var, int x)
{
    str_add(s, "\"candidate\":\"%s\",\"sequence\":[", var ? "variation" : "extension");
    int len = var ? d->m - 1 : d->m;
    for (int i = 0; i < len; i++)
        str_add(s, "\"%s\",", tnames[d->seq[i]]);
    str_add(s, "\"%s\"]", tnames[x]);
}

static void oracle_explore(const Decl *d, const Event *ev, int n, Str *recs, Str *sum)
{
    Sub subs[MAXLEN];
    int part[MAXLEN], pos[MAXLEN];
    int nsubs = split(d, ev, n, subs, part);
    for (int s = 0; s < nsubs; s++)
        for (int p = 0; p < subs[s].n; p++)
            pos[subs[s].at[p]] = p;
    uint64_t fp = 0, fx[2][NT] = {{0}}, total = 0;
    bool done[2][NT] = {{false}};
    for (int i = 0; i < n; i++) {
        const Sub *sb = &subs[part[i]];
        int x = ev[i].t, e = pos[i];
        uint64_t cp = count_matches(d, ev, sb, d->seq, d->m, e);
        bool in = false;
        for (int r = 0; r < d->m; r++)
            in |= d->seq[r] == x;
        uint64_t c[2] = {0, 0};
        if (!in) {
            int cand[4];
            memcpy(cand, d->seq, sizeof d->seq);
            if (d->ext) {
                cand[d->m] = x;
                c[0] = count_matches(d, ev, sb, cand, d->m + 1, e);
            }
            if (d->var) {
                cand[d->m - 1] = x;
                c[1] = count_matches(d, ev, sb, cand, d->m, e);
            }
        }
        fp += cp;
        fx[0][x] += c[0];
        fx[1][x] += c[1];
        total += cp + c[0] + c[1];
        if (cp) {
            str_add(&recs[i], "{\"kind\":\"match\",\"name\":\"%s\",\"index\":%d,\"ts\":%lld", d->name, i + 1,
                    (long long)ev[i].ts);
            add_key(&recs[i], d, sb->key);
            str_add(&recs[i], "}\n");
        }
        for (int v = 0; v < 2; v++)     /* every candidate, not only X's */
            for (int y = 0; y < NT; y++) {
                if (!fx[v][y] || done[v][y] || !((double)fx[v][y] / (double)total >= d->conf))
                    continue;
                done[v][y] = true;
                str_add(&recs[i], "{\"kind\":\"suggest\",\"name\":\"%s\",\"index\":%d,\"ts\":%lld", d->name,
                        i + 1, (long long)ev[i].ts);
                str_add(&recs[i], ",");
                add_sequence(&recs[i], d, v, y);
                str_add(&recs[i], ",\"freq\":%llu,\"confidence\":", (unsigned long long)fx[v][y]);
                add_double(&recs[i], (double)fx[v][y] / (double)total);
                str_add(&recs[i], "}\n");
            }
    }
    /* the summary: the 3 best candidates, freq descending, extensions first, enum order */
    Cand best[2 * NT];
    int nb = 0;
    for (int v = 0; v < 2; v++)
        for (int y = 0; y < NT; y++)
            if (fx[v][y])
                best[nb++] = (Cand){v, y, fx[v][y]};
    for (int a = 1; a < nb; a++)        /* stable insertion sort by freq */
        for (int b = a; b > 0 && best[b].freq > best[b - 1].freq; b--) {
            Cand t = best[b];
            best[b] = best[b - 1];
            best[b - 1] = t;
        }
    str_add(sum, "{\"kind\":\"summary\",\"name\":\"%s\",\"events\":%d,\"freq\":%llu,\"best\":[", d->name, n,
            (unsigned long long)fp);
    for (int b = 0; b < nb && b < 3; b++) {
        str_add(sum, "%s{", b ? "," : "");
        add_sequence(sum, d, best[b].var, best[b].x);
        str_add(sum, ",\"freq\":%llu,\"confidence\":", (unsigned long long)best[b].freq);
        add_double(sum, (double)best[b].freq / (double)total);
        str_add(sum, "}");
    }
    str_add(sum, "]}\n");
}

/* The expected JSONL output of decls on the stream. An episode whose
 * oracle gives up (too many states) has no records there and gaveup[d]
 * set; without gaveup, expect then returns false. */
static bool expect(const Decl *decls, int nd, const Event *ev, int n, Str *out, bool *gaveup)
{
    static Str recs[MAXDECLS][MAXLEN], sums[MAXDECLS];
    str_clear(out);
    str_add(out, "%s", "");
    for (int d = 0; d < nd; d++) {
        str_clear(&sums[d]);
        for (int i = 0; i < n; i++)
            str_clear(&recs[d][i]);
        if (gaveup)
            gaveup[d] = false;
        if (decls[d].explore)
            oracle_explore(&decls[d], ev, n, recs[d], &sums[d]);
        else if (!oracle_episode(&decls[d], ev, n, recs[d], &sums[d])) {
            if (!gaveup)
                return false;
            gaveup[d] = true;
            str_clear(&sums[d]);
            for (int i = 0; i < n; i++)
                str_clear(&recs[d][i]);
        }
    }
    for (int i = 0; i < n; i++)
        for (int d = 0; d < nd; d++)
            if (recs[d][i].n)
                str_add(out, "%s", recs[d][i].p);
    for (int d = 0; d < nd; d++)
        if (sums[d].n)
            str_add(out, "%s", sums[d].p);
    return true;
}

/* ---- programs ---------------------------------------------------------------------------------- */

/* Runs prog on csv with --explore-algo algo; its stdout into out. The
 * exit status (-1: could not run; 99: wrote to stderr). */
static int run_program(const char *prog, const char *csv, const char *algo, Str *out)
{
    char cmd[2048], err[1100];
    snprintf(err, sizeof err, "%s.stderr", csv);
    snprintf(cmd, sizeof cmd, "%s --format jsonl --distinct-budget %d --explore-algo %s %s 2>%s", prog, BUDGET,
             algo, csv, err);
    str_clear(out);
    str_add(out, "%s", "");     /* out->p is a string even if nothing comes */
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    char buf[4096];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf - 1, p)) > 0) {
        buf[k] = '\0';
        str_add(out, "%s", buf);
    }
    int rc = pclose(p);
    if (rc != 0)
        return rc;
    FILE *e = fopen(err, "r");
    if (e) {
        int c = fgetc(e);
        fclose(e);
        if (c != EOF)
            return 99;
    }
    return 0;
}

static bool write_srem(const char *path, const Decl *decls, int nd)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fputs(SCHEMA, f);
    for (int d = 0; d < nd; d++)
        fputs(decls[d].text, f);
    return fclose(f) == 0;
}

static int sh(const char *cmd)
{
    return system(cmd);
}

/* Builds prog from path; also emits path's C to read the exclusivity proofs. */
static bool build(const char *sremc, const char *path, const char *prog)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "CFLAGS=-O0 %s build %s -o %s 2>%s.log && %s %s -o %s.c 2>>%s.log", sremc, path,
             prog, prog, sremc, path, prog, prog);
    return sh(cmd) == 0;
}

/* Builds every program, GEN_DIFF_JOBS (default 2) at a time. */
static void build_all(const char *sremc, char (*paths)[512], char (*progs)[512], bool *built, int n)
{
    const char *env = getenv("GEN_DIFF_JOBS");
    int par = env && atoi(env) > 0 ? atoi(env) : 2, running = 0, next = 0;
    pid_t *pids = calloc((size_t)n, sizeof *pids);
    fflush(NULL);
    while (next < n || running > 0) {
        if (next < n && running < par) {
            int j = next++;
            pid_t pid = fork();
            if (pid == 0)
                _exit(build(sremc, paths[j], progs[j]) ? 0 : 1);
            if (pid < 0)
                built[j] = build(sremc, paths[j], progs[j]);
            else {
                pids[j] = pid;
                running++;
            }
            continue;
        }
        int status;
        pid_t pid = wait(&status);
        if (pid < 0)
            break;
        running--;
        for (int j = 0; j < n; j++)
            if (pids[j] == pid)
                built[j] = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }
    free(pids);
}

/* Reads the generated C: which episodes the compiler proved exclusive. */
static void read_proofs(const char *prog, Decl *decls, int nd)
{
    char path[600], line[2048];
    snprintf(path, sizeof path, "%s.c", prog);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "/* ---- episode ", 16) != 0)
            continue;
        for (int d = 0; d < nd; d++) {
            size_t len = strlen(decls[d].name);
            if (!decls[d].explore && strncmp(line + 16, decls[d].name, len) == 0 && line[16 + len] == ' ')
                decls[d].proved = strstr(line, "pairwise exclusive (proved)") != NULL;
        }
    }
    fclose(f);
}

static void print_stream(FILE *f, const Event *ev, int n)
{
    fputs("t,g,x,k,time\n", f);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s,%s,%d,%d,%lld\n", tnames[ev[i].t], gnames[ev[i].g], ev[i].x, ev[i].k,
                (long long)ev[i].ts);
}

/* First differing line of a and b: its number (1-based), copies of both. */
static int first_diff(const char *a, const char *b, char *la, char *lb, size_t size)
{
    for (int line = 1;; line++) {
        const char *ea = strchr(a, '\n'), *eb = strchr(b, '\n');
        size_t na = ea ? (size_t)(ea - a) : strlen(a), nb = eb ? (size_t)(eb - b) : strlen(b);
        if (na != nb || memcmp(a, b, na) != 0 || !ea != !eb) {
            snprintf(la, size, "%.*s", (int)(na < size - 1 ? na : size - 1), a);
            snprintf(lb, size, "%.*s", (int)(nb < size - 1 ? nb : size - 1), b);
            if (!*a)
                snprintf(la, size, "(end of output)");
            if (!*b)
                snprintf(lb, size, "(end of output)");
            return line;
        }
        if (!ea)
            return 0;
        a = ea + 1;
        b = eb + 1;
    }
}

/* The lines of text whose record names decl `name`, into out. */
static void lines_of(const char *text, const char *name, Str *out)
{
    char key[64];
    snprintf(key, sizeof key, "\"name\":\"%s\"", name);
    str_clear(out);
    while (*text) {
        const char *end = strchr(text, '\n');
        size_t len = end ? (size_t)(end - text) + 1 : strlen(text);
        char *hit = strstr(text, key);
        if (hit && hit < text + len)
            str_add(out, "%.*s", (int)len, text);
        text += len;
    }
}

/* Drops from text the lines whose record names decl `name`. */
static void drop_lines(Str *text, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "\"name\":\"%s\"", name);
    size_t w = 0;
    for (size_t at = 0; at < text->n;) {
        const char *line = text->p + at, *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) + 1 : strlen(line);
        const char *hit = strstr(line, key);
        if (!hit || hit >= line + len) {
            memmove(text->p + w, line, len);
            w += len;
        }
        at += len;
    }
    text->n = w;
    if (text->p)
        text->p[w] = '\0';
}

/* Match records without their "start" and "bind": what matched is
 * diff_codegen's to check (against interp_canonical, on every strategy),
 * this oracle counts explore matches and suggestions. */
static void drop_what_matched(Str *text)
{
    static const char *const fields[] = {",\"start\":", ",\"bind\":{"};
    for (int f = 0; f < 2; f++)
        for (char *p; text->p && (p = strstr(text->p, fields[f])) != NULL;) {
            char *end = p + strlen(fields[f]);
            end = f ? strchr(end, '}') + 1 : end + strspn(end, "0123456789");
            memmove(p, end, strlen(end) + 1);
            text->n -= (size_t)(end - p);
        }
}

/* The first declaration whose own records differ, or -1 (then only their
 * interleaving does). */
static int decl_differs(const char *want, const char *got, const Decl *decls, int nd)
{
    Str a = {0}, b = {0};
    int found = -1;
    for (int d = 0; d < nd && found < 0; d++) {
        lines_of(want, decls[d].name, &a);
        lines_of(got, decls[d].name, &b);
        if ((a.p ? strcmp(a.p, b.p ? b.p : "") : b.n != 0) != 0)
            found = d;
    }
    free(a.p);
    free(b.p);
    return found;
}

/* The single declaration fails on the stream under algo. */
static bool fails(const char *prog, const char *csv, const char *algo, const Decl *d, const Event *ev, int n,
                  Str *want, Str *got)
{
    if (!write_csv(csv, ev, n) || !expect(d, 1, ev, n, want, NULL))
        return false;
    int rc = run_program(prog, csv, algo, got);
    return rc != 0 || strcmp(want->p, got->p) != 0;
}

/* Builds d alone and drops events while it still fails; prints the result. */
static void shrink(const char *sremc, const char *dir, const Decl *d, const Event *ev0, int n0, const char *algo)
{
    char path[600], prog[600], csv[600];
    snprintf(path, sizeof path, "%s/shrink.srem", dir);
    snprintf(prog, sizeof prog, "%s/shrink", dir);
    snprintf(csv, sizeof csv, "%s/shrink.csv", dir);
    Event ev[MAXLEN];
    int n = n0;
    memcpy(ev, ev0, sizeof(Event) * (size_t)n);
    Str want = {0}, got = {0};
    if (!write_srem(path, d, 1) || !build(sremc, path, prog)) {
        fprintf(stderr, "shrink: cannot build %s alone\n", d->name);
        return;
    }
    if (!fails(prog, csv, algo, d, ev, n, &want, &got)) {
        fprintf(stderr, "shrink: %s alone passes on the stream (the failure needs the other declarations)\n",
                d->name);
        return;
    }
    int runs = 0;
    for (bool again = true; again && runs < SHRINK_RUNS;) {
        again = false;
        for (int i = 0; i < n && runs < SHRINK_RUNS; i++) {
            Event keep = ev[i];
            memmove(ev + i, ev + i + 1, sizeof(Event) * (size_t)(n - i - 1));
            runs++;
            if (fails(prog, csv, algo, d, ev, n - 1, &want, &got)) {
                n--;
                i--;
                again = true;
            } else {
                memmove(ev + i + 1, ev + i, sizeof(Event) * (size_t)(n - i - 1));
                ev[i] = keep;
            }
        }
    }
    fails(prog, csv, algo, d, ev, n, &want, &got);
    fprintf(stderr, "minimized (--explore-algo %s, %d events):\n%s%s", algo, n, SCHEMA, d->text);
    print_stream(stderr, ev, n);
    fprintf(stderr, "expected:\n%sgot:\n%s", want.p, got.p);
    free(want.p);
    free(got.p);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s SREMC WORKDIR [NPROGRAMS [SEED [DECLS]]]\n", argv[0]);
        return 2;
    }
    const char *sremc = argv[1], *dir = argv[2];
    const char *scale_env = getenv("SREMC_DIFF_SCALE");
    int scale = scale_env && atoi(scale_env) > 0 ? atoi(scale_env) : 1;
    int nprog = (argc > 3 ? atoi(argv[3]) : 12) * scale;
    uint64_t seed = argc > 4 ? strtoull(argv[4], NULL, 0) : 20240611u;
    int nd = argc > 5 ? atoi(argv[5]) : 16;
    if (nprog < 1 || nd < 1 || nd > MAXDECLS) {
        fprintf(stderr, "%s: NPROGRAMS must be positive and DECLS in 1..%d\n", argv[0], MAXDECLS);
        return 2;
    }
    Rng r = {seed};
    Decl (*decls)[MAXDECLS] = calloc((size_t)nprog, sizeof *decls);
    char (*paths)[512] = calloc((size_t)nprog, sizeof *paths);
    char (*progs)[512] = calloc((size_t)nprog, sizeof *progs);
    bool *built = calloc((size_t)nprog, sizeof *built);
    if (!decls || !paths || !progs || !built)
        return 2;
    int nepisodes = 0, nexplore = 0, nproved = 0, nexclusive = 0, ndistinct = 0, noverlap = 0, failures = 0;
    for (int b = 0; b < nprog; b++) {
        for (int d = 0; d < nd; d++) {
            if (chance(&r, 60))
                gen_episode(&r, &decls[b][d], d);
            else
                gen_explore(&r, &decls[b][d], d);
        }
        snprintf(paths[b], sizeof paths[b], "%s/decl_%d.srem", dir, b);
        snprintf(progs[b], sizeof progs[b], "%s/decl_%d", dir, b);
        if (!write_srem(paths[b], decls[b], nd))
            return 2;
    }
    build_all(sremc, paths, progs, built, nprog);
    Str want = {0}, got = {0};
    int compared = 0, runs = 0, skipped = 0, records[NKINDS] = {0};
    Event ev[MAXLEN];
    for (int b = 0; b < nprog && !failures; b++) {
        if (!built[b]) {
            char cmd[1200];
            fprintf(stderr, "FAIL: seed %llu: cannot build %s (%s.log):\n", (unsigned long long)seed, paths[b],
                    progs[b]);
            snprintf(cmd, sizeof cmd, "tail -20 %s.log >&2", progs[b]);
            sh(cmd);
            failures++;
            break;
        }
        read_proofs(progs[b], decls[b], nd);
        for (int d = 0; d < nd; d++) {
            const Decl *x = &decls[b][d];
            if (x->explore) {
                nexplore++;
                continue;
            }
            nepisodes++;
            ndistinct += x->distinct;
            nproved += x->proved;
            bool excl = !overlap_in_domain(x);
            nexclusive += excl;
            noverlap += x->distinct && !x->proved;
            if (excl && !x->proved && getenv("DIFF_DECL_VERBOSE"))
                printf("diff_decl: %s: %s: exclusive on the test domain, not proved: %s", paths[b], x->name,
                       x->text);
            if (x->proved && !excl) {
                fprintf(stderr, "FAIL: seed %llu: %s: the compiler proved the elements of %s exclusive, but an "
                        "event satisfies two of them:\n%s", (unsigned long long)seed, paths[b], x->name,
                        x->text);
                failures++;
            }
        }
        char csv[600];
        snprintf(csv, sizeof csv, "%s/decl_%d.csv", dir, b);
        for (int s = 0; s < STREAMS && !failures; s++) {
            int n = gen_stream(&r, ev);
            bool gaveup[MAXDECLS];
            int ngaveup = 0;
            expect(decls[b], nd, ev, n, &want, gaveup);
            for (int d = 0; d < nd; d++)
                ngaveup += gaveup[d];
            skipped += ngaveup;
            if (!write_csv(csv, ev, n))
                return 2;
            for (int a = 0; a < NALGOS && !failures; a++) {
                int rc = run_program(progs[b], csv, algos[a], &got);
                drop_what_matched(&got);
                for (int d = 0; d < nd; d++)
                    if (gaveup[d])
                        drop_lines(&got, decls[b][d].name);
                runs++;
                compared += nd - ngaveup;
                int line = 0;
                char la[1024], lb[1024];
                if (rc == 0 && (line = first_diff(want.p, got.p, la, lb, sizeof la)) == 0) {
                    for (const char *p = got.p; (p = strstr(p, "{\"kind\":\"")) != NULL; p++)
                        for (int k = 0; k < NKINDS; k++)
                            if (strncmp(p + 9, kinds[k], strlen(kinds[k])) == 0 && p[9 + strlen(kinds[k])] == '"')
                                records[k]++;
                    continue;
                }
                failures++;
                fprintf(stderr, "MISMATCH: seed %llu, program %s, stream %d, --explore-algo %s, exit status %d\n",
                        (unsigned long long)seed, paths[b], s, algos[a], rc);
                if (rc == 0)
                    fprintf(stderr, "line %d:\n  expected %s\n  got      %s\n", line, la, lb);
                int d = decl_differs(want.p, got.p, decls[b], nd);
                fprintf(stderr, "stream (%s):\n", csv);
                print_stream(stderr, ev, n);
                if (d < 0)
                    fprintf(stderr, "every declaration's own records match: their order differs\n");
                else {
                    fprintf(stderr, "declaration:\n%s", decls[b][d].text);
                    shrink(sremc, dir, &decls[b][d], ev, n, algos[a]);
                }
            }
        }
    }
    printf("diff_decl: seed %llu, %d programs (scale %d) of %d declarations: %d episodes (%d distinct, %d of them "
           "not proved exclusive; %d proved exclusive, %d exclusive on the test domain), %d explore patterns; %d streams x %d explore algorithms "
           "= %d runs; %d declaration-stream pairs compared under each (%d episode-stream pairs skipped: oracle too costly); records "
           "matched: %d match, %d episode, %d alert, %d suggest, %d summary; %d failures\n",
           (unsigned long long)seed, nprog, scale, nd, nepisodes, ndistinct, noverlap, nproved, nexclusive, nexplore,
           runs / NALGOS, NALGOS, runs, compared / NALGOS, skipped, records[0], records[1], records[2], records[3],
           records[4], failures);
    free(want.p);
    free(got.p);
    free(decls);
    free(paths);
    free(progs);
    free(built);
    return failures ? 1 : 0;
}
