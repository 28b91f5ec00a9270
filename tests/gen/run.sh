#!/bin/sh
# run.sh: tests of generated code. SREMC is bin/sremc.
#  1. generated C of every sample and of the generated-C goldens
#     (tests/golden/codegen: one schema has no timestamp) builds
#     warning-free (gcc and clang, -std=c99 -Wall -Wextra -pedantic
#     -Werror), plain and --freestanding; the random batches of step 3
#     are built the same way;
#  2. behavioural cases (tests/gen/cases/*.case: pattern, ### OPTIONS ###,
#     ### EVENTS ### CSV, ### EXPECT ### records with errors merged in
#     order, ### STATUS ###) built with `sremc build` under every strategy
#     that applies;
#  2b. samples/NAME.srem with NAME.csv and NAME.expected (and extern code
#     in NAME_*.c, a forecast model in NAME.model, the program's options in
#     NAME.args) under every strategy that applies, the program (its main
#     and the extern code included) built warning-free;
#  3. the differential test (build/diff_codegen) against the interpreter:
#     GEN_DIFF_PATTERNS (default 1000) random patterns, times
#     SREMC_DIFF_SCALE, batched into programs built with -O0;
#  4. episodes and explore clauses against oracles (build/diff_decl);
#  5. --threads N against the plain run (tests/gen/threads.sh).
set -u
SREMC=${1:-bin/sremc}
DIFF=${2:-build/diff_codegen}
W=build/gen-test
rm -rf "$W" && mkdir -p "$W"
export CFLAGS=-O0
fail=0
pass=0

# 1. warnings
for f in samples/*.srem tests/golden/codegen/*.srem; do
    for fs in "" --freestanding; do
        b=$W/warn_$(basename "$f" .srem)${fs:+_fs}
        "$SREMC" emit $fs "$f" -o "$b.c" 2>/dev/null || { echo "gen: FAIL emit $fs $f"; fail=$((fail+1)); continue; }
        for cc in gcc clang; do
            command -v $cc >/dev/null || continue
            if $cc -std=c99 -Wall -Wextra -pedantic -Werror -Iruntime/include -c "$b.c" -o "$b.o"; then
                pass=$((pass+1))
            else
                echo "gen: FAIL $cc warnings in the code generated from $fs $f"; fail=$((fail+1))
            fi
        done
    done
done

# 2. behavioural cases
for c in tests/gen/cases/*.case; do
    n=$(basename "$c" .case)
    awk '/^### /{exit} {print}' "$c" > "$W/$n.srem"
    awk '/^### EVENTS ###/{f=1;next} /^### /{f=0} f' "$c" > "$W/$n.csv"
    awk '/^### EXPECT ###/{f=1;next} /^### /{f=0} f' "$c" > "$W/$n.expect"
    opts=$(awk '/^### OPTIONS ###/{f=1;next} /^### /{f=0} f' "$c")
    want=$(awk '/^### STATUS ###/{f=1;next} /^### /{f=0} f' "$c")
    ran=""
    for s in auto tdfa dsra runs; do
        # forced strategies: without the code budget (auto keeps it), so that
        # each is tested where it applies
        budget=""; [ $s = auto ] || budget="--max-code-kb 1000000"
        if ! "$SREMC" build --strategy $s $budget "$W/$n.srem" -o "$W/$n.$s" 2>"$W/$n.$s.log"; then
            if [ $s = auto ]; then echo "gen: FAIL build $n"; cat "$W/$n.$s.log"; fail=$((fail+1)); fi
            continue
        fi
        # shellcheck disable=SC2086
        "$W/$n.$s" --format jsonl $opts "$W/$n.csv" > "$W/$n.$s.out" 2>&1
        st=$?
        if ! diff -u "$W/$n.expect" "$W/$n.$s.out" >"$W/$n.$s.diff" || [ "$st" != "${want:-0}" ]; then
            echo "gen: FAIL case $n, strategy $s (exit $st, want ${want:-0})"; sed 's/^/    /' "$W/$n.$s.diff"
            fail=$((fail+1))
        else
            pass=$((pass+1)); ran="$ran $s"
        fi
    done
    echo "gen: case $n:$ran"
done

# 2b. samples with events and expected output: samples/NAME.srem, NAME.csv
#     and NAME.expected (the text records on stdout), built with the code
#     of their extern predicates (samples/NAME_*.c, given as build operands)
#     under every strategy that applies; exit status 0, or 3 when the
#     stream has bad lines on purpose (fire). Then checkpoints: each
#     program cut after k lines (--checkpoint; 1, a third, a half, all but
#     one) and restored on the whole stream (--restore) prints the
#     expected records after the k-th line's events, with the same status.
for e in samples/*.expected; do
    n=$(basename "$e" .expected)
    ext=$(ls samples/"${n}"_*.c 2>/dev/null | grep -v "_gen\.c$")   # NAME_gen.c: a stream generator
    model=""; [ -f "samples/$n.model" ] && model="--model samples/$n.model"   # forecast tables
    args=""; [ -f "samples/$n.args" ] && args=$(cat "samples/$n.args")       # the program's options
    ran=""
    for s in auto tdfa dsra runs; do
        p=$W/sample_$n.$s
        budget=""; [ $s = auto ] || budget="--max-code-kb 1000000"
        # shellcheck disable=SC2086
        if ! CFLAGS="-O0 -Wall -Wextra -pedantic -Werror" \
                "$SREMC" build --strategy $s $budget $model "samples/$n.srem" $ext -o "$p" 2>"$p.log"; then
            # a strategy that does not apply is skipped; $CC failing never is
            if [ $s = auto ] || grep -q 'compiling the generated program' "$p.log"; then
                echo "gen: FAIL build --strategy $s samples/$n.srem $ext"; cat "$p.log"; fail=$((fail+1))
            fi
            continue
        fi
        # shellcheck disable=SC2086
        "$p" $args "samples/$n.csv" > "$p.out" 2>"$p.err"
        st=$?
        if ! diff -u "$e" "$p.out" >"$p.diff" || { [ $st != 0 ] && [ $st != 3 ]; }; then
            echo "gen: FAIL sample $n, strategy $s (exit $st)"; sed 's/^/    /' "$p.diff" "$p.err"
            fail=$((fail+1))
        else
            pass=$((pass+1)); ran="$ran $s"
        fi
        lines=$(($(wc -l < "samples/$n.csv") - 1))
        # the cut and restored runs take the sample's options too (--flush-absent), but
        # --forecast-stats, which scores a whole run
        rargs=$(printf '%s\n' "$args" | sed 's/--forecast-stats//')
        for k in 1 $((lines / 3)) $((lines / 2)) $((lines - 1)); do
            head -n $((k + 1)) "samples/$n.csv" > "$p.part.csv"
            # the events the first k lines gave: records up to that index are the cut run's
            # shellcheck disable=SC2086
            ev=$("$p" $rargs --stats --checkpoint "$p.ck" "$p.part.csv" 2>&1 >/dev/null | awk '$1 == "events" { print $2 }')
            # shellcheck disable=SC2086
            "$p" $rargs --restore "$p.ck" "samples/$n.csv" > "$p.rout" 2>"$p.rerr"
            rst=$?
            # (forecast_summary: the restored run does not score, see rargs)
            awk -v k="${ev:-0}" '/^forecast_summary / { next }
                match($0, / index=[0-9]+/) && substr($0, RSTART + 7, RLENGTH - 7) + 0 <= k { next } { print }' \
                "$e" > "$p.rwant"
            if ! diff -u "$p.rwant" "$p.rout" >"$p.rdiff" || [ $rst != $st ]; then
                echo "gen: FAIL sample $n, strategy $s, restored after $k lines (exit $rst, whole run $st)"
                sed 's/^/    /' "$p.rdiff" "$p.rerr"; fail=$((fail+1))
            else
                pass=$((pass+1))
            fi
        done
    done
    echo "gen: sample $n:$ran (each restored at 4 points)"
done

# 3. differential
if ! "$DIFF" "$SREMC" "$W" "${GEN_DIFF_PATTERNS:-1000}"; then
    fail=$((fail+1))
fi

# 3b. push_many gives push's records and stops at a rejected event, under
#     every layout (tests/gen/push_many.c on tests/gen/push_many.srem, and
#     on push_many_batched.srem, where push_many is batched)
for F in push_many push_many_batched; do
    for L in auto table tree chain nodes; do
        if "$SREMC" tests/gen/$F.srem --layout $L --max-states 2000 --prefix pm -o "$W/pm.c" &&
           ${CC:-cc} -std=c99 -O1 -Wall -Wextra -Werror -Iruntime/include -I"$W" tests/gen/push_many.c \
               "$W/pm.c" lib/libsremrt.a -o "$W/pm" && "$W/pm" >/dev/null; then
            pass=$((pass+1))
        else
            echo "gen: FAIL push_many against push ($F.srem, --layout $L)"; fail=$((fail+1))
        fi
    done
done
# 3c. the same where the threaded run skips events in its start state
#     (acceleration), on streams where the start event is common and rare
for F in push_many_accel push_many_accel_time; do
    for A in common rare; do
        if "$SREMC" tests/gen/$F.srem --layout tree --prefix pm -o "$W/pm.c" &&
           grep -q 'pm_p0_skip0' "$W/pm.c" &&
           ${CC:-cc} -std=c99 -O1 -Wall -Wextra -Werror -Iruntime/include -I"$W" tests/gen/push_many.c \
               "$W/pm.c" lib/libsremrt.a -o "$W/pm" && "$W/pm" $A >/dev/null; then
            pass=$((pass+1))
        else
            echo "gen: FAIL push_many against push with acceleration ($F.srem, A $A)"; fail=$((fail+1))
        fi
    done
done

# 4. episodes and explore clauses against brute-force oracles
#    (build/diff_decl): GEN_DIFF_DECL_PROGRAMS (default 12) programs of 16
#    random declarations, times SREMC_DIFF_SCALE, each run on 10 random
#    streams under every --explore-algo, every JSONL record compared.
DECL=${3:-build/diff_decl}
mkdir -p "$W/decl"
if ! "$DECL" "$SREMC" "$W/decl" "${GEN_DIFF_DECL_PROGRAMS:-12}"; then
    fail=$((fail+1))
fi

# 5. a program's --threads N gives the records of its plain run, byte for
#    byte: the samples, and step 3's and step 4's random files on random
#    streams (tests/gen/threads.sh; ASan, UBSan and TSan builds included)
if ! sh tests/gen/threads.sh "$SREMC" "$W"; then
    fail=$((fail+1))
fi

# 6. checkpoints (build/diff_state): GEN_DIFF_STATE_PROGRAMS (default 8:
#    one per strategy and layout) programs of random patterns, episodes
#    and an explore clause, times SREMC_DIFF_SCALE, each cut after k
#    records and restored in a new process, against the whole run.
STATE=${4:-build/diff_state}
mkdir -p "$W/state"
if ! "$STATE" "$SREMC" "$W/state" "${GEN_DIFF_STATE_PROGRAMS:-8}"; then
    fail=$((fail+1))
fi

echo "gen: $pass passed, $fail failed"
[ $fail -eq 0 ]
