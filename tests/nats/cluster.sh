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
# REJOIN=1 (a restarted node): ok too once it has its two routes back and
# JetStream on, since /healthz stays unhealthy while the node catches up
# on every stream, which took over 90 s twice on a loaded machine (every
# record arrived each time: the scenario's own check counts them).
wait_ready() {   # [READY_S (default 30)] [REJOIN] N...: until every node is ready
    b=$(cat "$dir/base")
    python3 - "$b" "${READY_S:-30}" "${REJOIN:-0}" "$@" <<'PY'
import json, sys, time, urllib.request
base = int(sys.argv[1]); limit = int(sys.argv[2]); rejoin = sys.argv[3] == "1"
nodes = [int(a) for a in sys.argv[4:]]
def get(n, path):
    with urllib.request.urlopen("http://127.0.0.1:%d/%s" % (base + 20 + n, path), timeout=1) as r:
        return r.read()
def ready(n):
    try:
        if b'"ok"' in get(n, "healthz"):
            return True
        if rejoin:
            routes = json.loads(get(n, "routez")).get("num_routes", 0)
            js = json.loads(get(n, "jsz"))
            return routes >= 2 and not js.get("disabled", False) and js.get("config") is not None
    except Exception:
        pass
    return False
end = time.time() + limit
while time.time() < end:
    if all(ready(n) for n in nodes):
        sys.exit(0)
    time.sleep(0.1)
for n in nodes:
    try:
        body = get(n, "healthz").decode(errors="replace")
    except Exception as e:
        body = str(e)
    print("cluster.sh: node %d not ready after %d s: healthz %s" % (n, limit, body.strip()), file=sys.stderr)
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
    READY_S=90 REJOIN=1 wait_ready "$3" ;;
urls)
    b=$(cat "$dir/base")
    echo "nats://127.0.0.1:$((b + 1)),nats://127.0.0.1:$((b + 2)),nats://127.0.0.1:$((b + 3))" ;;
*)
    echo "usage: cluster.sh DIR start|stop|kill N|restart N|urls" >&2
    exit 2 ;;
esac
