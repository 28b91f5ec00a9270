/* cg_nodes.c: tdfa and dsra as node arrays (compiler/nodes.h) -> static const tables and one walk loop per pattern. */
#define _POSIX_C_SOURCE 200809L
#include "cg_impl.h"

#include "nodes.h"

#include <inttypes.h>
#include <stdlib.h>

/* ---- the nodes layout ----------------------------------------------------------------- */

/* Eager atoms (every atom into one bit vector before the walk) for at most
 * this many atoms; else each node calls its atom through a switch. */
enum { CG_NODES_EAGER_MAX = 0 };

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

/* The walk from the state's root to a leaf: n ends >= nnodes. */
static void put_walk(Cg *g, int i, const NodeTables *t, bool eager)
{
    FILE *out = g->code.f;
    const char *P = g->P;
    fprintf(out, "    unsigned n = %s_p%d_root[s->state];\n", P, i);
    if (t->nnodes == 0)
        return;
    if (eager) {
        fputs("    uint64_t b = 0", out);
        for (int a = 0; a < t->natoms; a++)
            fprintf(out, "\n        | (uint64_t)%s_p%d_a%d(e, s) << %d", P, i, t->atoms[a], a);
        fprintf(out, ";\n    while (n < %du)\n        n = %s_p%d_kid[2 * n + (unsigned)(b >> %s_p%d_atom[n] & 1u)];\n",
                t->nnodes, P, i, P, i);
    } else {
        fprintf(out, "    while (n < %du)\n        n = %s_p%d_kid[2 * n + (unsigned)%s_p%d_test(%s_p%d_atom[n], e, s)];\n",
                t->nnodes, P, i, P, i, P, i);
    }
}

/* Tagged tdfa, leaf u = n: each target slot's tag is the max of its
 * sources (old slots, or now: the event itself), then the window test on
 * the latest new tag among the final slots, as cg_tree.c's transitions. */
static void put_tagged_leaf(Cg *g, int i, const NodeTables *t)
{
    FILE *out = g->code.f;
    const char *P = g->P;
    int S = t->slots;
    unsigned mask = (1u << t->src_shift) - 1u;
    fprintf(out, "        int64_t o[%d];\n"
                 "        for (unsigned j = 0; j < %du; j++)\n            o[j] = s->tag[j];\n"
                 "        o[%d] = now;\n"
                 "        unsigned k = %s_p%d_src_first[n], end = %s_p%d_src_first[n + 1];\n"
                 "        while (k < end) {\n"
                 "            unsigned j = (unsigned)%s_p%d_src[k] >> %d;\n"
                 "            int64_t v = o[%s_p%d_src[k] & %uu];\n"
                 "            while (++k < end && (unsigned)%s_p%d_src[k] >> %d == j)\n"
                 "                if (o[%s_p%d_src[k] & %uu] > v)\n"
                 "                    v = o[%s_p%d_src[k] & %uu];\n"
                 "            s->tag[j] = v;\n"
                 "        }\n",
            S + 1, S, S, P, i, P, i, P, i, t->src_shift, P, i, mask, P, i, t->src_shift, P, i, mask, P, i,
            mask);
    fprintf(out, "        unsigned f = %s_p%d_fin_first[n], fe = %s_p%d_fin_first[n + 1];\n"
                 "        if (f < fe) {   /* the latest start among the final slots is inside the window */\n"
                 "            int64_t last = s->tag[%s_p%d_fin[f]];\n"
                 "            while (++f < fe)\n"
                 "                if (s->tag[%s_p%d_fin[f]] > last)\n"
                 "                    last = s->tag[%s_p%d_fin[f]];\n",
            P, i, P, i, P, i, P, i, P, i);
    fprintf(out, "            hit = (uint64_t)now - (uint64_t)last%s <= (uint64_t)INT64_C(%" PRId64 ");\n        }\n",
            t->d->window_kind == WIN_TIME ? "" : " + 1", t->d->window);
    fprintf(out, "        s->state = %s_p%d_to[n];\n", P, i);
}

/* The tdfa or dsra of pattern i as node arrays and one walk. */
void cg_emit_nodes(Cg *g, int i, const Plan *plan)
{
    const Dsra *d = plan->min;
    FILE *out = g->code.f;
    const char *P = g->P;
    int H = d->kind == DSRA_DSRA ? d->history : 0;
    NodeTables *t = nodes_build(d, g->arena);
    bool eager = t->natoms <= CG_NODES_EAGER_MAX;

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
    if (!eager && t->nnodes > 0)
        put_test_fn(g, i, t);

    fprintf(out, "/* One event of the substream: 1 on a detection. */\n"
                 "static int %s_p%d_step(%s_p%d_st *s, const %s_event *e)\n{\n    int hit = 0;\n    s->pos++;\n",
            P, i, P, i, P);
    if (t->tagged)
        cg_put_now(g, d, out, "int64_t ");
    put_walk(g, i, t, eager);
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
