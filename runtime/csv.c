/* csv.c: CSV text (RFC 4180 quoting, docs/language.md section 6 rules) -> events
 * in the generated struct. Input comes in blocks; a record is split in place
 * by bit masks of its structural bytes (SIMD where the target has it), and
 * any record the masks cannot settle (a '""' quote, a quoted line break, a
 * lone '\r', a NUL, the end of input without a line break, an overlong line)
 * is read again byte by byte into a bounded buffer, the rules' reference. */
#if !defined(_POSIX_C_SOURCE) && (defined(__unix__) || defined(__APPLE__))
#define _POSIX_C_SOURCE 200809L
#endif
#include "sremrt/csv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#if defined(_POSIX_VERSION) || defined(_POSIX_C_SOURCE)
#include <sys/stat.h>
#include <unistd.h>
#define CSV_POSIX 1
#endif
#if defined(SREMRT_CSV_SCALAR)
/* the portable masks only (a test of that path on any host) */
#elif defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define CSV_SSE2 1
#elif defined(__ARM_NEON) && defined(__aarch64__)
#include <arm_neon.h>
#define CSV_NEON 1
#endif

#include "sremrt/num.h"
#include "sremrt/isotime.h"
#include "sremrt/sink.h"

#ifdef SREMRT_CSV_NO_PLAIN
#define PLAIN_PATH 0   /* tests/runtime/csv_ref.c: the masks and the careful path alone */
#else
#define PLAIN_PATH 1
#endif

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

/* The input block: twice the longest record, within [2 chunks, BLOCK]; a
 * small reader (a caller buffer) reads more often, never wrongly. */
static size_t block_bytes(size_t line_cap)
{
    size_t b = line_cap < SREMRT_CSV_BLOCK / 2 ? 2 * line_cap : SREMRT_CSV_BLOCK;
    return b < 2 * SREMRT_CSV_SLACK ? 2 * SREMRT_CSV_SLACK : b;
}

/* Layout: field offsets and lengths, column map, record buffer, input block
 * and its slack; slack before them aligns the first. */
static size_t layout_bytes(size_t line_cap, int max_columns)
{
    return (size_t)max_columns * (2 * sizeof(size_t) + sizeof(int)) + line_cap + 1 +
           block_bytes(line_cap) + SREMRT_CSV_SLACK;
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
    r->field_len = r->field + max_columns;
    r->column_attr = (int *)(void *)(r->field_len + max_columns);
    r->buf = (char *)(r->column_attr + max_columns);
    r->cap = line_cap + 1;
    r->blk = r->buf + r->cap;
    r->blk_cap = block_bytes(line_cap);
    /* defined bytes past the input: the masks read whole chunks */
    memset(r->blk, 0, r->blk_cap + SREMRT_CSV_SLACK);
    r->rec = r->buf;
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
static void value_msg(sremrt_csv *r, const sremrt_attr *a, const char *value, size_t n,
                      const char *what)
{
    sremrt_sink s;
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

/* ---- input blocks ------------------------------------------------------------ */

#define NO_CHUNK ((size_t)-1)

/* Up to n bytes into p: 0 at the end of input or on a read error. A
 * descriptor returns what has arrived, so a pipe's lines are not held back. */
static size_t read_some(sremrt_csv *r, char *p, size_t n)
{
#ifdef CSV_POSIX
    if (r->fd >= 0) {
        for (;;) {
            ssize_t got = read(r->fd, p, n);
            if (got >= 0)
                return (size_t)got;
            if (errno != EINTR) {
                r->read_error = 1;
                return 0;
            }
        }
    }
#endif
    return fread(p, 1, n, r->in);
}

/* Drops the bytes before `keep`, moving the rest to the front, and reads
 * more after them: the bytes added, 0 at the end of input, on an error or
 * when the block is full. */
static size_t read_more(sremrt_csv *r, size_t keep)
{
    size_t got;
    if (keep > 0) {
        memmove(r->blk, r->blk + keep, r->end - keep);
        r->end -= keep;
        r->pos -= keep;
        r->blk[r->end] = '\0';
    }
    r->chunk = NO_CHUNK;
    if (r->eof || r->end == r->blk_cap)
        return 0;
    got = read_some(r, r->blk + r->end, r->blk_cap - r->end);
    if (got == 0)
        r->eof = 1;
    r->end += got;
    r->blk[r->end] = '\0';    /* stops plain_event's scans at the end of input */
    return got;
}

static int read_failed(const sremrt_csv *r)
{
    return r->read_error || ferror(r->in);
}

/* Reads the descriptor of a pipe or terminal itself (no stdio buffering
 * between the lines and the matcher); a regular file, or a FILE without a
 * descriptor, through fread. */
static int direct_fd(FILE *in)
{
#ifdef CSV_POSIX
    struct stat st;
    int fd = fileno(in);
    if (fd >= 0 && fstat(fd, &st) == 0 && !S_ISREG(st.st_mode))
        return fd;
#else
    (void)in;
#endif
    return -1;
}

/* ---- bytes, one at a time (the careful path) ---------------------------------- */

static int next_char(sremrt_csv *r)
{
    int c;
    if (r->npending)
        c = r->pending[--r->npending];
    else if (r->pos == r->end && read_more(r, r->pos) == 0)
        return EOF;
    else
        c = (unsigned char)r->blk[r->pos++];
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

/* ---- records by masks (the fast path) --------------------------------------------- */

enum { FAST_OK, FAST_SLOW, FAST_MORE };

#define CHUNK 64   /* bytes one mask covers */

#if defined(CSV_SSE2)
/* Bit i set when p[i] is ',' '\n' '"' '\r' or NUL, for 64 bytes. */
static uint64_t stop_bits(const char *p)
{
    const __m128i comma = _mm_set1_epi8(','), nl = _mm_set1_epi8('\n');
    const __m128i quote = _mm_set1_epi8('"'), cr = _mm_set1_epi8('\r'), nul = _mm_setzero_si128();
    uint64_t m = 0;
    int k;
    for (k = 0; k < CHUNK / 16; k++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k));
        __m128i a = _mm_or_si128(_mm_cmpeq_epi8(v, comma), _mm_cmpeq_epi8(v, nl));
        __m128i b = _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, cr));
        a = _mm_or_si128(a, _mm_or_si128(b, _mm_cmpeq_epi8(v, nul)));
        m |= (uint64_t)(uint16_t)_mm_movemask_epi8(a) << (16 * k);
    }
    return m;
}
#elif defined(CSV_NEON)
static uint8x16_t stop_bytes(const char *p)
{
    uint8x16_t v = vld1q_u8((const uint8_t *)(const void *)p);
    uint8x16_t a = vorrq_u8(vceqq_u8(v, vdupq_n_u8(',')), vceqq_u8(v, vdupq_n_u8('\n')));
    uint8x16_t b = vorrq_u8(vceqq_u8(v, vdupq_n_u8('"')), vceqq_u8(v, vdupq_n_u8('\r')));
    return vorrq_u8(a, vorrq_u8(b, vceqq_u8(v, vdupq_n_u8(0))));
}

/* Bit i set when p[i] is ',' '\n' '"' '\r' or NUL, for 64 bytes: each
 * byte's match weighted by its bit, then summed pairwise down to 8 bytes. */
static uint64_t stop_bits(const char *p)
{
    static const uint8_t weight[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    uint8x16_t w = vld1q_u8(weight);
    uint8x16_t a = vandq_u8(stop_bytes(p), w), b = vandq_u8(stop_bytes(p + 16), w);
    uint8x16_t c = vandq_u8(stop_bytes(p + 32), w), d = vandq_u8(stop_bytes(p + 48), w);
    uint8x16_t s = vpaddq_u8(vpaddq_u8(a, b), vpaddq_u8(c, d));
    s = vpaddq_u8(s, s);
    return vgetq_lane_u64(vreinterpretq_u64_u8(s), 0);
}
#else
/* Bit i set when p[i] is ',' '\n' '"' '\r' or NUL, for 64 bytes. */
static uint64_t stop_bits(const char *p)
{
    uint64_t m = 0;
    int i;
    for (i = CHUNK - 1; i >= 0; i--) {
        char c = p[i];
        m = m << 1 | (uint64_t)(c == ',' || c == '\n' || c == '"' || c == '\r' || c == '\0');
    }
    return m;
}
#endif

static int lowest_bit(uint64_t m)
{
#if defined(__GNUC__)
    return __builtin_ctzll(m);
#else
    int n = 0;
    while (!(m & 1)) {
        m >>= 1;
        n++;
    }
    return n;
#endif
}

/* The masks of the CHUNK bytes at blk + at; bytes past the input cleared
 * (the slack after the block keeps the loads inside the buffer). */
static void load_chunk(sremrt_csv *r, size_t at)
{
    uint64_t m = stop_bits(r->blk + at);
    size_t valid = r->end - at;
    if (valid < CHUNK)
        m &= ((uint64_t)1 << valid) - 1;
    r->chunk = at;
    r->stop = m;
}

/* Offset of the first structural byte at or after `at`, or r->end. */
static size_t next_stop(sremrt_csv *r, size_t at)
{
    while (at < r->end) {
        uint64_t m;
        if (r->chunk == NO_CHUNK || at < r->chunk || at >= r->chunk + CHUNK)
            load_chunk(r, at);
        m = r->stop & ~(((uint64_t)1 << (at - r->chunk)) - 1);
        if (m)
            return r->chunk + (size_t)lowest_bit(m);
        at = r->chunk + CHUNK;
    }
    return r->end;
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* A quoted field whose opening quote is at q: its text is [q + 1, close),
 * and *sep gets the ',' or '\n' after the closing quote and blanks. Quoted
 * line breaks, '\r', NUL and '""' are left to the careful path. */
static int quoted_field(sremrt_csv *r, size_t q, size_t *close, size_t *sep)
{
    const char *b = r->blk;
    size_t i = q + 1, j;
    for (;;) {
        i = next_stop(r, i);
        if (i == r->end)
            return FAST_MORE;
        if (b[i] == '"')
            break;
        if (b[i] != ',')
            return FAST_SLOW;
        i++;
    }
    *close = i;
    for (j = i + 1; j < r->end && is_blank(b[j]); j++)
        continue;
    if (j + 1 >= r->end)
        return FAST_MORE;                  /* the byte after it decides */
    if (b[j] == '\r' && b[j + 1] == '\n')
        j++;
    if (b[j] != ',' && b[j] != '\n')
        return FAST_SLOW;                  /* '""', or a byte after the quote */
    *sep = j;
    return FAST_OK;
}

/* The structural bits at and after `at` in its chunk (loaded if need be). */
static uint64_t bits_from(sremrt_csv *r, size_t at)
{
    if (r->chunk == NO_CHUNK || at < r->chunk || at >= r->chunk + CHUNK)
        load_chunk(r, at);
    return r->stop & ~(((uint64_t)1 << (at - r->chunk)) - 1);
}

/* Splits the line at r->pos into fields (offsets and lengths in the block,
 * the block untouched): FAST_OK (pos after the line), FAST_SLOW (a byte the
 * careful path must see; nothing consumed) or FAST_MORE (no line break in
 * the block yet). Walks the set bits of the masks: one step a field. */
static int split_line(sremrt_csv *r)
{
    const char *b = r->blk;
    size_t fs = r->pos, total = 0, p, start, stop;
    uint64_t m = bits_from(r, fs);
    int nf = 0, quoted = 0;
    char c;
    do {
        while (!m) {
            if (r->chunk + CHUNK >= r->end)
                return FAST_MORE;
            load_chunk(r, r->chunk + CHUNK);
            m = r->stop;
        }
        p = r->chunk + (size_t)lowest_bit(m);
        m &= m - 1;
        start = fs;
        if ((unsigned char)b[start] <= ' ')   /* cheap test first: blanks are rare */
            while (start < p && is_blank(b[start]))
                start++;
        c = b[p];
        if (c == ',' || c == '\n') {
            total += p - start + 1;
            stop = p;
            if (stop > start && (unsigned char)b[stop - 1] <= ' ')
                while (stop > start && is_blank(b[stop - 1]))
                    stop--;
        } else if (c == '"') {
            int rc;
            if (start != p)
                return FAST_SLOW;          /* a quote inside unquoted data */
            rc = quoted_field(r, p, &stop, &p);
            if (rc != FAST_OK)
                return rc;
            start++;
            quoted = 1;
            total += stop - start + 1;
            m = bits_from(r, p + 1);
        } else {
            if (c == '\r') {
                if (p + 1 == r->end)
                    return FAST_MORE;
                if (b[p + 1] != '\n')
                    return FAST_SLOW;      /* a '\r' inside a field */
            } else if (c == '\0') {
                return FAST_SLOW;
            }
            total += p - start + 1;        /* as the careful path counts, blanks included */
            for (stop = p; stop > start && is_blank(b[stop - 1]); stop--)
                continue;
            p += c == '\r';
        }
        if (nf < r->max_columns) {
            r->field[nf] = start;
            r->field_len[nf] = stop - start;
        }
        nf++;
        fs = p + 1;
    } while (b[p] == ',');
    if (total > r->cap)
        return FAST_SLOW;                  /* maybe overlong: the careful path decides */
    r->rec = b;
    r->nfields = nf;
    r->quoted = quoted;
    r->pos = fs;
    r->next_line++;
    return FAST_OK;
}

/* One line by the masks, reading more input as needed: FAST_OK or
 * FAST_SLOW (the careful path takes the line; also at the end of input). */
static int fast_record(sremrt_csv *r)
{
    for (;;) {
        int rc = split_line(r);
        if (rc != FAST_MORE)
            return rc;
        if (read_more(r, r->pos) == 0)
            return FAST_SLOW;              /* a line longer than the block, or the last one */
    }
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
    if (r->nfields < r->max_columns) {
        r->field[r->nfields] = start;
        r->field_len[r->nfields] = r->len - 1 - start;
    }
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
    return r->nfields == 1 && !r->quoted && !r->bad && r->field_len[0] == 0;
}

/* One record byte by byte into buf: what read_record does when the masks
 * cannot settle it. */
static int careful_record(sremrt_csv *r)
{
    int c;
    r->rec = r->buf;
    r->len = 0;
    r->nfields = 0;
    r->quoted = 0;
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
    return r->bad ? REC_BAD : REC_OK;
}

/* One record into rec/field, blank lines skipped: REC_OK, REC_EOF or
 * REC_BAD (reason in r->bad, rest of the line already skipped). */
static int read_record(sremrt_csv *r)
{
    int rc;
    for (;;) {
        r->line = r->next_line;
        r->bad = NULL;
        if (r->npending || fast_record(r) != FAST_OK) {
            rc = careful_record(r);
            if (rc != REC_OK)
                return rc;
        }
        if (!is_blank_record(r))
            return REC_OK;
    }
}

static const char *field_text(const sremrt_csv *r, int i)
{
    return r->rec + r->field[i];
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
        a = sremrt_schema_find(s, name, r->field_len[i]);
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

/* The header goes byte by byte (its names are NUL-terminated in buf, as
 * the fatal messages want them). */
static int read_header(sremrt_csv *r)
{
    int rc;
    skip_bom(r);
    do {
        r->line = r->next_line;
        r->bad = NULL;
        rc = careful_record(r);
    } while (rc == REC_OK && is_blank_record(r));
    if (rc == REC_EOF)
        return read_failed(r) ? fatal(r, "read error", NULL, NULL)
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
    r->fd = in ? direct_fd(in) : -1;
    r->chunk = NO_CHUNK;
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

/* The n bytes at s are `word` (lower-case letters) in any case: a byte
 * with bit 5 set is a lower-case letter only if it was one or its upper
 * case, so no tolower call (whose answer in the C locale is the same). */
static int same_nocase(const char *s, size_t n, const char *word)
{
    size_t i;
    for (i = 0; i < n && word[i]; i++)
        if (((unsigned char)s[i] | 0x20) != (unsigned char)word[i])
            return 0;
    return i == n && word[i] == '\0';
}

static int parse_bool(const char *s, size_t n, uint8_t *out)
{
    if (same_nocase(s, n, "true") || (n == 1 && s[0] == '1'))
        *out = 1;
    else if (same_nocase(s, n, "false") || (n == 1 && s[0] == '0'))
        *out = 0;
    else
        return -1;
    return 0;
}


/* Converts one field into the event at the attribute's offset, in the
 * C type of its schema type; -1 with r->msg set if it does not parse. */
static int store_value(sremrt_csv *r, const sremrt_attr *a, const char *text, size_t len,
                       void *event)
{
    unsigned char *at = (unsigned char *)event + a->offset;
    int64_t v;
    double f;
    int32_t e;
    int rc;
    switch (a->type) {
    case SREMRT_INT:
    case SREMRT_TIMESTAMP:
        rc = sremrt_parse_i64(text, len, &v);
        if (rc == SREMRT_NUM_SYNTAX && a->type == SREMRT_TIMESTAMP) {   /* not an integer: an ISO-8601 time? */
            rc = sremrt_parse_iso8601(text, len, r->schema->ts_unit_ns, &v);
            if (rc != SREMRT_TIME_OK) {
                value_msg(r, a, text, len, sremrt_time_error(rc));
                return -1;
            }
        }
        if (rc == SREMRT_NUM_OK) {
            memcpy(at, &v, sizeof v);
            return 0;
        }
        value_msg(r, a, text, len, rc == SREMRT_NUM_RANGE ? "is out of the int64 range" : "is not an int");
        return -1;
    case SREMRT_FLOAT:
    case SREMRT_FLOAT32:
        if (sremrt_parse_f64(text, len, &f) == SREMRT_NUM_OK) {
            sremrt_attr_set_float(a, event, f);
            return 0;
        }
        value_msg(r, a, text, len, "is not a float");
        return -1;
    case SREMRT_BOOL:
        if (parse_bool(text, len, at) == 0)
            return 0;
        value_msg(r, a, text, len, "is not a bool (true, false, 1 or 0)");
        return -1;
    case SREMRT_STRING:
        v = r->strings ? sremrt_strtab_intern(r->strings, text, len) : -1;
        if (v >= 0) {
            memcpy(at, &v, sizeof v);
            return 0;
        }
        value_msg(r, a, text, len, r->strings ? "does not fit: the string table is full"
                                              : "is a string, and the reader has no string table");
        return -1;
    case SREMRT_ENUM:
        e = sremrt_enum_find(a, text, len);
        if (e >= 0) {
            memcpy(at, &e, sizeof e);
            return 0;
        }
        value_msg(r, a, text, len, "is not a value of its enum");
        return -1;
    }
    return -1;
}

/* ---- plain records (the fastest path) ----------------------------------------- */

/* Bytes that end an unquoted field or need the masks or the careful path:
 * ',' '\n' '\r' '"' and NUL (the one plain_event reads at the end of input). */
static const unsigned char field_stop[256] = {
    [0] = 1, ['\n'] = 1, ['\r'] = 1, ['"'] = 1, [','] = 1,
};

#if defined(CSV_SSE2)
/* The first '"' '\n' '\r' or NUL at or after p, 16 bytes at a time:
 * the NUL put after the input ends the search, and the slack after the
 * block keeps the 16-byte loads inside the buffer. */
static const char *quoted_end(const char *p)
{
    const __m128i quote = _mm_set1_epi8('"'), nl = _mm_set1_epi8('\n');
    const __m128i cr = _mm_set1_epi8('\r'), nul = _mm_setzero_si128();
    for (;; p += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i a = _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, nl));
        __m128i b = _mm_or_si128(_mm_cmpeq_epi8(v, cr), _mm_cmpeq_epi8(v, nul));
        int m = _mm_movemask_epi8(_mm_or_si128(a, b));
        if (m)
            return p + lowest_bit((uint64_t)m);
    }
}
#else
/* Bytes that end quoted data, or need the careful path inside it. */
static const unsigned char quote_stop[256] = {
    [0] = 1, ['\n'] = 1, ['\r'] = 1, ['"'] = 1,
};

static const char *quoted_end(const char *p)
{
    while (!quote_stop[(unsigned char)*p])
        p++;
    return p;
}
#endif

/* The text [*s, *s + *n) of the field at p, quoted or not; returns the byte
 * after the field (the caller checks it is a separator), or NULL for what
 * the other paths must see: blanks at an unquoted field's edges (stripped)
 * or around quotes, an empty unquoted field, a '""', a line break, '\r' or
 * NUL inside quotes. */
static const char *plain_field(const char *p, const char **s, size_t *n)
{
    const char *e = p;
    if (*p == '"') {
        e = quoted_end(p + 1);
        if (*e != '"' || e[1] == '"')
            return NULL;
        *s = p + 1;
        *n = (size_t)(e - p - 1);
        return e + 1;
    }
    while (!field_stop[(unsigned char)*e])
        e++;
    if (e == p || is_blank(*p) || is_blank(e[-1]))
        return NULL;
    *s = p;
    *n = (size_t)(e - p);
    return e;
}

/* One column's field at p into the event: the byte after it, or NULL when
 * plain_event must leave the line to the other paths. Unquoted numbers are
 * converted as they are scanned; when the scan stops at a byte that does
 * not end the field (an exponent, a long mantissa), and for the other
 * fields, the field's text goes to store_value: the same bytes the other
 * paths would give it, so the same answers. */
static const char *plain_value(sremrt_csv *r, const sremrt_attr *a, const char *p, void *event)
{
    const char *e, *s;
    size_t n;
    if (a->type == SREMRT_INT || a->type == SREMRT_TIMESTAMP) {
        int64_t v;
        e = sremrt_scan_i64(p, &v);
        if (e && field_stop[(unsigned char)*e]) {
            memcpy((unsigned char *)event + a->offset, &v, sizeof v);
            return e;
        }
    } else if (a->type == SREMRT_FLOAT || a->type == SREMRT_FLOAT32) {
        double f;
        e = sremrt_scan_f64(p, &f);
        if (e && field_stop[(unsigned char)*e]) {
            sremrt_attr_set_float(a, event, f);
            return e;
        }
    }
    e = plain_field(p, &s, &n);
    if (!e || store_value(r, a, s, n, event) != 0)
        return NULL;           /* a bad value: the other paths report it */
    return e;
}

/* An ignored column's field: the byte after it, or NULL. */
static const char *skip_field(const char *p)
{
    const char *s;
    size_t n;
    return plain_field(p, &s, &n);
}

/* The record at r->pos when every field is unquoted and converts, split and
 * converted in one pass without the masks: 0 (pos after it), or -1 with
 * nothing consumed, for the masks and the careful path to take it (what
 * plain_field refuses, another field count, a bad value, a '\r' not before
 * '\n', the end of the block). */
static int plain_event(sremrt_csv *r, void *event)
{
    const sremrt_attr *attrs = r->schema->attrs;
    const char *line = r->blk + r->pos, *p = line;
    int i, last = r->ncols - 1;
    memset(event, 0, r->schema->event_size);
    for (i = 0;; i++) {
        int a = r->column_attr[i];
        p = a >= 0 ? plain_value(r, &attrs[a], p, event) : skip_field(p);
        if (!p)
            return -1;
        if (i == last)
            break;
        if (*p++ != ',')
            return -1;
    }
    if (*p == '\r')
        p++;
    if (*p != '\n' || (size_t)(p - line) >= r->cap || p >= r->blk + r->end)
        return -1;             /* maybe overlong: the careful path decides */
    r->pos = (size_t)(p + 1 - r->blk);
    r->line = r->next_line++;
    return 0;
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
    if (PLAIN_PATH && !r->npending && plain_event(r, event) == 0) {
        r->msg[0] = '\0';
        return SREMRT_READ_EVENT;
    }
    rc = read_record(r);
    if (rc == REC_EOF)
        return read_failed(r) ? fatal(r, "read error", NULL, NULL) : SREMRT_READ_END;
    if (rc == REC_BAD)
        return bad_record(r);
    if (r->nfields != r->ncols)
        return field_count_msg(r);
    {
        /* locals: the stores into the event may alias r for the compiler */
        const sremrt_attr *attrs = r->schema->attrs;
        const char *rec = r->rec;
        const size_t *field = r->field, *len = r->field_len;
        const int *column_attr = r->column_attr;
        int ncols = r->ncols;
        memset(event, 0, r->schema->event_size);
        for (i = 0; i < ncols; i++) {
            int a = column_attr[i];
            if (a >= 0 && store_value(r, &attrs[a], rec + field[i], len[i], event) != 0)
                return SREMRT_READ_BAD;
        }
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
