#!/bin/sh
# overflow.sh SREMC: nothing lost without a word (docs/language.md section
# 6), part of make check-fault. A program with three partitioned
# declarations (a dsra pattern, an episode, an explore clause) built with
# ASan and UBSan:
#  1. 10,000 keys with default options: its records are those of an
#     independent oracle (awk, per key, below), nothing dropped, status 0;
#  2. --max-keys 100: the records of the first 100 keys only, one overflow
#     record per declaration with the count of the events dropped, status 3;
#  3. --max-memory: growth refused, counted, status 3, the records a
#     prefix-of-keys subset as in 2;
#  4. a write error on standard output (/dev/full): reported, status 3;
#     --trie-dot to a path that cannot be opened: status 2 before any
#     input is read; bad --max-memory values: usage errors;
#  5. a library user (overflow_host.c): NAME_overflows, the overflow
#     records through the callback, the stats, under a key limit and a
#     memory limit (sremrt_alloc_limit);
#  6. --events: a start event no longer kept is counted (the `events`
#     overflow), the same through CSV, JSONL and bin (events_host.c: the
#     C API).
set -u
SREMC=${1:-bin/sremc}
W=build/fault-overflow
rm -rf "$W" && mkdir -p "$W"
SEED=${OVERFLOW_SEED:-14}
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { # bad NAME WHY [FILE]
    echo "overflow: FAIL $1: $2 (seed $SEED)"
    [ $# -gt 2 ] && head -n 20 "$3" | sed 's/^/    /'
    fail=$((fail + 1))
}
# expect NAME GOT WANT: the two files are equal
expect() {
    if diff -u "$3" "$2" > "$W/$1.diff"; then ok; else bad "$1" "records differ from the oracle" "$W/$1.diff"; fi
}
# status NAME GOT WANT
status() {
    if [ "$2" = "$3" ]; then ok; else bad "$1" "exit status $2, want $3"; fi
}

cat > "$W/keys.srem" <<'EOF'
schema Trade { symbol : int; kind : enum { A, B, C, D }; price : int; time : timestamp(ms); }
pattern rising on Trade partition by symbol within 100 events {
    x:_ [price > x.price] y:_ [price > y.price]
}
episode high on Trade partition by symbol within 10 events { [price > 90] }
pattern ab on Trade partition by symbol within 10 events policy stnm { A B }
    explore extensions confidence 0.5;
EOF
SAN="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
if ! CFLAGS="$SAN" "$SREMC" build "$W/keys.srem" -o "$W/keys" 2> "$W/build.log"; then
    echo "overflow: FAIL cannot build the test program"; cat "$W/build.log"; exit 1
fi
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1

# 80,000 events over 10,000 keys, seeded.
awk -v seed="$SEED" 'BEGIN {
    srand(seed); print "symbol,kind,price,time"
    split("A B C D", k, " ")
    for (i = 0; i < 80000; i++)
        printf "%d,%s,%d,%d\n", int(rand() * 10000) * 7919 - 40000000, k[1 + int(rand() * 4)], int(rand() * 100), i
}' > "$W/keys.csv"

# The oracle: each key's substream on its own, the keys of rank above
# LIMIT (in order of first event; 0: none) dropped and counted. rising:
# the substream's last 4 events with p2 > p1 and p4 > p3 (start and x the
# first, y the third); high: every event over 90 raises the frequency by
# one, its occurrence that event; ab (stnm, within 10): a B whose latest
# earlier A is later than the latest earlier B and within the window
# (start: that A, the latest first index of a chain ending at the B).
# Summaries of high per key in order of first event, then the overflow
# counts (to standard error, as the program writes them).
oracle() { # oracle LIMIT: records on stdout, overflow records in $W/oracle.err
    awk -F, -v limit="$1" -v err="$W/oracle.err" 'NR > 1 {
        s = $1; idx = NR - 1
        if (!(s in rank)) { rank[s] = ++nkeys; order[nkeys] = s }
        if (limit && rank[s] > limit) { dropped++; next }
        n = ++len[s]
        p[s, n] = $3
        gi[s, n] = idx
        if (n >= 4 && p[s, n - 2] > p[s, n - 3] && p[s, n] > p[s, n - 1])
            printf "{\"kind\":\"match\",\"name\":\"rising\",\"index\":%d,\"ts\":%d,\"key\":\"%s\",\"start\":%d,\"bind\":{\"x\":%d,\"y\":%d}}\n", idx, $4, s, gi[s, n - 3], gi[s, n - 3], gi[s, n - 1]
        if ($3 > 90)
            printf "{\"kind\":\"episode\",\"name\":\"high\",\"index\":%d,\"ts\":%d,\"key\":\"%s\",\"freq\":%d,\"occurrence\":[%d]}\n", idx, $4, s, ++freq[s], idx
        if ($2 == "B") {
            if ((s in lasta) && (!(s in lastb) || lasta[s] > lastb[s]) && n - lasta[s] + 1 <= 10)
                printf "{\"kind\":\"match\",\"name\":\"ab\",\"index\":%d,\"ts\":%d,\"key\":\"%s\",\"start\":%d}\n", idx, $4, s, gi[s, lasta[s]]
            lastb[s] = n
        }
        if ($2 == "A")
            lasta[s] = n
    }
    END {
        for (r = 1; r <= nkeys && (!limit || r <= limit); r++) {
            s = order[r]
            printf "{\"kind\":\"summary\",\"name\":\"high\",\"key\":\"%s\",\"events\":%d,\"freq\":%d}\n", s, len[s], freq[s]
        }
        printf "" > err
        if (dropped)
            for (d = split("rising high ab", name, " "); d > 0; d--)
                line[d] = sprintf("{\"kind\":\"error\",\"name\":\"%s\",\"message\":\"overflow: %d events of new keys dropped (--max-keys)\",\"overflow\":{\"keys\":%d}}", name[d], dropped, dropped)
        for (d = 1; d <= 3 && dropped; d++)
            print line[d] > err
    }' "$W/keys.csv"
}
# The program's records without the explore clause's own (suggestions
# and summary, which the oracle does not compute).
records() {
    grep -v -e '"kind":"suggest"' -e '"kind":"summary","name":"ab"' "$1"
}

# ---- 1. 10,000 keys, default options ------------------------------------------
"$W/keys" --format jsonl "$W/keys.csv" > "$W/all.out" 2> "$W/all.err"
status all $? 0
oracle 0 > "$W/all.want"
records "$W/all.out" > "$W/all.got"
expect all "$W/all.got" "$W/all.want"
if [ -s "$W/all.err" ]; then bad all_stderr "something on standard error" "$W/all.err"; else ok; fi
if [ "$(grep -c '"kind":"match","name":"rising"' "$W/all.want")" -ge 1000 ]; then ok
else bad all_matches "fewer than 1000 rising matches: the test proves little"; fi

# ---- 2. --max-keys 100 -------------------------------------------------------------
"$W/keys" --format jsonl --max-keys 100 "$W/keys.csv" > "$W/max.out" 2> "$W/max.err"
status max_keys $? 3
oracle 100 > "$W/max.want"
records "$W/max.out" > "$W/max.got"
expect max_keys "$W/max.got" "$W/max.want"
expect max_keys_records "$W/max.err" "$W/oracle.err"
# the text format says the same in one line per declaration
"$W/keys" --max-keys 100 "$W/keys.csv" 2>&1 > /dev/null | sed 's/^error \([a-z]*\): .*/\1/' > "$W/max_text.got"
printf 'rising\nhigh\nab\n' > "$W/max_text.want"
expect max_keys_text "$W/max_text.got" "$W/max_text.want"
"$W/keys" --max-keys 100 --stats "$W/keys.csv" > /dev/null 2> "$W/max_stats.err"
dropped=$(sed -n 's/.*"keys":\([0-9]*\).*/\1/p' "$W/oracle.err" | head -n 1)
if grep -qx "overflows  $((3 * dropped)) (keys $((3 * dropped)))" "$W/max_stats.err"; then ok
else bad max_keys_stats "--stats does not total $((3 * dropped)) keys" "$W/max_stats.err"; fi

# ---- 3. --max-memory: the tables stop growing where memory runs out ------------------
"$W/keys" --format jsonl --max-memory 300K "$W/keys.csv" > "$W/mem.out" 2> "$W/mem.err"
status max_memory $? 3
grep -c '"overflow":{"keys":[0-9]*,"memory":1}' "$W/mem.err" > "$W/mem.n"
# the keys a table took: a power of two from 8 (where growth stopped); the
# records are the oracle's for that many keys
taken=""
for c in 8 16 32 64 128 256 512 1024 2048 4096 8192; do
    oracle $c > "$W/mem.want"
    records "$W/mem.out" | grep -v '"name":"ab"' > "$W/mem.got"
    grep -v '"name":"ab"' "$W/mem.want" | grep '"name":"rising"' > "$W/mem.want_rising"
    grep '"name":"rising"' "$W/mem.got" > "$W/mem.got_rising"
    if cmp -s "$W/mem.want_rising" "$W/mem.got_rising"; then taken=$c; break; fi
done
if [ "$(cat "$W/mem.n")" -ge 1 ] && [ -n "$taken" ]; then ok
else bad max_memory "no keys+memory overflow record, or rising's records are no first-keys subset" "$W/mem.err"; fi
if grep -q 'blocks of memory refused (--max-memory)' "$W/mem.err"; then ok
else bad max_memory_message "the message does not name --max-memory" "$W/mem.err"; fi

# ---- 4. write errors, --trie-dot, --max-memory values ---------------------------------
if [ -w /dev/full ]; then
    "$W/keys" "$W/keys.csv" > /dev/full 2> "$W/full.err"
    status dev_full $? 3
    if grep -q "write error on standard output: No space left on device" "$W/full.err"; then ok
    else bad dev_full_message "no write error reported" "$W/full.err"; fi
    # a few records, all still buffered when the run ends: the error shows
    # at the last flush, after an error record's flush already failed
    head -20 "$W/keys.csv" | "$W/keys" --max-keys 1 > /dev/full 2> "$W/full2.err"
    status dev_full_small $? 3
    if grep -q "write error on standard output: No space left on device" "$W/full2.err"; then ok
    else bad dev_full_small_message "the reason is lost" "$W/full2.err"; fi
else
    echo "overflow: /dev/full missing: write errors not checked"
fi
"$W/keys" --trie-dot "$W/no/such/dir/t.dot" "$W/keys.csv" > "$W/dot.out" 2> "$W/dot.err"
status trie_dot $? 2
if [ -s "$W/dot.out" ]; then bad trie_dot_read "records written: the input was read" "$W/dot.out"; else ok; fi
if grep -q "no/such/dir/t.dot" "$W/dot.err"; then ok; else bad trie_dot_message "the path is not named" "$W/dot.err"; fi
for v in 0 -5 12X 1KK ""; do
    "$W/keys" --max-memory "$v" "$W/keys.csv" > /dev/null 2> "$W/mm.err"
    status "max_memory_$v" $? 2
done

# ---- 5. the library's view ------------------------------------------------------------
if "$SREMC" "$W/keys.srem" -o "$W/keys.c" 2> "$W/lib.log" &&
   ${CC:-cc} -std=c99 -Wall -Wextra -pedantic -Werror $SAN -Iruntime/include -I"$W" \
       tests/fault/overflow_host.c "$W/keys.c" lib/libsremrt.a -o "$W/host" 2>> "$W/lib.log"; then
    if "$W/host" 2> "$W/host.err"; then ok; else bad library "overflow_host failed" "$W/host.err"; fi
else
    bad library_build "cannot build overflow_host" "$W/lib.log"
fi

# ---- 6. --events: an event no longer kept is counted -----------------------------------
# An unpartitioned window-less chain (`A _* C`) knows its start however far
# back it lies, but keeps the last 256 events (docs/codegen.md, "Start and
# bindings"): a start within them is written with its attributes, status 0;
# one further back is left out of "events" and counted as the `events`
# overflow, status 3. Either way CSV (push), JSON Lines and --input bin
# (push_many), from a file and from a pipe, give the same standard output;
# the expected records are written here by hand. A second file adds a
# labelled pattern, so that the chain's records take the per-record path
# of the batched push_many instead of the all-chains one. Without --events
# nothing is counted. events_host.c: the C API (the record's
# events_missing, the count with cfg.events set or not).
E=$W/events
mkdir -p "$E"
cat > "$E/one.srem" <<'EOF'
schema S { type : enum { A, B, C }; v : int; }
pattern g on S { A _* C }
EOF
cat > "$E/two.srem" <<'EOF'
schema S { type : enum { A, B, C }; v : int; }
pattern g on S { A _* C }
pattern h on S within 3 events { x:A [type == B && v > x.v] }
EOF
# estream NAME NB: an A, NB Bs and a C, v the line number
estream() {
    awk -v nb="$2" 'BEGIN { print "type,v"; print "A,1"; for (i = 2; i <= nb + 1; i++) print "B," i; print "C," nb + 2 }' \
        > "$E/$1.csv"
}
estream near 255   # the C is event 257: its start, event 1, is the 257th last (256 kept and the C)
estream far 399    # event 401: its start is 400 events back
estream edge 256   # event 258: one too far
# ewant FILE NAME INDEX LOST: the jsonl --events records (h's first in two.srem) and the overflow record
ewant() {
    ev='{}'
    [ "$4" = 0 ] && ev='{"start":{"type":"A","v":1}}'
    : > "$E/$2.want"
    [ "$1" = two ] && printf '%s\n' '{"kind":"match","name":"h","index":2,"start":1,"bind":{"x":1},"events":{"start":{"type":"A","v":1},"x":{"type":"A","v":1}}}' \
        > "$E/$2.want"
    printf '{"kind":"match","name":"g","index":%s,"start":1,"events":%s}\n' "$3" "$ev" >> "$E/$2.want"
    : > "$E/$2.err"
    [ "$4" = 0 ] || printf '{"kind":"error","name":"g","message":"overflow: %s records without an event they name (events kept, --events)","overflow":{"events":%s}}\n' \
        "$4" "$4" > "$E/$2.err"
}
for file in one two; do
    if ! "$SREMC" build "$E/$file.srem" -o "$E/$file" 2> "$E/$file.log"; then
        bad "events_build_$file" "cannot build" "$E/$file.log"
        continue
    fi
    for s in near far edge; do
        case $s in near) idx=257 lost=0 ;; far) idx=401 lost=1 ;; *) idx=258 lost=1 ;; esac
        ewant "$file" "$s" "$idx" "$lost"
        python3 tests/gen/csv2jsonl.py "$E/$file.srem" "$E/$s.csv" > "$E/$s.jsonl"
        "$E/$file" --convert-bin "$E/$s.bin" "$E/$s.csv" 2> /dev/null
        for how in csv jsonl bin pipe; do
            case $how in
            csv) "$E/$file" --events --format jsonl "$E/$s.csv" > "$E/out" 2> "$E/err" ;;
            jsonl) "$E/$file" --events --format jsonl --input jsonl "$E/$s.jsonl" > "$E/out" 2> "$E/err" ;;
            bin) "$E/$file" --events --format jsonl --input bin "$E/$s.bin" > "$E/out" 2> "$E/err" ;;
            *) cat "$E/$s.bin" | "$E/$file" --events --format jsonl --input bin > "$E/out" 2> "$E/err" ;;
            esac
            status "events_${file}_${s}_$how" $? $((lost ? 3 : 0))
            expect "events_${file}_${s}_${how}_out" "$E/out" "$E/$s.want"
            expect "events_${file}_${s}_${how}_err" "$E/err" "$E/$s.err"
        done
        # without --events nothing is lost: no count, status 0
        "$E/$file" --format jsonl --input bin "$E/$s.bin" > /dev/null 2> "$E/err"
        status "events_${file}_${s}_plain" $? 0
        if [ -s "$E/err" ]; then bad "events_${file}_${s}_plain_err" "an overflow without --events" "$E/err"; else ok; fi
    done
done
if "$SREMC" --prefix lost "$E/one.srem" -o "$E/lost.c" 2> "$E/lib.log" &&
   ${CC:-cc} -std=c99 -Wall -Wextra -pedantic -Werror $SAN -Iruntime/include -I"$E" \
       tests/fault/events_host.c "$E/lost.c" lib/libsremrt.a -o "$E/host" 2>> "$E/lib.log"; then
    if "$E/host" 2> "$E/host.err"; then ok; else bad events_library "events_host failed" "$E/host.err"; fi
else
    bad events_library_build "cannot build events_host" "$E/lib.log"
fi

echo "overflow: $pass passed, $fail failed"
[ $fail -eq 0 ]
