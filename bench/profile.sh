#!/bin/sh
# bench/profile.sh SREMC LIBSREMRT [WORKLOAD K W STRATEGY [EVENTS [PM]]]: where a
# generated matcher's time goes, as instruction counts (callgrind; the
# machines have no hardware counters for perf). Default: the tdfa matcher
# of B1 (`within 10 events policy stam { A B C }`), K = 10, 2,000,000
# events. SREMC and LIBSREMRT may be another tree's (a commit to compare
# with): the runtime headers are taken next to LIBSREMRT. Emits the matcher
# from bench/patterns/WORKLOAD.srem.in, compiles it with $CC $BENCH_CFLAGS
# -g (default -O3 -march=native), runs it under `valgrind --tool=callgrind
# --branch-sim=yes` (events through NAME_push_many in batches of 256 when
# it exists, as in make bench; else NAME_push) and writes the per-function
# annotation to build/bench/profile/NAME.txt and the per-line one of the
# generated C to NAME.lines.txt; prints the top of the first. Instructions
# per event: divide Ir by EVENTS. Bc/Bcm: conditional branches and their
# simulated mispredictions; Bi/Bim: indirect ones. SREMC_FLAGS: more
# sremc options (e.g. --layout table); D: d of B7 (default 0: selectivity
# 50%). B7 and B1r are fed 16-byte records, the others one-byte types;
# PM (K = 26): B8's stream of rare As, p(A) = PM / 1000.
# PROFILE_F64=1: the pattern's float32 attributes as float (double).
# PROFILE_OUT: the directory (default build/bench/profile); PROFILE_RUN=0:
# build the program only (bench/ab.sh times it).
set -eu

SREMC=$1
LIB=$2
WL=${3:-B1} K=${4:-10} W=${5:-10} STRAT=${6:-tdfa} N=${7:-2000000} PM=${8:-0}
CC=${CC:-cc}
BENCH_CFLAGS=${BENCH_CFLAGS:--O3 -march=native}
RTINC=$(dirname "$LIB")/../runtime/include   # the headers of that runtime
OUT=${PROFILE_OUT:-build/bench/profile}
mkdir -p "$OUT"
case $WL in   # B8: B1's and B2's patterns on the stream of rare As
    B8s) tpl=b1 ;; B8g) tpl=b2 ;; *) tpl=$(echo "$WL" | tr 'B' 'b') ;; esac
name=${tpl}_k${K}_w${W}_${STRAT}
types=$(echo ABCDEFGHIJKLMNOPQRSTUVWXYZ | cut -c1-"$K" | sed 's/./&, /g; s/, $//')
f64=   # PROFILE_F64=1: float32 attributes as float (a tree older than float32, and its A/B partner)
[ "${PROFILE_F64:-0}" = 1 ] && f64='s/: *float32;/: float;/;'
sed "$f64 s/@TYPES@/$types/; s/@W@/$W/; s/@G@/$((W - 2))/g; s/@D@/${D:-0}/g" \
    "bench/patterns/$tpl.srem.in" > "$OUT/$name.srem"
# shellcheck disable=SC2086
"$SREMC" "$OUT/$name.srem" -o "$OUT/$name.c" --prefix "$name" --strategy "$STRAT" ${SREMC_FLAGS:-}
many= bytes=-DBENCH_BYTES rec=
if grep -q "${name}_push_many" "$OUT/$name.h"; then many=-DBENCH_PUSH_MANY; fi
case $WL in B7|B1r) bytes= rec=-DPROFILE_RECORDS ;; esac
$CC -std=c99 $BENCH_CFLAGS -g -I"$RTINC" -c -o "$OUT/$name.o" "$OUT/$name.c"
$CC -std=c99 $BENCH_CFLAGS -g $bytes $many -Ibench -I"$OUT" -I"$RTINC" -DPFX="$name" \
    -DHDR="\"$name.h\"" -c -o "$OUT/${name}_ad.o" bench/adapter.c
$CC -std=c99 $BENCH_CFLAGS -g -Wall -Wextra $rec -Ibench -DPFX="$name" -o "$OUT/$name" \
    bench/profile_main.c "$OUT/$name.o" "$OUT/${name}_ad.o" "$LIB"
[ "${PROFILE_RUN:-1}" != 0 ] || exit 0
valgrind --tool=callgrind --branch-sim=yes --dump-instr=yes \
    --callgrind-out-file="$OUT/$name.callgrind" "$OUT/$name" "$K" "$N" "$PM" 2> "$OUT/$name.vg"
callgrind_annotate --inclusive=no "$OUT/$name.callgrind" > "$OUT/$name.txt"
callgrind_annotate "$OUT/$name.callgrind" "$OUT/$name.c" > "$OUT/$name.lines.txt"
echo "profile: $OUT/$name.txt (per function), $OUT/$name.lines.txt (per line);" \
     "$N events:"
sed -n '/^-* *$/,$p' "$OUT/$name.txt" | head -n 30
