/* ast.h: the syntax tree of a .srem file. The parser builds it; the
 * checker resolves names and types in place (fields marked "checker"). */
#ifndef SREMC_AST_H
#define SREMC_AST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "arena.h"
#include "diag.h"

/* ---- numbers as written: exact values for range checks ---------------- */

typedef struct AstNumber {
    Loc         loc;
    bool        is_float;   /* written with '.' or an exponent */
    bool        overflow;   /* integer literal above 2^64-1 */
    uint64_t    u;          /* integer literal magnitude (before any '-') */
    bool        negative;   /* a '-' folded into the literal */
    double      f;          /* value as a double (both kinds) */
    const char *text;       /* digits as written, for exact conversions */
} AstNumber;

/* ---- schemas ----------------------------------------------------------- */

/* ATTR_STRING values are interned: an event holds the string's id (an
 * int64), and the file's string literals take the ids 0, 1, ... in the
 * order of AstFile.strings, so equality of strings is equality of ids. */
typedef enum AttrKind { ATTR_INT, ATTR_FLOAT, ATTR_BOOL, ATTR_ENUM, ATTR_TIMESTAMP, ATTR_STRING } AttrKind;

/* Timestamp units, as nanosecond multipliers' order. */
typedef enum TimeUnit { TU_NS, TU_US, TU_MS, TU_S } TimeUnit;

typedef struct AstEnumValue {
    const char *name;       /* identifier or string contents, unescaped */
    bool        quoted;     /* written as a string literal */
    Loc         loc;
} AstEnumValue;

typedef struct AstAttr {
    const char   *name;
    Loc           loc;
    AttrKind      kind;
    int           index;       /* position in the schema, 0-based */
    /* ATTR_TIMESTAMP: unit as written ("ms"), NULL = default (s) */
    const char   *unit_name;
    Loc           unit_loc;
    TimeUnit      unit;        /* checker */
    /* ATTR_FLOAT: float32, a C float (values are read widened to double) */
    bool          single;
    /* ATTR_ENUM */
    AstEnumValue *values;
    int           nvalues, values_cap;
} AstAttr;

typedef struct AstSchema {
    const char *name;
    Loc         loc;
    AstAttr    *attrs;
    int         nattrs, attrs_cap;
    int         ts_attr;       /* checker: index of the timestamp attribute, -1 */
} AstSchema;

/* ---- extern functions --------------------------------------------------- */

/* Types of condition terms. An enum type is identified by the attribute
 * that declares it: two attributes are never the same enum. */
typedef enum TypeKind {
    TY_ERROR,    /* already reported: suppresses follow-up errors */
    TY_BOOL, TY_INT, TY_FLOAT, TY_ENUM,
    TY_STRING,   /* a string literal not (yet) resolved to an enum value
                    or to a string id */
    TY_STR       /* a string attribute's value, or a literal compared with
                    one (EX_ENUMVAL, enum_value: the literal's id) */
} TypeKind;

typedef struct Type {
    TypeKind       kind;
    const AstAttr *enum_attr;  /* TY_ENUM */
} Type;

typedef struct AstExtern {
    const char *name;
    Loc         loc;
    TypeKind    ret;          /* TY_BOOL, TY_INT or TY_FLOAT */
    TypeKind   *params;
    Loc        *param_locs;
    int         nparams, params_cap, param_locs_cap;
} AstExtern;

/* ---- conditions and terms ------------------------------------------------- */

typedef enum ExprKind {
    EX_TRUE, EX_FALSE,
    EX_NUMBER,     /* num */
    EX_STRING,     /* str: contents, unescaped */
    EX_NAME,       /* str: a bare identifier (parser); the checker turns it
                      into EX_ATTR or EX_ENUMVAL */
    EX_REGATTR,    /* str: register name, field: attribute name */
    EX_CALL,       /* str: function name, args */
    EX_NOT,        /* lhs */
    EX_AND, EX_OR, /* lhs, rhs */
    EX_CMP,        /* op in OP_EQ..OP_GE; lhs, rhs */
    EX_NEG,        /* lhs */
    EX_ARITH,      /* op in OP_ADD..OP_MOD; lhs, rhs */
    EX_ATTR,       /* checker: attribute of the current event (attr) */
    EX_ENUMVAL     /* checker: value enum_value of enum type.enum_attr;
                      also what an EX_STRING compared with an enum becomes */
} ExprKind;

typedef enum ExprOp {
    OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE,
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD
} ExprOp;

typedef struct AstExpr AstExpr;
/* Deepest expression or regex tree the parser builds: later stages
 * recurse over trees, and this keeps their stacks small. */
enum { AST_MAX_DEPTH = 1000 };

struct AstExpr {
    ExprKind    kind;
    int         depth;        /* height of the subtree, leaves 1 */
    Loc         loc;          /* operator, or first token of a leaf */
    ExprOp      op;
    AstExpr    *lhs, *rhs;
    AstNumber   num;
    const char *str;
    const char *field;        /* EX_REGATTR */
    Loc         field_loc;
    AstExpr   **args;         /* EX_CALL */
    int         nargs, args_cap;
    /* checker */
    Type              type;
    const AstAttr    *attr;       /* EX_ATTR, EX_REGATTR */
    int               reg;        /* EX_REGATTR: index into AstPattern.regs */
    int               enum_value; /* EX_ENUMVAL */
    const AstExtern  *ext;        /* EX_CALL */
};

/* ---- regular expressions over events --------------------------------------- */

typedef enum RegexKind {
    RX_ATOM,       /* one event; see AtomKind */
    RX_SEQ,        /* kids[0..n): concatenation, flattened */
    RX_ALT,        /* union, flattened */
    RX_AND,        /* intersection, flattened */
    RX_NOT,        /* ~kids[0] */
    RX_STAR, RX_PLUS, RX_OPT,
    RX_REPEAT      /* kids[0]{min,max}; max = -1 when unbounded */
} RegexKind;

typedef enum AtomKind {
    ATOM_COND,     /* [cond] */
    ATOM_VALUE,    /* shorthand V: value/value_quoted; the checker sets
                      cond to the equivalent `attr == V` */
    ATOM_ANY       /* _ : cond stays NULL, means true */
} AtomKind;

typedef struct AstRegex AstRegex;
struct AstRegex {
    RegexKind   kind;
    int         depth;        /* height of the subtree, leaves 1 */
    Loc         loc;          /* first token */
    /* `x:` in front. The parser accepts it on any primary; the checker
       rejects it on anything but a single-event atom. */
    const char *label;
    Loc         label_loc;
    /* RX_ATOM */
    AtomKind    atom;
    AstExpr    *cond;
    const char *value;
    bool        value_quoted;
    /* operators */
    AstRegex  **kids;
    int         nkids, kids_cap;
    AstNumber   rep_min, rep_max;  /* RX_REPEAT as written */
    bool        rep_has_max;       /* {n,m} or {n} (then rep_max = rep_min) */
    int64_t     min, max;          /* checker: RX_REPEAT bounds, max -1 = inf */
    /* checker */
    int         reg;          /* register written by this atom, -1 */
    int         position;     /* atoms: 1-based position in the pattern */
    const AstAttr *value_attr;/* ATOM_VALUE: the enum attribute of V */
    int         value_index;  /* ATOM_VALUE: index of V in that enum */
};

/* ---- declarations ------------------------------------------------------------ */

typedef enum WindowKind { WIN_NONE, WIN_EVENTS, WIN_TIME } WindowKind;

typedef struct AstWindow {
    WindowKind  kind;
    Loc         loc;           /* the 'within' keyword */
    AstNumber   amount;        /* as written */
    const char *unit_name;     /* WIN_TIME: "ms", "min", ... */
    Loc         unit_loc;
    int64_t     value;         /* checker: events, or timestamp units */
} AstWindow;

typedef enum Policy { POLICY_STRICT, POLICY_STNM, POLICY_STAM } Policy;
typedef enum Frequency { FREQ_NONOVERLAPPED, FREQ_DISTINCT } Frequency;

/* Most attributes of a composite partition key (docs/language.md 3.3). */
#define AST_PARTITION_MAX 4

/* Clauses between `on SCHEMA` and `{`, in any order, each at most once. */
typedef struct AstHeader {
    const char *schema_name;
    Loc         schema_loc;
    /* partition by a, b, ...: the names in order (partition[0] NULL if
     * absent); npartition counts every name written, one more than
     * AST_PARTITION_MAX kept so the checker can point at it */
    const char *partition[AST_PARTITION_MAX + 1];
    Loc         partition_loc[AST_PARTITION_MAX + 1];
    int         npartition;
    AstWindow   window;
    bool        policy_given;
    Policy      policy;
    Loc         policy_loc;
    bool        freq_given;
    Frequency   freq;
    Loc         freq_loc;
} AstHeader;

typedef struct AstExplore {
    bool      present;
    Loc       loc;
    bool      extensions, variations;
    bool      has_confidence;
    AstNumber confidence;
    double    threshold;       /* checker */
} AstExplore;

/* `forecast interval confidence T [horizon H] [max spread S] [order m]
 * [pmin P] [alpha A] [gamma G] [r R]` or `forecast within K events
 * confidence T [...]` (docs/language.md 3.6). The parameters are kept as
 * written, with their positions, and checked into values by the checker. */
typedef enum ForecastKind { FORECAST_INTERVAL, FORECAST_WITHIN } ForecastKind;

typedef enum ForecastParam {
    FP_CONFIDENCE, FP_HORIZON, FP_SPREAD, FP_ORDER, FP_PMIN, FP_ALPHA, FP_GAMMA, FP_R, FP_COUNT
} ForecastParam;

/* The documented defaults (the learner's are Begleiter et al.'s as Wayeb
 * uses them), and the ranges the checker enforces. */
#define FORECAST_DEFAULT_HORIZON 200
#define FORECAST_MAX_HORIZON 4096
#define FORECAST_DEFAULT_ORDER 3
#define FORECAST_MAX_ORDER 16
#define FORECAST_DEFAULT_PMIN 0.001
#define FORECAST_DEFAULT_ALPHA 0.0
#define FORECAST_DEFAULT_GAMMA 0.001
#define FORECAST_DEFAULT_R 1.05

typedef struct AstForecast {
    bool         present;
    Loc          loc;                 /* the 'forecast' keyword */
    ForecastKind kind;
    AstNumber    k;                   /* within: K as written */
    bool         given[FP_COUNT];
    AstNumber    param[FP_COUNT];     /* as written */
    Loc          param_loc[FP_COUNT]; /* the parameter's name */
    /* checker */
    double       theta;
    int          horizon;
    int          max_spread;          /* interval: -1 without a limit */
    int          within;              /* within: K */
    int          order;
    double       pmin, alpha, gamma, r;
} AstForecast;

/* "confidence", "horizon", "max spread", ... */
const char *ast_forecast_param_name(ForecastParam p);

/* `absent [COND]` after a pattern's body (docs/language.md 3.7): COND
 * may read the body's registers. */
typedef struct AstAbsent {
    bool      present;
    Loc       loc;             /* the word 'absent' */
    AstExpr  *cond;
} AstAbsent;

typedef struct AstRegister {
    const char *name;
    Loc         loc;           /* first label that writes it */
} AstRegister;

typedef struct AstPattern {
    const char       *name;
    Loc               loc;
    AstHeader         hdr;
    AstRegex         *body;
    AstAbsent         absent;
    AstExplore        explore;
    AstForecast       forecast;
    /* checker */
    const AstSchema  *schema;
    const AstAttr    *partition_attr;   /* the first key attribute, NULL: not partitioned */
    const AstAttr    *partition_attrs[AST_PARTITION_MAX];   /* every key attribute, in order */
    int               npartition;       /* how many: 1, or 2..4 for a composite key */
    AstRegister      *regs;
    int               nregs, regs_cap;
    int               natoms;
    const AstAttr    *explore_attr;   /* the event-type attribute */
} AstPattern;

/* Elements of one episode: bits of the runtime's element mask. */
#define EPISODE_MAX_ELEMENTS 32
/* An explored sequence and its enum: the runtime's trie keys
 * (SREMRT_EXPLORE_MAX_M, SREMRT_EXPLORE_MAX_VALUES; codegen asserts they agree). */
#define EXPLORE_MAX_LENGTH 64
#define EXPLORE_MAX_VALUES 65536

typedef struct AstEpisode {
    const char       *name;
    Loc               loc;
    AstHeader         hdr;
    AstRegex         *body;           /* parsed as a regex */
    bool              has_alert;
    Loc               alert_loc;
    AstNumber         alert_count;
    /* checker */
    const AstSchema  *schema;
    const AstAttr    *partition_attr;   /* the first key attribute, NULL: not partitioned */
    const AstAttr    *partition_attrs[AST_PARTITION_MAX];   /* every key attribute, in order */
    int               npartition;       /* how many: 1, or 2..4 for a composite key */
    AstRegex        **elements;       /* the atoms of body, in order */
    int               nelements, elements_cap;
    int64_t           alert_threshold;
} AstEpisode;

typedef enum DeclKind { DECL_SCHEMA, DECL_EXTERN, DECL_PATTERN, DECL_EPISODE } DeclKind;

typedef struct AstDecl {
    DeclKind kind;
    bool     broken;          /* parsed with a syntax error: not checked */
    union {
        AstSchema  *schema;
        AstExtern  *ext;
        AstPattern *pattern;
        AstEpisode *episode;
    } u;
} AstDecl;

/* A declaration a syntax error left without a tree: its name still
 * stands for something, so uses of it are not reported as unknown. */
typedef struct AstLost {
    DeclKind    kind;
    const char *name;
    Loc         loc;
} AstLost;

typedef struct Ast {
    const char *path;
    AstDecl    *decls;        /* in source order */
    int         ndecls, decls_cap;
    AstLost    *lost;         /* declarations lost to syntax errors */
    int         nlost, lost_cap;
    bool        checked;      /* checker ran without errors, and no syntax error */
    /* checker: the string literals compared with string attributes, each
       once; literal i is the string with id i (ATTR_STRING) */
    const char **strings;
    int          nstrings, strings_cap;
} Ast;

/* Parses src (len bytes; need not be NUL-terminated) into an Ast allocated
 * in arena. Syntax errors go to diag (diag->nsyntax); the result is never
 * NULL but holds only the declarations that parsed, those with a syntax
 * error marked broken, and the names of those left without a tree (lost). */
Ast *parse_source(const char *path, const char *src, size_t len, Arena *arena, Diag *diag);

/* Stable, readable text form of the (checked or unchecked) tree. */
void ast_dump_txt(const Ast *ast, FILE *out);
void ast_dump_expr(const AstExpr *e, FILE *out);

/* The elements of a plain sequence (policies, explore, episodes): the
 * kids of a sequence (flattened by the parser), or the body itself. */
AstRegex *const *ast_seq_items(AstRegex *const *body, int *n);

/* Nanoseconds per unit, for "ns us ms s min h d"; 0 if unknown. */
int64_t ast_unit_ns(const char *unit);

/* ", partition by a, b": a declaration's key attributes, as a comment or dump shows them. */
void ast_put_partition(FILE *out, const AstAttr *const *attrs, int n);

#endif
