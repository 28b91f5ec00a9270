/* ptrie.c: the pattern trie: nodes in a fixed array (memory from a hook or
 * a caller buffer), children as sorted sibling lists, saturating counts,
 * text and Graphviz dumps into a sink. */
#include "sremrt/ptrie.h"

#include <string.h>

static void set_empty(sremrt_ptrie *t)
{
    memset(t, 0, sizeof *t);
}

static size_t layout_bytes(int32_t capacity)
{
    return (size_t)capacity * sizeof(sremrt_ptrie_node);
}

size_t sremrt_ptrie_bytes(int32_t capacity)
{
    if (capacity < 1 || capacity > SREMRT_PTRIE_MAX)
        return 0;
    return layout_bytes(capacity) + sizeof(uint64_t) - 1;
}

static void init_node(sremrt_ptrie_node *n, int32_t parent, int32_t type, int32_t depth)
{
    memset(n, 0, sizeof *n);
    n->parent = parent;
    n->child = -1;
    n->sibling = -1;
    n->type = type;
    n->depth = depth;
    n->role = SREMRT_PTRIE_PREFIX;
}

void sremrt_ptrie_clear(sremrt_ptrie *t)
{
    if (t->capacity < 1)
        return;
    init_node(&t->nodes[0], -1, -1, 0);
    t->count = 1;
}

static int place(sremrt_ptrie *t, int32_t capacity, void *mem, size_t bytes)
{
    uintptr_t addr = (uintptr_t)mem;
    size_t pad = (size_t)((sizeof(uint64_t) - addr % sizeof(uint64_t)) % sizeof(uint64_t));
    if (!mem || bytes < pad || bytes - pad < layout_bytes(capacity))
        return -1;
    t->nodes = (sremrt_ptrie_node *)(void *)((unsigned char *)mem + pad);
    t->capacity = capacity;
    t->mem = mem;
    t->bytes = bytes;
    sremrt_ptrie_clear(t);
    return 0;
}

int sremrt_ptrie_init_buf(sremrt_ptrie *t, int32_t capacity, void *buf, size_t bytes)
{
    set_empty(t);
    if (capacity < 1 || capacity > SREMRT_PTRIE_MAX || place(t, capacity, buf, bytes) != 0) {
        set_empty(t);
        return -1;
    }
    return 0;
}

int sremrt_ptrie_init(sremrt_ptrie *t, int32_t capacity, const sremrt_alloc *a)
{
    size_t bytes = sremrt_ptrie_bytes(capacity);
    void *mem;
    set_empty(t);
    if (bytes == 0)
        return -1;
    mem = sremrt_alloc_get(a, bytes, sizeof(uint64_t));
    if (!mem)
        return -1;
    place(t, capacity, mem, bytes);
    t->alloc = *a;
    return 0;
}

void sremrt_ptrie_free(sremrt_ptrie *t)
{
    if (t->alloc.alloc)
        sremrt_alloc_free(&t->alloc, t->mem, t->bytes);
    set_empty(t);
}

static int valid(const sremrt_ptrie *t, int32_t node)
{
    return node >= 0 && node < t->count;
}

int32_t sremrt_ptrie_child(const sremrt_ptrie *t, int32_t node, int32_t type)
{
    int32_t c;
    if (!valid(t, node))
        return -1;
    for (c = t->nodes[node].child; c >= 0 && t->nodes[c].type <= type; c = t->nodes[c].sibling)
        if (t->nodes[c].type == type)
            return c;
    return -1;
}

int32_t sremrt_ptrie_add_child(sremrt_ptrie *t, int32_t node, int32_t type)
{
    int32_t *link, c;
    if (!valid(t, node) || type < 0)
        return -1;
    /* Walk the sorted sibling list to the first child whose type is >= type. */
    link = &t->nodes[node].child;
    while (*link >= 0 && t->nodes[*link].type < type)
        link = &t->nodes[*link].sibling;
    if (*link >= 0 && t->nodes[*link].type == type)
        return *link;
    if (t->count >= t->capacity) {
        t->overflows++;
        return -1;
    }
    c = t->count++;
    init_node(&t->nodes[c], node, type, t->nodes[node].depth + 1);
    t->nodes[c].sibling = *link;
    *link = c;
    return c;
}

int32_t sremrt_ptrie_insert(sremrt_ptrie *t, const int32_t *seq, int32_t n)
{
    int32_t node = t->count > 0 ? 0 : -1, i;
    for (i = 0; i < n && node >= 0; i++)
        node = sremrt_ptrie_add_child(t, node, seq[i]);
    return node;
}

static uint64_t sat_add(sremrt_ptrie *t, uint64_t a, uint64_t b)
{
    if (a > UINT64_MAX - b) {
        t->saturated++;
        return UINT64_MAX;
    }
    return a + b;
}

void sremrt_ptrie_add(sremrt_ptrie *t, int32_t node, uint64_t k)
{
    sremrt_ptrie_node *nodes = t->nodes, *n;
    if (!valid(t, node))
        return;
    n = &nodes[node];
    n->end = 1;
    if (k == 0)
        return;
    /* No count exceeds the root's (it counts every match), so if the root
     * has room, every node on the path has. */
    if (nodes[0].count <= UINT64_MAX - k) {
        n->freq += k;
        for (; node >= 0; node = nodes[node].parent)
            nodes[node].count += k;
        return;
    }
    n->freq = sat_add(t, n->freq, k);
    for (; node >= 0; node = nodes[node].parent)
        nodes[node].count = sat_add(t, nodes[node].count, k);
}

uint64_t sremrt_ptrie_total(const sremrt_ptrie *t)
{
    return t->count > 0 ? t->nodes[0].count : 0;
}

double sremrt_ptrie_confidence(const sremrt_ptrie *t, int32_t node)
{
    uint64_t total = sremrt_ptrie_total(t);
    if (!valid(t, node) || total == 0)
        return 0.0;
    return (double)t->nodes[node].freq / (double)total;
}

int32_t sremrt_ptrie_sequence(const sremrt_ptrie *t, int32_t node, int32_t *types, int32_t cap)
{
    int32_t depth, i;
    if (!valid(t, node))
        return 0;
    depth = t->nodes[node].depth;
    for (i = depth - 1; node > 0; node = t->nodes[node].parent, i--)
        if (i < cap)
            types[i] = t->nodes[node].type;
    return depth;
}

/* ---- dumps ---------------------------------------------------------------------- */

static const char *const role_names[] = {"prefix", "pattern", "extension", "variation"};

static void put_type(sremrt_sink *s, int32_t type, const char *const *names, int32_t nnames)
{
    if (names && type >= 0 && type < nnames && names[type]) {
        sremrt_sink_word(s, names[type]);
    } else {
        sremrt_sink_putc(s, '#');
        sremrt_sink_i64(s, type);
    }
}

static void put_sequence(sremrt_sink *s, const sremrt_ptrie *t, int32_t node,
                         const char *const *names, int32_t nnames)
{
    /* Root first: recurse up the (short) parent chain. */
    if (node <= 0)
        return;
    if (t->nodes[node].parent > 0) {
        put_sequence(s, t, t->nodes[node].parent, names, nnames);
        sremrt_sink_putc(s, ' ');
    }
    put_type(s, t->nodes[node].type, names, nnames);
}

static void text_node(sremrt_sink *s, const sremrt_ptrie *t, int32_t node,
                      const char *const *names, int32_t nnames)
{
    const sremrt_ptrie_node *n = &t->nodes[node];
    int32_t i;
    for (i = 0; i < n->depth; i++)
        sremrt_sink_puts(s, "  ");
    if (node == 0)
        sremrt_sink_puts(s, "<root>");
    else
        put_sequence(s, t, node, names, nnames);
    sremrt_sink_puts(s, " count=");
    sremrt_sink_u64(s, n->count);
    if (n->end) {
        sremrt_sink_puts(s, " freq=");
        sremrt_sink_u64(s, n->freq);
    }
    if (n->role != SREMRT_PTRIE_PREFIX) {
        sremrt_sink_putc(s, ' ');
        sremrt_sink_puts(s, role_names[n->role < 4 ? n->role : 0]);
    }
    if (n->end) {
        sremrt_sink_puts(s, " confidence=");
        sremrt_sink_f64(s, sremrt_ptrie_confidence(t, node));
    }
    if (n->suggested)
        sremrt_sink_puts(s, " suggested");
    sremrt_sink_putc(s, '\n');
}

/* Depth-first without recursion (child, then sibling, then back up). */
static int32_t next_preorder(const sremrt_ptrie *t, int32_t node)
{
    if (t->nodes[node].child >= 0)
        return t->nodes[node].child;
    while (node >= 0) {
        if (t->nodes[node].sibling >= 0)
            return t->nodes[node].sibling;
        node = t->nodes[node].parent;
    }
    return -1;
}

void sremrt_ptrie_emit_text(sremrt_sink *s, const sremrt_ptrie *t,
                            const char *const *names, int32_t nnames)
{
    int32_t node;
    for (node = t->count > 0 ? 0 : -1; node >= 0; node = next_preorder(t, node))
        text_node(s, t, node, names, nnames);
}

/* A type name inside a dot string: escape quotes and backslashes. */
static void dot_str(sremrt_sink *s, const char *str)
{
    for (; *str; str++) {
        if (*str == '"' || *str == '\\')
            sremrt_sink_putc(s, '\\');
        if (*str == '\n')
            sremrt_sink_puts(s, "\\n");
        else
            sremrt_sink_putc(s, *str);
    }
}

static void dot_type(sremrt_sink *s, int32_t type, const char *const *names, int32_t nnames)
{
    if (names && type >= 0 && type < nnames && names[type]) {
        dot_str(s, names[type]);
    } else {
        sremrt_sink_putc(s, '#');
        sremrt_sink_i64(s, type);
    }
}

void sremrt_ptrie_emit_dot(sremrt_sink *s, const sremrt_ptrie *t, const char *name,
                           const char *const *names, int32_t nnames)
{
    int32_t node;
    sremrt_sink_puts(s, "digraph \"");
    dot_str(s, name ? name : "ptrie");
    sremrt_sink_puts(s, "\" {\n  node [shape=box, fontname=\"monospace\"];\n");
    for (node = t->count > 0 ? 0 : -1; node >= 0; node = next_preorder(t, node)) {
        const sremrt_ptrie_node *n = &t->nodes[node];
        sremrt_sink_puts(s, "  n");
        sremrt_sink_i64(s, node);
        sremrt_sink_puts(s, " [label=\"");
        if (node == 0)
            sremrt_sink_puts(s, "root");
        else
            dot_type(s, n->type, names, nnames);
        sremrt_sink_puts(s, "\\ncount=");
        sremrt_sink_u64(s, n->count);
        if (n->end) {
            sremrt_sink_puts(s, "\\nfreq=");
            sremrt_sink_u64(s, n->freq);
            sremrt_sink_puts(s, "\\nconf=");
            sremrt_sink_f64(s, sremrt_ptrie_confidence(t, node));
        }
        if (n->role != SREMRT_PTRIE_PREFIX) {
            sremrt_sink_puts(s, "\\n");
            sremrt_sink_puts(s, role_names[n->role < 4 ? n->role : 0]);
        }
        sremrt_sink_putc(s, '"');
        if (n->suggested)
            sremrt_sink_puts(s, ", style=\"bold,filled\", fillcolor=\"#ffe08a\"");
        else if (n->end)
            sremrt_sink_puts(s, ", style=bold");
        sremrt_sink_puts(s, "];\n");
        if (n->parent >= 0) {
            sremrt_sink_puts(s, "  n");
            sremrt_sink_i64(s, n->parent);
            sremrt_sink_puts(s, " -> n");
            sremrt_sink_i64(s, node);
            sremrt_sink_puts(s, ";\n");
        }
    }
    sremrt_sink_puts(s, "}\n");
}
