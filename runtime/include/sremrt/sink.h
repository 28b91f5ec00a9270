/* sink.h: a byte sink for text output: either a caller buffer that keeps
 * what fits (snprintf-style) or a small buffer flushed through a callback. */
#ifndef SREMRT_SINK_H
#define SREMRT_SINK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Formatting never fails: a full buffer truncates (buffer mode) or flushes
 * (flush mode), and `total` always counts every byte produced. */
typedef struct sremrt_sink {
    char *buf;          /* caller's buffer */
    size_t cap;         /* its size in bytes */
    size_t len;         /* bytes held in buf */
    size_t total;       /* bytes produced, kept or not */
    void (*flush)(void *ctx, const char *p, size_t n);  /* NULL: buffer mode */
    void *ctx;          /* flush's context (a FILE *, a UART, ...) */
} sremrt_sink;

/* Buffer mode: keeps the first cap-1 bytes, NUL-terminated by sink_end. */
void sremrt_sink_init_buf(sremrt_sink *s, char *buf, size_t cap);

/* Flush mode: hands buf's content to flush whenever it fills, and at end. */
void sremrt_sink_init_flush(sremrt_sink *s, char *buf, size_t cap,
                            void (*flush)(void *ctx, const char *p, size_t n), void *ctx);

/* Terminates (buffer mode) or flushes the rest (flush mode); returns the
 * number of bytes produced, like snprintf (truncation: total >= cap). */
size_t sremrt_sink_end(sremrt_sink *s);

void sremrt_sink_putc(sremrt_sink *s, char c);
void sremrt_sink_putn(sremrt_sink *s, const char *p, size_t n);
void sremrt_sink_puts(sremrt_sink *s, const char *str);
void sremrt_sink_i64(sremrt_sink *s, int64_t v);
void sremrt_sink_u64(sremrt_sink *s, uint64_t v);

/* Shortest %g form that reads back as the same double (0.4, not
 * 0.40000000000000002); JSON has no NaN or infinity: those write `null`. */
void sremrt_sink_f64(sremrt_sink *s, double v);

/* The same for a float32 attribute: the shortest %g form that reads back
 * (0.1, not 0.100000001); --freestanding: 9 significant digits. */
void sremrt_sink_f32(sremrt_sink *s, float v);

/* A JSON string literal: quotes, escapes for `"`, `\` and control bytes,
 * and U+FFFD for bytes that are not valid UTF-8 (input lines may hold any). */
void sremrt_sink_json_str(sremrt_sink *s, const char *str);

/* Free text for people: as is, but control bytes escaped as in JSON and
 * invalid UTF-8 shown as U+FFFD (one message must stay on one line). */
void sremrt_sink_text(sremrt_sink *s, const char *str);

/* As sink_json_str, but without quotes when str is a plain word (no
 * spaces, quotes, `=`, `<`, `>`, `\`, control bytes, not empty): text output. */
void sremrt_sink_word(sremrt_sink *s, const char *str);

#ifdef __cplusplus
}
#endif

#endif
