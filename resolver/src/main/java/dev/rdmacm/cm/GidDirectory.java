package dev.rdmacm.cm;

import dev.rdmacm.protocol.Gid;

import java.util.Optional;

/**
 * The RDMA devices' GID tables as the address resolver needs them: the step that binds a resolved
 * source address to a device, port and GID index (the kernel's {@code cma_acquire_dev_by_src_ip}
 * and {@code cma_bind_loopback}). The verbs module's sysfs reader provides the real one.
 */
public interface GidDirectory
{
    /** A directory with no RDMA devices: every binding fails with ENODEV. */
    GidDirectory NONE = new GidDirectory()
    {
        @Override
        public Optional<RdmaPortBinding> findInfinibandGid(final Gid gid)
        {
            return Optional.empty();
        }

        @Override
        public Optional<RdmaPortBinding> findRoceGid(final Gid gid, final String netdev)
        {
            return Optional.empty();
        }

        @Override
        public Optional<RdmaPortBinding> loopbackPort()
        {
            return Optional.empty();
        }

        @Override
        public Optional<RdmaPortBinding> findAfIbPort(final Gid dgid, final int pkey)
        {
            return Optional.empty();
        }
    };

    /** The first InfiniBand port whose GID table holds {@code gid} (the IPoIB netdev's port GID). */
    Optional<RdmaPortBinding> findInfinibandGid(Gid gid);

    /**
     * The first RoCE port with an entry equal to {@code gid} bound to {@code netdev}; where both a
     * RoCE v1 and a RoCE v2 entry match, the v2 one (the kernel's default RoCE mode).
     */
    Optional<RdmaPortBinding> findRoceGid(Gid gid, String netdev);

    /**
     * For zero and loopback destinations: GID index 0 of the first device with an ACTIVE port,
     * else of port 1 of the first device; empty when there are no devices.
     */
    Optional<RdmaPortBinding> loopbackPort();

    /**
     * {@code cma_resolve_ib_dev}, for an AF_IB destination: over the ports with the AF_IB capability
     * (InfiniBand and RoCE alike; not iWARP) that hold {@code pkey} (full or limited member), in device,
     * port and GID index order, the first entry that is {@code dgid} or, on an ACTIVE port, of its
     * subnet prefix, whatever its GID type (a RoCE port's fe80:: entry matches a link-local GID);
     * empty when none (ENODEV).
     */
    Optional<RdmaPortBinding> findAfIbPort(Gid dgid, int pkey);
}
