#!/usr/bin/env bash
# Issue 30's reproductions of acm-server under abuse, against a built CLI jar, with ibsim and OpenSM as the
# fabric. Manual and heavy (a million requests, hundreds of sockets): not a CI test. Prints the figures that
# docs/acm-server.md records. Build first:  mvn -B -ntp -o -q -pl cli -am package -DskipTests
# Needs: ibsim-utils, opensm, infiniband-diags (saquery), ibacm's ib_acme, python3, util-linux (prlimit,
# unshare), gcc with librdmacm-dev (the real rdma_getaddrinfo past max_clients), root (its private /run).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
JAR=${RDMACM_JAR:-$ROOT/cli/target/rdmacm.jar}
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
PY="python3 $HERE/acm_abuse.py"
JCMD=$(dirname "$JAVA")/jcmd
UMAD=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so
FLOOD=${FLOOD:-200000}
FLOOD_NO_SM=${FLOOD_NO_SM:-800000}
SRC=fe80::10:4         # Hca2's port GID: the server's endpoint
KNOWN=fe80::10:7       # Hca3's port GID: a destination the SA knows
D=$(mktemp -d /tmp/acm-abuse.XXXXXX)
PORT=$((20000 + RANDOM % 20000))
PIDS=()

cleanup() {
    [ -n "${KEEP:-}" ] && return
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$D"
}
trap cleanup EXIT

# the real librdmacm's rdma_getaddrinfo, timed, over addrinfo's fake-device shim (no RDMA device needed)
gcc -O2 -o "$D/gai" "$HERE/getaddrinfo_timed.c" -lrdmacm
gcc -O0 -shared -fPIC -o "$D/fakedev.so" "$ROOT/addrinfo/src/test/resources/dev/rdmacm/addrinfo/fakedev.c"
# gai PORT [SECONDS]: it in a private /run whose ibacm.port names PORT (the host's own /run/ibacm.* unseen),
# killed after SECONDS (30)
gai() {
    unshare --mount --propagation private sh -c "mount -t tmpfs abuse-run /run && echo $1 > /run/ibacm.port && \
        LD_PRELOAD=$D/fakedev.so timeout ${2:-30} $D/gai 192.0.2.3 7471 192.0.2.2; echo \"exit \$?\""
}

cat > "$D/topo.net" <<'TOPO'
Switch	8 "Switch1"
[1]	"Hca1"[1]
[2]	"Hca2"[1]
[3]	"Switch2"[3]
[4]	"Switch2"[4]

Switch	8 "Switch2"
[1]	"Hca3"[1]
[2]	"Hca4"[1]
[3]	"Switch1"[3]
[4]	"Switch1"[4]

Hca	2 "Hca1"
[1]	"Switch1"[1]

Hca	2 "Hca2"
[1]	"Switch1"[2]

Hca	2 "Hca3"
[1]	"Switch2"[1]

Hca	2 "Hca4"
[1]	"Switch2"[2]
TOPO

# ibacm's ibacm_addr.cfg: a name for the attached port's endpoint, without which it is not served
echo "hca2 ibsim0 1 0xffff" > "$D/addr.cfg"

umad_env() { echo "LD_PRELOAD=$UMAD SIM_HOST=$1 IBSIM_SERVER_NAME=127.0.0.1 IBSIM_SERVER_PORT=$PORT"; }

ibsim -s -n -r -l "$PORT" "$D/topo.net" > "$D/ibsim.log" 2>&1 &
PIDS+=($!)
sleep 0.5
mkdir -p "$D/sm"
# exec: $! is OpenSM's own PID, so that case 2 stops OpenSM, not only this subshell (before, OpenSM stayed up
# through case 2, which answered every query, and was left running after the script)
(cd "$D/sm" && exec env $(umad_env Hca1) OSM_CACHE_DIR="$D/sm" OSM_TMP_DIR="$D/sm" opensm -f "$D/sm/osm.log" -e > "$D/sm/out" 2>&1) &
SM=$!
PIDS+=($SM)
for _ in $(seq 50); do
    (cd "$D/sm" && env $(umad_env Hca4) saquery -c -t 200 > /dev/null 2>&1) && break
    sleep 0.2
done

# start_server NAME HEAP [options lines...]: the CLI's acm-server attached to Hca2; sets SERVER and SOCK
start_server() {
    local name=$1 heap=$2
    shift 2
    mkdir -p "$D/$name"
    printf 'run_dir %s/run\nlog_file %s/server.log\n' "$D/$name" "$D/$name" > "$D/$name/opts.cfg"
    for line in "$@"; do echo "$line" >> "$D/$name/opts.cfg"; done
    $PRLIMIT "$JAVA" -Xmx"$heap" -jar "$JAR" acm-server -O "$D/$name/opts.cfg" -A "$D/addr.cfg" \
        --fabric "ibsim:127.0.0.1:$PORT:Hca2" > "$D/$name/stdout" 2>&1 &
    SERVER=$!
    PIDS+=($SERVER)
    SOCK="$D/$name/run/ibacm-unix.sock"
    for _ in $(seq 200); do [ -S "$SOCK" ] && break; sleep 0.1; done
}

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
peak_rss() { awk '/VmHWM/ {print $2 / 1024 " MiB"}' "/proc/$1/status"; }
# the heap in use now, and after a full GC (what the flood left live)
heap() {
    local now after
    now=$("$JCMD" "$1" GC.heap_info | grep -m1 -o 'used [0-9]*K')
    "$JCMD" "$1" GC.run > /dev/null
    after=$("$JCMD" "$1" GC.heap_info | grep -m1 -o 'used [0-9]*K')
    echo "heap $now, after a full GC $after"
}

stop_server() {
    kill -TERM "$SERVER"
    local status=0
    wait "$SERVER" || status=$?
    echo "  SIGTERM: exit status $status, files left in run dir: $(ls -A "$(dirname "$SOCK")" | grep -v ibacm.pid | tr '\n' ' ')"
}

echo "== 1. NODELAY flood of $FLOOD requests, OpenSM alive"
PRLIMIT=""
start_server flood 1g
$PY flood "$SOCK" "$SRC" "$FLOOD" 8
$PY perf "$SOCK"
echo "  server peak RSS $(peak_rss "$SERVER"); $(heap "$SERVER"); queue-full log lines: $(grep -c 'queue full' "$D/flood/server.log")"
$PY one "$SOCK" "$SRC" "$KNOWN"
stop_server
grep -h "stopped after" "$D/flood/server.log" | sed 's/^/  /'

echo "== 2. NODELAY flood of $FLOOD_NO_SM requests, OpenSM stopped, -Xmx256m"
kill -TERM "$SM"; wait "$SM" 2>/dev/null
echo "  OpenSM (pid $SM) stopped: $(kill -0 "$SM" 2>/dev/null && echo no || echo yes); saquery now: $(cd "$D/sm" && env $(umad_env Hca4) timeout 10 saquery -c -t 200 > /dev/null 2>&1 && echo answers || echo 'no answer')"
start_server nosm 256m
$PY flood "$SOCK" "$SRC" "$FLOOD_NO_SM" 8
$PY perf "$SOCK"
echo "  server alive: $(kill -0 "$SERVER" 2>/dev/null && echo yes || echo no), peak RSS $(peak_rss "$SERVER"), $(heap "$SERVER"), OutOfMemoryError lines: $(grep -c OutOfMemoryError "$D/nosm/server.log" "$D/nosm/stdout" | awk -F: '{s += $2} END {print s}')"
$PY one "$SOCK" "$SRC" "$KNOWN"
stop_server
grep -h "stopped after" "$D/nosm/server.log" | sed 's/^/  /'

echo "== 3. max_clients 100, 100 clients held, a 101st"
start_server busy 256m "max_clients 100" "server_mode loop"
coproc HOLD { $PY hold "$SOCK" 100; }
read -r line <&"${HOLD[0]}"; echo "  $line"
before=$(cpu_ticks "$SERVER"); start=$(date +%s.%N)
timeout 30 ib_acme -S "$SOCK" -P > "$D/busy/acme.out" 2>&1; status=$?
echo "  ib_acme -P as the 101st: exit $status after $(echo "$(date +%s.%N) - $start" | bc) s: $(head -1 "$D/busy/acme.out")"
echo "  the real librdmacm's rdma_getaddrinfo as the 102nd (ACM at the server's TCP port): $(gai "$(cat "$D/busy/run/ibacm-tcp.port")" | tr '\n' ' ')"
sleep 5
echo "  server CPU over the next 5 s: $(( $(cpu_ticks "$SERVER") - before )) ticks (100 ticks = 1 CPU second)"
echo "  rejecting lines: $(grep -c 'all connections busy' "$D/busy/server.log")"
exec {HOLD[1]}>&-
wait "$HOLD_PID" 2>/dev/null
stop_server
grep -h "stopped after" "$D/busy/server.log" | sed 's/^/  /'
# what a client past max_clients met before the fix: a service that accepts it and never answers
coproc DEAF { python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(); print(s.getsockname()[1], flush=True)
held = [s.accept() for _ in range(8)]; time.sleep(120)'; }
read -r deaf <&"${DEAF[0]}"
echo "  the same rdma_getaddrinfo against a service that accepts and never answers (before): $(gai "$deaf" 10 | tr '\n' ' ')(124: killed after 10 s)"
kill "$DEAF_PID" 2>/dev/null; wait "$DEAF_PID" 2>/dev/null

echo "== 4. EMFILE: server limited to 128 descriptors, 300 connections"
PRLIMIT="prlimit --nofile=128:128"
start_server emfile 256m
PRLIMIT=""
before=$(cpu_ticks "$SERVER")
coproc MANY { $PY connect-many "$SOCK" 300; }
read -r line <&"${MANY[0]}"; echo "  $line"
sleep 5
echo "  over 5 s: server CPU $(( $(cpu_ticks "$SERVER") - before )) ticks, log $(wc -l < "$D/emfile/server.log") lines ($(stat -c %s "$D/emfile/server.log") bytes), accept-failed lines: $(grep -c 'accept failed' "$D/emfile/server.log")"
sleep 26
echo "  over 31 s: server CPU $(( $(cpu_ticks "$SERVER") - before )) ticks, log $(wc -l < "$D/emfile/server.log") lines ($(stat -c %s "$D/emfile/server.log") bytes); the accept-failed lines (one per 10 s interval):"
grep 'accept failed' "$D/emfile/server.log" | sed 's/^/    /'
exec {MANY[1]}>&-
wait "$MANY_PID" 2>/dev/null
sleep 1
$PY perf "$SOCK"
stop_server

echo "== 5. a second instance on the same run directory"
start_server first 256m
FIRST=$SERVER
mkdir -p "$D/second"
printf 'run_dir %s/run\n' "$D/first" > "$D/second/opts.cfg"
"$JAVA" -jar "$JAR" acm-server -O "$D/second/opts.cfg" -A "$D/none.cfg" > "$D/second/out" 2>&1
echo "  second: exit $?: $(cat "$D/second/out")"
echo "  first (pid $FIRST) still answers: $($PY perf "$SOCK" | cut -c1-40)...; its socket still there: $([ -S "$SOCK" ] && echo yes || echo no)"
stop_server
