/* state.c: a matcher's state <-> checkpoint bytes: the header, the
 * checksum and the codec of one walk that counts, writes or reads
 * (state.h); the partition tables' part. The counters' and explore
 * clauses' parts are in episode.c and explore.c, beside their layouts. */
#include "sremrt/state.h"

#include <stddef.h>
#include <string.h>

#include "sremrt/abi.h"

const char *sremrt_state_strerror(int err)
{
    switch (err) {
    case SREMRT_STATE_OK:
        return "no error";
    case SREMRT_STATE_ESPACE:
        return "the buffer is too small for the checkpoint";
    case SREMRT_STATE_EFORMAT:
        return "not a checkpoint, or a truncated or corrupted one";
    case SREMRT_STATE_EVERSION:
        return "a checkpoint of another format version or runtime ABI";
    case SREMRT_STATE_EFOREIGN:
        return "the checkpoint of another pattern file (or of another build of it)";
    case SREMRT_STATE_ECONFIG:
        return "the checkpoint was taken with other capacities (--occmap-cap, --distinct-budget, "
               "--explore-cap, --explore-algo, or larger --max-keys/--max-runs)";
    case SREMRT_STATE_EMEMORY:
        return "out of memory restoring the checkpoint";
    case SREMRT_STATE_EUSED:
        return "a checkpoint loads only into a matcher fresh from init";
    default:
        return "unknown checkpoint error";
    }
}

uint64_t sremrt_state_fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3u;
    }
    return h;
}

/* Whether the host stores integers little-endian (then the codec copies
 * them as they are; a constant the compiler folds). */
static int little_endian(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
}

static void put_le(unsigned char *p, uint64_t v, int n)
{
    if (little_endian()) {
        memcpy(p, &v, (size_t)n);
        return;
    }
    for (int i = 0; i < n; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le(const unsigned char *p, int n)
{
    uint64_t v = 0;
    if (little_endian() && n == 8) {
        memcpy(&v, p, 8);
        return v;
    }
    for (int i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

int sremrt_state_peek(const void *buf, size_t len, sremrt_state_info *info)
{
    const unsigned char *p = (const unsigned char *)buf;
    if (!buf || len < SREMRT_STATE_HEADER || memcmp(p, SREMRT_STATE_MAGIC, 8) != 0)
        return SREMRT_STATE_EFORMAT;
    info->version = (uint32_t)get_le(p + 8, 4);
    info->abi = (uint32_t)get_le(p + 12, 4);
    info->hash = get_le(p + 16, 8);
    info->events = get_le(p + 24, 8);
    info->rejected = get_le(p + 32, 8);
    info->body = get_le(p + 40, 8);
    if (info->body > len - SREMRT_STATE_HEADER)
        return SREMRT_STATE_EFORMAT;
    return SREMRT_STATE_OK;
}

void sremrt_state_begin(sremrt_state_io *io, sremrt_state_mode mode, void *buf, size_t cap)
{
    io->mode = mode;
    io->buf = (unsigned char *)buf;
    io->cap = mode == SREMRT_STATE_SIZE ? 0 : cap;
    io->pos = 0;
    io->err = SREMRT_STATE_OK;
}

void sremrt_state_fail(sremrt_state_io *io, int err)
{
    if (io->err == SREMRT_STATE_OK)
        io->err = err;
}

/* The generated code's hash, mixed with what its state structs' bytes
 * depend on besides: byte order and the alignment of 64-bit fields (a
 * checkpoint moves between builds of one file on like hosts only). */
static uint64_t host_hash(uint64_t hash)
{
    struct i64 { char c; int64_t x; };
    struct f64 { char c; double x; };
    uint32_t order = 0x01020304u;
    unsigned char host[6];
    memcpy(host, &order, 4);
    host[4] = (unsigned char)offsetof(struct i64, x);
    host[5] = (unsigned char)offsetof(struct f64, x);
    return sremrt_state_fnv(hash, host, sizeof host);
}

/* FNV-1a over little-endian 64-bit words (a byte at a time for the
 * tail): eight times fewer multiplications than over bytes. */
static uint64_t fnv_words(uint64_t h, const unsigned char *p, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        h ^= get_le(p + i, 8);
        h *= 0x100000001b3u;
    }
    return sremrt_state_fnv(h, p + i, n - i);
}

/* The checksum: the header up to it, then the body. */
static uint64_t checksum(const unsigned char *buf, size_t body)
{
    uint64_t h = fnv_words(SREMRT_STATE_FNV_SEED, buf, 48);
    return fnv_words(h, buf + SREMRT_STATE_HEADER, body);
}

/* Load: the header names this file and this runtime, and the body is
 * whole (length and checksum), so nothing is read into a matcher from a
 * foreign or damaged checkpoint. */
static void check_header(sremrt_state_io *io, uint64_t hash)
{
    sremrt_state_info info;
    if (sremrt_state_peek(io->buf, io->cap, &info) != 0) {
        sremrt_state_fail(io, SREMRT_STATE_EFORMAT);
        return;
    }
    if (info.version != SREMRT_STATE_VERSION || info.abi != (uint32_t)sremrt_abi_version())
        sremrt_state_fail(io, SREMRT_STATE_EVERSION);
    else if (info.hash != host_hash(hash))
        sremrt_state_fail(io, SREMRT_STATE_EFOREIGN);
    else if (get_le(io->buf + 48, 8) != checksum(io->buf, (size_t)info.body))
        sremrt_state_fail(io, SREMRT_STATE_EFORMAT);
    io->cap = SREMRT_STATE_HEADER + (size_t)info.body;   /* the body's end */
}

void sremrt_state_header(sremrt_state_io *io, uint64_t hash, uint64_t events, uint64_t rejected)
{
    if (io->mode == SREMRT_STATE_LOAD) {
        check_header(io, hash);
    } else if (io->mode == SREMRT_STATE_SAVE) {
        if (io->cap < SREMRT_STATE_HEADER) {
            sremrt_state_fail(io, SREMRT_STATE_ESPACE);
            return;
        }
        memcpy(io->buf, SREMRT_STATE_MAGIC, 8);
        put_le(io->buf + 8, SREMRT_STATE_VERSION, 4);
        put_le(io->buf + 12, (uint64_t)sremrt_abi_version(), 4);
        put_le(io->buf + 16, host_hash(hash), 8);
        put_le(io->buf + 24, events, 8);
        put_le(io->buf + 32, rejected, 8);
        memset(io->buf + 40, 0, 16);   /* length and checksum: sremrt_state_end */
    }
    io->pos = SREMRT_STATE_HEADER;
}

int sremrt_state_end(sremrt_state_io *io)
{
    if (io->err != SREMRT_STATE_OK)
        return io->err;
    if (io->mode == SREMRT_STATE_SAVE) {
        size_t body = io->pos - SREMRT_STATE_HEADER;
        put_le(io->buf + 40, (uint64_t)body, 8);
        put_le(io->buf + 48, checksum(io->buf, body), 8);
    } else if (io->mode == SREMRT_STATE_LOAD && io->pos != io->cap) {
        io->err = SREMRT_STATE_EFORMAT;   /* bytes left over: not this state */
    }
    return io->err;
}

/* Room for n more bytes (save and load); the position moves either way. */
static unsigned char *take(sremrt_state_io *io, size_t n)
{
    unsigned char *p = io->buf + io->pos;
    if (io->err != SREMRT_STATE_OK)
        return NULL;
    if (io->mode == SREMRT_STATE_SIZE) {
        io->pos += n;
        return NULL;
    }
    if (n > io->cap - io->pos) {
        sremrt_state_fail(io, io->mode == SREMRT_STATE_SAVE ? SREMRT_STATE_ESPACE : SREMRT_STATE_EFORMAT);
        return NULL;
    }
    io->pos += n;
    return p;
}

void sremrt_state_bytes(sremrt_state_io *io, void *p, size_t n)
{
    unsigned char *at = take(io, n);
    if (!at || n == 0)
        return;
    if (io->mode == SREMRT_STATE_SAVE)
        memcpy(at, p, n);
    else
        memcpy(p, at, n);
}

static void int_le(sremrt_state_io *io, uint64_t *v, int n)
{
    unsigned char *at = take(io, (size_t)n);
    if (!at)
        return;
    if (io->mode == SREMRT_STATE_SAVE)
        put_le(at, *v, n);
    else
        *v = get_le(at, n);
}

void sremrt_state_u64(sremrt_state_io *io, uint64_t *v) { int_le(io, v, 8); }

void sremrt_state_strtab(sremrt_state_io *io, sremrt_strtab *t, int64_t fixed)
{
    int64_t n = t->count, id;
    sremrt_state_i64(io, &n);
    if (io->mode == SREMRT_STATE_LOAD && io->err == SREMRT_STATE_OK && t->count != fixed)
        sremrt_state_fail(io, SREMRT_STATE_EUSED);
    if (io->mode == SREMRT_STATE_LOAD && io->err == SREMRT_STATE_OK && n < fixed)
        sremrt_state_fail(io, SREMRT_STATE_EFORMAT);
    for (id = fixed; id < n && io->err == SREMRT_STATE_OK; id++) {
        size_t len = 0;
        const char *s = io->mode == SREMRT_STATE_LOAD ? NULL : sremrt_strtab_get(t, id, &len);
        uint64_t l = (uint64_t)len;
        unsigned char *at;
        int64_t got;
        sremrt_state_u64(io, &l);
        if (io->mode != SREMRT_STATE_LOAD) {
            sremrt_state_bytes(io, (void *)s, len);
            continue;
        }
        at = l <= io->cap - io->pos ? take(io, (size_t)l) : NULL;
        if (!at)
            sremrt_state_fail(io, SREMRT_STATE_EFORMAT);
        else if ((got = sremrt_strtab_intern(t, (const char *)at, (size_t)l)) != id)
            sremrt_state_fail(io, got >= 0 ? SREMRT_STATE_EFORMAT : SREMRT_STATE_EMEMORY);   /* twice, or no room */
    }
}

void sremrt_state_i64(sremrt_state_io *io, int64_t *v)
{
    uint64_t u = (uint64_t)*v;
    int_le(io, &u, 8);
    if (io->mode == SREMRT_STATE_LOAD && io->err == SREMRT_STATE_OK)
        memcpy(v, &u, sizeof *v);   /* two's complement back without a conversion */
}

void sremrt_state_i32(sremrt_state_io *io, int32_t *v)
{
    uint64_t u = (uint32_t)*v;
    int_le(io, &u, 4);
    if (io->mode == SREMRT_STATE_LOAD && io->err == SREMRT_STATE_OK) {
        uint32_t w = (uint32_t)u;
        memcpy(v, &w, sizeof *v);
    }
}

void sremrt_state_int(sremrt_state_io *io, int *v)
{
    int32_t w = (int32_t)*v;
    sremrt_state_i32(io, &w);
    if (io->mode == SREMRT_STATE_LOAD && io->err == SREMRT_STATE_OK)
        *v = (int)w;
}

void sremrt_state_count(sremrt_state_io *io, int32_t *n, int32_t max)
{
    sremrt_state_i32(io, n);
    if (io->mode == SREMRT_STATE_LOAD && io->err == SREMRT_STATE_OK && (*n < 0 || *n > max)) {
        *n = 0;
        sremrt_state_fail(io, SREMRT_STATE_EFORMAT);
    }
}

void sremrt_state_keymap(sremrt_state_io *io, sremrt_keymap *km, int32_t n)
{
    if (io->mode == SREMRT_STATE_LOAD && io->err == SREMRT_STATE_OK && (km->count != 0 || km->capacity < n))
        sremrt_state_fail(io, km->count != 0 ? SREMRT_STATE_EUSED : SREMRT_STATE_ECONFIG);
    int32_t w = km->width > 0 ? km->width : 1;   /* a composite key: its tuple */
    for (int32_t i = 0; i < n && io->err == SREMRT_STATE_OK; i++) {
        int64_t key[SREMRT_KEY_MAX_WIDTH] = {0};
        for (int32_t j = 0; j < w; j++) {
            if (io->mode != SREMRT_STATE_LOAD)
                key[j] = km->keys[(size_t)i * (size_t)w + (size_t)j];
            sremrt_state_i64(io, &key[j]);
        }
        if (io->mode == SREMRT_STATE_LOAD && io->err == SREMRT_STATE_OK) {
            int inserted = 0;
            if (sremrt_keymap_get_tuple(km, key, &inserted) != i || !inserted)
                sremrt_state_fail(io, SREMRT_STATE_EFORMAT);   /* a key twice */
        }
    }
    sremrt_state_u64(io, &km->overflows);
}
