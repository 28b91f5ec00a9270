#!/bin/sh
# check_dot.sh SREMC: `sremc dot` output of every automaton stage of every
# sample and golden pattern file must render with Graphviz (dot -Tsvg)
# without any error or warning (--force: large ones too); -o must write the
# same graph. Without --force a graph over 500 edges is refused: exit 1, a
# note with the size, nothing written.
sremc=$1
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

# render WHAT ARGS...: sremc dot ARGS, to a file and to stdout, then dot -Tsvg.
render() {
    what=$1
    shift
    if ! "$sremc" dot --force "$@" -o "$tmp/g.dot" 2>"$tmp/err"; then
        fail=$((fail + 1))
        echo "dot: FAIL $what: sremc failed"
        sed 's/^/    /' "$tmp/err"
        return
    fi
    "$sremc" dot --force "$@" >"$tmp/stdout.dot" 2>/dev/null
    if ! cmp -s "$tmp/g.dot" "$tmp/stdout.dot"; then
        fail=$((fail + 1))
        echo "dot: FAIL $what: -o and standard output differ"
        return
    fi
    if dot -Tsvg -o "$tmp/g.svg" "$tmp/g.dot" 2>"$tmp/err" && [ ! -s "$tmp/err" ] && [ -s "$tmp/g.svg" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "dot: FAIL $what: dot -Tsvg rejected it"
        sed 's/^/    /' "$tmp/err"
    fi
}

for f in samples/*.srem tests/golden/sra/*.srem; do
    for stage in sra nfa unrolled; do
        render "$f ($stage)" --stage "$stage" "$f"
    done
    # deterministic stages are drawn one pattern at a time
    for p in $("$sremc" dump --stage ast "$f" | sed -n 's/^pattern \([^ ]*\) .*/\1/p'); do
        for stage in dfa min; do
            render "$f ($p, $stage)" --stage "$stage" --pattern "$p" "$f"
        done
    done
done
# refuse: fire's minimized dsra (768 states) without --force; its nfa is drawn
refuse() {
    rm -f "$tmp/big.dot"
    "$sremc" dot "$@" -o "$tmp/big.dot" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq 1 ] && [ ! -e "$tmp/big.dot" ] && grep -q 'over the 500' "$tmp/err" &&
       grep -q -- '--stage nfa' "$tmp/err"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "dot: FAIL $*: a large graph was not refused as documented (exit $rc)"
        sed 's/^/    /' "$tmp/err"
    fi
}
refuse --stage min samples/fire.srem
refuse --stage dfa samples/fire.srem
if "$sremc" dot samples/fire.srem >/dev/null 2>&1; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "dot: FAIL fire's nfa (small) was refused"; fi
echo "dot: $pass rendered, $fail failed"
[ "$fail" -eq 0 ]
