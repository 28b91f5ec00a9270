#!/bin/sh
# run.sh SREMC [--update]: golden tests. Each tests/golden/*/*.out starts
# with the command ("$ sremc ARGS", run from tests/golden), followed by its
# expected output (stdout, then stderr) and "[exit N]". --update rewrites
# the expected parts from what the command prints now: review the diff.
# A command that writes files writes them into $GOLDEN_TMP (a scratch
# directory, emptied before each command) and prints them with cat: the
# codegen group holds the generated .h and .c of small patterns this way.
sremc=$1
mode=$2
case "$sremc" in /*) ;; *) sremc="$PWD/$sremc" ;; esac
cd "$(dirname "$0")" || exit 2
tmp=$(mktemp) || exit 2
GOLDEN_TMP=$(mktemp -d) || exit 2
trap 'rm -f "$tmp"; rm -rf "$GOLDEN_TMP"' EXIT
pass=0 fail=0 updated=0
for out in */*.out; do
    [ -f "$out" ] || continue
    cmd=$(head -n 1 "$out")
    case "$cmd" in
    '$ sremc'*) ;;
    *) echo "golden: $out: first line must be '\$ sremc ARGS'"; fail=$((fail + 1)); continue ;;
    esac
    args=${cmd#'$ sremc'}
    rm -rf "${GOLDEN_TMP:?}"/*
    { eval "\"\$sremc\" $args" 2>&1; echo "[exit $?]"; } >"$tmp" 2>&1
    if [ "$mode" = --update ]; then
        if ! tail -n +2 "$out" | cmp -s - "$tmp"; then
            { echo "$cmd"; cat "$tmp"; } >"$out.new" && mv "$out.new" "$out"
            updated=$((updated + 1))
        fi
        continue
    fi
    if tail -n +2 "$out" | cmp -s - "$tmp"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "golden: FAIL $out ($cmd)"
        tail -n +2 "$out" | diff -u - "$tmp" | sed 's/^/    /' | head -40
    fi
done
if [ "$mode" = --update ]; then
    echo "golden: $updated file(s) updated"
    exit 0
fi
echo "golden: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
