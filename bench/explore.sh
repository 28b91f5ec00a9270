#!/bin/sh
# bench/explore.sh SREMC LIBSREMRT: the explore part of `make bench`.
#
# For each number of types K (6, 10, 11), policy (stam, stnm) and count
# window w, has SREMC compile `pattern xp on Rec within w events policy P
# { A B C }` (the explore pattern without its explore clause) into its own
# matcher (prefix xb_kK_wW_P), compiles it and bench/adapter.c with $CC
# $BENCH_CFLAGS (default -O2), links them all into bench/explore_bench.c
# (listed in build/bench/explore-gen/matchers.def) and runs it: events/s of
# the explore algorithms default, ic, rc, bf beside the matcher and the
# counting step sremc generates for the clause (bench/explore_step.c), every
# total checked (docs/PERFORMANCE.md, "Explore"). Writes the table to
# stdout and JSON lines to build/bench/explore.json. BENCH_FULL=1: windows
# 100, 300, 1000, 3000, 10000 (else 100, 1000, 10000), 5 repetitions, 10x
# the time budgets of the slow algorithms.
set -eu

SREMC=$1
LIB=$2
CC=${CC:-cc}
BENCH_CFLAGS=${BENCH_CFLAGS:--O2}
OUT=build/bench
GEN=$OUT/explore-gen
RTINC=runtime/include
FULL= WS="100 1000 10000"
if [ -n "${BENCH_FULL:-}" ] && [ "${BENCH_FULL}" != 0 ]; then
    FULL=--full WS="100 300 1000 3000 10000"
fi

types() {   # the first $1 capital letters, comma-separated
    echo ABCDEFGHIJKLMNOPQRSTUVWXYZ | cut -c1-"$1" | sed 's/./&, /g; s/, $//'
}

rm -rf "$GEN"
mkdir -p "$GEN"
DEF=$GEN/matchers.def
: > "$DEF"
OBJS=
echo "explore: emitting and compiling the matchers without explore ($CC $BENCH_CFLAGS)" >&2
for k in 6 10 11; do
    for pol in stam stnm; do
        for w in $WS; do
            name=xb_k${k}_w${w}_${pol}
            cat > "$GEN/$name.srem" <<SREM
schema Rec {
    ts   : timestamp;
    type : enum { $(types "$k") };
    val  : float;
}

pattern xp on Rec within $w events policy $pol { A B C }
SREM
            "$SREMC" "$GEN/$name.srem" -o "$GEN/$name.c" --prefix "$name" > "$GEN/$name.log" 2>&1 || {
                echo "explore: sremc failed on $GEN/$name.srem:" >&2
                cat "$GEN/$name.log" >&2
                exit 1
            }
            $CC -std=c99 $BENCH_CFLAGS -I"$RTINC" -c -o "$GEN/$name.o" "$GEN/$name.c"
            $CC -std=c99 $BENCH_CFLAGS -Ibench -I"$GEN" -I"$RTINC" -DPFX="$name" \
                -DHDR="\"$name.h\"" -c -o "$GEN/${name}_ad.o" bench/adapter.c
            OBJS="$OBJS $GEN/$name.o $GEN/${name}_ad.o"
            [ "$pol" = stam ] && p=0 || p=1
            echo "XB_MATCHER($k, $w, $p, $name)" >> "$DEF"
            # the same pattern with the explore clause: its generated step alone
            xg=xg_k${k}_w${w}_${pol}
            sed 's/{ A B C }/{ A B C } explore extensions variations confidence 0.2;/' \
                "$GEN/$name.srem" > "$GEN/$xg.srem"
            "$SREMC" "$GEN/$xg.srem" -o "$GEN/$xg.c" --prefix "$xg" > "$GEN/$xg.log" 2>&1 || {
                echo "explore: sremc failed on $GEN/$xg.srem:" >&2
                cat "$GEN/$xg.log" >&2
                exit 1
            }
            $CC -std=c99 $BENCH_CFLAGS -Ibench -I"$GEN" -I"$RTINC" -DPFX="$xg" -DSRC="\"$xg.c\"" \
                -c -o "$GEN/${xg}_step.o" bench/explore_step.c
            OBJS="$OBJS $GEN/${xg}_step.o"
            echo "XB_STEP($k, $w, $p, $xg)" >> "$DEF"
        done
    done
done
$CC -std=c99 $BENCH_CFLAGS -Wall -Wextra -Ibench -I"$GEN" -I"$RTINC" \
    -DXB_MATCHERS='"matchers.def"' -o "$OUT/explore_bench" bench/explore_bench.c $OBJS "$LIB"
echo
echo "explore: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1), $(nproc) CPUs;" \
     "$($CC --version | head -n 1), $BENCH_CFLAGS; $(date -u '+%Y-%m-%d %H:%M UTC')"
"$OUT/explore_bench" $FULL --json "$OUT/explore.json"
