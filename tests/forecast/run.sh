#!/bin/sh
# run.sh SREMC: forecasting end to end (issue 16, 5e), on the variable-order
# source of samples/machine_gen.c, which the pattern's symbols can represent:
#  1. a reference model trained on 2,000,000 events (seed 3; standing in for
#     the true source, which it matches up to sampling error) and a learned
#     one on 50,000 (seed 2); both compiled into programs;
#  2. on a held-out stream (200,000 events, seed 4), tests/forecast/score.py
#     rescores the interval forecasts independently: its precision must be
#     the program's forecast_summary precision, the reference's precision
#     must equal its mean forecast probability within a binomial 99%
#     interval (thinned to one forecast per key per horizon, about
#     independent), and the learned precision must be within 0.03 of the
#     reference's;
#  3. a stale model (another pattern) is refused, naming the pattern;
#  4. PROG --train-first N (compiled without a model) forecasts only after
#     event N, and as well as the model learned on the same N events.
set -u
SREMC=$1
W=build/forecast-test
rm -rf "$W" && mkdir -p "$W"
fail=0
bad() { echo "forecast: FAIL $*"; fail=$((fail + 1)); }
cc -std=c99 -O2 -o "$W/gen" samples/machine_gen.c || exit 1
"$W/gen" --events 2000000 --seed 3 > "$W/ref.csv"
"$W/gen" --events 50000 --seed 2 > "$W/learn.csv"
"$W/gen" --events 200000 --seed 4 > "$W/test.csv"
for m in ref learn; do
    "$SREMC" train samples/machine.srem "$W/$m.csv" -o "$W/$m.model" || bad "train $m"
    "$SREMC" build samples/machine.srem --model "$W/$m.model" -o "$W/$m" 2>"$W/$m.log" || bad "build $m"
    "$W/$m" --format jsonl --forecast-emit every --forecast-stats "$W/test.csv" > "$W/$m.jsonl" || bad "run $m"
    python3 tests/forecast/score.py "$W/test.csv" "$W/$m.jsonl" breakdown 60 > "$W/$m.score" || bad "score $m"
done
python3 - "$W" <<'PY' || fail=$((fail + 1))
import json, sys
w = sys.argv[1]
ok = True
prec = {}
for m in ("ref", "learn"):
    s = json.load(open(f"{w}/{m}.score"))
    summ = [json.loads(l) for l in open(f"{w}/{m}.jsonl") if '"forecast_summary"' in l and '"breakdown"' in l][0]
    prec[m] = s["precision"]
    print(f"forecast: {m}: {s['n']} scored interval forecasts, precision {s['precision']:.4f} "
          f"(program {summ['precision']}), mean probability {s['mean_prob']:.4f}; thinned {s['thinned']}: "
          f"precision {s['thinned_precision']:.4f}, mean {s['thinned_mean_prob']:.4f} +- {s['ci99']:.4f}")
    if abs(s["precision"] - summ["precision"]) > 1e-3 or s["n"] != summ["scored"]:
        print(f"forecast: FAIL {m}: the oracle's precision or count differs from the forecast_summary")
        ok = False
    if m == "ref" and abs(s["thinned_precision"] - s["thinned_mean_prob"]) > s["ci99"]:
        print("forecast: FAIL the reference forecaster is not calibrated")
        ok = False
if abs(prec["learn"] - prec["ref"]) > 0.03:
    print(f"forecast: FAIL learned precision {prec['learn']:.4f} is more than 0.03 from the reference's {prec['ref']:.4f}")
    ok = False
sys.exit(0 if ok else 1)
PY
# 3. a stale model
sed 's/TempHigh Vibration \[kind != Repair\]\* Fault/TempHigh Vibration Fault/' samples/machine.srem > "$W/changed.srem"
if "$SREMC" build "$W/changed.srem" --model "$W/learn.model" -o "$W/stale" 2>"$W/stale.log"; then
    bad "a model of another automaton was accepted"
elif ! grep -q "pattern 'breakdown' was trained on another automaton" "$W/stale.log"; then
    bad "the stale model's error does not name the pattern"; cat "$W/stale.log"
fi
# 4. learning at run time
head -50001 "$W/test.csv" > "$W/first.csv"
"$SREMC" train samples/machine.srem "$W/first.csv" -o "$W/first.model" || bad "train first"
"$SREMC" build samples/machine.srem --model "$W/first.model" -o "$W/first" 2>/dev/null || bad "build first"
"$SREMC" build samples/machine.srem -o "$W/nomodel" 2>/dev/null || bad "build without a model"
"$W/first" --format jsonl --forecast-stats "$W/test.csv" > "$W/first.jsonl" || bad "run first"
"$W/nomodel" --format jsonl --train-first 50000 --forecast-stats "$W/test.csv" > "$W/tf.jsonl" || bad "run --train-first"
python3 - "$W" <<'PY' || fail=$((fail + 1))
import json, sys
w = sys.argv[1]
def records(path):
    return [json.loads(l) for l in open(path)]
tf, first = records(f"{w}/tf.jsonl"), records(f"{w}/first.jsonl")
early = [r for r in tf if r["kind"] == "forecast" and r["index"] <= 50000]
def mean_prob(rs, lo):
    """the interval records after event lo: their mean probability and number"""
    ps = [r["prob"] for r in rs if r["kind"] == "forecast" and r["name"] == "breakdown" and r["index"] > lo]
    return (sum(ps) / len(ps) if ps else 0.0), len(ps)
a, na = mean_prob(tf, 50000)
b, nb = mean_prob(first, 50000)
print(f"forecast: --train-first 50000: {na} interval records after it, mean probability {a:.4f}; "
      f"the model of the same events compiled in: {nb}, {b:.4f}")
ok = not early and abs(a - b) <= 0.03 and na > 0
if early:
    print(f"forecast: FAIL --train-first gave {len(early)} forecasts while learning")
if abs(a - b) > 0.03 or na == 0:
    print("forecast: FAIL --train-first forecasts differ from those of the model of the same events")
sys.exit(0 if ok else 1)
PY
[ "$fail" -eq 0 ] && echo "forecast: end to end passed"
[ "$fail" -eq 0 ]
