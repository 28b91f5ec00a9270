#!/bin/sh
# bench/ab.sh BASE [ROUNDS]: the matchers of B1 and B2 (tdfa; K 10, 26; w
# 10, 100, 1,000) and B7 (dsra; selectivity 1%, 10%, 50%) of this tree
# beside those of BASE, another built tree (its bin/sremc and
# lib/libsremrt.a: e.g. `git worktree add DIR COMMIT && make -C DIR`), each
# compiled against its own runtime, so the two may differ in runtime ABI
# (which BENCH_BASELINE cannot). Same run: ROUNDS rounds (default 5), the
# two programs alternating, each timing 5 feeds of AB_EVENTS (10 M) events
# through push_many in batches of 256 (bench/profile_main.c); prints per
# matcher the medians of thread CPU ns/event, after/before, and whether the
# counts agree. AB_INSTR=1 adds instructions per event: callgrind over
# 400,000 events (bench/profile.sh), the adapter's feed without its own.
# AB_ONLY="B1 B7" keeps those workloads. Builds go to build/bench/ab.
set -eu

BASE=$1
ROUNDS=${2:-5}
N=${AB_EVENTS:-10000000}
OUT=build/bench/ab
CFL=${BENCH_CFLAGS:--O3 -march=native}
rm -rf "$OUT"   # both trees' programs built afresh: either may have changed
mkdir -p "$OUT"
rows="B1:10:10:tdfa: B1:10:100:tdfa: B1:10:1000:tdfa: B1:26:10:tdfa: B1:26:100:tdfa:
B2:10:10:tdfa: B2:10:100:tdfa: B2:10:1000:tdfa: B2:26:10:tdfa: B2:26:100:tdfa:
B7:10:3:dsra:0.858579 B7:10:3:dsra:0.552786 B7:10:3:dsra:0"

keep() {   # the row's workload is in AB_ONLY (or there is none)
    [ -z "${AB_ONLY:-}" ] && return 0
    for o in $AB_ONLY; do [ "$o" = "$1" ] && return 0; done
    return 1
}

# prog TREE ROW: the program's path (built on first use)
prog() {
    IFS=: read -r wl k w s d <<END
$2
END
    dir=$OUT/$1/$wl.$k.$w.$s.d${d:-0}
    name=$(echo "$wl" | tr B b)_k${k}_w${w}_$s
    if [ ! -x "$dir/$name" ]; then
        if [ "$1" = base ]; then t=$BASE; else t=.; fi
        D=${d:-0} PROFILE_OUT=$dir PROFILE_RUN=0 BENCH_CFLAGS="$CFL" \
            sh bench/profile.sh "$t/bin/sremc" "$t/lib/libsremrt.a" "$wl" "$k" "$w" "$s" > /dev/null
    fi
    echo "$dir/$name"
}

# instr TREE ROW: instructions per event of the matcher (AB_INSTR=1)
instr() {
    IFS=: read -r wl k w s d <<END
$2
END
    if [ "$1" = base ]; then t=$BASE; else t=.; fi
    dir=$OUT/$1/cg.$wl.$k.$w.$s.d${d:-0}
    name=$(echo "$wl" | tr B b)_k${k}_w${w}_$s
    D=${d:-0} PROFILE_OUT=$dir BENCH_CFLAGS=-O3 \
        sh bench/profile.sh "$t/bin/sremc" "$t/lib/libsremrt.a" "$wl" "$k" "$w" "$s" 400000 > /dev/null
    f=$dir/$name.callgrind
    inc=$(callgrind_annotate --inclusive=yes "$f" | awk '/adapter.c:bfeed8? /{gsub(",", "", $1); print $1; exit}')
    own=$(callgrind_annotate --inclusive=no "$f" | awk '/adapter.c:bfeed8? /{gsub(",", "", $1); print $1; exit}')
    awk -v i="$inc" -v o="$own" 'BEGIN { printf "%.2f", (i - o) / 400000 }'
}

raw=$OUT/times.txt
: > "$raw"
r=0
while [ "$r" -lt "$ROUNDS" ]; do
    r=$((r + 1))
    for row in $rows; do
        keep "${row%%:*}" || continue
        k=$(echo "$row" | cut -d: -f2)
        for tree in base this; do
            p=$(prog "$tree" "$row")
            "$p" "$k" "$N" 0 5 | awk -v t="$tree" -v row="$row" \
                '/match records/ { c = $1 } /ns\/event/ { print t, row, $1, c }' >> "$raw"
        done
    done
done
echo "| matcher | before ns/event | after ns/event | after/before | counts |$([ "${AB_INSTR:-0}" = 1 ] && echo " instr before | instr after | after/before |")"
echo "|---|---:|---:|---:|---|$([ "${AB_INSTR:-0}" = 1 ] && echo "---:|---:|---:|")"
for row in $rows; do
    keep "${row%%:*}" || continue
    line=$(awk -v row="$row" '
        function med(v, n,    i, j, x) {   # insertion sort, then the middle
            for (i = 2; i <= n; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
            return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
        }
        $2 == row { if ($1 == "base") { nb++; b[nb] = $3; cb[$4] = 1 } else { na++; a[na] = $3; ca[$4] = 1 } }
        END {
            same = 1; for (x in cb) if (!(x in ca)) same = 0; for (x in ca) if (!(x in cb)) same = 0
            mb = med(b, nb); ma = med(a, na)
            printf "| %s | %.2f | %.2f | %+.0f%% | %s |", row, mb, ma, 100 * (ma / mb - 1), same ? "equal" : "DIFFER"
        }' "$raw")
    if [ "${AB_INSTR:-0}" = 1 ]; then
        ib=$(instr base "$row")
        ia=$(instr this "$row")
        line="$line $ib | $ia | $(awk -v a="$ia" -v b="$ib" 'BEGIN { printf "%+.1f%%", 100 * (a / b - 1) }') |"
    fi
    echo "$line"
done
