#!/bin/sh
# bench/fc_core.sh LIBSREMRT: the forecasting core's part of `make bench`
# (also `make bench-fc`).
#
# Compiles bench/fc_core_bench.c with $CC $BENCH_CFLAGS (default -O2) and runs
# it: training speed (sremrt_fc_counts_add, order 3, events per CPU second,
# one substream and 1,000 interleaved ones), then the CPU time of the
# learner, the context automaton and a table at horizon 200. Writes the
# table to stdout and a JSON line to build/bench/fc_core.json.
# BENCH_FULL=1: 50 M events.
set -eu

LIB=$1
CC=${CC:-cc}
BENCH_CFLAGS=${BENCH_CFLAGS:--O2}
OUT=build/bench
EVENTS=10000000
[ -n "${BENCH_FULL:-}" ] && [ "${BENCH_FULL}" != 0 ] && EVENTS=50000000

mkdir -p "$OUT"
$CC -std=c99 $BENCH_CFLAGS -Wall -Wextra -Iruntime/include -Ibench -o "$OUT/fc_core_bench" \
    bench/fc_core_bench.c "$LIB"
echo
echo "forecasting core: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1), $(nproc) CPUs;" \
     "$($CC --version | head -n 1), $BENCH_CFLAGS; $(date -u '+%Y-%m-%d %H:%M UTC')"
"$OUT/fc_core_bench" --events "$EVENTS" --json "$OUT/fc_core.json"
