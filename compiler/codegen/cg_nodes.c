/* cg_nodes.c: tdfa and dsra as node arrays (compiler/nodes.h) -> static const tables and one walk loop per pattern. */
#define _POSIX_C_SOURCE 200809L
#include "cg_impl.h"

#include "nodes.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- the nodes layout ----------------------------------------------------------------- */

static const char *width_type(int width)
{
    return width == 1 ? "uint8_t" : width == 2 ? "uint16_t" : width == 4 ? "uint32_t" : "uint64_t";
}

static unsigned long long array_value(const void *a, long k)
{
    return (unsigned long long)((const NodeArray *)a)->v[k];
}

/* The lazy atom test: atom a (dense number) of the event, by a switch the
 * compiler turns into a jump table over the inlined atom functions. */
static void put_test_fn(Cg *g, int i, const NodeTables *t)
{
    FILE *out = g->code.f;
    const char *P = g->P;
    fprintf(out, "/* Atom a (the node arrays' number) of the event. */\n"
                 "static int %s_p%d_test(unsigned a, const %s_event *e, const %s_p%d_st *s)\n{\n"
                 "    switch (a) {\n",
            P, i, P, P, i);
    for (int a = 0; a < t->natoms; a++)
        fprintf(out, "    case %d:\n        return %s_p%d_a%d(e, s);\n", a, P, i, t->atoms[a]);
    fputs("    default:\n        return 0;\n    }\n}\n\n", out);
}

/* The walk from the state's root to a leaf: n ends >= nnodes. Each atom
 * is evaluated when its node is reached (lazily): evaluating all of them
 * first into a bit vector measured slower on every pattern tried (fire
 * 10.1 against 13.1 M events/s, B7 33 against 75, the register pattern of
 * docs/codegen.md 21 against 31), since a path tests few of the atoms. */
static void put_walk(Cg *g, int i, const NodeTables *t)
{
    FILE *out = g->code.f;
    const char *P = g->P;
    fprintf(out, "    unsigned n = %s_p%d_root[s->state];\n", P, i);
    if (t->nnodes > 0)
        fprintf(out, "    while (n < %du)\n        n = %s_p%d_kid[2 * n + (unsigned)%s_p%d_test(%s_p%d_atom[n], e, s)];\n",
                t->nnodes, P, i, P, i, P, i);
}

/* Tagged tdfa: the state struct holds two rows of tags, the current
 * one (row cur) and the next, so a transition writes the new tags from
 * the old without a copy (copies measured slow: the compiler moves them
 * 16 bytes at a time, which stalls on the 8-byte stores of the event
 * before); slot S of the current row is the event itself. */
static void put_tagged_struct(Cg *g, int i, const Dsra *d, const NodeTables *t)
{
    FILE *ty = g->types.f;
    const char *P = g->P;
    fprintf(ty, "/* Pattern %s: one substream's matcher state. */\ntypedef struct %s_p%d_st {\n",
            t->d->pattern->name, P, i);
    fprintf(ty, "    %s state;   /* current DFA state */\n", cg_uint_type(d->nstates));
    fputs("    int64_t pos;   /* events of the substream so far */\n", ty);
    fputs("    unsigned cur;   /* the row of tag holding the current tags */\n", ty);
    fprintf(ty, "    int64_t tag[2][%d];   /* per slot: latest start (%s); [%d]: the current event */\n",
            t->slots + 1, d->window_kind == WIN_TIME ? "timestamp" : "substream position", t->slots);
    fprintf(ty, "} %s_p%d_st;\n\n", P, i);
}

/* How put_tag_move names what it reads: a pattern's own arrays and
 * constants, or the shared walk's descriptor. */
typedef struct TagText {
    const char *ind;     /* indentation of its lines */
    const char *arr;     /* prefix of the arrays: "P_pI_" or "d->" */
    const char *o, *nt;  /* the current and the next row of tags */
    const char *slots, *shift, *mask;
    const char *limit;   /* after "now - last": the window test */
} TagText;

/* Tagged tdfa, leaf n: each target slot's tag is the max of its sources
 * (old slots, or the event itself), then the window test on the latest
 * new tag among the final slots, as cg_tree.c's transitions. The first
 * sources are one per slot, so the common case (one source each) is a
 * loop of loads and stores without a data-dependent branch. */
static void put_tag_move(FILE *out, const TagText *x)
{
    const char *I = x->ind, *A = x->arr;
    fprintf(out, "%sint64_t *o = %s, *nt = %s;\n%so[%s] = now;\n", I, x->o, x->nt, I, x->slots);
    fprintf(out, "%sunsigned k = %ssrc_first[n], m = %ssrc_first[n + 1] - k;\n"
                 "%sfor (unsigned j = 0; j < m; j++)\n%s    nt[j] = o[%ssrc[k + j]];\n",
            I, A, A, I, I, A);
    fprintf(out, "%sfor (unsigned x = %sxsrc_first[n]; x < %sxsrc_first[n + 1]; x++) {\n"
                 "%s    unsigned j = (unsigned)%sxsrc[x] >> %s;\n"
                 "%s    int64_t v = o[%sxsrc[x] & %s];\n"
                 "%s    if (v > nt[j])\n%s        nt[j] = v;\n%s}\n",
            I, A, A, I, A, x->shift, I, A, x->mask, I, I, I);
    fprintf(out, "%sunsigned f = %sfin_first[n], fe = %sfin_first[n + 1];\n"
                 "%sif (f < fe) {   /* the latest start among the final slots is inside the window */\n"
                 "%s    int64_t last = nt[%sfin[f]];\n"
                 "%s    while (++f < fe)\n%s        if (nt[%sfin[f]] > last)\n%s            last = nt[%sfin[f]];\n"
                 "%s    hit = (uint64_t)now - (uint64_t)last%s;\n%s}\n",
            I, A, A, I, I, A, I, I, A, I, A, I, x->limit, I);
}

/* A pattern's own walk, leaf n: the tags, then the target state. */
static void put_tagged_leaf(Cg *g, int i, const NodeTables *t)
{
    FILE *out = g->code.f;
    char arr[CG_NAME_MAX], slots[16], shift[16], mask[24], limit[80];
    snprintf(arr, sizeof arr, "%s_p%d_", g->P, i);
    snprintf(slots, sizeof slots, "%d", t->slots);
    snprintf(shift, sizeof shift, "%d", t->src_shift);
    snprintf(mask, sizeof mask, "%uu", (1u << t->src_shift) - 1u);
    snprintf(limit, sizeof limit, "%s <= (uint64_t)INT64_C(%" PRId64 ")",
             t->d->window_kind == WIN_TIME ? "" : " + 1", t->d->window);
    TagText x = {"        ", arr, "s->tag[s->cur]", "s->tag[s->cur ^ 1u]", slots, shift, mask, limit};
    put_tag_move(out, &x);
    fprintf(out, "        s->cur ^= 1u;\n        s->state = %sto[n];\n", arr);
}

/* ---- the walk shared by many tagged patterns ------------------------------------------ */

/* The index of the shared walk for t's array widths (emitted on first
 * use), or -1 where t does not share one: few nodes patterns in the file,
 * untagged, no nodes, too many atoms for the bit vector, or no room. */
static int shared_walk(Cg *g, const NodeTables *t)
{
    if (!g->nodes_share || !t->tagged || t->nnodes == 0 || t->natoms > CG_NODES_SHARE_ATOMS ||
        t->narrays >= CG_NODES_SIG)
        return -1;
    char sig[CG_NODES_SIG];
    for (int k = 0; k < t->narrays; k++)
        sig[k] = (char)('0' + nodes_width(t->arrays[k]->max));
    sig[t->narrays] = '\0';
    for (int w = 0; w < g->nnodes_walks; w++)
        if (strcmp(g->nodes_walk[w], sig) == 0)
            return w;
    if (g->nnodes_walks == CG_NODES_WALKS)
        return -1;
    int w = g->nnodes_walks++;
    memcpy(g->nodes_walk[w], sig, sizeof sig);

    FILE *out = g->code.f;
    const char *P = g->P;
    fprintf(out, "/* Tagged node arrays of these widths, shared by the patterns that have\n"
                 " * them (one walk compiled, not one a pattern): the arrays, by pointer. */\n"
                 "typedef struct %s_nw%d {\n", P, w);
    for (int k = 0; k < t->narrays; k++)
        fprintf(out, "    const %s *%s;\n", width_type(nodes_width(t->arrays[k]->max)), t->arrays[k]->name);
    fputs("    unsigned nnodes, slots, shift, stay;   /* stay: a state without a tree (or none) */\n"
          "    uint64_t window, plus;   /* a detection: now - last start + plus <= window */\n", out);
    fprintf(out, "} %s_nw%d;\n\n", P, w);
    fprintf(out, "/* One event, whose atoms are bits of `atoms`: the walk from state *st to\n"
                 " * a leaf, whose transition writes row *cur ^ 1 of the tags from row *cur\n"
                 " * (as the nodes walk of a single pattern); 1 on a detection. */\n"
                 "static int %s_nw%d_step(const %s_nw%d *d, unsigned *st, unsigned *cur, int64_t *const rows[2],\n"
                 "                        int64_t now, uint32_t atoms)\n{\n", P, w, P, w);
    fputs("    unsigned n = d->root[*st];\n"
          "    while (n < d->nnodes)\n"
          "        n = d->kid[2 * n + (atoms >> d->atom[n] & 1u)];\n"
          "    if (n == d->stay)\n        return 0;\n"
          "    n -= d->nnodes;\n"
          "    unsigned mask = (1u << d->shift) - 1u;\n"
          "    int hit = 0;\n", out);
    TagText x = {"    ", "d->", "rows[*cur]", "rows[*cur ^ 1u]", "d->slots", "d->shift", "mask",
                 " + d->plus <= d->window"};
    put_tag_move(out, &x);
    fputs("    *cur ^= 1u;\n    *st = d->to[n];\n    return hit;\n}\n\n", out);
    return w;
}

/* Pattern i's step by the shared walk w: its atoms into a bit vector
 * (all of them, eagerly: few, and the walk takes no callback), its arrays
 * by pointer. */
static void put_shared_step(Cg *g, int i, const Dsra *d, const NodeTables *t, int w)
{
    FILE *out = g->code.f;
    const char *P = g->P;
    fprintf(out, "static const %s_nw%d %s_p%d_nodes = {", P, w, P, i);
    for (int k = 0; k < t->narrays; k++)
        fprintf(out, "%s_p%d_%s, ", P, i, t->arrays[k]->name);
    fprintf(out, "%du, %du, %du, %du, UINT64_C(%" PRId64 "), %du};\n\n", t->nnodes, t->slots, t->src_shift,
            t->has_stay ? t->stay : t->nnodes + t->nleaves + 1, d->window, d->window_kind == WIN_TIME ? 0 : 1);
    fprintf(out, "/* One event of the substream: 1 on a detection. */\n"
                 "static int %s_p%d_step(%s_p%d_st *s, const %s_event *e)\n{\n    s->pos++;\n",
            P, i, P, i, P);
    cg_put_now(g, d, out, "int64_t ");
    fputs("    uint32_t atoms = 0;\n", out);
    for (int a = 0; a < t->natoms; a++)
        fprintf(out, "    atoms |= (uint32_t)%s_p%d_a%d(e, s) << %d;\n", P, i, t->atoms[a], a);
    fprintf(out, "    unsigned st = s->state;\n"
                 "    int64_t *const rows[2] = {s->tag[0], s->tag[1]};\n"
                 "    int hit = %s_nw%d_step(&%s_p%d_nodes, &st, &s->cur, rows, now, atoms);\n"
                 "    s->state = (%s)st;\n    return hit;\n}\n\n",
            P, w, P, i, cg_uint_type(d->nstates));
}

/* The tdfa or dsra of pattern i as node arrays and one walk. */
void cg_emit_nodes(Cg *g, int i, const Plan *plan)
{
    const Dsra *d = plan->min;
    FILE *out = g->code.f;
    const char *P = g->P;
    int H = d->kind == DSRA_DSRA ? d->history : 0;
    NodeTables *t = nodes_build(d, g->arena);

    if (t->tagged)
        put_tagged_struct(g, i, d, t);
    else
        cg_emit_state_struct(g, i, d, plan->pattern, t->slots, H);
    cg_emit_atoms(g, i, d);
    fprintf(out, "/* Nodes layout: %d states, %d tree nodes (shared between states), %d leaves,\n"
                 " * %zu bytes of tables. A step walks the state's tree from root[state]:\n"
                 " * a value n below %d is a node (test atom[n], go to kid[2n + answer]),\n"
                 " * else leaf n - %d, ",
            d->nstates, t->nnodes, t->nleaves, nodes_bytes(t), t->nnodes, t->nnodes);
    fputs(t->tagged ? "a transition: target state, tag sources, final slots" : "the target state", out);
    if (t->has_stay)
        fprintf(out, ";\n * %d: a state without a tree, which stays", t->stay);
    fputs(". */\n", out);
    for (int k = 0; k < t->narrays; k++) {
        const NodeArray *a = t->arrays[k];
        char name[160];
        snprintf(name, sizeof name, "%s_p%d_%s", P, i, a->name);
        fprintf(out, "/* %s */\n", a->what);
        cg_put_table(out, width_type(nodes_width(a->max)), name, a->n, array_value, a);
    }
    fputc('\n', out);
    int w = shared_walk(g, t);
    if (w >= 0) {
        put_shared_step(g, i, d, t, w);
        return;
    }
    if (t->nnodes > 0)
        put_test_fn(g, i, t);

    fprintf(out, "/* One event of the substream: 1 on a detection. */\n"
                 "static int %s_p%d_step(%s_p%d_st *s, const %s_event *e)\n{\n    int hit = 0;\n    s->pos++;\n",
            P, i, P, i, P);
    if (t->tagged)
        cg_put_now(g, d, out, "int64_t ");
    put_walk(g, i, t);
    if (t->has_stay)
        fprintf(out, "    if (n != %du) {\n", t->stay);
    else
        fputs("    {\n", out);
    fprintf(out, "        n -= %du;\n", t->nnodes);
    if (t->tagged)
        put_tagged_leaf(g, i, t);
    else
        fprintf(out, "        s->state = (%s)n;\n        hit = %s_p%d_final[n];\n", cg_uint_type(d->nstates), P, i);
    fputs("    }\n    (void)e;\n", out);
    if (H > 0)
        fprintf(out, "    s->ring[s->pos %% %d] = *e;\n", H);
    fputs("    return hit;\n}\n\n", out);
}
