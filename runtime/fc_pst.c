/* fc_pst.c: counts -> prediction suffix tree (the Ron-Singer-Tishby variant
 * of Begleiter, El-Yaniv and Yona, JAIR 2004; docs/forecasting.md, "How the
 * forecasts are computed"), with its lookups and a text dump. Hosted only. */
#include "fc_impl.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct sremrt_fc_pst {
    uint32_t nsym, n, cap;
    int32_t *parent;
    uint16_t *sym;
    uint8_t *depth;
    double *prob;      /* prob[node * nsym + s] */
    sremrt_fcm kids;
};

/* A context being considered: newest first. */
typedef struct word {
    uint16_t s[SREMRT_FC_MAX_ORDER];
    uint32_t len;
} word;

static void fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    if (!err || errlen == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

void sremrt_fc_params_default(sremrt_fc_params *p)
{
    p->order = 3;
    p->pmin = 0.001;
    p->alpha = 0;
    p->gamma = 0.001;
    p->r = 1.05;
}

/* Written as !(x op y) so that NaN fails every test. */
int sremrt_fc_params_check(const sremrt_fc_params *p, uint32_t nsym, char *err, size_t errlen)
{
    if (p->order < 1 || p->order > SREMRT_FC_MAX_ORDER)
        return fail(err, errlen, "order %u is not in 1..%d", (unsigned)p->order, SREMRT_FC_MAX_ORDER), -1;
    if (!(p->pmin > 0 && p->pmin < 1))
        return fail(err, errlen, "pmin %g is not in (0, 1)", p->pmin), -1;
    if (!(p->alpha >= 0 && p->alpha < 1e300))
        return fail(err, errlen, "alpha %g is negative or not finite", p->alpha), -1;
    if (!(p->gamma > 0 && p->gamma * nsym <= 1))
        return fail(err, errlen, "gamma %g is not in (0, 1/%u]", p->gamma, (unsigned)nsym), -1;
    if (!(p->r > 1 && p->r < 1e300))
        return fail(err, errlen, "r %g is not above 1", p->r), -1;
    return 0;
}

/* ---- the tree ----------------------------------------------------------------- */

static int reserve(sremrt_fc_pst *t)
{
    uint32_t cap;
    void *p;
    if (t->n < t->cap)
        return 0;
    cap = t->cap ? t->cap * 2 : 16;
    if (SREMRT_FC_RESIZE(t->parent, cap, p) || SREMRT_FC_RESIZE(t->sym, cap, p)
        || SREMRT_FC_RESIZE(t->depth, cap, p))
        return -1;
    t->cap = cap;
    return 0;
}

static int32_t add_node(sremrt_fc_pst *t, int32_t parent, uint16_t s, uint8_t depth)
{
    int32_t id;
    if (reserve(t) != 0 || (parent >= 0 && sremrt_fcm_put(&t->kids, (uint32_t)parent, s, t->n) != 0))
        return -1;
    id = (int32_t)t->n++;
    t->parent[id] = parent;
    t->sym[id] = s;
    t->depth[id] = depth;
    return id;
}

/* Inserts the context and every node on the path to it (its prefixes,
 * newest first). -1 when out of memory. */
static int insert(sremrt_fc_pst *t, const word *w)
{
    int32_t node = 0;
    uint32_t i;
    for (i = 0; i < w->len; i++) {
        int64_t k = sremrt_fcm_get(&t->kids, (uint32_t)node, w->s[i]);
        node = k >= 0 ? (int32_t)k : add_node(t, node, w->s[i], (uint8_t)(i + 1));
        if (node < 0)
            return -1;
    }
    return 0;
}

/* ---- estimates from the counts ---------------------------------------------- */

/* P^(next = s | w) for every s, normalised by the sum of the counts of the
 * words s.w (not by count(w): the last event of a stream has no successor).
 * Returns that sum; 0 leaves dist all zero. */
static uint64_t next_dist(const sremrt_fc_counts *c, const word *w, double *dist)
{
    uint16_t buf[SREMRT_FC_MAX_ORDER + 1];
    uint32_t nsym = sremrt_fc_counts_nsym(c), s;
    uint64_t sum = 0;
    memcpy(buf + 1, w->s, w->len * sizeof *buf);
    for (s = 0; s < nsym; s++) {
        uint64_t k;
        buf[0] = (uint16_t)s;
        k = sremrt_fc_counts_get(c, buf, w->len + 1);
        dist[s] = (double)k;
        sum += k;
    }
    for (s = 0; s < nsym && sum > 0; s++)
        dist[s] /= (double)sum;
    return sum;
}

/* P^(w) = count(w) / (N - |w| + 1): how often w ends at a position. */
static double word_prob(const sremrt_fc_counts *c, const word *w)
{
    uint64_t n = sremrt_fc_counts_get(c, NULL, 0);
    if (n + 1 <= w->len)
        return 0;
    return (double)sremrt_fc_counts_get(c, w->s, w->len) / (double)(n - w->len + 1);
}

/* The variant's test: some symbol both likely enough after w, and with a
 * probability that differs from the one after w's suffix (w without its
 * oldest symbol) by the ratio r, either way. */
static int significant(const sremrt_fc_counts *c, const sremrt_fc_params *p, const word *w,
                       double *dist, double *sdist)
{
    word suffix = *w;
    uint32_t nsym = sremrt_fc_counts_nsym(c), s;
    suffix.len--;
    if (next_dist(c, w, dist) == 0)
        return 0;
    next_dist(c, &suffix, sdist);
    for (s = 0; s < nsym; s++) {
        double ratio;
        if (dist[s] < (1 + p->alpha) * p->gamma || sdist[s] <= 0)
            continue;
        ratio = dist[s] / sdist[s];
        if (ratio >= p->r || ratio <= 1 / p->r)
            return 1;
    }
    return 0;
}

/* A growing FIFO of contexts to consider. */
typedef struct frontier {
    word *w;
    size_t head, n, cap;
} frontier;

static int push(frontier *f, const word *w)
{
    if (f->n == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 64;
        word *p = realloc(f->w, cap * sizeof *p);
        if (!p)
            return -1;
        f->w = p;
        f->cap = cap;
    }
    f->w[f->n++] = *w;
    return 0;
}

/* The frontier search: starts from the symbols with P^ >= pmin, inserts the
 * significant contexts with their paths, extends every context (significant
 * or not) by an older symbol while shorter than the order. */
static int grow_tree(sremrt_fc_pst *t, const sremrt_fc_counts *c, const sremrt_fc_params *p,
                     uint32_t order, double *dist, double *sdist)
{
    frontier f = {NULL, 0, 0, 0};
    uint32_t s, nsym = t->nsym;
    word w;
    int rc = 0;
    w.len = 1;
    for (s = 0; s < nsym && rc == 0; s++) {
        w.s[0] = (uint16_t)s;
        if (word_prob(c, &w) >= p->pmin)
            rc = push(&f, &w);
    }
    while (rc == 0 && f.head < f.n) {
        w = f.w[f.head++];
        if (significant(c, p, &w, dist, sdist))
            rc = insert(t, &w);
        if (w.len >= order)
            continue;
        w.len++;
        for (s = 0; s < nsym && rc == 0; s++) {
            w.s[w.len - 1] = (uint16_t)s;
            if (word_prob(c, &w) >= p->pmin)
                rc = push(&f, &w);
        }
    }
    free(f.w);
    return rc;
}

/* The node's label, newest first; returns its length. */
static uint32_t label(const sremrt_fc_pst *t, uint32_t node, word *w)
{
    uint32_t d = t->depth[node];
    w->len = d;
    for (; node != 0; node = (uint32_t)t->parent[node])
        w->s[--d] = t->sym[node];
    return w->len;
}

/* Smoothing: p (1 - nsym gamma) + gamma; a context never followed by
 * anything (only an empty training stream) gets the uniform distribution. */
static int smooth_all(sremrt_fc_pst *t, const sremrt_fc_counts *c, const sremrt_fc_params *p)
{
    uint32_t node, s, nsym = t->nsym;
    if (!(t->prob = malloc((size_t)t->n * nsym * sizeof *t->prob)))
        return -1;
    for (node = 0; node < t->n; node++) {
        double *d = t->prob + (size_t)node * nsym;
        word w;
        label(t, node, &w);
        if (next_dist(c, &w, d) == 0) {
            for (s = 0; s < nsym; s++)
                d[s] = 1.0 / nsym;
            continue;
        }
        for (s = 0; s < nsym; s++)
            d[s] = d[s] * (1 - nsym * p->gamma) + p->gamma;
    }
    return 0;
}

sremrt_fc_pst *sremrt_fc_pst_learn(const sremrt_fc_counts *c, const sremrt_fc_params *p,
                                   char *err, size_t errlen)
{
    uint32_t nsym = sremrt_fc_counts_nsym(c);
    uint32_t order = p->order < sremrt_fc_counts_order(c) ? p->order : sremrt_fc_counts_order(c);
    double *dist = malloc(2 * (size_t)nsym * sizeof *dist);
    sremrt_fc_pst *t = calloc(1, sizeof *t);
    int ok = dist && t;
    if (sremrt_fc_params_check(p, nsym, err, errlen) != 0) {
        free(dist);
        free(t);
        return NULL;
    }
    if (ok) {
        t->nsym = nsym;
        ok = sremrt_fcm_init(&t->kids, 64) == 0 && add_node(t, -1, 0, 0) == 0
             && grow_tree(t, c, p, order, dist, dist + nsym) == 0 && smooth_all(t, c, p) == 0;
    }
    free(dist);
    if (!ok) {
        fail(err, errlen, "out of memory");
        sremrt_fc_pst_free(t);
        return NULL;
    }
    return t;
}

void sremrt_fc_pst_free(sremrt_fc_pst *t)
{
    if (!t)
        return;
    free(t->parent);
    free(t->sym);
    free(t->depth);
    free(t->prob);
    sremrt_fcm_free(&t->kids);
    free(t);
}

/* ---- lookups -------------------------------------------------------------------- */

uint32_t sremrt_fc_pst_nodes(const sremrt_fc_pst *t) { return t->n; }
uint32_t sremrt_fc_pst_depth(const sremrt_fc_pst *t, uint32_t node) { return t->depth[node]; }
int32_t sremrt_fc_pst_parent(const sremrt_fc_pst *t, uint32_t node) { return t->parent[node]; }
uint16_t sremrt_fc_pst_symbol(const sremrt_fc_pst *t, uint32_t node) { return t->sym[node]; }
uint32_t sremrt_fc_pst_nsym(const sremrt_fc_pst *t) { return t->nsym; }

int32_t sremrt_fc_pst_child(const sremrt_fc_pst *t, uint32_t node, uint16_t s)
{
    return s < t->nsym ? (int32_t)sremrt_fcm_get(&t->kids, node, s) : -1;
}

double sremrt_fc_pst_prob(const sremrt_fc_pst *t, uint32_t node, uint16_t s)
{
    return t->prob[(size_t)node * t->nsym + s];
}

uint32_t sremrt_fc_pst_find(const sremrt_fc_pst *t, const uint16_t *recent, uint32_t len)
{
    uint32_t node = 0, i;
    for (i = 0; i < len; i++) {
        int32_t k = sremrt_fc_pst_child(t, node, recent[i]);
        if (k < 0)
            break;
        node = (uint32_t)k;
    }
    return node;
}

/* One line per node, depth first: "[newest ... oldest] p0 p1 ...". */
static void dump_node(const sremrt_fc_pst *t, uint32_t node, FILE *out)
{
    uint32_t i, s;
    word w;
    label(t, node, &w);
    fprintf(out, "%*s[", 2 * (int)w.len, "");
    for (i = 0; i < w.len; i++)
        fprintf(out, i ? " %u" : "%u", (unsigned)w.s[i]);
    fputc(']', out);
    for (s = 0; s < t->nsym; s++)
        fprintf(out, " %.4f", sremrt_fc_pst_prob(t, node, (uint16_t)s));
    fputc('\n', out);
    for (s = 0; s < t->nsym; s++) {
        int32_t k = sremrt_fc_pst_child(t, node, (uint16_t)s);
        if (k >= 0)
            dump_node(t, (uint32_t)k, out);
    }
}

void sremrt_fc_pst_dump(const sremrt_fc_pst *t, FILE *out)
{
    dump_node(t, 0, out);
}
