/* cg_arena.c: --freestanding: the terms of NAME_ARENA_BYTES and partition-slot code. */
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

void cg_arena_keymap(Cg *g, const char *what, const char *name)
{
    char label[64];
    snprintf(label, sizeof label, "partition table of %s", what);
    cg_arena_runtime(g, label, name, 1, sremrt_keymap_bytes(cg_keys(g)));
}

/* Push code: the event's partition key and its slot in m->KEYS, opening
 * the `else` branch taken when the table had room (a full table is
 * counted); the caller writes the branch (at level 2) and closes both
 * blocks. */
void cg_put_key_slot(Cg *g, const char *what, const char *name, const AstAttr *attr, const char *keys)
{
    Buf *pu = &g->sec[CG_PUSH];
    cg_line(pu, 0, "{ /* %s %s, partition by %s */", what, name, attr->name);
    cg_line(pu, 1, "int64_t key = sremrt_attr_int(&%s_attrs[%d], e);", g->P, attr->index);
    cg_line(pu, 1, "int inserted = 0;");
    cg_line(pu, 1, "int32_t slot = sremrt_keymap_get(&m->%s, key, &inserted);", keys);
    cg_line(pu, 1, "if (slot < 0) {");
    cg_line(pu, 2, "m->stats.overflow[SREMRT_OVF_PARTITIONS]++;");
    cg_line(pu, 1, "} else {");
}
