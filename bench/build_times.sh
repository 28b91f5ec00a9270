#!/bin/sh
# build_times.sh SREMC [WINDOWS]: issue 13's inputs (tests/cost/cases.sh)
# -> `sremc build` wall and cc user time, C size and --explain's choice per
# file and count window, as a markdown table (make build-bench). Timing
# lives here, not in the tests. WINDOWS default: 4 6 8 10 12 16 24 32 48 64.
# SREMC_BASE=path/to/old/bin/sremc adds the same build by another sremc
# (its lib/ and runtime/include beside it), for before/after tables;
# BUILD_TIMEOUT (default 120 s) bounds each build.
SREMC=$1
shift
WINDOWS=${*:-4 6 8 10 12 16 24 32 48 64}
TIMEOUT=${BUILD_TIMEOUT:-120}
dir=$(mktemp -d) || exit 2
trap 'rm -rf "$dir"' EXIT
# one build: "wall s | user s | exit" (user: sremc and cc, which a busy
# machine does not inflate; exit 124: timed out)
build() {   # SREMC FILE PROG
    /usr/bin/time -f '%e %U' -o "$dir/time" timeout "$TIMEOUT" "$1" build "$2" -o "$3" >/dev/null 2>&1
    rc=$?
    set -- $(tail -n 1 "$dir/time")
    printf '%s | %s | %s' "$1" "$2" "$rc"
}
printf '| file | window | C bytes | strategies, layouts | build s | user s | exit |%s\n' \
    "${SREMC_BASE:+ before s | user s | exit |}"
printf '|---|---|---|---|---|---|---|%s\n' "${SREMC_BASE:+---|---|---|}"
for w in $WINDOWS; do
    sh tests/cost/cases.sh "$w" "$dir/w$w" || exit 2
    for f in "$dir/w$w"/*.srem; do
        n=$(basename "$f" .srem)
        "$SREMC" emit "$f" -o "$dir/$n.c" --explain 2>"$dir/$n.log" >/dev/null
        size=$(wc -c <"$dir/$n.c" 2>/dev/null || echo -)
        what=$(awk '/^sremc: pattern/ { s = $5 " " $7; gsub(/,/, "", s); c[s]++ }
                    END { for (k in c) { printf "%s%d %s", sep, c[k], k; sep = "; " } }' "$dir/$n.log")
        after=$(build "$SREMC" "$f" "$dir/$n.prog")
        before=""
        [ -n "$SREMC_BASE" ] && before=" $(build "$SREMC_BASE" "$f" "$dir/$n.base") |"
        printf '| %s | %s | %s | %s | %s |%s\n' "$n" "$w" "$size" "$what" "$after" "$before"
    done
done
