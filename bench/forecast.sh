#!/bin/sh
# forecast.sh SREMC LIB: what forecasting costs (docs/forecasting.md), on the
# machine sample's source (samples/machine_gen.c), one pattern:
#  - per event, the matcher with its forecasts (`breakdown` of
#    samples/machine.srem and its model) against the same pattern without
#    the clause, in the same tree layout and in the layout auto picks, and
#    both in the table layout (--layout table);
#  - training: the matcher handing symbols to the counts (what
#    `sremc train` runs).
# Instructions per event (valgrind's cachegrind, deterministic) are the
# figure to compare on a busy machine; seconds (best of 3, push_many over
# events in memory, records counted and dropped) are beside them.
set -u
SREMC=$1
LIB=$2
W=build/bench-forecast
N=${FORECAST_BENCH_EVENTS:-1000000}
rm -rf "$W" && mkdir -p "$W"
cc -std=c99 -O2 -o "$W/gen" samples/machine_gen.c || exit 1
"$W/gen" --events "$N" --seed 5 > "$W/ev.csv"
# one pattern: breakdown, with and without its clause
awk '/^pattern breakdown_soon/ { skip = 1 } !skip' samples/machine.srem > "$W/fc.srem"
sed 's/^} forecast.*/}/' "$W/fc.srem" > "$W/plain.srem"
"$SREMC" build "$W/plain.srem" -o "$W/conv" 2>/dev/null && "$W/conv" --convert-bin "$W/ev.bin" "$W/ev.csv" || exit 1
"$W/gen" --events 200000 --seed 2 > "$W/train.csv"
"$SREMC" train "$W/fc.srem" "$W/train.csv" -o "$W/fc.model" || exit 1
build() {   # name srem [sremc options] [-DTRAIN]
    n=$1 f=$2; shift 2
    extra=""
    case "${*:-}" in *-DTRAIN*) extra=-DTRAIN ;; esac
    opts=$(echo "${*:-}" | sed 's/-DTRAIN//')
    # shellcheck disable=SC2086
    "$SREMC" $opts --prefix "$n" "$f" -o "$W/$n.c" 2>/dev/null &&
        cc -std=c99 -O2 -Iruntime/include -I"$W" -DPFX="$n" -DHDR="\"$n.h\"" $extra -o "$W/$n" \
            bench/forecast_bench.c "$W/$n.c" "$LIB" -lm
}
build fc "$W/fc.srem" --model "$W/fc.model" || exit 1
build plain_tree "$W/plain.srem" --layout tree || exit 1
build plain "$W/plain.srem" || exit 1
build fc_table "$W/fc.srem" --model "$W/fc.model" --layout table || exit 1
build plain_table "$W/plain.srem" --layout table || exit 1
build train "$W/fc.srem" -DTRAIN || exit 1
count() {   # instructions of one run
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 |
        awk '/I *refs:/ { gsub(",", "", $NF); print $NF }'
}
irefs() {   # instructions per event of push_many (with records, or $2 = norec), the reading subtracted
    echo "$(count "$1" "$W/ev.bin" ${2:-}) $(count "$1" "$W/ev.bin" load)" |
        awk -v n="$N" '{ printf "%.1f", ($1 - $2) / n }'
}
best() {   # best seconds of 3
    for _ in 1 2 3; do "$1" "$W/ev.bin"; done | awk '{ if (!b || $6 < b) b = $6 } END { print b }'
}
echo "forecast: $N events of samples/machine_gen.c (seed 5), pattern breakdown of samples/machine.srem"
for n in plain plain_tree fc plain_table fc_table train; do
    i=$(irefs "$W/$n")
    j=$(irefs "$W/$n" norec)
    s=$(best "$W/$n")
    r=$("$W/$n" "$W/ev.bin" | awk '{ print $4 }')
    printf 'forecast: %-11s %7s instructions/event (%7s without records)  %6.2f M events/s  %s records\n' \
        "$n" "$i" "$j" "$(echo "$N $s" | awk '{ printf "%.2f", $1 / $2 / 1e6 }')" "$r"
    eval "i_$n=$i j_$n=$j"
done
# shellcheck disable=SC2154
echo "$i_plain_tree $i_fc $i_plain $j_plain_tree $j_fc $j_plain" | awk '{
    printf "forecast: overhead of the forecasts, in instructions: with the records %+.1f%% against the same tree layout, %+.1f%% against auto'"'"'s layout; without records %+.1f%% and %+.1f%%\n",
        ($2 - $1) / $1 * 100, ($2 - $3) / $3 * 100, ($5 - $4) / $4 * 100, ($5 - $6) / $6 * 100 }'
