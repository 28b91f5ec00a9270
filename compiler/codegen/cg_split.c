/* cg_split.c: the generated matcher as one file that `sremc build`
 * compiles as several translation units side by side (cc -DSREMC_PART=k),
 * so that a file of many patterns takes the C compiler's time over the
 * cores instead of one (docs/codegen.md, "Builds in parts").
 *
 * It reads the generated C as a sequence of top-level items (preprocessor
 * lines, comments, declarations) and cuts it at its section banners into
 * regions, each given to one part (the heaviest first, to the lightest
 * part). A function or table definition is compiled only in its region's
 * part; the other parts see a declaration of it if they refer to it (then
 * it loses `static`), or nothing. A static inline function is in the
 * parts that refer to it, a static prototype where its function is;
 * everything else (types, macros, external declarations) in every part.
 * Compiled without SREMC_PART the file is the whole matcher, as before.
 * The generated code has no global state, so nothing that was one object
 * becomes two. */
#define _POSIX_C_SOURCE 200809L   /* open_memstream */
#include "cg_impl.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* A top-level item of the generated text. */
typedef enum ItemKind {
    IT_SHARED,    /* preprocessor line, comment, type, extern declaration */
    IT_DEF,       /* function or object definition: compiled in one part */
    IT_INLINE,    /* static inline function: in every part that refers to it */
    IT_PROTO      /* prototype of a static function this file defines */
} ItemKind;

typedef struct Item {
    ItemKind kind;
    size_t   start, end;   /* [start, end) of the text, without the line's end */
    size_t   name, nlen;   /* the declared name, but for IT_SHARED */
    size_t   decl_end;     /* IT_DEF: where its declaration ends (a body's '{', an initializer's '=') */
    bool     is_static, is_function, is_banner;
    int      part, sym;    /* the owning part (IT_DEF); the symbol, or -1 */
    unsigned in;           /* bit k: the item is in part k */
    int      ref0, nrefs;  /* the symbols it names: Split.refs[ref0 .. ref0+nrefs) */
} Item;

typedef struct Sym {
    size_t   name, nlen;
    int      def;          /* its IT_DEF or IT_INLINE item, or -1 */
    unsigned refs;         /* bit k: part k names it (in code, not comments or strings) */
} Sym;

typedef struct Split {
    const char *t;
    size_t      len;
    Item       *items;
    int         nitems, cap;
    Sym        *syms;
    int         nsyms, scap;
    int        *hash;      /* open addressing over syms, size hcap (a power of 2) */
    size_t      hcap;
    int        *refs;      /* the items' named symbols */
    int         nrefs, rcap;
    size_t      inl[8], inl_len[8];   /* macros defined as "static inline ..." (explore's XINLINE) or */
    bool        inl_static[8];        /* "inline ..." (the runs' RS_INLINE, after a static) */
    int         ninl;
} Split;

static void *grow(void *p, int *cap, size_t elem)
{
    *cap = *cap ? *cap * 2 : 256;
    p = realloc(p, (size_t)*cap * elem);
    if (!p)
        abort();
    return p;
}

static bool ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* ---- lexing: skip what cannot hold a brace or a name ---------------------- */

/* The end of the string or character literal that starts at i. */
static size_t skip_quoted(const char *t, size_t len, size_t i)
{
    char q = t[i++];
    while (i < len && t[i] != q) {
        if (t[i] == '\\' && i + 1 < len)
            i++;
        i++;
    }
    return i < len ? i + 1 : len;
}

/* The end of the comment at i ("/ *" or "//"), or i if none starts there. */
static size_t skip_comment(const char *t, size_t len, size_t i)
{
    if (i + 1 >= len || t[i] != '/')
        return i;
    if (t[i + 1] == '/') {
        while (i < len && t[i] != '\n')
            i++;
        return i;
    }
    if (t[i + 1] != '*')
        return i;
    const char *e = strstr(t + i + 2, "*/");
    return e ? (size_t)(e - t) + 2 : len;
}

/* The end of the preprocessor line at i (continuations included, and a
 * comment on it that runs on over the next lines: the directive goes on
 * after that comment, as in translation phase 3). */
static size_t skip_pp_line(const char *t, size_t len, size_t i)
{
    while (i < len && t[i] != '\n') {
        size_t j = skip_comment(t, len, i);
        if (j != i) {
            i = j;
            continue;
        }
        if (t[i] == '"' || t[i] == '\'') {
            i = skip_quoted(t, len, i);
            continue;
        }
        if (t[i] == '\\' && i + 1 < len && t[i + 1] == '\n')
            i++;
        i++;
    }
    return i;
}

static bool at_line_start(const char *t, size_t i)
{
    while (i > 0 && (t[i - 1] == ' ' || t[i - 1] == '\t'))
        i--;
    return i == 0 || t[i - 1] == '\n';
}

static bool is_keyword(const char *s, size_t n)
{
    static const char *const kw[] = {"static", "inline", "const", "volatile", "extern", "int", "char",
                                     "short", "long", "unsigned", "signed", "void", "float", "double",
                                     "_Bool", "struct", "union", "enum", "restrict", "typedef", NULL};
    for (int i = 0; kw[i]; i++)
        if (strlen(kw[i]) == n && memcmp(kw[i], s, n) == 0)
            return true;
    return false;
}

/* Whether the '(' at k opens a declarator "(*", as after the type in
 * "int32_t (*const name[3])(void)": the word before it is a type. */
static bool pointer_declarator(const char *t, size_t k, size_t end)
{
    if (t[k] != '(')
        return false;
    k++;
    while (k < end && isspace((unsigned char)t[k]))
        k++;
    return k < end && t[k] == '*';
}

/* 0: the word at [at, at+n) is no inline macro; 1: "inline ..."; 2:
 * "static inline ...". */
static int is_inline_macro(const Split *s, size_t at, size_t n)
{
    for (int i = 0; i < s->ninl; i++)
        if (s->inl_len[i] == n && memcmp(s->t + s->inl[i], s->t + at, n) == 0)
            return s->inl_static[i] ? 2 : 1;
    return 0;
}

/* Notes the macro the preprocessor line [i, end) defines if its text
 * starts "static inline" or "inline" (a macro defined both ways under
 * #if and #else: its first definition's). */
static void note_inline_macro(Split *s, size_t i, size_t end)
{
    const char *t = s->t;
    i++;
    while (i < end && (t[i] == ' ' || t[i] == '\t'))
        i++;
    if (end - i < 7 || strncmp(t + i, "define", 6) != 0 || !isspace((unsigned char)t[i + 6]))
        return;
    i += 7;
    while (i < end && isspace((unsigned char)t[i]))
        i++;
    size_t w = i;
    while (i < end && ident_char(t[i]))
        i++;
    size_t n = i - w;
    while (i < end && isspace((unsigned char)t[i]))
        i++;
    bool st = end - i >= 13 && strncmp(t + i, "static inline", 13) == 0;
    bool in = end - i >= 6 && strncmp(t + i, "inline", 6) == 0 && (end - i == 6 || !ident_char(t[i + 6]));
    if (n && s->ninl < 8 && (st || in) && !is_inline_macro(s, w, n)) {
        s->inl[s->ninl] = w;
        s->inl_static[s->ninl] = st;
        s->inl_len[s->ninl++] = n;
    }
}

static bool word_is(const Split *s, size_t at, size_t n, const char *w)
{
    return strlen(w) == n && memcmp(s->t + at, w, n) == 0;
}

/* ---- items ---------------------------------------------------------------- */

static Item *add_item(Split *s, size_t start, size_t end)
{
    if (s->nitems == s->cap)
        s->items = grow(s->items, &s->cap, sizeof *s->items);
    Item *it = &s->items[s->nitems++];
    memset(it, 0, sizeof *it);
    it->start = start;
    it->end = end;
    it->sym = -1;
    return it;
}

/* What the declaration [it->start, it->end) is: its first words, its name
 * (the first word outside braces that is not a keyword and that a '(',
 * '[', '=', ';', ')' or ',' follows), and whether a body (a '{' after a
 * ')') or an initializer follows it at depth 0. */
static void classify_decl(const Split *s, Item *it)
{
    const char *t = s->t;
    bool inline_ = false, type_only = false, first = true, init = false, body = false;
    int parens = 0, braces = 0;
    char last = 0;
    size_t i = it->start;
    while (i < it->end && !init && !body) {
        size_t j = skip_comment(t, it->end, i);
        if (j != i) {
            i = j;
            continue;
        }
        char c = t[i];
        if (c == '"' || c == '\'') {
            i = skip_quoted(t, it->end, i);
            last = c;
            continue;
        }
        if (c == '#' && at_line_start(t, i)) {
            i = skip_pp_line(t, it->end, i);
            continue;
        }
        if (ident_start(c)) {
            size_t w = i;
            while (i < it->end && ident_char(t[i]))
                i++;
            size_t n = i - w, k = i;
            while (k < it->end && isspace((unsigned char)t[k]))
                k++;
            if (braces == 0 && !it->nlen) {
                if (word_is(s, w, n, "static"))
                    it->is_static = true;
                else if (is_inline_macro(s, w, n)) {
                    inline_ = true;
                    it->is_static |= is_inline_macro(s, w, n) == 2;
                }
                else if (word_is(s, w, n, "inline"))
                    inline_ = true;
                else if (first && word_is(s, w, n, "typedef"))
                    type_only = true;
                else if (!is_keyword(t + w, n) && k < it->end && strchr("([=;),", t[k]) &&
                         !pointer_declarator(t, k, it->end)) {
                    it->name = w;
                    it->nlen = n;
                    it->is_function = t[k] == '(';
                }
            }
            first = false;
            last = 'a';
            continue;
        }
        if (c == '(' || c == '[')
            parens++;
        else if (c == ')' || c == ']')
            parens--;
        else if (c == '}')
            braces--;
        else if (c == '{' && parens == 0 && braces == 0 && last == ')')
            body = true;
        else if (c == '{')
            braces++;
        else if (c == '=' && parens == 0 && braces == 0)
            init = true;
        if (init || body)
            it->decl_end = i;
        if (!isspace((unsigned char)c))
            last = c;
        i++;
    }
    if (type_only || !it->nlen)
        it->kind = IT_SHARED;
    else if (it->is_function && it->is_static && !body)
        it->kind = IT_PROTO;
    else if (inline_ && body && it->is_static)
        it->kind = IT_INLINE;
    else if (inline_)
        it->kind = IT_SHARED;
    else if (body || init || (it->is_static && !it->is_function))
        it->kind = IT_DEF;
    else
        it->kind = IT_SHARED;   /* extern declarations: right in every part */
    if (it->kind == IT_DEF && !body && !init)
        it->decl_end = it->end - 1;   /* a tentative definition: up to its ';' */
}

/* The declaration that starts at i: up to the ';' at brace and bracket
 * depth 0, or a function body's closing '}'. */
static size_t decl_end(const char *t, size_t len, size_t i)
{
    int braces = 0, parens = 0;
    bool function = false;
    char last = 0;   /* the last character that is not space or comment */
    while (i < len) {
        size_t j = skip_comment(t, len, i);
        if (j != i) {
            i = j;
            continue;
        }
        char c = t[i];
        if (c == '"' || c == '\'') {
            i = skip_quoted(t, len, i);
            last = c;
            continue;
        }
        if (c == '#' && at_line_start(t, i)) {
            i = skip_pp_line(t, len, i);
            continue;
        }
        if (c == '(' || c == '[')
            parens++;
        else if (c == ')' || c == ']')
            parens--;
        else if (c == '{') {
            if (braces == 0 && parens == 0 && last == ')')
                function = true;
            braces++;
        } else if (c == '}') {
            braces--;
            if (braces == 0 && function)
                return i + 1;
        } else if (c == ';' && braces == 0 && parens == 0) {
            return i + 1;
        }
        if (!isspace((unsigned char)c))
            last = c;
        i++;
    }
    return len;
}

static void read_items(Split *s)
{
    const char *t = s->t;
    size_t i = 0;
    while (i < s->len) {
        if (isspace((unsigned char)t[i])) {
            i++;
            continue;
        }
        size_t end;
        bool decl = false;
        if (t[i] == '#')
            note_inline_macro(s, i, end = skip_pp_line(t, s->len, i));
        else if ((end = skip_comment(t, s->len, i)) == i)
            end = decl_end(t, s->len, i), decl = true;
        Item *it = add_item(s, i, end);
        if (decl)
            classify_decl(s, it);
        else
            it->is_banner = t[i] == '/' && (strncmp(t + i, "/* ----", 7) == 0 || strncmp(t + i, "/* ====", 7) == 0);
        i = end;
    }
}

/* ---- symbols -------------------------------------------------------------- */

static size_t hash_name(const char *p, size_t n)
{
    size_t h = 5381;
    for (size_t i = 0; i < n; i++)
        h = h * 33 + (unsigned char)p[i];
    return h;
}

/* The symbol named [p, p+n), added if add; -1 if absent. */
static int sym_find(Split *s, const char *p, size_t n, bool add)
{
    size_t h = hash_name(p, n) & (s->hcap - 1);
    while (s->hash[h] >= 0) {
        Sym *y = &s->syms[s->hash[h]];
        if (y->nlen == n && memcmp(s->t + y->name, p, n) == 0)
            return s->hash[h];
        h = (h + 1) & (s->hcap - 1);
    }
    if (!add)
        return -1;
    if (s->nsyms == s->scap)
        s->syms = grow(s->syms, &s->scap, sizeof *s->syms);
    Sym *y = &s->syms[s->nsyms];
    y->name = (size_t)(p - s->t);
    y->nlen = n;
    y->def = -1;
    y->refs = 0;
    s->hash[h] = s->nsyms;
    return s->nsyms++;
}

static void make_symbols(Split *s)
{
    s->hcap = 1024;
    while (s->hcap < (size_t)s->nitems * 2)
        s->hcap *= 2;
    s->hash = malloc(s->hcap * sizeof *s->hash);
    if (!s->hash)
        abort();
    memset(s->hash, -1, s->hcap * sizeof *s->hash);
    for (int k = 0; k < s->nitems; k++) {
        Item *it = &s->items[k];
        if (it->kind == IT_SHARED)
            continue;
        it->sym = sym_find(s, s->t + it->name, it->nlen, true);
        if (it->kind != IT_PROTO)
            s->syms[it->sym].def = k;
    }
    for (int k = 0; k < s->nitems; k++)   /* a prototype of nothing defined here is shared */
        if (s->items[k].kind == IT_PROTO && s->syms[s->items[k].sym].def < 0)
            s->items[k].kind = IT_SHARED;
}

/* ---- parts ---------------------------------------------------------------- */

/* What a definition weighs in a part's compile time: cc spends on each
 * function about what it spends on 4 KB of it (measured on the random
 * 100-pattern files: the parts' times follow their numbers of functions
 * more than their bytes), and parses an initializer 8 times faster than
 * it compiles a function of the same size. A static inline function
 * (push_each, the run-set steps) counts twice, in its region: it is
 * compiled into each caller, and its callers are mostly beside it. */
static size_t def_weight(const Item *it)
{
    size_t bytes = it->end - it->start;
    if (it->kind == IT_INLINE)
        return 2 * (4096 + bytes);
    if (it->kind != IT_DEF)
        return 0;
    return it->is_function ? 4096 + bytes : bytes / 8;
}

/* Cuts the items into regions at the banners (and within a region at
 * about 1/(8 nparts) of the definitions' weight), then gives each region,
 * the heaviest first, to the part with the least weight so far. */
static void assign_parts(Split *s, int nparts)
{
    size_t total = 0;
    for (int k = 0; k < s->nitems; k++)
        total += def_weight(&s->items[k]);
    size_t chunk = total / (size_t)(8 * nparts) + 1;
    int *first = malloc(((size_t)s->nitems + 1) * sizeof *first);
    size_t *weight = malloc(((size_t)s->nitems + 1) * sizeof *weight);
    if (!first || !weight)
        abort();
    int nreg = 0;
    first[0] = 0;
    weight[0] = 0;
    for (int k = 0; k < s->nitems; k++) {
        const Item *it = &s->items[k];
        if ((it->is_banner || weight[nreg] >= chunk) && weight[nreg] > 0) {
            first[++nreg] = k;
            weight[nreg] = 0;
        }
        weight[nreg] += def_weight(it);
    }
    first[++nreg] = s->nitems;
    size_t load[64] = {0};
    bool *done = calloc((size_t)nreg, 1);
    if (!done)
        abort();
    for (int n = 0; n < nreg; n++) {
        int r = -1;
        for (int q = 0; q < nreg; q++)
            if (!done[q] && (r < 0 || weight[q] > weight[r]))
                r = q;
        done[r] = true;
        int p = 0;
        for (int q = 1; q < nparts; q++)
            if (load[q] < load[p])
                p = q;
        load[p] += weight[r];
        for (int k = first[r]; k < first[r + 1]; k++)
            s->items[k].part = p;
    }
    free(done);
    free(first);
    free(weight);
    for (int k = 0; k < s->nitems; k++) {   /* one name defined twice (#if ... #else): one part */
        Item *it = &s->items[k];
        if (it->sym >= 0 && s->syms[it->sym].def != k && s->syms[it->sym].def >= 0)
            it->part = s->items[s->syms[it->sym].def].part;
    }
}

/* The symbols each item names (outside comments and strings; its own
 * name not counted): Split.refs. */
static void find_names(Split *s)
{
    const char *t = s->t;
    for (int k = 0; k < s->nitems; k++) {
        Item *it = &s->items[k];
        it->ref0 = s->nrefs;
        size_t i = it->start;
        while (i < it->end && it->kind != IT_PROTO) {
            size_t j = skip_comment(t, it->end, i);
            if (j != i) {
                i = j;
                continue;
            }
            if (t[i] == '"' || t[i] == '\'') {
                i = skip_quoted(t, it->end, i);
                continue;
            }
            if (!ident_start(t[i])) {
                i++;
                continue;
            }
            size_t w = i;
            while (i < it->end && ident_char(t[i]))
                i++;
            int y = w == it->name ? -1 : sym_find(s, t + w, i - w, false);
            if (y < 0)
                continue;
            if (s->nrefs == s->rcap)
                s->refs = grow(s->refs, &s->rcap, sizeof *s->refs);
            s->refs[s->nrefs++] = y;
        }
        it->nrefs = s->nrefs - it->ref0;
    }
}

/* The parts each item is in: a definition in its own, a shared item in
 * all, a static inline function in those whose items name it (to a
 * fixed point: an unused static function is a warning); then, per
 * symbol, the parts that name it. */
static void find_parts(Split *s, int nparts)
{
    unsigned all = (1u << nparts) - 1;
    int *work = malloc(((size_t)s->nitems + 1) * sizeof *work), nwork = 0;
    if (!work)
        abort();
    for (int k = 0; k < s->nitems; k++) {
        Item *it = &s->items[k];
        it->in = it->kind == IT_DEF ? 1u << it->part : it->kind == IT_SHARED ? all : 0;
        if (it->in)
            work[nwork++] = k;
    }
    while (nwork > 0) {
        const Item *it = &s->items[work[--nwork]];
        for (int r = 0; r < it->nrefs; r++) {
            int d = s->syms[s->refs[it->ref0 + r]].def;
            if (d < 0 || s->items[d].kind != IT_INLINE || (s->items[d].in | it->in) == s->items[d].in)
                continue;
            s->items[d].in |= it->in;
            work[nwork++] = d;   /* at most nparts times each: its set only grows */
            if (nwork > s->nitems) {
                work = realloc(work, ((size_t)nwork + (size_t)s->nitems) * sizeof *work);
                if (!work)
                    abort();
            }
        }
    }
    free(work);
    for (int k = 0; k < s->nitems; k++)
        for (int r = 0; r < s->items[k].nrefs; r++)
            s->syms[s->refs[s->items[k].ref0 + r]].refs |= s->items[k].in;
}

/* ---- writing -------------------------------------------------------------- */

/* The number of elements of the initializer that starts after '=' at
 * from: its commas at depth 1, and one more unless a comma ends it. */
static long initializer_count(const Split *s, size_t from, size_t to)
{
    const char *t = s->t;
    int depth = 0;
    long n = 0;
    bool item = false;
    for (size_t i = from; i < to; i++) {
        size_t j = skip_comment(t, to, i);
        if (j != i) {
            i = j - 1;
            continue;
        }
        char c = t[i];
        if (c == '"' || c == '\'') {
            i = skip_quoted(t, to, i) - 1;
            item = true;
            continue;
        }
        if (c == '{' || c == '(' || c == '[') {
            if (depth++ > 0)
                item = true;
        } else if (c == '}' || c == ')' || c == ']') {
            if (--depth == 0)
                return n + (item ? 1 : 0);
        } else if (c == ',' && depth == 1) {
            n++;
            item = false;
        } else if (!isspace((unsigned char)c) && depth >= 1) {
            item = true;
        }
    }
    return -1;
}

/* Writes [from, to) without the word "static" at its start. */
static void put_unstatic(const Split *s, FILE *out, size_t from, size_t to)
{
    const char *p = s->t + from;
    if ((size_t)(to - from) > 7 && strncmp(p, "static", 6) == 0 && isspace((unsigned char)p[6]))
        from += 7;
    fwrite(s->t + from, 1, to - from, out);
}

/* The declaration of definition it, for the parts that only refer to it:
 * a function's prototype, an object's extern declaration (an array of
 * unstated size gets the count of its initializer). */
static void put_declaration(const Split *s, const Item *it, FILE *out)
{
    size_t end = it->decl_end;
    while (end > it->start && isspace((unsigned char)s->t[end - 1]))
        end--;
    if (it->is_function) {
        put_unstatic(s, out, it->start, end);
        fputs(";\n", out);
        return;
    }
    fputs("extern ", out);
    const char *open = NULL;
    for (size_t i = it->start; i + 1 < end && !open; i++)
        if (s->t[i] == '[' && s->t[i + 1] == ']')
            open = s->t + i;
    if (!open) {
        put_unstatic(s, out, it->start, end);
        fputs(";\n", out);
        return;
    }
    size_t at = (size_t)(open - s->t) + 1;
    put_unstatic(s, out, it->start, at);
    fprintf(out, "%ld", initializer_count(s, it->decl_end + 1, it->end));
    fwrite(s->t + at, 1, end - at, out);
    fputs(";\n", out);
}

/* "#if" the item is compiled: without SREMC_PART, or in a part of in. */
static void put_guard(FILE *out, unsigned in)
{
    fputs("#if !defined SREMC_PART", out);
    for (int k = 0; in >> k; k++)
        if (in >> k & 1)
            fprintf(out, " || SREMC_PART == %d", k);
    fputc('\n', out);
}

static void put_item(const Split *s, const Item *it, FILE *out)
{
    const Sym *y = it->sym >= 0 ? &s->syms[it->sym] : NULL;
    const Item *def = y ? &s->items[y->def] : NULL;
    /* another part refers to a definition: it is external */
    bool shared_name = def && def->kind == IT_DEF && (y->refs & ~(1u << def->part)) != 0;
    if (it->kind != IT_SHARED && it->start > 0 && s->t[it->start - 1] != '\n')
        fputc('\n', out);   /* a guard's '#' starts a line */
    if (it->kind == IT_SHARED) {
        fwrite(s->t + it->start, 1, it->end - it->start, out);
    } else if (it->kind == IT_PROTO && shared_name) {
        put_unstatic(s, out, it->start, it->end);
    } else if (it->kind == IT_PROTO || it->kind == IT_INLINE) {
        put_guard(out, def->in);
        fwrite(s->t + it->start, 1, it->end - it->start, out);
        fputs("\n#endif", out);
    } else {
        put_guard(out, it->in);
        if (shared_name)
            put_unstatic(s, out, it->start, it->end);
        else
            fwrite(s->t + it->start, 1, it->end - it->start, out);
        if (shared_name || !it->is_static) {
            fputs("\n#else\n", out);
            put_declaration(s, it, out);
        } else {
            fputs("\n", out);
        }
        fputs("#endif", out);
    }
}

char *cg_split(const char *text, size_t len, int nparts, size_t *outlen)
{
    if (nparts < 1 || nparts > 8)
        abort();
    Split s;
    memset(&s, 0, sizeof s);
    s.t = text;
    s.len = len;
    read_items(&s);
    make_symbols(&s);
    assign_parts(&s, nparts);
    find_names(&s);
    find_parts(&s, nparts);
    char *out = NULL;
    FILE *f = open_memstream(&out, outlen);
    if (!f)
        abort();
    fprintf(f, "/* compiled as %d parts: cc -DSREMC_PART=k, k < %d (sremc build); whole without it */\n",
            nparts, nparts);
    size_t at = 0;   /* what lies between items (spaces, line ends) is kept */
    for (int k = 0; k < s.nitems; k++) {
        fwrite(text + at, 1, s.items[k].start - at, f);
        put_item(&s, &s.items[k], f);
        at = s.items[k].end;
    }
    fwrite(text + at, 1, len - at, f);
    fclose(f);
    free(s.items);
    free(s.syms);
    free(s.hash);
    free(s.refs);
    return out;
}
