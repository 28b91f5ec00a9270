#!/bin/sh
# bench/runs.sh SREMC LIBSREMRT [BASE]: the runs strategy in `make bench`:
# events/s of generated --strategy runs matchers (bench/runs_bench.c, one
# seeded stream) for
#   hot:  within 1 h { x:A _* [type == B && id == x.id] }, 2,000 ids, so
#         2,000 live runs (time window, a register, a self-loop, a key);
#   gap:  A _{0,8} B _{0,8} C (gap-bounded, no window);
#   gap100: A _{0,98} B _{0,98} C (B2's shape at w = 100);
#   seq:  within 10 events policy stam { A B C } (B1's shape, register-free);
#   regs: within 3 events { x:A y:[type == B && v > x.v] [type == C && v > y.v] }
#         (B7's shape: registers, contiguous, a count window);
# with this SREMC and, when BASE names a commit (default 0d99b5a, the
# runs code before the run-set engine; BENCH_RUNS_BASE= to skip it), with
# the sremc and runtime of BASE built from `git archive` in a temporary
# directory, in the same run. Prints per workload and version the lines of
# C, sremc and cc seconds, median events/s of BENCH_RUNS_REPS (default 5)
# passes of up to BENCH_RUNS_N events (default 10 M) or BENCH_RUNS_SECS
# (default 2) seconds each, matches and overflows (the counts agree when
# both versions got through all events).
set -eu
SREMC=$1
LIB=$2
BASE=${3-${BENCH_RUNS_BASE-0d99b5a}}
CC=${CC:-cc}
CFLAGS_B=${BENCH_CFLAGS:--O2}
N=${BENCH_RUNS_N:-10000000}
REPS=${BENCH_RUNS_REPS:-5}
SECS=${BENCH_RUNS_SECS:-2}
OUT=build/bench/runs
rm -rf "$OUT"
mkdir -p "$OUT"
HERE=$(pwd)

secs_since() { echo "$(date +%s.%N) - $1" | bc; }

SCHEMA='schema S { type : enum { A, B, C }; id : int; v : int; t : timestamp(ms); }'
printf '%s\npattern hot on S within 1 h { x:A _* [type == B && id == x.id] }\n' "$SCHEMA" > "$OUT/hot.srem"
printf '%s\npattern gap on S { A _{0,8} B _{0,8} C }\n' "$SCHEMA" > "$OUT/gap.srem"
printf '%s\npattern gap100 on S { A _{0,98} B _{0,98} C }\n' "$SCHEMA" > "$OUT/gap100.srem"
printf '%s\npattern seq on S within 10 events policy stam { A B C }\n' "$SCHEMA" > "$OUT/seq.srem"
printf '%s\npattern regs on S within 3 events { x:A y:[type == B && v > x.v] [type == C && v > y.v] }\n' \
    "$SCHEMA" > "$OUT/regs.srem"

VERSIONS="now"
if [ -n "$BASE" ]; then
    B=$(mktemp -d "${TMPDIR:-/tmp}/sremc-base.XXXXXX")
    trap 'rm -rf "$B"' EXIT INT TERM
    git archive "$BASE" | tar -x -C "$B"
    if (cd "$B" && make -j2 bin/sremc lib/libsremrt.a >/dev/null 2>&1); then
        VERSIONS="$BASE now"
    else
        echo "runs bench: building $BASE failed; only this tree" >&2
    fi
fi

{
printf '| workload | version | C lines | sremc s | cc s | events/s (median) | matches | overflow | events |\n'
printf '|---|---|---:|---:|---:|---:|---:|---:|---:|\n'
for wl in hot gap gap100 seq regs; do
    for v in $VERSIONS; do
        if [ "$v" = now ]; then S=$SREMC L=$LIB I=runtime/include; else S=$B/bin/sremc L=$B/lib/libsremrt.a I=$B/runtime/include; fi
        name=${wl}_$(echo "$v" | tr -c 'a-zA-Z0-9\n' _)
        t0=$(date +%s.%N)
        "$S" "$OUT/$wl.srem" --strategy runs --max-runs 4096 --prefix "$name" -o "$OUT/$name.c"
        ssecs=$(secs_since "$t0")
        t0=$(date +%s.%N)
        # shellcheck disable=SC2086
        $CC -std=c99 $CFLAGS_B -I"$I" -I"$OUT" -c "$OUT/$name.c" -o "$OUT/$name.o"
        csecs=$(secs_since "$t0")
        # shellcheck disable=SC2086
        $CC -std=c99 $CFLAGS_B -I"$I" -I"$OUT" -DPFX="$name" -DHDR="\"$name.h\"" \
            "$HERE/bench/runs_bench.c" "$OUT/$name.o" "$L" -lm -o "$OUT/$name"
        r=$("$OUT/$name" "$N" 2000 "$REPS" "$SECS")
        set -- $r
        printf '| %s | %s | %s | %.2f | %.2f | %s | %s | %s | %s |\n' "$wl" "$v" "$(wc -l < "$OUT/$name.c")" \
            "$ssecs" "$csecs" "$2" "$4" "$6" "$8"
    done
done
} | tee "$OUT/report.md"
