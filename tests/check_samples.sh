#!/bin/sh
# check_samples.sh SREMC: every bundled sample (the examples of docs/language.md
# among them) must check clean: exit 0 and no diagnostics at all.
sremc=$1
pass=0 fail=0
for f in samples/*.srem; do
    if msg=$("$sremc" check "$f" 2>&1) && [ -z "$msg" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "samples: FAIL $f"
        echo "$msg" | sed 's/^/    /'
    fi
done
echo "samples: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
