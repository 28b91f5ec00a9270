/* chain.h: register-free patterns that are chains of single-event atoms,
 * matched by one "latest position" tag per atom instead of an automaton
 * (docs/codegen.md, "tdfa as chains"):
 *
 *   policy stam|stnm { A_1 .. A_m }, any window: tag r is the latest start
 *     of a partial chain A_1..A_r; a detection at A_m when the latest start
 *     of A_1..A_(m-1) is inside the window;
 *   A_1 G_1 A_2 .. G_(m-1) A_m without a window (strict), each gap G_r
 *     nothing, `_{0,k}` or `_*`: tag r is the latest end of a match of
 *     A_1 .. A_r; A_(r+1) extends it when the gap since is at most k.
 *
 * Why the latest position is enough, for each kind: chain.c. */
#ifndef SREMC_CHAIN_H
#define SREMC_CHAIN_H

#include <stdint.h>
#include <stdio.h>

#include "arena.h"
#include "ast.h"

typedef enum ChainKind { CHAIN_STAM, CHAIN_STNM, CHAIN_GAPS } ChainKind;

/* Longest chain matched this way; longer ones keep their automaton. */
enum { CHAIN_MAX_LINKS = 64 };

typedef struct ChainLink {
    const AstExpr *cond;   /* NULL: `_`, any event */
    int64_t        gap;    /* CHAIN_GAPS: most events skipped before this
                              atom, -1 unbounded; 0 for link 0 */
} ChainLink;

typedef struct Chain {
    ChainKind  kind;
    int        n;            /* links, 1..CHAIN_MAX_LINKS */
    ChainLink *links;
    WindowKind window_kind;  /* CHAIN_GAPS: always WIN_NONE */
    int64_t    window;       /* events, or timestamp units */
} Chain;

/* A gap chain whose matches span at most this many events finds a
 * record's start by a backward scan of its last events at the detection
 * (cg_canon.c), whatever its layout: tables serve it as well as the
 * chain's tags (B2 at w = 10). */
enum { CHAIN_SCAN_MAX = 32 };

/* The most events a match of gap chain c spans, or -1 (an unbounded gap,
 * or not a gap chain). */
int64_t chain_span(const Chain *c);

/* The chain of p, or NULL when p is not one (registers, operators other
 * than the gaps, gaps with a lower bound, a strict sequence under a
 * window, more than CHAIN_MAX_LINKS atoms). */
Chain *chain_of(const AstPattern *p, Arena *arena);

/* Text form for `sremc dump`: the kind, the window, then one line per
 * atom (its condition) and per gap. */
void chain_dump_txt(const Chain *c, const char *name, FILE *out);

#endif
