/* canon.h: the canonical match of a detection (docs/language.md 3.4),
 * found at detection time by a replay over the window's events: a small
 * backtracking matcher that walks a static description of the pattern
 * which sremc emits. A detection is rare next to an event, so none of
 * this runs on the per-event path. */
#ifndef SREMRT_CANON_H
#define SREMRT_CANON_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sremrt_canon_kind {
    SREMRT_CN_ATOM,   /* one event: a = condition number (-1: any), b = register written (-1) */
    SREMRT_CN_SEQ,    /* a then b */
    SREMRT_CN_ALT,    /* a, else b */
    SREMRT_CN_AND,    /* a and b over the same span */
    SREMRT_CN_NOT,    /* ~a: a non-empty span of at most min events that a does not match */
    SREMRT_CN_REP,    /* a{min,max}; max -1: unbounded (R* R+ R? too) */
    SREMRT_CN_EMPTY   /* the empty sequence (R{0}) */
} sremrt_canon_kind;

typedef struct sremrt_canon_node {
    int32_t kind;
    int32_t a, b;
    int32_t min, max;
} sremrt_canon_node;

/* Condition number k on event e, registers given as events (NULL: empty). */
typedef int (*sremrt_canon_cond)(int32_t k, const void *e, const void *const *regs);

typedef enum sremrt_canon_policy { SREMRT_CANON_STRICT, SREMRT_CANON_STNM, SREMRT_CANON_STAM } sremrt_canon_policy;

typedef struct sremrt_canon_pat {
    const sremrt_canon_node *nodes;
    int32_t root;              /* strict: the body */
    int32_t policy;            /* sremrt_canon_policy */
    const int32_t *chain;      /* stam, stnm: the atoms' nodes, in order */
    int32_t nchain;
    int32_t nregs;
    sremrt_canon_cond cond;
} sremrt_canon_pat;

/* One replay. ev[0..n) are the candidate events oldest first, ev[n - 1]
 * the detection's; a start may be at first or later (the window). */
typedef struct sremrt_canon_io {
    const void *const *ev;
    int32_t n, first;
    int64_t budget;            /* steps allowed (<= 0: SREMRT_CANON_BUDGET) */
    int32_t *bind;             /* out [nregs]: position in ev of each register's
                                  last binding, -1 absent */
    int32_t *pos;              /* scratch [nregs] */
    const void **regs;         /* scratch [nregs] */
} sremrt_canon_io;

#define SREMRT_CANON_BUDGET 1000000
/* Nested calls of the parse, about two per event of a greedy repetition:
 * deeper gives up as the budget does (about 100 bytes of stack each). */
#ifndef SREMRT_CANON_MAX_DEPTH
#define SREMRT_CANON_MAX_DEPTH 20000
#endif

/* The start's position in ev (bind filled), -1 if no match ends at
 * n - 1, -2 if the budget or the depth ran out first (the caller reports
 * the start unknown rather than guess). */
int32_t sremrt_canon_find(const sremrt_canon_pat *p, sremrt_canon_io *io);

/* The parse from start j alone, where the matcher knows the start (the
 * runs strategy): j (bind filled) if ev[j..n) match, else as
 * sremrt_canon_find. */
int32_t sremrt_canon_at(const sremrt_canon_pat *p, sremrt_canon_io *io, int32_t j);

#ifdef __cplusplus
}
#endif

#endif
