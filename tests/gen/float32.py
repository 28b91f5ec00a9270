#!/usr/bin/env python3
"""float32.py: float32 attributes (docs/language.md 2) against an oracle.

Seeded random streams of a schema with a float32 and a float attribute,
values drawn where rounding to float32 shows (decimals of 9 to 17
significant digits, halves, integers around 2^24, subnormals, the edge of
the range and beyond it, negative zero), matched by programs of five
patterns (registers compared with an offset, equality after rounding,
float32 times a constant against a double, a register read in double
arithmetic, literals without registers) built by `sremc build` under
every strategy that applies, by a program of the two register-free ones
(tdfa too), and by a one-pattern program (the threaded run, whose start state skips blocks
of records: cg_accel.c) fed CSV, JSON Lines (tests/gen/csv2jsonl.py) and
--convert-bin records. The oracle is written here from the definition:
a float32 value is the text read as the nearest double, rounded to the
nearest binary32 (Python's struct, which rounds as C's cast does; beyond
the range: an infinity), and conditions compute in double.

usage: float32.py SREMC WORKDIR [SEED] [ROUNDS]; a failure prints the seed
and round and keeps the files in WORKDIR.
"""
import csv
import math
import random
import struct
import subprocess
import sys

SCHEMA = "schema F { ts : timestamp; t : enum { A, B, C }; f : float32; d : float; }\n"


def f32(text):
    """The float32 value a reader stores for text (widened to a double)."""
    x = float(text)
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def value_text(rng):
    """A decimal where rounding to float32 matters, or an edge."""
    kind = rng.randrange(8)
    if kind == 0:
        return repr(rng.uniform(-2, 2))                       # 17 digits
    if kind == 1:
        return "%.9g" % rng.uniform(0, 1)
    if kind == 2:
        return str(rng.randrange(-8, 9) / 2)                   # exact
    if kind == 3:
        return str(16777216 + rng.randrange(-3, 6) + rng.choice([0, 0.5, 0.25]))
    if kind == 4:
        return rng.choice(["1e-45", "7e-46", "1.4e-45", "1.17549435e-38", "-0", "0"])
    if kind == 5:
        return rng.choice(["3.4028235e38", "3.40282357e38", "1e39", "-1e39", "-3.4028234e38"])
    if kind == 6:
        return repr(struct.unpack("<f", struct.pack("<f", rng.uniform(-1, 1)))[0])   # a float32, as a double
    return "%.12g" % rng.uniform(-1, 1)


def patterns(rng):
    """Four patterns with random constants, and their oracles: (name,
    source, length, test(events ending at i) -> bool)."""
    c1 = rng.choice([0.0, 0.25, 0.1, 1e-7])
    c2 = rng.choice([0.5, 2.0, 3.0, 1.5])
    c3 = rng.choice([0.0, 0.1, 0.5, -0.25])
    return [
        ("rise", "within 3 events { x:A y:[t == B && f > x.f + %r] [t == C && f > y.f] }" % c1, 3,
         lambda w: w[0][0] == "A" and w[1][0] == "B" and w[1][1] > w[0][1] + c1 and w[2][0] == "C" and w[2][1] > w[1][1]),
        ("same", "within 2 events { x:_ [f == x.f] }", 2,
         lambda w: w[1][1] == w[0][1]),
        ("mixed", "within 1 events { [f * %r < d] }" % c2, 1,
         lambda w: w[0][1] * c2 < w[0][2]),
        ("back", "within 2 events { x:[f > %r] [d >= x.f - 0.5] }" % c3, 2,
         lambda w: w[0][1] > c3 and w[1][2] >= w[0][1] - 0.5),
        ("lit", "within 2 events { [t == A && f >= %r] [f < %r] }" % (c3, c3), 2,
         lambda w: w[0][0] == "A" and w[0][1] >= c3 and w[1][1] < c3),
    ]


def oracle(pats, events):
    """Text records of the detections, in the program's order (index, then
    declaration order)."""
    out = []
    for i in range(len(events)):
        for name, _, n, test in pats:
            if i + 1 >= n and test(events[i + 1 - n:i + 1]):
                out.append("match %s index=%d start=%d" % (name, i + 1, i + 2 - n))
    return out


def records(text):
    """name, index and start of each match record."""
    out = []
    for line in text.splitlines():
        words = line.split()
        if words and words[0] == "match":
            keep = [w for w in words[2:] if w.startswith(("index=", "start="))]
            out.append(" ".join(["match", words[1]] + keep))
    return out


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, check=False)


def one_round(sremc, work, rng, tag):
    pats = patterns(rng)
    n = 3000
    rows = []
    for i in range(n):
        t = rng.choice("AAABBBCCCC") if rng.random() < 0.9 else rng.choice("ABC")
        rows.append((i, t, value_text(rng), value_text(rng)))
    path = "%s/f32_%s.csv" % (work, tag)
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["ts", "t", "f", "d"])
        w.writerows(rows)
    events = [(t, f32(f), float(d)) for _, t, f, d in rows]
    fails = []
    files = {
        "all": SCHEMA + "".join("pattern %s on F %s\n" % (p[0], p[1]) for p in pats),
        "rise": SCHEMA + "pattern %s on F %s\n" % (pats[0][0], pats[0][1]),
        "free": SCHEMA + "".join("pattern %s on F %s\n" % (p[0], p[1]) for p in pats if p[0] in ("mixed", "lit")),
    }
    jsonl = path + ".jsonl"
    src0 = "%s/f32_%s_all.srem" % (work, tag)
    with open(src0, "w") as fh:
        fh.write(files["all"])
    with open(jsonl, "w") as fh:
        fh.write(run(["python3", "tests/gen/csv2jsonl.py", src0, path]).stdout)
    for fname, text in files.items():
        src = "%s/f32_%s_%s.srem" % (work, tag, fname)
        with open(src, "w") as fh:
            fh.write(text)
        want = oracle([p for p in pats if p[0] in text.split()], events)
        for strat in ("auto", "tdfa", "dsra", "runs"):
            prog = "%s/f32_%s_%s_%s" % (work, tag, fname, strat)
            b = run([sremc, "build", "--strategy", strat, "--max-code-kb", "1000000", src, "-o", prog])
            if b.returncode != 0:
                if strat == "auto":
                    fails.append("%s %s: build failed: %s" % (fname, strat, b.stderr.strip()))
                continue
            binf = prog + ".bin"
            run([prog, "--convert-bin", binf, path])
            for how in (["--input", "csv", path], ["--input", "jsonl", jsonl], ["--input", "bin", binf]):
                got = records(run([prog] + how).stdout)
                if got != want:
                    diff = next((k for k in range(min(len(got), len(want))) if got[k] != want[k]), min(len(got), len(want)))
                    fails.append("%s %s %s: %d records, want %d; first difference at record %d: got %s, want %s" % (
                        fname, strat, how[1], len(got), len(want), diff,
                        got[diff] if diff < len(got) else "-", want[diff] if diff < len(want) else "-"))
    return fails, len(oracle(pats, events))


def main():
    sremc, work = sys.argv[1], sys.argv[2]
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 32
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    total = 0
    for r in range(rounds):
        rng = random.Random(seed * 1000 + r)
        fails, nrec = one_round(sremc, work, rng, "%d_%d" % (seed, r))
        total += nrec
        if fails:
            for f in fails:
                print("float32: FAIL seed %d round %d: %s" % (seed, r, f))
            sys.exit(1)
    print("float32: %d rounds (seed %d), %d match records each way, equal" % (rounds, seed, total))


if __name__ == "__main__":
    main()
