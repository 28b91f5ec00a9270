/* shrink.c: the scale knob, case counts and the minimizer of failing
 * differential cases (shrink.h). */
#define _POSIX_C_SOURCE 200809L
#include "shrink.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "gen.h"

/* ---- scale and counts --------------------------------------------------------- */

int diff_scale(void)
{
    const char *s = getenv("SREMC_DIFF_SCALE");
    if (!s || !*s)
        return 1;
    long v = strtol(s, NULL, 10);
    return v < 1 ? 1 : v > 10000 ? 10000 : (int)v;
}

static long total_cases;

void diff_summary(const char *name, long cases, long skipped, long failed)
{
    printf("diff %s: %ld cases (scale %d), %ld skipped, %ld failed\n", name, cases, diff_scale(), skipped,
           failed);
    fflush(stdout);
    total_cases += cases;
}

long diff_total(void) { return total_cases; }

/* ---- the minimizer ---------------------------------------------------------------- */

typedef struct Shrinker {
    ShrinkFails fails;
    void       *ctx;
    int         calls, max_calls;
    char       *src;
    Value      *values;   /* room for the original n events (at least 1) */
    int         n;
} Shrinker;

static bool budget_left(const Shrinker *s) { return s->calls < s->max_calls; }

static bool still_fails(Shrinker *s, const char *src, const Value *values, int n)
{
    s->calls++;
    return s->fails(src, values, n, s->ctx);
}

/* True iff src parses, checks and declares a pattern. */
static bool checks(const char *src)
{
    Arena arena;
    arena_init(&arena);
    Diag diag;
    size_t len = strlen(src);
    diag_init(&diag, "shrink.srem", src, len);
    Ast *ast = frontend_parse_check("shrink.srem", src, len, &arena, &diag);
    bool ok = diag.nerrors == 0;
    bool pattern = false;
    for (int i = 0; ok && i < ast->ndecls; i++)
        pattern = pattern || ast->decls[i].kind == DECL_PATTERN;
    diag_free(&diag);
    arena_free(&arena);
    return ok && pattern;
}

/* -- the stream -- */

static bool shrink_events(Shrinker *s)
{
    bool any = false;
    Value *tmp = malloc(sizeof(Value) * GEN_NATTRS * (size_t)(s->n > 0 ? s->n : 1));
    for (bool changed = true; changed && budget_left(s);) {
        changed = false;
        for (int chunk = s->n / 2 > 1 ? s->n / 2 : 1; chunk >= 1 && s->n > 0; chunk /= 2) {
            for (int i = 0; i + chunk <= s->n && budget_left(s);) {
                size_t w = GEN_NATTRS * sizeof(Value);
                memcpy(tmp, s->values, (size_t)i * w);
                memcpy(tmp + (size_t)i * GEN_NATTRS, s->values + (size_t)(i + chunk) * GEN_NATTRS,
                       (size_t)(s->n - i - chunk) * w);
                if (still_fails(s, s->src, tmp, s->n - chunk)) {
                    s->n -= chunk;
                    memcpy(s->values, tmp, (size_t)s->n * w);
                    changed = any = true;
                } else {
                    i += chunk;
                }
            }
        }
    }
    free(tmp);
    return any;
}

/* v and k to 0, a time to the one before it (so times stay sorted). */
static bool shrink_values(Shrinker *s)
{
    bool any = false;
    static const int attrs[] = {GEN_V, GEN_K, GEN_TIME};
    for (int e = 0; e < s->n && budget_left(s); e++)
        for (int a = 0; a < 3 && budget_left(s); a++) {
            Value *v = &s->values[(size_t)e * GEN_NATTRS + attrs[a]];
            int64_t old = v->i;
            int64_t simpler = attrs[a] != GEN_TIME ? 0 : e > 0 ? v[-GEN_NATTRS].i : 0;
            if (old == simpler)
                continue;
            v->i = simpler;
            if (still_fails(s, s->src, s->values, s->n))
                any = true;
            else
                v->i = old;
        }
    return any;
}

/* -- the pattern text -- */

typedef struct Cands {
    char **v;
    int    n, cap;
} Cands;

/* A candidate: src with [a, b) replaced by with[0..wlen). */
static void cand_splice(Cands *c, const char *src, size_t a, size_t b, const char *with, size_t wlen)
{
    size_t len = strlen(src);
    char *t = malloc(len - (b - a) + wlen + 1);
    memcpy(t, src, a);
    memcpy(t + a, with, wlen);
    memcpy(t + a + wlen, src + b, len - b + 1);
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 64;
        c->v = realloc(c->v, sizeof *c->v * (size_t)c->cap);
    }
    c->v[c->n++] = t;
}

/* src with the group [open, close] (its delimiters included) replaced by
 * its delimiters around [a, b). */
static void cand_operand(Cands *c, const char *src, size_t open, size_t close, size_t a, size_t b)
{
    while (a < b && isspace((unsigned char)src[a]))
        a++;
    while (b > a && isspace((unsigned char)src[b - 1]))
        b--;
    if (a == b)
        return;
    size_t wlen = b - a + 2;
    char *with = malloc(wlen);
    with[0] = src[open];
    memcpy(with + 1, src + a, b - a);
    with[wlen - 1] = src[close];
    cand_splice(c, src, open, close + 1, with, wlen);
    free(with);
}

static bool is_ident(char ch) { return isalnum((unsigned char)ch) || ch == '_'; }

/* Index of the delimiter closing the one at i (same kind), or 0. */
static size_t closing(const char *src, size_t i, size_t end)
{
    char open = src[i], close = open == '(' ? ')' : open == '[' ? ']' : '}';
    int depth = 0;
    for (size_t j = i; j < end; j++) {
        if (src[j] == open)
            depth++;
        else if (src[j] == close && --depth == 0)
            return j;
    }
    return 0;
}

/* Operands of the group whose contents are [a, b): split at its top-level
 * binary operators (`|` and `&` outside conditions, `&&` and `||` inside);
 * without any, outside conditions, the items of a sequence. */
static void cand_group(Cands *c, const char *src, size_t open, size_t close, bool in_cond)
{
    size_t a = open + 1, b = close;
    size_t cuts[256][2];
    int ncuts = 0;
    int depth = 0;
    for (size_t j = a; j < b && ncuts < 255; j++) {
        char ch = src[j];
        if (ch == '(' || ch == '[' || ch == '{')
            depth++;
        else if (ch == ')' || ch == ']' || ch == '}')
            depth--;
        else if (depth == 0 && (ch == '|' || ch == '&')) {
            size_t w = src[j + 1] == ch ? 2 : 1;
            if (in_cond == (w == 2)) {
                cuts[ncuts][0] = j;
                cuts[ncuts][1] = j + w;
                ncuts++;
            }
            j += w - 1;
        }
    }
    if (ncuts > 0) {
        size_t from = a;
        for (int k = 0; k <= ncuts; k++) {
            size_t to = k < ncuts ? cuts[k][0] : b;
            cand_operand(c, src, open, close, from, to);
            if (k < ncuts)
                from = cuts[k][1];
        }
        return;
    }
    if (in_cond)
        return;
    /* a sequence: drop one item (with the blank before it) */
    size_t items[256][2];
    int nitems = 0;
    depth = 0;
    for (size_t j = a; j < b && nitems < 256;) {
        while (j < b && isspace((unsigned char)src[j]))
            j++;
        if (j >= b)
            break;
        size_t s = j;
        for (; j < b; j++) {
            char ch = src[j];
            if (ch == '(' || ch == '[' || ch == '{')
                depth++;
            else if (ch == ')' || ch == ']' || ch == '}')
                depth--;
            else if (depth == 0 && isspace((unsigned char)ch))
                break;
        }
        items[nitems][0] = s;
        items[nitems][1] = j;
        nitems++;
    }
    if (nitems == 1 && src[open] == '(' && items[0][0] == a && items[0][1] == b)
        cand_splice(c, src, open, close + 1, src + a, b - a);   /* (X) -> X */
    if (nitems < 2)
        return;
    for (int k = 0; k < nitems; k++) {
        size_t s = k > 0 ? items[k - 1][1] : items[k][0];
        size_t e = k > 0 ? items[k][1] : items[k + 1][0];
        cand_splice(c, src, s, e, "", 0);
    }
}

/* Every simplification of src's first pattern, most drastic first. */
static void candidates(const char *src, Cands *c)
{
    const char *p = strstr(src, "pattern ");
    if (!p)
        return;
    size_t hs = (size_t)(p - src);
    const char *brace = strchr(p, '{');
    if (!brace)
        return;
    size_t b0 = (size_t)(brace - src);
    size_t b1 = closing(src, b0, strlen(src));
    if (!b1)
        return;
    /* the header */
    static const char *const clauses[] = {" partition by ", " policy ", " within "};
    for (int k = 0; k < 3; k++) {
        const char *h = strstr(src + hs, clauses[k]);
        if (!h || (size_t)(h - src) >= b0)
            continue;
        size_t a = (size_t)(h - src), e = a + strlen(clauses[k]);
        int words = k == 2 ? 2 : 1;
        for (int w = 0; w < words; w++) {
            while (e < b0 && src[e] == ' ')
                e++;
            while (e < b0 && is_ident(src[e]))
                e++;
        }
        cand_splice(c, src, a, e, "", 0);
    }
    /* the whole body, as a group */
    cand_group(c, src, b0, b1, false);
    int cond = 0; /* inside [ ] */
    for (size_t i = b0 + 1; i < b1; i++) {
        char ch = src[i];
        if (ch == '[') {
            size_t j = closing(src, i, b1);
            if (j && cond == 0) {
                cand_splice(c, src, i, j + 1, "_", 1);
                cand_group(c, src, i, j, true);
            }
            cond++;
        } else if (ch == ']') {
            cond--;
        } else if (ch == '(') {
            size_t j = closing(src, i, b1);
            if (j)
                cand_group(c, src, i, j, cond > 0);
        } else if (ch == '!' && cond > 0 && src[i + 1] == '(') {
            cand_splice(c, src, i, i + 1, "", 0);
        } else if (cond == 0 && ch == '{') {
            size_t j = closing(src, i, b1);
            if (j) {
                cand_splice(c, src, i, j + 1, "", 0);
                i = j;
            }
        } else if (cond == 0 && (ch == '*' || ch == '+' || ch == '?' || ch == '~')) {
            cand_splice(c, src, i, i + 1, "", 0);
        } else if (cond == 0 && is_ident(ch) && !isdigit((unsigned char)ch) && !is_ident(src[i - 1])) {
            size_t j = i;
            while (is_ident(src[j]))
                j++;
            if (src[j] == ':')
                cand_splice(c, src, i, j + 1, "", 0);   /* a label */
            else if (!(j == i + 1 && ch == '_'))
                cand_splice(c, src, i, j, "_", 1);      /* an event type */
            i = j - 1;
        }
    }
}

static int count_blank(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '_';
    return n;
}

/* Strictly simpler: shorter, or as long with more `_` (so it ends). */
static bool simpler(const char *cand, const char *cur)
{
    size_t a = strlen(cand), b = strlen(cur);
    return a < b || (a == b && count_blank(cand) > count_blank(cur));
}

static bool shrink_pattern(Shrinker *s)
{
    bool any = false;
    for (bool changed = true; changed && budget_left(s);) {
        changed = false;
        Cands c = {0};
        candidates(s->src, &c);
        for (int k = 0; k < c.n; k++) {
            if (!changed && budget_left(s) && simpler(c.v[k], s->src) && checks(c.v[k]) &&
                still_fails(s, c.v[k], s->values, s->n)) {
                free(s->src);
                s->src = c.v[k];
                c.v[k] = NULL;
                changed = any = true;
            }
            free(c.v[k]);
        }
        free(c.v);
    }
    return any;
}

void shrink_case(const char *src, const Value *values, int n, ShrinkFails fails, void *ctx, int max_calls,
                 Shrunk *out)
{
    Shrinker s = {fails, ctx, 0, max_calls > 0 ? max_calls : 5000, strdup(src), NULL, n};
    s.values = malloc(sizeof(Value) * GEN_NATTRS * (size_t)(n > 0 ? n : 1));
    memcpy(s.values, values, sizeof(Value) * GEN_NATTRS * (size_t)n);
    if (still_fails(&s, s.src, s.values, s.n)) {
        bool changed = true;
        while (changed && budget_left(&s)) {
            changed = shrink_events(&s);
            changed = shrink_pattern(&s) || changed;
            changed = shrink_values(&s) || changed;
        }
    }
    out->src = s.src;
    out->values = s.values;
    out->n = s.n;
    out->calls = s.calls;
}

void shrunk_free(Shrunk *s)
{
    free(s->src);
    free(s->values);
    s->src = NULL;
    s->values = NULL;
}

void shrink_print_stream(FILE *f, const Value *values, int n)
{
    for (int k = 0; k < n; k++) {
        const Value *e = values + (size_t)k * GEN_NATTRS;
        fprintf(f, "  %2d: t=%c v=%lld k=%lld time=%lld u=\"%s\"\n", k + 1, (char)('A' + e[GEN_T].i % 3),
                (long long)e[GEN_V].i, (long long)e[GEN_K].i, (long long)e[GEN_TIME].i,
                gen_strings[e[GEN_U].i % GEN_NSTRINGS]);
    }
}

static const char *pattern_text(const char *src)
{
    const char *p = strstr(src, "pattern ");
    return p ? p : src;
}

void shrink_report(const char *what, uint64_t seed, const char *src, const Value *values, int n,
                   ShrinkFails fails, void *ctx, int max_calls)
{
    fprintf(stderr, "\n==== %s: seed %llu (SREMC_DIFF_SCALE=%d)\noriginal pattern:\n%s", what,
            (unsigned long long)seed, diff_scale(), pattern_text(src));
    fprintf(stderr, "original stream (%d events):\n", n);
    shrink_print_stream(stderr, values, n);
    Shrunk m;
    shrink_case(src, values, n, fails, ctx, max_calls, &m);
    fprintf(stderr, "minimized (%d predicate calls):\n%s", m.calls, pattern_text(m.src));
    fprintf(stderr, "minimized stream (%d events):\n", m.n);
    shrink_print_stream(stderr, m.values, m.n);
    fprintf(stderr, "as CSV:\nt,v,k,time,u\n");
    for (int k = 0; k < m.n; k++) {
        const Value *e = m.values + (size_t)k * GEN_NATTRS;
        fprintf(stderr, "%c,%lld,%lld,%lld,%s\n", (char)('A' + e[GEN_T].i % 3), (long long)e[GEN_V].i,
                (long long)e[GEN_K].i, (long long)e[GEN_TIME].i, gen_strings[e[GEN_U].i % GEN_NSTRINGS]);
    }
    fprintf(stderr, "====\n");
    shrunk_free(&m);
}
