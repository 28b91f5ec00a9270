/* minterm.h: whole pattern conditions -> formulas over normalized atoms,
 * and a sound satisfiability check for conjunctions of atom literals. */
#ifndef SREMC_MINTERM_H
#define SREMC_MINTERM_H

#include <stdbool.h>
#include <stdio.h>

#include "ast.h"
#include "eval.h"
#include "intern.h"

/* A condition C holds iff DEF(C) and F(atoms) (docs/language.md 3.2: a
 * condition that cannot be evaluated is false as a whole). DEF(C) is the
 * conjunction of "divisor != 0" for every integer / and % in C, nested
 * ones too, and of "register r is non-empty" for every register C reads;
 * the automata know register emptiness statically, so that part is a
 * constant. F is C's boolean structure over atoms. An atom evaluated on
 * its own (eval_cond) is false when undefined; DEF guards every place
 * where that would differ from its value inside C. */

/* Comparison domains. Ints (and enums, bools) order totally; floats do
 * not: with a NaN every comparison is false except !=. So int
 * comparisons are reduced to == and < with a negation (a <= b is
 * !(b < a)), while float comparisons only swap sides (a > b is b < a,
 * a >= b is b <= a) and != becomes !(==), which IEEE 754 makes exact. */
typedef enum MtDomain {
    MT_LEAF,     /* a bool-valued leaf: bool attribute, register field, call */
    MT_INT,      /* both sides int (timestamps are ints) */
    MT_FLOAT,    /* one side float: compared as doubles */
    MT_ENUM      /* two sides of one enum: == only */
} MtDomain;

typedef enum MtRel { MT_EQ, MT_LT, MT_LE } MtRel;

/* A term (one side of a comparison), identified by its canonical text,
 * which names registers by their location: equal text, equal value. */
typedef struct MtTerm {
    const char    *key;
    const AstExpr *expr;
    bool           is_const;   /* folded: value below */
    Value          value;      /* constants: .f in the float domain, else .i */
    bool           is_float;   /* typed float (may be NaN) */
    bool           partial;    /* has an integer / or %: may be undefined */
    bool           opaque;     /* calls an extern: never reasoned about */
    int            enum_size;  /* enum terms: values of the enum */
} MtTerm;

/* An atom instance: a normalized atomic condition and where the registers
 * it reads are. Identical instances share one id and are evaluated once
 * per event. */
typedef struct MtAtom {
    const AstExpr *expr;       /* evaluated alone with eval_cond */
    const int     *regmap;     /* EvalCtx.regmap for expr; NULL: no registers */
    const char    *key;        /* canonical text */
    MtDomain       dom;
    MtRel          rel;        /* comparisons: lhs rel rhs */
    int            lhs, rhs;   /* term ids; -1 for leaves */
    bool           opaque;     /* an extern call or a form not modelled */
    bool           regs;       /* reads a register */
} MtAtom;

typedef enum MfKind { MF_FALSE, MF_TRUE, MF_ATOM, MF_NOT, MF_AND, MF_OR } MfKind;

typedef struct MtFormula MtFormula;
struct MtFormula {
    MfKind           kind;
    int              atom;     /* MF_ATOM */
    const MtFormula *a, *b;    /* MF_NOT: a; MF_AND, MF_OR: a, b */
};

/* One literal of a cube (a conjunction): atom, or its negation. */
typedef struct MtLit {
    int  atom;
    bool neg;
} MtLit;

typedef struct MtTable {
    Arena            *arena;     /* atoms, terms, formulas */
    const AstPattern *pattern;   /* register names for dumps; may be NULL */
    int               nregs;     /* length of location vectors */
    MtAtom           *atoms;
    int               natoms, atoms_cap;
    MtTerm           *terms;
    int               nterms, terms_cap;
    Intern            atom_keys, term_keys, regmaps;
    AstExpr          *zero;      /* the int literal 0, for "divisor == 0" */
} MtTable;

void mt_init(MtTable *t, Arena *arena, const AstPattern *pattern, int nregs);

/* The formula of the whole condition cond (NULL: true, as `_`), with
 * pattern register r at location loc[r] (EvalCtx.regmap of the atoms);
 * loc[r] < 0, or loc NULL, means r is empty. */
const MtFormula *mt_condition(MtTable *t, const AstExpr *cond, const int *loc);

const MtFormula *mt_true(MtTable *t);
const MtFormula *mt_false(MtTable *t);
const MtFormula *mt_not(MtTable *t, const MtFormula *f);
const MtFormula *mt_and(MtTable *t, const MtFormula *a, const MtFormula *b);
const MtFormula *mt_or(MtTable *t, const MtFormula *a, const MtFormula *b);

/* Three-valued value of f when val[atom] is 1, 0 or -1 (unknown):
 * 1, 0, or -1 when the known atoms do not decide it. */
int mt_eval3(const MtFormula *f, const signed char *val);
/* The smallest unknown atom in a part of f that is still undecided, -1. */
int mt_pick(const MtFormula *f, const signed char *val);
/* Calls fn(atom, user) for every unknown atom in the undecided parts of
 * f (an atom may come more than once). */
void mt_each_unknown(const MtFormula *f, const signed char *val, void (*fn)(int atom, void *user), void *user);

/* False only when the conjunction of lits is provably unsatisfiable:
 * complementary literals; per term (attribute, register field,
 * arithmetic) intervals against int and float constants and excluded
 * points; enum domains; equalities between terms (union-find), with
 * x != y or x < y inside one class refuted. Atoms with extern calls are
 * only checked for complements. Negated comparisons only constrain terms
 * known to be defined and not NaN, since an undefined or NaN comparison
 * is false and its negation then holds whatever the bounds say. */
bool mt_satisfiable(const MtTable *t, const MtLit *lits, int n);

/* True only when no assignment that mt_satisfiable accepts makes both a
 * and b true: then no event satisfies both conditions (sound, not
 * complete; gives up, answering false, past 4096 case splits). */
bool mt_disjoint(MtTable *t, const MtFormula *a, const MtFormula *b);

/* "(id == x.id) x@2": the expression, then each register read and its
 * location. */
void mt_dump_atom(const MtTable *t, int atom, FILE *out);
/* "a0 && !(a1 || a2)" style, atoms by id. */
void mt_dump_formula(const MtFormula *f, FILE *out);

#endif
