#!/bin/sh
# bench/episodes.sh LIBSREMRT: the episodes part of `make bench`.
#
# Compiles bench/episode_bench.c with $CC $BENCH_CFLAGS (default -O2) and
# runs it: ns/event of the runtime's episode counters beside a naive
# one-automaton-per-start counter and a brute-force counter, frequencies
# checked (docs/PERFORMANCE.md, "Episodes"). Writes the table to stdout and
# JSON lines to build/bench/episodes.json. BENCH_FULL=1: 10 M events, 5
# repetitions, 10x the time budgets of the slow baselines.
set -eu

LIB=$1
CC=${CC:-cc}
BENCH_CFLAGS=${BENCH_CFLAGS:--O2}
OUT=build/bench
FULL=
[ -n "${BENCH_FULL:-}" ] && [ "${BENCH_FULL}" != 0 ] && FULL=--full

mkdir -p "$OUT"
$CC -std=c99 $BENCH_CFLAGS -Wall -Wextra -Iruntime/include -o "$OUT/episode_bench" \
    bench/episode_bench.c "$LIB"
echo
echo "episodes: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1), $(nproc) CPUs;" \
     "$($CC --version | head -n 1), $BENCH_CFLAGS; $(date -u '+%Y-%m-%d %H:%M UTC')"
"$OUT/episode_bench" $FULL --json "$OUT/episodes.json"
