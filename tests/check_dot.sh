#!/bin/sh
# check_dot.sh SREMC: `sremc dot` output of every automaton stage of every
# sample and golden pattern file must render with Graphviz (dot -Tsvg)
# without any error or warning; -o must write the same graph.
sremc=$1
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
for f in samples/*.srem tests/golden/sra/*.srem; do
    for stage in sra nfa; do
        if ! "$sremc" dot --stage "$stage" "$f" -o "$tmp/g.dot" 2>"$tmp/err"; then
            fail=$((fail + 1))
            echo "dot: FAIL $f ($stage): sremc failed"
            sed 's/^/    /' "$tmp/err"
            continue
        fi
        "$sremc" dot --stage "$stage" "$f" >"$tmp/stdout.dot" 2>/dev/null
        if ! cmp -s "$tmp/g.dot" "$tmp/stdout.dot"; then
            fail=$((fail + 1))
            echo "dot: FAIL $f ($stage): -o and standard output differ"
            continue
        fi
        if dot -Tsvg -o "$tmp/g.svg" "$tmp/g.dot" 2>"$tmp/err" && [ ! -s "$tmp/err" ] && [ -s "$tmp/g.svg" ]; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1))
            echo "dot: FAIL $f ($stage): dot -Tsvg rejected it"
            sed 's/^/    /' "$tmp/err"
        fi
    done
done
echo "dot: $pass rendered, $fail failed"
[ "$fail" -eq 0 ]
