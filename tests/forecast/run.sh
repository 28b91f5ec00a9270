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
#     event N, and as well as the model learned on the same N events;
#  5. the layouts a forecast pattern may take give the same records and
#     summaries: tree and table (enum classes and atom bits, a time window's
#     tags, partitioned and not), one program each, on 20,000 held-out events;
#     and push_many gives push's forecasts (tests/gen/push_many.c);
#  6. emit modes: `changes` is `every` thinned to the changes (an awk
#     oracle), and checkpoints restored across the two modes.
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
# machine.srem's two patterns share the automaton and the model: one copy
# of the context array, which both steps read (firmware's flash)
"$SREMC" samples/machine.srem --model "$W/ref.model" -o "$W/shared.c" || bad "emit shared"
[ "$(grep -c ' next\[[0-9]*\];' "$W/shared.c")" -eq 1 ] && [ "$(grep -c 'p0_fc\.next\[' "$W/shared.c")" -gt 17 ] ||
    bad "the two patterns of samples/machine.srem do not share one context array"
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
# 5. layouts: tree against table (and auto), records and summaries
sed -n '/^schema/,/^}/p' samples/machine.srem > "$W/lay.srem"
cat >> "$W/lay.srem" <<'EOF'
pattern byenum on Machine partition by machine {
    TempHigh Vibration [kind != Repair]* Fault
} forecast interval confidence 0.5 horizon 60 max spread 15 order 3
pattern timed on Machine partition by machine within 20 s {
    TempHigh [kind != Repair]* Fault
} forecast interval confidence 0.3 horizon 40 order 2
pattern bybits on Machine partition by machine {
    TempHigh [kind != Normal && machine > 1]* Fault
} forecast within 8 events confidence 0.4 order 2
pattern whole on Machine {
    Vibration _* Fault
} forecast interval confidence 0.5 horizon 30 order 2
EOF
head -20001 "$W/test.csv" > "$W/lay.csv"
"$SREMC" train "$W/lay.srem" "$W/learn.csv" -o "$W/lay.model" 2>/dev/null || bad "train layouts"
for l in tree table auto; do
    "$SREMC" build "$W/lay.srem" --model "$W/lay.model" --layout $l -v -o "$W/lay_$l" 2>"$W/lay_$l.log" ||
        bad "build --layout $l"
    "$W/lay_$l" --forecast-emit every --forecast-stats "$W/lay.csv" > "$W/lay_$l.out" || bad "run --layout $l"
done
[ "$(grep -c 'layout table' "$W/lay_table.log")" -eq 4 ] || bad "--layout table: not every pattern took tables"
[ "$(grep -c '^forecast ' "$W/lay_tree.out")" -gt 1000 ] || bad "layouts: too few forecast records"
for l in table auto; do
    cmp -s "$W/lay_tree.out" "$W/lay_$l.out" || bad "--layout $l gives other records than the tree layout"
done
# 6. emit modes (the hook's one compare, flast carrying the mark of the
#    modes that see every event): under --forecast-emit changes a key's
#    forecast is written when it differs from the key's forecast at its
#    previous event ("none" included, which writes nothing), so an awk
#    oracle derives it from the `every` run and the events' keys; and a
#    checkpoint taken in one mode and restored in the other goes on as the
#    whole run in the other mode.
awk -F, 'NR > 1 { print NR - 1, $2 }' "$W/lay.csv" > "$W/keys.txt"   # index, machine
for l in tree table; do
    "$W/lay_$l" --forecast-emit every "$W/lay.csv" > "$W/every_$l.out" || bad "run every --layout $l"
    "$W/lay_$l" "$W/lay.csv" > "$W/changes_$l.out" || bad "run changes --layout $l"
    awk 'FNR == NR { key[$1] = $2; next }
         function settle(i,  p, k) {   # the patterns that gave no forecast at event i: none
             for (p in part) { k = p " " (part[p] ? key[i] : "-"); if (!((p, i) in seen)) last[k] = "none" }
         }
         FNR == 1 { part["byenum"] = part["timed"] = part["bybits"] = 1; part["whole"] = 0 }
         $1 != "forecast" { print; next }
         { i = substr($3, 7) + 0; if (i != at) { if (at) settle(at); at = i }
           seen[$2, i] = 1; k = $2 " " (part[$2] ? key[i] : "-")
           f = $0; sub(/ index=[0-9]+ ts=[0-9]+/, "", f)
           if (last[k] != f) print; last[k] = f }' "$W/keys.txt" "$W/every_$l.out" > "$W/oracle_$l.out"
    cmp -s "$W/oracle_$l.out" "$W/changes_$l.out" ||
        bad "--layout $l: --forecast-emit changes is not every's records whose forecast changed"
    for a in changes every; do
        for b in changes every; do
            head -n 7001 "$W/lay.csv" > "$W/cut.csv"
            "$W/lay_$l" --forecast-emit $a --checkpoint "$W/ck" "$W/cut.csv" > /dev/null || bad "checkpoint $a"
            "$W/lay_$l" --forecast-emit $b --restore "$W/ck" "$W/lay.csv" > "$W/restored.out" || bad "restore $b"
            awk 'match($0, / index=[0-9]+/) && substr($0, RSTART + 7, RLENGTH - 7) + 0 <= 7000 { next } { print }' \
                "$W/${b}_$l.out" | cmp -s - "$W/restored.out" ||
                bad "--layout $l: a checkpoint of --forecast-emit $a restored under $b differs from the whole run"
        done
    done
done
# alone in its file, the unpartitioned pattern keeps its state in locals (push_many's blocks)
{ sed -n '/^schema/,/^}/p' "$W/lay.srem"; sed -n '/^pattern whole/,$p' "$W/lay.srem"; } > "$W/one.srem"
"$SREMC" train "$W/one.srem" "$W/learn.csv" -o "$W/one.model" || bad "train one"
for l in tree table; do
    "$SREMC" build "$W/one.srem" --model "$W/one.model" --layout $l -o "$W/one_$l" || bad "build one --layout $l"
    "$W/one_$l" --forecast-emit every "$W/lay.csv" | grep '^forecast ' > "$W/one_$l.out"
done
grep '^forecast whole ' "$W/lay_tree.out" | cmp -s - "$W/one_table.out" ||
    bad "the pattern alone under --layout table forecasts otherwise than with the others"
cmp -s "$W/one_tree.out" "$W/one_table.out" || bad "the pattern alone: table and tree differ"
# --train-first (tables learned at run time) in both layouts
for l in tree table; do
    "$SREMC" build "$W/lay.srem" --layout $l -o "$W/tf_$l" 2>/dev/null || bad "build tf --layout $l"
    "$W/tf_$l" --train-first 5000 --forecast-stats "$W/lay.csv" > "$W/tf_$l.out" || bad "run tf --layout $l"
done
[ "$(grep -c '^forecast ' "$W/tf_table.out")" -gt 1000 ] || bad "--train-first under tables: too few forecasts"
cmp -s "$W/tf_tree.out" "$W/tf_table.out" || bad "--train-first: table and tree differ"

# push_many (batched blocks for an unpartitioned table) gives push's forecasts:
# tests/gen/push_many.c on forecast patterns, the model trained on a seeded stream
{ echo 'schema S { ts : timestamp; type : enum { A, B, C, D }; k : int; v : int; }'
  echo 'pattern fone on S { A _* [v > 3] C } forecast interval confidence 0.3 horizon 20 order 2'; } > "$W/pmf.srem"
awk 'BEGIN { srand(7); print "ts,type,k,v"; split("A B C D", t, " ");
    for (i = 0; i < 20000; i++) printf "%d,%s,%d,%d\n", i, t[1 + int(rand() * 4)], int(rand() * 4), int(rand() * 16) }' \
    > "$W/pmf.csv"
"$SREMC" train "$W/pmf.srem" "$W/pmf.csv" -o "$W/pmf.model" || bad "train pmf"
for l in table tree; do
    "$SREMC" "$W/pmf.srem" --model "$W/pmf.model" --layout $l --prefix pm -o "$W/pm.c" &&
        ${CC:-cc} -std=c99 -O1 -Wall -Wextra -Werror -Iruntime/include -I"$W" tests/gen/push_many.c "$W/pm.c" \
            lib/libsremrt.a -lm -o "$W/pm" && "$W/pm" >/dev/null || bad "push_many against push, forecasts, --layout $l"
done

[ "$fail" -eq 0 ] && echo "forecast: end to end passed"
[ "$fail" -eq 0 ]
