/* gen.h: random pattern files and event streams for the differential
 * tests (reference interpreter against every matching strategy). */
#ifndef SREMC_GEN_H
#define SREMC_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eval.h"

/* xorshift64*, seeded by setting s (0 is replaced by a fixed constant). */
typedef struct Rng {
    uint64_t s;
} Rng;

uint64_t rng_next(Rng *r);
/* Uniform-ish in [lo, hi] (inclusive); lo when hi < lo. */
int rng_int(Rng *r, int lo, int hi);

/* What a generated pattern may contain. */
typedef struct GenOpts {
    bool registers;     /* labels x:, y: and reads x.v (only under a window) */
    bool complement;    /* ~R (only under `within N events`) */
    bool intersection;  /* R & S */
    bool time_window;   /* `within D s` besides `within N events` */
    bool partition;     /* `partition by k`, `t`, `u`, or a composite key of 2 or 3 of them */
    bool policies;      /* `policy stam|stnm` on plain sequences of atoms */
    int  max_depth;     /* of the regex tree; <= 0: 3 */
    int  max_window;    /* largest count window; <= 1: 6 (time windows: 1..5 s) */
    bool chains;        /* often: chains (compiler/chain.h), policies or strict
                           sequences of atoms and gaps `_{0,k}`, `_*`, `_?` */
} GenOpts;

/* The schema every generated file declares, and its attribute order. */
#define GEN_SCHEMA "schema E { t : enum { A, B, C }; v : int; k : int; time : timestamp(s); u : string; }\n"
enum { GEN_T, GEN_V, GEN_K, GEN_TIME, GEN_U, GEN_NATTRS };

/* The strings u takes: a stream holds an index into these (any injective
 * ids compare alike, so the oracles need no table); the literals patterns
 * write are the first GEN_NLITERALS, so some values are no literal. */
enum { GEN_NSTRINGS = 4, GEN_NLITERALS = 3 };
extern const char *const gen_strings[GEN_NSTRINGS];

/* Writes into buf (size bytes, always NUL-terminated) a .srem file: the
 * schema above and one random pattern named p. A pattern that does not fit
 * is cut short (and then fails to parse): 2 KiB is plenty. */
void gen_pattern(Rng *r, const GenOpts *o, char *buf, size_t size);

/* As gen_pattern, and often, when the pattern has a window, `absent
 * [COND]` after its body, COND reading its registers (docs/language.md
 * 3.7). */
void gen_pattern_absent(Rng *r, const GenOpts *o, char *buf, size_t size);

/* n random events of E into values (n * GEN_NATTRS): t in {A,B,C}, v and k
 * in 0..3 (so equalities happen), time non-decreasing by gaps of 0..2, u an
 * index into gen_strings. */
void gen_stream(Rng *r, int n, Value *values);

/* The string ids a compiled file gives u's values: nstrings literals
 * (Ast.strings, ids 0..nstrings-1) are their own ids, the other strings
 * come after. Rewrites n events in place, indices -> ids. */
void gen_string_ids(const char *const *strings, int nstrings, Value *values, int n);

/* The first n events of values as a CSV file (header t,v,k,time,u). */
bool gen_write_csv(const char *path, const Value *values, int n);

/* Whether every pattern of the file src checks and strategy (a Strategy;
 * 0: auto, which *chosen then names if not NULL) plans it within
 * max_states states. */
bool gen_applies(const char *src, int strategy, int max_states, int *chosen);

#endif
