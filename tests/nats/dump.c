/* dump.c: the results streams of a --nats run -> standard output, for the
 * NATS tests (tests/nats/run.sh). `dump URLS S N`: every results message
 * of streams S_OUT_0 .. S_OUT_{N-1}, in order, each record line prefixed
 * with its partition and a tab; exit status 1 when a stream cannot be read
 * or its Sremc-Src-Seq headers go backwards. `dump --csv URLS SUBJECT FILE
 * K`: a producer of CSV payloads, FILE's header line and K of its lines a
 * message (header Sremc-Payload: csv), published synchronously. `dump
 * --race URLS K`: what the fencing of --nats rests on, K rounds of two
 * clients publishing at once, each expecting the same last sequence of a
 * stream of one subject: with the stream's last sequence (what --nats
 * expects) at most one may be stored, exit status 1 otherwise; with the
 * subject's, the rounds where both were are counted (a clustered
 * nats-server before 2.9.21 checks that one before replicating). */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nats/nats.h>

static int dump_stream(jsCtx *js, const char *stream, int part)
{
    jsStreamInfo *si = NULL;
    if (js_GetStreamInfo(&si, js, stream, NULL, NULL) != NATS_OK) {
        fprintf(stderr, "dump: no stream %s\n", stream);
        return 1;
    }
    uint64_t first = si->State.FirstSeq, last = si->State.LastSeq, prev = 0;
    jsStreamInfo_Destroy(si);
    for (uint64_t q = first; q <= last && last > 0; q++) {
        natsMsg *m = NULL;
        jsErrCode ec = 0;
        if (js_GetMsg(&m, js, stream, q, NULL, &ec) != NATS_OK) {
            fprintf(stderr, "dump: %s seq %" PRIu64 ": error %d\n", stream, q, (int)ec);
            return 1;
        }
        const char *v = NULL, *data = natsMsg_GetData(m);
        int len = natsMsg_GetDataLength(m);
        uint64_t src = natsMsgHeader_Get(m, "Sremc-Src-Seq", &v) == NATS_OK ? strtoull(v, NULL, 10) : 0;
        if (src < prev) {
            fprintf(stderr, "dump: %s seq %" PRIu64 ": source sequence %" PRIu64 " after %" PRIu64 "\n", stream,
                    q, src, prev);
            natsMsg_Destroy(m);
            return 1;
        }
        prev = src;
        for (int i = 0; i < len;) {
            const char *nl = memchr(data + i, '\n', (size_t)(len - i));
            int end = nl ? (int)(nl - data) : len;
            printf("%d\t%.*s\n", part, end - i, data + i);
            i = end + 1;
        }
        natsMsg_Destroy(m);
    }
    return 0;
}

/* The CSV producer: header + K lines a message. */
static int publish_csv(jsCtx *js, const char *subject, const char *path, int k)
{
    FILE *f = fopen(path, "r");
    char line[4096], head[4096];
    size_t cap = (size_t)k * sizeof line + sizeof head, len = 0;
    char *buf = malloc(cap);
    int n = 0, rc = 0;
    if (!f || !buf || !fgets(head, sizeof head, f)) {
        fprintf(stderr, "dump: cannot read %s\n", path);
        return 1;
    }
    for (int more = 1; more && rc == 0;) {
        more = fgets(line, sizeof line, f) != NULL;
        if (more) {
            if (n == 0) {
                len = strlen(head);
                memcpy(buf, head, len);
            }
            memcpy(buf + len, line, strlen(line));
            len += strlen(line);
            n++;
        }
        if (n == k || (!more && n > 0)) {
            natsMsg *m = NULL;
            jsPubAck *ack = NULL;
            if (natsMsg_Create(&m, subject, NULL, buf, (int)len) != NATS_OK ||
                natsMsgHeader_Set(m, "Sremc-Payload", "csv") != NATS_OK || js_PublishMsg(&ack, js, m, NULL, NULL) != NATS_OK)
                rc = 1;
            jsPubAck_Destroy(ack);
            natsMsg_Destroy(m);
            n = 0;
        }
    }
    free(buf);
    fclose(f);
    return rc;
}

/* One client of a race: publishes when both are ready. */
typedef struct racer {
    jsCtx *js;
    const char *subject;
    uint64_t last;   /* the expected last sequence */
    int subject_seq; /* expect the subject's last (else the stream's) */
    pthread_barrier_t *go;
    int stored;
} racer;

static void *race_one(void *arg)
{
    racer *r = arg;
    jsPubOptions po;
    jsPubAck *ack = NULL;
    jsPubOptions_Init(&po);
    if (r->last == 0)
        po.ExpectNoMessage = true;
    else if (r->subject_seq)
        po.ExpectLastSubjectSeq = r->last;
    else
        po.ExpectLastSeq = r->last;
    pthread_barrier_wait(r->go);
    r->stored = js_Publish(&ack, r->js, r->subject, "x", 1, &po, NULL) == NATS_OK;
    jsPubAck_Destroy(ack);
    return NULL;
}

/* K rounds on a fresh R3 stream RACE_<kind>: how many stored both. */
static int race(jsCtx *js[2], int subject_seq, int k, int *both)
{
    char name[32], subject[32];
    const char *subj = subject;
    snprintf(name, sizeof name, "RACE_%d", subject_seq);
    snprintf(subject, sizeof subject, "race.%d", subject_seq);
    jsStreamConfig sc;
    jsStreamConfig_Init(&sc);
    sc.Name = name;
    sc.Subjects = &subj;
    sc.SubjectsLen = 1;
    sc.Replicas = 3;
    if (js_AddStream(NULL, js[0], &sc, NULL, NULL) != NATS_OK)
        return 1;
    uint64_t last = 0;
    *both = 0;
    for (int i = 0; i < k; i++) {
        pthread_barrier_t go;
        pthread_t t[2];
        racer r[2];
        pthread_barrier_init(&go, NULL, 2);
        for (int j = 0; j < 2; j++) {
            r[j] = (racer){js[j], subject, last, subject_seq, &go, 0};
            pthread_create(&t[j], NULL, race_one, &r[j]);
        }
        for (int j = 0; j < 2; j++)
            pthread_join(t[j], NULL);
        pthread_barrier_destroy(&go);
        *both += r[0].stored && r[1].stored;
        jsStreamInfo *si = NULL;
        if (js_GetStreamInfo(&si, js[0], name, NULL, NULL) != NATS_OK)
            return 1;
        last = si->State.LastSeq;
        jsStreamInfo_Destroy(si);
    }
    return 0;
}

static int race_main(const char *urls, int k)
{
    natsConnection *nc[2] = {NULL, NULL};
    jsCtx *js[2] = {NULL, NULL};
    int rc = 0, both[2] = {0, 0};
    for (int j = 0; j < 2 && rc == 0; j++)
        rc = natsConnection_ConnectTo(&nc[j], urls) != NATS_OK || natsConnection_JetStream(&js[j], nc[j], NULL) != NATS_OK;
    for (int kind = 0; kind < 2 && rc == 0; kind++)
        rc = race(js, kind, k, &both[kind]);
    if (rc)
        fprintf(stderr, "dump: --race: a JetStream call failed\n");
    else
        printf("%d rounds of two racing publishes: both stored %d times expecting the stream's last sequence, "
               "%d times the subject's\n", k, both[0], both[1]);
    for (int j = 0; j < 2; j++) {
        jsCtx_Destroy(js[j]);
        natsConnection_Destroy(nc[j]);
    }
    nats_Close();
    return rc || both[0] > 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--race") == 0)
        return race_main(argv[2], atoi(argv[3]));
    if (argc == 6 && strcmp(argv[1], "--csv") == 0) {
        natsConnection *nc = NULL;
        jsCtx *js = NULL;
        int rc = natsConnection_ConnectTo(&nc, argv[2]) != NATS_OK || natsConnection_JetStream(&js, nc, NULL) != NATS_OK
               || publish_csv(js, argv[3], argv[4], atoi(argv[5])) != 0;
        if (rc)
            fprintf(stderr, "dump: cannot publish %s to %s\n", argv[4], argv[3]);
        jsCtx_Destroy(js);
        natsConnection_Destroy(nc);
        nats_Close();
        return rc;
    }
    if (argc != 4) {
        fprintf(stderr, "usage: dump URLS STREAM N | dump --csv URLS SUBJECT FILE K | dump --race URLS K\n");
        return 2;
    }
    natsConnection *nc = NULL;
    jsCtx *js = NULL;
    if (natsConnection_ConnectTo(&nc, argv[1]) != NATS_OK || natsConnection_JetStream(&js, nc, NULL) != NATS_OK) {
        fprintf(stderr, "dump: cannot connect to %s\n", argv[1]);
        return 1;
    }
    int rc = 0;
    for (int p = 0; p < atoi(argv[3]) && rc == 0; p++) {
        char stream[256];
        snprintf(stream, sizeof stream, "%s_OUT_%d", argv[2], p);
        rc = dump_stream(js, stream, p);
    }
    jsCtx_Destroy(js);
    natsConnection_Destroy(nc);
    nats_Close();
    return rc;
}
