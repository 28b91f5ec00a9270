/* jsonl.c: JSON Lines text (one flat object per line, docs/language.md
 * section 6) -> events in the generated struct, read in large blocks and
 * parsed in place, each line ending in a '\n' the parser stops at. */
#include "sremrt/jsonl.h"

#include <string.h>

#include "sremrt/isotime.h"
#include "sremrt/num.h"
#include "sremrt/sink.h"

#define SHOWN_MAX 40          /* longest key or value quoted in a message */
#define NAME_CAP 256          /* longest escaped key or enum value decoded */
enum { LINE_BLANK = -1 };     /* parse_line: a line of only white space */

/* ---- memory ---------------------------------------------------------------- */

static void config_or_default(const sremrt_jsonl_config *cfg, size_t *line_cap, size_t *block)
{
    *line_cap = cfg && cfg->line_cap ? cfg->line_cap : SREMRT_JSONL_LINE_CAP;
    *block = cfg && cfg->block ? cfg->block : SREMRT_JSONL_BLOCK;
}

/* Slots of the table of attribute names: a power of two, at most half full. */
static size_t name_slots(const sremrt_schema *s)
{
    size_t n = 8;
    while (n < 2 * (size_t)s->nattrs)
        n *= 2;
    return n;
}

/* Layout: seen stamps, key order guesses, the name table, then the buffer
 * (a line, a block, the spare byte for the last line's '\n'). */
static size_t layout_bytes(const sremrt_schema *s, size_t line_cap, size_t block)
{
    return (size_t)s->nattrs * (sizeof(uint32_t) + sizeof(int)) + name_slots(s) * sizeof(int) +
           line_cap + block + 1;
}

/* FNV-1a of a name's bytes: where it goes in the name table. */
static uint32_t name_hash(const char *name, size_t len)
{
    uint32_t h = 2166136261u;
    size_t i;
    for (i = 0; i < len; i++)
        h = (h ^ (unsigned char)name[i]) * 16777619u;
    return h;
}

/* The name table: attribute indices by name_hash, -1 in empty slots. */
static void fill_names(sremrt_jsonl *r)
{
    const sremrt_schema *s = r->schema;
    size_t i, mask = r->nslots - 1;
    int a;
    for (i = 0; i <= mask; i++)
        r->names[i] = -1;
    for (a = 0; a < s->nattrs; a++) {
        for (i = name_hash(s->attrs[a].name, strlen(s->attrs[a].name)) & mask; r->names[i] >= 0;)
            i = (i + 1) & mask;
        r->names[i] = a;
    }
}

static int plain(const char *name)
{
    const unsigned char *c = (const unsigned char *)name;
    for (; *c; c++)
        if (*c < 0x20 || *c == '"' || *c == '\\')
            return 0;
    return 1;
}

/* Whether every attribute name and enum value is plain: no byte a JSON
 * string would escape, so raw bytes equal to it are it (same_string). */
static int plain_names(const sremrt_schema *s)
{
    int i, v;
    for (i = 0; i < s->nattrs; i++) {
        if (!plain(s->attrs[i].name))
            return 0;
        for (v = 0; v < s->attrs[i].nvalues; v++)
            if (!plain(s->attrs[i].values[v]))
                return 0;
    }
    return 1;
}

size_t sremrt_jsonl_bytes(const sremrt_schema *s, const sremrt_jsonl_config *cfg)
{
    size_t line_cap, block;
    config_or_default(cfg, &line_cap, &block);
    return layout_bytes(s, line_cap, block) + sizeof(uint32_t) - 1;
}

static int place(sremrt_jsonl *r, const sremrt_jsonl_config *cfg, void *mem, size_t bytes)
{
    size_t line_cap, block, pad, n = (size_t)r->schema->nattrs;
    unsigned char *p;
    int i;
    config_or_default(cfg, &line_cap, &block);
    pad = (size_t)((sizeof(uint32_t) - (uintptr_t)mem % sizeof(uint32_t)) % sizeof(uint32_t));
    if (!mem || bytes < pad || bytes - pad < layout_bytes(r->schema, line_cap, block))
        return -1;
    p = (unsigned char *)mem + pad;
    r->seen = (uint32_t *)(void *)p;
    r->order = (int *)(void *)(p + n * sizeof(uint32_t));
    r->names = r->order + n;
    r->nslots = name_slots(r->schema);
    r->buf = (char *)(r->names + r->nslots);
    r->cap = line_cap + block;
    r->line_cap = line_cap;
    for (i = 0; i < r->schema->nattrs; i++) {
        r->seen[i] = 0;
        r->order[i] = i;   /* first guess: keys in schema order */
    }
    memset(r->buf, 0, r->cap + 1);
    fill_names(r);
    r->plain = plain_names(r->schema);
    r->mem = mem;
    r->bytes = bytes;
    return 0;
}

static void init_fields(sremrt_jsonl *r, const sremrt_schema *s, FILE *in)
{
    memset(r, 0, sizeof *r);
    r->schema = s;
    r->in = in;
    r->line = 1;
    r->next_line = 1;
}

static void set_msg(sremrt_jsonl *r, const char *a, const char *b, const char *c)
{
    sremrt_sink s;
    sremrt_sink_init_buf(&s, r->msg, sizeof r->msg);
    sremrt_sink_puts(&s, a);
    if (b)
        sremrt_sink_puts(&s, b);
    if (c)
        sremrt_sink_puts(&s, c);
    sremrt_sink_end(&s);
}

int sremrt_jsonl_open_buf(sremrt_jsonl *r, const sremrt_schema *s, FILE *in,
                          const sremrt_jsonl_config *cfg, void *buf, size_t bytes)
{
    init_fields(r, s, in);
    if (place(r, cfg, buf, bytes) != 0) {
        set_msg(r, "JSONL reader: buffer too small", NULL, NULL);
        return r->failed = SREMRT_READ_FATAL;
    }
    return 0;
}

int sremrt_jsonl_open(sremrt_jsonl *r, const sremrt_schema *s, FILE *in,
                      const sremrt_jsonl_config *cfg, const sremrt_alloc *a)
{
    size_t bytes = sremrt_jsonl_bytes(s, cfg);
    void *mem = sremrt_alloc_get(a, bytes, sizeof(uint32_t));
    init_fields(r, s, in);
    if (!mem) {
        set_msg(r, "JSONL reader: out of memory for its buffers", NULL, NULL);
        return r->failed = SREMRT_READ_FATAL;
    }
    place(r, cfg, mem, bytes);
    r->alloc = *a;
    return 0;
}

void sremrt_jsonl_close(sremrt_jsonl *r)
{
    if (r->alloc.alloc)
        sremrt_alloc_free(&r->alloc, r->mem, r->bytes);
    r->alloc.alloc = NULL;
    r->mem = NULL;
    r->buf = NULL;
}

/* ---- lines ------------------------------------------------------------------- */

static int overlong(sremrt_jsonl *r)
{
    sremrt_sink s;
    sremrt_sink_init_buf(&s, r->msg, sizeof r->msg);
    sremrt_sink_puts(&s, "line longer than ");
    sremrt_sink_u64(&s, r->line_cap);
    sremrt_sink_puts(&s, " bytes");
    sremrt_sink_end(&s);
    return SREMRT_READ_BAD;
}

/* Moves the partial line to the front and reads a block after it: 0, or
 * SREMRT_READ_FATAL on a read error. */
static int refill(sremrt_jsonl *r)
{
    size_t n;
    memmove(r->buf, r->buf + r->beg, r->end - r->beg);
    r->end -= r->beg;
    r->beg = 0;
    n = fread(r->buf + r->end, 1, r->cap - r->end, r->in);
    r->end += n;
    if (r->end < r->cap) {
        if (ferror(r->in)) {
            set_msg(r, "read error", NULL, NULL);
            return SREMRT_READ_FATAL;
        }
        r->eof = 1;
    }
    return 0;
}

/* The next line into *line, ending in '\n' (written after the last line
 * when the input does not end in one), with r->line its number:
 * SREMRT_READ_EVENT, SREMRT_READ_END, SREMRT_READ_BAD (overlong: the
 * rest of it is dropped as it comes) or SREMRT_READ_FATAL. */
static int take_line(sremrt_jsonl *r, char **line)
{
    for (;;) {
        char *p = r->buf + r->beg;
        char *nl = (char *)memchr(p, '\n', r->end - r->beg);
        if (!nl && r->eof && r->beg < r->end) {
            nl = r->buf + r->end;   /* the spare byte */
            *nl = '\n';
            r->end++;
        }
        if (nl) {
            int skipped = r->skipping;
            r->beg = (size_t)(nl + 1 - r->buf);
            r->line = r->next_line++;
            r->skipping = 0;
            if (skipped)
                continue;   /* the end of a line already reported */
            *line = p;
            return (size_t)(nl - p) > r->line_cap ? overlong(r) : SREMRT_READ_EVENT;
        }
        if (r->eof)
            return SREMRT_READ_END;
        if (r->end - r->beg > r->line_cap) {   /* no line end within the limit */
            r->beg = r->end;
            if (!r->skipping) {
                r->skipping = 1;
                r->line = r->next_line;
                return overlong(r);
            }
        }
        if (refill(r) != 0)
            return SREMRT_READ_FATAL;
    }
}

/* ---- messages ---------------------------------------------------------------- */

/* PREFIX "TEXT" SUFFIX, the text [p, e) cut to SHOWN_MAX bytes. */
static const char *show(sremrt_jsonl *r, const char *prefix, const char *p, const char *e,
                        const char *suffix)
{
    sremrt_sink s;
    size_t n = (size_t)(e - p);
    sremrt_sink_init_buf(&s, r->msg, sizeof r->msg);
    sremrt_sink_puts(&s, prefix);
    sremrt_sink_puts(&s, "\"");
    sremrt_sink_putn(&s, p, n > SHOWN_MAX ? SHOWN_MAX : n);
    sremrt_sink_puts(&s, n > SHOWN_MAX ? "...\"" : "\"");
    sremrt_sink_puts(&s, suffix);
    sremrt_sink_end(&s);
    return NULL;
}

static const char *fail(sremrt_jsonl *r, const char *why)
{
    set_msg(r, why, NULL, NULL);
    return NULL;
}

/* "attribute NAME: "VALUE" WHAT", as the CSV reader says it; a string's
 * quotes are left out of VALUE. */
static const char *value_msg(sremrt_jsonl *r, const sremrt_attr *a, const char *p,
                             const char *e, const char *what)
{
    char prefix[SREMRT_JSONL_MSG_CAP];
    sremrt_sink s;
    sremrt_sink_init_buf(&s, prefix, sizeof prefix);
    sremrt_sink_puts(&s, "attribute ");
    sremrt_sink_puts(&s, a->name);
    sremrt_sink_puts(&s, ": ");
    sremrt_sink_end(&s);
    if (e - p >= 2 && *p == '"') {
        p++;
        e--;
    }
    show(r, prefix, p, e, what);
    return NULL;
}

/* ---- JSON tokens ------------------------------------------------------------- */

static const char *ws(const char *p)
{
    while (*p <= ' ' && (*p == ' ' || *p == '\t' || *p == '\r'))   /* mostly one compare */
        p++;
    return p;
}

/* The string at p (its opening quote) when it is exactly `name` without
 * escapes: the byte after its closing quote, else NULL. The fast path of
 * keys and enum values: no scan, no copy. */
static const char *same_string(const sremrt_jsonl *r, const char *p, const char *name)
{
    if (r->plain)   /* a byte equal to a plain name's is plain */
        for (p++; *name && *name == *p; name++)
            p++;
    else   /* a byte JSON would escape or end at: the slow path decides */
        for (p++; *name && *name == *p && (unsigned char)*p >= 0x20 && *p != '"' && *p != '\\'; name++)
            p++;
    return !*name && *p == '"' ? p + 1 : NULL;
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* A JSON number at p: the byte after it, or NULL. *integral: no fraction
 * and no exponent. */
static const char *scan_number(const char *p, int *integral)
{
    *integral = 1;
    if (*p == '-')
        p++;
    if (*p == '0')
        p++;
    else if (is_digit(*p))
        while (is_digit(*p))
            p++;
    else
        return NULL;
    if (*p == '.') {
        *integral = 0;
        if (!is_digit(*++p))
            return NULL;
        while (is_digit(*p))
            p++;
    }
    if (*p == 'e' || *p == 'E') {
        *integral = 0;
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!is_digit(*p))
            return NULL;
        while (is_digit(*p))
            p++;
    }
    return p;
}

static int hex4(const char *p, unsigned *out)
{
    unsigned v = 0;
    int i;
    for (i = 0; i < 4; i++) {
        char c = p[i];
        unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
                   : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                   : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16u;
        if (d == 16)
            return -1;
        v = v << 4 | d;
    }
    *out = v;
    return 0;
}

/* Appends code point cp as UTF-8 to out[*n], counting what does not fit. */
static void put_utf8(char *out, size_t *n, unsigned cp)
{
    unsigned char b[4];
    size_t k, len;
    if (cp < 0x80) {
        b[0] = (unsigned char)cp;
        len = 1;
    } else if (cp < 0x800) {
        b[0] = (unsigned char)(0xC0 | cp >> 6);
        b[1] = (unsigned char)(0x80 | (cp & 0x3F));
        len = 2;
    } else if (cp < 0x10000) {
        b[0] = (unsigned char)(0xE0 | cp >> 12);
        b[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
        b[2] = (unsigned char)(0x80 | (cp & 0x3F));
        len = 3;
    } else {
        b[0] = (unsigned char)(0xF0 | cp >> 18);
        b[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
        b[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
        b[3] = (unsigned char)(0x80 | (cp & 0x3F));
        len = 4;
    }
    for (k = 0; k < len; k++, (*n)++)
        if (*n < NAME_CAP)
            out[*n] = (char)b[k];
}

/* Appends bytes p[0..len) to out[*n], counting what does not fit. */
static void put_bytes(char *out, size_t *n, const char *p, size_t len)
{
    if (*n < NAME_CAP)
        memcpy(out + *n, p, len < NAME_CAP - *n ? len : NAME_CAP - *n);
    *n += len;
}

/* One escape after the backslash at p, decoded into out (NULL: only
 * checked); the byte after it, or NULL. */
static const char *escape(const char *p, char *out, size_t *n)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *k;
    unsigned cp, lo;
    if (*p != 'u') {
        if (*p == '\0' || !(k = strchr(from, *p)))
            return NULL;
        if (out)
            put_utf8(out, n, (unsigned char)to[k - from]);
        return p + 1;
    }
    if (hex4(p + 1, &cp) != 0)
        return NULL;
    p += 5;
    if (cp >= 0xDC00 && cp <= 0xDFFF)
        return NULL;   /* a low surrogate alone */
    if (cp >= 0xD800 && cp <= 0xDBFF) {   /* a pair makes one code point */
        if (p[0] != '\\' || p[1] != 'u' || hex4(p + 2, &lo) != 0 || lo < 0xDC00 || lo > 0xDFFF)
            return NULL;
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        p += 6;
    }
    if (out)
        put_utf8(out, n, cp);
    return p;
}

/* The string whose opening quote is at p: the byte after its closing
 * quote, or NULL with the reason. With out, its decoded bytes go there
 * (*n of them; more than NAME_CAP: it did not fit) when it has escapes;
 * *escaped says whether it had. */
static const char *scan_string(sremrt_jsonl *r, const char *p, char *out, size_t *n, int *escaped)
{
    const char *start = ++p;
    *escaped = 0;
    for (;;) {
        const char *q = p;
        while ((unsigned char)*q >= 0x20 && *q != '"' && *q != '\\')
            q++;
        if (*escaped && out)   /* plain bytes after an escape */
            put_bytes(out, n, p, (size_t)(q - p));
        p = q;
        if (*p == '"')
            return p + 1;
        if (*p != '\\')
            return fail(r, *p == '\n' ? "unterminated string" : "control character in a string");
        if (!*escaped && out) {   /* the plain bytes before the first escape */
            *n = 0;
            put_bytes(out, n, start, (size_t)(p - start));
        }
        *escaped = 1;
        if (!(p = escape(p + 1, out, n)))
            return fail(r, "bad escape in a string");
    }
}

/* A string's content: [*s, *e) in place, or decoded into out. NULL when
 * it cannot name anything (a NUL in it, or longer than NAME_CAP). */
static const char *string_text(const char *p, const char *end, char *out, size_t n,
                               int escaped, size_t *len)
{
    if (!escaped) {
        *len = (size_t)(end - 1 - (p + 1));
        return p + 1;   /* no NUL: scan_string refused control bytes */
    }
    *len = n;
    return n > NAME_CAP || memchr(out, '\0', n) ? NULL : out;
}

static const char *literal(const char *p, const char *word)
{
    size_t n = strlen(word);
    return strncmp(p, word, n) == 0 ? p + n : NULL;
}

/* A member's key and ':' in a skipped object: the byte after, or NULL. */
static const char *skip_key(sremrt_jsonl *r, const char *p)
{
    size_t n;
    int escaped;
    if (*p != '"')
        return fail(r, "expected a key (a string) in an object");
    if (!(p = scan_string(r, p, NULL, &n, &escaped)))
        return NULL;
    if (*(p = ws(p)) != ':')
        return fail(r, "expected ':' after a key");
    return p + 1;
}

/* Any JSON value at p (objects and arrays nested at most
 * SREMRT_JSONL_DEPTH deep): the byte after it, or NULL with the reason. */
static const char *skip_value(sremrt_jsonl *r, const char *p)
{
    unsigned char open[SREMRT_JSONL_DEPTH];   /* '{' or '[' per level */
    int depth = 0, integral, escaped;
    size_t n;
    for (;;) {
        p = ws(p);
        if (*p == '{' || *p == '[') {   /* a container: its first member */
            if (depth == SREMRT_JSONL_DEPTH)
                return fail(r, "value nested too deep");
            open[depth++] = (unsigned char)*p;
            p = ws(p + 1);
            if (*p != (open[depth - 1] == '{' ? '}' : ']')) {
                if (open[depth - 1] == '{' && !(p = skip_key(r, p)))
                    return NULL;
                continue;
            }
            p++;
            depth--;
        } else if (*p == '"') {
            if (!(p = scan_string(r, p, NULL, &n, &escaped)))
                return NULL;
        } else if (*p == 't' || *p == 'f' || *p == 'n') {
            if (!(p = literal(p, *p == 't' ? "true" : *p == 'f' ? "false" : "null")))
                return fail(r, "expected a JSON value");
        } else if (!(p = scan_number(p, &integral))) {
            return fail(r, "expected a JSON value");
        }
        /* a value ended: close containers, or go on to the next member */
        for (;;) {
            if (depth == 0)
                return p;
            p = ws(p);
            if (*p == (open[depth - 1] == '{' ? '}' : ']')) {
                p++;
                depth--;
                continue;
            }
            if (*p != ',')
                return fail(r, open[depth - 1] == '{' ? "expected ',' or '}' in an object"
                                                      : "expected ',' or ']' in an array");
            p = ws(p + 1);
            if (open[depth - 1] == '{' && !(p = skip_key(r, p)))
                return NULL;
            break;
        }
    }
}

/* ---- values ------------------------------------------------------------------ */

/* A value that is not of the attribute's type: its text in the message. */
static const char *wrong_type(sremrt_jsonl *r, const sremrt_attr *a, const char *p, const char *what)
{
    const char *e = skip_value(r, p);
    return e ? value_msg(r, a, p, e, what) : NULL;
}

static const char *number_attr(sremrt_jsonl *r, const sremrt_attr *a, const char *p, void *event)
{
    int integral;
    int64_t v;
    double d;
    const char *e, *q = p + (*p == '-');
    /* an integer of up to 18 digits in one pass (num.h's scanner; JSON
       allows no '+' and no leading zero, which the test on *q keeps out) */
    int flt = a->type == SREMRT_FLOAT || a->type == SREMRT_FLOAT32;
    if (!flt && *q >= '1' && *q <= '9' && (e = sremrt_scan_i64(p, &v)) && *e != '.' &&
        *e != 'e' && *e != 'E') {
        sremrt_attr_set_int(a, event, v);
        return e;
    }
    e = *p == '-' || is_digit(*p) ? scan_number(p, &integral) : NULL;
    if (flt) {   /* JSON's grammar checked: num.h reads it as strtod would */
        if (!e || sremrt_parse_f64(p, (size_t)(e - p), &d) != SREMRT_NUM_OK)
            return wrong_type(r, a, p, " is not a float");
        sremrt_attr_set_float(a, event, d);
        return e;
    }
    if (!e || !integral)
        return wrong_type(r, a, p, a->type == SREMRT_INT ? " is not an int"
                                                         : " is not a timestamp (an integer or an ISO-8601 time)");
    if (sremrt_parse_i64(p, (size_t)(e - p), &v) != SREMRT_NUM_OK)
        return value_msg(r, a, p, e, " is out of the int64 range");
    sremrt_attr_set_int(a, event, v);
    return e;
}

static const char *enum_attr(sremrt_jsonl *r, const sremrt_attr *a, const char *p, void *event)
{
    char buf[NAME_CAP];
    size_t n = 0, len;
    int escaped, v = -1;
    const char *e, *text;
    if (*p != '"')
        return wrong_type(r, a, p, " is not a value of its enum (a string)");
    for (v = 0; v < a->nvalues; v++)
        if ((e = same_string(r, p, a->values[v]))) {
            sremrt_attr_set_int(a, event, v);
            return e;
        }
    if (!(e = scan_string(r, p, buf, &n, &escaped)))
        return NULL;
    v = -1;
    if ((text = string_text(p, e, buf, n, escaped, &len)))
        v = sremrt_enum_find(a, text, len);
    if (v < 0)
        return value_msg(r, a, p, e, " is not a value of its enum");
    sremrt_attr_set_int(a, event, v);
    return e;
}

/* A string attribute: its id in r->strings, interned as the CSV reader
 * does (the same string, the same id). An escaped value is decoded (up
 * to NAME_CAP bytes); a plain one is interned in place, any length. */
static const char *string_attr(sremrt_jsonl *r, const sremrt_attr *a, const char *p, void *event)
{
    char buf[NAME_CAP];
    size_t n = 0, len;
    int escaped;
    int64_t v;
    const char *e, *text;
    if (*p != '"')
        return wrong_type(r, a, p, " is not a string");
    if (!(e = scan_string(r, p, buf, &n, &escaped)))
        return NULL;
    if (!(text = string_text(p, e, buf, n, escaped, &len)))
        return value_msg(r, a, p, e, n > NAME_CAP ? " is too long with its escapes (256 bytes decoded)"
                                                  : " has a NUL byte");
    v = r->strings ? sremrt_strtab_intern(r->strings, text, len) : -1;
    if (v < 0)
        return value_msg(r, a, p, e, r->strings ? " does not fit: the string table is full"
                                                : " is a string, and the reader has no string table");
    sremrt_attr_set_int(a, event, v);
    return e;
}

/* A timestamp given as a JSON string: an ISO-8601 time, read as the CSV
 * reader reads one (isotime.h), with its messages. */
static const char *iso_attr(sremrt_jsonl *r, const sremrt_attr *a, const char *p, void *event)
{
    char buf[NAME_CAP], what[96];
    size_t n = 0, len;
    int escaped, rc = SREMRT_TIME_SYNTAX;
    int64_t v;
    const char *e, *text;
    if (!(e = scan_string(r, p, buf, &n, &escaped)))
        return NULL;
    if ((text = string_text(p, e, buf, n, escaped, &len)))
        rc = sremrt_parse_iso8601(text, len, r->schema->ts_unit_ns, &v);
    if (rc != SREMRT_TIME_OK) {   /* " " + the CSV reader's words */
        sremrt_sink s;
        sremrt_sink_init_buf(&s, what, sizeof what);
        sremrt_sink_putc(&s, ' ');
        sremrt_sink_puts(&s, sremrt_time_error(rc));
        sremrt_sink_end(&s);
        return value_msg(r, a, p, e, what);
    }
    sremrt_attr_set_int(a, event, v);
    return e;
}

/* The value of attribute a at p into the event: the byte after it, or NULL. */
static const char *attr_value(sremrt_jsonl *r, const sremrt_attr *a, const char *p, void *event)
{
    const char *e;
    switch (a->type) {
    case SREMRT_TIMESTAMP:
        if (*p == '"')
            return iso_attr(r, a, p, event);
        return number_attr(r, a, p, event);
    case SREMRT_INT:
    case SREMRT_FLOAT:
    case SREMRT_FLOAT32:
        return number_attr(r, a, p, event);
    case SREMRT_BOOL:
        if ((e = literal(p, "true")) || (e = literal(p, "false"))) {
            sremrt_attr_set_int(a, event, *p == 't');
            return e;
        }
        return wrong_type(r, a, p, " is not a bool (true or false)");
    case SREMRT_ENUM:
        return enum_attr(r, a, p, event);
    case SREMRT_STRING:
        return string_attr(r, a, p, event);
    }
    return NULL;
}

/* ---- lines into events ------------------------------------------------------- */

/* The attribute named [name, name+len) (no NUL in it), or -1, through the
 * name table: a key no attribute has costs its hash and an empty slot; the
 * attribute found is the guess for position pos next time. */
static int find_attr(sremrt_jsonl *r, int pos, const char *name, size_t len)
{
    const sremrt_schema *s = r->schema;
    size_t i, mask = r->nslots - 1;
    int a;
    for (i = name_hash(name, len) & mask; (a = r->names[i]) >= 0; i = (i + 1) & mask)
        if (strncmp(s->attrs[a].name, name, len) == 0 && s->attrs[a].name[len] == '\0')
            break;
    if (pos < s->nattrs && a >= 0)
        r->order[pos] = a;
    return a;
}

/* One key, its ':' and its value, stored when it names an attribute: the
 * byte after the value, or NULL with the reason. *found counts the
 * attributes set. */
static const char *member(sremrt_jsonl *r, const char *p, int pos, int *found, void *event)
{
    char buf[NAME_CAP];
    size_t n = 0, len;
    int escaped, a = -1;
    const char *key = p, *e, *text;
    if (*p != '"')
        return fail(r, "expected a key (a string) in the object");
    if (pos < r->schema->nattrs && (e = same_string(r, p, r->schema->attrs[r->order[pos]].name))) {
        a = r->order[pos];   /* the key at this position last time */
    } else {
        if (!(e = scan_string(r, p, buf, &n, &escaped)))
            return NULL;
        if ((text = string_text(key, e, buf, n, escaped, &len)))
            a = find_attr(r, pos, text, len);
    }
    p = ws(e);
    if (*p != ':')
        return show(r, "expected ':' after key ", key + 1, e - 1, "");
    p = ws(p + 1);
    if (a < 0)
        return skip_value(r, p);
    if (r->seen[a] == r->stamp)
        return show(r, "duplicate key ", key + 1, e - 1, "");
    r->seen[a] = r->stamp;
    (*found)++;
    return attr_value(r, &r->schema->attrs[a], p, event);
}

static int missing_key(sremrt_jsonl *r)
{
    int a;
    for (a = 0; r->seen[a] == r->stamp; a++)
        continue;
    set_msg(r, "missing key \"", r->schema->attrs[a].name, "\"");
    return SREMRT_READ_BAD;
}

/* The line at p (ending in '\n') into the event: SREMRT_READ_EVENT,
 * SREMRT_READ_BAD or LINE_BLANK. */
static int parse_line(sremrt_jsonl *r, const char *p, void *event)
{
    int found = 0, pos = 0;
    if (r->line == 1 && strncmp(p, "\xEF\xBB\xBF", 3) == 0)
        p += 3;   /* the UTF-8 byte order mark some tools write first */
    p = ws(p);
    if (*p == '\n')
        return LINE_BLANK;
    if (*p != '{') {
        set_msg(r, "not a JSON object", NULL, NULL);
        return SREMRT_READ_BAD;
    }
    if (++r->stamp == 0) {   /* stamps wrapped: forget the old ones */
        memset(r->seen, 0, (size_t)r->schema->nattrs * sizeof *r->seen);
        r->stamp = 1;
    }
    memset(event, 0, r->schema->event_size);
    p = ws(p + 1);
    if (*p != '}') {
        for (;; pos++) {
            if (!(p = member(r, p, pos, &found, event)))
                return SREMRT_READ_BAD;
            p = ws(p);
            if (*p == '}')
                break;
            if (*p != ',') {
                set_msg(r, "expected ',' or '}' after a value", NULL, NULL);
                return SREMRT_READ_BAD;
            }
            p = ws(p + 1);
        }
    }
    if (*ws(p + 1) != '\n') {
        set_msg(r, "unexpected text after the object", NULL, NULL);
        return SREMRT_READ_BAD;
    }
    return found < r->schema->nattrs ? missing_key(r) : SREMRT_READ_EVENT;
}

int sremrt_jsonl_next(sremrt_jsonl *r, void *event)
{
    if (r->failed)
        return SREMRT_READ_FATAL;
    if (!r->buf)
        return SREMRT_READ_END;
    for (;;) {
        char *line;
        int rc = take_line(r, &line);
        if (rc == SREMRT_READ_EVENT)
            rc = parse_line(r, line, event);
        if (rc != LINE_BLANK) {
            if (rc == SREMRT_READ_EVENT)
                r->msg[0] = '\0';
            return rc;
        }
    }
}

int64_t sremrt_jsonl_line(const sremrt_jsonl *r)
{
    return r->line;
}

const char *sremrt_jsonl_message(const sremrt_jsonl *r)
{
    return r->msg;
}
