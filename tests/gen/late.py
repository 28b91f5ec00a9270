#!/usr/bin/env python3
"""late.py: PROG --max-delay D on random shuffled streams against an oracle.

The oracle is the definition of docs/language.md section 6, written
quadratically: event i is released once an event more than D later has
arrived (before or after it), or at the end; an event older than one
released before it arrived is late (an error record with its input line,
"timestamp goes backwards (ts < last)"). The released events, stably sorted
by timestamp, are written to a CSV in order; PROG on that CSV without
--max-delay must print byte for byte the records PROG --max-delay prints on
the shuffled one. Some timestamps of the shuffled stream are ISO-8601 times
with random offsets, written by Python's datetime (an independent converter).

usage: late.py PROG WORKDIR [SEED] [ROUNDS]; a failure prints the seed and
round and keeps the files in WORKDIR.
"""
import datetime
import random
import subprocess
import sys

BASE = 1700000000000   # ms


def iso(ms, rng):
    """ms since the epoch as an ISO-8601 time at a random offset."""
    off = datetime.timedelta(minutes=rng.choice([0, 60, -300, 330, 840, -720]))
    t = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(milliseconds=ms)
    local = t.astimezone(datetime.timezone(off))
    text = local.strftime("%Y-%m-%dT%H:%M:%S")
    if ms % 1000 or rng.random() < 0.3:
        text += ".%03d" % (ms % 1000) + "0" * rng.randint(0, 6)
    if off == datetime.timedelta(0) and rng.random() < 0.5:
        return text + "Z"
    sign = "-" if off < datetime.timedelta(0) else "+"
    m = abs(int(off.total_seconds())) // 60
    return text + "%s%02d:%02d" % (sign, m // 60, m % 60)


def oracle(ts, d):
    """(released positions in feed order, {late position: last fed ts})."""
    n = len(ts)
    rel = []
    for i in range(n):
        r = n
        for j in range(n):
            if ts[j] - ts[i] > d:
                r = max(i, j)
                break
        rel.append(r)
    late = {}
    for i in range(n):
        fed = [ts[e] for e in range(i) if e not in late and rel[e] < i]
        if fed and max(fed) > ts[i]:
            late[i] = max(fed)
    order = sorted((i for i in range(n) if i not in late), key=lambda i: ts[i])
    return order, late


def run(prog, args):
    p = subprocess.run([prog, "--format", "jsonl"] + args, capture_output=True, text=True)
    return p.stdout, p.stderr, p.returncode


def one(prog, work, rng):
    n = rng.randint(1, 120)
    d = rng.choice([0, 1, 3, 10, 40])
    spread = rng.choice([1, 5, 20, 60])
    clock, ts, rows = BASE, [], []
    for _ in range(n):
        clock += rng.randint(0, 4)
        ts.append(clock - rng.randrange(spread))
    for t in ts:
        rows.append((rng.choice("AAABBC"), rng.randint(1, 3), t))
    dtext = rng.choice([str(d), "%dms" % d] + (["%dus" % (d * 1000)] if d else ["0s"]))
    order, late = oracle(ts, d)
    shuffled = work + "/late_in.csv"
    sorted_csv = work + "/late_sorted.csv"
    with open(shuffled, "w") as f:
        f.write("kind,id,t\n")
        for k, i, t in rows:
            f.write("%s,%d,%s\n" % (k, i, iso(t, rng) if rng.random() < 0.3 else str(t)))
    with open(sorted_csv, "w") as f:
        f.write("kind,id,t\n")
        for p in order:
            f.write("%s,%d,%d\n" % rows[p])
    got = run(prog, ["--max-delay", dtext, shuffled])
    want = run(prog, [sorted_csv])
    want_err = "".join('{"kind":"error","line":%d,"message":"timestamp goes backwards (%d < %d)"}\n'
                       % (p + 2, ts[p], late[p]) for p in sorted(late))
    want_status = 3 if late else want[2]
    if got != (want[0], want_err, want_status):
        print("late: FAIL --max-delay %s on %s (sorted by the oracle: %s)" % (dtext, shuffled, sorted_csv))
        print("  stdout same: %s; stderr got:\n%s  want:\n%s  status %d, want %d"
              % (got[0] == want[0], got[1], want_err, got[2], want_status))
        return False
    return True


def main():
    prog, work = sys.argv[1], sys.argv[2]
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 19
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 150
    rng = random.Random(seed)
    for r in range(rounds):
        if not one(prog, work, rng):
            print("late: seed %d, round %d" % (seed, r))
            return 1
    print("late: %d random streams, the same records as the oracle's order" % rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
