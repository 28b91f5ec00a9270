/* dump.c: the results streams of a --nats run -> standard output, for the
 * NATS tests (tests/nats/run.sh). `dump URLS S N`: every results message
 * of streams S_OUT_0 .. S_OUT_{N-1}, in order, each record line prefixed
 * with its partition and a tab; exit status 1 when a stream cannot be read
 * or its Sremc-Src-Seq headers go backwards. */
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

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: dump URLS STREAM N\n");
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
