/* jsonl.c: JSON Lines text (one flat object per line, docs/language.md
 * section 6) -> events in the generated struct, read in large blocks and
 * parsed in place, each line ending in a '\n' the parser stops at. */
#include "sremrt/jsonl.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

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

/* Layout: seen stamps, key order guesses, then the buffer (a line, a block
 * and the spare byte for the last line's '\n'). */
static size_t layout_bytes(const sremrt_schema *s, size_t line_cap, size_t block)
{
    return (size_t)s->nattrs * (sizeof(uint32_t) + sizeof(int)) + line_cap + block + 1;
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
    r->buf = (char *)(p + n * (sizeof(uint32_t) + sizeof(int)));
    r->cap = line_cap + block;
    r->line_cap = line_cap;
    for (i = 0; i < r->schema->nattrs; i++) {
        r->seen[i] = 0;
        r->order[i] = i;   /* first guess: keys in schema order */
    }
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
    while (*p == ' ' || *p == '\t' || *p == '\r')
        p++;
    return p;
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
        unsigned char c = (unsigned char)*p;
        if (c == '"')
            return p + 1;
        if (c == '\\') {
            if (!*escaped && out) {   /* the plain bytes so far */
                *n = 0;
                for (; start < p; start++)
                    put_utf8(out, n, (unsigned char)*start);
            }
            *escaped = 1;
            if (!(p = escape(p + 1, out, n)))
                return fail(r, "bad escape in a string");
            continue;
        }
        if (c < 0x20)
            return fail(r, c == '\n' ? "unterminated string" : "control character in a string");
        if (*escaped && out && *n < NAME_CAP)
            out[(*n)++] = (char)c;
        else if (*escaped && out)
            (*n)++;
        p++;
    }
}

/* A string's content: [*s, *e) in place, or decoded into out. NULL when
 * it cannot name anything (a NUL in it, or longer than NAME_CAP). */
static const char *string_text(const char *p, const char *end, char *out, size_t n,
                               int escaped, size_t *len)
{
    if (!escaped) {
        *len = (size_t)(end - 1 - (p + 1));
        return memchr(p + 1, '\0', *len) ? NULL : p + 1;
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

/* Exactly representable powers of ten: a double of at most 53 bits times
 * or over one of these is correctly rounded (Clinger's fast path). */
static const double POW10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
                               1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
                               1e20, 1e21, 1e22};

/* The double of the JSON number [p, e), correctly rounded: the fast path
 * when it is exact, else strtod (which reads the same bytes). */
static double number_value(const char *p, const char *e)
{
    const char *q = p;
    uint64_t m = 0;
    int nd = 0, e10 = 0, exact = 1, neg = *q == '-', frac = 0;
    long x = 0;
    char *end;
    if (neg)
        q++;
    for (; q < e && (is_digit(*q) || *q == '.'); q++) {
        unsigned d = (unsigned)(*q - '0');
        if (*q == '.') {
            frac = 1;
            continue;
        }
        if (nd < 19) {
            m = m * 10 + d;
            nd += m != 0;
            e10 -= frac;
        } else {
            e10 += !frac;
            exact &= d == 0;
        }
    }
    if (q < e) {   /* an exponent: e, sign, digits (capped: far out of range anyway) */
        int eneg = *++q == '-';
        if (*q == '+' || *q == '-')
            q++;
        for (; q < e; q++)
            if (x < 100000)
                x = x * 10 + (*q - '0');
        e10 += (int)(eneg ? -x : x);
    }
    if (m == 0)
        return neg ? -0.0 : 0.0;
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
    if (exact && m <= (UINT64_C(1) << 53) && e10 >= -22 && e10 <= 22) {
        double v = (double)m;
        v = e10 < 0 ? v / POW10[-e10] : v * POW10[e10];
        return neg ? -v : v;
    }
#else
    (void)exact;
    (void)POW10;
#endif
    return strtod(p, &end);
}

/* Decimal int64 digits [p, e) with an optional '-': 0, or -1 out of range. */
static int int_value(const char *p, const char *e, int64_t *out)
{
    uint64_t v = 0, limit = (uint64_t)INT64_MAX;
    int neg = *p == '-';
    if (neg) {
        p++;
        limit += 1;
    }
    for (; p < e; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (limit - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = neg ? (v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v) : (int64_t)v;
    return 0;
}

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
    const char *e = *p == '-' || is_digit(*p) ? scan_number(p, &integral) : NULL;
    if (a->type == SREMRT_FLOAT) {
        if (!e)
            return wrong_type(r, a, p, " is not a float");
        sremrt_attr_set_float(a, event, number_value(p, e));
        return e;
    }
    if (!e || !integral)
        return wrong_type(r, a, p, a->type == SREMRT_INT ? " is not an int"
                                                         : " is not a timestamp (an integer)");
    if (int_value(p, e, &v) != 0)
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
    if (!(e = scan_string(r, p, buf, &n, &escaped)))
        return NULL;
    if ((text = string_text(p, e, buf, n, escaped, &len)))
        v = sremrt_enum_find(a, text, len);
    if (v < 0)
        return value_msg(r, a, p, e, " is not a value of its enum");
    sremrt_attr_set_int(a, event, v);
    return e;
}

/* The value of attribute a at p into the event: the byte after it, or NULL. */
static const char *attr_value(sremrt_jsonl *r, const sremrt_attr *a, const char *p, void *event)
{
    const char *e;
    switch (a->type) {
    case SREMRT_INT:
    case SREMRT_TIMESTAMP:
    case SREMRT_FLOAT:
        return number_attr(r, a, p, event);
    case SREMRT_BOOL:
        if ((e = literal(p, "true")) || (e = literal(p, "false"))) {
            sremrt_attr_set_int(a, event, *p == 't');
            return e;
        }
        return wrong_type(r, a, p, " is not a bool (true or false)");
    case SREMRT_ENUM:
        return enum_attr(r, a, p, event);
    }
    return NULL;
}

/* ---- lines into events ------------------------------------------------------- */

/* The attribute named [name, name+len) (no NUL in it), the key at position
 * pos of its line: the key at that position last time is tried first. */
static int find_attr(sremrt_jsonl *r, int pos, const char *name, size_t len)
{
    const sremrt_schema *s = r->schema;
    int a = pos < s->nattrs ? r->order[pos] : -1;
    if (a >= 0 && strncmp(s->attrs[a].name, name, len) == 0 && s->attrs[a].name[len] == '\0')
        return a;
    a = sremrt_schema_find(s, name, len);
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
    if (!(e = scan_string(r, p, buf, &n, &escaped)))
        return NULL;
    if ((text = string_text(key, e, buf, n, escaped, &len)))
        a = find_attr(r, pos, text, len);
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
