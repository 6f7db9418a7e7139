#!/bin/bash
# The guest side of CmtimeRounds (issue 29's measurement), one subcommand per call; copied into the share.
#   snapshot                      this guest's CPU (/proc/stat's cpu line), every kernel thread's CPU, and
#                                 ib_cm's retry and duplicate counters, as "stat ...", "kt NAME TICKS", "cm PATH N"
#   ours CMD_FIFO DONE_FIFO LINE [DUMP_AFTER DUMP_FILE]
#                                 one command to CmtimeDriver (LINE: TAG CMTIME-ARGS...), between two snapshots;
#                                 a round still running after DUMP_AFTER seconds gets the driver's threads dumped
#                                 to DUMP_FILE (jcmd Thread.print), once, before the job's limit kills the script
#   kernel SERVER PORT N          rdma-core's cmtime over the kernel's CM (rdma_ucm loaded for it, unloaded
#                                 after), between two snapshots; its threads' CPU sampled every 0.25 s.
#                                 With KEEP_CM=1 in the environment, rdma_ucm stays loaded after (issue 32's
#                                 run: our cmtime uses the kernel's CM too, and the server is in this guest)
#   strace-ours PID CMD_FIFO DONE_FIFO LINE   as ours, with strace -c -f attached to the driver's JVM
#   strace-kernel SERVER PORT N   as kernel, under strace -c -f
# Both strace runs also count their ioctl calls by descriptor and request (strace -C -y: the summary and
# every call), as "== ioctls" lines "COUNT <FD-PATH> REQUEST" and "== by descriptor" lines "COUNT SYSCALL
# FD-PATH", for calls the summary cannot attribute.
# Reads /proc with builtins only (no fork per file), so that a snapshot costs the guest little.
set -u

snapshot() {
    local line rest comm file value
    read -r _ rest < /proc/stat
    echo "stat $rest"
    for file in /proc/[0-9]*/stat; do
        { read -r line < "$file"; } 2>/dev/null || continue
        rest=${line##*) }
        # shellcheck disable=SC2086
        set -- $rest
        # kernel threads are kthreadd's (PID 2) children
        [ "$2" = 2 ] || continue
        comm=${line#*(}
        comm=${comm%)*}
        echo "kt ${comm// /_} $((${12} + ${13}))"
    done
    # ib_cm's counter groups, on the device's ports since Linux 5.14 (infiniband_cm/DEV/PORT before)
    for file in /sys/class/infiniband/*/ports/*/cm_tx_retries/* /sys/class/infiniband/*/ports/*/cm_rx_duplicates/* \
        /sys/class/infiniband_cm/*/*/cm_tx_retries/* /sys/class/infiniband_cm/*/*/cm_rx_duplicates/*; do
        [ -r "$file" ] || continue
        read -r value < "$file"
        echo "cm ${file#/sys/class/} $value"
    done
}

# the children's user and system seconds of bash's `times`, as one line "children USER SYS" (`times`
# runs in this shell: in a subshell it would count the subshell's children)
children() {
    local self kids
    times > /run/cmtime-rounds.times
    { read -r self; read -r kids; } < /run/cmtime-rounds.times
    kids=${kids//m/ }
    kids=${kids//s/}
    echo "children $kids"
}

# the driver's threads into $2 after $1 seconds: a round that hangs says where (a C2 run of 10,000 once went idle
# for 11 minutes with nothing to show why)
dump_driver_later() {
    local pid
    sleep "$1"
    read -r pid < /run/cmtime-driver.pid || return 0
    # the whole dump or none: a round that ends meanwhile stops it (ours), and its part is removed there
    "$(dirname "$(readlink "/proc/$pid/exe")")/jcmd" "$pid" Thread.print > "$2.part" 2>&1 && mv "$2.part" "$2"
}

ours() {
    local cmd=$1 done=$2 line=$3 dump_after=${4:-0} dump_file=${5:-} reply watchdog=""
    echo "== before"
    snapshot
    if [ "$dump_after" -gt 0 ]; then
        dump_driver_later "$dump_after" "$dump_file" < /dev/null > /dev/null 2>&1 &
        watchdog=$!
    fi
    echo "$line" > "$cmd"
    read -r reply < "$done"
    if [ -n "$watchdog" ]; then
        pkill -P "$watchdog" 2>/dev/null
        kill "$watchdog" 2>/dev/null
        rm -f "$dump_file.part"
    fi
    echo "== after"
    snapshot
    echo "== reply $reply"
}

# cmtime in the background while the loop keeps the last reading of each of its threads: the threads end
# with the process, so the last reading (at most 0.25 s old) is what is known of each
kernel_cmtime() {
    local status=0 pid task line last="" sample
    modprobe rdma_ucm || return 97
    echo "== before"
    snapshot
    children
    mkfifo /run/cmtime-rounds.tick 2>/dev/null
    exec 9<>/run/cmtime-rounds.tick
    "$@" > /run/cmtime-rounds.out 2>&1 &
    pid=$!
    while kill -0 "$pid" 2>/dev/null; do
        sample=""
        for task in /proc/"$pid"/task/*; do
            { read -r line < "$task/stat"; } 2>/dev/null && sample+="thread $line"$'\n'
        done
        [ -n "$sample" ] && last=$sample
        read -r -t 0.25 -u 9 _
    done
    wait "$pid" || status=$?
    exec 9<&-
    echo "== after"
    snapshot
    children
    echo "== threads"
    printf '%s' "$last"
    echo "== output"
    cat /run/cmtime-rounds.out
    echo "== status $status"
    [ "${KEEP_CM:-0}" = 1 ] && return 0
    modprobe -r rdma_ucm rdma_cm iw_cm ib_cm || return 98
    [ ! -e /sys/module/ib_cm ] || return 99
}

kernel() {
    kernel_cmtime cmtime -s "$1" -p "$2" -c "$3"
}

strace_ours() {
    local pid=$1 cmd=$2 done=$3 line=$4 reply tracer i=0
    rm -f /run/strace-ours.txt /run/strace-ours.err
    strace -C -f -y -p "$pid" -o /run/strace-ours.log 2> /run/strace-ours.err &
    tracer=$!
    # attached once strace has said so for every thread it found
    until grep -q attached /run/strace-ours.err 2>/dev/null; do
        i=$((i + 1)); [ $i -gt 100 ] && { cat /run/strace-ours.err >&2; return 1; }; sleep 0.1
    done
    sleep 1
    echo "$line" > "$cmd"
    read -r reply < "$done"
    kill -INT "$tracer"
    wait "$tracer"
    echo "== reply $reply"
    strace_sections /run/strace-ours.log
}

# the summary table (from its header on), then the ioctls counted by descriptor path and request
strace_sections() {
    echo "== strace"
    sed -n '/^% time/,$p' "$1"
    echo "== ioctls"
    sed -n 's/^[0-9]* *ioctl([0-9]*\(<[^>]*>\)*, \(_IOC([^)]*)\|[A-Z0-9_]*\|0x[0-9a-f]*\).*/\1 \2/p' "$1" | sed 's/:\[[0-9]*\]//' | sort | uniq -c | sort -rn
    echo "== by descriptor"
    sed -n 's/^[0-9]* *\([a-z0-9_]*\)([0-9]*<\([^>]*\)>.*/\1 \2/p' "$1" | sed 's/:\[[0-9]*\]//' | sort | uniq -c | sort -rn | head -40
}

strace_kernel() {
    kernel_cmtime strace -C -f -y -o /run/strace-kernel.log cmtime -s "$1" -p "$2" -c "$3"
    local status=$?
    strace_sections /run/strace-kernel.log
    return $status
}

command=$1
shift
case $command in
    snapshot) snapshot ;;
    ours) ours "$@" ;;
    kernel) kernel "$@" ;;
    strace-ours) strace_ours "$@" ;;
    strace-kernel) strace_kernel "$@" ;;
    *) echo "cmtime-rounds.sh: unknown subcommand $command" >&2; exit 2 ;;
esac
