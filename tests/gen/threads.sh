#!/bin/sh
# threads.sh: a generated program's --threads N (templates/main.c.tpl)
# against its plain run: for N = 1, 2, 3 and 4, standard output, standard
# error (--stats without its events/s line) and the exit status must be
# byte-identical, and so must both streams written to one file. Programs:
#   - every sample, on its CSV and (telecom, building) on longer streams
#     of its generator;
#   - the random declarations tests/gen/run.sh left in WORK (diff_decl's
#     decl_*.srem: episodes, explore clauses, partitioned or not) and
#     diff_codegen's batches b_auto_0 and b_runs_0 (a tenth of their
#     patterns partitioned), on seeded random streams with bad lines and
#     timestamps going backwards.
# Built with -DSREMC_BATCH_EVENTS=5, so that a stream crosses many
# batches and the ring of batches wraps; one sample once more with the
# default batches, one under ASan and UBSan, one under TSan.
# Usage: threads.sh SREMC WORK [SEED]   (SEED: the streams; default 1)
set -u
SREMC=${1:-bin/sremc}
WORK=${2:-build/gen-test}
SEED=${3:-${THREADS_SEED:-1}}
W=$WORK/threads
rm -rf "$W" && mkdir -p "$W"
fail=0
pass=0

# stream FILE SCHEMA N SEED: N random events of schema E (t,v,k,time) or
# S (t,g,x,k,time), few keys, about 1% bad lines and 1% timestamps back
stream() {
    awk -v schema="$2" -v n="$3" -v seed="$4" 'BEGIN {
        srand(seed); time = 1000
        print schema == "E" ? "t,v,k,time" : "t,g,x,k,time"
        for (i = 0; i < n; i++) {
            time += int(rand() * 3)
            t = substr(schema == "E" ? "ABC" : "ABCD", 1 + int(rand() * (schema == "E" ? 3 : 4)), 1)
            r = rand()
            ts = r < 0.01 ? time - 5 : time
            if (r > 0.99) { print "Z,,,oops"; continue }
            if (schema == "E")
                printf "%s,%d,%d,%d\n", t, int(rand() * 6), int(rand() * 8), ts
            else
                printf "%s,%s,%d,%d,%d\n", t, rand() < 0.5 ? "P" : "Q", int(rand() * 6), int(rand() * 8), ts
        }
    }' > "$1"
}

# same PROG CSV OPTS...: every --threads N run against the plain one
same() {
    prog=$1 csv=$2
    shift 2
    "$prog" "$@" "$csv" > "$W/plain.out" 2> "$W/plain.err"
    want=$?
    "$prog" "$@" "$csv" > "$W/plain.both" 2>&1
    grep -v '^events/s' "$W/plain.err" > "$W/plain.cmp"
    for nt in 1 2 3 4; do
        "$prog" --threads $nt "$@" "$csv" > "$W/t.out" 2> "$W/t.err"
        st=$?
        "$prog" --threads $nt "$@" "$csv" > "$W/t.both" 2>&1
        grep -v '^events/s' "$W/t.err" > "$W/t.cmp"
        if [ $st = "$want" ] && cmp -s "$W/plain.out" "$W/t.out" && cmp -s "$W/plain.cmp" "$W/t.cmp" &&
           { grep -q '^events/s' "$W/plain.err" || cmp -s "$W/plain.both" "$W/t.both"; }; then
            pass=$((pass+1))
        else
            echo "threads: FAIL $prog --threads $nt $* $csv (exit $st, plain $want; stream seed $SEED)"
            diff "$W/plain.out" "$W/t.out" | head -10
            diff "$W/plain.cmp" "$W/t.cmp" | head -10
            fail=$((fail+1))
        fi
    done
}

build() {   # build SREM PROG [CFLAGS]
    if ! CFLAGS="${3:--O0 -DSREMC_BATCH_EVENTS=5}" "$SREMC" build "$1" $(ls "${1%.srem}"_*.c 2>/dev/null |
            grep -v '_gen\.c$') -o "$2" 2> "$2.log"; then
        echo "threads: FAIL build $1"; cat "$2.log"; fail=$((fail+1))
        return 1
    fi
}

# samples
cc -std=c99 -O2 -o "$W/telecom_gen" samples/telecom_gen.c && "$W/telecom_gen" --cells 60 --days 2 --seed 3 > "$W/telecom.csv"
cc -std=c99 -O2 -o "$W/building_gen" samples/building_gen.c && "$W/building_gen" --zones 6 --hours 48 --seed 2 > "$W/building.csv"
for f in samples/*.srem; do
    n=$(basename "$f" .srem)
    [ -f "samples/$n.csv" ] || continue
    build "$f" "$W/$n" || continue
    same "$W/$n" "samples/$n.csv"
    same "$W/$n" "samples/$n.csv" --format jsonl --events --stats
    same "$W/$n" "samples/$n.csv" --strict
    same "$W/$n" "samples/$n.csv" --max-keys 2   # one thread: a limit over all keys
    [ -s "$W/$n.csv" ] && same "$W/$n" "$W/$n.csv" --format jsonl
done
if build samples/telecom.srem "$W/telecom_big" -O1; then
    same "$W/telecom_big" "$W/telecom.csv" --stats
fi
for s in address,undefined thread; do
    if build samples/telecom.srem "$W/telecom_$s" "-O1 -g -fsanitize=$s -fno-sanitize-recover=all -DSREMC_BATCH_EVENTS=64"; then
        same "$W/telecom_$s" "$W/telecom.csv"
        if grep -q 'Sanitizer' "$W"/*.err; then
            echo "threads: FAIL -fsanitize=$s:"; grep -h -A5 'Sanitizer' "$W"/*.err | head -20; fail=$((fail+1))
        fi
    fi
done

# random declarations, random streams
[ -f "$WORK/decl/decl_0.srem" ] || echo "threads: note: no $WORK/decl/decl_*.srem (run tests/gen/run.sh first)"
k=0
for f in "$WORK"/decl/decl_*.srem "$WORK"/b_auto_0.srem "$WORK"/b_runs_0.srem; do
    [ -f "$f" ] || continue
    k=$((k+1))
    schema=E
    grep -q 'g : enum' "$f" && schema=S
    build "$f" "$W/r$k" || continue
    for s in 1 2; do
        stream "$W/r$k.$s.csv" $schema 300 $((SEED * 1000 + k * 10 + s))
        same "$W/r$k" "$W/r$k.$s.csv" --format jsonl
    done
    same "$W/r$k" "$W/r$k.1.csv" --events --stats --trie
    # overflow records from several shards: their counts summed
    same "$W/r$k" "$W/r$k.2.csv" --max-runs 1 --occmap-cap 1 --distinct-budget 1 --explore-cap 2 --stats
done

# a write error still ends the run with exit status 3 and its message
if [ -w /dev/full ] && [ -x "$W/trend" ]; then
    "$W/trend" --threads 2 samples/trend.csv > /dev/full 2> "$W/full.err"
    st=$?
    if [ $st = 3 ] && grep -q 'write error on standard output' "$W/full.err"; then
        pass=$((pass+1))
    else
        echo "threads: FAIL --threads 2 > /dev/full: exit $st"; cat "$W/full.err"; fail=$((fail+1))
    fi
fi

echo "threads: $pass passed, $fail failed (stream seed $SEED)"
[ $fail -eq 0 ]
