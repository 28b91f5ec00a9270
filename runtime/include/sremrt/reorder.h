/* reorder.h: the reorder buffer of PROG --max-delay (docs/language.md
 * section 6): events arriving up to D late -> released in timestamp order,
 * ties in arrival order, for a matcher that wants them non-decreasing. */
#ifndef SREMRT_REORDER_H
#define SREMRT_REORDER_H

#include <stddef.h>
#include <stdint.h>

#include "alloc.h"
#include "schema.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What sremrt_reorder_add did with an event. */
enum {
    SREMRT_REORDER_HELD = 0,   /* kept until released */
    SREMRT_REORDER_LATE = 1,   /* older than an event already released: not
                                  kept; push it anyway (the matcher rejects
                                  it as out of order) or report it */
    SREMRT_REORDER_FULL = 2    /* no room (capacity, or memory): not kept;
                                  the next sremrt_reorder_next releases the
                                  earliest event early (counted in `early`),
                                  then add it again */
};

/* One held event's place in the heap: its order and the input line. */
typedef struct sremrt_reorder_key {
    int64_t ts;
    uint64_t seq;     /* arrival number: ties in arrival order */
    int64_t line;     /* the caller's line, given back on release */
    size_t slot;      /* where its bytes are */
} sremrt_reorder_key;

typedef struct sremrt_reorder {
    const sremrt_schema *schema;
    int64_t delay;              /* D, in timestamp units */
    sremrt_reorder_key *heap;   /* min-heap on (ts, seq) */
    unsigned char *events;      /* cap slots of schema->event_size bytes */
    size_t *free_slots;         /* slots not in use (a stack) */
    size_t n, cap, nfree;
    uint64_t seq;
    int64_t max_ts;             /* largest timestamp arrived */
    int64_t last;               /* timestamp of the last event released */
    int arrived, released, ending, force;
    sremrt_alloc alloc;         /* alloc NULL: fixed capacity */
    uint64_t early;             /* events released before their time: no room */
    size_t peak;                /* most events held at once */
} sremrt_reorder;

/* Bytes a fixed buffer needs to hold cap events of schema s (any alignment). */
size_t sremrt_reorder_bytes(const sremrt_schema *s, size_t cap);

/* A buffer growing through a (hosted programs). s must have a timestamp
 * and delay >= 0; 0, or -1 if not. */
int sremrt_reorder_init(sremrt_reorder *r, const sremrt_schema *s, int64_t delay, const sremrt_alloc *a);

/* A buffer of fixed capacity over the caller's bytes (firmware): holds
 * cap events, where sremrt_reorder_bytes(s, cap) <= bytes. */
int sremrt_reorder_init_buf(sremrt_reorder *r, const sremrt_schema *s, int64_t delay, void *buf, size_t bytes);

/* Gives the memory back (growing buffers). */
void sremrt_reorder_free(sremrt_reorder *r);

/* Offers one event (copied) with the caller's line number for it. */
int sremrt_reorder_add(sremrt_reorder *r, const void *event, int64_t line);

/* Copies the next released event into event and its line into *line: 1,
 * or 0 when no event is due yet. An event is due once an event with a
 * timestamp more than D after it has arrived, after sremrt_reorder_end,
 * or (FULL) to make room. Call until 0 after each add. */
int sremrt_reorder_next(sremrt_reorder *r, void *event, int64_t *line);

/* End of input: every held event is due. */
void sremrt_reorder_end(sremrt_reorder *r);

#ifdef __cplusplus
}
#endif

#endif
