#!/usr/bin/env python3
"""oracle.py: the NATS tests' oracle (tests/nats/run.sh).

oracle.py EVENTS.csv N ATTR WHOLE.jsonl RESULTS.txt

EVENTS.csv went to N partitions by fnv1a32(ATTR's text) mod N (computed
here, independently of the C publisher); RESULTS.txt holds the records the
--nats matchers published, each line "PARTITION<TAB>JSON" (tests/nats/dump.c),
with indices counted within the partition. Each is mapped to the global
index of its event and the whole must equal WHOLE.jsonl, the file-mode
run on EVENTS.csv (summary and error records left out: a --nats run never
ends its stream). Prints the counts; exit 1 on any record lost,
duplicated or unexpected."""
import collections, csv, json, sys


def fnv1a32(data):
    h = 2166136261
    for b in data:
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    return h


# nats-server 2.9.10's {{partition(4,1)}} mapping sent ingest.key0 .. key7
# to these partitions: the function must be the one the server uses.
assert [fnv1a32(b"key%d" % i) % 4 for i in range(8)] == [0, 3, 2, 1, 0, 3, 2, 1]


def main():
    events, n, attr, whole, results = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
    glob = [[] for _ in range(n)]   # glob[p][i]: global index of partition p's event i+1
    part = {}   # key text -> partition (few keys, many events)
    with open(events, newline="") as f:
        rows = csv.reader(f)
        col = next(rows).index(attr)
        for i, row in enumerate(rows, 1):
            key = row[col]
            if key not in part:
                part[key] = fnv1a32(key.encode()) % n
            glob[part[key]].append(i)

    def canon(obj):
        return json.dumps(obj, sort_keys=True, separators=(",", ":"))

    want = collections.Counter()
    with open(whole) as f:
        for line in f:
            r = json.loads(line)
            if r["kind"] not in ("summary", "error"):
                want[canon(r)] += 1
    got = collections.Counter()
    with open(results) as f:
        for line in f:
            p, text = line.rstrip("\n").split("\t", 1)
            g = glob[int(p)]
            r = json.loads(text)
            for k in ("index", "start"):
                if r.get(k):
                    r[k] = g[r[k] - 1]
            if "bind" in r:
                r["bind"] = {k: (g[v - 1] if v else v) for k, v in r["bind"].items()}
            if "occurrence" in r:
                r["occurrence"] = [g[v - 1] for v in r["occurrence"]]
            got[canon(r)] += 1
    lost = want - got
    dup = sum(c - 1 for k, c in got.items() if c > 1)
    extra = collections.Counter({k: c for k, c in got.items() if k not in want})
    print("oracle: %d records expected, %d published: %d lost, %d duplicated, %d unexpected"
          % (sum(want.values()), sum(got.values()), sum(lost.values()), dup, sum(extra.values())))
    for k in list(lost)[:3]:
        print("  lost:", k)
    for k in list(extra)[:3]:
        print("  unexpected:", k)
    sys.exit(0 if not lost and not dup and not extra else 1)


main()
