package dev.rdmacm.resolver.spi;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.verbs.GidBinding;
import dev.rdmacm.verbs.GidEntry;
import dev.rdmacm.verbs.GidType;
import dev.rdmacm.verbs.LinkLayer;
import dev.rdmacm.verbs.NodeType;
import dev.rdmacm.verbs.PortState;
import dev.rdmacm.verbs.RdmaDevice;
import dev.rdmacm.verbs.RdmaDevices;
import dev.rdmacm.verbs.RdmaPort;
import dev.rdmacm.verbs.sysfs.SysfsDevices;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The GID tables of the RDMA devices as a reader of the verbs module reads them (sysfs file by file:
 * {@link SysfsGidDirectory}; libibverbs' one ioctl a device: {@link VerbsGidDirectory}): the binding
 * step of address resolution, with the kernel's preferences (a RoCE v2 entry over a v1 one for the
 * same GID; the first ACTIVE port for loopback).
 * <p>
 * A live directory follows the kernel's GID cache as it changes: an address added after the
 * CM opened gets its GID entries a moment later (roce_gid_mgmt), and a lookup that misses reads the
 * tables again before it answers no. A hit is not re-read: a GID that went away fails earlier, at the
 * route or the neighbour. A RoCE miss re-reads only the devices whose port stands on the netdev or
 * below it (roce_gid_mgmt files an upper device's GIDs, a VLAN's, on its real device's port), or all of
 * them when the device list changed: a whole re-read from sysfs is 1024 files a port, seconds with ten rxe
 * devices under TCG, and a netdev without an RDMA device below it would pay it on every lookup.
 */
abstract class ReadGidDirectory implements GidDirectory
{
    private final Path sysfsRoot;
    /** The tables as last read, with their RoCE index ({@link GidTables}): a re-read replaces them whole. */
    private volatile GidTables tables;

    /**
     * @param sysfsRoot the sysfs root whose device list and netdevs a live directory reads again on a
     *                  miss, or null for a directory that never reads again.
     * @param devices   the devices as read now.
     */
    ReadGidDirectory(final Path sysfsRoot, final RdmaDevices devices)
    {
        this.sysfsRoot = sysfsRoot;
        this.tables = new GidTables(devices);
    }

    /** Every device under {@code sysfsRoot}, read again. */
    abstract RdmaDevices readAll(Path sysfsRoot);

    /** The device {@code name} under {@code sysfsRoot}, read again. */
    abstract RdmaDevice readDevice(Path sysfsRoot, String name);

    /** {@return the devices as last read} */
    public RdmaDevices devices()
    {
        return tables.devices();
    }

    /**
     * A miss reads the tables again only when a device has an InfiniBand port: the GIDs that come and
     * go with addresses are RoCE entries, and on a machine with RoCE ports only (where an AF_IB source
     * asks this, and always misses) a re-read of every GID table costs seconds and can find nothing.
     */
    @Override
    public Optional<RdmaPortBinding> findInfinibandGid(final Gid gid)
    {
        return findInfinibandGidNow(gid).or(() -> hasInfinibandPort() && reread() ? findInfinibandGidNow(gid) :
            Optional.empty());
    }

    private boolean hasInfinibandPort()
    {
        return devices().devices().stream().flatMap(d -> d.ports().stream()).anyMatch(p -> p.linkLayer() == LinkLayer.INFINIBAND);
    }

    @Override
    public Optional<RdmaPortBinding> findRoceGid(final Gid gid, final String netdev)
    {
        return findRoceGidNow(gid, netdev).or(() -> rereadFor(netdev) ? findRoceGidNow(gid, netdev) : Optional.empty());
    }

    @Override
    public Optional<RdmaPortBinding> loopbackPort()
    {
        return loopbackPortNow().or(() -> reread() ? loopbackPortNow() : Optional.empty());
    }

    /**
     * {@code ib_find_cached_pkey} compares the 15 base bits: a full or a limited member holds it. The
     * tables as read, never again on a miss: what an AF_IB destination matches is a port GID or a
     * link-local entry, there from the device's start, and a re-read costs seconds on a machine with
     * many GID tables.
     */
    @Override
    public Optional<RdmaPortBinding> findAfIbPort(final Gid dgid, final int pkey)
    {
        return findAfIbPortNow(dgid, pkey);
    }

    @Override
    public List<RdmaPortBinding> ports()
    {
        if (sysfsRoot != null &&
            !SysfsDevices.names(sysfsRoot).equals(devices().devices().stream().map(RdmaDevice::name).sorted().toList()))
        {
            reread();
        }
        final List<RdmaPortBinding> ports = new ArrayList<>();
        for (final RdmaDevice device : devices().devices())
        {
            for (final RdmaPort port : device.ports())
            {
                port.gids().stream().min(Comparator.comparingInt(GidEntry::index))
                    .ifPresent(entry -> ports.add(binding(new GidBinding(device, port, entry))));
            }
        }
        return ports;
    }

    @Override
    public Optional<RdmaPortBinding> entry(final String device, final int port, final int gidIndex)
    {
        return entryNow(device, port, gidIndex).or(() -> rereadDevice(device) ? entryNow(device, port, gidIndex) : Optional.empty());
    }

    private Optional<RdmaPortBinding> entryNow(final String device, final int port, final int gidIndex)
    {
        return devices().device(device).flatMap(d -> d.ports().stream().filter(p -> p.number() == port).findFirst()
            .flatMap(p -> p.gids().stream().filter(e -> e.index() == gidIndex).findFirst()
                .map(e -> binding(new GidBinding(d, p, e)))));
    }

    /** Reads {@code name} again for a live directory; false for a fixed one or a device it never had. */
    private boolean rereadDevice(final String name)
    {
        final RdmaDevices known = devices();
        if (sysfsRoot == null || known.device(name).isEmpty())
        {
            return false;
        }
        final RdmaDevice fresh = readDevice(sysfsRoot, name);
        tables = new GidTables(new RdmaDevices(known.source(), known.devices().stream().map(d -> d.name().equals(name) ? fresh : d).toList()));
        return true;
    }

    private Optional<RdmaPortBinding> findAfIbPortNow(final Gid dgid, final int pkey)
    {
        for (final RdmaDevice device : devices().devices())
        {
            // rdma_cap_af_ib: InfiniBand and RoCE ports (a CA), not iWARP (an RNIC)
            if (device.nodeType() != NodeType.CA)
            {
                continue;
            }
            for (final RdmaPort port : device.ports())
            {
                if (port.pkeys().stream().noneMatch(p -> PKey.base(p.pkey()) == PKey.base(pkey)))
                {
                    continue;
                }
                // the kernel stops at the first entry that is either the destination or, on an ACTIVE
                // port, of its subnet
                for (final GidEntry entry : port.gids())
                {
                    if (entry.gid().equals(dgid) ||
                        port.state() == PortState.ACTIVE && entry.gid().subnetPrefix() == dgid.subnetPrefix())
                    {
                        return Optional.of(binding(new GidBinding(device, port, entry)));
                    }
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Reads again, for a live directory, the devices a RoCE GID on {@code netdev} can be filed under:
     * those whose port's default GID (index 0, the real netdev's) is on {@code netdev} or one of its
     * lower devices; every device when the list of devices changed. False when nothing was read.
     */
    private boolean rereadFor(final String netdev)
    {
        if (sysfsRoot == null)
        {
            return false;
        }
        final RdmaDevices known = devices();
        if (!SysfsDevices.names(sysfsRoot).equals(known.devices().stream().map(RdmaDevice::name).sorted().toList()))
        {
            return reread();
        }
        final Set<String> below = netdevAndLowers(netdev);
        final List<RdmaDevice> refreshed = new ArrayList<>(known.devices().size());
        boolean any = false;
        for (final RdmaDevice device : known.devices())
        {
            final boolean standsOn = device.ports().stream().anyMatch(port -> port.linkLayer() == LinkLayer.ETHERNET &&
                port.gids().stream().anyMatch(e -> e.index() == 0 && e.netdev().filter(below::contains).isPresent()));
            refreshed.add(standsOn ? readDevice(sysfsRoot, device.name()) : device);
            any |= standsOn;
        }
        if (any)
        {
            tables = new GidTables(new RdmaDevices(known.source(), refreshed));
        }
        return any;
    }

    /** {@code netdev} and the devices below it ({@code /sys/class/net/X/lower_*}, transitively). */
    private Set<String> netdevAndLowers(final String netdev)
    {
        final Set<String> names = new LinkedHashSet<>();
        final ArrayDeque<String> pending = new ArrayDeque<>(List.of(netdev));
        while (!pending.isEmpty())
        {
            final String name = pending.poll();
            if (!names.add(name))
            {
                continue;
            }
            try (DirectoryStream<Path> lowers = Files.newDirectoryStream(sysfsRoot.resolve("class/net").resolve(name), "lower_*"))
            {
                for (final Path lower : lowers)
                {
                    pending.add(lower.getFileName().toString().substring("lower_".length()));
                }
            }
            catch (final IOException ex)
            {
                // a netdev that is gone, or a recorded tree without class/net: it has no lower devices
            }
        }
        return names;
    }

    /** Reads the tables again for a live directory; false for a fixed one. */
    private boolean reread()
    {
        if (sysfsRoot == null)
        {
            return false;
        }
        tables = new GidTables(readAll(sysfsRoot));
        return true;
    }

    private Optional<RdmaPortBinding> findInfinibandGidNow(final Gid gid)
    {
        return devices().find(gid).stream()
            .filter(b -> b.port().linkLayer() == LinkLayer.INFINIBAND && b.entry().type() == GidType.IB)
            .findFirst()
            .map(ReadGidDirectory::binding);
    }

    private Optional<RdmaPortBinding> findRoceGidNow(final Gid gid, final String netdev)
    {
        return tables.roce(netdev, gid);
    }

    private Optional<RdmaPortBinding> loopbackPortNow()
    {
        final RdmaDevices devices = devices();
        for (final RdmaDevice device : devices.devices())
        {
            for (final RdmaPort port : device.ports())
            {
                if (port.state() == PortState.ACTIVE)
                {
                    return indexZero(device, port);
                }
            }
        }
        return devices.devices().stream().findFirst()
            .flatMap(device -> device.ports().stream().filter(p -> p.number() == 1).findFirst()
                .flatMap(port -> indexZero(device, port)));
    }

    private static Optional<RdmaPortBinding> indexZero(final RdmaDevice device, final RdmaPort port)
    {
        return port.gids().stream().filter(e -> e.index() == 0).findFirst()
            .map(entry -> binding(new GidBinding(device, port, entry)));
    }

    private static RdmaPortBinding binding(final GidBinding binding)
    {
        return GidTables.binding(binding.device(), binding.port(), binding.entry());
    }
}
