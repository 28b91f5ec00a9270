/* cg_writer.h: generated C text -> named sections (the template's block
 * holes), written a line at a time at a nesting level; the writer owns the
 * indentation, and a block hole's own column is added when the template is
 * filled (cg_fill). */
#ifndef SREMC_CG_WRITER_H
#define SREMC_CG_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A memstream that collects one section's text. */
typedef struct Buf {
    char  *text;
    size_t len;
    FILE  *f;
} Buf;

/* The sections of a matcher, in the order of Cg's named members (cg_impl.h). */
typedef enum CgSec {
    CG_CODE,       /* PATTERN_CODE: per declaration, state types, conditions, steps */
    CG_FIELDS,     /* the matcher struct's members */
    CG_INIT,       /* INIT_CODE: allocations and set-up in init */
    CG_PUSH,       /* PUSH_CODE: each declaration's step on e, in push_each's loop */
    CG_FREE,       /* FREE_CODE: what init allocated, given back */
    CG_EXTERNS,    /* EXTERNS: prototypes of the extern predicates */
    CG_FINISH,     /* FINISH_CODE: summaries at the end of input */
    CG_TRIE,       /* TRIE_CODE: the explore tries, in trie_emit */
    CG_TYPES,      /* TYPES_H or TYPES_C: the state types and the matcher struct */
    CG_HEAP,       /* the terms of NAME_ARENA_BYTES (--freestanding) */
    CG_MANY_IN,    /* MANY_IN: pattern states copied into locals */
    CG_MANY_OUT,   /* MANY_OUT: and back */
    CG_RUN,        /* RUN_CODE: a one-pattern file's threaded run function */
    CG_CANON,      /* CANON_CODE: the replay of start and bindings (cg_canon.c) */
    CG_STATE,      /* STATE_CODE: each declaration's part of the checkpoint walk (cg_state.c) */
    CG_MANY_FAST,  /* MANY_FAST: push_many's own loop, or empty */
    CG_NSECTIONS
} CgSec;

/* The template hole of a section, or NULL (filled another way). */
const char *cg_sec_hole(CgSec s);

void        cg_buf_open(Buf *b);
const char *cg_buf_close(Buf *b);   /* without trailing newlines: the template has its own */
void        cg_bufs_open(Buf *b, int n);
void        cg_bufs_close(Buf *b, int n);
void        cg_bufs_free(Buf *b, int n);

/* One line at nesting level (4 spaces each), printf-style; a '\n' inside
 * starts another line at the same level. */
void cg_line(Buf *b, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* An empty line. */
void cg_blank(Buf *b);
/* The start of a line (its indentation) and its end, for lines that
 * helpers such as cg_put_c_string fill in between (write to b->f). */
void cg_begin(Buf *b, int level);
void cg_end(Buf *b);
/* text (several lines, each without indentation) at a nesting level. */
void cg_block(Buf *b, int level, const char *text);

#endif
