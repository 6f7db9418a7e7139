#!/bin/sh
# Stage 2 of the rdmacm-java kernel guest, PID 1 after switch_root (see KernelGuest). It runs the
# jobs that the host drops into the share, in order: job N is jobs/N.sh, its time limit in seconds
# jobs/N.limit, and jobs/N.go says both are complete. It writes N.out and N.err, and N.status last.
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

n=0
while :; do
    job="$share/jobs/$n"
    if [ -e "$job.go" ]; then
        timeout -k 2 "$(cat "$job.limit")" sh "$job.sh" >"$job.out" 2>"$job.err" </dev/null
        echo $? >"$job.status.tmp"
        mv "$job.status.tmp" "$job.status"
        n=$((n + 1))
    elif [ -e "$share/poweroff" ]; then
        break
    elif [ "$(cut -d. -f1 /proc/uptime)" -ge "$GUEST_LIFETIME" ]; then
        echo "rdmacm-guest: lifetime of $GUEST_LIFETIME s over, powering off"
        break
    else
        sleep 0.05
    fi
done
sync
busybox poweroff -f
