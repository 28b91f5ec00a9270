// host.cpp: a C++ host of a generated matcher (tests/embed/run.sh).
// Includes the generated header and the runtime headers in C++, fills
// embed_event with the header's named enum constants, pushes a seeded
// stream and prints each record as the generated program would (text);
// each record's decl must be its declaration's EMBED_DECL_ constant.
// It also writes the stream as CSV (argv[1]) so that the script can run
// the program sremc builds on it: the two outputs must be equal, which
// checks the constants against the names the program reads.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "embed.h"
#include "sremrt/sremrt.h"

namespace {

struct Host {
    std::string out;
    int bad_decl;   // records whose decl does not name their declaration
};

// The declarations by their constants, written out independently.
const char *decl_name(int32_t decl)
{
    switch (decl) {
    case EMBED_DECL_OUTAGE: return "outage";
    case EMBED_DECL_REBOOTS: return "reboots";
    case EMBED_DECL_SURGE: return "surge";
    default: return NULL;
    }
}

void on_record(void *user, const sremrt_record *r)
{
    Host *h = static_cast<Host *>(user);
    const char *want = decl_name(r->decl);
    if (EMBED_DECL_COUNT != 3 || !want || std::strcmp(want, r->name) != 0)
        h->bad_decl++;
    char buf[512];
    sremrt_record copy = *r;   // as the program without --events: no events written
    copy.schema = NULL;
    size_t n = sremrt_record_format(buf, sizeof buf, SREMRT_TEXT, &copy);
    h->out.append(buf, n < sizeof buf ? n : sizeof buf - 1);
}

// The seeded stream: 2,000 alarms over 4 cells, 0-20 s apart.
struct Gen {
    unsigned long long s;
    unsigned next(unsigned n)
    {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<unsigned>((s >> 33) % n);
    }
};

const char *const kind_name[] = {"low-voltage", "bs disconnect", "carrier_wave", "ap_reboot", "DTS fault"};
const int32_t kind_value[] = {EMBED_KIND_LOW_VOLTAGE, EMBED_KIND_BS_DISCONNECT, EMBED_KIND_CARRIER_WAVE,
                              EMBED_KIND_AP_REBOOT, EMBED_KIND_DTS_FAULT};

}  // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s CSV-OUT\n", argv[0]);
        return 2;
    }
    const unsigned long long seed = 14;
    Gen g = {seed};
    std::vector<embed_event> events;
    std::FILE *csv = std::fopen(argv[1], "w");
    if (!csv)
        return 2;
    std::fprintf(csv, "time,cell,kind,level\n");
    int64_t t = 1700000000000LL;
    for (int i = 0; i < 2000; i++) {
        embed_event e;
        std::memset(&e, 0, sizeof e);
        unsigned k = g.next(5);
        t += 1000LL * g.next(21);
        e.time = t;
        e.cell = static_cast<int64_t>(g.next(4));
        e.kind = kind_value[k];
        e.level = 0.5 * g.next(40);
        std::fprintf(csv, "%lld,%lld,\"%s\",%.1f\n", static_cast<long long>(e.time),
                     static_cast<long long>(e.cell), kind_name[k], e.level);
        events.push_back(e);
    }
    if (std::fclose(csv) != 0)
        return 2;

    Host h;
    h.bad_decl = 0;
    embed_config cfg;
    embed_config_default(&cfg);
    cfg.record = on_record;
    cfg.user = &h;
    std::vector<unsigned char> mem(embed_matcher_size());
    embed_matcher *m = reinterpret_cast<embed_matcher *>(mem.data());
    if (embed_init(m, &cfg) != 0) {
        std::fprintf(stderr, "host: embed_init failed (seed %llu)\n", seed);
        return 1;
    }
    for (size_t i = 0; i < events.size(); i++)
        if (embed_push(m, &events[i]) != 0) {
            std::fprintf(stderr, "host: event %zu rejected: %s (seed %llu)\n", i, embed_error(m), seed);
            return 1;
        }
    embed_finish(m);
    embed_free(m);
    std::fputs(h.out.c_str(), stdout);
    if (h.bad_decl) {
        std::fprintf(stderr, "host: %d records with a wrong decl (seed %llu)\n", h.bad_decl, seed);
        return 1;
    }
    return 0;
}
