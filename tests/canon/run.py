#!/usr/bin/env python3
"""run.py: seeded random register-free patterns with labels -> the canonical
match (docs/language.md 3.4) by Python's re, compared with other sources.

Each pattern is written twice: as sremc source and as a Python regex over
one character per event (its type A, B or C), each label occurrence a named
group. Python's answer for a detection at event i is, by the definition,
the greatest j (window holding) with re.fullmatch(rx, s[j:i+1]), and for a
label the greatest .start() among its groups that took part (the event
bound last). Python's re tries alternatives left first, repeats greedily
and stops a repetition after an optional iteration that matched nothing:
the order the definition names. Partitions split the stream by k.

Sources print one JSON line per detection, {"name","index","start","bind"}
(1-based indices); the sets must be equal. The sources: the reference
interpreter (--ref, tests/canon/canon_ref.c) and, with --sremc, the program
`sremc build` makes of the file (its JSONL match records: the replay of
runtime/canon.c, which shares nothing with the reference).

python3 run.py --ref build/canon_ref [--sremc bin/sremc] [--seed N] [--files F] [--patterns P]
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile

SCHEMA = "schema E { t : enum { A, B, C }; v : int; k : int; time : timestamp(s); }\n"
TYPES = "ABC"
LABELS = "xyz"
# event classes: sremc atom, Python character class
CLASSES = [("A", "A"), ("B", "B"), ("C", "C"), ("_", "[ABC]"), ("[t != A]", "[BC]"),
           ("[t != C]", "[AB]"), ("[t == A || t == C]", "[AC]")]


class Gen:
    """A random regex as (srem text, Python regex, labels used)."""

    def __init__(self, rng, zero):
        self.rng = rng
        self.zero = zero   # R{0} and R{0,0} (when the checker accepts them)
        self.groups = 0

    def atom(self):
        srem, py = self.rng.choice(CLASSES)
        if self.rng.random() < 0.4:
            label = self.rng.choice(LABELS)
            self.groups += 1
            return "%s:%s" % (label, srem), "(?P<%s_%d>%s)" % (label, self.groups, py)
        return srem, py

    def regex(self, depth):
        if depth <= 0 or self.rng.random() < 0.3:
            return self.atom()
        kind = self.rng.choice(["seq", "seq", "alt", "nullalt", "star", "plus", "opt", "rep"])
        if kind in ("seq", "alt", "nullalt"):
            kids = [self.regex(depth - 1) for _ in range(self.rng.randint(2, 3))]
            if kind == "seq" and self.rng.random() < 0.5:
                # a gap, as patterns skip events: `_*`, `[t != A]*`
                srem, py = self.rng.choice(CLASSES[3:])
                kids.insert(self.rng.randint(0, len(kids)), ("(%s)*" % srem, "%s*" % py))
            if kind == "nullalt":
                # a nullable first alternative: under a repetition, an
                # iteration whose first parse is empty (Python's stop rule)
                kind, op = "alt", self.rng.choice("?*")
                kids[0] = "(%s)%s" % (kids[0][0], op), "(?:%s)%s" % (kids[0][1], op)
            sep = (" ", "") if kind == "seq" else (" | ", "|")
            return ("(" + sep[0].join(k[0] for k in kids) + ")",
                    "(?:" + sep[1].join(k[1] for k in kids) + ")")
        srem, py = self.regex(depth - 1)
        if kind == "rep":
            lo = self.rng.randint(0, 2)
            hi = self.rng.choice([lo, lo + 1, lo + 2, None])
            if hi == 0 and not self.zero:
                hi = 1
            op = "{%d}" % lo if hi == lo else "{%d,}" % lo if hi is None else "{%d,%d}" % (lo, hi)
        else:
            op = {"star": "*", "plus": "+", "opt": "?"}[kind]
        return "(%s)%s" % (srem, op), "(?:%s)%s" % (py, op)


class Pattern:
    def __init__(self, name, rng, zero):
        self.name = name
        g = Gen(rng, zero)
        self.srem, rx = g.regex(rng.randint(1, 4))
        self.rx = re.compile(rx)
        self.labels = sorted({m.split(":")[0] for m in re.findall(r"\b[xyz]:", self.srem)})
        self.partition = rng.random() < 0.3
        w = rng.random()
        if w < 0.6:
            self.window = ("events", rng.randint(1, 8))
        elif w < 0.9 or self.labels:
            self.window = ("time", rng.randint(1, 6))
        else:
            self.window = None

    def text(self):
        hdr = " partition by k" if self.partition else ""
        if self.window and self.window[0] == "events":
            hdr += " within %d events" % self.window[1]
        elif self.window:
            hdr += " within %d s" % self.window[1]
        return "pattern %s on E%s { %s }\n" % (self.name, hdr, self.srem)

    def window_holds(self, events, j, i):
        if not self.window:
            return True
        if self.window[0] == "events":
            return i - j + 1 <= self.window[1]
        return events[i]["time"] - events[j]["time"] <= self.window[1]

    def canonical(self, events):
        """Python's canonical matches: {(name, index, start, bind)}."""
        out = set()
        keys = sorted({e["k"] for e in events}) if self.partition else [None]
        for key in keys:
            sub = [e for e in events if key is None or e["k"] == key]
            s = "".join(e["t"] for e in sub)
            for i in range(len(sub)):
                for j in range(i, -1, -1):
                    if not self.window_holds(sub, j, i):
                        break
                    m = self.rx.fullmatch(s, j, i + 1)
                    if m:
                        out.add(self.record(sub, i, j, m))
                        break
        return out

    def record(self, sub, i, j, m):
        bind = None
        if self.labels:
            bind = {}
            for group, at in m.re.groupindex.items():
                if m.start(at) >= 0:
                    label = group.split("_")[0]
                    bind[label] = max(bind.get(label, 0), sub[m.start(at)]["index"])
            bind = tuple(sorted(bind.items()))
        return (self.name, sub[i]["index"], sub[j]["index"], bind)


class GapPattern(Pattern):
    """A short gap chain, X_1 _{0,g_1} X_2 .. X_m with a span of at most 32
    events (no window, no labels, unpartitioned): a generated program finds
    its start by a scan over its last events (docs/codegen.md, "A scan"),
    in push_many mostly on the call's own array. Python's answer is the
    same definition, the greatest start whose events fullmatch."""

    def __init__(self, name, rng, small):
        self.name, self.labels, self.partition, self.window = name, [], False, None
        while True:   # small: few states, so that tables fit (--layout table)
            m = rng.randint(2, 3 if small else 5)
            atoms = [rng.choice(CLASSES) for _ in range(m)]
            gaps = [rng.randint(0, 4 if small else 9) for _ in range(m - 1)]
            self.span = m + sum(gaps)
            if self.span <= 32:
                break
        srem, py = [atoms[0][0]], [atoms[0][1]]
        for a, g in zip(atoms[1:], gaps):
            srem += ["_{0,%d}" % g, a[0]]
            py += ["[ABC]{0,%d}" % g, a[1]]
        self.srem, self.rx = " ".join(srem), re.compile("".join(py))

    def canonical(self, events):
        out, s = set(), "".join(e["t"] for e in events)
        for i in range(len(events)):
            for j in range(i, max(i - self.span, -1), -1):
                m = self.rx.fullmatch(s, j, i + 1)
                if m:
                    out.add(self.record(events, i, j, m))
                    break
        return out


def stream(rng, n):
    events, time = [], 0
    for idx in range(1, n + 1):
        time += rng.randint(0, 2)
        events.append({"index": idx, "t": rng.choice(TYPES), "v": 0, "k": rng.randint(0, 2), "time": time})
    return events


def parse_jsonl(text, source):
    """The match records of a source (a program's JSONL records as they are:
    fields other than name, index, start and bind are ignored)."""
    recs = set()
    for line in text.splitlines():
        if not line.strip():
            continue
        r = json.loads(line)
        if r.get("kind", "match") != "match":
            continue  # a program's other records (summaries, errors)
        bind = tuple(sorted(r["bind"].items())) if "bind" in r else None
        recs.add((r["name"], r["index"], r.get("start", 0), bind))
    return recs


def run_ref(ref, srem, csv):
    p = subprocess.run([ref, srem, csv], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (ref, p.returncode, p.stderr))
    return p.stdout


def run_program(sremc, srem, csv, layout="auto", cflags="-O0"):
    """The records of the program sremc builds from srem, on csv."""
    prog = srem[:-len(".srem")]
    env = dict(os.environ, CFLAGS=cflags)
    p = subprocess.run([sremc, "build", "--layout", layout, srem, "-o", prog], capture_output=True, text=True,
                       env=env)
    if p.returncode != 0:
        raise RuntimeError("sremc build %s failed (%d): %s" % (srem, p.returncode, p.stderr[-2000:]))
    p = subprocess.run([prog, "--format", "jsonl", csv], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (prog, p.returncode, p.stderr[-2000:]))
    return p.stdout


def run_program_bin(sremc, srem, csv, layout, cflags="-O0"):
    """The same program's records on csv as --input bin records, which it
    hands to push_many in runs (CSV goes through push)."""
    run_program(sremc, srem, csv, layout, cflags)   # builds it
    prog, bin_ = srem[:-len(".srem")], csv + ".bin"
    p = subprocess.run([prog, "--convert-bin", bin_, csv], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s --convert-bin failed (%d): %s" % (prog, p.returncode, p.stderr[-2000:]))
    p = subprocess.run([prog, "--format", "jsonl", "--input", "bin", bin_], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (prog, p.returncode, p.stderr[-2000:]))
    return p.stdout


def has_avx2():
    """Whether this machine runs AVX2 code and cc builds it: then the
    tables' programs are also built with -mavx2, where a three-atom gap
    chain's scan is the branch-free mask scan (cg_canon.c, put_scan_masks)."""
    try:
        with open("/proc/cpuinfo") as f:
            if " avx2" not in f.read():
                return False
    except OSError:
        return False
    p = subprocess.run(["sh", "-c", "echo 'int x;' | ${CC:-cc} -mavx2 -x c -c -o /dev/null -"], capture_output=True)
    return p.returncode == 0


def show(rec):
    name, index, start, bind = rec
    return "%s index %d start %d%s" % (name, index, start, "" if bind is None else " bind %s" % dict(bind))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ref", required=True, help="the canon_ref driver")
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--files", type=int, default=40)
    ap.add_argument("--patterns", type=int, default=60, help="per file")
    ap.add_argument("--events", type=int, default=40, help="per stream")
    ap.add_argument("--no-zero", dest="zero", action="store_false", help="leave out R{0} and R{0,0}")
    ap.add_argument("--sremc", help="also the programs this sremc builds")
    ap.add_argument("--gap-files", type=int, default=40,
                    help="then files of 8 short gap chains on streams of 600 events (with --sremc: also through push_many)")
    args = ap.parse_args()

    sources = {"reference": lambda srem, csv: run_ref(args.ref, srem, csv)}
    if args.sremc:
        sources["generated program"] = lambda srem, csv: run_program(args.sremc, srem, csv)
    rng = random.Random(args.seed)
    avx2 = bool(args.sremc) and has_avx2()
    failures, records, binds = 0, 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for f in range(args.files + args.gap_files):
            gap = f >= args.files
            if gap:   # in turn: tables (every start a scan), chains (every start a tag), auto (mixed)
                layout = ("table", "chain", "auto")[(f - args.files) % 3]
                pats = [GapPattern("p%d" % n, rng, layout == "table") for n in range(8)]
                events = stream(rng, 600)
                if args.sremc:
                    sources["generated program"] = \
                        lambda srem, csv, layout=layout: run_program(args.sremc, srem, csv, layout)
                    sources["generated program, push_many"] = \
                        lambda srem, csv, layout=layout: run_program_bin(args.sremc, srem, csv, layout)
                    sources.pop("generated program, push_many, -mavx2", None)
                    if avx2 and layout == "table":
                        sources["generated program, push_many, -mavx2"] = \
                            lambda srem, csv: run_program_bin(args.sremc, srem, csv, "table", "-O0 -mavx2")
            else:
                pats = [Pattern("p%d" % n, rng, args.zero) for n in range(args.patterns)]
                events = stream(rng, args.events)
            srem, csv = os.path.join(tmp, "f%d.srem" % f), os.path.join(tmp, "f%d.csv" % f)
            with open(srem, "w") as out:
                out.write(SCHEMA + "".join(p.text() for p in pats))
            with open(csv, "w") as out:
                out.write("t,v,k,time\n" + "".join("%s,%d,%d,%d\n" % (e["t"], e["v"], e["k"], e["time"])
                                                    for e in events))
            want = set()
            for p in pats:
                want |= p.canonical(events)
            records += len(want)
            binds += sum(1 for r in want if r[3])
            for name, source in sources.items():
                got = parse_jsonl(source(srem, csv), name)
                if got == want:
                    continue
                failures += 1
                print("canon: file %d of seed %d: %s differs from Python's re" % (f, args.seed, name))
                bad = sorted({r[0] for r in got ^ want}, key=lambda s: int(s[1:]))
                for pname in bad[:3]:
                    p = pats[int(pname[1:])]
                    print("  " + p.text().strip())
                    print("  python regex: %s" % p.rx.pattern)
                    for r in sorted(want - got, key=lambda r: r[1]):
                        if r[0] == pname:
                            print("    python only:  " + show(r))
                    for r in sorted(got - want, key=lambda r: r[1]):
                        if r[0] == pname:
                            print("    %s only: %s" % (name, show(r)))
                print("  stream (index type k time): " + " ".join("%d%s/%d@%d" % (e["index"], e["t"], e["k"], e["time"])
                                                            for e in events))
    print("canon: %d files of %d patterns on %d events and %d of 8 gap chains on 600, %d detections "
          "(%d with bindings), seed %d, sources %s: %s"
          % (args.files, args.patterns, args.events, args.gap_files, records, binds, args.seed, ", ".join(sources),
             "%d files differ" % failures if failures else "all agree with Python's re"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
