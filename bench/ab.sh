#!/bin/sh
# bench/ab.sh BASE [ROUNDS]: the generated matchers of this tree beside
# those of BASE, each compiled against its own runtime, so the two may
# differ in runtime ABI (which BENCH_BASELINE cannot). BASE: another built
# tree (its bin/sremc and lib/libsremrt.a), or a commit, which is built
# here (git archive into build/bench/ab-base/COMMIT, kept for the next
# run). The rows, per workload of docs/workloads.md that is a generated
# matcher: B1 (tdfa, dsra, runs; K 10, 26), B2 (tdfa, runs), B3 (auto:
# the explore clause's counting step), B4 (5 and 8 atoms, `A B+ C`; tdfa,
# runs, and dsra for `A B+ C`: the others are over the state budget), B7 (dsra, runs; selectivity 1%, 10%, 50%) and B8 (B1's and
# B2's matchers on the stream of rare As, p(A) 1%, 0.1%). (B5 and B6 are
# the runtime's explore and episode engines: bench/explore.sh and
# bench/episodes.sh.) Same run: ROUNDS rounds (default 5; 0: none, the
# instruction counts alone, for a busy machine), the two programs
# alternating, each timing 5 feeds of AB_EVENTS (10 M) events through
# push_many in batches of 256 (bench/profile_main.c); prints per matcher
# the medians of thread CPU ns/event, after/before, and whether the counts
# agree. AB_INSTR=1 adds instructions per event: callgrind over 400,000
# events (bench/profile.sh), the adapter's feed without its own; rows
# more than AB_SLOWER (default 10) percent slower are listed at the end
# (by instructions when counted, else by time). AB_INSTR_CFLAGS: the
# flags of the counted build (default -O3: x86-64's base ISA, as valgrind
# runs it; "-O3 -mavx2" counts the code the timed -march=native build
# runs where it differs by ISA, as B2's scan at w = 10). AB_ONLY="B1 B7" keeps
# those workloads, AB_STRATEGY="runs" those strategies. Builds go to build/bench/ab.
set -eu

BASE=$1
ROUNDS=${2:-5}
N=${AB_EVENTS:-10000000}
OUT=build/bench/ab
CFL=${BENCH_CFLAGS:--O3 -march=native}
if [ ! -d "$BASE" ]; then   # a commit: its tree, built once
    c=$(git rev-parse --short "$BASE")
    dir=build/bench/ab-base/$c
    if [ ! -x "$dir/bin/sremc" ] || [ ! -f "$dir/lib/libsremrt.a" ]; then
        echo "ab: building $c in $dir" >&2
        sh bench/build_commit.sh "$c" "$dir"
    fi
    BASE=$dir
fi
rm -rf "$OUT"   # both trees' programs built afresh: either may have changed
mkdir -p "$OUT"
# a base older than float32 (B7's record layout): both trees read B7's
# val as a double, through the adapter's copy, so they compare alike
printf 'schema S { v : float32; }\n' > "$OUT/f32.srem"
if ! "$BASE/bin/sremc" check "$OUT/f32.srem" > /dev/null 2>&1; then
    export PROFILE_F64=1
    echo "ab: $BASE has no float32: B7's val is a double in both trees" >&2
fi
# WORKLOAD:K:W:STRATEGY:D:PM (D: B7's offset; PM: B8's A per mille)
rows="B1:10:10:tdfa:: B1:10:100:tdfa:: B1:10:1000:tdfa:: B1:26:10:tdfa:: B1:26:100:tdfa::
B1:10:10:dsra:: B1:26:10:dsra:: B1:10:10:runs:: B1:26:100:runs::
B2:10:10:tdfa:: B2:10:100:tdfa:: B2:10:1000:tdfa:: B2:26:10:tdfa:: B2:26:100:tdfa::
B2:10:10:runs:: B2:26:100:runs::
B3:10:10:auto:: B3:26:100:auto::
B4s5:26:100:tdfa:: B4s5:26:100:runs::
B4s8:26:100:tdfa:: B4s8:26:100:runs::
B4k:26:100:tdfa:: B4k:26:100:dsra:: B4k:26:100:runs::
B7:10:3:dsra:0.858579: B7:10:3:dsra:0.552786: B7:10:3:dsra:0:
B7:10:3:runs:0.858579: B7:10:3:runs:0.552786: B7:10:3:runs:0:
B8s:26:10:tdfa::10 B8s:26:10:tdfa::1 B8g:26:10:tdfa::10 B8g:26:10:tdfa::1"

tpl() {   # the template of a workload (B8: B1's and B2's patterns)
    case $1 in B8s) echo b1 ;; B8g) echo b2 ;; *) echo "$1" | tr B b ;; esac
}

keep() {   # the row's workload is in AB_ONLY and its strategy in AB_STRATEGY (or there is none)
    kst=$(echo "$1" | cut -d: -f4)
    if [ -n "${AB_STRATEGY:-}" ]; then
        case " $AB_STRATEGY " in *" $kst "*) ;; *) return 1 ;; esac
    fi
    [ -z "${AB_ONLY:-}" ] && return 0
    for o in $AB_ONLY; do [ "$o" = "${1%%:*}" ] && return 0; done
    return 1
}

# prog TREE ROW: the program's path (built on first use)
prog() {
    IFS=: read -r wl k w s d pm <<END
$2
END
    dir=$OUT/$1/$wl.$k.$w.$s.d${d:-0}.p${pm:-0}
    name=$(tpl "$wl")_k${k}_w${w}_$s
    if [ ! -x "$dir/$name" ]; then
        if [ "$1" = base ]; then t=$BASE; else t=.; fi
        D=${d:-0} PROFILE_OUT=$dir PROFILE_RUN=0 BENCH_CFLAGS="$CFL" \
            sh bench/profile.sh "$t/bin/sremc" "$t/lib/libsremrt.a" "$wl" "$k" "$w" "$s" > /dev/null 2>&1 ||
            { echo "ab: building $1's $2 failed" >&2; echo none; return; }
    fi
    echo "$dir/$name"
}

# instr TREE ROW: instructions per event of the matcher (AB_INSTR=1) and
# its match records, or "- -"
instr() {
    IFS=: read -r wl k w s d pm <<END
$2
END
    if [ "$1" = base ]; then t=$BASE; else t=.; fi
    dir=$OUT/$1/cg.$wl.$k.$w.$s.d${d:-0}.p${pm:-0}
    name=$(tpl "$wl")_k${k}_w${w}_$s
    mkdir -p "$dir"
    D=${d:-0} PROFILE_OUT=$dir BENCH_CFLAGS="${AB_INSTR_CFLAGS:--O3}" \
        sh bench/profile.sh "$t/bin/sremc" "$t/lib/libsremrt.a" "$wl" "$k" "$w" "$s" 400000 "${pm:-0}" \
        > "$dir.out" 2>&1 || { echo - -; return; }
    f=$dir/$name.callgrind
    inc=$(callgrind_annotate --threshold=100 --inclusive=yes "$f" | awk '!/=>/ && /adapter.c:bfeed8? /{gsub(",", "", $1); print $1; exit}')
    own=$(callgrind_annotate --threshold=100 --inclusive=no "$f" | awk '!/=>/ && /adapter.c:bfeed8? /{gsub(",", "", $1); print $1; exit}')
    c=$(awk '/match records/ { print $1 }' "$dir.out")
    awk -v i="$inc" -v o="$own" -v c="${c:--}" 'BEGIN { printf "%.2f %s", (i - o) / 400000, c }'
}

raw=$OUT/times.txt
: > "$raw"
r=0
while [ "$r" -lt "$ROUNDS" ]; do
    r=$((r + 1))
    for row in $rows; do
        keep "$row" || continue
        k=$(echo "$row" | cut -d: -f2)
        pm=$(echo "$row" | cut -d: -f6)
        for tree in base this; do
            p=$(prog "$tree" "$row")
            [ "$p" != none ] || continue
            "$p" "$k" "$N" "${pm:-0}" 5 | awk -v t="$tree" -v row="$row" \
                '/match records/ { c = $1 } /ns\/event/ { print t, row, $1, c }' >> "$raw"
        done
    done
done
instr_cols=
[ "${AB_INSTR:-0}" = 1 ] && instr_cols=" instr before | instr after | after/before |"
echo "| matcher | before ns/event | after ns/event | after/before | counts |$instr_cols"
echo "|---|---:|---:|---:|---|$([ -n "$instr_cols" ] && echo "---:|---:|---:|")"
slower=
for row in $rows; do
    keep "$row" || continue
    line=$(awk -v row="$row" '
        function med(v, n,    i, j, x) {   # insertion sort, then the middle
            for (i = 2; i <= n; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
            return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
        }
        $2 == row { if ($1 == "base") { nb++; b[nb] = $3; cb[$4] = 1 } else { na++; a[na] = $3; ca[$4] = 1 } }
        END {
            if (nb == 0 || na == 0) { printf "| %s | - | - | - | - |", row; exit }
            same = 1; for (x in cb) if (!(x in ca)) same = 0; for (x in ca) if (!(x in cb)) same = 0
            mb = med(b, nb); ma = med(a, na)
            printf "| %s | %.2f | %.2f | %+.0f%% | %s |", row, mb, ma, 100 * (ma / mb - 1), same ? "equal" : "DIFFER"
        }' "$raw")
    change=$(echo "$line" | awk -F'|' '{ gsub(/[ %+]/, "", $5); print $5 }')
    if [ -n "$instr_cols" ]; then
        # shellcheck disable=SC2046
        set -- $(instr base "$row") $(instr this "$row")
        ib=$1 cb=$2 ia=$3 ca=$4
        change=$(awk -v a="$ia" -v b="$ib" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.1f", 100 * (a / b - 1); else print "-" }')
        if [ "$cb" = - ] && [ "$ca" = - ]; then
            counts="neither built (over the state budget)"
        elif [ "$ca" = "$cb" ]; then
            counts=equal
        else
            counts="DIFFER ($cb, $ca)"
        fi
        [ "$ROUNDS" != 0 ] || line="| $row | - | - | - | $counts |"
        line="$line $ib | $ia | $(echo "$change" | awk '{ if ($1 == "-") print "-"; else printf "%+.1f%%", $1 }') |"
    fi
    echo "$line"
    if [ -n "$change" ] && [ "$change" != "-" ] && awk -v c="$change" -v l="${AB_SLOWER:-10}" 'BEGIN { exit !(c > l) }'; then
        slower="$slower $row ($change%)"
    fi
done
echo
if [ -n "$slower" ]; then
    echo "ab: slower than the base by more than ${AB_SLOWER:-10}%:$slower"
else
    echo "ab: no row slower than the base by more than ${AB_SLOWER:-10}%"
fi
