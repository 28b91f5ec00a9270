/* num.h: decimal text -> int64 and double, exactly as the C library reads
 * them, without its cost: the number parsers of the event readers (CSV,
 * JSON Lines). Each takes the n bytes at s (no NUL needed; none read past
 * s + n) and accepts them only if the whole text is one number. */
#ifndef SREMRT_NUM_H
#define SREMRT_NUM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SREMRT_NUM_OK      0    /* *out set */
#define SREMRT_NUM_SYNTAX  (-1) /* not a number; *out unchanged */
#define SREMRT_NUM_RANGE   (-2) /* an integer outside int64; *out unchanged */

/* An optional sign ('+' or '-') and one or more decimal digits, nothing
 * else (no blanks, no "0x"): SREMRT_NUM_OK, SREMRT_NUM_SYNTAX, or
 * SREMRT_NUM_RANGE for a value outside [INT64_MIN, INT64_MAX]. Read left to
 * right: the first byte that is not a digit, or the first digit that takes
 * the value out of range, decides ("99999999999999999999x" is RANGE). */
int sremrt_parse_i64(const char *s, size_t n, int64_t *out);

/* What strtod accepts in the C locale when it must consume the whole text
 * and the text does not start with a blank: a decimal number (sign, digits
 * with an optional '.', an optional exponent), a hexadecimal float ("0x1p-3"),
 * "inf", "infinity", "nan", "nan(chars)" in any case, with a sign. The
 * result is bit-identical to strtod's: correctly rounded to nearest, ties
 * to even; too large a value gives +-inf, too small one +-0 or a subnormal,
 * both accepted (strtod's ERANGE is not an error here). SREMRT_NUM_OK or
 * SREMRT_NUM_SYNTAX. Decimal numbers of any length are exact; a hexadecimal
 * or nan(...) text longer than SREMRT_NUM_TEXT_MAX bytes is refused. */
#define SREMRT_NUM_TEXT_MAX 511
int sremrt_parse_f64(const char *s, size_t n, double *out);

/* Prefix scanners for a reader that splits and converts in one pass: the
 * number starting at s ends at the first byte that cannot continue it
 * (that byte must be readable: a separator, or a NUL the reader put after
 * its input). They return that end, with *out set to what the parser above
 * returns for the text [s, end), or NULL (*out unchanged) when the text is
 * not in their simple form; the reader then finds the field's end itself
 * and calls the parser. sremrt_scan_i64: a sign and 1 to 18 digits.
 * sremrt_scan_f64: '-', digits, '.', digits, 1 to 15 digits in all (the
 * exact path of Clinger; NULL where double arithmetic is not IEEE double). */
const char *sremrt_scan_i64(const char *s, int64_t *out);
const char *sremrt_scan_f64(const char *s, double *out);

#ifdef __cplusplus
}
#endif

#endif
