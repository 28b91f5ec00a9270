/* nodes.h: Dsra -> node arrays: every state's decision tree as data, the
 * codegen-ready form of the "nodes" layout (docs/codegen.md), so the
 * generated C is one small loop whatever the automaton's size. */
#ifndef SREMC_NODES_H
#define SREMC_NODES_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "dsra.h"

/* One static const array of the emitted tables: values v[0..n), each in
 * 0..max, stored in the narrowest unsigned type (nodes_width). */
typedef struct NodeArray {
    const char *name;   /* the C name's suffix: "root" -> P_pI_root */
    const char *what;   /* one line for the comment above it */
    int        *v;
    long        n;      /* at least 1: C has no empty arrays */
    long        max;
} NodeArray;

enum { NODES_MAX_ARRAYS = 12 };

/* Values of the walk: v < nnodes is an internal node, nnodes <= v <
 * nnodes + nleaves is leaf v - nnodes, and v == stay (when has_stay) is
 * a state without a tree, which keeps its state and tags and detects
 * nothing. Identical subtrees of all states are one node (hash-consing),
 * identical leaves one leaf, and a test whose both sides agree is left
 * out. Untagged (dsra, tdfa without a window): a leaf is the target
 * state. Tagged tdfa: a leaf is a distinct transition: its target, its
 * tag sources and its final slots. */
typedef struct NodeTables {
    const Dsra *d;
    bool        tagged;
    int         natoms;      /* atoms the trees test, numbered densely */
    int        *atoms;       /* dense number -> MtTable atom id */
    int         nnodes;      /* internal nodes */
    int         nleaves;
    bool        has_stay;
    int         stay;        /* nnodes + nleaves when has_stay */
    int         slots;       /* tagged: start tags of the state struct (>= 1) */
    int         src_shift;   /* tagged: an xsrc entry is slot << shift | from (from == slots: now) */
    /* root[nstates]; atom[nnodes]; kid[2 nnodes] (lo at 2n, hi at 2n + 1);
       untagged: final[nstates]; tagged, per leaf u: to; src[src_first[u]
       + j], the first source of target slot j (one per slot of the
       target); xsrc[xsrc_first[u] ..  xsrc_first[u + 1]), the further
       sources; fin[fin_first[u] .. fin_first[u + 1]), the final slots whose
       latest new tag is tested against the window (each *_first has
       nleaves + 1 entries) */
    NodeArray   root, atom, kid, final, to, src_first, src, xsrc_first, xsrc, fin_first, fin;
    NodeArray  *arrays[NODES_MAX_ARRAYS];   /* the ones emitted, in order */
    int         narrays;
} NodeTables;

/* The node arrays of d (minimized tdfa or dsra), in arena. */
NodeTables *nodes_build(const Dsra *d, Arena *arena);

/* The exact bytes of the emitted static const tables. */
size_t nodes_bytes(const NodeTables *t);

/* Bytes of the narrowest unsigned type holding 0..max: 1, 2, 4 or 8. */
int nodes_width(long max);

#endif
