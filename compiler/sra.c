/* sra.c: construction helpers of the SRA IR and its stable dumps: a text
 * form for golden tests and Graphviz dot for users. */
#define _POSIX_C_SOURCE 200809L
#include "sra.h"

#include <stdlib.h>
#include <string.h>

/* ---- construction ------------------------------------------------------------ */

/* Arrays without a capacity field grow to the next power of two (at
 * least 4) when full; their capacity is implied by their length. */
static bool implied_full(int n) { return n == 0 || (n >= 4 && (n & (n - 1)) == 0); }

static void *grow_implied(Arena *arena, void *items, int n, size_t elem)
{
    if (!implied_full(n))
        return items;
    int cap = n == 0 ? 4 : 2 * n;
    void *grown = arena_alloc(arena, (size_t)cap * elem);
    if (n)
        memcpy(grown, items, (size_t)n * elem);
    return grown;
}

Sra *sra_new(Arena *arena, const AstPattern *pattern, int nregs)
{
    Sra *sra = arena_alloc(arena, sizeof *sra);
    sra->start = 0;
    sra->nregs = nregs;
    sra->pattern = pattern;
    return sra;
}

int sra_add_state(Sra *sra, Arena *arena)
{
    sra->final = grow_implied(arena, sra->final, sra->nstates, sizeof *sra->final);
    sra->final[sra->nstates] = false;
    return sra->nstates++;
}

SraTrans *sra_add_trans(Sra *sra, Arena *arena, int from, int to)
{
    SraTrans *t = arena_push(arena, &sra->trans, &sra->ntrans, &sra->trans_cap, sizeof *t);
    t->from = from;
    t->to = to;
    return t;
}

SraTrans *sra_add_eps(Sra *sra, Arena *arena, int from, int to)
{
    SraTrans *t = sra_add_trans(sra, arena, from, to);
    t->eps = true;
    return t;
}

void sra_trans_add_lit(SraTrans *t, Arena *arena, SraLit lit)
{
    t->lits = grow_implied(arena, t->lits, t->nlits, sizeof *t->lits);
    t->lits[t->nlits++] = lit;
}

void sra_trans_add_write(SraTrans *t, Arena *arena, int reg)
{
    t->writes = grow_implied(arena, t->writes, t->nwrites, sizeof *t->writes);
    t->writes[t->nwrites++] = reg;
}

/* ---- labels ---------------------------------------------------------------------- */

/* A byte string being built (malloc'd; freed by the dump that owns it). */
typedef struct Buf {
    char  *s;
    size_t len;
} Buf;

/* Pattern register names; clones of an unrolled SRA (window w) are
 * x_t, "x written by the event at depth t"; anything else r<n>. */
static void reg_name(const Sra *sra, int reg, FILE *out)
{
    const AstPattern *p = sra->pattern;
    if (p && sra->window > 0 && reg >= 0 && reg / (sra->window + 1) < p->nregs)
        fprintf(out, "%s_%d", p->regs[reg / (sra->window + 1)].name, reg % (sra->window + 1));
    else if (p && sra->nregs == p->nregs && reg >= 0 && reg < p->nregs)
        fputs(p->regs[reg].name, out);
    else
        fprintf(out, "r%d", reg);
}

/* The regmap of a literal, as {x=x_2, y=y_0}: where each pattern
 * register the condition may read is found. */
static void dump_regmap(const Sra *sra, const int *regmap, FILE *out)
{
    const AstPattern *p = sra->pattern;
    if (!regmap || !p || p->nregs == 0)
        return;
    fputc('{', out);
    for (int r = 0; r < p->nregs; r++) {
        fprintf(out, "%s%s=", r ? ", " : "", p->regs[r].name);
        reg_name(sra, regmap[r], out);
    }
    fputc('}', out);
}

/* Control bytes from string literals would break the one-edge-per-line
 * text form; print them as C escapes. */
static void put_clean(const char *s, size_t n, FILE *out)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\n')
            fputs("\\n", out);
        else if (c == '\t')
            fputs("\\t", out);
        else if (c < 0x20 || c == 0x7f)
            fprintf(out, "\\x%02x", c);
        else
            fputc(c, out);
    }
}

/* "eps", "_", or "[L1 && !L2]" (the guard's literals), then " / x, y". */
static char *edge_label(const Sra *sra, const SraTrans *t)
{
    Buf raw = {0}, clean = {0};
    FILE *f = open_memstream(&raw.s, &raw.len);
    if (t->eps) {
        fputs("eps", f);
    } else if (t->nlits == 0) {
        fputc('_', f);
    } else {
        fputc('[', f);
        for (int i = 0; i < t->nlits; i++) {
            const SraLit *l = &t->lits[i];
            fprintf(f, "%s%s", i ? " && " : "", l->neg ? "!" : "");
            if (l->cond)
                ast_dump_expr(l->cond, f);
            else
                fputs("true", f);
            dump_regmap(sra, l->regmap, f);
        }
        fputc(']', f);
    }
    for (int i = 0; i < t->nwrites; i++) {
        fputs(i ? ", " : " / ", f);
        reg_name(sra, t->writes[i], f);
    }
    fclose(f);
    f = open_memstream(&clean.s, &clean.len);
    put_clean(raw.s, raw.len, f);
    fclose(f);
    free(raw.s);
    return clean.s;
}

/* ---- stable numbering -------------------------------------------------------------- */

typedef struct Edge {
    int         from, to;   /* old numbers, then new ones */
    int         position;
    bool        eps;
    const char *label;
} Edge;

static int cmp_edge(const void *a, const void *b)
{
    const Edge *x = a, *y = b;
    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    int c = strcmp(x->label, y->label);
    if (c)
        return c;
    if (x->position != y->position)
        return x->position < y->position ? -1 : 1;
    if (x->to != y->to)
        return x->to < y->to ? -1 : 1;
    return 0;
}

static int cmp_edge_final(const void *a, const void *b)
{
    const Edge *x = a, *y = b;
    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    if (x->to != y->to)
        return x->to < y->to ? -1 : 1;
    int c = strcmp(x->label, y->label);
    if (c)
        return c;
    return (x->position > y->position) - (x->position < y->position);
}

/* A dump's view of an automaton: edges labelled and renumbered so that
 * states count breadth-first from the start, following each state's edges
 * in label order; unreachable states come last, in their old order. */
typedef struct View {
    int   nstates, nedges;
    int   start;
    bool *final;    /* by new number */
    Edge *edges;    /* sorted by new (from, to, label) */
    int  *renum;    /* old number -> new */
} View;

static void view_open(View *v, const Sra *sra)
{
    int n = sra->nstates, m = sra->ntrans;
    v->nstates = n;
    v->nedges = m;
    v->edges = calloc((size_t)m + 1, sizeof *v->edges);
    for (int i = 0; i < m; i++) {
        const SraTrans *t = &sra->trans[i];
        v->edges[i] = (Edge){t->from, t->to, t->position, t->eps, edge_label(sra, t)};
    }
    qsort(v->edges, (size_t)m, sizeof *v->edges, cmp_edge);
    int *first = calloc((size_t)n + 1, sizeof *first); /* edges of state s: first[s]..first[s+1] */
    for (int i = 0; i < m; i++)
        first[v->edges[i].from + 1]++;
    for (int s = 0; s < n; s++)
        first[s + 1] += first[s];
    int *renum = malloc(((size_t)n + 1) * sizeof *renum);
    int *queue = malloc(((size_t)n + 1) * sizeof *queue);
    for (int s = 0; s < n; s++)
        renum[s] = -1;
    int head = 0, tail = 0;
    if (n > 0) {
        renum[sra->start] = tail;
        queue[tail++] = sra->start;
    }
    while (head < tail) {
        int s = queue[head++];
        for (int i = first[s]; i < first[s + 1]; i++)
            if (renum[v->edges[i].to] < 0) {
                renum[v->edges[i].to] = tail;
                queue[tail++] = v->edges[i].to;
            }
    }
    for (int s = 0; s < n; s++)
        if (renum[s] < 0)
            renum[s] = tail++;
    v->start = 0;
    v->final = calloc((size_t)n + 1, sizeof *v->final);
    for (int s = 0; s < n; s++)
        v->final[renum[s]] = sra->final[s];
    for (int i = 0; i < m; i++) {
        v->edges[i].from = renum[v->edges[i].from];
        v->edges[i].to = renum[v->edges[i].to];
    }
    qsort(v->edges, (size_t)m, sizeof *v->edges, cmp_edge_final);
    v->renum = renum;
    free(first);
    free(queue);
}

static void view_close(View *v)
{
    for (int i = 0; i < v->nedges; i++)
        free((char *)v->edges[i].label);
    free(v->edges);
    free(v->final);
    free(v->renum);
}

void sra_dump_order(const Sra *sra, int *order)
{
    View v;
    view_open(&v, sra);
    if (sra->nstates)
        memcpy(order, v.renum, (size_t)sra->nstates * sizeof *order);
    view_close(&v);
}

/* ---- text ---------------------------------------------------------------------------------- */

static void dump_header(const Sra *sra, const View *v, FILE *out)
{
    const AstPattern *p = sra->pattern;
    fprintf(out, "automaton %s: %d state%s, %d transition%s", p ? p->name : "?", v->nstates,
            v->nstates == 1 ? "" : "s", v->nedges, v->nedges == 1 ? "" : "s");
    if (sra->nregs > 0) {
        fprintf(out, ", register%s ", sra->nregs == 1 ? "" : "s");
        for (int r = 0; r < sra->nregs; r++) {
            if (r)
                fputs(", ", out);
            reg_name(sra, r, out);
        }
    }
    if (sra->deterministic)
        fputs(", deterministic", out);
    fputc('\n', out);
}

void sra_dump_txt(const Sra *sra, FILE *out)
{
    View v;
    view_open(&v, sra);
    dump_header(sra, &v, out);
    fprintf(out, "  start %d\n  final", v.start);
    int nfinal = 0;
    for (int s = 0; s < v.nstates; s++)
        if (v.final[s]) {
            fprintf(out, " %d", s);
            nfinal++;
        }
    fputs(nfinal ? "\n" : " (none)\n", out);
    for (int i = 0; i < v.nedges; i++) {
        const Edge *e = &v.edges[i];
        fprintf(out, "  %d -> %d  %s", e->from, e->to, e->label);
        if (e->position > 0)
            fprintf(out, "  @%d", e->position);
        fputc('\n', out);
    }
    view_close(&v);
}

/* ---- Graphviz ---------------------------------------------------------------------------- */

/* Length of the well-formed UTF-8 sequence at s (n bytes left), 0 if none. */
static int utf8_len(const unsigned char *s, size_t n)
{
    int len = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
    if (s[0] >= 0xf5 || len == 0 || (size_t)len > n)
        return 0;
    for (int i = 1; i < len; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
        (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
        return 0; /* overlong, surrogate or above U+10FFFF */
    return len;
}

/* A dot double-quoted string body: quotes and backslashes escaped, new
 * lines as \n, bytes that are not UTF-8 shown as \xNN text (enum values
 * may hold any bytes; dot rejects labels that are not UTF-8). */
void sra_dot_escape(const char *s, FILE *out)
{
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        int len = c < 0x80 ? 1 : utf8_len((const unsigned char *)s + i, n - i);
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", out);
        else if (len == 0)
            fprintf(out, "\\\\x%02x", c);
        else
            fwrite(s + i, 1, (size_t)len, out);
        i += len ? (size_t)len : 1;
    }
}

/* Nodes and edges of the view; node names carry prefix (clusters). */
static void dot_body(const View *v, const char *prefix, const char *indent, FILE *out)
{
    fprintf(out, "%s%s__start [shape=point, label=\"\"];\n", indent, prefix);
    for (int s = 0; s < v->nstates; s++)
        fprintf(out, "%s%s%d [label=\"%d\"%s];\n", indent, prefix, s, s,
                v->final[s] ? ", shape=doublecircle" : "");
    if (v->nstates > 0)
        fprintf(out, "%s%s__start -> %s%d;\n", indent, prefix, prefix, v->start);
    for (int i = 0; i < v->nedges; i++) {
        const Edge *e = &v->edges[i];
        fprintf(out, "%s%s%d -> %s%d [label=\"", indent, prefix, e->from, prefix, e->to);
        sra_dot_escape(e->label, out);
        if (e->position > 0)
            fprintf(out, " @%d", e->position);
        fputs(e->eps ? "\", style=dashed];\n" : "\"];\n", out);
    }
}

static const char *dot_name(const Sra *sra, const char *name)
{
    return name ? name : sra->pattern ? sra->pattern->name : "sra";
}

void sra_dot_layout(int nstates, int nedges, FILE *out)
{
    enum { LAYERED_MAX_STATES = 150, LAYERED_MAX_EDGES = 400 };
    if (nstates > LAYERED_MAX_STATES || nedges > LAYERED_MAX_EDGES)
        fputs("  layout=sfdp;\n  overlap=prism;\n", out);
    else
        fputs("  rankdir=LR;\n", out);
}

void sra_dump_dot(const Sra *sra, const char *name, FILE *out)
{
    View v;
    view_open(&v, sra);
    fputs("digraph \"", out);
    sra_dot_escape(dot_name(sra, name), out);
    fputs("\" {\n", out);
    sra_dot_layout(v.nstates, v.nedges, out);
    fputs("  node [shape=circle, fontsize=12];\n  edge [fontsize=10];\n", out);
    dot_body(&v, "", "  ", out);
    fputs("}\n", out);
    view_close(&v);
}

void sra_dump_dot_cluster(const Sra *sra, const char *name, int id, FILE *out)
{
    View v;
    view_open(&v, sra);
    char prefix[32];
    snprintf(prefix, sizeof prefix, "p%d_", id);
    fprintf(out, "  subgraph cluster_%d {\n    label=\"", id);
    sra_dot_escape(dot_name(sra, name), out);
    fputs("\";\n", out);
    dot_body(&v, prefix, "    ", out);
    fputs("  }\n", out);
    view_close(&v);
}
