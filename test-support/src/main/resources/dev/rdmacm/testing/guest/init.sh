#!/bin/busybox sh
# Stage 1 of the rdmacm-java kernel guest, PID 1 in the initramfs (see KernelGuest). It loads the
# virtio, 9p and overlay modules, mounts the host's root read-only under a tmpfs overlay, mounts the
# job share, and hands over to the agent in that share. Any failure powers the guest off at once, so
# the host sees QEMU exit and reads why on the console.
/bin/busybox mkdir -p /proc /sys /dev /host /rw /newroot
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

fail() {
    echo "rdmacm-guest: stage 1 failed: $*"
    poweroff -f
}

if grep -q rdmacm.probe /proc/cmdline; then
    echo RDMACM-GUEST-PROBE-OK
    poweroff -f
fi

for module in $(cat /modules.list); do
    insmod "/modules/$module.ko" || fail "insmod $module"
done
mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=262144 hostroot /host || fail "mount of the host root (9p)"
mount -t tmpfs -o mode=0755 tmpfs /rw || fail "tmpfs for the overlay"
mkdir -p /rw/upper /rw/work
mount -t overlay overlay -o lowerdir=/host,upperdir=/rw/upper,workdir=/rw/work /newroot || fail "overlay root"
# The host's /run stays out of sight: the guest's own namespaces and sockets start empty, as on a
# freshly booted machine. /tmp stays visible (writes go to the overlay), because a checkout, and so
# the class path the guest runs, may live there.
mount -t tmpfs -o mode=0755 tmpfs /newroot/run || fail "tmpfs /run"
mkdir -p /newroot/run/rdmacm-guest
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 share /newroot/run/rdmacm-guest || fail "mount of the job share (9p)"
umount /proc /sys /dev
exec switch_root /newroot /bin/bash /run/rdmacm-guest/agent.sh
