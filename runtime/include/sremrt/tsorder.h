/* tsorder.h: the timestamp order rule of docs/language.md section 2: an event
 * older than the previous accepted event (whole stream) is rejected. */
#ifndef SREMRT_TSORDER_H
#define SREMRT_TSORDER_H

#include <stddef.h>
#include <stdint.h>

#include "schema.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sremrt_tsorder {
    int64_t last;   /* timestamp of the last accepted event */
    int seen;       /* whether any event was accepted yet */
} sremrt_tsorder;

void sremrt_tsorder_init(sremrt_tsorder *t);

/* 0: accepted (ts becomes the last one); -1: rejected, and msg (if not
 * NULL) gets "timestamp goes backwards (1500 < 1600)". Equal is fine. */
int sremrt_tsorder_accept(sremrt_tsorder *t, int64_t ts, char *msg, size_t cap);

/* The same on an event: always accepted when the schema has no timestamp. */
int sremrt_tsorder_event(sremrt_tsorder *t, const sremrt_schema *s, const void *event,
                         char *msg, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
