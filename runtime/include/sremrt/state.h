/* state.h: checkpoints of a generated matcher: the byte format (a header,
 * then the state field by field) and the codec the generated
 * PREFIX_state_size, _save and _load share. One walk over the state serves
 * all three: it counts the bytes, writes them or reads them back. */
#ifndef SREMRT_STATE_H
#define SREMRT_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "episode.h"
#include "explore.h"
#include "keymap.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Error codes of PREFIX_state_save and PREFIX_state_load (0: done). */
enum {
    SREMRT_STATE_OK = 0,
    SREMRT_STATE_ESPACE = -1,    /* save: the buffer is smaller than PREFIX_state_size */
    SREMRT_STATE_EFORMAT = -2,   /* not a checkpoint, truncated or corrupted (checksum) */
    SREMRT_STATE_EVERSION = -3,  /* another checkpoint format or runtime ABI */
    SREMRT_STATE_EFOREIGN = -4,  /* the checkpoint of another pattern file (or of
                                    another build of it: other automata, layouts) */
    SREMRT_STATE_ECONFIG = -5,   /* taken under capacities this matcher does not have
                                    (--occmap-cap, --distinct-budget, --explore-cap,
                                    --explore-algo, a smaller --max-keys/--max-runs) */
    SREMRT_STATE_EMEMORY = -6,   /* the allocator refused what the state needs */
    SREMRT_STATE_EUSED = -7      /* load: the matcher has taken events or finished */
};

/* A short text for an error code ("checkpoint of another pattern file"). */
const char *sremrt_state_strerror(int err);

/* The header: 8 bytes of magic "SREMCKPT", then little-endian u32 format
 * version, u32 runtime ABI, u64 the pattern file's hash (the compiler's
 * constant over the automata, plans and state layouts), u64 events (accepted
 * events the matcher had taken), u64 rejected (events it refused), u64 the
 * body's length, u64 the checksum (FNV-1a 64 over the little-endian 64-bit
 * words, then the bytes left, of the header before it and of the body). */
#define SREMRT_STATE_MAGIC "SREMCKPT"
#define SREMRT_STATE_VERSION 1u
#define SREMRT_STATE_HEADER 56u

typedef struct sremrt_state_info {
    uint32_t version, abi;
    uint64_t hash;
    uint64_t events, rejected;
    uint64_t body;   /* bytes after the header */
} sremrt_state_info;

/* Reads a checkpoint's header without a matcher: 0, or SREMRT_STATE_EFORMAT
 * (too short, no magic, a body longer than len). The checksum is not
 * verified here (load does). */
int sremrt_state_peek(const void *buf, size_t len, sremrt_state_info *info);

/* ---- the codec (generated code calls these) ------------------------------ */

typedef enum sremrt_state_mode {
    SREMRT_STATE_SIZE,   /* count the bytes */
    SREMRT_STATE_SAVE,   /* write them into buf */
    SREMRT_STATE_LOAD    /* read them from buf into the matcher */
} sremrt_state_mode;

typedef struct sremrt_state_io {
    sremrt_state_mode mode;
    unsigned char *buf;   /* save: written; load: read (never written) */
    size_t cap;           /* bytes of buf */
    size_t pos;           /* bytes done */
    int err;              /* the first error (then every call does nothing) */
} sremrt_state_io;

/* Starts a walk: save and load begin with the header (load checks it, and
 * the checksum of the body, before anything is read into a matcher). */
void sremrt_state_begin(sremrt_state_io *io, sremrt_state_mode mode, void *buf, size_t cap);
void sremrt_state_header(sremrt_state_io *io, uint64_t hash, uint64_t events, uint64_t rejected);

/* Ends a walk: save fills in the body's length and checksum; load checks
 * that the body was read to its end. Returns io->err. */
int sremrt_state_end(sremrt_state_io *io);

/* Sets the error (the first one stays). */
void sremrt_state_fail(sremrt_state_io *io, int err);

/* n bytes at p: counted, written or read. The fixed-width integers are
 * stored little-endian whatever the host; bytes as they are (generated
 * state structs: their layout is part of the hash). */
void sremrt_state_bytes(sremrt_state_io *io, void *p, size_t n);
void sremrt_state_u64(sremrt_state_io *io, uint64_t *v);
void sremrt_state_i64(sremrt_state_io *io, int64_t *v);
void sremrt_state_i32(sremrt_state_io *io, int32_t *v);
void sremrt_state_int(sremrt_state_io *io, int *v);

/* A count: load refuses one outside 0..max (SREMRT_STATE_EFORMAT). */
void sremrt_state_count(sremrt_state_io *io, int32_t *n, int32_t max);

/* A partition table: its keys in slot order (the count first, which the
 * caller wrote or read with sremrt_state_count and made room for: load
 * fails with SREMRT_STATE_ECONFIG when the table has room for fewer than n keys,
 * or finds it not empty) and its overflow count. Load inserts the keys in
 * order, so every key gets its slot back. */
void sremrt_state_keymap(sremrt_state_io *io, sremrt_keymap *km, int32_t n);

/* A runtime counter, explore clause or explore partition, initialized by
 * the matcher's init (or at its key's first event) with the same
 * configuration: its counts and the contents of its memory block. Load
 * refuses (SREMRT_STATE_ECONFIG) a block of another size. */
void sremrt_state_episode(sremrt_state_io *io, sremrt_episode *c);
void sremrt_state_explore(sremrt_state_io *io, sremrt_explore *ex);
void sremrt_state_explore_part(sremrt_state_io *io, const sremrt_explore *ex, sremrt_explore_part *st);

/* The pattern file's hash: FNV-1a 64 over text, continued from h (start:
 * SREMRT_STATE_FNV_SEED). */
#define SREMRT_STATE_FNV_SEED 0xcbf29ce484222325u
uint64_t sremrt_state_fnv(uint64_t h, const void *p, size_t n);

#ifdef __cplusplus
}
#endif

#endif
