/* ptrie.h: the pattern trie of an explore clause (docs/language.md section 5):
 * a node per prefix of the pattern and of its candidates, with counts,
 * and text and Graphviz dumps. The counting algorithms are in explore.h. */
#ifndef SREMRT_PTRIE_H
#define SREMRT_PTRIE_H

#include <stddef.h>
#include <stdint.h>

#include "alloc.h"
#include "sink.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a node's sequence is to the explore clause. */
typedef enum sremrt_ptrie_role {
    SREMRT_PTRIE_PREFIX,     /* a proper prefix (or the root) */
    SREMRT_PTRIE_PATTERN,    /* p = <ET_1..ET_m> */
    SREMRT_PTRIE_EXTENSION,  /* <ET_1..ET_m, X> */
    SREMRT_PTRIE_VARIATION   /* <ET_1..ET_m-1, X> */
} sremrt_ptrie_role;

/* count: matches counted whose sequence passes through the node (its own
 * and those of every sequence below it); freq: matches counted for the
 * node's sequence itself. Both saturate at UINT64_MAX (see saturated). */
typedef struct sremrt_ptrie_node {
    uint64_t count;
    uint64_t freq;
    int32_t parent;        /* -1 for the root (node 0) */
    int32_t child;         /* first child, -1: none; children sorted by type */
    int32_t sibling;       /* next child of the parent, -1: last */
    int32_t type;          /* event type (enum value index) of the last element; -1 root */
    int32_t depth;         /* sequence length; 0 for the root */
    uint8_t end;           /* end-of-pattern: a counted sequence ends here */
    uint8_t role;          /* sremrt_ptrie_role */
    uint8_t suggested;     /* a suggest record was given for it */
} sremrt_ptrie_node;

/* Nodes live in one array of fixed capacity; node 0 is the root. */
typedef struct sremrt_ptrie {
    sremrt_ptrie_node *nodes;
    int32_t count;          /* nodes in use (>= 1 once initialized) */
    int32_t capacity;
    uint64_t overflows;     /* nodes refused because the trie was full */
    uint64_t saturated;     /* additions that hit UINT64_MAX */
    sremrt_alloc alloc;     /* alloc NULL: caller's buffer */
    void *mem;
    size_t bytes;
} sremrt_ptrie;

/* Largest capacity accepted. */
#define SREMRT_PTRIE_MAX (1 << 24)

/* Bytes a caller buffer needs for `capacity` nodes (any alignment); 0 if
 * capacity is out of 1..SREMRT_PTRIE_MAX. */
size_t sremrt_ptrie_bytes(int32_t capacity);

/* 0, or -1 when capacity is out of range or memory is missing (the trie is
 * then empty: capacity 0, every insertion refused). */
int sremrt_ptrie_init_buf(sremrt_ptrie *t, int32_t capacity, void *buf, size_t bytes);
int sremrt_ptrie_init(sremrt_ptrie *t, int32_t capacity, const sremrt_alloc *a);
void sremrt_ptrie_free(sremrt_ptrie *t);

/* Back to the root alone, counts zero; keeps overflows and saturated. */
void sremrt_ptrie_clear(sremrt_ptrie *t);

/* Child of node by type, or -1. */
int32_t sremrt_ptrie_child(const sremrt_ptrie *t, int32_t node, int32_t type);

/* Child of node by type, added if absent (role PREFIX, counts 0); -1 when
 * the trie is full (counted in overflows) or node/type is invalid. */
int32_t sremrt_ptrie_add_child(sremrt_ptrie *t, int32_t node, int32_t type);

/* Node of seq[0..n-1], adding the missing path; -1 as add_child. */
int32_t sremrt_ptrie_insert(sremrt_ptrie *t, const int32_t *seq, int32_t n);

/* Counts k matches of node's sequence: node's freq and end flag, and count
 * of node and every ancestor up to the root, saturating. */
void sremrt_ptrie_add(sremrt_ptrie *t, int32_t node, uint64_t k);

/* All matches counted: the root's count. */
uint64_t sremrt_ptrie_total(const sremrt_ptrie *t);

/* freq(node) / total, 0 when nothing was counted. */
double sremrt_ptrie_confidence(const sremrt_ptrie *t, int32_t node);

/* Writes node's sequence (root first) into types[0..cap-1]; returns its
 * length (which may exceed cap: then only cap types are written). */
int32_t sremrt_ptrie_sequence(const sremrt_ptrie *t, int32_t node, int32_t *types, int32_t cap);

/* Text dump, one node per line, depth-first, children in type order:
 *     <root> count=9
 *       A count=9
 *         A B count=9
 *           A B C count=6 freq=3 pattern confidence=0.3333333333333333
 *             A B C D count=3 freq=3 extension confidence=0.3333333333333333 suggested
 * freq and confidence on end nodes only. names[type] (nnames of them) name
 * the types; NULL or out of range: #N. */
void sremrt_ptrie_emit_text(sremrt_sink *s, const sremrt_ptrie *t,
                            const char *const *names, int32_t nnames);

/* Graphviz dot: `digraph NAME { ... }`, a box per node (last type, count,
 * freq, confidence), an edge per child; end nodes drawn bold, suggested
 * ones filled. */
void sremrt_ptrie_emit_dot(sremrt_sink *s, const sremrt_ptrie *t, const char *name,
                           const char *const *names, int32_t nnames);

#ifdef __cplusplus
}
#endif

#endif
