#!/bin/sh
# nats.sh SREMC: the NATS JetStream mode's throughput (make bench-nats;
# the table of docs/SCALING.md). A 3-node cluster on 127.0.0.1
# (tests/nats/cluster.sh, R3 streams), EVENTS alarms of the telecom
# generator matched by tests/nats/cells.srem: the same matcher reading a
# binary file; publishing to 1, 2 and 4 partitions; the matchers of all
# partitions at once (events/s of each from its first input to its last,
# and in total: all events over the longest); a run that checkpoints after
# every fetched batch against one that checkpoints every 5 s (the default).
# Wall-clock figures of one run: on a shared machine they are noisy.
set -u
sremc=$1
root=$(cd "$(dirname "$0")/.." && pwd)
EVENTS=${EVENTS:-4000000}
command -v nats-server >/dev/null 2>&1 || { echo "bench-nats: nats-server is not installed (make deps)"; exit 1; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/sremc-bench-nats-XXXXXX")
trap 'MAXLIFE=1 sh "$root/tests/nats/cluster.sh" "$dir/cluster" stop; rm -rf "$dir"' EXIT
trap 'exit 1' INT TERM HUP

$sremc build "$root/tests/nats/cells.srem" -o "$dir/cells" || exit 1
"$dir/cells" --help | grep -q "NATS JetStream.*: built in" || { echo "bench-nats: no NATS mode (libnats)"; exit 1; }
"$root/build/telecom_gen" --cells 400 --days $(( (EVENTS + 249999) / 250000 )) --seed 7 > "$dir/ev.csv" || exit 1
"$dir/cells" --convert-bin "$dir/ev.bin" "$dir/ev.csv" || exit 1
n=$(( $(wc -l < "$dir/ev.csv") - 1 ))
rm -f "$dir/ev.csv"

t0=$(date +%s.%N)
cpu=$( (/usr/bin/time -f "%U %S" "$dir/cells" --input bin --format jsonl "$dir/ev.bin" > /dev/null) 2>&1 | tail -1)
t1=$(date +%s.%N)
echo "bench-nats: $n events; file mode (--input bin): $(echo "$t0 $t1 $n $cpu" |
    awk '{printf "%.2f M events/s, %.3f us of CPU an event", $3 / ($2 - $1) / 1e6, ($4 + $5) / $3 * 1e6}')"

MAXLIFE=900 sh "$root/tests/nats/cluster.sh" "$dir/cluster" start || exit 1
urls=$(sh "$root/tests/nats/cluster.sh" "$dir/cluster" urls)

# run S N [OPTIONS]: all N partitions at once; prints each and the total
run() {
    s=$1 np=$2
    shift 2
    pids=""
    for p in $(seq 0 $((np - 1))); do
        "$dir/cells" --nats "$urls" --stream "$s" --partition "$p/$np" --idle 2 "$@" 2>"$dir/$s.$p.log" &
        pids="$pids $!"
    done
    for pid in $pids; do wait "$pid"; done
    cat "$dir/$s".*.log | sed -n 's/^.*nats: partition \([0-9/]*\): .* \([0-9]*\) events in \([0-9.]*\) s (\([0-9]*\)\/s).* checkpoints (last \([0-9]*\) bytes, \([0-9.]*\) ms each), \([0-9.]*\) s of CPU.*/\1 \2 \3 \4 \5 \6 \7/p' |
        awk -v s="$s" '{ printf "bench-nats: %s partition %s: %d events in %.2f s, %.2f M events/s, %.3f us of CPU an event (checkpoint %.1f MB, %.0f ms)\n", s, $1, $2, $3, $4 / 1e6, $7 / $2 * 1e6, $5 / 1048576, $6;
                         ev += $2; if ($3 > t) t = $3 }
                       END { printf "bench-nats: %s total: %d events in %.2f s, %.2f M events/s\n", s, ev, t, ev / t / 1e6 }'
}

for np in 1 2 4; do
    "$dir/cells" --nats-publish "$urls" --stream "P$np" --partitions "$np" --input bin "$dir/ev.bin" 2>&1 |
        sed 's/^.*nats: /bench-nats: /'
    run "P$np" "$np"
done
echo "bench-nats: one partition again, a checkpoint after every fetched batch (256 messages):"
"$dir/cells" --nats-publish "$urls" --stream E1 --partitions 1 --input bin "$dir/ev.bin" 2>/dev/null
run E1 1 --checkpoint-secs 0
