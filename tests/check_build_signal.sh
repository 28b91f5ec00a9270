#!/bin/sh
# check_build_signal.sh SREMC: a `sremc build` stopped by SIGTERM or SIGINT
# (a timeout, ^C) stops its C compiler, every process of it, and removes
# its temporary directory (issue 13, item 7). The C compiler is a stand-in
# script that starts a long child (as gcc starts cc1) and waits, so the
# test is quick and needs no large input. sremc runs two at once (the
# matcher and the main), or with --cc-parts 3 four (the matcher's three
# parts and the main), so each stand-in adds its pids to the lists. And
# a build whose matcher does not compile in parts falls back to one.
set -u
SREMC=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

cat > "$work/cc" <<'CC'
#!/bin/sh
sleep 300 &
echo $! >> "$STANDIN_PIDS/cc1"
echo $$ >> "$STANDIN_PIDS/driver"
wait
CC
chmod +x "$work/cc"

runs=0
for run in TERM:1 INT:1 TERM:3 INT:3; do
    sig=${run%:*} parts=${run#*:}
    runs=$((runs + 1))
    pids="$work/pids.$run"; tmp="$work/tmp.$run"
    mkdir -p "$pids" "$tmp"
    STANDIN_PIDS=$pids TMPDIR=$tmp CC="$work/cc" "$SREMC" build --cc-parts "$parts" samples/fire.srem \
        -o "$work/prog" 2> "$work/err.$sig" &
    sremc=$!
    # wait (at most 10 s) until every stand-in compiler runs
    n=0 want=$((parts + 1))
    while [ "$(cat "$pids/driver" 2>/dev/null | wc -l)" -lt $want ] && [ $n -lt 200 ]; do sleep 0.05; n=$((n + 1)); done
    if [ "$(cat "$pids/driver" 2>/dev/null | wc -l)" -lt $want ]; then
        echo "build-signal: SIG$sig, $parts parts: the C compiler never started"; fail=1
        kill -KILL "$sremc" 2>/dev/null; wait "$sremc" 2>/dev/null
        continue
    fi
    kill -"$sig" "$sremc"
    wait "$sremc" 2>/dev/null; rc=$?
    procs=$(cat "$pids/cc1" "$pids/driver")
    # the groups get SIGTERM at once: allow a moment for them to go
    n=0
    while [ $n -lt 100 ]; do
        alive=0
        for p in $procs; do kill -0 "$p" 2>/dev/null && alive=1; done
        [ $alive = 1 ] || break
        sleep 0.05; n=$((n + 1))
    done
    for p in $procs; do
        if kill -0 "$p" 2>/dev/null; then
            echo "build-signal: SIG$sig, $parts parts: process $p of the C compiler still runs"; fail=1
            kill -KILL "$p" 2>/dev/null
        fi
    done
    left=$(ls -A "$tmp")
    [ -z "$left" ] || { echo "build-signal: SIG$sig, $parts parts: left in TMPDIR: $left"; fail=1; }
    [ "$rc" -gt 128 ] || { echo "build-signal: SIG$sig, $parts parts: exit status $rc, expected death by the signal (> 128)"; fail=1; }
    grep -q "interrupted by SIG$sig" "$work/err.$sig" ||
        { echo "build-signal: SIG$sig, $parts parts: no 'interrupted' message:"; cat "$work/err.$sig"; fail=1; }
done
# A part that does not compile (a fault of the split, cg_split.c): the
# build notes it, compiles the matcher whole and gives the same program;
# a C compiler that fails on everything still fails the build, once.
cat > "$work/cc_part1" <<'CC'
#!/bin/sh
for a in "$@"; do [ "$a" = -DSREMC_PART=1 ] && { echo "stand-in: part 1 refused" >&2; exit 1; }; done
exec cc "$@"
CC
cat > "$work/cc_never" <<'CC'
#!/bin/sh
echo x >> "$STANDIN_PIDS/calls"
exit 1
CC
chmod +x "$work/cc_part1" "$work/cc_never"
runs=$((runs + 1))
mkdir -p "$work/tmp.part"
if TMPDIR="$work/tmp.part" CC="$work/cc_part1" "$SREMC" build --cc-parts 3 samples/fire.srem -o "$work/fire" \
        2> "$work/err.part" &&
   grep -q "did not compile in 3 parts; compiling it whole" "$work/err.part" &&
   "$work/fire" < samples/fire.csv 2>/dev/null | cmp -s - samples/fire.expected &&
   [ -z "$(ls -A "$work/tmp.part")" ]; then :; else
    echo "build-signal: a part that does not compile: no whole build, or not the sample's records:"
    cat "$work/err.part"; fail=1
fi
runs=$((runs + 1))
mkdir -p "$work/pids.never"
STANDIN_PIDS="$work/pids.never" CC="$work/cc_never" "$SREMC" build --cc-parts 3 samples/fire.srem \
    -o "$work/never" 2> "$work/err.never"; rc=$?
calls=$(wc -l < "$work/pids.never/calls")
if [ "$rc" != 1 ] || [ "$calls" != 6 ] || ! grep -q "failed (exit status 1) compiling" "$work/err.never"; then
    echo "build-signal: a C compiler that always fails: exit $rc, $calls compiles (expected 1, 4 + 2):"
    cat "$work/err.never"; fail=1
fi
[ $fail = 0 ] && echo "build-signal: $runs passed, 0 failed" || echo "build-signal: FAILED"
exit $fail
