#!/bin/sh
# bench/threads.sh SREMC [EVENTS [REPS]]: a generated program's --threads
# (docs/PERFORMANCE.md, "Threads"). Builds samples/trend.srem (two runs
# patterns with registers, partitioned by symbol) as a program, writes a
# seeded stream of EVENTS trades (default 2,000,000) over 500 symbols,
# and runs the program on it with --threads 1, 2 and 3, REPS times each
# (default 3), alternating: median wall seconds, events/s, and the CPU
# seconds (user + system) of the median run; the records of every run
# are checked against the first. `cat FILE > /dev/null` in the same run
# for scale. With valgrind installed, also the instructions per thread of
# --threads 2 on the first 200,000 events (callgrind --separate-threads):
# the reader, then the workers, beside the one-thread total.
set -eu
SREMC=${1:-bin/sremc}
N=${2:-2000000}
REPS=${3:-3}
OUT=build/bench/threads
mkdir -p "$OUT"
CFLAGS=${BENCH_CFLAGS:--O2} "$SREMC" build samples/trend.srem -o "$OUT/trend"
awk -v n="$N" 'BEGIN {
    srand(7); print "symbol,price,volume,time"; t = 1000000
    for (s = 0; s < 500; s++) p[s] = 100
    for (i = 0; i < n; i++) {
        s = int(rand() * 500); p[s] += (rand() - 0.5) * 2; t += int(rand() * 3)
        printf "%d,%.2f,%d,%d\n", s, p[s], 1 + int(rand() * 100), t
    }
}' > "$OUT/trades.csv"
bytes=$(wc -c < "$OUT/trades.csv")

# run T: one timed run, "wall cpu" appended to $OUT/t$T.times
run() {
    /usr/bin/time -f "%e %U %S" -o "$OUT/time" "$OUT/trend" --threads "$1" "$OUT/trades.csv" > "$OUT/out"
    if [ -f "$OUT/want" ]; then
        cmp -s "$OUT/want" "$OUT/out" || { echo "threads: --threads $1 changed the records" >&2; exit 1; }
    else
        mv "$OUT/out" "$OUT/want"
    fi
    awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$OUT/time" >> "$OUT/t$1.times"
}
rm -f "$OUT"/t*.times "$OUT/want"
for r in $(seq "$REPS"); do
    for t in 1 2 3; do
        run $t
    done
done
start=$(date +%s.%N)
cat "$OUT/trades.csv" > /dev/null
cat_s=$(echo "$start $(date +%s.%N)" | awk '{ printf "%.3f", $2 - $1 }')

echo
echo "threads: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1), $(nproc) CPUs, load" \
     "$(cut -d' ' -f1-3 /proc/loadavg); $N events, $bytes bytes; $(date -u '+%Y-%m-%d %H:%M UTC')"
echo
echo "| run | wall s (median of $REPS) | events/s | MB/s | CPU s | x --threads 1 |"
echo "|---|---|---|---|---|---|"
base=
for t in 1 2 3; do
    med=$(sort -n "$OUT/t$t.times" | awk -v k="$REPS" 'NR == int((k + 1) / 2)')
    [ -n "$base" ] || base=${med% *}
    echo "$med" | awk -v t="$t" -v n="$N" -v b="$bytes" -v base="$base" '{
        printf "| `--threads %d` | %.2f | %.0f | %.0f | %.2f | %.2f |\n", t, $1, n / $1, b / $1 / 1e6, $2, base / $1 }'
done
echo "| \`cat FILE > /dev/null\` | $cat_s | | | | |"

if command -v valgrind > /dev/null; then
    head -n 200001 "$OUT/trades.csv" > "$OUT/small.csv"
    rm -f "$OUT"/cg.*
    valgrind --tool=callgrind --callgrind-out-file="$OUT/cg.one" "$OUT/trend" "$OUT/small.csv" \
        > /dev/null 2> "$OUT/cg.log"
    valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$OUT/cg.two" \
        "$OUT/trend" --threads 2 "$OUT/small.csv" > /dev/null 2>> "$OUT/cg.log"
    one=$(sed -n 's/^totals: //p' "$OUT/cg.one")
    echo
    echo "instructions, 200,000 events: one thread $one; --threads 2 by thread (reader first):" \
         "$(for f in "$OUT"/cg.two-*; do sed -n 's/^totals: //p' "$f"; done | tr '\n' ' ')"
fi
