#!/bin/sh
# bench/ingest.sh SREMC LIBSREMRT: the ingest table of `make bench`
# (docs/PERFORMANCE.md, "Ingest"): MB/s and events/s of a program built by
# `sremc build` reading CSV, JSON Lines and binary input of the same events,
# beside `cat FILE > /dev/null` and `wc -l FILE` timed in the same run.
#
# Shapes: sensor (type,id,value,time; INGEST_LINES lines, default
# 2,000,000, about 50 MB of CSV) and wide (12 columns, quoted strings; a
# quarter as many lines), from bench/csv/gen.awk in both formats, with the
# one-pattern programs of bench/csv/*.srem; the bin file is --convert-bin's
# output from the CSV (from the JSONL too, which must be the same bytes),
# and the three inputs must give the same records. When the program has
# --threads, the rows "threads 1" and "threads 2" run the same pattern
# partitioned (sensor: by id, wide: by units; 1,000 keys each: a
# partitioned pattern keeps its last 256 events per key for the start of
# its matches, so the wide shape's 100,000 ids would take gigabytes). Last, the record floor: 10 M 16-byte records
# (bench/ingest_rec.srem, `A B C` within 3 events) through --input bin,
# beside the record-sum floor (bench/ingest_floor.c, in memory) on the same
# records, and the same sum fed by the file (read(2) in 64 KiB and 1 MiB
# blocks, mmap with and without MAP_POPULATE: the floor of a program that
# reads a file, bench/ingest_floor.c's modes). Each figure is the median of INGEST_REPS runs (default 5; 3
# with INGEST_QUICK=1) of CPU time (user + system of the child, all its
# threads) and of elapsed time, files in the page cache (one run first).
# INGEST_SHAPES (default "sensor wide"): the text shapes to run; "" runs
# the record floor's part alone.
# Then, with valgrind installed (INGEST_CACHEGRIND=0: not), instructions
# per byte and per event of each program on a tenth of the events
# (cachegrind: a count the machine's load does not change). Writes the
# tables to stdout and build/bench/ingest.md, JSON lines to
# build/bench/ingest.json.
set -eu

SREMC=$1
LIB=$2
CC=${CC:-cc}
LINES=${INGEST_LINES:-2000000}
RECS=${INGEST_RECORDS:-10000000}
REPS=${INGEST_REPS:-5}
[ "${INGEST_QUICK:-0}" = 1 ] && REPS=3
OUT=build/bench/ingest
MD=build/bench/ingest.md
JSON=build/bench/ingest.json
mkdir -p "$OUT"
[ -f "$LIB" ] || { echo "ingest: $LIB missing (make first)" >&2; exit 2; }

$CC -std=c99 -O2 -Wall -Wextra -Werror -Ibench -o "$OUT/time" bench/ingest_time.c
$CC -std=c99 ${BENCH_CFLAGS:--O3 -march=native} -Wall -Wextra -Werror -Ibench -o "$OUT/floor" bench/ingest_floor.c

gen() {   # gen SHAPE FORMAT LINES: the file, made once per shape, format and size
    f="$OUT/$1-$3.$2"
    [ -s "$f" ] || awk -v shape="$1" -v format="$2" -v n="$3" -f bench/csv/gen.awk > "$f"
    echo "$f"
}

# row SHAPE INPUT RUN FILE EVENTS CMD...: one table row and JSON line
row() {
    shape=$1 input=$2 run=$3 file=$4 events=$5
    shift 5
    "$@" > /dev/null 2>&1 || true   # the page cache, and the code
    set -- $("$OUT/time" "$REPS" "$@")
    bytes=$(wc -c < "$file")
    awk -v s="$shape" -v i="$input" -v r="$run" -v b="$bytes" -v e="$events" -v c="$1" -v w="$2" \
        -v md="$MD" -v js="$JSON" 'BEGIN {
        if (c < 0.0001) c = 0.0001
        if (w < 0.0001) w = 0.0001
        line = sprintf("| %s | %s | %s | %.1f | %.2f | %.3f | %.3f | %.0f | %.0f | %.2f | %.2f |",
                       s, i, r, b / 1e6, e / 1e6, c, w, b / 1e6 / c, b / 1e6 / w, e / 1e6 / c, e / 1e6 / w)
        print line; print line >> md
        printf "{\"bench\":\"ingest\",\"shape\":\"%s\",\"input\":\"%s\",\"run\":\"%s\",\"bytes\":%d,\"events\":%d,\"cpu_s\":%.4f,\"wall_s\":%.4f}\n",
               s, i, r, b, e, c, w >> js
    }'
}

# same A B WHAT: the records of two runs must agree
same() {
    if ! cmp -s "$1" "$2"; then
        echo "ingest: FAIL $3: the records differ ($1, $2)" >&2
        exit 1
    fi
}

: > "$JSON"
{
    echo "Medians of $REPS runs; CPU: user + system time of the program (all threads), wall: elapsed;"
    echo "rates per CPU second and per wall second. $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start."
    echo
    echo "| shape | input | run | MB | M events | CPU s | wall s | MB/s CPU | MB/s wall | M events/s CPU | M events/s wall |"
    echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
} > "$MD"
cat "$MD"
SHAPES=${INGEST_SHAPES-sensor wide}
for shape in $SHAPES; do
    n=$LINES
    [ "$shape" = wide ] && n=$((LINES / 4))
    csv=$(gen "$shape" csv "$n")
    jsonl=$(gen "$shape" jsonl "$n")
    prog=$OUT/$shape
    "$SREMC" build bench/csv/$shape.srem -o "$prog"
    "$prog" --convert-bin "$OUT/$shape.bin" "$csv"
    "$prog" --convert-bin "$OUT/$shape.jl.bin" --input jsonl "$jsonl"
    same "$OUT/$shape.bin" "$OUT/$shape.jl.bin" "$shape: --convert-bin from CSV and from JSONL"
    "$prog" "$csv" > "$OUT/$shape.csv.out"
    "$prog" --input jsonl "$jsonl" > "$OUT/$shape.jsonl.out"
    "$prog" --input bin "$OUT/$shape.bin" > "$OUT/$shape.bin.out"
    same "$OUT/$shape.csv.out" "$OUT/$shape.jsonl.out" "$shape: CSV and JSONL"
    same "$OUT/$shape.csv.out" "$OUT/$shape.bin.out" "$shape: CSV and bin"
    row "$shape" csv "cat > /dev/null" "$csv" "$n" cat "$csv"
    row "$shape" csv "wc -l" "$csv" "$n" wc -l "$csv"
    row "$shape" csv program "$csv" "$n" "$prog" "$csv"
    row "$shape" jsonl "cat > /dev/null" "$jsonl" "$n" cat "$jsonl"
    row "$shape" jsonl "wc -l" "$jsonl" "$n" wc -l "$jsonl"
    row "$shape" jsonl program "$jsonl" "$n" "$prog" --input jsonl "$jsonl"
    row "$shape" bin "cat > /dev/null" "$OUT/$shape.bin" "$n" cat "$OUT/$shape.bin"
    row "$shape" bin program "$OUT/$shape.bin" "$n" "$prog" --input bin "$OUT/$shape.bin"
    if "$prog" --help | grep -q -- '--threads'; then
        key=id
        [ "$shape" = wide ] && key=units
        sed "s/^\(pattern [a-z_]* on [A-Za-z]*\)/\1 partition by $key/" bench/csv/$shape.srem > "$OUT/${shape}_p.srem"
        "$SREMC" build "$OUT/${shape}_p.srem" -o "${prog}_p"
        for input in csv jsonl bin; do
            f=$csv
            [ $input = jsonl ] && f=$jsonl
            [ $input = bin ] && f=$OUT/$shape.bin
            for t in 1 2; do
                row "$shape" $input "partitioned, --threads $t" "$f" "$n" "${prog}_p" --input $input --threads $t "$f"
            done
        done
    fi
done
if [ -n "$SHAPES" ] && ! "$OUT/sensor" --help | grep -q -- '--threads'; then
    echo "| (--threads: not in this program: no rows) | | | | | | | | | | |" | tee -a "$MD"
fi

# The record floor: --input bin against the 16-byte record sum.
rec=$(gen rec csv "$RECS")
"$SREMC" build bench/ingest_rec.srem -o "$OUT/rec"
"$OUT/rec" --convert-bin "$OUT/rec.bin" "$rec"
row rec bin "cat > /dev/null" "$OUT/rec.bin" "$RECS" cat "$OUT/rec.bin"
row rec bin program "$OUT/rec.bin" "$RECS" "$OUT/rec" --input bin "$OUT/rec.bin"
set -- $("$OUT/floor" "$OUT/rec.bin" "$REPS")
floor_s=$1
prog_s=$(tail -1 "$JSON" | sed 's/.*"cpu_s":\([0-9.]*\).*/\1/')
# The report line judges the program against the floor of a program that
# reads the same file (read(2) in 64 KiB blocks, as --input bin does),
# measured below; the in-memory floor is given beside it, but no program
# fed by a file can reach half of it here (the kernel's copy alone costs
# more): its ratio is context, not the target.
set -- $("$OUT/floor" "$OUT/rec.bin" "$REPS" read:64)
read_s=$1
awk -v f="$floor_s" -v r="$read_s" -v p="$prog_s" -v n="$RECS" -v md="$MD" 'BEGIN {
    line = sprintf("\nRecord floors: the program on --input bin (%s records of 16 bytes, `A B C` within 3 events, whole run, CPU) %.2f ns/record, %.2fx the speed of the file-fed floor (the record sum over read(2) in 64 KiB blocks, what the program reads: %.3f ns/record; target 0.5x: %s) and %.2fx that of the in-memory floor (%.3f ns/record, %.0f M records/s; the file-fed floor itself is %.2fx it, so 0.5x of it is out of reach for a program reading a file).",
                   n, p / n * 1e9, r / p, r / n * 1e9, r / p >= 0.5 ? "met" : "missed", f / p, f / n * 1e9, n / f / 1e6, f / r)
    print line; print line >> md
}'
printf '{"bench":"ingest","shape":"rec","run":"record-sum floor","events":%d,"cpu_s":%s}\n' "$RECS" "$floor_s" >> "$JSON"
# The floor of a program fed by a file: the same sum over the records as
# read(2) gives them (blocks of 64 KiB, what --input bin reads, and 1 MiB)
# or a mapping gives them (sequential advice; MAP_POPULATE), CPU time of
# user and kernel, in the same run.
{
    echo
    echo "File-fed floors (the record sum with the file's reading, CPU):"
    echo
    echo "| source | ns/record | x in-memory floor's speed | program x this floor's speed |"
    echo "|---|---:|---:|---:|"
} | tee -a "$MD"
for mode in read:64 read:1024 mmap populate; do
    set -- $("$OUT/floor" "$OUT/rec.bin" "$REPS" "$mode")
    awk -v m="$mode" -v s="$1" -v f="$floor_s" -v p="$prog_s" -v n="$RECS" -v md="$MD" 'BEGIN {
        name = m == "mmap" ? "mmap, sequential advice" : m == "populate" ? "mmap, MAP_POPULATE" : "read(2), " substr(m, 6) " KiB blocks"
        line = sprintf("| %s | %.3f | %.2f | %.2f |", name, s / n * 1e9, f / s, s / p)
        print line; print line >> md
    }'
    printf '{"bench":"ingest","shape":"rec","run":"file-fed floor %s","events":%d,"cpu_s":%s}\n' "$mode" "$RECS" "$1" >> "$JSON"
done
if [ "${INGEST_CACHEGRIND:-1}" = 1 ] && command -v valgrind > /dev/null; then
    {
        echo
        echo "Instructions (valgrind --tool=cachegrind, whole program) on a tenth of the events:"
        echo
        echo "| shape | input | instructions per byte | per event |"
        echo "|---|---|---:|---:|"
    } | tee -a "$MD"
    for shape in $SHAPES rec; do
        n=$((LINES / 10))
        [ "$shape" = wide ] && n=$((n / 4))
        [ "$shape" = rec ] && n=$((RECS / 10))
        for input in csv jsonl bin; do
            [ "$shape" = rec ] && [ "$input" != bin ] && continue
            f=$(gen "$shape" "$input" "$n")
            [ "$input" = bin ] && { "$OUT/$shape" --convert-bin "$OUT/$shape-$n.bin" "$(gen "$shape" csv "$n")"; f=$OUT/$shape-$n.bin; }
            valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
                "$OUT/$shape" --input "$input" "$f" > /dev/null 2> "$OUT/cg.txt" || true
            ir=$(sed -n 's/.*I *refs: *//p' "$OUT/cg.txt" | tr -d ,)
            awk -v s="$shape" -v i="$input" -v ir="$ir" -v b="$(wc -c < "$f")" -v n="$n" -v md="$MD" -v js="$JSON" 'BEGIN {
                line = sprintf("| %s | %s | %.1f | %.0f |", s, i, ir / b, ir / n)
                print line; print line >> md
                printf "{\"bench\":\"ingest\",\"shape\":\"%s\",\"input\":\"%s\",\"run\":\"cachegrind\",\"bytes\":%d,\"events\":%d,\"instructions\":%d}\n", s, i, b, n, ir >> js
            }'
        done
    done
fi
echo "ingest: wrote $MD and $JSON"
