/* check.c: parsed Ast -> checked Ast. Resolves schemas, attributes, enum
 * values, registers and functions, types every condition, validates windows,
 * policies, episodes and explore clauses, and reports every semantic error. */
#include "check.h"

#include "intern.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Largest bound accepted in R{n,m}: the bounds are stored as int32 by later
 * stages; the state budget limits what actually compiles. */
#define CHECK_REPEAT_MAX INT32_MAX

typedef struct NameList {
    const char **v;
    int          n, cap;
} NameList;

typedef struct Checker {
    Ast   *ast;
    Arena *arena;
    Diag  *diag;
    /* the declaration being checked */
    const AstSchema *schema;  /* NULL when unknown: its conditions are skipped */
    AstPattern *pat;          /* NULL while checking an episode */
    AstWindow  *window;
    int         natoms;
    bool       *reg_bad;      /* per register: written where it may not be */
    int         nbad, bad_cap;
    bool       *reg_read;     /* per register: read by some condition */
    int         nwords;       /* words of a register bit set */
    bool        unknown_reg;  /* some read names an unknown register */
    /* Every name lookup goes through one hash table (scope, name) -> index,
     * so a large file checks in linear time (an enum of 100,000 values). */
    int         nsuggest;     /* suggestions looked for (spell_check) */
    Intern      index;
    int        *index_val;    /* [id]: the index the key stands for */
    int         nval, val_cap;
} Checker;

/* ---- the name index ------------------------------------------------------------- */

/* Tables of the index, each its own key space. */
enum {
    IX_SCHEMA = 'S', IX_EXTERN = 'X', IX_DECL = 'D', /* scope: NULL */
    IX_ATTR = 'a',     /* scope: the schema */
    IX_VALUE = 'v',    /* scope: the enum attribute */
    IX_REG = 'r',      /* scope: the pattern */
    IX_STRING = 's',   /* scope: NULL; string literals -> their ids */
    IX_REPORTED = '!', /* scope: the declaration's header; name: kind + name */
};

/* The index of a name whose declaration a syntax error lost (AstLost). */
enum { INDEX_LOST = -2 };

/* The key: table, scope pointer, name bytes (in buf, or the arena). */
static const char *index_key(Checker *c, char table, const void *scope, const char *name, char *buf,
                             size_t size, size_t *len)
{
    size_t n = strlen(name);
    *len = 1 + sizeof scope + n;
    char *k = *len <= size ? buf : arena_alloc(c->arena, *len);
    k[0] = table;
    memcpy(k + 1, &scope, sizeof scope);
    memcpy(k + 1 + sizeof scope, name, n);
    return k;
}

/* The index name stands for in (table, scope), or -1. */
static int index_get(Checker *c, char table, const void *scope, const char *name)
{
    char buf[128];
    size_t len;
    const char *k = index_key(c, table, scope, name, buf, sizeof buf, &len);
    int id = intern_get(&c->index, k, len);
    return id < 0 ? -1 : c->index_val[id];
}

/* Adds name -> value unless the name is there already; returns the index
 * the name stands for (value when added: the first definition wins). */
static int index_put(Checker *c, char table, const void *scope, const char *name, int value)
{
    char buf[128];
    size_t len;
    bool added;
    const char *k = index_key(c, table, scope, name, buf, sizeof buf, &len);
    int id = intern_put(&c->index, k, len, &added);
    if (added)
        *(int *)arena_push(c->arena, &c->index_val, &c->nval, &c->val_cap, sizeof(int)) = value;
    return c->index_val[id];
}

/* ---- small helpers ---------------------------------------------------------- */

static const char *fmt(Checker *c, const char *f, ...) __attribute__((format(printf, 2, 3)));

/* printf into the arena: messages are built in pieces (types, suggestions).
 * (No vsnprintf(NULL, 0, ...): gcc -fsanitize=undefined warns about it.) */
static const char *fmt(Checker *c, const char *f, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, f);
    int n = vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    if (n < 0)
        return "";
    char *s = arena_alloc(c->arena, (size_t)n + 1);
    if ((size_t)n < sizeof buf) {
        memcpy(s, buf, (size_t)n + 1);
        return s;
    }
    va_start(ap, f);
    vsnprintf(s, (size_t)n + 1, f, ap);
    va_end(ap);
    return s;
}

static void names_push(Checker *c, NameList *l, const char *name)
{
    *(const char **)arena_push(c->arena, &l->v, &l->n, &l->cap, sizeof *l->v) = name;
}

/* Whether a and b differ at most in the case of their letters. */
static bool same_but_case(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

/* Suggestions cost a pass over the candidate names each; like clang's
 * -fspell-checking-limit, only the first ones get one, so that a file of
 * many mistakes (under --max-errors 0) stays linear. */
enum { CHECK_MAX_SUGGESTIONS = 50 };

static bool spell_check(const Checker *c) { return c->nsuggest < CHECK_MAX_SUGGESTIONS; }

/* The closest name of l to name, but never `exclude` (the name compared
 * on the other side: `k == k` is no fix), and for names shorter than 3
 * characters only a change of case: any one-letter name is one edit from
 * any other, so a suggestion there would be noise. NULL if none. */
static const char *closest(Checker *c, const char *name, const NameList *l, const char *exclude)
{
    c->nsuggest++;
    NameList ok = {0};
    for (int i = 0; i < l->n; i++)
        if (!exclude || strcmp(l->v[i], exclude) != 0)
            names_push(c, &ok, l->v[i]);
    if (strlen(name) < 3) {
        for (int i = 0; i < ok.n; i++)
            if (strcmp(ok.v[i], name) != 0 && same_but_case(ok.v[i], name))
                return ok.v[i];
        return NULL;
    }
    return ok.n ? diag_closest(name, ok.v, ok.n) : NULL;
}

/* "; did you mean 'X'?" when some name other than exclude (may be NULL)
 * is close enough, else "". */
static const char *suggest_but(Checker *c, const char *name, const NameList *l, const char *exclude)
{
    const char *best = closest(c, name, l, exclude);
    return best ? fmt(c, "; did you mean '%s'?", best) : "";
}

static const char *suggest(Checker *c, const char *name, const NameList *l)
{
    return suggest_but(c, name, l, NULL);
}

/* One report per unknown name and declaration, like gcc's "reported only
 * once for each function": a misspelt attribute used five times is one
 * mistake. kind separates the namespaces (attribute, register, ...). */
static bool first_report(Checker *c, char kind, const char *name)
{
    int serial = c->nval; /* the value a new key gets: unique */
    return index_put(c, IX_REPORTED, c->window, fmt(c, "%c%s", kind, name), serial) == serial;
}

static bool loc_eq(Loc a, Loc b) { return a.line == b.line && a.col == b.col; }

static Type ty(TypeKind k)
{
    Type t = {k, NULL};
    return t;
}

static Type set_type(AstExpr *e, Type t)
{
    e->type = t;
    return t;
}

static bool is_numeric(Type t) { return t.kind == TY_INT || t.kind == TY_FLOAT; }

/* The type as messages show it: 'int', enum 'kind'. */
static const char *type_str(Checker *c, Type t)
{
    switch (t.kind) {
    case TY_BOOL:   return "'bool'";
    case TY_INT:    return "'int'";
    case TY_FLOAT:  return "'float'";
    case TY_STRING: return "a string literal";
    case TY_STR:    return "'string'";
    case TY_ENUM:   return fmt(c, "enum '%s'", t.enum_attr ? t.enum_attr->name : "?");
    case TY_ERROR:  break;
    }
    return "'<error>'";
}

static const char *op_str(ExprOp op)
{
    static const char *const names[] = {"==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%"};
    return (unsigned)op < sizeof names / sizeof names[0] ? names[op] : "?";
}

/* What a regex node is, for "X is not a single-event atom". */
static const char *rx_what(RegexKind k)
{
    switch (k) {
    case RX_ATOM:   return "an atom";
    case RX_SEQ:    return "a sequence";
    case RX_ALT:    return "a union ('|')";
    case RX_AND:    return "an intersection ('&')";
    case RX_NOT:    return "a complement ('~')";
    case RX_STAR:   return "a repetition ('*')";
    case RX_PLUS:   return "a repetition ('+')";
    case RX_OPT:    return "an optional part ('?')";
    case RX_REPEAT: return "a bounded repetition ('{n,m}')";
    }
    return "an expression";
}

static const char *policy_str(Policy p)
{
    return p == POLICY_STNM ? "stnm" : p == POLICY_STAM ? "stam" : "strict";
}

/* A number as the user wrote it, sign included. */
static const char *num_str(Checker *c, const AstNumber *n)
{
    const char *sign = n->negative ? "-" : "";
    if (n->text && n->text[0])
        return fmt(c, "%s%s", n->text[0] == '-' ? "" : sign, n->text);
    if (n->is_float)
        return fmt(c, "%s%.17g", sign, fabs(n->f));
    return fmt(c, "%s%" PRIu64, sign, n->u);
}

/* ---- lookups ---------------------------------------------------------------- */

/* The first definition wins: later duplicates are reported and ignored
 * (check_decl_names indexes the declarations). */
static const AstSchema *find_schema(Checker *c, const char *name)
{
    int i = index_get(c, IX_SCHEMA, NULL, name);
    return i < 0 || c->ast->decls[i].broken ? NULL : c->ast->decls[i].u.schema;
}

static const AstExtern *find_extern(Checker *c, const char *name)
{
    int i = index_get(c, IX_EXTERN, NULL, name);
    return i < 0 || c->ast->decls[i].broken ? NULL : c->ast->decls[i].u.ext;
}

/* Whether name is a schema or extern (table) with a syntax error: its
 * uses are not checked, for what they would report is its error again. */
static bool is_broken(Checker *c, char table, const char *name)
{
    int i = index_get(c, table, NULL, name);
    return i == INDEX_LOST || (i >= 0 && c->ast->decls[i].broken);
}

/* check_schema indexes the attributes of every schema. */
static const AstAttr *find_attr(Checker *c, const AstSchema *s, const char *name)
{
    if (!s || !name)
        return NULL;
    int i = index_get(c, IX_ATTR, s, name);
    return i < 0 ? NULL : &s->attrs[i];
}

/* Index of value name in enum attribute a, -1 if absent. `A` and `"A"`
 * name the same value, so quoting is ignored. check_enum indexes them. */
static int find_value(Checker *c, const AstAttr *a, const char *name)
{
    if (!a || a->kind != ATTR_ENUM || !name)
        return -1;
    return index_get(c, IX_VALUE, a, name);
}

static int find_reg(Checker *c, const AstPattern *p, const char *name)
{
    return p ? index_get(c, IX_REG, p, name) : -1;
}

static Type attr_type(const AstAttr *a)
{
    switch (a->kind) {
    case ATTR_INT:
    case ATTR_TIMESTAMP: return ty(TY_INT);
    case ATTR_FLOAT:     return ty(TY_FLOAT);
    case ATTR_BOOL:      return ty(TY_BOOL);
    case ATTR_STRING:    return ty(TY_STR);
    case ATTR_ENUM: {
        Type t = {TY_ENUM, a};
        return t;
    }
    }
    return ty(TY_ERROR);
}

static NameList attr_names(Checker *c, const AstSchema *s)
{
    NameList l = {0};
    for (int i = 0; s && i < s->nattrs && spell_check(c); i++)
        names_push(c, &l, s->attrs[i].name);
    return l;
}

static void push_values(Checker *c, NameList *l, const AstAttr *a)
{
    for (int i = 0; a && i < a->nvalues && spell_check(c); i++)
        names_push(c, l, a->values[i].name);
}

/* "V" or "\"V\"": how a value is written back in a suggested fix. */
static const char *value_src(Checker *c, const char *name, bool quoted)
{
    return quoted ? fmt(c, "\"%s\"", name) : name;
}

/* ---- declarations and their names --------------------------------------------- */

static const char *decl_name(const AstDecl *d, Loc *loc, int *space)
{
    switch (d->kind) {
    case DECL_SCHEMA:  *loc = d->u.schema->loc;  *space = 0; return d->u.schema->name;
    case DECL_EXTERN:  *loc = d->u.ext->loc;     *space = 1; return d->u.ext->name;
    case DECL_PATTERN: *loc = d->u.pattern->loc; *space = 2; return d->u.pattern->name;
    case DECL_EPISODE: *loc = d->u.episode->loc; *space = 2; return d->u.episode->name;
    }
    *space = -1;
    return NULL;
}

/* Schemas, externs, and patterns with episodes are three namespaces;
 * indexes them for find_schema and find_extern. */
static void check_decl_names(Checker *c)
{
    static const char *const what[] = {"schema ", "extern function ", ""};
    static const char table[] = {IX_SCHEMA, IX_EXTERN, IX_DECL};
    for (int i = 0; i < c->ast->ndecls; i++) {
        Loc li, lj;
        int si, sj;
        const char *ni = decl_name(&c->ast->decls[i], &li, &si);
        if (!ni || si < 0)
            continue;
        int j = index_put(c, table[si], NULL, ni, i);
        if (j != i) {
            const char *nj = decl_name(&c->ast->decls[j], &lj, &sj);
            diag_error(c->diag, li, "redefinition of %s'%s'", what[si], ni);
            diag_note(c->diag, lj, "previous definition of '%s' is here", nj);
        }
    }
    /* after the declarations: a lost name never hides a real one */
    for (int i = 0; i < c->ast->nlost; i++) {
        DeclKind k = c->ast->lost[i].kind;
        if (k == DECL_SCHEMA || k == DECL_EXTERN)
            index_put(c, k == DECL_SCHEMA ? IX_SCHEMA : IX_EXTERN, NULL, c->ast->lost[i].name, INDEX_LOST);
    }
}

static void check_enum(Checker *c, const AstAttr *a)
{
    if (a->nvalues == 0)
        diag_error(c->diag, a->loc, "enum '%s' has no values", a->name);
    for (int i = 0; i < a->nvalues; i++) {
        int j = index_put(c, IX_VALUE, a, a->values[i].name, i);
        if (j != i) {
            diag_error(c->diag, a->values[i].loc, "duplicate value '%s' in enum '%s'", a->values[i].name,
                       a->name);
            diag_note(c->diag, a->values[j].loc, "previous definition of '%s' is here", a->values[j].name);
        }
    }
}

/* Timestamps are int64 in ns, us, ms or s; longer units would make
 * sub-unit windows impossible and are not offered. */
static void check_ts_unit(Checker *c, AstAttr *a)
{
    static const char *const units[] = {"ns", "us", "ms", "s"};
    a->unit = TU_S;
    if (!a->unit_name)
        return;
    for (int u = 0; u < 4; u++)
        if (strcmp(a->unit_name, units[u]) == 0) {
            a->unit = (TimeUnit)u;
            return;
        }
    if (ast_unit_ns(a->unit_name) > 0) {
        diag_error(c->diag, a->unit_loc, "a timestamp is in ns, us, ms or s, not '%s'", a->unit_name);
        return;
    }
    NameList l = {0};
    for (int u = 0; u < 4; u++)
        names_push(c, &l, units[u]);
    const char *hint = suggest(c, a->unit_name, &l);
    diag_error(c->diag, a->unit_loc, "unknown timestamp unit '%s'%s", a->unit_name,
               *hint ? hint : "; a timestamp is in ns, us, ms or s");
}

static void check_schema(Checker *c, AstSchema *s)
{
    s->ts_attr = -1;
    if (s->nattrs == 0)
        diag_error(c->diag, s->loc, "schema '%s' has no attributes", s->name);
    for (int i = 0; i < s->nattrs; i++) {
        AstAttr *a = &s->attrs[i];
        int j = index_put(c, IX_ATTR, s, a->name, i);
        if (j != i) {
            diag_error(c->diag, a->loc, "duplicate attribute '%s' in schema '%s'", a->name, s->name);
            diag_note(c->diag, s->attrs[j].loc, "previous definition of '%s' is here", a->name);
        }
        if (a->kind == ATTR_ENUM)
            check_enum(c, a);
        if (a->kind != ATTR_TIMESTAMP)
            continue;
        check_ts_unit(c, a);
        if (s->ts_attr >= 0) {
            diag_error(c->diag, a->loc, "schema '%s' has more than one timestamp attribute", s->name);
            diag_note(c->diag, s->attrs[s->ts_attr].loc, "previous definition of timestamp '%s' is here",
                      s->attrs[s->ts_attr].name);
        } else {
            s->ts_attr = i;
        }
    }
}

/* The generated code calls externs by their own name, so a C keyword (or
 * the program's main) cannot be one. */
static bool is_c_reserved(const char *name)
{
    static const char *const words[] = {
        "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
        "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
        "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch",
        "typedef", "union", "unsigned", "void", "volatile", "while", "_Alignas", "_Alignof",
        "_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary", "_Noreturn",
        "_Static_assert", "_Thread_local", "main",
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(name, words[i]) == 0)
            return true;
    return false;
}

static void check_extern(Checker *c, const AstExtern *f)
{
    if (is_c_reserved(f->name))
        diag_error(c->diag, f->loc, "'%s' is reserved in C and cannot name an extern function", f->name);
}

/* ---- numbers ------------------------------------------------------------------ */

/* A literal that must be a whole number in [lo, hi]; what names it in the
 * messages ("a count window"). */
static bool want_int(Checker *c, const AstNumber *n, const char *what, int64_t lo, int64_t hi,
                     int64_t *out)
{
    if (n->is_float) {
        diag_error(c->diag, n->loc, "%s must be a whole number, got %s", what, num_str(c, n));
        return false;
    }
    bool too_big = n->overflow || n->u > (uint64_t)INT64_MAX + (n->negative ? 1u : 0u);
    int64_t v = 0;
    if (!too_big)
        v = !n->negative ? (int64_t)n->u
            : n->u == (uint64_t)INT64_MAX + 1u ? INT64_MIN : -(int64_t)n->u;
    if ((too_big && n->negative) || (!too_big && v < lo)) {
        diag_error(c->diag, n->loc, "%s must be at least %" PRId64 ", got %s", what, lo, num_str(c, n));
        return false;
    }
    if (too_big || v > hi) {
        diag_error(c->diag, n->loc, "%s must be at most %" PRId64 ", got %s", what, hi, num_str(c, n));
        return false;
    }
    *out = v;
    return true;
}

/* The magnitude of a literal and its sign, as a double. */
static double num_double(const AstNumber *n)
{
    double m = n->is_float ? fabs(n->f) : (double)n->u;
    return n->negative ? -m : m;
}

static Type check_number(Checker *c, AstExpr *e)
{
    const AstNumber *n = &e->num;
    if (n->is_float) {
        if (!isfinite(n->f)) {
            diag_error(c->diag, e->loc, "float literal %s is out of range", num_str(c, n));
            return set_type(e, ty(TY_ERROR));
        }
        return set_type(e, ty(TY_FLOAT));
    }
    if (n->overflow || n->u > (uint64_t)INT64_MAX + (n->negative ? 1u : 0u)) {
        diag_error(c->diag, e->loc, "integer literal %s does not fit in a 64-bit 'int'", num_str(c, n));
        return set_type(e, ty(TY_ERROR));
    }
    return set_type(e, ty(TY_INT));
}

/* Splits the decimal literal s (digits, '.', exponent) into m * 10^e
 * exactly, with m free of trailing zeros. False when the significant
 * digits do not fit in 64 bits. */
static bool dec_split(const char *s, uint64_t *m_out, int *e_out)
{
    uint64_t m = 0;
    long e = 0;
    bool frac = false;
    if (*s == '-' || *s == '+')
        s++;
    for (; *s; s++) {
        if (*s == '.') {
            frac = true;
            continue;
        }
        if (*s == 'e' || *s == 'E')
            break;
        if (*s < '0' || *s > '9')
            continue; /* digit separators, if the lexer ever keeps any */
        unsigned d = (unsigned)(*s - '0');
        if (m > (UINT64_MAX - d) / 10) {
            if (d != 0)
                return false;
            if (!frac)
                e++;
        } else {
            m = m * 10 + d;
            if (frac)
                e--;
        }
    }
    if (*s == 'e' || *s == 'E') {
        s++;
        bool neg = *s == '-';
        if (*s == '-' || *s == '+')
            s++;
        long x = 0;
        for (; *s >= '0' && *s <= '9'; s++)
            if (x < 100000)
                x = x * 10 + (*s - '0');
        e += neg ? -x : x;
    }
    while (m != 0 && m % 10 == 0) {
        m /= 10;
        e++;
    }
    *m_out = m;
    *e_out = (int)(e < -200000 ? -200000 : e > 200000 ? 200000 : e);
    return true;
}

enum { CONV_OK, CONV_FRACTION, CONV_RANGE };

/* m * 10^e units of unit_ns nanoseconds, in units of ts_ns nanoseconds,
 * exactly: both unit sizes are k * 10^j, so the powers of ten are moved
 * into the exponent and only small integers are multiplied. */
static int convert_duration(uint64_t m, int e, int64_t unit_ns, int64_t ts_ns, int64_t *out)
{
    uint64_t k = (uint64_t)unit_ns, kt = (uint64_t)ts_ns;
    long p = e;
    while (k % 10 == 0) {
        k /= 10;
        p++;
    }
    while (kt % 10 == 0) {
        kt /= 10;
        p--;
    }
    if (m > UINT64_MAX / k)
        return CONV_RANGE;
    uint64_t n = m * k;
    if (n % kt != 0)
        return CONV_FRACTION;
    n /= kt;
    for (; p < 0; p++) {
        if (n % 10 != 0)
            return CONV_FRACTION;
        n /= 10;
    }
    for (; p > 0; p--) {
        if (n > (uint64_t)INT64_MAX / 10)
            return CONV_RANGE;
        n *= 10;
    }
    if (n > (uint64_t)INT64_MAX)
        return CONV_RANGE;
    *out = (int64_t)n;
    return CONV_OK;
}

/* ---- headers: schema, partition, window ------------------------------------------ */

static const AstSchema *resolve_schema(Checker *c, const AstHeader *h)
{
    if (!h->schema_name)
        return NULL;
    const AstSchema *s = find_schema(c, h->schema_name);
    if (!s && !is_broken(c, IX_SCHEMA, h->schema_name)) {
        NameList l = {0};
        for (int i = 0; i < c->ast->ndecls && spell_check(c); i++)
            if (c->ast->decls[i].kind == DECL_SCHEMA)
                names_push(c, &l, c->ast->decls[i].u.schema->name);
        diag_error(c->diag, h->schema_loc, "unknown schema '%s'%s", h->schema_name,
                   suggest(c, h->schema_name, &l));
    }
    return s;
}

/* One attribute of a partition key. Keys are compared for equality, so
 * floats (NaN, -0.0) are out; a timestamp key would put nearly every event
 * in its own partition. */
static const AstAttr *check_key_attr(Checker *c, const char *name, Loc loc)
{
    const AstAttr *a = find_attr(c, c->schema, name);
    if (!a) {
        if (first_report(c, 'a', name)) {
            NameList l = attr_names(c, c->schema);
            diag_error(c->diag, loc, "unknown attribute '%s' in schema '%s'%s", name, c->schema->name,
                       suggest(c, name, &l));
        }
        return NULL;
    }
    if (a->kind == ATTR_FLOAT) {
        diag_error(c->diag, loc,
                   "cannot partition by %s attribute '%s'; use an int, enum, bool or string attribute",
                   a->single ? "float32" : "float", a->name);
        return NULL;
    }
    if (a->kind == ATTR_TIMESTAMP) {
        diag_error(c->diag, loc, "cannot partition by the timestamp attribute '%s'", a->name);
        return NULL;
    }
    return a;
}

/* `partition by a, b, ...`: up to AST_PARTITION_MAX distinct attributes
 * into attrs[*n]; the first, or NULL when absent or in error (the
 * declaration then reads as unpartitioned: the file does not compile). */
static const AstAttr *check_partition(Checker *c, const AstHeader *h, const AstAttr **attrs, int *n)
{
    *n = 0;
    if (!h->partition[0] || !c->schema)
        return NULL;
    if (h->npartition > AST_PARTITION_MAX) {
        diag_error(c->diag, h->partition_loc[AST_PARTITION_MAX],
                   "a partition key has at most %d attributes", AST_PARTITION_MAX);
        return NULL;
    }
    bool ok = true;
    for (int k = 0; k < h->npartition; k++) {
        const AstAttr *a = check_key_attr(c, h->partition[k], h->partition_loc[k]);
        for (int j = 0; a && j < k; j++)
            if (attrs[j] == a) {
                diag_error(c->diag, h->partition_loc[k], "attribute '%s' is already in the partition key", a->name);
                a = NULL;
            }
        ok &= a != NULL;
        attrs[k] = a;
    }
    if (!ok)
        return NULL;
    *n = h->npartition;
    return attrs[0];
}

/* Nanoseconds per unit of a duration's unit, 0 (reported) if unknown. */
static int64_t window_unit_ns(Checker *c, const AstWindow *w)
{
    static const char *const units[] = {"ns", "us", "ms", "s", "min", "h", "d"};
    int64_t unit_ns = w->unit_name ? ast_unit_ns(w->unit_name) : 0;
    if (unit_ns > 0)
        return unit_ns;
    NameList l = {0};
    for (int u = 0; u < 7; u++)
        names_push(c, &l, units[u]);
    names_push(c, &l, "events"); /* `within 5 event` */
    const char *name = w->unit_name ? w->unit_name : "";
    const char *hint = suggest(c, name, &l);
    diag_error(c->diag, w->unit_loc, "unknown time unit '%s'%s", name,
               *hint ? hint : "; units are ns, us, ms, s, min, h and d");
    return 0;
}

/* A duration becomes a whole positive number of timestamp units, exactly
 * (`1.5 s` is 1500 ms; `500 us` is no whole number of ms). */
static void check_duration(Checker *c, AstWindow *w)
{
    static const int64_t ts_ns[] = {1, 1000, 1000000, 1000000000};
    int64_t unit_ns = window_unit_ns(c, w);
    if (!c->schema)
        return;
    if (c->schema->ts_attr < 0) {
        diag_error(c->diag, w->loc, "a time window needs a timestamp attribute, and schema '%s' has none",
                   c->schema->name);
        return;
    }
    if (unit_ns <= 0)
        return;
    const AstAttr *ts = &c->schema->attrs[c->schema->ts_attr];
    const char *ts_unit = ts->unit_name ? ts->unit_name : "s";
    const char *amount = num_str(c, &w->amount);
    uint64_t m;
    int e;
    const char *text = w->amount.text && w->amount.text[0] ? w->amount.text
                       : w->amount.is_float ? fmt(c, "%.17g", fabs(w->amount.f))
                                            : fmt(c, "%" PRIu64, w->amount.u);
    bool digits_ok = !w->amount.overflow && dec_split(text, &m, &e);
    if (digits_ok && (m == 0 || w->amount.negative)) {
        diag_error(c->diag, w->amount.loc, "a time window must be positive, got %s %s", amount, w->unit_name);
        return;
    }
    int r = digits_ok ? convert_duration(m, e, unit_ns, ts_ns[ts->unit], &w->value) : CONV_RANGE;
    if (r == CONV_FRACTION)
        diag_error(c->diag, w->amount.loc, "%s %s is not a whole number of %s (the unit of timestamp '%s')",
                   amount, w->unit_name, ts_unit, ts->name);
    else if (r == CONV_RANGE)
        diag_error(c->diag, w->amount.loc, "%s %s does not fit in a 64-bit number of %s", amount,
                   w->unit_name, ts_unit);
}

static void check_window(Checker *c, AstWindow *w)
{
    w->value = 0;
    if (w->kind == WIN_EVENTS)
        want_int(c, &w->amount, "a count window", 1, INT64_MAX, &w->value);
    else if (w->kind == WIN_TIME)
        check_duration(c, w);
}

/* ---- conditions ------------------------------------------------------------------- */

static Type check_expr(Checker *c, AstExpr *e);

/* The enum attributes of the schema that have value name, listed as
 * "'a'", "'a' and 'b'" or "'a', 'b' and 'c'"; NULL if none. */
static const char *value_owners(Checker *c, const char *name, int *count)
{
    const char *list = NULL;
    int n = 0;
    const AstSchema *s = c->schema;
    for (int i = 0; s && i < s->nattrs; i++)
        if (find_value(c, &s->attrs[i], name) >= 0)
            n++;
    for (int i = 0, k = 0; s && i < s->nattrs; i++) {
        if (find_value(c, &s->attrs[i], name) < 0)
            continue;
        k++;
        list = !list ? fmt(c, "'%s'", s->attrs[i].name)
                     : fmt(c, "%s%s'%s'", list, k == n ? " and " : ", ", s->attrs[i].name);
    }
    if (count)
        *count = n;
    return list;
}

/* A bare name that is not an attribute. When the schema has an enum with
 * that value, say how to compare with it; that is the usual mistake.
 * exclude: a name never to suggest (the other side of a comparison). */
static void report_unknown_name(Checker *c, const AstExpr *e, const AstAttr *enum_ctx, const char *exclude)
{
    if (!first_report(c, 'a', e->str))
        return;
    const AstSchema *s = c->schema;
    NameList l = attr_names(c, s);
    if (enum_ctx) {
        push_values(c, &l, enum_ctx);
        diag_error(c->diag, e->loc,
                   "unknown name '%s': neither an attribute of schema '%s' nor a value of enum '%s'%s", e->str,
                   s->name, enum_ctx->name, suggest_but(c, e->str, &l, exclude));
        return;
    }
    if (find_extern(c, e->str) || is_broken(c, IX_EXTERN, e->str)) {
        diag_error(c->diag, e->loc, "'%s' is a function, not an attribute of schema '%s'; call it: '%s(...)'",
                   e->str, s->name, e->str);
        return;
    }
    for (int i = 0; i < s->nattrs; i++)
        if (find_value(c, &s->attrs[i], e->str) >= 0) {
            diag_error(c->diag, e->loc,
                       "'%s' is not an attribute of schema '%s' but a value of enum '%s'; "
                       "did you mean '%s == %s'?",
                       e->str, s->name, s->attrs[i].name, s->attrs[i].name, e->str);
            return;
        }
    diag_error(c->diag, e->loc, "unknown attribute '%s' in schema '%s'%s", e->str, s->name,
               suggest_but(c, e->str, &l, exclude));
}

static Type to_attr(AstExpr *e, const AstAttr *a)
{
    e->kind = EX_ATTR;
    e->attr = a;
    return set_type(e, attr_type(a));
}

static Type to_enumval(AstExpr *e, const AstAttr *a, int index)
{
    Type t = {TY_ENUM, a};
    e->kind = EX_ENUMVAL;
    e->attr = NULL;
    e->enum_value = index;
    return set_type(e, t);
}

/* A string literal compared with a string attribute: the literal's id,
 * the same for every use of the same text in the file (Ast.strings). */
static Type to_string_id(Checker *c, AstExpr *e)
{
    int id = index_put(c, IX_STRING, NULL, e->str, c->ast->nstrings);
    if (id == c->ast->nstrings)
        *(const char **)arena_push(c->arena, &c->ast->strings, &c->ast->nstrings, &c->ast->strings_cap,
                                   sizeof(const char *)) = e->str;
    e->kind = EX_ENUMVAL;
    e->attr = NULL;
    e->enum_value = id;
    return set_type(e, ty(TY_STR));
}

/* A bare name outside a comparison with an enum: it must be an attribute. */
static Type check_name(Checker *c, AstExpr *e)
{
    const AstAttr *a = find_attr(c, c->schema, e->str);
    if (a)
        return to_attr(e, a);
    report_unknown_name(c, e, NULL, NULL);
    return set_type(e, ty(TY_ERROR));
}

/* A pattern has few registers, all in sight, so even a one-letter name
 * gets the nearest one ('y' for 'x'), with where it is written. */
static void report_unknown_reg(Checker *c, const AstExpr *e)
{
    NameList l = {0};
    for (int i = 0; i < c->pat->nregs && spell_check(c); i++)
        names_push(c, &l, c->pat->regs[i].name);
    c->nsuggest++;
    const char *best = l.n ? diag_closest(e->str, l.v, l.n) : NULL;
    if (!best) {
        diag_error(c->diag, e->loc, "unknown register '%s'", e->str);
        return;
    }
    const AstRegister *r = &c->pat->regs[find_reg(c, c->pat, best)];
    diag_error(c->diag, e->loc, "unknown register '%s'; did you mean '%s'?", e->str, best);
    diag_note(c->diag, r->loc, "register '%s' is written here", r->name);
}

static Type check_regattr(Checker *c, AstExpr *e)
{
    e->reg = -1;
    if (!c->pat) {
        if (first_report(c, 'r', e->str))
            diag_error(c->diag, e->loc, "an episode element cannot read registers");
        return set_type(e, ty(TY_ERROR));
    }
    int r = find_reg(c, c->pat, e->str);
    if (r < 0) {
        c->unknown_reg = true;
        if (!first_report(c, 'r', e->str))
            return set_type(e, ty(TY_ERROR));
        if (c->pat->nregs == 0) {
            diag_error(c->diag, e->loc, "unknown register '%s': pattern '%s' writes no registers", e->str,
                       c->pat->name);
        } else {
            report_unknown_reg(c, e);
        }
        return set_type(e, ty(TY_ERROR));
    }
    e->reg = r;
    c->reg_read[r] = true;
    const AstAttr *a = find_attr(c, c->schema, e->field);
    if (!a) {
        if (first_report(c, 'a', e->field)) {
            NameList l = attr_names(c, c->schema);
            diag_error(c->diag, e->field_loc, "unknown attribute '%s' in schema '%s'%s", e->field,
                       c->schema->name, suggest(c, e->field, &l));
        }
        return set_type(e, ty(TY_ERROR));
    }
    e->attr = a;
    return set_type(e, attr_type(a));
}

/* Arguments convert like C: an int may be passed for a float parameter,
 * nothing else converts. */
static bool arg_fits(Type arg, TypeKind param)
{
    return arg.kind == param || (arg.kind == TY_INT && param == TY_FLOAT);
}

static Type check_call(Checker *c, AstExpr *e)
{
    bool args_ok = true;
    for (int i = 0; i < e->nargs; i++)
        if (check_expr(c, e->args[i]).kind == TY_ERROR)
            args_ok = false;
    const AstExtern *f = find_extern(c, e->str);
    if (!f) {
        if (!is_broken(c, IX_EXTERN, e->str) && first_report(c, 'f', e->str)) {
            NameList l = {0};
            for (int i = 0; i < c->ast->ndecls && spell_check(c); i++)
                if (c->ast->decls[i].kind == DECL_EXTERN)
                    names_push(c, &l, c->ast->decls[i].u.ext->name);
            diag_error(c->diag, e->loc, "unknown function '%s'%s", e->str, suggest(c, e->str, &l));
        }
        return set_type(e, ty(TY_ERROR));
    }
    e->ext = f;
    if (e->nargs != f->nparams) {
        diag_error(c->diag, e->loc, "'%s' takes %d argument%s, got %d", f->name, f->nparams,
                   f->nparams == 1 ? "" : "s", e->nargs);
        diag_note(c->diag, f->loc, "'%s' is declared here", f->name);
    } else if (args_ok) {
        for (int i = 0; i < e->nargs; i++) {
            Type t = e->args[i]->type;
            if (!arg_fits(t, f->params[i]))
                diag_error(c->diag, e->args[i]->loc, "argument %d of '%s' must be %s, got %s", i + 1,
                           f->name, type_str(c, ty(f->params[i])), type_str(c, t));
        }
    }
    return set_type(e, ty(f->ret));
}

/* The operands of == and != that need the other side to be resolved:
 * strings, and bare names that are not attributes (enum values). */
static bool is_open(Checker *c, const AstExpr *e)
{
    return e->kind == EX_STRING || (e->kind == EX_NAME && !find_attr(c, c->schema, e->str));
}

/* Resolves open operand side[i] of comparison cmp against the other
 * side's type: an enum value when that side is an enum. Otherwise:
 * - a value of other enums of the schema is the wrong enum's value, or
 *   (other side not an enum) a type mismatch;
 * - a name is unknown;
 * - a string stays a string (check_comparable reports it).
 * exclude: the other side's name, never suggested. */
static Type resolve_open(Checker *c, const AstExpr *cmp, int i, Type other, bool other_open,
                         const char *exclude)
{
    AstExpr *e = i == 0 ? cmp->lhs : cmp->rhs;
    if (!other_open && other.kind == TY_ERROR)
        return set_type(e, ty(TY_ERROR)); /* the other side is already reported */
    const AstAttr *en = !other_open && other.kind == TY_ENUM ? other.enum_attr : NULL;
    int v = find_value(c, en, e->str);
    if (v >= 0)
        return to_enumval(e, en, v);
    bool quoted = e->kind == EX_STRING;
    if (quoted && !other_open && other.kind == TY_STR)
        return to_string_id(c, e);
    const char *shown = quoted ? fmt(c, "\"%s\"", e->str) : fmt(c, "'%s'", e->str);
    int nowners;
    const char *owners = value_owners(c, e->str, &nowners);
    if (owners && en) {
        diag_error(c->diag, e->loc, "%s is not a value of enum '%s' (it is a value of %s)", shown, en->name,
                   owners);
        return set_type(e, ty(TY_ERROR));
    }
    if (owners && !other_open) {
        const char *val = fmt(c, "value %s of enum%s %s", shown, nowners > 1 ? "s" : "", owners);
        const char *oth = type_str(c, other);
        diag_error(c->diag, cmp->loc, "type mismatch: cannot compare %s with %s", i == 0 ? val : oth,
                   i == 0 ? oth : val);
        return set_type(e, ty(TY_ERROR));
    }
    if (!quoted) {
        report_unknown_name(c, e, en, exclude);
        return set_type(e, ty(TY_ERROR));
    }
    if (en) {
        if (first_report(c, 'v', e->str)) {
            NameList l = {0};
            push_values(c, &l, en);
            diag_error(c->diag, e->loc, "\"%s\" is not a value of enum '%s'%s", e->str, en->name,
                       suggest_but(c, e->str, &l, exclude));
        }
        return set_type(e, ty(TY_ERROR));
    }
    return set_type(e, ty(TY_STRING));
}

/* Whether two (non-error) types may be compared with op; reports if not. */
static void check_comparable(Checker *c, const AstExpr *e, Type l, Type r)
{
    static const char *const why = "a string literal can only be compared with a string attribute, "
                                   "or with an enum attribute (as one of its values)";
    if (l.kind == TY_ERROR || r.kind == TY_ERROR)
        return;
    if (is_numeric(l) && is_numeric(r))
        return;
    if (l.kind == r.kind && (l.kind == TY_BOOL || l.kind == TY_STR || (l.kind == TY_ENUM && l.enum_attr == r.enum_attr))) {
        if (e->op != OP_EQ && e->op != OP_NE)
            diag_error(c->diag, e->loc, "'%s' cannot compare %s values; use '==' or '!='", op_str(e->op),
                       type_str(c, l));
        return;
    }
    if (l.kind == TY_STRING && r.kind == TY_STRING) {
        diag_error(c->diag, e->loc, "cannot compare two string literals: %s", why);
        return;
    }
    if (l.kind == TY_STRING || r.kind == TY_STRING) {
        const char *ls = l.kind == TY_STRING ? "a string literal" : type_str(c, l);
        const char *rs = r.kind == TY_STRING ? "a string literal" : type_str(c, r);
        diag_error(c->diag, e->loc, "type mismatch: cannot compare %s with %s; %s", ls, rs, why);
        return;
    }
    diag_error(c->diag, e->loc, "type mismatch: cannot compare %s with %s", type_str(c, l), type_str(c, r));
}

/* Of two open sides, the one not to report: [typ == H] (for [type == H])
 * is one mistake, the unknown name, and H is a value of the enum the user
 * meant. The side reported is the first bare name that is no enum value
 * (else the first bare name); -1 (report both) for two strings. */
static int quiet_side(Checker *c, AstExpr *const side[2])
{
    bool name[2], value[2];
    for (int i = 0; i < 2; i++) {
        name[i] = side[i]->kind == EX_NAME;
        value[i] = value_owners(c, side[i]->str, NULL) != NULL;
    }
    if (!name[0] && !name[1])
        return -1;
    for (int i = 0; i < 2; i++)
        if (name[i] && !value[i])
            return 1 - i;
    return name[0] ? 1 : 0;
}

/* A comparison. Bare names are attributes first; a name that is not one is
 * resolved as a value of the enum on the other side. A name that is both an
 * attribute and a value of that enum is ambiguous. Enum values are resolved
 * for every relop so that `kind < A` gets the real complaint (ordering). */
static Type check_cmp(Checker *c, AstExpr *e)
{
    AstExpr *side[2] = {e->lhs, e->rhs};
    Type t[2];
    bool open[2], bare[2];
    for (int i = 0; i < 2; i++) {
        open[i] = is_open(c, side[i]);
        bare[i] = side[i]->kind == EX_NAME && !open[i];
        if (!open[i])
            t[i] = check_expr(c, side[i]);
    }
    int quiet = open[0] && open[1] ? quiet_side(c, side) : -1;
    for (int i = 0; i < 2; i++)
        if (i == quiet)
            t[i] = set_type(side[i], ty(TY_ERROR));
        else if (open[i])
            t[i] = resolve_open(c, e, i, open[1 - i] ? ty(TY_ERROR) : t[1 - i], open[1 - i],
                                side[1 - i]->kind == EX_ATTR ? side[1 - i]->attr->name : NULL);
    for (int i = 0; i < 2; i++) {
        Type o = t[1 - i];
        if (bare[i] && o.kind == TY_ENUM && find_value(c, o.enum_attr, side[i]->str) >= 0) {
            diag_error(c->diag, side[i]->loc,
                       "'%s' is ambiguous: it is an attribute of schema '%s' and a value of enum '%s'",
                       side[i]->str, c->schema->name, o.enum_attr->name);
            t[i] = set_type(side[i], ty(TY_ERROR));
        }
    }
    check_comparable(c, e, t[0], t[1]);
    return set_type(e, ty(TY_BOOL));
}

/* u as a two's complement int64, without implementation-defined casts. */
static int64_t as_signed(uint64_t u)
{
    return u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)(UINT64_MAX - u) - 1;
}

/* The value of a constant int term (literals, unary '-', + - * / %), with
 * the language's wrapping arithmetic; false if e is not constant or divides
 * by zero itself. Only called on terms typed 'int'. */
static bool const_int(const AstExpr *e, uint64_t *v)
{
    uint64_t a, b;
    switch (e->kind) {
    case EX_NUMBER:
        if (e->num.is_float || e->num.overflow)
            return false;
        *v = e->num.negative ? 0u - e->num.u : e->num.u;
        return true;
    case EX_NEG:
        if (!const_int(e->lhs, &a))
            return false;
        *v = 0u - a;
        return true;
    case EX_ARITH:
        if (!const_int(e->lhs, &a) || !const_int(e->rhs, &b))
            return false;
        switch (e->op) {
        case OP_ADD: *v = a + b; return true;
        case OP_SUB: *v = a - b; return true;
        case OP_MUL: *v = a * b; return true;
        case OP_DIV:
        case OP_MOD:
            if (b == 0)
                return false;
            if (a == (uint64_t)INT64_MAX + 1u && b == UINT64_MAX) { /* INT64_MIN / -1 wraps */
                *v = e->op == OP_DIV ? a : 0;
                return true;
            }
            *v = (uint64_t)(e->op == OP_DIV ? as_signed(a) / as_signed(b) : as_signed(a) % as_signed(b));
            return true;
        default:
            return false;
        }
    default:
        return false;
    }
}

/* An integer '/' or '%' by a constant 0 makes the whole condition false
 * (docs/language.md 3.2), which is surely not what was meant. */
static void warn_zero_divisor(Checker *c, const AstExpr *e)
{
    uint64_t v;
    if (e->type.kind == TY_INT && (e->op == OP_DIV || e->op == OP_MOD) && const_int(e->rhs, &v) && v == 0)
        diag_warning(c->diag, e->loc, "division-by-zero", "integer %s by zero: the condition is always false",
                     e->op == OP_DIV ? "division" : "remainder");
}

static Type check_arith(Checker *c, AstExpr *e)
{
    Type l = check_expr(c, e->lhs), r = check_expr(c, e->rhs);
    if (l.kind == TY_ERROR || r.kind == TY_ERROR)
        return set_type(e, ty(TY_ERROR));
    if (e->op == OP_MOD) {
        if (l.kind != TY_INT || r.kind != TY_INT) {
            diag_error(c->diag, e->loc, "'%%' needs int operands, got %s",
                       type_str(c, l.kind != TY_INT ? l : r));
            return set_type(e, ty(TY_ERROR));
        }
        set_type(e, ty(TY_INT));
        warn_zero_divisor(c, e);
        return e->type;
    }
    if (!is_numeric(l) || !is_numeric(r)) {
        diag_error(c->diag, e->loc, "'%s' needs int or float operands, got %s", op_str(e->op),
                   type_str(c, !is_numeric(l) ? l : r));
        return set_type(e, ty(TY_ERROR));
    }
    set_type(e, ty(l.kind == TY_INT && r.kind == TY_INT ? TY_INT : TY_FLOAT));
    warn_zero_divisor(c, e);
    return e->type;
}

/* Operands of ! && ||; the result is bool even after an error, so an
 * enclosing condition does not complain again. */
static void want_bool(Checker *c, const AstExpr *op, Type t, const char *spelling, const char *an)
{
    if (t.kind != TY_ERROR && t.kind != TY_BOOL)
        diag_error(c->diag, op->loc, "'%s' needs %s, got %s", spelling, an, type_str(c, t));
}

static Type check_expr(Checker *c, AstExpr *e)
{
    switch (e->kind) {
    case EX_TRUE:
    case EX_FALSE:   return set_type(e, ty(TY_BOOL));
    case EX_NUMBER:  return check_number(c, e);
    case EX_STRING:  return set_type(e, ty(TY_STRING));
    case EX_NAME:    return check_name(c, e);
    case EX_REGATTR: return check_regattr(c, e);
    case EX_CALL:    return check_call(c, e);
    case EX_CMP:     return check_cmp(c, e);
    case EX_ARITH:   return check_arith(c, e);
    case EX_NOT:
        want_bool(c, e, check_expr(c, e->lhs), "!", "a bool operand");
        return set_type(e, ty(TY_BOOL));
    case EX_AND:
    case EX_OR: {
        const char *spelling = e->kind == EX_AND ? "&&" : "||";
        want_bool(c, e, check_expr(c, e->lhs), spelling, "bool operands");
        want_bool(c, e, check_expr(c, e->rhs), spelling, "bool operands");
        return set_type(e, ty(TY_BOOL));
    }
    case EX_NEG: {
        Type t = check_expr(c, e->lhs);
        if (t.kind == TY_ERROR)
            return set_type(e, t);
        if (!is_numeric(t)) {
            diag_error(c->diag, e->loc, "unary '-' needs an int or float operand, got %s", type_str(c, t));
            return set_type(e, ty(TY_ERROR));
        }
        return set_type(e, t);
    }
    case EX_ATTR:
    case EX_ENUMVAL: return e->type; /* already resolved */
    }
    return set_type(e, ty(TY_ERROR));
}

/* [COND]: a bool, which includes a bare bool attribute ([ok], [x.ok]). */
static void check_cond(Checker *c, AstExpr *cond)
{
    Type t = check_expr(c, cond);
    if (t.kind != TY_ERROR && t.kind != TY_BOOL)
        diag_error(c->diag, cond->loc, "a condition must be 'bool', got %s", type_str(c, t));
}

/* ---- atoms -------------------------------------------------------------------------- */

static AstExpr *new_expr(Checker *c, ExprKind kind, Loc loc)
{
    AstExpr *e = arena_alloc(c->arena, sizeof *e);
    e->kind = kind;
    e->loc = loc;
    e->reg = -1;
    return e;
}

/* Shorthand V: the value of exactly one enum attribute a; it becomes the
 * condition `a == V` so later stages only look at cond. */
static void resolve_shorthand(Checker *c, AstRegex *rx)
{
    const AstSchema *s = c->schema;
    const AstAttr *a = NULL;
    int index = -1;
    NameList owners = {0};
    rx->value_attr = NULL;
    rx->value_index = -1;
    for (int i = 0; i < s->nattrs; i++) {
        int v = find_value(c, &s->attrs[i], rx->value);
        if (v < 0)
            continue;
        names_push(c, &owners, fmt(c, "'%s'", s->attrs[i].name));
        if (!a) {
            a = &s->attrs[i];
            index = v;
        }
    }
    if (owners.n > 1) {
        const char *list = owners.n == 2 ? fmt(c, "both %s and %s", owners.v[0], owners.v[1]) : owners.v[0];
        for (int i = 1; owners.n > 2 && i < owners.n; i++)
            list = fmt(c, "%s%s%s", list, i == owners.n - 1 ? " and " : ", ", owners.v[i]);
        diag_error(c->diag, rx->loc, "'%s' is a value of %s; write [%s == %s]", rx->value, list, a->name,
                   value_src(c, rx->value, rx->value_quoted));
        return;
    }
    if (!a) {
        if (!first_report(c, 'v', rx->value))
            return;
        const AstAttr *b = rx->value_quoted ? NULL : find_attr(c, s, rx->value);
        if (b && b->kind == ATTR_BOOL) {
            diag_error(c->diag, rx->loc, "'%s' is a bool attribute, not an enum value; write [%s] to test it",
                       rx->value, rx->value);
            return;
        }
        if (b) {
            diag_error(c->diag, rx->loc, "'%s' is an attribute of schema '%s', not an enum value", rx->value,
                       s->name);
            return;
        }
        NameList l = {0};
        for (int i = 0; i < s->nattrs; i++)
            push_values(c, &l, &s->attrs[i]);
        diag_error(c->diag, rx->loc, "unknown enum value '%s' in schema '%s'%s", rx->value, s->name,
                   suggest(c, rx->value, &l));
        return;
    }
    rx->value_attr = a;
    rx->value_index = index;
    AstExpr *lhs = new_expr(c, EX_ATTR, rx->loc);
    lhs->str = a->name;
    to_attr(lhs, a);
    AstExpr *rhs = new_expr(c, EX_ENUMVAL, rx->loc);
    rhs->str = a->values[index].name;
    to_enumval(rhs, a, index);
    AstExpr *eq = new_expr(c, EX_CMP, rx->loc);
    eq->op = OP_EQ;
    eq->lhs = lhs;
    eq->rhs = rhs;
    set_type(eq, ty(TY_BOOL));
    rx->cond = eq;
}

/* Types the conditions of every atom under rx (the schema is known). */
static void check_atoms(Checker *c, AstRegex *rx)
{
    if (rx->kind == RX_ATOM) {
        if (rx->atom == ATOM_VALUE && rx->value)
            resolve_shorthand(c, rx);
        else if (rx->atom == ATOM_COND && rx->cond)
            check_cond(c, rx->cond);
        return;
    }
    for (int i = 0; i < rx->nkids; i++)
        check_atoms(c, rx->kids[i]);
}

/* ---- pattern structure: labels, repetitions, complements ------------------------------- */

static void check_repeat(Checker *c, AstRegex *rx)
{
    int64_t lo = 0, hi = -1;
    bool ok = want_int(c, &rx->rep_min, "a repetition bound", 0, CHECK_REPEAT_MAX, &lo);
    /* {n} arrives as {n,n} with both bounds at one token: report it once */
    if (rx->rep_has_max) {
        if (loc_eq(rx->rep_max.loc, rx->rep_min.loc))
            hi = lo;
        else if (!want_int(c, &rx->rep_max, "a repetition bound", 0, CHECK_REPEAT_MAX, &hi))
            ok = false;
    }
    if (ok && rx->rep_has_max && lo > hi) {
        diag_error(c->diag, rx->rep_max.loc,
                   "the repetition maximum %" PRId64 " is smaller than the minimum %" PRId64, hi, lo);
        ok = false;
    }
    /* R{0} is the empty sequence, as in every regex engine; legal, but
     * most likely not what was meant, hence the warning. */
    if (ok && rx->rep_has_max && hi == 0)
        diag_warning(c->diag, rx->rep_min.loc, "empty-repetition",
                     "a repetition of at most 0 times matches only the empty sequence");
    rx->min = ok ? lo : 0;
    rx->max = ok && rx->rep_has_max ? hi : -1;
}

/* A label x: defines register x (in order of first write). It is kept even
 * when the label is misplaced, so reads of x are not reported again. */
static void define_label(Checker *c, AstRegex *rx, int in_not)
{
    AstPattern *p = c->pat;
    bool bad = false;
    if (rx->kind != RX_ATOM) {
        diag_error(c->diag, rx->label_loc, "register '%s' can only be written by a single-event atom",
                   rx->label);
        bad = true;
    } else if (in_not) {
        diag_error(c->diag, rx->label_loc, "register '%s' cannot be written inside '~'", rx->label);
        bad = true;
    }
    int r = index_put(c, IX_REG, p, rx->label, p->nregs);
    if (r == p->nregs) {
        AstRegister *reg = arena_push(c->arena, &p->regs, &p->nregs, &p->regs_cap, sizeof *p->regs);
        reg->name = rx->label;
        reg->loc = rx->label_loc;
        r = p->nregs - 1;
        *(bool *)arena_push(c->arena, &c->reg_bad, &c->nbad, &c->bad_cap, sizeof *c->reg_bad) = false;
    }
    if (bad)
        c->reg_bad[r] = true;
    if (rx->kind == RX_ATOM)
        rx->reg = r;
}

/* Pre-order, so atoms are numbered and registers collected in source order. */
static void walk_pattern(Checker *c, AstRegex *rx, int in_not)
{
    rx->reg = -1;
    if (rx->label)
        define_label(c, rx, in_not);
    switch (rx->kind) {
    case RX_ATOM:
        rx->position = ++c->natoms;
        return;
    case RX_NOT:
        if (c->window->kind != WIN_EVENTS)
            diag_error(c->diag, rx->loc, "'~' needs a count window: add 'within N events'");
        in_not++;
        break;
    case RX_REPEAT:
        check_repeat(c, rx);
        break;
    default:
        break;
    }
    for (int i = 0; i < rx->nkids; i++)
        walk_pattern(c, rx->kids[i], in_not);
}

/* ---- register flow ---------------------------------------------------------------------- */

typedef uint64_t Word;

static Word *bits_new(Checker *c) { return arena_alloc(c->arena, (size_t)c->nwords * sizeof(Word)); }

static Word *bits_copy(Checker *c, const Word *b)
{
    Word *n = bits_new(c);
    memcpy(n, b, (size_t)c->nwords * sizeof(Word));
    return n;
}

static void bits_or(const Checker *c, Word *dst, const Word *src)
{
    for (int i = 0; i < c->nwords; i++)
        dst[i] |= src[i];
}

static void bits_set(Word *b, int r) { b[r / 64] |= (Word)1 << (r % 64); }
static bool bits_has(const Word *b, int r) { return (b[r / 64] >> (r % 64)) & 1; }

/* Registers written by atoms under rx; a complement writes none (its
 * labels are errors already). */
static void writes(const AstRegex *rx, Word *set)
{
    if (rx->kind == RX_ATOM) {
        if (rx->reg >= 0)
            bits_set(set, rx->reg);
        return;
    }
    if (rx->kind == RX_NOT)
        return;
    for (int i = 0; i < rx->nkids; i++)
        writes(rx->kids[i], set);
}

static void expr_reads(const AstExpr *e, Word *set)
{
    if (!e)
        return;
    if (e->kind == EX_REGATTR && e->reg >= 0)
        bits_set(set, e->reg);
    expr_reads(e->lhs, set);
    expr_reads(e->rhs, set);
    for (int i = 0; i < e->nargs; i++)
        expr_reads(e->args[i], set);
}

static void reads(const AstRegex *rx, Word *set)
{
    if (rx->kind == RX_ATOM) {
        if (rx->atom == ATOM_COND)
            expr_reads(rx->cond, set);
        return;
    }
    for (int i = 0; i < rx->nkids; i++)
        reads(rx->kids[i], set);
}

static const AstRegex *find_write(const AstRegex *rx, int r)
{
    if (rx->kind == RX_ATOM)
        return rx->reg == r ? rx : NULL;
    if (rx->kind == RX_NOT)
        return NULL;
    for (int i = 0; i < rx->nkids; i++) {
        const AstRegex *w = find_write(rx->kids[i], r);
        if (w)
            return w;
    }
    return NULL;
}

static const AstExpr *find_expr_read(const AstExpr *e, int r)
{
    if (!e)
        return NULL;
    if (e->kind == EX_REGATTR && e->reg == r)
        return e;
    const AstExpr *x = find_expr_read(e->lhs, r);
    if (!x)
        x = find_expr_read(e->rhs, r);
    for (int i = 0; !x && i < e->nargs; i++)
        x = find_expr_read(e->args[i], r);
    return x;
}

static const AstExpr *find_read(const AstRegex *rx, int r)
{
    if (rx->kind == RX_ATOM)
        return rx->atom == ATOM_COND ? find_expr_read(rx->cond, r) : NULL;
    for (int i = 0; i < rx->nkids; i++) {
        const AstExpr *x = find_read(rx->kids[i], r);
        if (x)
            return x;
    }
    return NULL;
}

/* In R & S both operands read the same events at once, so a register
 * written by one cannot be written or read by the other: the result would
 * depend on which operand stores first. One report per register and node. */
static void check_and_node(Checker *c, const AstRegex *rx)
{
    int n = rx->nkids;
    Word **w = arena_alloc(c->arena, (size_t)n * sizeof *w);
    Word **rd = arena_alloc(c->arena, (size_t)n * sizeof *rd);
    for (int k = 0; k < n; k++) {
        w[k] = bits_new(c);
        rd[k] = bits_new(c);
        writes(rx->kids[k], w[k]);
        reads(rx->kids[k], rd[k]);
    }
    for (int r = 0; r < c->pat->nregs; r++) {
        if (c->reg_bad[r])
            continue;
        const char *name = c->pat->regs[r].name;
        int first = -1;
        for (int k = 0; k < n && first < 0; k++)
            if (bits_has(w[k], r))
                first = k;
        if (first < 0)
            continue;
        const AstRegex *fw = find_write(rx->kids[first], r);
        for (int k = 0; k < n; k++) {
            if (k == first)
                continue;
            if (bits_has(w[k], r)) {
                diag_error(c->diag, find_write(rx->kids[k], r)->label_loc,
                           "register '%s' is written in %s operands of '&'", name, n == 2 ? "both" : "two");
                diag_note(c->diag, fw->label_loc, "'%s' is also written here", name);
                c->reg_bad[r] = true; /* no follow-up warnings about it */
                break;
            }
            if (bits_has(rd[k], r)) {
                diag_error(c->diag, find_read(rx->kids[k], r)->loc,
                           "register '%s' is written in another operand of '&', so it cannot be read here",
                           name);
                diag_note(c->diag, fw->label_loc, "'%s' is written here", name);
                c->reg_bad[r] = true;
                break;
            }
        }
    }
}

static void check_and_nodes(Checker *c, const AstRegex *rx)
{
    if (rx->kind == RX_AND)
        check_and_node(c, rx);
    for (int i = 0; i < rx->nkids; i++)
        check_and_nodes(c, rx->kids[i]);
}

/* Warns about reads of registers that are in no path's write set before
 * the atom; once per register and atom. */
static void warn_reads(Checker *c, const AstExpr *e, const Word *before, Word **warned)
{
    if (!e)
        return;
    if (e->kind == EX_REGATTR && e->reg >= 0 && !bits_has(before, e->reg) && !c->reg_bad[e->reg]) {
        if (!*warned)
            *warned = bits_new(c);
        if (!bits_has(*warned, e->reg)) {
            bits_set(*warned, e->reg);
            diag_warning(c->diag, e->loc, "uninitialized-register",
                         "register '%s' is read before any path can have written it", e->str);
        }
    }
    warn_reads(c, e->lhs, before, warned);
    warn_reads(c, e->rhs, before, warned);
    for (int i = 0; i < e->nargs; i++)
        warn_reads(c, e->args[i], before, warned);
}

static bool loops(const AstRegex *rx)
{
    return rx->kind == RX_STAR || rx->kind == RX_PLUS ||
           (rx->kind == RX_REPEAT && (rx->max < 0 || rx->max >= 2));
}

/* Forward may-analysis: in = registers some path may have written before
 * rx; returns the same after rx. A loop body starts with everything the body
 * writes (a previous iteration), which is the fixpoint in one step since
 * out(R, in) = in + writes(R) for every R but a complement. In x:[COND],
 * COND sees the registers before the store. */
static Word *flow(Checker *c, const AstRegex *rx, const Word *in)
{
    Word *out = bits_copy(c, in);
    switch (rx->kind) {
    case RX_ATOM: {
        Word *warned = NULL;
        if (rx->atom == ATOM_COND)
            warn_reads(c, rx->cond, in, &warned);
        if (rx->reg >= 0)
            bits_set(out, rx->reg);
        break;
    }
    case RX_SEQ: {
        const Word *cur = in;
        for (int i = 0; i < rx->nkids; i++)
            cur = flow(c, rx->kids[i], cur);
        memcpy(out, cur, (size_t)c->nwords * sizeof(Word));
        break;
    }
    case RX_ALT:
    case RX_AND:
        for (int i = 0; i < rx->nkids; i++)
            bits_or(c, out, flow(c, rx->kids[i], in));
        break;
    case RX_NOT:
        if (rx->nkids > 0)
            flow(c, rx->kids[0], in); /* for its reads; it writes nothing */
        break;
    case RX_OPT:
    case RX_STAR:
    case RX_PLUS:
    case RX_REPEAT: {
        /* R{0}: the body never runs, so it writes nothing and reads nothing */
        if (rx->nkids == 0 || (rx->kind == RX_REPEAT && rx->max == 0))
            break;
        Word *body_in = bits_copy(c, in);
        if (loops(rx))
            writes(rx->kids[0], body_in);
        bits_or(c, out, flow(c, rx->kids[0], body_in));
        break;
    }
    }
    return out;
}

/* ---- policies and explore -------------------------------------------------------------- */

static void check_policy(Checker *c, AstPattern *p)
{
    if (!p->hdr.policy_given || p->hdr.policy == POLICY_STRICT)
        return;
    int n;
    AstRegex *const *items = ast_seq_items(&p->body, &n);
    for (int i = 0; i < n; i++)
        if (items[i]->kind != RX_ATOM) {
            diag_error(c->diag, p->hdr.policy_loc,
                       "policy '%s' needs a body that is a plain sequence of single-event atoms",
                       policy_str(p->hdr.policy));
            diag_note(c->diag, items[i]->loc, "here is %s", rx_what(items[i]->kind));
            return;
        }
}

static void check_explore(Checker *c, AstPattern *p)
{
    AstExplore *x = &p->explore;
    if (!x->present)
        return;
    if (!p->hdr.policy_given || p->hdr.policy == POLICY_STRICT)
        diag_error(c->diag, x->loc, "explore needs 'policy stnm' or 'policy stam'");
    if (!x->has_confidence) {
        diag_error(c->diag, x->loc,
                   "explore needs a threshold: add 'confidence' and a number between 0 and 1");
    } else {
        double v = num_double(&x->confidence);
        if ((!x->confidence.is_float && x->confidence.overflow) || !(v >= 0 && v <= 1))
            diag_error(c->diag, x->confidence.loc, "confidence must be between 0 and 1, got %s",
                       num_str(c, &x->confidence));
        else
            x->threshold = v == 0 ? 0 : v;
    }
    if (!x->extensions && !x->variations)
        diag_error(c->diag, x->loc, "explore needs 'extensions', 'variations' or both");

    int n;
    AstRegex *const *items = ast_seq_items(&p->body, &n);
    if (n < 2) {
        diag_error(c->diag, p->body->loc, "explore needs a sequence of at least 2 enum values, got %s",
                   items[0]->kind == RX_ATOM ? "one atom" : rx_what(items[0]->kind));
        return;
    }
    const AstAttr *et = NULL;
    for (int i = 0; i < n; i++) {
        const AstRegex *it = items[i];
        if (it->kind != RX_ATOM && p->hdr.policy != POLICY_STRICT)
            return; /* check_policy reported it */
        if (it->kind != RX_ATOM || it->atom != ATOM_VALUE) {
            const char *what = it->kind != RX_ATOM ? rx_what(it->kind)
                               : it->atom == ATOM_ANY ? "'_'" : "a condition";
            diag_error(c->diag, it->loc, "explore needs a sequence of enum values; this element is %s", what);
            return;
        }
        if (!it->value_attr)
            return; /* unknown without a schema, or reported */
        if (!et) {
            et = it->value_attr;
        } else if (it->value_attr != et) {
            diag_error(c->diag, it->loc,
                       "explore needs values of one enum: '%s' is a value of '%s', not of '%s'", it->value,
                       it->value_attr->name, et->name);
            return;
        }
    }
    if (n > EXPLORE_MAX_LENGTH) {
        diag_error(c->diag, items[EXPLORE_MAX_LENGTH]->loc,
                   "explore takes a sequence of at most %d values; this one has %d", EXPLORE_MAX_LENGTH, n);
        return;
    }
    if (et->nvalues > EXPLORE_MAX_VALUES) {
        diag_error(c->diag, x->loc, "explore takes an enum of at most %d values; '%s' has %d", EXPLORE_MAX_VALUES,
                   et->name, et->nvalues);
        return;
    }
    p->explore_attr = et;
    for (int v = 0; v < et->nvalues; v++) {
        bool used = false;
        for (int i = 0; i < n && !used; i++)
            used = items[i]->value_index == v;
        if (!used)
            return;
    }
    diag_warning(c->diag, x->loc, "explore-no-candidates",
                 "explore has no candidates: every value of '%s' is in the pattern", et->name);
}

/* ---- patterns and episodes --------------------------------------------------------------- */

static void begin_decl(Checker *c, AstHeader *h)
{
    c->natoms = 0;
    c->reg_bad = NULL;
    c->nbad = c->bad_cap = 0;
    c->reg_read = NULL;
    c->unknown_reg = false;
    c->window = &h->window;
    c->schema = resolve_schema(c, h);
    check_window(c, &h->window);
}

/* Registers need a window: without one, runs holding a register would
 * pile up forever. Also warns about registers nobody reads. */
static void check_registers(Checker *c, AstPattern *p)
{
    int first = -1;
    for (int r = 0; r < p->nregs && first < 0; r++)
        if (!c->reg_bad[r])
            first = r;
    if (first >= 0 && p->hdr.window.kind == WIN_NONE) {
        diag_error(c->diag, p->loc,
                   "pattern '%s' writes registers, so it needs a window: add a 'within' clause", p->name);
        diag_note(c->diag, p->regs[first].loc, "register '%s' is written here", p->regs[first].name);
    }
    /* Not when a read names an unknown register: it is most likely a
     * misspelt read of one of these ('frist.id' for 'first'). */
    if (!c->schema || c->unknown_reg)
        return; /* reads were not resolved, or not all */
    for (int r = 0; r < p->nregs; r++)
        if (!c->reg_bad[r] && !c->reg_read[r])
            diag_warning(c->diag, p->regs[r].loc, "unused-register",
                         "register '%s' is written but never read", p->regs[r].name);
}

/* ---- forecast ------------------------------------------------------------------------------ */

/* A whole number in [lo, hi] for parameter k of the clause, or def when
 * it is not given; out of range (or not whole): an error, and def. */
static int forecast_int(Checker *c, AstForecast *f, ForecastParam k, int lo, int hi, int def)
{
    if (!f->given[k])
        return def;
    const AstNumber *n = &f->param[k];
    if (n->is_float || n->negative || n->overflow || n->u < (uint64_t)lo || n->u > (uint64_t)hi) {
        diag_error(c->diag, n->loc, "'%s' must be a whole number from %d to %d, got %s",
                   ast_forecast_param_name(k), lo, hi, num_str(c, n));
        return def;
    }
    return (int)n->u;
}

/* A number in (lo, hi] (lo_open) or [lo, hi] for parameter k, or def. */
static double forecast_real(Checker *c, AstForecast *f, ForecastParam k, double lo, bool lo_open, double hi,
                            double def, const char *range)
{
    if (!f->given[k])
        return def;
    const AstNumber *n = &f->param[k];
    double v = num_double(n);
    if ((!n->is_float && n->overflow) || !(lo_open ? v > lo : v >= lo) || !(v <= hi)) {
        diag_error(c->diag, n->loc, "'%s' must be %s, got %s", ast_forecast_param_name(k), range, num_str(c, n));
        return def;
    }
    return v == 0 ? 0 : v;
}

static void check_forecast(Checker *c, AstPattern *p)
{
    AstForecast *f = &p->forecast;
    if (!f->present)
        return;
    if (!f->given[FP_CONFIDENCE])
        diag_error(c->diag, f->loc, "forecast needs a threshold: add 'confidence' and a number in (0, 1]");
    f->theta = forecast_real(c, f, FP_CONFIDENCE, 0, true, 1, 0.5, "greater than 0 and at most 1");
    f->horizon = forecast_int(c, f, FP_HORIZON, 1, FORECAST_MAX_HORIZON, FORECAST_DEFAULT_HORIZON);
    f->order = forecast_int(c, f, FP_ORDER, 1, FORECAST_MAX_ORDER, FORECAST_DEFAULT_ORDER);
    f->pmin = forecast_real(c, f, FP_PMIN, 0, true, 1, FORECAST_DEFAULT_PMIN, "greater than 0 and at most 1");
    f->alpha = forecast_real(c, f, FP_ALPHA, 0, false, 1e9, FORECAST_DEFAULT_ALPHA, "0 or more");
    f->gamma = forecast_real(c, f, FP_GAMMA, 0, false, 0.5, FORECAST_DEFAULT_GAMMA, "from 0 to 0.5");
    f->r = forecast_real(c, f, FP_R, 1, true, 1e9, FORECAST_DEFAULT_R, "greater than 1");
    f->max_spread = -1;
    f->within = 0;
    if (f->kind == FORECAST_INTERVAL) {
        f->max_spread = forecast_int(c, f, FP_SPREAD, 0, f->horizon, -1);
        if (f->given[FP_SPREAD] && f->max_spread < 0 && !f->param[FP_SPREAD].is_float &&
            !f->param[FP_SPREAD].negative && !f->param[FP_SPREAD].overflow)
            diag_note(c->diag, f->param_loc[FP_SPREAD], "the horizon is %d events", f->horizon);
        return;
    }
    if (f->given[FP_SPREAD])
        diag_error(c->diag, f->param_loc[FP_SPREAD], "'max spread' applies to 'forecast interval', not 'within'");
    const AstNumber *k = &f->k;
    if (k->is_float || k->negative || k->overflow || k->u < 1 || k->u > (uint64_t)f->horizon) {
        diag_error(c->diag, k->loc, "'forecast within' takes a whole number of events from 1 to the horizon (%d), got %s",
                   f->horizon, num_str(c, k));
        f->within = 1;
    } else {
        f->within = (int)k->u;
    }
}

/* ---- absent ------------------------------------------------------------------------------- */

/* `absent [COND]` (docs/language.md 3.7): COND reads the body's registers
 * as the canonical parse left them; the window is the deadline, so there
 * must be one; the records are absent records, so no explore or forecast
 * (which are about the body's match records). */
static void check_absent(Checker *c, AstPattern *p)
{
    AstAbsent *a = &p->absent;
    if (!a->present)
        return;
    if (c->schema && a->cond)
        check_cond(c, a->cond);
    if (p->hdr.window.kind == WIN_NONE)
        diag_error(c->diag, a->loc, "an absence needs a deadline: add a 'within' clause to pattern '%s'", p->name);
    if (p->explore.present)
        diag_error(c->diag, p->explore.loc, "a pattern with 'absent' cannot have an 'explore' clause");
    if (p->forecast.present)
        diag_error(c->diag, p->forecast.loc, "a pattern with 'absent' cannot have a 'forecast' clause");
}

static void check_pattern(Checker *c, AstPattern *p)
{
    c->pat = p;
    p->nregs = 0;
    begin_decl(c, &p->hdr);
    p->schema = c->schema;
    p->partition_attr = check_partition(c, &p->hdr, p->partition_attrs, &p->npartition);
    if (!p->body)
        return;
    walk_pattern(c, p->body, 0);
    p->natoms = c->natoms;
    c->nwords = p->nregs / 64 + 1;
    c->reg_read = arena_alloc(c->arena, (size_t)p->nregs + 1);
    if (c->schema) {
        check_atoms(c, p->body);
        check_and_nodes(c, p->body);
        flow(c, p->body, bits_new(c));
    }
    check_absent(c, p);
    check_registers(c, p);
    check_policy(c, p);
    check_explore(c, p);
    check_forecast(c, p);
}

/* An episode body is a plain sequence of unary elements: shorthands,
 * [COND] without registers, or _. */
static void check_episode(Checker *c, AstEpisode *ep)
{
    c->pat = NULL;
    begin_decl(c, &ep->hdr);
    ep->schema = c->schema;
    ep->partition_attr = check_partition(c, &ep->hdr, ep->partition_attrs, &ep->npartition);
    if (ep->hdr.window.kind == WIN_NONE)
        diag_error(c->diag, ep->loc, "episode '%s' needs a window: add a 'within' clause", ep->name);
    ep->alert_threshold = 0;
    if (ep->has_alert)
        want_int(c, &ep->alert_count, "the alert count", 1, INT64_MAX, &ep->alert_threshold);
    if (!ep->body)
        return;
    ep->nelements = 0;
    int n;
    AstRegex *const *items = ast_seq_items(&ep->body, &n);
    for (int i = 0; i < n; i++) {
        AstRegex *it = items[i];
        it->reg = -1;
        if (it->kind != RX_ATOM) {
            diag_error(c->diag, it->loc,
                       "an episode element must be one event (an enum value, [COND] or _), not %s",
                       rx_what(it->kind));
            continue;
        }
        if (it->label)
            diag_error(c->diag, it->label_loc, "an episode element cannot store events in registers");
        it->position = ++c->natoms;
        *(AstRegex **)arena_push(c->arena, &ep->elements, &ep->nelements, &ep->elements_cap,
                                 sizeof *ep->elements) = it;
        if (ep->nelements == EPISODE_MAX_ELEMENTS + 1)
            diag_error(c->diag, it->loc, "episode '%s' has more than %d elements; the counters take at most %d",
                       ep->name, EPISODE_MAX_ELEMENTS, EPISODE_MAX_ELEMENTS);
    }
    if (c->schema)
        check_atoms(c, ep->body);
}

bool check_ast(Ast *ast, Arena *arena, Diag *diag)
{
    Checker c = {0};
    intern_init(&c.index, arena);
    c.ast = ast;
    c.arena = arena;
    c.diag = diag;
    int errors = diag->nerrors;

    check_decl_names(&c);
    /* declarations with syntax errors are skipped: a tree with holes
     * would only report them again */
    for (int i = 0; i < ast->ndecls && !diag_stopped(diag); i++) {
        if (ast->decls[i].broken)
            continue;
        if (ast->decls[i].kind == DECL_SCHEMA)
            check_schema(&c, ast->decls[i].u.schema);
        else if (ast->decls[i].kind == DECL_EXTERN)
            check_extern(&c, ast->decls[i].u.ext);
    }
    for (int i = 0; i < ast->ndecls && !diag_stopped(diag); i++) {
        if (ast->decls[i].broken)
            continue;
        if (ast->decls[i].kind == DECL_PATTERN)
            check_pattern(&c, ast->decls[i].u.pattern);
        else if (ast->decls[i].kind == DECL_EPISODE)
            check_episode(&c, ast->decls[i].u.episode);
    }
    ast->checked = diag->nerrors == errors && diag->nsyntax == 0;
    return ast->checked;
}
