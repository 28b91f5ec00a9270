#!/bin/sh
# bench/state.sh SREMC LIBSREMRT: what checkpoints cost (docs/PERFORMANCE.md,
# "Checkpoints"): per matcher, the state's bytes after its stream and the
# median microseconds of NAME_state_save and NAME_state_load
# (bench/state_cost.c, BENCH_STATE_REPS repetitions, default 21), for the
# samples and for three workloads of 10,000 partition keys (100,000 seeded
# events): a runs pattern with a register and a time window (each key's
# runs and its ring of 256 events for start and bindings), a tdfa sequence
# under a count window (each key's state and ring of 20), a distinct
# episode with a repeated element (each key's configurations). Then the
# program: the keys10k runs workload whole, and with --checkpoint-every
# 10000 (ten checkpoints), same run, the ratio of their times.
set -eu
SREMC=$1
LIB=$2
CC=${CC:-cc}
REPS=${BENCH_STATE_REPS:-21}
OUT=build/bench/state
rm -rf "$OUT"
mkdir -p "$OUT"

SCHEMA='schema S { type : enum { A, B, C }; id : int; v : int; t : timestamp(ms); }'
printf '%s\npattern keys on S within 10 s partition by id { x:A _* [type == B && v > x.v] }\n' "$SCHEMA" > "$OUT/keysruns.srem"
printf '%s\npattern seq on S within 20 events partition by id { A B C }\n' "$SCHEMA" > "$OUT/keystdfa.srem"
printf '%s\nepisode ep on S partition by id within 5 s frequency distinct { A A B }\n' "$SCHEMA" > "$OUT/keysepisode.srem"
awk 'BEGIN { srand(17); print "type,id,v,t"; for (i = 1; i <= 100000; i++)
    printf "%s,%d,%d,%d\n", substr("ABC", int(rand() * 3) + 1, 1), int(rand() * 10000), int(rand() * 100), i * 10 }' \
    > "$OUT/keys.csv"

cost() {   # NAME SRC CSV [EXTERN...]
    n=$1 src=$2 csv=$3
    shift 3
    "$SREMC" "$src" -o "$OUT/$n.c" 2>/dev/null
    # shellcheck disable=SC2068
    $CC -std=c99 -O2 -Iruntime/include -I"$OUT" -DPFX="$n" -DHDR="\"$n.h\"" -o "$OUT/cost_$n" \
        bench/state_cost.c "$OUT/$n.c" $@ "$LIB" -lm
    printf '%-12s %s\n' "$n" "$("$OUT/cost_$n" "$csv" "$REPS")"
}
echo "checkpoint cost: state bytes, median us of save and of load ($REPS repetitions)"
for s in fire ships trend telecom building; do
    ext=$(ls samples/"${s}"_*.c 2>/dev/null | grep -v "_gen\.c$" || true)
    # shellcheck disable=SC2086
    cost "$s" "samples/$s.srem" "samples/$s.csv" $ext
done
for w in keysruns keystdfa keysepisode; do
    cost "$w" "$OUT/$w.srem" "$OUT/keys.csv"
done

"$SREMC" build "$OUT/keysruns.srem" -o "$OUT/keysruns_prog" 2>/dev/null
t() { s=$(date +%s.%N); "$@" >/dev/null; e=$(date +%s.%N); echo "$e - $s" | bc; }
plain=$(t "$OUT/keysruns_prog" "$OUT/keys.csv")
ck=$(t "$OUT/keysruns_prog" --checkpoint "$OUT/ck" --checkpoint-every 10000 "$OUT/keys.csv")
plain2=$(t "$OUT/keysruns_prog" "$OUT/keys.csv")
echo "program keysruns, 100,000 events: ${plain}s and ${plain2}s whole, ${ck}s with a checkpoint every 10,000 events" \
     "($(stat -c %s "$OUT/ck") bytes each)"
