/* dsra.h: deterministic automata with minterm transitions (SRA paper,
 * determinization): the tdfa and the determinized windowed SRA. */
#ifndef SREMC_DSRA_H
#define SREMC_DSRA_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "eval.h"
#include "minterm.h"
#include "sra.h"

/* Two strategies share this IR (docs/design.md):
 * - tdfa: from the epsilon-free SRA of a register-free pattern. A state
 *   is a set of NFA states, each (a slot) carrying a start tag: the latest
 *   start (substream position, or timestamp for time windows) of a run in
 *   that NFA state. Transitions say how each target slot gets its tag.
 *   Without a window the tags are left out (a plain minterm DFA).
 * - dsra: from an unrolled SRA (count window w). A state is a set of
 *   unrolled states; a run at depth d started d events ago, so "register r
 *   written at depth t" is the event d + 1 - t back from the current one:
 *   registers are the history of the last w - 1 events, and each atom
 *   instance reads registers by age (MtAtom.regmap[r] = age, 1 = the
 *   previous event). The window is built in (depth <= w).
 * Both are streaming: every event also starts a new run at the NFA start
 * (the `_*` prefix), so the start state is the empty set and a state's
 * transitions are those of its members plus those of the NFA start. */
typedef enum DsraKind { DSRA_TDFA, DSRA_DSRA } DsraKind;

/* A minterm: a conjunction of atom literals, exactly the tests on the
 * path from the root of its state's tree to its leaf. */
typedef struct DsraCube {
    MtLit *lits;
    int    nlits;
} DsraCube;

/* tdfa: how one slot of the target state gets its start tag. A fresh
 * start dominates (it is the latest), so it has no sources. */
typedef struct DsraTag {
    bool fresh;        /* the current event starts it */
    int *from;         /* else the max of these source slots' tags */
    int  nfrom;
} DsraTag;

typedef struct DsraTrans {
    int       from, to;
    DsraCube *cubes;   /* mutually exclusive; one before minimization */
    int       ncubes;
    int      *writes;  /* dsra: SRA registers its enabled NFA transitions
                          write; for dumps, since atoms read by age */
    int       nwrites;
    DsraTag  *tags;    /* tagged tdfa: one per slot of `to`; else NULL */
    int       back1;   /* register-free dsra: 1 + how many events before the
                          current one the greatest start of the matches it
                          completes is (docs/language.md 3.4); 0: it
                          completes none, or not known (tdfa, registers) */
} DsraTrans;

/* A state's transition function as a decision tree over its atoms (the
 * order of tests is the atom order, the same in every state). */
typedef struct DsraNode {
    int atom;          /* tested atom; -1 for a leaf */
    int hi, lo;        /* next node when the atom holds / does not */
    int trans;         /* leaf: index into Dsra.trans */
} DsraNode;

typedef struct DsraState {
    int      *members;   /* NFA (unrolled SRA) states, ascending: the slots */
    int       nmembers;
    bool      final;     /* some member is final */
    int      *finals;    /* slots whose member is final */
    int       nfinals;
    DsraNode *nodes;     /* nodes[0] is the root */
    int       nnodes;
    int       first;     /* transitions trans[first .. first + ntrans) */
    int       ntrans;
    int      *atoms;     /* atoms the tree tests, ascending */
    int       natoms;
    int       merged;    /* DFA states this one stands for (1 before minimizing) */
} DsraState;

typedef struct Dsra {
    DsraKind          kind;
    bool              minimized;
    bool              tagged;       /* tdfa with a window */
    const AstPattern *pattern;
    const Sra        *nfa;          /* what members refer to */
    const MtTable    *mt;           /* the atoms */
    WindowKind        window_kind;
    int64_t           window;       /* events or timestamp units; 0 without */
    int               history;      /* dsra: largest register age read */
    DsraState        *states;       /* states[0] is the start (no runs) */
    int               nstates;
    DsraTrans        *trans;
    int               ntrans;
    int               ncubes;       /* all transitions' cubes: the minterms */
} Dsra;

/* Transitions (minterms) a determinization may create for a state budget:
 * the budget bounds memory, not only states. */
long dsra_trans_budget(int max_states);

/* Powerset construction with minterms, streaming. nfa is epsilon-free:
 * an unrolled SRA (Sra.depth set) gives a dsra, any other a tdfa (which
 * needs a register-free pattern). Over max_states states (or the
 * transition budget) reports an error naming the pattern, the window and
 * the size reached, and returns NULL; construction stops there. */
Dsra *dsra_determinize(const Sra *nfa, int max_states, Arena *arena, Diag *diag);

/* Unreachable and dead states removed, equivalent states merged (Moore's
 * partition refinement over reduced decision trees: minterm, tag update,
 * target class), minterms to the same place merged. Never larger than d
 * in states, transitions, minterms or tree nodes. */
Dsra *dsra_minimize(const Dsra *d, Arena *arena);

/* Invariants (members sorted, trees well formed, leaves and cubes agree,
 * tags sized by target); NULL, or a description of the first violation. */
const char *dsra_check(const Dsra *d);

/* Stable text (golden tests) and Graphviz dumps. */
void dsra_dump_txt(const Dsra *d, FILE *out);
void dsra_dump_dot(const Dsra *d, const char *name, FILE *out);

/* Detections (docs/language.md 3.3) as the automaton computes them, for the
 * differential tests: det[k] for event k (0-based). Partitions are
 * independent substreams (count windows count substream positions);
 * time windows read the schema's timestamp. */
void dsra_simulate(const Dsra *d, const Stream *s, const ExternTable *ext, bool *det);

/* For the stages: the atoms a state's tree tests, into st->atoms. */
void dsra_state_atoms(DsraState *st, Arena *arena);

#endif
