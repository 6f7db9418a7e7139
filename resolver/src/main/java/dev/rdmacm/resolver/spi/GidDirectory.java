package dev.rdmacm.resolver.spi;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.verbs.sysfs.LibibverbsDevices;
import dev.rdmacm.verbs.sysfs.SysfsDevices;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The RDMA devices' GID tables as the address resolver needs them: the step that binds a resolved
 * source address to a device, port and GID index (the kernel's {@code cma_acquire_dev_by_src_ip}
 * and {@code cma_bind_loopback}). {@link #live(Map)} is the machine's own.
 */
public interface GidDirectory
{
    /**
     * This machine's GID tables, read now and again when a lookup misses: from the sysfs tree
     * {@code $SYSFS_PATH} names (a recorded one) file by file ({@link SysfsGidDirectory}), else the
     * devices {@code /sys} lists through libibverbs ({@link VerbsGidDirectory}), which reads each
     * device's table in one call. No devices: an empty directory, libibverbs not loaded.
     *
     * @param environment where {@code SYSFS_PATH} is looked up (the process's: {@link System#getenv()}).
     * @return the directory.
     * @throws dev.rdmacm.verbs.sysfs.SysfsFormatException naming a sysfs file the kernel never writes so.
     */
    static GidDirectory live(final Map<String, String> environment)
    {
        return LibibverbsDevices.readsTheMachinesOwn(environment) ? VerbsGidDirectory.live(SysfsDevices.DEFAULT_ROOT) :
            SysfsGidDirectory.live(SysfsDevices.root(environment));
    }

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

        @Override
        public List<RdmaPortBinding> ports()
        {
            return List.of();
        }

        @Override
        public Optional<RdmaPortBinding> entry(final String device, final int port, final int gidIndex)
        {
            return Optional.empty();
        }
    };

    /**
     * The first InfiniBand port whose GID table holds {@code gid} (the IPoIB netdev's port GID).
     *
     * @param gid the GID to find.
     * @return its binding, or empty when no InfiniBand port has it.
     */
    Optional<RdmaPortBinding> findInfinibandGid(Gid gid);

    /**
     * The first RoCE port with an entry equal to {@code gid} bound to {@code netdev}; where both a
     * RoCE v1 and a RoCE v2 entry match, the v2 one (the kernel's default RoCE mode).
     *
     * @param gid    the GID to find, the source address's.
     * @param netdev the netdev the entry must be bound to.
     * @return its binding, or empty when no RoCE port has it on {@code netdev}.
     */
    Optional<RdmaPortBinding> findRoceGid(Gid gid, String netdev);

    /**
     * For zero and loopback destinations: GID index 0 of the first device with an ACTIVE port,
     * else of port 1 of the first device; empty when there are no devices.
     *
     * @return that port's binding, or empty.
     */
    Optional<RdmaPortBinding> loopbackPort();

    /**
     * {@code cma_resolve_ib_dev}, for an AF_IB destination: over the ports with the AF_IB capability
     * (InfiniBand and RoCE alike; not iWARP) that hold {@code pkey} (full or limited member), in device,
     * port and GID index order, the first entry that is {@code dgid} or, on an ACTIVE port, of its
     * subnet prefix, whatever its GID type (a RoCE port's fe80:: entry matches a link-local GID);
     * empty when none (ENODEV).
     *
     * @param dgid the AF_IB destination's GID.
     * @param pkey the destination's P_Key.
     * @return the binding, or empty.
     */
    Optional<RdmaPortBinding> findAfIbPort(Gid dgid, int pkey);

    /**
     * Every port of every device, in device and port order, each as the binding of its first GID
     * entry: what a listener on a wildcard address listens on ({@code cma_listen_on_all}'s walk of the
     * device list). A live directory reads the device list again first when it changed.
     *
     * @return the ports' bindings, none without devices.
     */
    List<RdmaPortBinding> ports();

    /**
     * The entry at {@code gidIndex} of {@code device}'s {@code port}: the binding of a connection
     * request that arrived there on a wildcard listener. A live directory reads that device again on a
     * miss (a GID added since the last read).
     *
     * @param device   the RDMA device's name.
     * @param port     its port number.
     * @param gidIndex the GID table index.
     * @return the entry's binding, or empty when the table has no such entry.
     */
    Optional<RdmaPortBinding> entry(String device, int port, int gidIndex);
}
