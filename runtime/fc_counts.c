/* fc_counts.c: symbol events -> the counter suffix tree (newest-first word
 * counts) of the forecasting core, its text form, and the (parent, symbol)
 * hash map all the core's trees use. Hosted only. */
#include "fc_impl.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- the map ---------------------------------------------------------------- */

static uint32_t pow2_at_least(uint32_t n)
{
    uint32_t c = 16;
    while (c < n && c < (1u << 31))
        c <<= 1;
    return c;
}

int sremrt_fcm_init(sremrt_fcm *m, uint32_t capacity_hint)
{
    uint32_t cap = pow2_at_least(capacity_hint);
    m->keys = calloc(cap, sizeof *m->keys);
    m->vals = malloc((size_t)cap * sizeof *m->vals);
    m->mask = cap - 1;
    m->n = 0;
    if (!m->keys || !m->vals) {
        sremrt_fcm_free(m);
        return -1;
    }
    return 0;
}

void sremrt_fcm_free(sremrt_fcm *m)
{
    free(m->keys);
    free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
}

static void place(sremrt_fcm *m, uint64_t key, uint32_t val)
{
    uint32_t i = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & m->mask;
    while (m->keys[i] != 0 && m->keys[i] != key)
        i = (i + 1) & m->mask;
    m->n += m->keys[i] == 0;
    m->keys[i] = key;
    m->vals[i] = val;
}

/* Doubles the table; the old one stays if that fails. */
static int grow(sremrt_fcm *m)
{
    sremrt_fcm bigger;
    uint32_t i;
    if (m->mask >= (1u << 30) || sremrt_fcm_init(&bigger, (m->mask + 1) * 2) != 0)
        return -1;
    for (i = 0; i <= m->mask; i++)
        if (m->keys[i])
            place(&bigger, m->keys[i], m->vals[i]);
    sremrt_fcm_free(m);
    *m = bigger;
    return 0;
}

/* Keeps the load at most one half, so probes stay short. */
static int reserve_map(sremrt_fcm *m, uint32_t more)
{
    while ((uint64_t)(m->n + more) * 2 > (uint64_t)m->mask + 1)
        if (grow(m) != 0)
            return -1;
    return 0;
}

int sremrt_fcm_put(sremrt_fcm *m, uint32_t parent, uint32_t sym, uint32_t child)
{
    if (reserve_map(m, 1) != 0)
        return -1;
    place(m, sremrt_fcm_key(parent, sym), child);
    return 0;
}

/* ---- counts ---------------------------------------------------------------- */

/* Children of small alphabets go into dense blocks of nsym node ids (0:
 * none, as the root is nobody's child), which keeps the hot part of the
 * tree small and each step one load; the map holds the rest. */
#define DENSE_MAX_NSYM 64
#define DENSE_MAX_CELLS (1u << 24)   /* 64 MB of blocks at most */
#define NO_BLOCK UINT32_MAX

struct sremrt_fc_counts {
    uint32_t nsym, order;
    uint32_t n, cap;       /* nodes, node 0 the empty word */
    uint64_t *count;
    uint32_t *parent;
    uint16_t *sym;
    uint32_t *block;       /* block[node]: its children's first cell in dense, or NO_BLOCK */
    uint32_t *dense;
    uint32_t ncells, cells_cap;
    sremrt_fcm kids;
};

/* The child of node under s, or -1. */
static inline int64_t child(const sremrt_fc_counts *c, uint32_t node, uint32_t s)
{
    uint32_t b = c->block[node];
    if (b != NO_BLOCK)
        return c->dense[b + s] ? (int64_t)c->dense[b + s] : -1;
    return sremrt_fcm_get(&c->kids, node, s);
}

/* A block for a new node that may have children, when the alphabet is
 * small and the budget allows; else its children go to the map. */
static void give_block(sremrt_fc_counts *c, uint32_t node)
{
    c->block[node] = NO_BLOCK;
    if (c->nsym > DENSE_MAX_NSYM || c->ncells + c->nsym > DENSE_MAX_CELLS)
        return;
    if (c->ncells + c->nsym > c->cells_cap) {
        uint32_t cap = c->cells_cap ? c->cells_cap * 2 : 64 * c->nsym;
        uint32_t *d = realloc(c->dense, (size_t)cap * sizeof *d);
        if (!d)
            return;
        c->dense = d;
        c->cells_cap = cap;
    }
    memset(c->dense + c->ncells, 0, c->nsym * sizeof *c->dense);
    c->block[node] = c->ncells;
    c->ncells += c->nsym;
}

/* Room for `more` new nodes, so that an add either counts all or nothing. */
static int reserve_nodes(sremrt_fc_counts *c, uint32_t more)
{
    uint32_t cap;
    void *p;
    if (reserve_map(&c->kids, more) != 0)
        return -1;
    if (c->n + more <= c->cap)
        return 0;
    if (c->cap > UINT32_MAX / 2)
        return -1;
    cap = c->cap * 2 > c->n + more ? c->cap * 2 : c->n + more;
    if (SREMRT_FC_RESIZE(c->count, cap, p) || SREMRT_FC_RESIZE(c->parent, cap, p)
        || SREMRT_FC_RESIZE(c->sym, cap, p) || SREMRT_FC_RESIZE(c->block, cap, p))
        return -1;
    c->cap = cap;
    return 0;
}

/* A new child of parent at depth (its word's length): into the parent's
 * block or the map; a block of its own when it may have children. */
static uint32_t new_node(sremrt_fc_counts *c, uint32_t parent, uint16_t s, uint32_t depth)
{
    uint32_t id = c->n++;
    c->count[id] = 0;
    c->parent[id] = parent;
    c->sym[id] = s;
    if (c->block[parent] != NO_BLOCK)
        c->dense[c->block[parent] + s] = id;
    else
        sremrt_fcm_put(&c->kids, parent, s, id);   /* cannot fail: reserved */
    if (depth <= c->order)
        give_block(c, id);
    else
        c->block[id] = NO_BLOCK;
    return id;
}

sremrt_fc_counts *sremrt_fc_counts_new(uint32_t nsym, uint32_t order)
{
    sremrt_fc_counts *c;
    if (nsym < 1 || nsym > 65535 || order < 1 || order > SREMRT_FC_MAX_ORDER)
        return NULL;
    if (!(c = calloc(1, sizeof *c)))
        return NULL;
    c->nsym = nsym;
    c->order = order;
    if (sremrt_fcm_init(&c->kids, 1024) != 0 || reserve_nodes(c, 64) != 0) {
        sremrt_fc_counts_free(c);
        return NULL;
    }
    c->n = 1;   /* the root */
    c->count[0] = 0;
    c->parent[0] = 0;
    c->sym[0] = 0;
    give_block(c, 0);
    return c;
}

void sremrt_fc_counts_free(sremrt_fc_counts *c)
{
    if (!c)
        return;
    free(c->count);
    free(c->parent);
    free(c->sym);
    free(c->block);
    free(c->dense);
    sremrt_fcm_free(&c->kids);
    free(c);
}

int sremrt_fc_counts_add(sremrt_fc_counts *c, const uint16_t *recent, uint32_t len)
{
    uint32_t i, node = 0;
    if (len > c->order + 1)
        len = c->order + 1;
    for (i = 0; i < len; i++)
        if (recent[i] >= c->nsym)
            return -1;
    /* the common case needs no growth: test that here, without a call */
    if ((c->n + len > c->cap || (uint64_t)(c->kids.n + len) * 2 > (uint64_t)c->kids.mask + 1)
        && reserve_nodes(c, len) != 0)
        return -1;
    c->count[0]++;
    for (i = 0; i < len; i++) {
        int64_t k = child(c, node, recent[i]);
        node = k >= 0 ? (uint32_t)k : new_node(c, node, recent[i], i + 1);
        c->count[node]++;
    }
    return 0;
}

uint32_t sremrt_fc_counts_nsym(const sremrt_fc_counts *c) { return c->nsym; }
uint32_t sremrt_fc_counts_order(const sremrt_fc_counts *c) { return c->order; }

/* The node of a newest-first word, or -1 when it was never counted. */
static int64_t find_word(const sremrt_fc_counts *c, const uint16_t *word, uint32_t len)
{
    int64_t node = 0;
    uint32_t i;
    for (i = 0; i < len && node >= 0; i++)
        node = word[i] < c->nsym ? child(c, (uint32_t)node, word[i]) : -1;
    return node;
}

uint64_t sremrt_fc_counts_get(const sremrt_fc_counts *c, const uint16_t *word, uint32_t len)
{
    int64_t node = find_word(c, word, len);
    return node >= 0 ? c->count[node] : 0;
}

/* ---- text form ------------------------------------------------------------------ */

#define COUNTS_MAGIC "sremrt-fc-counts 1"

/* Writes node's word (newest first: from the root down) after its count. */
static int write_word(const sremrt_fc_counts *c, uint32_t node, FILE *out)
{
    uint16_t path[SREMRT_FC_MAX_ORDER + 1];
    uint32_t len = 0;
    for (; node != 0; node = c->parent[node])
        path[len++] = c->sym[node];
    while (len > 0)
        if (fprintf(out, " %u", (unsigned)path[--len]) < 0)
            return -1;
    return 0;
}

/* Depth first, symbols ascending, so that a word's prefix comes before it
 * and the same counts always give the same file. */
int sremrt_fc_counts_write(const sremrt_fc_counts *c, FILE *out)
{
    uint32_t stack[SREMRT_FC_MAX_ORDER + 2], next[SREMRT_FC_MAX_ORDER + 2];
    int depth = 0;
    if (fprintf(out, "%s\nnsym %u order %u\n%llu\n", COUNTS_MAGIC, (unsigned)c->nsym,
                (unsigned)c->order, (unsigned long long)c->count[0]) < 0)
        return -1;
    stack[0] = 0;
    next[0] = 0;
    while (depth >= 0) {
        int64_t k = -1;
        while (next[depth] < c->nsym && k < 0)
            k = child(c, stack[depth], next[depth]++);
        if (k < 0) {
            depth--;
            continue;
        }
        if (c->count[k] > 0) {
            if (fprintf(out, "%llu", (unsigned long long)c->count[k]) < 0
                || write_word(c, (uint32_t)k, out) != 0 || fputc('\n', out) == EOF)
                return -1;
        }
        stack[++depth] = (uint32_t)k;
        next[depth] = 0;
    }
    return ferror(out) ? -1 : 0;
}

static void say(char *err, size_t errlen, unsigned line, const char *fmt, ...)
{
    va_list ap;
    size_t n;
    if (!err || errlen == 0)
        return;
    n = (size_t)snprintf(err, errlen, "line %u: ", line);
    if (n >= errlen)
        return;
    va_start(ap, fmt);
    vsnprintf(err + n, errlen - n, fmt, ap);
    va_end(ap);
}

/* One unsigned decimal number at *p, skipping blanks before it. */
static int number(const char **p, unsigned long long max, unsigned long long *v)
{
    char *end;
    const char *s = *p;
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    *v = strtoull(s, &end, 10);
    if (errno != 0 || *v > max)
        return -1;
    *p = end;
    return 0;
}

static int at_end(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\r')
        p++;
    return *p == '\n' || *p == '\0';
}

/* One line "COUNT SYM...": the word's prefix must be there already, its
 * count at least this one, and the word new. */
static int read_word(sremrt_fc_counts *c, const char *p, unsigned line, char *err, size_t errlen)
{
    unsigned long long count, s;
    uint16_t word[SREMRT_FC_MAX_ORDER + 2];
    uint32_t len = 0;
    int64_t parent, node;
    if (number(&p, UINT64_MAX, &count) != 0 || count == 0)
        return say(err, errlen, line, "expected a count above 0"), -1;
    while (!at_end(p)) {
        if (len == c->order + 1)
            return say(err, errlen, line, "word longer than order + 1 = %u", (unsigned)c->order + 1), -1;
        if (number(&p, c->nsym - 1, &s) != 0)
            return say(err, errlen, line, "expected a symbol 0..%u", (unsigned)c->nsym - 1), -1;
        word[len++] = (uint16_t)s;
    }
    if (len == 0)
        return say(err, errlen, line, "the empty word's count comes once, on line 3"), -1;
    parent = find_word(c, word, len - 1);
    if (parent < 0 || (len > 1 && c->count[parent] == 0))
        return say(err, errlen, line, "the word's prefix has no count before it"), -1;
    if (c->count[parent] < count)
        return say(err, errlen, line, "count %llu above its prefix's %llu", count,
                   (unsigned long long)c->count[parent]), -1;
    if (find_word(c, word, len) >= 0)
        return say(err, errlen, line, "word given twice"), -1;
    if (reserve_nodes(c, 1) != 0)
        return say(err, errlen, line, "out of memory"), -1;
    node = new_node(c, (uint32_t)parent, word[len - 1], len);
    c->count[node] = count;
    return 0;
}

/* Reads the header (lines 1-3): magic, alphabet and order, events. */
static sremrt_fc_counts *read_header(FILE *in, char *buf, size_t n, char *err, size_t errlen)
{
    unsigned nsym, order;
    unsigned long long events;
    const char *p;
    sremrt_fc_counts *c;
    if (!fgets(buf, (int)n, in) || strncmp(buf, COUNTS_MAGIC, strlen(COUNTS_MAGIC)) != 0
        || !at_end(buf + strlen(COUNTS_MAGIC)))
        return say(err, errlen, 1, "expected \"%s\"", COUNTS_MAGIC), NULL;
    if (!fgets(buf, (int)n, in) || sscanf(buf, "nsym %u order %u", &nsym, &order) != 2
        || nsym < 1 || nsym > 65535 || order < 1 || order > SREMRT_FC_MAX_ORDER)
        return say(err, errlen, 2, "expected \"nsym N order M\" (N 1..65535, M 1..%d)",
                   SREMRT_FC_MAX_ORDER), NULL;
    p = buf;
    if (!fgets(buf, (int)n, in) || number(&p, UINT64_MAX, &events) != 0 || !at_end(p))
        return say(err, errlen, 3, "expected the number of events"), NULL;
    if (!(c = sremrt_fc_counts_new(nsym, order)))
        return say(err, errlen, 3, "out of memory"), NULL;
    c->count[0] = events;
    return c;
}

sremrt_fc_counts *sremrt_fc_counts_read(FILE *in, char *err, size_t errlen)
{
    char buf[512];
    unsigned line = 3;
    sremrt_fc_counts *c = read_header(in, buf, sizeof buf, err, errlen);
    if (!c)
        return NULL;
    while (fgets(buf, sizeof buf, in)) {
        line++;
        if (!strchr(buf, '\n') && !feof(in)) {
            say(err, errlen, line, "line too long");
            break;
        }
        if (read_word(c, buf, line, err, errlen) != 0)
            break;
    }
    if (ferror(in) || !feof(in)) {
        if (ferror(in))
            say(err, errlen, line, "read error");
        sremrt_fc_counts_free(c);
        return NULL;
    }
    return c;
}
