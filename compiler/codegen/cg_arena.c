/* cg_arena.c: --freestanding: the terms of NAME_ARENA_BYTES; partition
 * tables: slot code, per-key arrays and (hosted) their growth. */
#define _POSIX_C_SOURCE 200809L
#include "cg_impl.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- the arena of --freestanding code -------------------------------------------------- */

/* One term of NAME_ARENA_BYTES: a block of `expr` bytes (a C constant
 * expression) plus its alignment padding. */
void cg_arena_term(Cg *g, const char *what, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs(" \\\n    + SREMRT_MAX_ALIGN + (size_t)(", g->heap.f);
    vfprintf(g->heap.f, fmt, ap);
    va_end(ap);
    fprintf(g->heap.f, ")   /* %s */", what);
}

/* count blocks of a runtime structure of `bytes` bytes, as sized on this
 * host (pointers of 8 bytes: an upper bound for 32-bit targets). */
void cg_arena_runtime(Cg *g, const char *what, const char *name, int count, size_t bytes)
{
    size_t total = (size_t)count * (bytes + SREMRT_MAX_ALIGN);
    g->rt_bytes += total;
    fprintf(g->heap.f, " \\\n    + (size_t)%zuu   /* %s %s: %d x %zu bytes */", total, what, name, count,
            bytes);
}

/* Partition cg_keys the generated code is sized for. */
int cg_keys(const Cg *g) { return g->o->caps.max_keys; }

void cg_arena_keymap(Cg *g, const char *what, const char *name, int width)
{
    char label[64];
    snprintf(label, sizeof label, "partition table of %s", what);
    cg_arena_runtime(g, label, name, 1, sremrt_keymap_tuple_bytes(cg_keys(g), width));
}

/* Push code: the event's partition key and its slot in m->KEYS, opening
 * the `else` branch taken when the table had room; a full table grows
 * (hosted: KEYS_grow, cg_emit_key_grow), and a key it cannot take is
 * counted. shard: in a sharded file, a key another shard owns gets slot
 * -2 and is skipped (NAME_set_shard). The caller writes the branch (at
 * level 2) and closes both blocks. A composite key (n > 1) is the tuple
 * of its attributes' values; in the branch, `key` is then its slot, which
 * the records read the tuple back from (NAME_ckey). */
void cg_put_key_slot(Cg *g, const char *what, const char *name, const AstAttr *const *attrs, int n,
                     const char *keys, bool shard)
{
    Buf *pu = &g->sec[CG_PUSH];
    bool mine = shard && g->sharded;
    const char *get = n > 1 ? "sremrt_keymap_get_tuple" : "sremrt_keymap_get";
    const char *arg = n > 1 ? "kv" : "key";
    cg_begin(pu, 0);
    fprintf(pu->f, "{ /* %s %s, partition by ", what, name);
    for (int k = 0; k < n; k++)
        fprintf(pu->f, "%s%s", k ? ", " : "", attrs[k]->name);
    fputs(" */", pu->f);
    cg_end(pu);
    if (n > 1) {
        cg_begin(pu, 1);
        fprintf(pu->f, "const int64_t kv[%d] = {", n);
        for (int k = 0; k < n; k++)
            fprintf(pu->f, "%ssremrt_attr_int(&%s_attrs[%d], e)", k ? ", " : "", g->P, attrs[k]->index);
        fputs("};", pu->f);
        cg_end(pu);
    } else {
        cg_line(pu, 1, "int64_t key = sremrt_attr_int(&%s_attrs[%d], e);", g->P, attrs[0]->index);
    }
    cg_line(pu, 1, "int inserted = 0;");
    if (mine && n > 1)
        cg_line(pu, 1, "int32_t slot = %s_mine_tuple(m, kv, %d) ? %s(&m->%s, kv, &inserted) : -2;", g->P, n, get,
                keys);
    else if (mine)
        cg_line(pu, 1, "int32_t slot = %s_mine(m, key) ? sremrt_keymap_get(&m->%s, key, &inserted) : -2;", g->P,
                keys);
    else
        cg_line(pu, 1, "int32_t slot = %s(&m->%s, %s, &inserted);", get, keys, arg);
    if (!g->o->freestanding) {
        cg_line(pu, 1, "if (slot == -1 && %s_%s_grow(m) == 0)", g->P, keys);
        cg_line(pu, 2, "slot = %s(&m->%s, %s, &inserted);", get, keys, arg);
    }
    cg_line(pu, 1, "if (slot == -1) {");
    cg_line(pu, 2, "m->ovf[%d][SREMRT_OVF_KEYS]++;", g->decl);
    cg_line(pu, 1, mine ? "} else if (slot >= 0) {" : "} else {");
    if (n > 1) {
        cg_line(pu, 2, "int64_t key = slot;   /* the tuple's slot: %s_ckey gives records the tuple */", g->P);
        cg_put_ckey_case(g, attrs, n, keys);
    }
}

/* Declaration g->decl's case of NAME_ckey (templates/matcher.c.tpl): a
 * record of its composite key names the key's attributes and the tuple
 * in slot `slot` of m->KEYS. */
void cg_put_ckey_case(Cg *g, const AstAttr *const *attrs, int n, const char *keys)
{
    FILE *f = g->ckeys.f;
    fprintf(f, "case %d: {\n        static const sremrt_attr *const attrs[%d] = {", g->decl, n);
    for (int k = 0; k < n; k++)
        fprintf(f, "%s&%s_attrs[%d]", k ? ", " : "", g->P, attrs[k]->index);
    fprintf(f, "};\n        r->key = NULL;\n        r->nkey = %d;\n        r->key_attrs = attrs;\n"
               "        r->key_values = sremrt_keymap_tuple(&m->%s, (int32_t)slot);\n        return;\n    }\n    ",
            n, keys);
}

/* A declaration whose partitions a shard can run alone: partitioned, and
 * nothing shared between its keys (an explore clause's trie is). */
bool cg_shardable(const AstDecl *d)
{
    if (d->kind == DECL_EPISODE)
        return d->u.episode->partition_attr != NULL;
    /* absent: a time window closes on any key's event, so shard 0 runs them all */
    return d->kind == DECL_PATTERN && d->u.pattern->partition_attr && !d->u.pattern->explore.present &&
           !d->u.pattern->absent.present;
}

/* Partition table m->KEYS of a declaration: its field, its set-up at its
 * first capacity (hosted: small, grown on demand; --freestanding:
 * cfg.max_keys, fixed) and its release (after the per-key arrays'). */
void cg_put_key_table(Cg *g, const char *keys, const char *what, const char *name, int width)
{
    const char *cap = g->o->freestanding ? "m->cfg.max_keys" : "sremrt_keymap_next_capacity(0, m->cfg.max_keys)";
    cg_line(&g->sec[CG_FIELDS], 0, "sremrt_keymap %s;   /* %s %s: partition key -> slot */", keys, what, name);
    if (width > 1)   /* a composite key: tuples of width values */
        cg_line(&g->sec[CG_INIT], 0, "if (sremrt_keymap_init_tuple(&m->%s, %s, %d, &m->cfg.alloc) != 0)", keys, cap,
                width);
    else
        cg_line(&g->sec[CG_INIT], 0, "if (sremrt_keymap_init(&m->%s, %s, &m->cfg.alloc) != 0)", keys, cap);
    cg_line(&g->sec[CG_INIT], 1, "return -1;");
}

/* A per-key array beside partition table m->KEYS: its fields (m->ARRAY
 * of TYPE, room for m->ARRAY_cap), its allocation at the table's first
 * capacity (init) and its release (free). */
void cg_put_key_array(Cg *g, const char *keys, const char *array, const char *type, const char *what)
{
    Buf *in = &g->sec[CG_INIT], *fr = &g->sec[CG_FREE];
    cg_line(&g->sec[CG_FIELDS], 0, "%s *%s;   /* [%s_cap] by slot of %s: %s */", type, array, array, keys, what);
    cg_line(&g->sec[CG_FIELDS], 0, "int32_t %s_cap;", array);
    cg_line(in, 0, "m->%s_cap = m->%s.capacity;", array, keys);
    cg_line(in, 0, "m->%s = sremrt_alloc_grow(&m->cfg.alloc, NULL, sizeof *m->%s, 0, 0, (size_t)m->%s_cap);", array,
            array, array);
    cg_line(in, 0, "if (!m->%s)", array);
    cg_line(in, 1, "return -1;");
    cg_line(fr, 0, "sremrt_alloc_free(&m->cfg.alloc, m->%s, (size_t)m->%s_cap * sizeof *m->%s);", array, array, array);
    cg_line(fr, 0, "m->%s = NULL;", array);
}

/* Hosted: KEYS_grow, called when a new key finds m->KEYS full: the
 * per-key arrays, then the table, to the next capacity (doubling up to
 * cfg.max_keys); 0, or -1 when the limit is reached or memory refused
 * (counted once: no new key of the declaration is tried again). */
void cg_emit_key_grow(Cg *g, const char *what, const char *name, const char *keys, const char *const *arrays,
                      int narrays)
{
    Buf *code = &g->sec[CG_CODE];
    if (g->o->freestanding)
        return;
    cg_line(&g->sec[CG_FIELDS], 0, "int %s_stuck;   /* growing %s was refused */", keys, keys);
    cg_line(code, 0, "/* %s %s: a new key found the partition table full. */", what, name);
    cg_line(code, 0, "static int %s_%s_grow(%s_matcher *m)", g->P, keys, g->P);
    cg_line(code, 0, "{");
    cg_line(code, 1, "int32_t cap = sremrt_keymap_next_capacity(m->%s.capacity, m->cfg.max_keys);", keys);
    cg_line(code, 1, "void *p;");
    cg_line(code, 1, "if (cap == 0 || m->%s_stuck)", keys);
    cg_line(code, 2, "return -1;");
    for (int k = 0; k < narrays; k++) {
        const char *a = arrays[k];
        cg_line(code, 1, "if (m->%s_cap < cap) {", a);
        cg_line(code, 2, "p = sremrt_alloc_grow(&m->cfg.alloc, m->%s, sizeof *m->%s, (size_t)m->%s.count, "
                         "(size_t)m->%s_cap, (size_t)cap);", a, a, keys, a);
        cg_line(code, 2, "if (!p)");
        cg_line(code, 3, "goto refused;");
        cg_line(code, 2, "m->%s = p;", a);
        cg_line(code, 2, "m->%s_cap = cap;", a);
        cg_line(code, 1, "}");
    }
    cg_line(code, 1, "if (sremrt_keymap_grow(&m->%s, cap) == 0)", keys);
    cg_line(code, 2, "return 0;");
    cg_line(code, 0, "refused:");
    cg_line(code, 1, "m->%s_stuck = 1;", keys);
    cg_line(code, 1, "m->ovf[%d][SREMRT_OVF_MEMORY]++;", g->decl);
    cg_line(code, 1, "return -1;");
    cg_line(code, 0, "}");
    cg_blank(code);
}
