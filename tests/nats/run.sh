#!/bin/sh
# run.sh SREMC: the NATS JetStream mode against a real 3-node cluster on
# 127.0.0.1 (make check-nats; docs/SCALING.md). A generated stream of
# alarms (samples/telecom_gen.c, EVENTS events) is published to partitions
# and matched by `PROG --nats`; each time the records the matchers
# published, mapped to global indices, must equal the file-mode run's
# (tests/nats/oracle.py: nothing lost, nothing duplicated):
#   R  the server: racing publishes that expect one last sequence of a
#      stream are never both stored (dump --race: what fencing rests on);
#   A  4 partitions, one matcher each;
#   B  2 partitions; partition 0's matcher killed with SIGKILL at 3 random
#      points, then a replacement (SEED: the random points);
#   C  2 partitions; two instances of partition 0 at once (one may be
#      fenced: exit status 4);
#   D  2 partitions; one server killed with SIGKILL while publishing and
#      matching, restarted later;
#   E  1 partition of CSV payloads from a producer of our own (dump --csv);
#   F  takeovers: 1 partition of small messages (25 events) published while
#      6 instances start 0.3 s apart, each fencing the one before while it
#      publishes results every few milliseconds (the race of a new
#      instance's first publish with an old one's in flight).
# ONLY="C F" runs only those scenarios (default: all). Skipped (exit 0, with a message) without nats-server or libnats. The
# servers are stopped on exit (only the PIDs cluster.sh started) and live
# at most 300 s; the whole run is bounded by `timeout` in the Makefile.
set -u
sremc=$1
here=$(cd "$(dirname "$0")" && pwd)
EVENTS=${EVENTS:-2000000}
SEED=${SEED:-$(date +%s)}
ONLY=${ONLY:-R A B C D E F}
t0=$(date +%s)
say() { echo "check-nats: [$(( $(date +%s) - t0 )) s] $*"; }

if ! command -v nats-server >/dev/null 2>&1; then
    say "skipped: nats-server is not installed (make deps installs it)"
    exit 0
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/sremc-nats-XXXXXX")
cleanup() {
    MAXLIFE=1 sh "$here/cluster.sh" "$dir/cluster" stop
    if [ -n "${KEEP:-}" ]; then echo "check-nats: kept $dir"; else rm -rf "$dir"; fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

$sremc build "$here/cells.srem" -o "$dir/cells" || exit 1
if ! "$dir/cells" --help | grep -q "NATS JetStream.*: built in"; then
    say "skipped: the program has no NATS mode (libnats not found by pkg-config)"
    exit 0
fi
cc -std=c99 -O2 -pthread -o "$dir/dump" "$here/dump.c" $(pkg-config --cflags --libs libnats) || exit 1
gen=$(dirname "$sremc")/../build/telecom_gen
[ -x "$gen" ] || { say "$gen is missing (make build/telecom_gen)"; exit 1; }
days=$(( (EVENTS + 249999) / 250000 ))
"$gen" --cells 400 --days "$days" --seed 7 > "$dir/events.csv" || exit 1
"$dir/cells" --format jsonl "$dir/events.csv" > "$dir/whole.jsonl" || exit 1
"$dir/cells" --convert-bin "$dir/events.bin" "$dir/events.csv" || exit 1   # the publisher reads it faster
say "$(($(wc -l < "$dir/events.csv") - 1)) events, $(wc -l < "$dir/whole.jsonl") records in file mode; SEED=$SEED"

MAXLIFE=300 sh "$here/cluster.sh" "$dir/cluster" start || exit 1
urls=$(sh "$here/cluster.sh" "$dir/cluster" urls)
failed=0
want() { case " $ONLY " in *" $1 "*) return 0 ;; esac; return 1; }

# verify NAME STREAM N [EVENTS RECORDS]: the published records against the
# file-mode run (default: events.csv, whole.jsonl)
verify() {
    "$dir/dump" "$urls" "$2" "$3" > "$dir/$2.res" || { say "$1: cannot read the results"; failed=1; return; }
    if python3 "$here/oracle.py" "${4:-$dir/events.csv}" "$3" cell "${5:-$dir/whole.jsonl}" "$dir/$2.res" > "$dir/$2.cmp"; then
        say "$1: $(sed 's/^oracle: //' "$dir/$2.cmp")"
    else
        say "$1: FAILED (SEED=$SEED)"
        cat "$dir/$2.cmp"
        failed=1
    fi
}

publish() { # STREAM N [OPTIONS]
    s=$1 n=$2
    shift 2
    "$dir/cells" --nats-publish "$urls" --stream "$s" --partitions "$n" --input bin "$@" "$dir/events.bin" 2>"$dir/$s.pub" \
        || { cat "$dir/$s.pub"; say "publishing $s failed"; failed=1; }
}

match() { # STREAM P N [OPTIONS]: the matcher's exit status; its stderr in a log
    s=$1 p=$2 n=$3
    shift 3
    "$dir/cells" --nats "$urls" --stream "$s" --partition "$p/$n" --idle 3 "$@" 2>>"$dir/$s.$p.log"
}

# spawn STREAM P N [OPTIONS]: match in the background, $! the matcher's own
# PID (not a subshell's: kill -9 must hit the matcher)
spawn() {
    s=$1 p=$2 n=$3
    shift 3
    "$dir/cells" --nats "$urls" --stream "$s" --partition "$p/$n" --idle 3 "$@" 2>>"$dir/$s.$p.log" &
}

# R: two clients publish at once expecting the same last sequence, 200
# times: at most one stored when it is the stream's (what --nats expects)
scenario_R() {
    if "$dir/dump" --race "$urls" 200 > "$dir/race.out"; then
        say "R: $(cat "$dir/race.out")"
    else
        say "R: FAILED: $(cat "$dir/race.out")"
        failed=1
    fi
}

# A: 4 partitions
scenario_A() {
    publish A 4
    pids=""
    for p in 0 1 2 3; do spawn A $p 4; pids="$pids $!"; done
    for pid in $pids; do wait "$pid" || { say "A: a matcher failed"; failed=1; }; done
    verify "A (4 partitions)" A 4
}

# B: kill -9 partition 0's matcher 3 times at random points
scenario_B() {
    publish B 2
    spawn B 1 2
    other=$!
    for k in 1 2 3; do
        delay=$(awk -v s="$SEED" -v k="$k" 'BEGIN { srand(s + k); printf "%.2f", 0.4 + rand() * 1.6 }')
        spawn B 0 2 --checkpoint-secs 0.2
        victim=$!
        sleep "$delay"
        kill -9 "$victim" 2>/dev/null
        wait "$victim"
        say "B: partition 0's matcher killed after ${delay} s"
    done
    match B 0 2 || { say "B: the replacement failed"; failed=1; }
    wait "$other" || { say "B: partition 1's matcher failed"; failed=1; }
    grep -h "nats: partition 0/2" "$dir/B.0.log" | tail -1 | sed "s/^.*nats: /check-nats: B: replacement: /"
    verify "B (3 kills)" B 2
}

# C: two instances of partition 0 at once, the second started while the
# first runs: it takes over, the first is fenced when it next publishes
scenario_C() { # [STREAM]
    c=${1:-C}
    publish $c 2
    spawn $c 0 2
    one=$!
    sleep 0.5
    spawn $c 0 2
    two=$!
    match $c 1 2 || { say "$c: partition 1's matcher failed"; failed=1; }
    wait "$one"; r1=$?
    wait "$two"; r2=$?
    say "$c: the two instances of partition 0 exited with $r1 and $r2 ($(grep -c fenced "$dir/$c.0.log") fenced)"
    if [ "$r1" != 0 ] && [ "$r2" != 0 ]; then say "$c: no instance finished"; failed=1; fi
    for r in $r1 $r2; do [ "$r" = 0 ] || [ "$r" = 4 ] || { say "$c: exit status $r"; failed=1; }; done
    verify "$c (two instances)" $c 2
}

# D: kill server 2 while publishing and matching, restart it
scenario_D() {
    ( publish D 2 ) & pub=$!
    sleep 0.5
    spawn D 0 2 --idle 15
    m0=$!
    spawn D 1 2 --idle 15
    m1=$!
    sleep 1
    sh "$here/cluster.sh" "$dir/cluster" kill 2
    say "D: server 2 killed"
    wait "$pub" || failed=1
    sleep 1
    MAXLIFE=300 sh "$here/cluster.sh" "$dir/cluster" restart 2 || { say "D: server 2 did not come back"; failed=1; }
    say "D: server 2 restarted"
    wait "$m0" || { say "D: partition 0's matcher failed"; failed=1; }
    wait "$m1" || { say "D: partition 1's matcher failed"; failed=1; }
    verify "D (a server killed)" D 2
}

# E: CSV payloads (200,000 events, 500 a message) on one partition
scenario_E() {
    head -n 200001 "$dir/events.csv" > "$dir/small.csv"
    "$dir/cells" --format jsonl "$dir/small.csv" > "$dir/small.jsonl"
    spawn E 0 1 --idle 4
    m0=$!
    sleep 2   # the matcher has made its stream
    "$dir/dump" --csv "$urls" E.0 "$dir/small.csv" 500 || { say "E: cannot publish CSV"; failed=1; }
    wait "$m0" || { say "E: the matcher failed"; failed=1; }
    verify "E (CSV payloads)" E 1 "$dir/small.csv" "$dir/small.jsonl"
}

# F: takeovers. Small messages (25 events), matched by 6 instances of the
# one partition started 0.3 s apart: each new one takes the results subject
# while the one before, working through the backlog, publishes a results
# message every few milliseconds; that one is fenced (exit status 4), the
# last one finishes.
scenario_F() { # [STREAM]
    f=${1:-F}
    publish $f 1 --batch 25
    pids=""
    for i in 1 2 3 4 5 6; do
        spawn $f 0 1 --checkpoint-secs 0.3
        pids="$pids $!"
        sleep 0.3
    done
    codes=""
    for pid in $pids; do wait "$pid"; codes="$codes $?"; done
    say "$f: the 6 instances exited with$codes ($(grep -c fenced "$dir/$f.0.log") fenced)"
    case "$codes" in *" 0"*) ;; *) say "$f: no instance finished"; failed=1 ;; esac
    for r in $codes; do [ "$r" = 0 ] || [ "$r" = 4 ] || { say "$f: exit status $r"; failed=1; }; done
    verify "$f (takeovers)" $f 1
}

for x in $ONLY; do scenario_$x; done
# REPEAT=K: C and F K more times, on streams C2.., F2.. (a loop for races)
for rep in $(seq 2 "${REPEAT:-1}"); do
    for x in $ONLY; do case $x in C|F) scenario_$x $x$rep ;; esac; done
done

if [ $failed != 0 ]; then
    for f in "$dir"/*.log; do echo "== $f"; tail -5 "$f"; done
    say "FAILED (SEED=$SEED)"
    exit 1
fi
say "the cluster tests passed"
