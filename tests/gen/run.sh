#!/bin/sh
# run.sh: tests of generated code. SREMC is bin/sremc.
#  1. generated C of every sample and of the generated-C goldens
#     (tests/golden/codegen: one schema has no timestamp) builds
#     warning-free (gcc and clang, -std=c99 -Wall -Wextra -pedantic
#     -Werror), plain and --freestanding; the random batches of step 3
#     are built the same way;
#  2. behavioural cases (tests/gen/cases/*.case: pattern, ### OPTIONS ###,
#     ### EVENTS ### CSV, ### EXPECT ### records with errors merged in
#     order, ### STATUS ###; ### EXPECT runs ### and ### STATUS runs ###
#     where one strategy's differ) built with `sremc build` under every strategy
#     that applies;
#  2b. samples/NAME.srem with NAME.csv and NAME.expected (and extern code
#     in NAME_*.c, a forecast model in NAME.model, the program's options in
#     NAME.args) under every strategy that applies, the program (its main
#     and the extern code included) built warning-free, the forced
#     strategies' matchers as 2 or 3 translation units (--cc-parts);
#  3. the differential test (build/diff_codegen) against the interpreter:
#     GEN_DIFF_PATTERNS (default 1000) random patterns, times
#     SREMC_DIFF_SCALE, batched into programs built with -O0;
#  4. episodes and explore clauses against oracles (build/diff_decl);
#  5. --threads N against the plain run (tests/gen/threads.sh);
#  6. checkpoints restored against the whole run (build/diff_state);
#  7. --max-delay against the release order of its definition (late.py);
#  7b. float32 attributes against an oracle of their definition (float32.py);
#  8. the generated explore step against the runtime's rc and ic (build/diff_explore).
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
        exp=$W/$n.expect ws=${want:-0}   # ### EXPECT s ### and ### STATUS s ###: strategy s's own
        if grep -q "^### EXPECT $s ###\$" "$c"; then
            exp=$W/$n.$s.expect
            awk -v h="### EXPECT $s ###" '$0 == h {f=1;next} /^### /{f=0} f' "$c" > "$exp"
            ws=$(awk -v h="### STATUS $s ###" '$0 == h {f=1;next} /^### /{f=0} f' "$c")
            ws=${ws:-0}
        fi
        if ! diff -u "$exp" "$W/$n.$s.out" >"$W/$n.$s.diff" || [ "$st" != "$ws" ]; then
            echo "gen: FAIL case $n, strategy $s (exit $st, want $ws)"; sed 's/^/    /' "$W/$n.$s.diff"
            fail=$((fail+1))
        else
            pass=$((pass+1)); ran="$ran $s"
        fi
    done
    echo "gen: case $n:$ran"
done

# The other inputs of a sample program $1 (sample $2, its CSV run's
# output in $1.out and $1.err, with the sample's options $args): the JSON Lines of tests/gen/csv2jsonl.py
# (an independent converter) give the same records and error records;
# --convert-bin from CSV and from JSONL write the same bytes; those
# records, read with --input bin from the file and from a pipe, give the
# same records; so do JSONL and bin with
# --threads 2.
# A sample with string attributes (ids of the run's own table, which
# --convert-bin refuses) skips the bin inputs, and checks instead that CSV
# with --threads 2 and with --max-delay 0 gives the CSV run's records, and
# that --nats and --nats-publish refuse it (usage error).
check_inputs() {
    q=$1
    python3 tests/gen/csv2jsonl.py "samples/$2.srem" "samples/$2.csv" > "$q.jsonl"
    # shellcheck disable=SC2086
    "$q" $args --input jsonl "$q.jsonl" > "$q.jl.out" 2>"$q.jl.err"
    # shellcheck disable=SC2086
    "$q" $args --threads 2 --input jsonl "$q.jsonl" > "$q.jl2.out" 2>"$q.jl2.err"
    if grep -Eq '^[[:space:]]*[A-Za-z_][A-Za-z0-9_]*[[:space:]]*:[[:space:]]*string[[:space:]]*;' "samples/$2.srem"; then
        # shellcheck disable=SC2086
        "$q" $args --threads 2 "samples/$2.csv" > "$q.t2.out" 2>"$q.t2.err"
        outs="jl.out jl.err jl2.out jl2.err t2.out t2.err"
        case " $args " in
        *" --max-delay "*) ;;   # its own reorder buffer (weblogins): 0 would reject its late events
        *)
            # shellcheck disable=SC2086
            "$q" $args --max-delay 0 "samples/$2.csv" > "$q.d0.out" 2>"$q.d0.err"
            outs="$outs d0.out d0.err" ;;
        esac
        for mode in "--nats-publish nats://127.0.0.1:1 --stream S" "--nats nats://127.0.0.1:1 --stream S --partition 0/1"; do
            # shellcheck disable=SC2086
            "$q" $mode "samples/$2.csv" > /dev/null 2>"$q.nats.err" </dev/null
            nst=$?
            if [ $nst != 2 ] || ! grep -q 'carry no string attributes' "$q.nats.err"; then
                echo "gen: FAIL sample $2: $mode did not refuse string attributes (exit $nst)"; fail=$((fail+1))
            else
                pass=$((pass+1))
            fi
        done
    else
        outs="jl.out jl.err bin.out pipe.out jl2.out jl2.err bin2.out"
        check_bin "$q" "$2"
    fi
    for f in $outs; do
        case $f in *.err) want=$q.err ;; *) want=$q.out ;; esac
        if ! diff -u "$want" "$q.$f" > "$q.$f.diff"; then
            echo "gen: FAIL sample $2: $f differs from the CSV run"; sed 's/^/    /' "$q.$f.diff"
            fail=$((fail+1))
        else
            pass=$((pass+1))
        fi
    done
}

check_bin() {
    q=$1
    "$q" --convert-bin "$q.csv.bin" "samples/$2.csv" 2>/dev/null
    "$q" --convert-bin "$q.jl.bin" --input jsonl "$q.jsonl" 2>/dev/null
    # shellcheck disable=SC2086
    "$q" $args --input bin "$q.csv.bin" > "$q.bin.out" 2>&1
    # shellcheck disable=SC2086
    cat "$q.csv.bin" | "$q" $args --input bin > "$q.pipe.out" 2>&1
    # shellcheck disable=SC2086
    "$q" $args --threads 2 --input bin "$q.csv.bin" > "$q.bin2.out" 2>&1
    if ! cmp -s "$q.csv.bin" "$q.jl.bin"; then
        echo "gen: FAIL sample $2: --convert-bin from JSONL differs from CSV's"; fail=$((fail+1))
    fi
}

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
        # the matcher as one translation unit (auto: a sample is under the
        # size that splits), two or three (cg_split)
        parts=1; [ $s = tdfa ] || [ $s = runs ] && parts=2; [ $s = dsra ] && parts=3
        # shellcheck disable=SC2086
        if ! CFLAGS="-O0 -Wall -Wextra -pedantic -Werror" \
                "$SREMC" build --strategy $s $budget --cc-parts $parts $model "samples/$n.srem" $ext -o "$p" 2>"$p.log"; then
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
        [ $s = auto ] && check_inputs "$p" "$n"
        lines=$(($(wc -l < "samples/$n.csv") - 1))
        # the cut and restored runs take the sample's options (--flush-absent) but those
        # that refuse checkpoints (--forecast-stats scores a whole run; --max-delay
        # holds events back); their records are then those of a whole run with rargs
        rargs=$(printf '%s\n' "$args" | sed -e 's/--forecast-stats//' -e 's/--max-delay [^ ]*//')
        want=$e
        rwst=$st
        if [ "$rargs" != "$args" ]; then
            want=$p.plain
            # shellcheck disable=SC2086
            "$p" $rargs "samples/$n.csv" > "$want" 2>/dev/null
            rwst=$?   # without --max-delay, a late event is rejected: exit 3
        fi
        for k in 1 $((lines / 3)) $((lines / 2)) $((lines - 1)); do
            head -n $((k + 1)) "samples/$n.csv" > "$p.part.csv"
            # the events the first k lines gave: records up to that index are the cut run's
            # shellcheck disable=SC2086
            ev=$("$p" $rargs --stats --checkpoint "$p.ck" "$p.part.csv" 2>&1 >/dev/null | awk '$1 == "events" { print $2 }')
            # shellcheck disable=SC2086
            "$p" $rargs --restore "$p.ck" "samples/$n.csv" > "$p.rout" 2>"$p.rerr"
            rst=$?
            awk -v k="${ev:-0}" 'match($0, / index=[0-9]+/) && substr($0, RSTART + 7, RLENGTH - 7) + 0 <= k { next } { print }' \
                "$want" > "$p.rwant"
            if ! diff -u "$p.rwant" "$p.rout" >"$p.rdiff" || [ $rst != $rwst ]; then
                echo "gen: FAIL sample $n, strategy $s, restored after $k lines (exit $rst, whole run $rwst)"
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
#     on push_many_batched.srem, where push_many is batched; on
#     push_many_linear*.srem, whose scans read the linear ring, with 1 to 8
#     events a call too)
for F in push_many push_many_batched push_many_linear push_many_linear_stam; do
    for L in auto table tree chain nodes; do
        if "$SREMC" tests/gen/$F.srem --layout $L --max-states 2000 --prefix pm -o "$W/pm.c" &&
           ${CC:-cc} -std=c99 -O1 -Wall -Wextra -Werror -Iruntime/include -I"$W" tests/gen/push_many.c \
               "$W/pm.c" lib/libsremrt.a -o "$W/pm" && "$W/pm" >/dev/null &&
           { [ $F = push_many ] || "$W/pm" rare >/dev/null; } &&   # batched: rare As too (far starts)
           { [ "${F#push_many_linear}" = "$F" ] || { "$W/pm" x small >/dev/null && "$W/pm" rare small >/dev/null; }; }; then
            pass=$((pass+1))
        else
            echo "gen: FAIL push_many against push ($F.srem, --layout $L)"; fail=$((fail+1))
        fi
    done
done
# 3b". where the machine runs AVX2, push_many_linear.srem's tables built
#     with -mavx2: its three-atom gap chain's scan_in is then the mask scan
#     (cg_canon.c, put_scan_masks), against push and the loops' scan
if grep -q avx2 /proc/cpuinfo 2>/dev/null && echo 'int x;' | ${CC:-cc} -mavx2 -x c -c -o /dev/null - 2>/dev/null; then
    for O in -O1 -O3; do
        if "$SREMC" tests/gen/push_many_linear.srem --layout table --prefix pm -o "$W/pm.c" &&
           grep -q 'the Bs in reach of a\[0\]' "$W/pm.c" &&
           ${CC:-cc} -std=c99 $O -mavx2 -Wall -Wextra -Werror -Iruntime/include -I"$W" tests/gen/push_many.c \
               "$W/pm.c" lib/libsremrt.a -o "$W/pm" && "$W/pm" >/dev/null && "$W/pm" rare >/dev/null &&
           "$W/pm" x small >/dev/null && "$W/pm" rare small >/dev/null; then
            pass=$((pass+1))
        else
            echo "gen: FAIL push_many against push with the mask scan (push_many_linear.srem, -mavx2 $O)"; fail=$((fail+1))
        fi
    done
fi
# 3b'. the same with explore clauses (push_many_explore.srem), whose
#     counting state push_each keeps in locals: 1..700 and 1..8 events a
#     call, the tries compared too, and against the runtime's rc; windows
#     of 3 entries (full rings) against push
if "$SREMC" tests/gen/push_many_explore.srem --prefix pm -o "$W/pm.c" &&
   ${CC:-cc} -std=c99 -O1 -DPM_TRIE -Wall -Wextra -Werror -Iruntime/include -I"$W" tests/gen/push_many.c \
       "$W/pm.c" lib/libsremrt.a -o "$W/pm"; then
    for A in "common" "common small" "rare small" "common small 3" "rare x 3"; do
        if "$W/pm" $A >/dev/null; then
            pass=$((pass+1))
        else
            echo "gen: FAIL push_many against push with explore clauses (A $A)"; fail=$((fail+1))
        fi
    done
else
    echo "gen: FAIL building push_many_explore"; fail=$((fail+1))
fi
# 3c. the same where the threaded run skips events in its start state
#     (a strict sequence: blocks without a candidate, push_many_accel_seq
#     for a dsra, push_many_accel_strict for a tdfa),
#     or the batched push_many those of an idle chain (acceleration), on
#     streams where the start event is common and rare, with one event
#     going backwards and with 24 (at many places of the skips' blocks)
for FL in push_many_accel:tree push_many_accel_time:tree push_many_accel_time:chain \
          push_many_accel_chain:chain push_many_accel_gaps:chain push_many_accel_seq:tree \
          push_many_accel_strict:tree; do
    F=${FL%%:*} L=${FL#*:}
    for A in common rare "rare small" "rare x 0 backs" "common x 0 backs"; do
        if "$SREMC" tests/gen/$F.srem --layout $L --prefix pm -o "$W/pm.c" &&
           grep -q 'pm_p0_skip0' "$W/pm.c" &&
           ${CC:-cc} -std=c99 -O1 -Wall -Wextra -Werror -Iruntime/include -I"$W" tests/gen/push_many.c \
               "$W/pm.c" lib/libsremrt.a -o "$W/pm" && "$W/pm" $A >/dev/null; then
            pass=$((pass+1))
        else
            echo "gen: FAIL push_many against push with acceleration ($F.srem, --layout $L, A $A)"; fail=$((fail+1))
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

# 7. --max-delay (tests/gen/late.py): random shuffled streams, some
#    timestamps in ISO-8601, against the release order of its definition;
#    a schema without a timestamp refuses the option (exit status 2).
if "$SREMC" build tests/gen/late.srem -o "$W/late" 2>"$W/late.log" &&
   python3 tests/gen/late.py "$W/late" "$W" "${LATE_SEED:-19}"; then
    pass=$((pass+1))
else
    echo "gen: FAIL --max-delay against its oracle"; cat "$W/late.log"; fail=$((fail+1))
fi
# 7b. float32 attributes (tests/gen/float32.py): seeded streams where
#     rounding to float32 shows, programs of every strategy that applies
#     fed CSV, JSON Lines and --convert-bin records, against an oracle of
#     the definition (FLOAT32_SEED=N for another sequence).
mkdir -p "$W/float32"
if python3 tests/gen/float32.py "$SREMC" "$W/float32" "${FLOAT32_SEED:-32}"; then
    pass=$((pass+1))
else
    fail=$((fail+1))
fi
"$W/partition.auto" --max-delay 1s /dev/null 2>"$W/late_nots.err"
st=$?
if [ -x "$W/partition.auto" ] && [ $st = 2 ] && grep -q 'max-delay needs a timestamp' "$W/late_nots.err"; then
    pass=$((pass+1))
else
    echo "gen: FAIL --max-delay on a schema without a timestamp (exit $st)"; fail=$((fail+1))
fi

# 8. the generated explore counting step against the runtime's rc and ic
#    (build/diff_explore): GEN_DIFF_EXPLORE_PROGRAMS (default 6) programs
#    of 10 random explore clauses, times SREMC_DIFF_SCALE, 3 streams each.
XDIFF=${5:-build/diff_explore}
mkdir -p "$W/explore"
if ! "$XDIFF" "$SREMC" "$W/explore" "${GEN_DIFF_EXPLORE_PROGRAMS:-6}"; then
    fail=$((fail+1))
fi

echo "gen: $pass passed, $fail failed"
[ $fail -eq 0 ]
