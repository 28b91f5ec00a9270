#!/bin/sh
# bench/absent.sh SREMC: what pending absences cost per event
# (docs/PERFORMANCE.md, "Absence"): instructions (valgrind's cachegrind,
# not timed, so the shared machine's noise does not touch them) of a
# program over 200,000 order events, seeded: `Placed,i,i` for even i,
# `Paid,j,i` for odd i with j = i - 1 - 2k, k uniform in 0..3 (random.seed(1));
# about 285 orders are pending at a time under a 30-minute window. Four
# patterns: `unpaid` (partition by id, within 30 min), `unpaid2` (a
# composite key, partition by shop, id; shop = id % 3), `unpaid_n`
# (unpartitioned, within 1800 events: one list, every pending absence's
# condition checked at each event) and `body` (unpaid without its absent
# clause: its 100,000 match records written instead). Not in make bench.
set -eu
SREMC=$1
OUT=build/bench/absent
rm -rf "$OUT"
mkdir -p "$OUT"
python3 - "$OUT" <<'EOF'
import random, sys
random.seed(1)
with open(sys.argv[1] + "/orders.csv", "w") as f:
    f.write("type,shop,id,time\n")
    for i in range(1, 200001):
        j = i if i % 2 == 0 else i - 1 - 2 * random.randint(0, 3)
        f.write("%s,%d,%d,%d\n" % ("Placed" if i % 2 == 0 else "Paid", j % 3, j, i))
EOF
SCHEMA='schema Order { type : enum { Placed, Paid }; shop : int; id : int; time : timestamp(s); }'
ABSENT='absent [type == Paid && id == x.id]'
printf '%s\npattern unpaid on Order partition by id within 30 min { x:Placed } %s\n' "$SCHEMA" "$ABSENT" \
    > "$OUT/unpaid.srem"
printf '%s\npattern unpaid2 on Order partition by shop, id within 30 min { x:Placed } %s\n' "$SCHEMA" "$ABSENT" \
    > "$OUT/unpaid2.srem"
printf '%s\npattern unpaid_n on Order within 1800 events { x:Placed } %s\n' "$SCHEMA" "$ABSENT" \
    > "$OUT/unpaid_n.srem"
printf '%s\npattern body on Order partition by id within 30 min { Placed }\n' "$SCHEMA" > "$OUT/body.srem"
for p in unpaid unpaid2 unpaid_n body; do
    "$SREMC" build "$OUT/$p.srem" -o "$OUT/$p"
    n=$(valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$OUT/$p" "$OUT/orders.csv" \
        2>&1 >"$OUT/$p.out" | awk '/I *refs/ { gsub(",", "", $NF); print $NF }')
    printf '%-9s %6d M instructions, %5d an event, %6d records\n' "$p" $((n / 1000000)) $((n / 200000)) \
        "$(wc -l < "$OUT/$p.out")"
done
