/* nats.c: NATS JetStream <-> a generated matcher (docs/SCALING.md).
 * --nats: one partition's stream of event batches -> the matcher -> one
 * JSONL results message per fetched batch, published exactly once (input
 * sequence in a header, each publish expecting the results stream's last
 * sequence, so a second instance is fenced; checkpoint after the publish
 * with a compare-and-set KV update). --nats-publish: events of a file ->
 * the partition streams, fnv1a32(key) mod N, in batches. */
#define _POSIX_C_SOURCE 200809L
#include "sremrt/nats.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <nats/nats.h>

#include "sremrt/bin.h"
#include "sremrt/csv.h"

#define NAME_CAP      256
#define RESULTS_CAP   (512u << 10)   /* a results message is cut past this (max_payload: 1 MB) */
#define INLINE_CAP    (512u << 10)   /* checkpoint state inline in its key up to this */
#define CHUNK         (512u << 10)   /* else in chunks of this */
#define FETCH         256            /* messages per fetch (of 1000 events: 16 MB of 16-byte events) */
#define RETRY_SECS    30.0           /* how long a publish or API call is retried */

struct sremrt_nats {
    sremrt_nats_conf c;
    natsConnection *nc;
    jsCtx *js;
    kvStore *kv;
    natsSubscription *sub;
    char in_stream[NAME_CAP], in_subject[NAME_CAP], out_stream[NAME_CAP], out_subject[NAME_CAP];
    char bucket[NAME_CAP], key[NAME_CAP], consumer[NAME_CAP];
    char nonce[64], old_nonce[64];   /* chunks of the checkpoint and of the one before */
    /* results of the batch under way */
    char *buf;
    size_t len, cap;
    uint64_t seq;        /* input sequence being matched */
    uint64_t recs;       /* records it made so far */
    /* what the last results message says is published already */
    uint64_t out_seq, out_recs;
    int out_partial;     /* only out_recs records of out_seq (else all of it) */
    uint64_t res_seq;    /* the last sequence our next publish expects (0: none): fencing */
    int whole;           /* the results stream holds our subject only: expect its last sequence */
    uint64_t ck_rev;     /* the checkpoint key's revision (0: none) */
    uint64_t ck_seq;     /* input sequence the checkpoint covers */
    int ck_chunks, old_chunks;
    int failed;          /* 0, SREMRT_NATS_FENCED, or 3 */
    /* counts for the end-of-run line */
    uint64_t nmsgs, nevents, nrecs, nsuppressed, nresults, nckpt;
    double ck_secs, busy;   /* checkpoints' time; from the first input to the last */
    size_t ck_bytes;
};

static double now_secs(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* CPU seconds of the process, libnats's threads included. */
static double cpu_secs(void)
{
    struct rusage u;
    if (getrusage(RUSAGE_SELF, &u) != 0)
        return 0;
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

uint32_t sremrt_fnv1a32(const char *p, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)p[i];
        h *= 16777619u;
    }
    return h;
}

/* An error on stderr, with libnats's own reason when st says there is one. */
static int fail(const char *prog, const char *what, natsStatus st, jsErrCode ec)
{
    fprintf(stderr, "%s: nats: %s", prog, what);
    if (st != NATS_OK) {
        const char *last = nats_GetLastError(NULL);
        fprintf(stderr, ": %s", last && *last ? last : natsStatus_GetText(st));
    }
    if (ec)
        fprintf(stderr, " (JetStream error %d)", (int)ec);
    fputc('\n', stderr);
    return 3;
}

/* ---- connection, streams, bucket -------------------------------------- */

/* Connects to the comma-separated URLs (reconnecting for ever). */
static int connect_js(const char *prog, const char *urls, const char *name, natsConnection **nc, jsCtx **js)
{
    natsOptions *o = NULL;
    char *copy = strdup(urls);
    const char *list[32];
    int n = 0;
    for (char *save = NULL, *t = strtok_r(copy, ",", &save); t && n < 32; t = strtok_r(NULL, ",", &save))
        list[n++] = t;
    natsStatus st = copy && n ? natsOptions_Create(&o) : NATS_ERR;
    if (st == NATS_OK)
        st = natsOptions_SetServers(o, list, n);
    if (st == NATS_OK)
        st = natsOptions_SetName(o, name);
    if (st == NATS_OK)
        st = natsOptions_SetMaxReconnect(o, -1);
    if (st == NATS_OK)
        st = natsOptions_SetReconnectWait(o, 200);
    if (st == NATS_OK)
        st = natsOptions_SetTimeout(o, 2000);
    if (st == NATS_OK)
        st = natsConnection_Connect(nc, o);
    natsOptions_Destroy(o);
    free(copy);
    if (st != NATS_OK)
        return fail(prog, urls, st, 0);
    jsOptions jo;
    jsOptions_Init(&jo);
    jo.Wait = 5000;
    jo.PublishAsync.MaxPending = 256;
    jo.PublishAsync.StallWait = 5000;
    st = natsConnection_JetStream(js, *nc, &jo);
    return st == NATS_OK ? 0 : fail(prog, "JetStream context", st, 0);
}

/* Replicas of what we create: 3 when the cluster has 3 servers or more. */
static int replicas(natsConnection *nc)
{
    char **servers = NULL;
    int n = 0;
    if (natsConnection_GetServers(nc, &servers, &n) != NATS_OK)
        return 1;
    for (int i = 0; i < n; i++)
        free(servers[i]);
    free(servers);
    return n >= 3 ? 3 : 1;
}

/* The stream `name` on `subject`, created if missing. API calls can time
 * out during a leader election: retried for RETRY_SECS. */
static int ensure_stream(const char *prog, jsCtx *js, const char *name, const char *subject, int r)
{
    double until = now_secs() + RETRY_SECS;
    for (;;) {
        jsStreamInfo *si = NULL;
        jsErrCode ec = 0;
        natsStatus st = js_GetStreamInfo(&si, js, name, NULL, &ec);
        if (st == NATS_OK) {
            jsStreamInfo_Destroy(si);
            return 0;
        }
        if (st == NATS_NOT_FOUND || ec == JSStreamNotFoundErr) {
            jsStreamConfig sc;
            jsStreamConfig_Init(&sc);
            sc.Name = name;
            sc.Subjects = &subject;
            sc.SubjectsLen = 1;
            sc.Storage = js_FileStorage;
            sc.Replicas = r;
            ec = 0;
            st = js_AddStream(&si, js, &sc, NULL, &ec);
            if (st == NATS_OK || ec == JSStreamNameExistErr) {
                jsStreamInfo_Destroy(si);
                return 0;
            }
        }
        if (now_secs() > until) {
            char what[NAME_CAP + 32];
            snprintf(what, sizeof what, "cannot create stream %s", name);
            return fail(prog, what, st, ec);
        }
        sleep_ms(250);
    }
}

static int open_bucket(sremrt_nats *s, int r)
{
    double until = now_secs() + RETRY_SECS;
    for (;;) {
        natsStatus st = js_KeyValue(&s->kv, s->js, s->bucket);
        if (st != NATS_OK) {
            kvConfig kc;
            kvConfig_Init(&kc);
            kc.Bucket = s->bucket;
            kc.History = 1;
            kc.Replicas = r;
            st = js_CreateKeyValue(&s->kv, s->js, &kc);
        }
        if (st == NATS_OK)
            return 0;
        if (now_secs() > until)
            return fail(s->c.prog, "cannot open the checkpoint bucket", st, 0);
        sleep_ms(250);
    }
}

/* ---- results ------------------------------------------------------------ */

static int append(sremrt_nats *s, const char *p, size_t n)
{
    if (s->len + n + 1 > s->cap) {
        size_t cap = s->cap ? s->cap : 1 << 16;
        while (cap < s->len + n + 1)
            cap *= 2;
        char *b = realloc(s->buf, cap);
        if (!b)
            return -1;
        s->buf = b;
        s->cap = cap;
    }
    memcpy(s->buf + s->len, p, n);
    s->len += n;
    return 0;
}

/* The stream's last sequence in *last: 0, or -1 when it cannot be read. */
static int last_seq(sremrt_nats *s, const char *stream, uint64_t *last)
{
    jsStreamInfo *si = NULL;
    if (js_GetStreamInfo(&si, s->js, stream, NULL, NULL) != NATS_OK)
        return -1;
    *last = si->State.LastSeq;
    jsStreamInfo_Destroy(si);
    return 0;
}

/* The last results message: what is published already, and the sequence
 * our next publish expects as the last: the results stream's last (read
 * first: a message after it means the stream moved, read again), or the
 * subject's last message when the stream is shared. */
static int read_results_tail(sremrt_nats *s)
{
    double until = now_secs() + RETRY_SECS;
    for (;;) {
        natsMsg *m = NULL;
        jsErrCode ec = 0;
        uint64_t last = 0;
        natsStatus st = s->whole && last_seq(s, s->out_stream, &last) != 0
                      ? NATS_ERR : js_GetLastMsg(&m, s->js, s->out_stream, s->out_subject, NULL, &ec);
        s->out_seq = s->out_recs = 0;
        s->out_partial = 0;
        s->res_seq = last;
        if (st == NATS_OK && (!s->whole || natsMsg_GetSequence(m) <= last)) {
            const char *v = NULL;
            if (!s->whole)
                s->res_seq = natsMsg_GetSequence(m);
            if (natsMsgHeader_Get(m, "Sremc-Src-Seq", &v) == NATS_OK)
                s->out_seq = strtoull(v, NULL, 10);
            s->out_partial = natsMsgHeader_Get(m, "Sremc-Src-Partial", &v) == NATS_OK;
            s->out_recs = s->out_partial ? strtoull(v, NULL, 10) : 0;
            natsMsg_Destroy(m);
            return 0;
        }
        natsMsg_Destroy(m);
        if (st == NATS_NOT_FOUND || ec == JSNoMessageFoundErr)
            return 0;
        if (now_secs() > until)
            return fail(s->c.prog, "cannot read the last results message", st, ec);
        sleep_ms(st == NATS_OK ? 10 : 250);
    }
}

/* The message id of a results message: partition, input sequence, the
 * records of it when only part of them are in, and this instance (its
 * consumer's name): a retry of ours is dropped as a duplicate, another
 * instance's message is never taken for ours. */
static void result_id(const sremrt_nats *s, uint64_t seq, int partial, char *id, size_t cap)
{
    if (partial)
        snprintf(id, cap, "%s.%d.%" PRIu64 ".%" PRIu64 ".%s", s->c.stream, s->c.partition, seq, s->recs,
                 s->consumer);
    else
        snprintf(id, cap, "%s.%d.%" PRIu64 ".%s", s->c.stream, s->c.partition, seq, s->consumer);
}

/* After a "wrong last sequence": was the last message our own (a publish
 * whose ack was lost, retried)? Then it is published; else we are fenced. */
static int own_last(sremrt_nats *s, const char *id)
{
    natsMsg *m = NULL;
    const char *v = NULL;
    int own = 0;
    if (js_GetLastMsg(&m, s->js, s->out_stream, s->out_subject, NULL, NULL) != NATS_OK)
        return 0;
    if (natsMsgHeader_Get(m, "Nats-Msg-Id", &v) == NATS_OK && strcmp(v, id) == 0) {
        s->res_seq = natsMsg_GetSequence(m);
        own = 1;
    }
    natsMsg_Destroy(m);
    return own;
}

static void fenced(sremrt_nats *s, const char *where)
{
    fprintf(stderr, "%s: nats: partition %d/%d fenced: another instance %s; this one stops\n",
            s->c.prog, s->c.partition, s->c.npartitions, where);
    s->failed = SREMRT_NATS_FENCED;
}

/* Publishes len bytes of records as the results of input up to seq
 * (partial: of seq, only its first recs records), synchronously, expecting
 * our last results message to be the subject's last: 0, 1 when another
 * instance's is (the subject moved), -1 on an error (reported). */
static int publish_msg(sremrt_nats *s, const char *id, const char *data, size_t len, uint64_t seq, int partial,
                       uint64_t recs)
{
    char num[32];
    natsMsg *m = NULL;
    natsStatus st = natsMsg_Create(&m, s->out_subject, NULL, data, (int)len);
    snprintf(num, sizeof num, "%" PRIu64, seq);
    if (st == NATS_OK)
        st = natsMsgHeader_Set(m, "Sremc-Src-Seq", num);
    snprintf(num, sizeof num, "%" PRIu64, recs);
    if (st == NATS_OK && partial)
        st = natsMsgHeader_Set(m, "Sremc-Src-Partial", num);
    int rc = 0;
    for (double until = now_secs() + RETRY_SECS; st == NATS_OK;) {
        jsPubOptions po;
        jsPubAck *ack = NULL;
        jsErrCode ec = 0;
        jsPubOptions_Init(&po);
        po.MsgId = id;
        po.MaxWait = 3000;
        if (!s->res_seq)
            po.ExpectNoMessage = true;
        else if (s->whole)   /* checked as the stream applies it: two racing publishes never both land */
            po.ExpectLastSeq = s->res_seq;
        else   /* checked before it is replicated: a clustered server before 2.9.21 may take both */
            po.ExpectLastSubjectSeq = s->res_seq;
        st = js_PublishMsg(&ack, s->js, m, &po, &ec);
        if (st == NATS_OK) {
            s->res_seq = ack->Sequence;
            jsPubAck_Destroy(ack);
            break;
        }
        if (ec == JSStreamWrongLastSequenceErr) {
            rc = own_last(s, id) ? 0 : 1;
            st = NATS_OK;
            break;
        }
        if (now_secs() > until)
            break;
        st = NATS_OK;
        sleep_ms(200);
    }
    natsMsg_Destroy(m);
    if (st != NATS_OK) {
        s->failed = fail(s->c.prog, "cannot publish results", st, 0);
        return -1;
    }
    return rc;
}

/* The records gathered (maybe none) as the results of input up to seq
 * (partial: of seq, only the first s->recs records); fenced when another
 * instance published since our last. */
static int publish_results(sremrt_nats *s, uint64_t seq, int partial)
{
    char id[3 * NAME_CAP];
    result_id(s, seq, partial, id, sizeof id);
    int rc = publish_msg(s, id, s->buf, s->len, seq, partial, s->recs);
    if (rc == 1)
        fenced(s, "published results for it");
    if (rc != 0)
        return -1;
    s->nresults++;
    s->len = 0;
    return 0;
}

/* At start: an empty results message saying what the last one said,
 * published after it. It orders every publish of an earlier instance
 * (one that died with a publish in flight, or one still running) before
 * ours, and makes the next of theirs fail: the newest instance is live. */
static int take_head(sremrt_nats *s)
{
    char id[NAME_CAP + 96];
    snprintf(id, sizeof id, "%s.%d.start.%s", s->c.stream, s->c.partition, s->consumer);
    for (int tries = 0; tries < 20; tries++) {
        int rc = read_results_tail(s);
        if (rc != 0)
            return rc;
        rc = publish_msg(s, id, "", 0, s->out_seq, s->out_partial, s->out_recs);
        if (rc <= 0)
            return rc ? 3 : 0;
        sleep_ms(50 * (tries + 1));   /* the subject moved while we read it: again */
    }
    return fail(s->c.prog, "cannot take the results subject: it keeps moving", NATS_OK, 0);
}

void sremrt_nats_record(void *user, const sremrt_record *r)
{
    sremrt_nats *s = (sremrt_nats *)user;
    if (r->kind == SREMRT_ERROR) {   /* overflows: the program's standard error */
        sremrt_record_write(stderr, s->c.format, r);
        return;
    }
    uint64_t k = s->recs++;
    if (s->seq < s->out_seq || (s->seq == s->out_seq && (!s->out_partial || k < s->out_recs))) {
        s->nsuppressed++;   /* published before a restart: recomputed, not sent */
        return;
    }
    if (s->failed)
        return;
    sremrt_record copy = *r;
    if (!s->c.events)
        copy.schema = NULL;
    char line[2048];
    size_t n = sremrt_record_format(line, sizeof line, SREMRT_JSONL, &copy);
    if (n >= sizeof line) {   /* a long one (--events, a long occurrence) */
        char *big = malloc(n + 1);
        int bad = !big;
        if (big) {
            sremrt_record_format(big, n + 1, SREMRT_JSONL, &copy);
            bad = append(s, big, n) != 0;
        }
        free(big);
        if (bad) {
            s->failed = fail(s->c.prog, "out of memory for results", NATS_OK, 0);
            return;
        }
    } else if (append(s, line, n) != 0) {
        s->failed = fail(s->c.prog, "out of memory for results", NATS_OK, 0);
        return;
    }
    s->nrecs++;
    if (s->len >= RESULTS_CAP)   /* results of one input message past a message's size */
        publish_results(s, s->seq, 1);
}

/* ---- checkpoints -------------------------------------------------------- */

static void chunk_key(const sremrt_nats *s, const char *nonce, int i, char *k, size_t cap)
{
    snprintf(k, cap, "%s.%s.%d", s->key, nonce, i);
}

/* Loads the checkpoint (state and input sequence) if there is one. */
static int load_checkpoint(sremrt_nats *s, const sremrt_nats_matcher *mt)
{
    kvEntry *e = NULL;
    natsStatus st = NATS_TIMEOUT;
    for (double until = now_secs() + RETRY_SECS; st != NATS_OK && st != NATS_NOT_FOUND && now_secs() < until;)
        if ((st = kvStore_Get(&e, s->kv, s->key)) != NATS_OK && st != NATS_NOT_FOUND)
            sleep_ms(250);
    if (st == NATS_NOT_FOUND)
        return 0;
    if (st != NATS_OK)
        return fail(s->c.prog, "cannot read the checkpoint", st, 0);
    const char *v = kvEntry_Value(e);
    int vlen = kvEntry_ValueLen(e);
    const char *nl = memchr(v, '\n', (size_t)vlen);
    uint64_t seq = 0;
    unsigned long long bytes = 0;
    int chunks = 0;
    char nonce[64] = "";
    if (!nl || sscanf(v, "sremc-checkpoint 1 seq=%" SCNu64 " bytes=%llu chunks=%d nonce=%63s", &seq, &bytes,
                      &chunks, nonce) != 4) {
        kvEntry_Destroy(e);
        fprintf(stderr, "%s: nats: %s key %s is not a checkpoint of sremc\n", s->c.prog, s->bucket, s->key);
        return 3;
    }
    s->ck_rev = kvEntry_Revision(e);
    snprintf(s->nonce, sizeof s->nonce, "%s", nonce);
    s->ck_chunks = chunks;
    char *blob = malloc(bytes ? bytes : 1);
    size_t got = 0;
    if (blob && chunks == 0 && (size_t)(v + vlen - (nl + 1)) == bytes) {
        memcpy(blob, nl + 1, bytes);
        got = bytes;
    }
    kvEntry_Destroy(e);
    for (int i = 0; blob && i < chunks; i++) {
        char k[NAME_CAP + 96];
        chunk_key(s, nonce, i, k, sizeof k);
        if (kvStore_Get(&e, s->kv, k) != NATS_OK)
            break;
        size_t n = (size_t)kvEntry_ValueLen(e);
        if (got + n <= bytes)
            memcpy(blob + got, kvEntry_Value(e), n);
        got += n;
        kvEntry_Destroy(e);
    }
    int ok = blob && got == bytes && (!mt->state_load || mt->state_load(mt->m, blob, bytes) == 0);
    free(blob);
    if (!ok) {
        fprintf(stderr, "%s: nats: the checkpoint in %s key %s cannot be loaded (incomplete, or of "
                        "another pattern file)\n", s->c.prog, s->bucket, s->key);
        return 3;
    }
    s->ck_seq = seq;
    return 0;
}

/* Did our own write of value land although the call failed? */
static int own_value(sremrt_nats *s, const char *value, size_t n)
{
    kvEntry *e = NULL;
    if (kvStore_Get(&e, s->kv, s->key) != NATS_OK)
        return 0;
    int own = (size_t)kvEntry_ValueLen(e) == n && memcmp(kvEntry_Value(e), value, n) == 0;
    if (own)
        s->ck_rev = kvEntry_Revision(e);
    kvEntry_Destroy(e);
    return own;
}

/* Is our last results message still the subject's last? The results
 * subject decides which instance is live, the checkpoint key follows. */
static int results_head(sremrt_nats *s)
{
    natsMsg *m = NULL;
    if (js_GetLastMsg(&m, s->js, s->out_stream, s->out_subject, NULL, NULL) != NATS_OK)
        return s->res_seq == 0;
    int head = natsMsg_GetSequence(m) == s->res_seq;
    natsMsg_Destroy(m);
    return head;
}

/* Writes chunks first, then the key with a compare-and-set on its
 * revision (a write by another instance since ours: fenced unless we hold
 * the results subject's head), then drops the previous checkpoint's chunks. */
static int save_checkpoint(sremrt_nats *s, const sremrt_nats_matcher *mt, uint64_t seq)
{
    double t0 = now_secs();
    size_t bytes = mt->state_size ? mt->state_size(mt->m) : 0;
    char *blob = malloc(bytes + 256);
    if (!blob || (mt->state_save && mt->state_save(mt->m, blob + 256, bytes) != 0)) {
        free(blob);
        s->failed = fail(s->c.prog, "cannot save the matcher's state", NATS_OK, 0);
        return -1;
    }
    static unsigned counter;
    char nonce[64];
    int chunks = bytes <= INLINE_CAP ? 0 : (int)((bytes + CHUNK - 1) / CHUNK);
    snprintf(nonce, sizeof nonce, "%ld-%u-%" PRIu64, (long)getpid(), ++counter, seq);
    for (int i = 0; i < chunks; i++) {
        char k[NAME_CAP + 96];
        size_t off = (size_t)i * CHUNK, n = bytes - off < CHUNK ? bytes - off : CHUNK;
        chunk_key(s, nonce, i, k, sizeof k);
        natsStatus st = NATS_ERR;
        for (double until = now_secs() + RETRY_SECS; st != NATS_OK && now_secs() < until;)
            if ((st = kvStore_Put(NULL, s->kv, k, blob + 256 + off, (int)n)) != NATS_OK)
                sleep_ms(250);
        if (st != NATS_OK) {
            free(blob);
            s->failed = fail(s->c.prog, "cannot write a checkpoint chunk", st, 0);
            return -1;
        }
    }
    char head[256];
    int hl = snprintf(head, sizeof head, "sremc-checkpoint 1 seq=%" PRIu64 " bytes=%zu chunks=%d nonce=%s\n",
                      seq, bytes, chunks, nonce);
    size_t vlen = (size_t)hl + (chunks ? 0 : bytes);
    char *value = blob + 256 - hl;
    memcpy(value, head, (size_t)hl);
    natsStatus st = NATS_ERR;
    for (double until = now_secs() + RETRY_SECS; st != NATS_OK;) {
        uint64_t rev = 0;
        st = s->ck_rev ? kvStore_Update(&rev, s->kv, s->key, value, (int)vlen, s->ck_rev)
                       : kvStore_Create(&rev, s->kv, s->key, value, (int)vlen);
        if (st == NATS_OK) {
            s->ck_rev = rev;
            break;
        }
        kvEntry *e = NULL;   /* the key moved: ours (an ack lost) or another instance's */
        natsStatus gs = kvStore_Get(&e, s->kv, s->key);
        uint64_t now_rev = gs == NATS_OK ? kvEntry_Revision(e) : 0;
        if (e)
            kvEntry_Destroy(e);
        if ((gs == NATS_OK || gs == NATS_NOT_FOUND) && now_rev != s->ck_rev) {
            if (own_value(s, value, vlen))
                break;
            if (!results_head(s)) {   /* else an instance we fenced wrote it: ours goes over it */
                fenced(s, "published results and wrote the checkpoint");
                free(blob);
                return -1;
            }
            s->ck_rev = now_rev;
            continue;
        }
        if (now_secs() > until) {
            free(blob);
            s->failed = fail(s->c.prog, "cannot write the checkpoint", st, 0);
            return -1;
        }
        sleep_ms(250);
    }
    free(blob);
    for (int i = 0; i < s->old_chunks; i++) {   /* two back: a restore may be reading the last */
        char k[NAME_CAP + 96];
        chunk_key(s, s->old_nonce, i, k, sizeof k);
        kvStore_Purge(s->kv, k, NULL);
    }
    snprintf(s->old_nonce, sizeof s->old_nonce, "%s", s->nonce);
    s->old_chunks = s->ck_chunks;
    snprintf(s->nonce, sizeof s->nonce, "%s", nonce);
    s->ck_chunks = chunks;
    s->ck_seq = seq;
    s->nckpt++;
    s->ck_bytes = bytes;
    s->ck_secs += now_secs() - t0;
    return 0;
}

/* ---- input -------------------------------------------------------------- */

/* A fresh pull consumer from the sequence after `after`, named for this
 * incarnation (a zombie must never delete the live one's consumer). */
static int make_consumer(sremrt_nats *s, uint64_t after)
{
    static unsigned incarnation;
    if (s->sub) {
        natsSubscription_Unsubscribe(s->sub);
        natsSubscription_Destroy(s->sub);
        s->sub = NULL;
        js_DeleteConsumer(s->js, s->in_stream, s->consumer, NULL, NULL);
    }
    snprintf(s->consumer, sizeof s->consumer, "sremc_%d_%ld_%ld_%u", s->c.partition, (long)getpid(),
             (long)time(NULL), ++incarnation);
    double until = now_secs() + RETRY_SECS;
    for (;;) {
        jsSubOptions so;
        jsErrCode ec = 0;
        jsSubOptions_Init(&so);
        so.Stream = s->in_stream;
        so.ManualAck = true;
        so.Config.DeliverPolicy = js_DeliverByStartSequence;
        so.Config.OptStartSeq = after + 1;
        so.Config.AckPolicy = js_AckNone;
        so.Config.FilterSubject = s->in_subject;
        so.Config.InactiveThreshold = (int64_t)300 * 1000000000;   /* left over by a crash: gone in 5 min */
        natsStatus st = js_PullSubscribe(&s->sub, s->js, s->in_subject, s->consumer, NULL, &so, &ec);
        if (st == NATS_OK)
            return 0;
        if (now_secs() > until)
            return fail(s->c.prog, "cannot create a pull consumer", st, ec);
        sleep_ms(250);
    }
}

/* Pushes events, reporting the ones the matcher rejects (timestamps). */
static void push_events(sremrt_nats *s, const sremrt_nats_matcher *mt, const char *ev, size_t n)
{
    size_t size = mt->schema->event_size;
    while (n > 0 && !s->failed) {
        size_t k = mt->push_many(mt->m, ev, n);
        s->nevents += k;
        if (k == n)
            break;
        char why[256];
        snprintf(why, sizeof why, "input message %" PRIu64 ": %s", s->seq, mt->error(mt->m));
        sremrt_write_error(stderr, s->c.format, 0, why);
        ev += (k + 1) * size;
        n -= k + 1;
    }
}

/* One input message: CSV (a header line, then events) or bin records. */
static void match_message(sremrt_nats *s, const sremrt_nats_matcher *mt, natsMsg *msg, char **evbuf,
                          size_t *evcap)
{
    const char *data = natsMsg_GetData(msg), *kind = NULL;
    size_t len = (size_t)natsMsg_GetDataLength(msg), size = mt->schema->event_size, n = 0;
    int csv = s->c.csv;
    if (natsMsgHeader_Get(msg, "Sremc-Payload", &kind) == NATS_OK)
        csv = strcmp(kind, "csv") == 0;
    if (len == 0)
        return;
    FILE *in = fmemopen((void *)data, len, "r");
    sremrt_alloc hook = sremrt_alloc_malloc();
    sremrt_csv cr;
    sremrt_bin br;
    if (!in || (csv && sremrt_csv_open(&cr, mt->schema, in, NULL, &hook) != 0)) {
        char why[256];
        snprintf(why, sizeof why, "input message %" PRIu64 ": %s", s->seq,
                 in ? sremrt_csv_message(&cr) : strerror(errno));
        sremrt_write_error(stderr, s->c.format, csv && in ? sremrt_csv_line(&cr) : 0, why);
        if (in)
            fclose(in);
        return;
    }
    if (!csv)
        sremrt_bin_open(&br, mt->schema, in);
    for (;;) {
        if ((n + 1) * size > *evcap) {
            size_t cap = *evcap ? *evcap * 2 : 1024 * size;
            char *b = realloc(*evbuf, cap);
            if (!b)
                break;
            *evbuf = b;
            *evcap = cap;
        }
        int rc = csv ? sremrt_csv_next(&cr, *evbuf + n * size) : sremrt_bin_next(&br, *evbuf + n * size);
        if (rc == SREMRT_READ_END)
            break;
        if (rc == SREMRT_READ_EVENT) {
            n++;
            continue;
        }
        char why[256];
        snprintf(why, sizeof why, "input message %" PRIu64 ": %s", s->seq,
                 csv ? sremrt_csv_message(&cr) : sremrt_bin_message(&br));
        sremrt_write_error(stderr, s->c.format, csv ? sremrt_csv_line(&cr) : sremrt_bin_line(&br), why);
        if (rc == SREMRT_READ_FATAL)
            break;
    }
    if (csv)
        sremrt_csv_close(&cr);
    fclose(in);
    push_events(s, mt, *evbuf, n);
}

sremrt_nats *sremrt_nats_new(const sremrt_nats_conf *c)
{
    sremrt_nats *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->c = *c;
    snprintf(s->in_stream, NAME_CAP, "%s_%d", c->stream, c->partition);
    snprintf(s->in_subject, NAME_CAP, "%s.%d", c->stream, c->partition);
    snprintf(s->out_stream, NAME_CAP, "%s_OUT_%d", c->stream, c->partition);
    if (c->results)
        snprintf(s->out_subject, NAME_CAP, "%s", c->results);
    else
        snprintf(s->out_subject, NAME_CAP, "%s.out.%d", c->stream, c->partition);
    if (c->bucket)
        snprintf(s->bucket, NAME_CAP, "%s", c->bucket);
    else
        snprintf(s->bucket, NAME_CAP, "%s_ckpt", c->stream);
    snprintf(s->key, NAME_CAP, "p%d", c->partition);
    return s;
}

/* The results stream: S_OUT_P, or with --results the one that holds it. */
static int find_results_stream(sremrt_nats *s, int r)
{
    if (!s->c.results)
        return ensure_stream(s->c.prog, s->js, s->out_stream, s->out_subject, r);
    jsStreamNamesList *names = NULL;
    jsOptions o;
    jsOptions_Init(&o);
    o.Stream.Info.SubjectsFilter = s->out_subject;
    jsErrCode ec = 0;
    natsStatus st = js_StreamNames(&names, s->js, &o, &ec);
    if (st != NATS_OK || !names || names->Count < 1) {
        fprintf(stderr, "%s: nats: no stream holds the results subject %s: create one\n", s->c.prog,
                s->out_subject);
        jsStreamNamesList_Destroy(names);
        return 3;
    }
    snprintf(s->out_stream, NAME_CAP, "%s", names->List[0]);
    jsStreamNamesList_Destroy(names);
    return 0;
}

/* Does the results stream hold our results subject only? Then every
 * publish expects the stream's last sequence, which the server checks as
 * it applies the message from its replicated log. The subject's last
 * sequence is checked before, by the leader alone: a clustered nats-server
 * before 2.9.21 lets two racing publishes that expect the same one both in
 * (its issue 4320), and two instances of a partition could both publish. */
static int results_scope(sremrt_nats *s)
{
    double until = now_secs() + RETRY_SECS;
    jsStreamInfo *si = NULL;
    natsStatus st;
    while ((st = js_GetStreamInfo(&si, s->js, s->out_stream, NULL, NULL)) != NATS_OK && now_secs() < until)
        sleep_ms(250);
    if (st != NATS_OK)
        return fail(s->c.prog, "cannot read the results stream", st, 0);
    const jsStreamConfig *c = si->Config;
    s->whole = c->SubjectsLen == 1 && strcmp(c->Subjects[0], s->out_subject) == 0;
    if (!s->whole && c->Replicas > 1)
        fprintf(stderr, "%s: nats: stream %s holds more subjects than %s: on a nats-server cluster before "
                        "2.9.21, two instances of partition %d at once may both publish (docs/SCALING.md)\n",
                s->c.prog, s->out_stream, s->out_subject, s->c.partition);
    jsStreamInfo_Destroy(si);
    return 0;
}

/* The fetch loop: match, publish, checkpoint; until idle or fenced. */
static void consume(sremrt_nats *s, const sremrt_nats_matcher *mt)
{
    char *evbuf = NULL;
    size_t evcap = 0;
    uint64_t last = s->ck_seq;
    double seen = now_secs(), ck_at = now_secs(), first = 0, probed = 0;
    int errors = 0;
    while (!s->failed) {
        natsMsgList list = {NULL, 0};
        jsErrCode ec = 0;
        natsStatus st = natsSubscription_Fetch(&list, s->sub, FETCH, 500, &ec);
        if (st == NATS_TIMEOUT || (st == NATS_OK && list.Count == 0)) {
            double quiet = now_secs() - seen;
            if (quiet < 1.0 || now_secs() - probed < (s->c.idle > 0 ? 1.0 : 5.0))
                continue;
            probed = now_secs();
            /* nothing for a while: idle, or a consumer that lost its
             * leader with a server and delivers no more? The stream says. */
            uint64_t end = 0;
            last_seq(s, s->in_stream, &end);
            if (end > last) {
                if (make_consumer(s, last) != 0)
                    s->failed = 3;
                seen = now_secs();
            } else if (s->c.idle > 0 && quiet >= s->c.idle) {
                break;
            }
            continue;
        }
        if (st != NATS_OK) {   /* a lost consumer (its server restarted): a new one where we are */
            if (++errors % 10 == 0 && make_consumer(s, last) != 0)
                s->failed = 3;
            sleep_ms(100);
            continue;
        }
        errors = 0;
        seen = now_secs();
        if (first == 0)
            first = seen;
        for (int i = 0; i < list.Count && !s->failed; i++) {
            jsMsgMetaData *meta = NULL;
            if (natsMsg_GetMetaData(&meta, list.Msgs[i]) != NATS_OK)
                continue;
            uint64_t seq = meta->Sequence.Stream;
            jsMsgMetaData_Destroy(meta);
            if (seq <= last)   /* delivered twice */
                continue;
            s->seq = seq;
            s->recs = 0;
            s->nmsgs++;
            match_message(s, mt, list.Msgs[i], &evbuf, &evcap);
            last = seq;
        }
        natsMsgList_Destroy(&list);
        /* else all of it was published before a restart: nothing new to say */
        if (!s->failed && (last > s->out_seq || (last == s->out_seq && s->out_partial)))
            publish_results(s, last, 0);
        if (!s->failed && mt->state_save && now_secs() - ck_at >= s->c.checkpoint_secs) {
            save_checkpoint(s, mt, last);
            ck_at = now_secs();
        }
        s->busy = now_secs() - first;
    }
    free(evbuf);
}

int sremrt_nats_run(sremrt_nats *s, const sremrt_nats_matcher *mt)
{
    char name[NAME_CAP + 32];
    snprintf(name, sizeof name, "sremc %s partition %d", s->c.stream, s->c.partition);
    if (s->c.checkpoint_secs == 0)
        s->c.checkpoint_secs = 5.0;
    int rc = connect_js(s->c.prog, s->c.urls, name, &s->nc, &s->js);
    int r = rc ? 1 : replicas(s->nc);
    if (!rc)
        rc = ensure_stream(s->c.prog, s->js, s->in_stream, s->in_subject, r);
    if (!rc)
        rc = find_results_stream(s, r);
    if (!rc)
        rc = results_scope(s);
    if (!rc)
        rc = open_bucket(s, r);
    if (!rc)
        rc = load_checkpoint(s, mt);
    if (!rc)
        rc = make_consumer(s, s->ck_seq);
    if (!rc)
        rc = take_head(s);
    if (!rc) {
        consume(s, mt);
        rc = s->failed;
        if (!rc && mt->state_save && s->seq > s->ck_seq)
            save_checkpoint(s, mt, s->seq);
        rc = s->failed;
        double secs = s->busy;
        fprintf(stderr, "%s: nats: partition %d/%d: %" PRIu64 " messages, %" PRIu64 " events in %.2f s (%.0f/s), %" PRIu64
                        " records published, %" PRIu64 " recomputed, %" PRIu64 " results messages, %" PRIu64
                        " checkpoints (last %zu bytes, %.1f ms each), %.2f s of CPU\n",
                s->c.prog, s->c.partition, s->c.npartitions, s->nmsgs, s->nevents, secs,
                secs > 0 ? (double)s->nevents / secs : 0.0, s->nrecs, s->nsuppressed, s->nresults, s->nckpt,
                s->ck_bytes, s->nckpt ? 1000.0 * s->ck_secs / (double)s->nckpt : 0.0, cpu_secs());
    }
    if (s->sub) {
        natsSubscription_Unsubscribe(s->sub);
        natsSubscription_Destroy(s->sub);
        s->sub = NULL;
        if (s->js)
            js_DeleteConsumer(s->js, s->in_stream, s->consumer, NULL, NULL);
    }
    return rc;
}

void sremrt_nats_free(sremrt_nats *s)
{
    if (!s)
        return;
    kvStore_Destroy(s->kv);
    jsCtx_Destroy(s->js);
    natsConnection_Destroy(s->nc);
    free(s->buf);
    free(s);
    nats_Close();
}

/* ---- the publisher ------------------------------------------------------ */

/* The partition key as records write it: decimal, enum name, true/false. */
static size_t key_text(const sremrt_attr *a, const void *e, char *buf, size_t cap)
{
    int64_t v = sremrt_attr_int(a, e);
    if (a->type == SREMRT_ENUM && v >= 0 && v < a->nvalues)
        return (size_t)snprintf(buf, cap, "%s", a->values[v]);
    if (a->type == SREMRT_BOOL)
        return (size_t)snprintf(buf, cap, "%s", v ? "true" : "false");
    return (size_t)snprintf(buf, cap, "%" PRId64, v);
}

typedef struct pub {
    const sremrt_nats_conf *c;
    jsCtx *js;
    char **buf;        /* per partition: up to batch events */
    size_t *n;
    uint64_t *batches;
    char run[64];
    int failed;
    uint64_t msgs, events, resent;
    pthread_mutex_t lock;   /* the error handler runs on libnats's thread */
    natsMsg **retry;        /* batches whose publish failed, to send again */
    size_t nretry, retry_cap;
} pub;

/* An async publish failed (a timeout while a server is away): the batch
 * is kept, to be sent again with the same id (JetStream drops a copy
 * that did arrive). */
static void pub_error(jsCtx *js, jsPubAckErr *pae, void *closure)
{
    pub *p = (pub *)closure;
    (void)js;
    pthread_mutex_lock(&p->lock);
    if (p->nretry == p->retry_cap) {
        size_t cap = p->retry_cap ? 2 * p->retry_cap : 64;
        natsMsg **r = realloc(p->retry, cap * sizeof *r);
        if (r) {
            p->retry = r;
            p->retry_cap = cap;
        }
    }
    if (p->nretry < p->retry_cap) {
        p->retry[p->nretry++] = pae->Msg;
        pae->Msg = NULL;   /* ours now */
    } else {
        p->failed = 1;
    }
    pthread_mutex_unlock(&p->lock);
}

static size_t pending(pub *p)
{
    pthread_mutex_lock(&p->lock);
    size_t n = p->nretry;
    pthread_mutex_unlock(&p->lock);
    return n;
}

/* Publishes batch n of a partition: its id run.part.n, and (n > 0) the
 * expectation that the stream's last message is batch n-1, so that no
 * batch is ever stored before the one it follows. */
static int publish_batch(pub *p, natsMsg **m, int part, uint64_t n)
{
    char id[NAME_CAP];
    jsPubOptions po;
    jsPubOptions_Init(&po);
    po.MaxWait = 2000;
    if (n > 0) {
        snprintf(id, sizeof id, "%s.%d.%" PRIu64, p->run, part, n - 1);
        po.ExpectLastMsgId = id;
    }
    return js_PublishMsgAsync(p->js, m, &po) == NATS_OK ? 0 : -1;
}

/* A batch's partition and number, from its id; -1 if not of this run. */
static int batch_of(pub *p, natsMsg *m, int *part, uint64_t *n)
{
    const char *id = NULL;
    size_t rl = strlen(p->run);
    if (natsMsgHeader_Get(m, "Nats-Msg-Id", &id) != NATS_OK || strncmp(id, p->run, rl) != 0 || id[rl] != '.')
        return -1;
    return sscanf(id + rl + 1, "%d.%" SCNu64, part, n) == 2 ? 0 : -1;
}

/* Partition and number from the end of an id: "RUN.PART.N". */
static void id_tail(natsMsg *m, long *part, unsigned long long *n)
{
    const char *id = "";
    natsMsgHeader_Get(m, "Nats-Msg-Id", &id);
    const char *dot = strrchr(id, '.');
    *n = dot ? strtoull(dot + 1, NULL, 10) : 0;
    const char *q = dot;
    while (q && q > id && q[-1] != '.')
        q--;
    *part = q ? strtol(q, NULL, 10) : 0;
}

static int by_batch(const void *a, const void *b)
{
    long pa, pb;
    unsigned long long na, nb;
    id_tail(*(natsMsg *const *)a, &pa, &na);
    id_tail(*(natsMsg *const *)b, &pb, &nb);
    return pa != pb ? (pa < pb ? -1 : 1) : na != nb ? (na < nb ? -1 : 1) : 0;
}

/* After failed publishes (a server away): every ack in, then per
 * partition the batches after the last one its stream holds, again in
 * order; the ones a lost ack hid are stored already and dropped. */
static int recover(pub *p)
{
    jsPubOptions po;
    jsPubOptions_Init(&po);
    po.MaxWait = 10000;
    js_PublishAsyncComplete(p->js, &po);
    pthread_mutex_lock(&p->lock);
    natsMsg **r = p->retry;
    size_t n = p->nretry;
    p->retry = NULL;
    p->nretry = p->retry_cap = 0;
    pthread_mutex_unlock(&p->lock);
    qsort(r, n, sizeof *r, by_batch);
    int rc = 0, last_part = -1;
    uint64_t stored = 0;   /* batches of last_part its stream holds */
    for (size_t i = 0; i < n; i++) {
        int part;
        uint64_t b;
        if (batch_of(p, r[i], &part, &b) != 0) {
            natsMsg_Destroy(r[i]);
            continue;
        }
        if (part != last_part) {
            char stream[NAME_CAP], subject[NAME_CAP];
            natsMsg *lm = NULL;
            int lp;
            uint64_t lb;
            snprintf(stream, sizeof stream, "%s_%d", p->c->stream, part);
            snprintf(subject, sizeof subject, "%s.%d", p->c->stream, part);
            stored = 0;
            if (js_GetLastMsg(&lm, p->js, stream, subject, NULL, NULL) == NATS_OK && batch_of(p, lm, &lp, &lb) == 0)
                stored = lb + 1;
            natsMsg_Destroy(lm);
            last_part = part;
        }
        if (b >= stored && rc == 0 && publish_batch(p, &r[i], part, b) != 0)
            rc = -1;
        natsMsg_Destroy(r[i]);   /* NULL once queued */
        p->resent += b >= stored;
    }
    free(r);
    return rc;
}

/* Every batch acknowledged, failed ones sent again, for up to a minute. */
static int pub_complete(pub *p)
{
    double until = now_secs() + 60;
    for (;;) {
        jsPubOptions po;
        jsPubOptions_Init(&po);
        po.MaxWait = 5000;
        natsStatus st = js_PublishAsyncComplete(p->js, &po);
        size_t left = pending(p);
        if (st == NATS_OK && left == 0)
            return 0;
        if (now_secs() > until || p->failed)
            return fail(p->c->prog, "not every batch was acknowledged within a minute", st, 0);
        if (left) {
            sleep_ms(250);
            if (recover(p) != 0)
                return fail(p->c->prog, "cannot publish", NATS_ERR, 0);
        }
    }
}

static int send_batch(pub *p, int part, size_t size)
{
    char subject[NAME_CAP], id[NAME_CAP];
    uint64_t n = p->batches[part]++;
    snprintf(subject, sizeof subject, "%s.%d", p->c->stream, part);
    snprintf(id, sizeof id, "%s.%d.%" PRIu64, p->run, part, n);
    natsMsg *m = NULL;
    natsStatus st = natsMsg_Create(&m, subject, NULL, p->buf[part], (int)(p->n[part] * size));
    if (st == NATS_OK)
        st = natsMsgHeader_Set(m, "Nats-Msg-Id", id);
    if (st == NATS_OK)
        st = natsMsgHeader_Set(m, "Sremc-Payload", "bin");
    if (st == NATS_OK && publish_batch(p, &m, part, n) != 0)
        st = NATS_ERR;
    natsMsg_Destroy(m);   /* NULL once the library owns it */
    p->msgs++;
    p->events += p->n[part];
    p->n[part] = 0;
    return st == NATS_OK ? 0 : fail(p->c->prog, "publish", st, 0);
}

int sremrt_nats_publish(const sremrt_nats_conf *c, const sremrt_schema *schema, int route_attr, FILE *in,
                        int bin, int strict)
{
    int np = c->npartitions, batch = c->batch > 0 ? c->batch : 1000;
    size_t size = schema->event_size;
    if (np > 1 && route_attr < 0) {
        fprintf(stderr, "%s: --partitions %d: the patterns of this program are not all partitioned by one "
                        "attribute (a composite key, partition by a, b, is never split), so their events "
                        "cannot be split; use --partitions 1\n", c->prog, np);
        return 2;
    }
    if ((size_t)batch * size > (900u << 10))   /* NATS's default max_payload is 1 MB */
        batch = (int)((900u << 10) / size);
    pub p;
    memset(&p, 0, sizeof p);
    p.c = c;
    p.buf = calloc((size_t)np, sizeof(char *));
    p.n = calloc((size_t)np, sizeof(size_t));
    p.batches = calloc((size_t)np, sizeof(uint64_t));
    pthread_mutex_init(&p.lock, NULL);
    if (c->run_id)
        snprintf(p.run, sizeof p.run, "%s", c->run_id);
    else
        snprintf(p.run, sizeof p.run, "%ld-%ld", (long)getpid(), (long)time(NULL));
    natsConnection *nc = NULL;
    int status = p.buf && p.n && p.batches ? 0 : 3;
    for (int i = 0; i < np && !status; i++)
        if (!(p.buf[i] = malloc((size_t)batch * size)))
            status = 3;
    if (!status)
        status = connect_js(c->prog, c->urls, "sremc publisher", &nc, &p.js);
    if (!status) {   /* the error handler lives on the context: a second one with it set */
        jsCtx_Destroy(p.js);
        jsOptions jo;
        jsOptions_Init(&jo);
        jo.Wait = 5000;
        jo.PublishAsync.MaxPending = 256;
        jo.PublishAsync.StallWait = 5000;
        jo.PublishAsync.ErrHandler = pub_error;
        jo.PublishAsync.ErrHandlerClosure = &p;
        if (natsConnection_JetStream(&p.js, nc, &jo) != NATS_OK)
            status = fail(c->prog, "JetStream context", NATS_ERR, 0);
    }
    int r = status ? 1 : replicas(nc);
    for (int i = 0; i < np && !status; i++) {
        char name[NAME_CAP], subject[NAME_CAP];
        snprintf(name, sizeof name, "%s_%d", c->stream, i);
        snprintf(subject, sizeof subject, "%s.%d", c->stream, i);
        status = ensure_stream(c->prog, p.js, name, subject, r);
        snprintf(name, sizeof name, "%s_OUT_%d", c->stream, i);
        snprintf(subject, sizeof subject, "%s.out.%d", c->stream, i);
        if (!status)
            status = ensure_stream(c->prog, p.js, name, subject, r);
    }
    sremrt_alloc hook = sremrt_alloc_malloc();
    sremrt_csv cr;
    sremrt_bin br;
    int opened = 0;
    if (!status) {
        if (bin)
            sremrt_bin_open(&br, schema, in);
        else if (sremrt_csv_open(&cr, schema, in, NULL, &hook) != 0) {
            sremrt_write_error(stderr, c->format, sremrt_csv_line(&cr), sremrt_csv_message(&cr));
            status = 3;
        }
        opened = !status;
    }
    double t0 = now_secs();
    char *ev = malloc(size);
    while (opened && ev && !p.failed) {
        int rc = bin ? sremrt_bin_next(&br, ev) : sremrt_csv_next(&cr, ev);
        if (rc == SREMRT_READ_END)
            break;
        if (rc != SREMRT_READ_EVENT) {
            sremrt_write_error(stderr, c->format, bin ? sremrt_bin_line(&br) : sremrt_csv_line(&cr),
                               bin ? sremrt_bin_message(&br) : sremrt_csv_message(&cr));
            status = 3;
            if (rc == SREMRT_READ_FATAL || strict)
                break;
            continue;
        }
        int part = 0;
        if (np > 1) {
            char key[128];
            size_t kl = key_text(&schema->attrs[route_attr], ev, key, sizeof key);
            part = (int)(sremrt_fnv1a32(key, kl < sizeof key ? kl : sizeof key - 1) % (uint32_t)np);
        }
        memcpy(p.buf[part] + p.n[part] * size, ev, size);
        if (++p.n[part] == (size_t)batch && (send_batch(&p, part, size) != 0 || (pending(&p) && recover(&p) != 0)))
            p.failed = 1;
    }
    for (int i = 0; i < np && opened && !p.failed; i++)
        if (p.n[i] && send_batch(&p, i, size) != 0)
            p.failed = 1;
    if (opened && !bin)
        sremrt_csv_close(&cr);
    if (p.js && opened) {
        if (!p.failed && pub_complete(&p) != 0)
            p.failed = 1;
        double secs = now_secs() - t0;
        fprintf(stderr, "%s: nats: published %" PRIu64 " events in %" PRIu64 " messages to %d partition%s "
                        "in %.2f s (%.0f events/s, %" PRIu64 " resent)\n",
                c->prog, p.events, p.msgs, np, np == 1 ? "" : "s", secs,
                secs > 0 ? (double)p.events / secs : 0.0, p.resent);
    }
    if (p.failed)
        status = 3;
    free(ev);
    for (int i = 0; p.buf && i < np; i++)
        free(p.buf[i]);
    free(p.buf);
    free(p.n);
    free(p.batches);
    for (size_t i = 0; i < p.nretry; i++)
        natsMsg_Destroy(p.retry[i]);
    free(p.retry);
    pthread_mutex_destroy(&p.lock);
    jsCtx_Destroy(p.js);
    natsConnection_Destroy(nc);
    nats_Close();
    return status;
}
