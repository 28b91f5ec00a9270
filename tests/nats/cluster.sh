#!/bin/sh
# cluster.sh DIR start|stop|kill N|restart N|urls: a 3-node NATS JetStream
# cluster on 127.0.0.1 only (free ports picked at start), its configs, data
# and logs under DIR. Bounded: stop and kill signal only the PIDs this
# script started (TERM, then KILL after 5 s), and a watchdog per server
# kills it after MAXLIFE seconds (default 600) whatever happens to us.
set -u
dir=$1
cmd=$2
MAXLIFE=${MAXLIFE:-600}

# A port base with its 9 ports free: client B+i, routes B+10+i, HTTP B+20+i.
pick_ports() {
    for try in 1 2 3 4 5 6 7 8 9 10; do
        base=$(( 20000 + ($$ * 7 + try * 997 + $(date +%N | sed 's/^0*//;s/^$/0/') ) % 40000 ))
        busy=0
        for off in 1 2 3 11 12 13 21 22 23; do
            ss -ltnH "sport = :$((base + off))" 2>/dev/null | grep -q . && busy=1
        done
        [ $busy = 0 ] && { echo $base; return 0; }
    done
    echo "cluster.sh: no free ports found" >&2
    return 1
}

write_config() { # N BASE
    n=$1 b=$2
    mkdir -p "$dir/n$n"
    cat > "$dir/n$n.conf" <<CONF
server_name: n$n
listen: 127.0.0.1:$((b + n))
http: 127.0.0.1:$((b + 20 + n))
jetstream { store_dir: "$dir/n$n" }
cluster {
    name: sremc_test
    listen: 127.0.0.1:$((b + 10 + n))
    routes: [nats-route://127.0.0.1:$((b + 11)), nats-route://127.0.0.1:$((b + 12)), nats-route://127.0.0.1:$((b + 13))]
}
CONF
}

start_node() { # N
    n=$1
    nats-server -c "$dir/n$n.conf" </dev/null >>"$dir/n$n.log" 2>&1 &
    pid=$!
    echo $pid > "$dir/n$n.pid"
    # the watchdog: ends with the server, kills it after MAXLIFE
    ( timeout "$MAXLIFE" tail --pid=$pid -f /dev/null; [ $? = 124 ] && kill -9 $pid ) </dev/null >/dev/null 2>&1 &
}

stop_node() { # N [SIGNAL]
    f="$dir/n$1.pid"
    [ -f "$f" ] || return 0
    pid=$(cat "$f")
    rm -f "$f"
    kill -"${2:-TERM}" "$pid" 2>/dev/null || return 0
    for i in $(seq 50); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null
}

# Ready: every node's /healthz says ok (JetStream up, a meta leader known).
wait_ready() {   # [READY_S (default 30)] N...: until every node's healthz is ok
    b=$(cat "$dir/base")
    python3 - "$b" "${READY_S:-30}" "$@" <<'PY'
import sys, time, urllib.request
base = int(sys.argv[1]); limit = int(sys.argv[2]); nodes = [int(a) for a in sys.argv[3:]]
end = time.time() + limit
while time.time() < end:
    ok = 0
    for n in nodes:
        try:
            with urllib.request.urlopen("http://127.0.0.1:%d/healthz" % (base + 20 + n), timeout=1) as r:
                ok += b'"ok"' in r.read()
        except Exception:
            pass
    if ok == len(nodes):
        sys.exit(0)
    time.sleep(0.1)
print("cluster.sh: the cluster is not ready after %d s" % limit, file=sys.stderr)
sys.exit(1)
PY
}

case $cmd in
start)
    mkdir -p "$dir"
    b=$(pick_ports) || exit 1
    echo "$b" > "$dir/base"
    for n in 1 2 3; do write_config $n "$b"; done
    for n in 1 2 3; do start_node $n; done
    wait_ready 1 2 3 ;;
stop)
    for n in 1 2 3; do stop_node $n; done ;;
kill)
    stop_node "$3" KILL ;;
restart)   # a node that rejoins catches up on its streams before healthz says ok
    start_node "$3"
    READY_S=90 wait_ready "$3" ;;
urls)
    b=$(cat "$dir/base")
    echo "nats://127.0.0.1:$((b + 1)),nats://127.0.0.1:$((b + 2)),nats://127.0.0.1:$((b + 3))" ;;
*)
    echo "usage: cluster.sh DIR start|stop|kill N|restart N|urls" >&2
    exit 2 ;;
esac
