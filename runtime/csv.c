/* csv.c: CSV text (RFC 4180 quoting, docs/language.md section 6 rules) -> events
 * in the generated struct, one record at a time through a bounded buffer. */
#include "sremrt/csv.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "sremrt/isotime.h"
#include "sremrt/sink.h"

enum { REC_OK, REC_EOF, REC_BAD };
#define BROKEN (-2)          /* read_field: the record broke off (r->bad set) */
#define SHOWN_VALUE_MAX 40   /* longest value quoted in a message */

static const char OVERLONG[] = "line longer than the limit";

/* ---- memory ---------------------------------------------------------------- */

static void config_or_default(const sremrt_csv_config *cfg, size_t *line_cap, int *max_columns)
{
    *line_cap = cfg && cfg->line_cap ? cfg->line_cap : SREMRT_CSV_LINE_CAP;
    *max_columns = cfg && cfg->max_columns > 0 ? cfg->max_columns : SREMRT_CSV_MAX_COLUMNS;
}

/* Layout: field offsets, column map, record buffer; slack aligns the first. */
static size_t layout_bytes(size_t line_cap, int max_columns)
{
    return (size_t)max_columns * (sizeof(size_t) + sizeof(int)) + line_cap + 1;
}

size_t sremrt_csv_bytes(const sremrt_csv_config *cfg)
{
    size_t line_cap;
    int max_columns;
    config_or_default(cfg, &line_cap, &max_columns);
    return layout_bytes(line_cap, max_columns) + sizeof(size_t) - 1;
}

static int place(sremrt_csv *r, const sremrt_csv_config *cfg, void *mem, size_t bytes)
{
    size_t line_cap, pad;
    int max_columns;
    unsigned char *p;
    config_or_default(cfg, &line_cap, &max_columns);
    pad = (size_t)((sizeof(size_t) - (uintptr_t)mem % sizeof(size_t)) % sizeof(size_t));
    if (!mem || bytes < pad || bytes - pad < layout_bytes(line_cap, max_columns))
        return -1;
    p = (unsigned char *)mem + pad;
    r->field = (size_t *)(void *)p;
    r->column_attr = (int *)(void *)(p + (size_t)max_columns * sizeof(size_t));
    r->buf = (char *)(p + (size_t)max_columns * (sizeof(size_t) + sizeof(int)));
    r->cap = line_cap + 1;
    r->max_columns = max_columns;
    r->mem = mem;
    r->bytes = bytes;
    return 0;
}

/* ---- messages ---------------------------------------------------------------- */

static void set_msg(sremrt_csv *r, const char *a, const char *b, const char *c)
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

/* "attribute NAME: \"VALUE\" WHAT", the value cut to SHOWN_VALUE_MAX bytes. */
static void value_msg(sremrt_csv *r, const sremrt_attr *a, const char *value, const char *what)
{
    sremrt_sink s;
    size_t n = strlen(value);
    sremrt_sink_init_buf(&s, r->msg, sizeof r->msg);
    sremrt_sink_puts(&s, "attribute ");
    sremrt_sink_puts(&s, a->name);
    sremrt_sink_puts(&s, ": \"");
    sremrt_sink_putn(&s, value, n > SHOWN_VALUE_MAX ? SHOWN_VALUE_MAX : n);
    sremrt_sink_puts(&s, n > SHOWN_VALUE_MAX ? "...\" " : "\" ");
    sremrt_sink_puts(&s, what);
    sremrt_sink_end(&s);
}

static void note_bad(sremrt_csv *r, const char *why)
{
    if (!r->bad)
        r->bad = why;
}

/* ---- bytes ------------------------------------------------------------------- */

static int next_char(sremrt_csv *r)
{
    int c;
    if (r->npending)
        c = r->pending[--r->npending];
    else if (r->eof)
        return EOF;
    else if ((c = getc(r->in)) == EOF) {
        r->eof = 1;
        return EOF;
    }
    if (c == '\n')
        r->next_line++;
    return c;
}

static void unread(sremrt_csv *r, int c)
{
    if (c == EOF)
        return;
    if (c == '\n')
        r->next_line--;
    r->pending[r->npending++] = c;
}

/* A '\r' just read: '\n' (or EOF) if it ends a line, else '\r' as data. */
static int after_cr(sremrt_csv *r)
{
    int c = next_char(r);
    if (c == '\n' || c == EOF)
        return c;
    unread(r, c);
    return '\r';
}

static int put(sremrt_csv *r, int c)
{
    if (r->len >= r->cap) {
        note_bad(r, OVERLONG);
        return -1;
    }
    r->buf[r->len++] = (char)c;
    return 0;
}

static int skip_blanks(sremrt_csv *r)
{
    int c;
    do
        c = next_char(r);
    while (c == ' ' || c == '\t');
    return c;
}

/* Drops the UTF-8 byte order mark spreadsheets put before the header. */
static void skip_bom(sremrt_csv *r)
{
    int c1 = next_char(r), c2, c3;
    if (c1 != 0xEF) {
        unread(r, c1);
        return;
    }
    c2 = next_char(r);
    c3 = c2 == 0xBB ? next_char(r) : EOF;
    if (c2 == 0xBB && c3 == 0xBF)
        return;
    unread(r, c3);
    unread(r, c2);
    unread(r, c1);
}

/* ---- records ----------------------------------------------------------------- */

/* Inside quotes up to the closing one; returns the byte after it, or BROKEN. */
static int read_quoted(sremrt_csv *r)
{
    int c;
    r->quoted = 1;
    for (;;) {
        c = next_char(r);
        if (c == EOF) {
            note_bad(r, "unterminated quoted field");
            r->err_c = EOF;
            return BROKEN;
        }
        if (c == '"') {
            c = next_char(r);
            if (c != '"')
                return c;
        } else if (c == '\r') {
            c = after_cr(r);   /* a quoted \r\n is one line break: '\n' */
            if (c == EOF)
                continue;      /* reported at the next turn */
        } else if (c == '\0') {
            note_bad(r, "NUL byte in line");
        }
        if (put(r, c) != 0) {
            r->err_c = c;
            return BROKEN;
        }
    }
}

/* Unquoted data from c up to a separator; returns it (',', '\n', EOF) or BROKEN. */
static int read_plain(sremrt_csv *r, int c, size_t start)
{
    for (;; c = next_char(r)) {
        if (c == '\r')
            c = after_cr(r);
        if (c == ',' || c == '\n' || c == EOF)
            break;
        if (c == '\0')
            note_bad(r, "NUL byte in line");
        if (put(r, c) != 0) {
            r->err_c = c;
            return BROKEN;
        }
    }
    while (r->len > start && (r->buf[r->len - 1] == ' ' || r->buf[r->len - 1] == '\t'))
        r->len--;
    return c;
}

/* One field; returns what ended it (',', '\n', EOF) or BROKEN. */
static int read_field(sremrt_csv *r)
{
    size_t start = r->len;
    int c = skip_blanks(r);
    if (c == '"') {
        c = read_quoted(r);
        if (c == BROKEN)
            return BROKEN;
        while (c == ' ' || c == '\t')
            c = next_char(r);
        if (c == '\r')
            c = after_cr(r);
        if (c != ',' && c != '\n' && c != EOF) {
            note_bad(r, "unexpected character after a closing quote");
            r->err_c = c;
            return BROKEN;
        }
    } else {
        c = read_plain(r, c, start);
        if (c == BROKEN)
            return BROKEN;
    }
    if (put(r, '\0') != 0) {
        r->err_c = c;
        return BROKEN;
    }
    if (r->nfields < r->max_columns)
        r->field[r->nfields] = start;
    r->nfields++;
    return c;
}

/* After a record broke off, resynchronizes at the next line break. */
static void skip_line(sremrt_csv *r)
{
    int c = r->err_c;
    while (c != '\n' && c != EOF)
        c = next_char(r);
}

static int is_blank_record(const sremrt_csv *r)
{
    return r->nfields == 1 && !r->quoted && !r->bad && r->buf[0] == '\0';
}

/* One record into buf/field, blank lines skipped: REC_OK, REC_EOF or
 * REC_BAD (reason in r->bad, rest of the line already skipped). */
static int read_record(sremrt_csv *r)
{
    int c;
    for (;;) {
        r->line = r->next_line;
        r->len = 0;
        r->nfields = 0;
        r->quoted = 0;
        r->bad = NULL;
        c = next_char(r);
        if (c == EOF)
            return REC_EOF;
        unread(r, c);
        do
            c = read_field(r);
        while (c == ',');
        if (c == BROKEN) {
            skip_line(r);
            return REC_BAD;
        }
        if (!is_blank_record(r))
            return r->bad ? REC_BAD : REC_OK;
    }
}

static const char *field_text(const sremrt_csv *r, int i)
{
    return r->buf + r->field[i];
}

/* ---- header ------------------------------------------------------------------ */

static int fatal(sremrt_csv *r, const char *a, const char *b, const char *c)
{
    set_msg(r, a, b, c);
    return SREMRT_READ_FATAL;
}

static int map_columns(sremrt_csv *r)
{
    const sremrt_schema *s = r->schema;
    int i, a;
    for (i = 0; i < r->ncols; i++) {
        const char *name = field_text(r, i);
        a = sremrt_schema_find(s, name, strlen(name));
        r->column_attr[i] = a;
        if (a >= 0) {
            int j;
            for (j = 0; j < i; j++)
                if (r->column_attr[j] == a)
                    return fatal(r, "duplicate column \"", name, "\" in CSV header");
        }
    }
    for (a = 0; a < s->nattrs; a++) {
        for (i = 0; i < r->ncols && r->column_attr[i] != a; i++)
            continue;
        if (i == r->ncols)
            return fatal(r, "CSV header lacks attribute \"", s->attrs[a].name, "\"");
    }
    return 0;
}

static int read_header(sremrt_csv *r)
{
    int rc;
    skip_bom(r);
    rc = read_record(r);
    if (rc == REC_EOF)
        return ferror(r->in) ? fatal(r, "read error", NULL, NULL)
                             : fatal(r, "no CSV header: the input is empty", NULL, NULL);
    if (rc == REC_BAD && r->bad == OVERLONG)
        return fatal(r, "CSV header: line longer than the limit", NULL, NULL);
    if (rc == REC_BAD)
        return fatal(r, "CSV header: ", r->bad, NULL);
    if (r->nfields > r->max_columns)
        return fatal(r, "CSV header has more columns than the limit", NULL, NULL);
    r->ncols = r->nfields;
    return map_columns(r);
}

static void init_fields(sremrt_csv *r, const sremrt_schema *s, FILE *in)
{
    memset(r, 0, sizeof *r);
    r->schema = s;
    r->in = in;
    r->next_line = 1;
    r->line = 1;
}

int sremrt_csv_open_buf(sremrt_csv *r, const sremrt_schema *s, FILE *in,
                        const sremrt_csv_config *cfg, void *buf, size_t bytes)
{
    init_fields(r, s, in);
    if (place(r, cfg, buf, bytes) != 0)
        return r->failed = fatal(r, "CSV reader: buffer too small", NULL, NULL);
    return r->failed = read_header(r);
}

int sremrt_csv_open(sremrt_csv *r, const sremrt_schema *s, FILE *in,
                    const sremrt_csv_config *cfg, const sremrt_alloc *a)
{
    size_t bytes = sremrt_csv_bytes(cfg);
    void *mem = sremrt_alloc_get(a, bytes, sizeof(size_t));
    init_fields(r, s, in);
    if (!mem)
        return r->failed = fatal(r, "CSV reader: out of memory for its buffers", NULL, NULL);
    place(r, cfg, mem, bytes);
    r->alloc = *a;
    /* A refused header ends the program: give the buffers back now, so a
     * caller that exits at once leaks nothing (close is then a no-op). */
    if ((r->failed = read_header(r)) != 0)
        sremrt_csv_close(r);
    return r->failed;
}

void sremrt_csv_close(sremrt_csv *r)
{
    if (r->alloc.alloc)
        sremrt_alloc_free(&r->alloc, r->mem, r->bytes);
    r->alloc.alloc = NULL;
    r->mem = NULL;
    r->buf = NULL;
}

/* ---- values ------------------------------------------------------------------ */

/* Decimal int64 with an optional sign: 0, -1 (not a number), -2 (range). */
static int parse_i64(const char *s, int64_t *out)
{
    uint64_t v = 0, limit = (uint64_t)INT64_MAX;
    int neg = 0;
    if (*s == '+' || *s == '-') {
        neg = *s == '-';
        s++;
    }
    if (neg)
        limit += 1;
    if (!*s)
        return -1;
    for (; *s; s++) {
        unsigned d = (unsigned)(*s - '0');
        if (d > 9)
            return -1;
        if (v > (limit - d) / 10)
            return -2;
        v = v * 10 + d;
    }
    *out = neg ? (v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v) : (int64_t)v;
    return 0;
}

static int parse_f64(const char *s, double *out)
{
    char *end;
    if (!*s || isspace((unsigned char)*s))
        return -1;
    *out = strtod(s, &end);
    return *end ? -1 : 0;
}

static int same_nocase(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != *b)
            return 0;
    return *a == *b;
}

static int parse_bool(const char *s, int64_t *out)
{
    if (same_nocase(s, "true") || strcmp(s, "1") == 0)
        *out = 1;
    else if (same_nocase(s, "false") || strcmp(s, "0") == 0)
        *out = 0;
    else
        return -1;
    return 0;
}

static int int_value(sremrt_csv *r, const sremrt_attr *a, const char *text, void *event)
{
    int64_t v = 0;
    int rc = parse_i64(text, &v);
    if (rc == -2) {
        value_msg(r, a, text, "is out of the int64 range");
        return -1;
    }
    if (rc != 0 && a->type == SREMRT_TIMESTAMP)   /* not an integer: an ISO-8601 time? */
        rc = sremrt_parse_iso8601(text, strlen(text), r->schema->ts_unit_ns, &v);
    if (rc != 0) {
        value_msg(r, a, text, a->type == SREMRT_INT ? "is not an int" : sremrt_time_error(rc));
        return -1;
    }
    sremrt_attr_set_int(a, event, v);
    return 0;
}

/* Converts one field into the event; -1 with r->msg set if it does not parse. */
static int store_value(sremrt_csv *r, const sremrt_attr *a, const char *text, void *event)
{
    int64_t v;
    double f;
    int e;
    switch (a->type) {
    case SREMRT_INT:
    case SREMRT_TIMESTAMP:
        return int_value(r, a, text, event);
    case SREMRT_FLOAT:
        if (parse_f64(text, &f) != 0) {
            value_msg(r, a, text, "is not a float");
            return -1;
        }
        sremrt_attr_set_float(a, event, f);
        return 0;
    case SREMRT_BOOL:
        if (parse_bool(text, &v) != 0) {
            value_msg(r, a, text, "is not a bool (true, false, 1 or 0)");
            return -1;
        }
        sremrt_attr_set_int(a, event, v);
        return 0;
    case SREMRT_ENUM:
        e = sremrt_enum_find(a, text, strlen(text));
        if (e < 0) {
            value_msg(r, a, text, "is not a value of its enum");
            return -1;
        }
        sremrt_attr_set_int(a, event, e);
        return 0;
    }
    return -1;
}

/* ---- events ------------------------------------------------------------------ */

static int field_count_msg(sremrt_csv *r)
{
    sremrt_sink s;
    sremrt_sink_init_buf(&s, r->msg, sizeof r->msg);
    sremrt_sink_puts(&s, "expected ");
    sremrt_sink_i64(&s, r->ncols);
    sremrt_sink_puts(&s, r->ncols == 1 ? " field, got " : " fields, got ");
    sremrt_sink_i64(&s, r->nfields);
    sremrt_sink_end(&s);
    return SREMRT_READ_BAD;
}

static int bad_record(sremrt_csv *r)
{
    if (r->bad == OVERLONG) {
        sremrt_sink s;
        sremrt_sink_init_buf(&s, r->msg, sizeof r->msg);
        sremrt_sink_puts(&s, "line longer than ");
        sremrt_sink_u64(&s, r->cap - 1);
        sremrt_sink_puts(&s, " bytes");
        sremrt_sink_end(&s);
    } else {
        set_msg(r, r->bad, NULL, NULL);
    }
    return SREMRT_READ_BAD;
}

int sremrt_csv_next(sremrt_csv *r, void *event)
{
    int i, rc;
    if (r->failed)
        return SREMRT_READ_FATAL;   /* the header was refused: nothing to read */
    if (!r->buf)
        return SREMRT_READ_END;
    rc = read_record(r);
    if (rc == REC_EOF)
        return ferror(r->in) ? fatal(r, "read error", NULL, NULL) : SREMRT_READ_END;
    if (rc == REC_BAD)
        return bad_record(r);
    if (r->nfields != r->ncols)
        return field_count_msg(r);
    memset(event, 0, r->schema->event_size);
    for (i = 0; i < r->ncols; i++) {
        int a = r->column_attr[i];
        if (a >= 0 && store_value(r, &r->schema->attrs[a], field_text(r, i), event) != 0)
            return SREMRT_READ_BAD;
    }
    r->msg[0] = '\0';
    return SREMRT_READ_EVENT;
}

int64_t sremrt_csv_line(const sremrt_csv *r)
{
    return r->line;
}

const char *sremrt_csv_message(const sremrt_csv *r)
{
    return r->msg;
}
