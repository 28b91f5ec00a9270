#!/usr/bin/env python3
"""score.py CSV JSONL NAME [CHECK...]: an independent oracle of a forecast
pattern's interval forecasts (docs/forecasting.md, "Run and evaluate").

Reads the events (CSV: `machine` is the key) and a program's JSONL records
run with --forecast-emit every; recomputes, per key substream, whether each
interval forecast of NAME held the key's next detection, and prints one JSON
line: n, precision, mean_prob over the scored forecasts, and the same over a
thinned sample (one forecast per key every `horizon` events, about
independent) with its binomial 99% interval. Scoring as the core's: a
forecast after the key's event t covers t+from..t+to of that key's events;
scored once the next detection comes or t+to has passed."""
import bisect
import csv
import json
import math
import sys


def main():
    path_csv, path_jsonl, name = sys.argv[1], sys.argv[2], sys.argv[3]
    thin = int(sys.argv[4]) if len(sys.argv) > 4 else 60
    pos, count = {}, {}          # global index -> (key, position in its substream)
    with open(path_csv) as f:
        for i, row in enumerate(csv.DictReader(f), start=1):
            k = row["machine"]
            count[k] = count.get(k, 0) + 1
            pos[i] = (k, count[k])
    det, fc = {}, []
    with open(path_jsonl) as f:
        for line in f:
            r = json.loads(line)
            if r.get("name") != name or r["kind"] not in ("match", "forecast"):
                continue
            k, p = pos[r["index"]]
            if r["kind"] == "match":
                det.setdefault(k, []).append(p)
            elif r["kind"] == "forecast":
                fc.append((k, p, r["from"], r["to"], r["prob"]))
    scored, thinned, last = [], [], {}
    for k, t, a, b, prob in fc:
        d = det.get(k, [])
        j = bisect.bisect_right(d, t)
        nxt = d[j] if j < len(d) else None
        if nxt is None and t + b > count[k]:
            continue                          # runs past the end: not scored
        hit = nxt is not None and t + a <= nxt <= t + b
        scored.append((hit, prob))
        if t - last.get(k, -10**9) >= thin:
            last[k] = t
            thinned.append((hit, prob))

    def summary(v):
        n = len(v)
        prec = sum(h for h, _ in v) / n if n else 0.0
        mean = sum(p for _, p in v) / n if n else 0.0
        return n, prec, mean

    n, prec, mean = summary(scored)
    tn, tprec, tmean = summary(thinned)
    half = 2.576 * math.sqrt(max(tmean * (1 - tmean), 1e-9) / max(tn, 1))
    print(json.dumps({"n": n, "precision": prec, "mean_prob": mean, "thinned": tn,
                      "thinned_precision": tprec, "thinned_mean_prob": tmean, "ci99": half}))


if __name__ == "__main__":
    main()
