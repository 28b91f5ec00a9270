/* lexer.re: re2c scanner turning .srem source text into bison tokens
 * with line:column positions. */
#include "lexer.h"

#include <stdlib.h>
#include <string.h>

#include "parser.h"

void lexer_init(Lexer *lx, const char *src, size_t len, Arena *arena, Diag *diag)
{
    memset(lx, 0, sizeof *lx);
    /* re2c runs on a sentinel: keep a private NUL-terminated copy. */
    char *copy = arena_strndup(arena, src, len);
    lx->src = copy;
    lx->lim = copy + len;
    lx->cur = copy;
    lx->line_start = copy;
    lx->line = 1;
    lx->arena = arena;
    lx->diag = diag;
}

void lexer_next_declaration(Lexer *lx)
{
    lx->nesting = 0;
    lx->decl_tokens = 0;
    lx->decl_keyword = 0;
    lx->decl_name = NULL;
    lx->stopped = false;
    lx->unterminated = false;
}

static Loc here(const Lexer *lx)
{
    return (Loc){lx->line, (int)(lx->tok - lx->line_start) + 1};
}

static const struct { const char *word; int token; } keywords[] = {
    {"alert", TOK_ALERT},           {"and", TOK_AND},
    {"bool", TOK_BOOL},             {"by", TOK_BY},
    {"confidence", TOK_CONFIDENCE}, {"count", TOK_COUNT},
    {"distinct", TOK_DISTINCT},     {"enum", TOK_ENUM},
    {"episode", TOK_EPISODE},       {"events", TOK_EVENTS},
    {"explore", TOK_EXPLORE},       {"extensions", TOK_EXTENSIONS},
    {"extern", TOK_EXTERN},         {"false", TOK_FALSE},
    {"float", TOK_FLOAT},           {"float32", TOK_FLOAT32},
    {"forecast", TOK_FORECAST},     {"frequency", TOK_FREQUENCY},
    {"int", TOK_INT},               {"nonoverlapped", TOK_NONOVERLAPPED},
    {"not", TOK_NOT},               {"on", TOK_ON},
    {"or", TOK_OR},                 {"partition", TOK_PARTITION},
    {"pattern", TOK_PATTERN},       {"policy", TOK_POLICY},
    {"schema", TOK_SCHEMA},         {"stam", TOK_STAM},
    {"stnm", TOK_STNM},             {"strict", TOK_STRICT},
    {"string", TOK_STRTYPE},
    {"timestamp", TOK_TIMESTAMP},   {"true", TOK_TRUE},
    {"variations", TOK_VARIATIONS}, {"when", TOK_WHEN},
    {"within", TOK_WITHIN},
};

static int keyword_or_ident(Lexer *lx, SREMSTYPE *val)
{
    size_t n = (size_t)(lx->cur - lx->tok);
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
        if (strlen(keywords[i].word) == n && memcmp(keywords[i].word, lx->tok, n) == 0)
            return keywords[i].token;
    val->str = arena_strndup(lx->arena, lx->tok, n);
    return TOK_IDENT;
}

static int number(Lexer *lx, SREMSTYPE *val, bool is_float);

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* "500ms", "1.5s": a number glued to a unit. Hand back the longest number
 * and leave the letters to be scanned as an identifier. */
static int glued_number(Lexer *lx, SREMSTYPE *val)
{
    const char *p = lx->tok;
    bool is_float = false;
    while (is_digit(*p))
        p++;
    if (p[0] == '.' && is_digit(p[1])) {
        is_float = true;
        for (p++; is_digit(*p); p++) {}
    }
    if (p[0] == 'e' || p[0] == 'E') {
        const char *q = p + 1;
        if (*q == '+' || *q == '-')
            q++;
        if (is_digit(*q)) {
            is_float = true;
            for (p = q; is_digit(*p); p++) {}
        }
    }
    lx->cur = p;
    return number(lx, val, is_float);
}

static int number(Lexer *lx, SREMSTYPE *val, bool is_float)
{
    AstNumber *num = &val->num;
    memset(num, 0, sizeof *num);
    num->loc = here(lx);
    num->is_float = is_float;
    num->text = arena_strndup(lx->arena, lx->tok, (size_t)(lx->cur - lx->tok));
    num->f = strtod(num->text, NULL);
    if (!is_float)
        for (const char *p = num->text; *p; p++) {
            uint64_t digit = (uint64_t)(*p - '0');
            if (num->u > (UINT64_MAX - digit) / 10)
                num->overflow = true;
            num->u = num->u * 10 + digit;
        }
    return TOK_NUMBER;
}

/* Unescapes the body of a string literal between tok+1 and cur-1. */
static int string(Lexer *lx, SREMSTYPE *val)
{
    const char *p = lx->tok + 1, *end = lx->cur - 1;
    char *out = arena_alloc(lx->arena, (size_t)(end - p) + 1), *o = out;
    for (; p < end; p++) {
        if (*p != '\\') {
            *o++ = *p;
            continue;
        }
        switch (*++p) {
        case 'n': *o++ = '\n'; break;
        case 't': *o++ = '\t'; break;
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        default:
            diag_syntax(lx->diag, (Loc){lx->line, (int)(p - 1 - lx->line_start) + 1},
                        "unknown escape sequence '\\%c' in string", *p);
            *o++ = *p;
        }
    }
    *o = '\0';
    val->str = out;
    return TOK_STRING;
}

static int open_bracket(Lexer *lx, int token)
{
    if (lx->nesting < LEXER_MAX_NESTING) {
        lx->open_kind[lx->nesting] = (char)token;
        lx->open_loc[lx->nesting] = here(lx);
    }
    if (++lx->nesting > LEXER_MAX_NESTING) {
        if (!lx->stopped)
            diag_syntax(lx->diag, here(lx), "brackets nested more than %d deep", LEXER_MAX_NESTING);
        lx->stopped = true;
    }
    return token;
}

/* Remembers a closing bracket that does not match the innermost open
 * one, so the parser can point at the bracket left open. */
static int close_bracket(Lexer *lx, int token)
{
    static const char pair[] = {[')'] = '(', [']'] = '[', ['}'] = '{'};
    lx->mismatch = false;
    if (lx->nesting > 0 && lx->nesting <= LEXER_MAX_NESTING) {
        char open = lx->open_kind[lx->nesting - 1];
        if (open != pair[token]) {
            lx->mismatch = true;
            lx->mismatch_kind = open;
            lx->mismatch_loc = lx->open_loc[lx->nesting - 1];
        }
    }
    if (lx->nesting > 0)
        lx->nesting--;
    return token;
}

static void newline(Lexer *lx)
{
    lx->line++;
    lx->line_start = lx->cur;
}

static int scan(Lexer *lx, SREMSTYPE *val, SREMLTYPE *loc);

static bool starts_declaration(int token)
{
    return token == TOK_SCHEMA || token == TOK_PATTERN || token == TOK_EPISODE || token == TOK_EXTERN;
}

/* Counts the tokens of the declaration and keeps its keyword and name:
 * `schema NAME`, `pattern NAME`, `episode NAME`, `extern TYPE NAME`. */
static void note_declaration(Lexer *lx, int token, const SREMSTYPE *val)
{
    int n = ++lx->decl_tokens;
    if (n == 1)
        lx->decl_keyword = token;
    else if (token == TOK_IDENT && !lx->decl_name && n == (lx->decl_keyword == TOK_EXTERN ? 3 : 2)) {
        lx->decl_name = val->str;
        lx->decl_name_loc = lx->tok_loc;
    }
}

/* Hands out the tokens of one declaration, then end of file: the parse
 * of each declaration is independent (see Lexer.decl_tokens). */
int lexer_next(Lexer *lx, SREMSTYPE *val, SREMLTYPE *loc)
{
    if (diag_stopped(lx->diag)) {
        lx->at_eof = true; /* past the error limit: the file ends here */
        lx->pending = 0;
        return 0;
    }
    if (lx->pending) {
        int token = lx->pending;
        lx->pending = 0;
        *val = *lx->pending_val;
        loc->first_line = loc->last_line = lx->pending_loc.line;
        loc->first_column = loc->last_column = lx->pending_loc.col;
        lx->tok = lx->pending_tok;
        lx->cur = lx->pending_end;
        lx->tok_loc = lx->pending_loc;
        lx->decl_tokens = 1;
        lx->decl_keyword = token;
        return token;
    }
    for (;;) {
        int token = scan(lx, val, loc);
        if (token == 0) {
            lx->at_eof = true;
            return 0;
        }
        if (starts_declaration(token) && (lx->decl_tokens > 0 || lx->stopped)) {
            lx->pending = token;
            if (!lx->pending_val)
                lx->pending_val = arena_alloc(lx->arena, sizeof *lx->pending_val);
            *lx->pending_val = *val;
            lx->pending_loc = lx->tok_loc;
            lx->pending_tok = lx->tok;
            lx->pending_end = lx->cur;
            return 0;
        }
        if (lx->stopped)
            continue; /* skipping the rest of a declaration given up on */
        note_declaration(lx, token, val);
        return token;
    }
}

static int scan(Lexer *lx, SREMSTYPE *val, SREMLTYPE *loc)
{
    int token;
    if (lx->tok && lx->tok < lx->cur) {
        lx->prev_tok = lx->tok;
        lx->prev_end = lx->cur;
        lx->prev_loc = lx->tok_loc;
    }
    for (;;) {
        lx->tok = lx->cur;
        Loc at = here(lx);
        lx->tok_loc = at;
        loc->first_line = loc->last_line = at.line;
        loc->first_column = loc->last_column = at.col;
/*!re2c
        re2c:api:style = free-form;
        re2c:define:YYCTYPE = "unsigned char";
        re2c:define:YYCURSOR = "lx->cur";
        re2c:define:YYMARKER = "lx->mar";
        re2c:define:YYPEEK = "(unsigned char)*lx->cur";
        re2c:define:YYSKIP = "++lx->cur;";
        re2c:define:YYBACKUP = "lx->mar = lx->cur;";
        re2c:define:YYRESTORE = "lx->cur = lx->mar;";
        re2c:yyfill:enable = 0;

        digits = [0-9]+;
        exp    = [eE] [+-]? digits;
        ident  = [A-Za-z_][A-Za-z0-9_]*;
        strch  = [^"\\\n\x00] | "\\" [^\n\x00];

        "\x00" {
            if (lx->cur - 1 == lx->lim) {
                lx->cur--;
                return 0;
            }
            diag_syntax(lx->diag, at, "stray NUL byte in source");
            continue;
        }
        "\r"? "\n"            { newline(lx); continue; }
        [ \t\f\v\r]+          { continue; }
        ("#" | "//") [^\n\x00]* { continue; }

        digits "." digits exp? | digits exp { return number(lx, val, true); }
        digits                 { return number(lx, val, false); }
        (digits ("." digits)? exp?) ident { return glued_number(lx, val); }
        ["] strch* ["]         { return string(lx, val); }
        ["] strch* {
            diag_syntax(lx->diag, at, "missing terminating '\"' character");
            lx->unterminated = true;
            val->str = arena_strndup(lx->arena, lx->tok + 1, (size_t)(lx->cur - lx->tok - 1));
            return TOK_STRING;
        }

        "_"                    { return TOK_ANY; }
        ident                  { return keyword_or_ident(lx, val); }

        "=="                   { return TOK_EQ; }
        "!="                   { return TOK_NE; }
        "<="                   { return TOK_LE; }
        ">="                   { return TOK_GE; }
        "<"                    { return TOK_LT; }
        ">"                    { return TOK_GT; }
        "&&"                   { return TOK_AND; }
        "||"                   { return TOK_OR; }
        "!"                    { return TOK_NOT; }
        "=" {
            diag_syntax(lx->diag, at, "'=' is not an operator; did you mean '=='?");
            return TOK_EQ;
        }
        "(" { token = open_bracket(lx, '('); return token; }
        "[" { token = open_bracket(lx, '['); return token; }
        "{" { token = open_bracket(lx, '{'); return token; }
        ")" { return close_bracket(lx, ')'); }
        "]" { return close_bracket(lx, ']'); }
        "}" { return close_bracket(lx, '}'); }
        [;:,.|&~*+?\-/%]      { return (unsigned char)*lx->tok; }

        [\x80-\xff]+ {
            diag_syntax(lx->diag, at, "non-ASCII characters outside a string or comment");
            continue;
        }
        * {
            unsigned char c = (unsigned char)*lx->tok;
            if (c >= 0x20 && c < 0x7f)
                diag_syntax(lx->diag, at, "stray '%c' in pattern file", c);
            else
                diag_syntax(lx->diag, at, "stray byte 0x%02x in pattern file", c);
            continue;
        }
*/
    }
}
