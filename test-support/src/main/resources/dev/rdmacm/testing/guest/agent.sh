#!/bin/bash
# Stage 2 of the rdmacm-java kernel guest, PID 1 after switch_root (see KernelGuest). It runs the
# jobs that the host drops into the share, in order: job N is jobs/N.sh, its time limit in seconds
# jobs/N.limit, and jobs/N.go says both are complete. It writes N.out and N.err, and N.status last
# (its line, newline included, in one write).
# Job 0 is the boot job: modules and topology. A "poweroff" file ends the loop, and so does the end
# of the guest's lifetime: a host JVM killed outright (no shutdown hook ran) leaves no guest behind.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8
share=/run/rdmacm-guest
# A fresh /proc, /sys and /dev: without a /proc of this root, /proc/self/exe is missing and the JDK
# launcher cannot find libjli.so.
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
. "$share/guest.env"
mkdir -p /lib/modules
ln -sfn "$GUEST_MODULES" "/lib/modules/$GUEST_RELEASE"
hostname "$GUEST_HOSTNAME"
ip link set lo up
echo "rdmacm-guest: agent up at $(cut -d' ' -f1 /proc/uptime) s"

# Waiting for the next job starts no process: under TCG a fork and exec costs tens of milliseconds, and
# the loop of `cut` and `sleep 0.05` it once ran kept an idle guest's vCPU busy, 92% of a host core
# taken from the other guest's work (and 21% while a job ran). Bash's read with a timeout on a FIFO
# that nobody writes is the 50 ms wait, and /proc/uptime is read by the shell itself.
mkfifo /run/agent.idle
exec 3<>/run/agent.idle
n=0
while :; do
    job="$share/jobs/$n"
    if [ -e "$job.go" ]; then
        read -r limit <"$job.limit"
        timeout -k 2 "$limit" sh "$job.sh" >"$job.out" 2>"$job.err" </dev/null 3<&-
        # one write of "STATUS\n": the host takes the file once its newline is there
        echo $? >"$job.status"
        n=$((n + 1))
    elif [ -e "$share/poweroff" ]; then
        break
    else
        read -r uptime _ </proc/uptime
        if [ "${uptime%%.*}" -ge "$GUEST_LIFETIME" ]; then
            echo "rdmacm-guest: lifetime of $GUEST_LIFETIME s over, powering off"
            break
        fi
        read -r -t 0.05 -u 3 _
    fi
done
sync
busybox poweroff -f
