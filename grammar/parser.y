/* parser.y: pure bison grammar of the .srem language (docs/language.md v1);
 * builds the Ast and recovers from syntax errors at declarations. */
%code requires {
#include "ast.h"
#include "lexer.h"

typedef struct Parser {
    Lexer   lx;
    Arena  *arena;
    Diag   *diag;
    Ast    *ast;
} Parser;

/* What may follow an episode's closing brace. */
typedef struct AstAlertClause {
    bool      present;
    Loc       loc;
    AstNumber count;
} AstAlertClause;

/* What may follow a pattern's closing brace. */
typedef struct AstPatternTail {
    AstExplore  explore;
    AstForecast forecast;
} AstPatternTail;
}

%code provides {
int sremlex(SREMSTYPE *val, SREMLTYPE *loc, Parser *p);
void sremerror(SREMLTYPE *loc, Parser *p, const char *msg);
}

%code {
#include <string.h>

static Loc L(SREMLTYPE l) { return (Loc){l.first_line, l.first_column}; }

static void *node(Parser *p, size_t size) { return arena_alloc(p->arena, size); }

static int max_depth(int a, int b) { return a > b ? a : b; }

/* Reports a tree deeper than AST_MAX_DEPTH once, where it first gets too
 * deep, so later stages can recurse safely. */
static void check_depth(Parser *p, int depth, Loc loc)
{
    if (depth == AST_MAX_DEPTH + 1)
        diag_syntax(p->diag, loc, "expression nested more than %d deep", AST_MAX_DEPTH);
}

static AstExpr *expr_new(Parser *p, ExprKind kind, Loc loc)
{
    AstExpr *e = node(p, sizeof *e);
    e->kind = kind;
    e->loc = loc;
    e->depth = 1;
    return e;
}

static AstExpr *expr_bin(Parser *p, ExprKind kind, ExprOp op, AstExpr *l, AstExpr *r, Loc loc)
{
    AstExpr *e = expr_new(p, kind, loc);
    e->op = op;
    e->lhs = l;
    e->rhs = r;
    e->depth = 1 + max_depth(l->depth, r ? r->depth : 0);
    check_depth(p, e->depth, loc);
    return e;
}

/* -7 is a literal, so that -9223372036854775808 fits; - -7 is not. */
static AstExpr *expr_neg(Parser *p, AstExpr *e, Loc loc)
{
    if (e->kind == EX_NUMBER && !e->num.negative) {
        e->num.negative = true;
        e->num.f = -e->num.f;
        e->loc = loc;
        e->num.loc = loc;
        return e;
    }
    return expr_bin(p, EX_NEG, OP_SUB, e, NULL, loc);
}

static AstRegex *rx_new(Parser *p, RegexKind kind, Loc loc)
{
    AstRegex *r = node(p, sizeof *r);
    r->kind = kind;
    r->loc = loc;
    r->depth = 1;
    r->reg = -1;
    return r;
}

static AstRegex *rx_atom(Parser *p, AtomKind atom, Loc loc)
{
    AstRegex *r = rx_new(p, RX_ATOM, loc);
    r->atom = atom;
    return r;
}

/* Appends kid to an n-ary node; an unlabeled kid of the same kind is
 * spliced in, so `A (B C)` and `(A B) C` give one flat sequence. */
static bool rx_is_nary(RegexKind kind) { return kind == RX_SEQ || kind == RX_ALT || kind == RX_AND; }

static void rx_add(Parser *p, AstRegex *r, AstRegex *kid)
{
    if (rx_is_nary(r->kind) && kid->kind == r->kind && !kid->label) {
        for (int i = 0; i < kid->nkids; i++)
            rx_add(p, r, kid->kids[i]);
        return;
    }
    *(AstRegex **)arena_push(p->arena, &r->kids, &r->nkids, &r->kids_cap, sizeof *r->kids) = kid;
    if (kid->depth + 1 > r->depth) {
        r->depth = kid->depth + 1;
        check_depth(p, r->depth, kid->loc);
    }
}

static AstRegex *rx_nary(Parser *p, RegexKind kind, AstRegex *l, AstRegex *r)
{
    AstRegex *n = l;
    if (l->kind != kind || l->label) {
        n = rx_new(p, kind, l->loc);
        rx_add(p, n, l);
    }
    rx_add(p, n, r);
    return n;
}

static AstRegex *rx_unary(Parser *p, RegexKind kind, AstRegex *kid, Loc loc)
{
    AstRegex *r = rx_new(p, kind, loc);
    rx_add(p, r, kid);
    return r;
}

static void extern_add_param(Parser *p, AstExtern *ext, TypeKind type, Loc loc)
{
    int nlocs = ext->nparams;
    *(TypeKind *)arena_push(p->arena, &ext->params, &ext->nparams, &ext->params_cap, sizeof type) = type;
    *(Loc *)arena_push(p->arena, &ext->param_locs, &nlocs, &ext->param_locs_cap, sizeof loc) = loc;
}

static void enum_add_value(Parser *p, AstAttr *attr, AstEnumValue v)
{
    *(AstEnumValue *)arena_push(p->arena, &attr->values, &attr->nvalues, &attr->values_cap, sizeof v) = v;
}

static void dup_clause(Parser *p, Loc loc, const char *what)
{
    diag_error(p->diag, loc, "duplicate '%s' clause", what);
}

/* One `NAME number` of a forecast clause, by name. */
static void forecast_param(Parser *p, AstForecast *f, const char *name, Loc loc, AstNumber num)
{
    for (int k = 0; k < FP_COUNT; k++) {
        if (strcmp(name, ast_forecast_param_name((ForecastParam)k)) != 0)
            continue;
        if (f->given[k])
            diag_error(p->diag, loc, "'%s' given twice", name);
        f->given[k] = true;
        f->param[k] = num;
        f->param_loc[k] = loc;
        return;
    }
    diag_error(p->diag, loc,
               "unknown forecast parameter '%s'; the parameters are confidence, horizon, max spread, "
               "order, pmin, alpha, gamma and r",
               name);
}

static AstDecl *decl_new(Parser *p, DeclKind kind)
{
    AstDecl *d = arena_push(p->arena, &p->ast->decls, &p->ast->ndecls, &p->ast->decls_cap,
                            sizeof *p->ast->decls);
    d->kind = kind;
    return d;
}

/* Clauses that belong to the other kind of declaration. */
static void pattern_clauses_only(Parser *p, const AstHeader *h)
{
    if (h->freq_given)
        diag_error(p->diag, h->freq_loc, "'frequency' applies to episodes, not patterns");
}

static void episode_clauses_only(Parser *p, const AstHeader *h)
{
    if (h->policy_given)
        diag_error(p->diag, h->policy_loc, "'policy' applies to patterns, not episodes");
}
}

%define api.prefix {srem}
%define api.pure full
%define api.token.prefix {TOK_}
%define parse.error custom
%define parse.lac full
%locations
%param {Parser *p}
%expect 0

%union {
    const char  *str;
    AstNumber    num;
    AstExpr     *expr;
    AstRegex    *rx;
    AstSchema   *schema;
    AstAttr     *attr;
    AstExtern   *ext;
    AstHeader    hdr;
    AstWindow    window;
    AstExplore   explore;
    AstForecast  forecast;
    AstAbsent    absent;
    AstPatternTail tail;
    AstAlertClause alert;
    AstEnumValue ev;
    TypeKind     type;
    int          ival;
}

%token <str> IDENT "identifier"
%token <num> NUMBER "number"
%token <str> STRING "string"
%token ANY "'_'"
%token SCHEMA "'schema'" PATTERN "'pattern'" EPISODE "'episode'" EXTERN "'extern'"
%token ON "'on'" PARTITION "'partition'" BY "'by'" WITHIN "'within'" EVENTS "'events'"
%token POLICY "'policy'" STRICT "'strict'" STNM "'stnm'" STAM "'stam'"
%token EXPLORE "'explore'" EXTENSIONS "'extensions'" VARIATIONS "'variations'"
%token CONFIDENCE "'confidence'" FREQUENCY "'frequency'"
%token NONOVERLAPPED "'nonoverlapped'" DISTINCT "'distinct'"
%token ALERT "'alert'" WHEN "'when'" COUNT "'count'"
%token FORECAST "'forecast'"
%token INT "'int'" FLOAT "'float'" FLOAT32 "'float32'" BOOL "'bool'" ENUM "'enum'" TIMESTAMP "'timestamp'"
%token STRTYPE "'string'"
%token TRUE "'true'" FALSE "'false'"
%token OR "'||'" AND "'&&'" NOT "'!'"
%token EQ "'=='" NE "'!='" LT "'<'" LE "'<='" GT "'>'" GE "'>='"

%left OR
%left AND
%precedence NOT
%nonassoc EQ NE LT LE GT GE
%left '+' '-'
%left '*' '/' '%'
%precedence UMINUS

%type <schema> attrs
%type <attr> attr_type enum_values
%type <ev> enum_value
%type <ext> extern_params param_list
%type <type> scalar_type
%type <hdr> header partition_keys
%type <window> window
%type <explore> explore_items
%type <forecast> forecast_clause forecast_items
%type <tail> pattern_tail
%type <absent> absent_clause
%type <alert> episode_tail
%type <rx> regex alt conj seq unary postfix primary base atom
%type <expr> expr primary_expr call args
%type <num> number

%%

file
    : %empty
    | file decl
    ;

decl
    : schema_decl
    | extern_decl
    | pattern_decl
    | episode_decl
    | error '}' opt_semi
    | error ';'
    | error     /* skips to the next declaration keyword */
    ;

opt_semi
    : %empty
    | ';'
    ;

/* ---- schema NAME { attr : type; ... } -------------------------------- */

schema_decl
    : SCHEMA IDENT '{' attrs '}' opt_semi
        {
            $4->name = $2;
            $4->loc = L(@2);
            decl_new(p, DECL_SCHEMA)->u.schema = $4;
        }
    ;

attrs
    : %empty
        { $$ = node(p, sizeof *$$); $$->ts_attr = -1; }
    | attrs IDENT ':' attr_type ';'
        {
            $$ = $1;
            AstAttr *a = arena_push(p->arena, &$$->attrs, &$$->nattrs, &$$->attrs_cap, sizeof *a);
            *a = *$4;
            a->name = $2;
            a->loc = L(@2);
            a->index = $$->nattrs - 1;
        }
    | attrs error ';'
        { $$ = $1; }
    ;

attr_type
    : INT       { $$ = node(p, sizeof *$$); $$->kind = ATTR_INT; }
    | FLOAT     { $$ = node(p, sizeof *$$); $$->kind = ATTR_FLOAT; }
    | FLOAT32   { $$ = node(p, sizeof *$$); $$->kind = ATTR_FLOAT; $$->single = true; }
    | BOOL      { $$ = node(p, sizeof *$$); $$->kind = ATTR_BOOL; }
    | STRTYPE   { $$ = node(p, sizeof *$$); $$->kind = ATTR_STRING; }
    | TIMESTAMP { $$ = node(p, sizeof *$$); $$->kind = ATTR_TIMESTAMP; }
    | TIMESTAMP '(' IDENT ')'
        {
            $$ = node(p, sizeof *$$);
            $$->kind = ATTR_TIMESTAMP;
            $$->unit_name = $3;
            $$->unit_loc = L(@3);
        }
    | ENUM '{' enum_values opt_comma '}'
        { $$ = $3; }
    ;

opt_comma
    : %empty
    | ','
    ;

enum_values
    : enum_value
        {
            $$ = node(p, sizeof *$$);
            $$->kind = ATTR_ENUM;
            enum_add_value(p, $$, $1);
        }
    | enum_values ',' enum_value
        { $$ = $1; enum_add_value(p, $$, $3); }
    ;

enum_value
    : IDENT     { $$ = (AstEnumValue){.name = $1, .quoted = false, .loc = L(@1)}; }
    | STRING    { $$ = (AstEnumValue){.name = $1, .quoted = true, .loc = L(@1)}; }
    ;

/* ---- extern TYPE NAME(TYPE [name], ...) [;] -------------------------- */

extern_decl
    : EXTERN scalar_type IDENT '(' extern_params ')' opt_semi
        {
            $5->ret = $2;
            $5->name = $3;
            $5->loc = L(@3);
            decl_new(p, DECL_EXTERN)->u.ext = $5;
        }
    ;

extern_params
    : %empty        { $$ = node(p, sizeof *$$); }
    | param_list    { $$ = $1; }
    ;

param_list
    : scalar_type opt_param_name
        { $$ = node(p, sizeof *$$); extern_add_param(p, $$, $1, L(@1)); }
    | param_list ',' scalar_type opt_param_name
        { $$ = $1; extern_add_param(p, $$, $3, L(@3)); }
    ;

opt_param_name
    : %empty
    | IDENT
    ;

scalar_type
    : INT       { $$ = TY_INT; }
    | FLOAT     { $$ = TY_FLOAT; }
    | BOOL      { $$ = TY_BOOL; }
    ;

/* ---- pattern NAME on SCHEMA clauses { REGEX } [explore ...] [;] ------- */

pattern_decl
    : PATTERN IDENT ON IDENT header '{' regex '}' absent_clause pattern_tail
        {
            AstPattern *pt = node(p, sizeof *pt);
            pt->name = $2;
            pt->loc = L(@2);
            pt->hdr = $5;
            pt->hdr.schema_name = $4;
            pt->hdr.schema_loc = L(@4);
            pt->body = $7;
            pt->absent = $9;
            pt->explore = $10.explore;
            pt->forecast = $10.forecast;
            pattern_clauses_only(p, &pt->hdr);
            decl_new(p, DECL_PATTERN)->u.pattern = pt;
        }
    ;

pattern_tail
    : opt_semi
        { memset(&$$, 0, sizeof $$); }
    | EXPLORE explore_items opt_semi
        { memset(&$$, 0, sizeof $$); $$.explore = $2; $$.explore.present = true; $$.explore.loc = L(@1); }
    | forecast_clause opt_semi
        { memset(&$$, 0, sizeof $$); $$.forecast = $1; }
    | EXPLORE explore_items forecast_clause opt_semi
        {
            memset(&$$, 0, sizeof $$);
            $$.explore = $2;
            $$.explore.present = true;
            $$.explore.loc = L(@1);
            $$.forecast = $3;
        }
    ;

/* forecast interval ... | forecast within K events ...: the kind's word
 * and the parameters' names are plain identifiers, so that none of them
 * becomes a reserved word (attributes named `order` or `r` stay legal). */
forecast_clause
    : FORECAST IDENT forecast_items
        {
            $$ = $3;
            $$.present = true;
            $$.loc = L(@1);
            $$.kind = FORECAST_INTERVAL;
            if (strcmp($2, "interval") != 0)
                diag_error(p->diag, L(@2), "expected 'interval' or 'within' after 'forecast', got '%s'", $2);
        }
    | FORECAST WITHIN number EVENTS forecast_items
        {
            $$ = $5;
            $$.present = true;
            $$.loc = L(@1);
            $$.kind = FORECAST_WITHIN;
            $$.k = $3;
        }
    ;

forecast_items
    : %empty
        { memset(&$$, 0, sizeof $$); }
    | forecast_items CONFIDENCE number
        { $$ = $1; forecast_param(p, &$$, "confidence", L(@2), $3); }
    | forecast_items IDENT number
        { $$ = $1; forecast_param(p, &$$, $2, L(@2), $3); }
    | forecast_items IDENT IDENT number
        {
            $$ = $1;
            if (strcmp($2, "max") == 0 && strcmp($3, "spread") == 0)
                forecast_param(p, &$$, "max spread", L(@2), $4);
            else
                diag_error(p->diag, L(@2), "unknown forecast parameter '%s %s'", $2, $3);
        }
    ;

explore_items
    : %empty
        { memset(&$$, 0, sizeof $$); }
    | explore_items EXTENSIONS
        {
            $$ = $1;
            if ($$.extensions)
                diag_error(p->diag, L(@2), "'extensions' given twice");
            $$.extensions = true;
        }
    | explore_items VARIATIONS
        {
            $$ = $1;
            if ($$.variations)
                diag_error(p->diag, L(@2), "'variations' given twice");
            $$.variations = true;
        }
    | explore_items CONFIDENCE number
        {
            $$ = $1;
            if ($$.has_confidence)
                diag_error(p->diag, L(@2), "'confidence' given twice");
            $$.has_confidence = true;
            $$.confidence = $3;
        }
    ;

/* ---- episode NAME on SCHEMA clauses { ELEMENTS } [alert when ...] [;] */

episode_decl
    : EPISODE IDENT ON IDENT header '{' regex '}' episode_tail
        {
            AstEpisode *ep = node(p, sizeof *ep);
            ep->name = $2;
            ep->loc = L(@2);
            ep->hdr = $5;
            ep->hdr.schema_name = $4;
            ep->hdr.schema_loc = L(@4);
            ep->body = $7;
            ep->has_alert = $9.present;
            ep->alert_loc = $9.loc;
            ep->alert_count = $9.count;
            episode_clauses_only(p, &ep->hdr);
            decl_new(p, DECL_EPISODE)->u.episode = ep;
        }
    ;

episode_tail
    : opt_semi
        { memset(&$$, 0, sizeof $$); }
    | ALERT WHEN COUNT GE number opt_semi
        { $$ = (AstAlertClause){.present = true, .loc = L(@1), .count = $5}; }
    ;

/* ---- clauses, in any order ------------------------------------------- */

/* `a, b, ...`: the names of a partition key, in the partition fields of an
 * otherwise empty header; the checker limits their count. */
partition_keys
    : IDENT
        {
            memset(&$$, 0, sizeof $$);
            $$.partition[0] = $1;
            $$.partition_loc[0] = L(@1);
            $$.npartition = 1;
        }
    | partition_keys ',' IDENT
        {
            $$ = $1;
            if ($$.npartition <= AST_PARTITION_MAX) {
                $$.partition[$$.npartition] = $3;
                $$.partition_loc[$$.npartition] = L(@3);
            }
            $$.npartition++;
        }
    ;

header
    : %empty
        { memset(&$$, 0, sizeof $$); }
    | header PARTITION BY partition_keys
        {
            $$ = $1;
            if ($$.partition[0])
                dup_clause(p, L(@2), "partition by");
            memcpy($$.partition, $4.partition, sizeof $$.partition);
            memcpy($$.partition_loc, $4.partition_loc, sizeof $$.partition_loc);
            $$.npartition = $4.npartition;
        }
    | header WITHIN window
        {
            $$ = $1;
            if ($$.window.kind != WIN_NONE)
                dup_clause(p, L(@2), "within");
            $$.window = $3;
            $$.window.loc = L(@2);
        }
    | header POLICY STRICT  { $$ = $1; if ($$.policy_given) dup_clause(p, L(@2), "policy"); $$.policy_given = true; $$.policy = POLICY_STRICT; $$.policy_loc = L(@2); }
    | header POLICY STNM    { $$ = $1; if ($$.policy_given) dup_clause(p, L(@2), "policy"); $$.policy_given = true; $$.policy = POLICY_STNM; $$.policy_loc = L(@2); }
    | header POLICY STAM    { $$ = $1; if ($$.policy_given) dup_clause(p, L(@2), "policy"); $$.policy_given = true; $$.policy = POLICY_STAM; $$.policy_loc = L(@2); }
    | header FREQUENCY NONOVERLAPPED { $$ = $1; if ($$.freq_given) dup_clause(p, L(@2), "frequency"); $$.freq_given = true; $$.freq = FREQ_NONOVERLAPPED; $$.freq_loc = L(@2); }
    | header FREQUENCY DISTINCT      { $$ = $1; if ($$.freq_given) dup_clause(p, L(@2), "frequency"); $$.freq_given = true; $$.freq = FREQ_DISTINCT; $$.freq_loc = L(@2); }
    ;

window
    : number EVENTS
        { memset(&$$, 0, sizeof $$); $$.kind = WIN_EVENTS; $$.amount = $1; }
    | number IDENT
        {
            memset(&$$, 0, sizeof $$);
            $$.kind = WIN_TIME;
            $$.amount = $1;
            $$.unit_name = $2;
            $$.unit_loc = L(@2);
        }
    ;

number
    : NUMBER        { $$ = $1; }
    | '-' NUMBER    { $$ = $2; $$.negative = true; $$.f = -$$.f; $$.loc = L(@1); }
    ;

/* ---- regular expressions, loosest first: | & concat ~ postfix -------- */

regex
    : alt
    ;

alt
    : conj
    | alt '|' conj      { $$ = rx_nary(p, RX_ALT, $1, $3); }
    ;

conj
    : seq
    | conj '&' seq      { $$ = rx_nary(p, RX_AND, $1, $3); }
    ;

seq
    : unary
    | seq unary         { $$ = rx_nary(p, RX_SEQ, $1, $2); }
    ;

unary
    : postfix
    | '~' unary         { $$ = rx_unary(p, RX_NOT, $2, L(@1)); }
    ;

postfix
    : primary
    | postfix '*'       { $$ = rx_unary(p, RX_STAR, $1, $1->loc); }
    | postfix '+'       { $$ = rx_unary(p, RX_PLUS, $1, $1->loc); }
    | postfix '?'       { $$ = rx_unary(p, RX_OPT, $1, $1->loc); }
    | postfix '{' number '}'
        {
            $$ = rx_unary(p, RX_REPEAT, $1, $1->loc);
            $$->rep_min = $$->rep_max = $3;
            $$->rep_has_max = true;
        }
    | postfix '{' number ',' '}'
        {
            $$ = rx_unary(p, RX_REPEAT, $1, $1->loc);
            $$->rep_min = $3;
        }
    | postfix '{' number ',' number '}'
        {
            $$ = rx_unary(p, RX_REPEAT, $1, $1->loc);
            $$->rep_min = $3;
            $$->rep_max = $5;
            $$->rep_has_max = true;
        }
    ;

primary
    : base
    | IDENT ':' base
        {
            $$ = $3;
            if ($$->label)
                diag_error(p->diag, L(@1), "an event can be stored in only one register here ('%s' and '%s')",
                           $1, $$->label);
            $$->label = $1;
            $$->label_loc = L(@1);
        }
    ;

base
    : atom
    | '(' regex ')'     { $$ = $2; }
    | '(' error ')'     { $$ = rx_atom(p, ATOM_ANY, L(@1)); }
    ;

atom
    : '[' expr ']'      { $$ = rx_atom(p, ATOM_COND, L(@1)); $$->cond = $2; $$->depth = $2->depth; }
    | '[' error ']'     { $$ = rx_atom(p, ATOM_ANY, L(@1)); }
    | IDENT             { $$ = rx_atom(p, ATOM_VALUE, L(@1)); $$->value = $1; }
    | STRING            { $$ = rx_atom(p, ATOM_VALUE, L(@1)); $$->value = $1; $$->value_quoted = true; }
    | ANY               { $$ = rx_atom(p, ATOM_ANY, L(@1)); }
    ;

/* `absent [COND]` (docs/language.md 3.7): 'absent' is a word, not a
 * keyword, so that names spelt so keep working. */
absent_clause
    : %empty                { $$ = (AstAbsent){0}; }
    | IDENT '[' expr ']'
        {
            $$ = (AstAbsent){true, L(@1), $3};
            if (strcmp($1, "absent") != 0)
                diag_syntax(p->diag, L(@1), "expected 'absent', 'explore' or 'forecast' after '}', got '%s'", $1);
        }
    ;

/* ---- conditions and terms: one grammar, typed by the checker -------- */

expr
    : expr OR expr      { $$ = expr_bin(p, EX_OR, OP_EQ, $1, $3, L(@2)); }
    | expr AND expr     { $$ = expr_bin(p, EX_AND, OP_EQ, $1, $3, L(@2)); }
    | NOT expr          { $$ = expr_bin(p, EX_NOT, OP_EQ, $2, NULL, L(@1)); }
    | expr EQ expr      { $$ = expr_bin(p, EX_CMP, OP_EQ, $1, $3, L(@2)); }
    | expr NE expr      { $$ = expr_bin(p, EX_CMP, OP_NE, $1, $3, L(@2)); }
    | expr LT expr      { $$ = expr_bin(p, EX_CMP, OP_LT, $1, $3, L(@2)); }
    | expr LE expr      { $$ = expr_bin(p, EX_CMP, OP_LE, $1, $3, L(@2)); }
    | expr GT expr      { $$ = expr_bin(p, EX_CMP, OP_GT, $1, $3, L(@2)); }
    | expr GE expr      { $$ = expr_bin(p, EX_CMP, OP_GE, $1, $3, L(@2)); }
    | expr '+' expr     { $$ = expr_bin(p, EX_ARITH, OP_ADD, $1, $3, L(@2)); }
    | expr '-' expr     { $$ = expr_bin(p, EX_ARITH, OP_SUB, $1, $3, L(@2)); }
    | expr '*' expr     { $$ = expr_bin(p, EX_ARITH, OP_MUL, $1, $3, L(@2)); }
    | expr '/' expr     { $$ = expr_bin(p, EX_ARITH, OP_DIV, $1, $3, L(@2)); }
    | expr '%' expr     { $$ = expr_bin(p, EX_ARITH, OP_MOD, $1, $3, L(@2)); }
    | '-' expr %prec UMINUS { $$ = expr_neg(p, $2, L(@1)); }
    | primary_expr
    ;

primary_expr
    : TRUE              { $$ = expr_new(p, EX_TRUE, L(@1)); }
    | FALSE             { $$ = expr_new(p, EX_FALSE, L(@1)); }
    | NUMBER            { $$ = expr_new(p, EX_NUMBER, L(@1)); $$->num = $1; }
    | STRING            { $$ = expr_new(p, EX_STRING, L(@1)); $$->str = $1; }
    | IDENT             { $$ = expr_new(p, EX_NAME, L(@1)); $$->str = $1; }
    | IDENT '.' IDENT
        {
            $$ = expr_new(p, EX_REGATTR, L(@1));
            $$->str = $1;
            $$->field = $3;
            $$->field_loc = L(@3);
        }
    | call
    | '(' expr ')'      { $$ = $2; }
    ;

call
    : IDENT '(' ')'         { $$ = expr_new(p, EX_CALL, L(@1)); $$->str = $1; }
    | IDENT '(' args ')'    { $$ = $3; $$->loc = L(@1); $$->str = $1; }
    ;

args
    : expr
        {
            $$ = expr_new(p, EX_CALL, L(@1));
            *(AstExpr **)arena_push(p->arena, &$$->args, &$$->nargs, &$$->args_cap, sizeof(AstExpr *)) = $1;
            $$->depth = $1->depth + 1;
        }
    | args ',' expr
        {
            $$ = $1;
            *(AstExpr **)arena_push(p->arena, &$$->args, &$$->nargs, &$$->args_cap, sizeof(AstExpr *)) = $3;
            $$->depth = max_depth($$->depth, $3->depth + 1);
            check_depth(p, $$->depth, L(@3));
        }
    ;

%%

int sremlex(SREMSTYPE *val, SREMLTYPE *loc, Parser *p)
{
    return lexer_next(&p->lx, val, loc);
}

/* Quotes at most 24 bytes of a token's text into buf. */
static const char *quote_token(char *buf, size_t size, const char *tok, const char *end)
{
    int n = (int)(end - tok);
    if (n > 24)
        return snprintf(buf, size, "'%.24s...'", tok), buf;
    snprintf(buf, size, "'%.*s'", n, tok);
    return buf;
}

static bool is_comparison(yysymbol_kind_t sym)
{
    return sym == YYSYMBOL_EQ || sym == YYSYMBOL_NE || sym == YYSYMBOL_LT || sym == YYSYMBOL_LE ||
           sym == YYSYMBOL_GT || sym == YYSYMBOL_GE;
}

/* Keywords are the tokens whose display name is a quoted word. */
static bool is_keyword(yysymbol_kind_t sym)
{
    const char *name = yysymbol_name(sym);
    return name[0] == '\'' && ((name[1] >= 'a' && name[1] <= 'z') || name[1] == '_') && name[2] != '\'';
}

/* A name where a type belongs ('integer', 'string'): the syntax error
 * names the nearest of the types expected there (n of them), else lists them. */
static void unknown_type(Parser *p, const char *name, Loc loc, const char *const *types, int n)
{
    /* names other languages use, then the nearest by spelling */
    static const char *const alias[][2] = {
        {"integer", "int"}, {"long", "int"},     {"int64", "int"},    {"double", "float"},
        {"real", "float"},  {"number", "float"}, {"single", "float32"}, {"boolean", "bool"}, {"str", "string"},
    };
    const char *best = NULL;
    for (size_t i = 0; i < sizeof alias / sizeof alias[0]; i++)
        for (int t = 0; t < n && !best; t++)
            if (strcmp(name, alias[i][0]) == 0 && strcmp(types[t], alias[i][1]) == 0)
                best = types[t];
    if (!best)
        best = diag_closest(name, types, n);
    if (best)
        diag_syntax(p->diag, loc, "unknown type '%s'; did you mean '%s'?", name,
                    strcmp(best, "enum") == 0 ? "enum { ... }" : best);
    else {
        char list[128] = "";
        for (int t = 0; t < n; t++) {
            size_t used = strlen(list);
            snprintf(list + used, sizeof list - used, "%s'%s'", t == 0 ? "" : t == n - 1 ? " or " : ", ",
                     types[t]);
        }
        diag_syntax(p->diag, loc, "unknown type '%s'; a type is %s", name, list);
    }
}

/* Messages name what was expected and what came instead:
 *   expected ';' after 'int'        the ';' is missing at the end of a line
 *   expected X or Y before 'Z'      otherwise, at the unexpected token
 *   unexpected 'Z'                  when too many tokens would fit
 * A declaration keyword counts as the end of the declaration before it. */
static int yyreport_syntax_error(const yypcontext_t *ctx, Parser *p)
{
    const Lexer *lx = &p->lx;
    if (lx->stopped || lx->unterminated)
        return 0; /* the lexer already reported what went wrong here */
    enum { MAX_EXPECTED = 7, MAX_LISTED = 6 };   /* the seven type keywords; else up to 6 */
    yysymbol_kind_t expected[MAX_EXPECTED];
    int n = yypcontext_expected_tokens(ctx, expected, MAX_EXPECTED);
    if (n > MAX_LISTED && !(expected[0] >= YYSYMBOL_INT && expected[n - 1] <= YYSYMBOL_STRTYPE))
        n = 0;   /* too many to list, and not only types */
    yysymbol_kind_t la = yypcontext_token(ctx);
    bool real_eof = la == YYSYMBOL_YYEOF && !lx->pending;
    bool wants_ident = false, wants_semi = false;
    char type_buf[MAX_EXPECTED][16];
    const char *types[MAX_EXPECTED];
    int ntypes = 0; /* the type keywords expected: a type belongs here */
    char what[64], list[256] = "";
    if (real_eof)
        snprintf(what, sizeof what, "end of file");
    else
        quote_token(what, sizeof what, lx->tok, lx->cur);
    for (int i = 0; i < n; i++) {
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ",
                 yysymbol_name(expected[i]));
        wants_ident |= expected[i] == YYSYMBOL_IDENT;
        if (expected[i] >= YYSYMBOL_INT && expected[i] <= YYSYMBOL_STRTYPE && ntypes < MAX_EXPECTED) {
            const char *kw = yysymbol_name(expected[i]); /* "'int'" */
            snprintf(type_buf[ntypes], sizeof type_buf[ntypes], "%.*s", (int)strlen(kw) - 2, kw + 1);
            types[ntypes] = type_buf[ntypes];
            ntypes++;
        }
        wants_semi |= strcmp(yysymbol_name(expected[i]), "';'") == 0;
    }
    bool wants_type = ntypes > 0;
    Loc at = real_eof ? lx->prev_loc : lx->tok_loc;
    char prev[64] = "";
    Loc after = at;
    if (lx->prev_tok) {
        quote_token(prev, sizeof prev, lx->prev_tok, lx->prev_end);
        after = (Loc){lx->prev_loc.line, lx->prev_loc.col + (int)(lx->prev_end - lx->prev_tok)};
    }
    if (la == YYSYMBOL_IDENT && wants_type && !real_eof) {
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(lx->cur - lx->tok), lx->tok);
        unknown_type(p, name, at, types, ntypes);
    } else if (is_comparison(la) && n == 0) {
        diag_syntax(p->diag, at, "comparisons do not chain: write 'a < b && b < c'");
    } else if (wants_ident && n <= 2 && is_keyword(la) && !real_eof) {
        diag_syntax(p->diag, at, "expected %s before %s, which is a reserved word", list, what);
    } else if (n > 0 && prev[0] && (real_eof || (wants_semi && lx->prev_loc.line < at.line))) {
        diag_syntax(p->diag, after, "expected %s after %s", list, prev);
    } else if (n > 0) {
        diag_syntax(p->diag, at, "expected %s before %s", list, what);
    } else if (real_eof && prev[0]) {
        diag_syntax(p->diag, after, "unexpected end of file after %s", prev);
    } else {
        diag_syntax(p->diag, at, "unexpected %s", what);
    }
    if (lx->mismatch && !real_eof && lx->tok && (*lx->tok == ')' || *lx->tok == ']' || *lx->tok == '}'))
        diag_note(p->diag, lx->mismatch_loc, "'%c' opened here is not closed", lx->mismatch_kind);
    return 0;
}

void sremerror(SREMLTYPE *loc, Parser *p, const char *msg)
{
    if (p->lx.stopped)
        return; /* the lexer already said why it gave up */
    if (strcmp(msg, "memory exhausted") == 0)
        msg = "pattern file nested too deeply";
    diag_syntax(p->diag, L(*loc), "%s", msg);
}

/* After a syntax error in a declaration: what it added is broken (the
 * checker skips it); if it added nothing, its name is kept as lost. */
static void mark_broken(Parser *p, int first)
{
    for (int i = first; i < p->ast->ndecls; i++)
        p->ast->decls[i].broken = true;
    const Lexer *lx = &p->lx;
    if (first < p->ast->ndecls || !lx->decl_name)
        return;
    DeclKind kind;
    switch (lx->decl_keyword) {
    case TOK_SCHEMA:  kind = DECL_SCHEMA; break;
    case TOK_EXTERN:  kind = DECL_EXTERN; break;
    case TOK_PATTERN: kind = DECL_PATTERN; break;
    case TOK_EPISODE: kind = DECL_EPISODE; break;
    default:          return;
    }
    AstLost *l = arena_push(p->arena, &p->ast->lost, &p->ast->nlost, &p->ast->lost_cap, sizeof *l);
    *l = (AstLost){kind, lx->decl_name, lx->decl_name_loc};
}

Ast *parse_source(const char *path, const char *src, size_t len, Arena *arena, Diag *diag)
{
    Parser p;
    memset(&p, 0, sizeof p);
    p.arena = arena;
    p.diag = diag;
    p.ast = arena_alloc(arena, sizeof *p.ast);
    p.ast->path = arena_strdup(arena, path);
    lexer_init(&p.lx, src, len, arena, diag);
    /* One parse per declaration (see Lexer.decl_tokens); each ends at the
     * next declaration keyword or at the end of the file. */
    do {
        int nsyntax = diag->nsyntax, ndecls = p.ast->ndecls;
        lexer_next_declaration(&p.lx);
        sremparse(&p);
        if (diag->nsyntax > nsyntax)
            mark_broken(&p, ndecls);
    } while (!p.lx.at_eof);
    return p.ast;
}
