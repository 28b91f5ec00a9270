/* sra.h: symbolic register automata (after Alevizos et al., SREM/SRA):
 * the IR of every automaton stage, from the Thompson-style epsilon-NFA
 * built from a pattern to the determinized, minimized DSRA. */
#ifndef SREMC_SRA_H
#define SREMC_SRA_H

#include <stdbool.h>
#include <stdio.h>

#include "ast.h"
#include "eval.h"

/* One literal of a guard: a whole pattern condition, or its negation.
 * A negated literal holds when the condition does not (also when the
 * condition cannot be evaluated: an empty register, a zero divisor). */
typedef struct SraLit {
    const AstExpr *cond;
    bool           neg;
    const int     *regmap;   /* NULL, or pattern register -> SRA register
                                (registers cloned by unrolling) */
} SraLit;

typedef struct SraTrans {
    int      from, to;
    bool     eps;          /* epsilon: no event consumed, no guard */
    SraLit  *lits;         /* guard: conjunction; none = true (`_`) */
    int      nlits;
    int     *writes;       /* SRA registers that store the event */
    int      nwrites;
    int      position;     /* pattern atom position it came from, 0 */
} SraTrans;

typedef struct Sra {
    int        nstates;
    int        start;
    bool      *final;      /* [nstates] */
    SraTrans  *trans;
    int        ntrans, trans_cap;
    int        nregs;      /* SRA registers; = pattern registers until unrolled */
    /* Unrolled SRAs (sra_unroll, count window w): loop-free, every path at
     * most w events long. depth[q] = events consumed from the start to q.
     * SRA register r * (w + 1) + t is "pattern register r, written by the
     * event at depth t" (1 <= t <= w); literals map pattern registers to
     * these clones through regmap, and transitions write them. */
    int        window;     /* w for an unrolled SRA, else 0 */
    int       *depth;      /* [nstates] for an unrolled SRA, else NULL */
    bool       deterministic;
    const AstPattern *pattern;
} Sra;

/* Construction helpers (arena-allocated; states numbered from 0). */
Sra      *sra_new(Arena *arena, const AstPattern *pattern, int nregs);
int       sra_add_state(Sra *sra, Arena *arena);
SraTrans *sra_add_trans(Sra *sra, Arena *arena, int from, int to);   /* guard true, no writes */
SraTrans *sra_add_eps(Sra *sra, Arena *arena, int from, int to);
void      sra_trans_add_lit(SraTrans *t, Arena *arena, SraLit lit);
void      sra_trans_add_write(SraTrans *t, Arena *arena, int reg);

/* Text (golden tests) and Graphviz dumps. Stable: states renumbered
 * breadth-first from the start, edges sorted. */
void sra_dump_txt(const Sra *sra, FILE *out);
/* order[q] = the number the dumps give state q (nstates entries), so a
 * stage can number its states as they are printed. */
void sra_dump_order(const Sra *sra, int *order);
void sra_dump_dot(const Sra *sra, const char *name, FILE *out);

/* Layout attributes for a Graphviz graph of this size. dot's layered
 * layout takes minutes past a few hundred states, so larger graphs ask
 * for the force-directed sfdp layout, which `dot -Tsvg` still honors. */
void sra_dot_layout(int nstates, int nedges, FILE *out);

/* Writes s as the body of a dot double-quoted string. */
void sra_dot_escape(const char *s, FILE *out);
/* The same graph as "subgraph cluster_ID" (nodes named pID_N), to put
 * several automata into one digraph. */
void sra_dump_dot_cluster(const Sra *sra, const char *name, int id, FILE *out);

#endif
