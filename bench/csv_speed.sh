#!/bin/sh
# csv_speed.sh: SREMC LIB -> the CSV ingest table of docs/PERFORMANCE.md:
# a program with one trivial pattern (bench/csv/*.srem, built by `sremc
# build`, so with the runtime as users get it) reading the sensor shape
# (type,id,value,time; CSV_LINES lines, default 2,000,000, about 50 MB) and
# the wide one (12 columns, quoted strings; a quarter as many lines), beside
# `cat FILE > /dev/null` and `wc -l FILE` timed in the same run. Each row is
# the median of CSV_REPS runs (default 5) of CPU time (perf stat's
# task-clock, in microseconds; without perf, elapsed time), the file read
# from the page cache: on a shared machine elapsed time mostly measures the
# other processes. CSV_CACHEGRIND=1 adds instructions per byte and
# per event (valgrind --tool=cachegrind on a tenth of the lines).
# CSV_BASE_LIB=OTHER/libsremrt.a adds a row per shape for the same program
# linked with that runtime (another commit's, same ABI): before and after in
# the same run.
# Usage: sh bench/csv_speed.sh bin/sremc lib/libsremrt.a
set -e
SREMC=${1:-bin/sremc}
LIB=${2:-lib/libsremrt.a}
LINES=${CSV_LINES:-2000000}
REPS=${CSV_REPS:-5}
OUT=${CSV_BENCH_DIR:-build/csvbench}
HERE=$(dirname "$0")
mkdir -p "$OUT"
[ -f "$LIB" ] || { echo "csv_speed.sh: $LIB missing (make first)" >&2; exit 2; }

gen() {   # gen SHAPE LINES: the stream, made once per shape and size
    f="$OUT/$1-$2.csv"
    [ -s "$f" ] || awk -v shape="$1" -v n="$2" -f "$HERE/csv/gen.awk" > "$f"
    echo "$f"
}

# secs CMD...: CPU seconds of one run (elapsed without perf), output discarded
if perf stat -x, -e task-clock true > /dev/null 2>&1; then
    secs() {
        perf stat -x, -e task-clock -o "$OUT/perf.txt" "$@" > /dev/null 2>&1 || true
        awk -F, '/task-clock/ { printf "%.4f\n", $1 / 1000 }' "$OUT/perf.txt"
    }
    CLOCK="CPU s"
else
    secs() {
        t0=$(date +%s%N)
        "$@" > /dev/null 2>&1 || true
        t1=$(date +%s%N)
        awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", (b - a) / 1e9 }'
    }
    CLOCK="elapsed s"
fi

# median CMD...: the median of REPS runs of secs
median() {
    i=0
    : > "$OUT/runs.txt"
    while [ $i -lt "$REPS" ]; do
        secs "$@" >> "$OUT/runs.txt"
        i=$((i + 1))
    done
    sort -n "$OUT/runs.txt" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

row() {   # row NAME FILE LINES SECONDS
    bytes=$(wc -c < "$2")
    awk -v n="$1" -v b="$bytes" -v l="$3" -v s="$4" 'BEGIN {
        if (s < 0.0001) s = 0.0001
        printf "| %-22s | %6.1f | %7.4f | %7.0f | %7.2f |\n", n, b / 1e6, s, b / 1e6 / s, l / 1e6 / s }'
}

echo "| input, run | MB | $CLOCK | MB/s | M events/s |"
echo "|---|---|---|---|---|"
for shape in sensor wide; do
    n=$LINES
    [ "$shape" = wide ] && n=$((LINES / 4))
    f=$(gen "$shape" "$n")
    prog="$OUT/$shape"
    "$SREMC" build "$HERE/csv/$shape.srem" -o "$prog"
    row "$shape: cat > /dev/null" "$f" "$n" "$(median cat "$f")"
    row "$shape: wc -l" "$f" "$n" "$(median wc -l "$f")"
    if [ -n "${CSV_BASE_LIB:-}" ]; then
        # the same build, the runtime archive swapped by a CC wrapper
        printf '#!/bin/sh\nfor a; do shift; case "$a" in *libsremrt.a) set -- "$@" "%s";; *) set -- "$@" "$a";; esac; done\nexec %s "$@"\n' \
            "$CSV_BASE_LIB" "${CC:-cc}" > "$OUT/cc-base"
        CC="sh $OUT/cc-base" "$SREMC" build "$HERE/csv/$shape.srem" -o "$prog-base"
        row "$shape: program, base" "$f" "$n" "$(median "$prog-base" "$f")"
    fi
    row "$shape: program" "$f" "$n" "$(median "$prog" "$f")"
done
if [ "${CSV_CACHEGRIND:-0}" = 1 ] && command -v valgrind > /dev/null; then
    echo
    echo "| input | instructions per byte | per event |"
    echo "|---|---|---|"
    for shape in sensor wide; do
        n=$((LINES / 10))
        [ "$shape" = wide ] && n=$((n / 4))
        f=$(gen "$shape" "$n")
        for prog in "$OUT/$shape-base" "$OUT/$shape"; do
            [ -x "$prog" ] && [ "$prog" != "$OUT/$shape-base" -o -n "${CSV_BASE_LIB:-}" ] || continue
            valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
                "$prog" "$f" > /dev/null 2> "$OUT/cg.txt" || true
            ir=$(sed -n 's/.*I *refs: *//p' "$OUT/cg.txt" | tr -d ,)
            awk -v s="$(basename "$prog")" -v ir="$ir" -v b="$(wc -c < "$f")" -v l="$n" \
                'BEGIN { printf "| %s | %.1f | %.0f |\n", s, ir / b, ir / l }'
        done
    done
fi
