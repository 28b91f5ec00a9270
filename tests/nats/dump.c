/* dump.c: the results streams of a --nats run -> standard output, for the
 * NATS tests (tests/nats/run.sh). `dump URLS S N`: every results message
 * of streams S_OUT_0 .. S_OUT_{N-1}, in order, each record line prefixed
 * with its partition and a tab; exit status 1 when a stream cannot be read
 * or its Sremc-Src-Seq headers go backwards. `dump --csv URLS SUBJECT FILE
 * K`: a producer of CSV payloads, FILE's header line and K of its lines a
 * message (header Sremc-Payload: csv), published synchronously. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
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

int main(int argc, char **argv)
{
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
        fprintf(stderr, "usage: dump URLS STREAM N | dump --csv URLS SUBJECT FILE K\n");
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
