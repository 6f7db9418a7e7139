package dev.rdmacm.cm;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.verbs.GidBinding;
import dev.rdmacm.verbs.GidEntry;
import dev.rdmacm.verbs.GidType;
import dev.rdmacm.verbs.LinkLayer;
import dev.rdmacm.verbs.PkeyEntry;
import dev.rdmacm.verbs.PortState;
import dev.rdmacm.verbs.RdmaDevice;
import dev.rdmacm.verbs.RdmaDevices;
import dev.rdmacm.verbs.RdmaPort;
import dev.rdmacm.verbs.sysfs.SysfsDevices;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The GID tables of the RDMA devices as the verbs module reads them from sysfs ({@code $SYSFS_PATH}
 * or {@code /sys}, or any root given): the binding step of address resolution, with the kernel's
 * preferences (a RoCE v2 entry over a v1 one for the same GID; the first ACTIVE port for loopback).
 */
public final class SysfsGidDirectory implements GidDirectory
{
    private final RdmaDevices devices;

    public SysfsGidDirectory(final RdmaDevices devices)
    {
        this.devices = devices;
    }

    /** The devices under a sysfs root, e.g. a recorded tree or {@link SysfsDevices#root}. */
    public static SysfsGidDirectory read(final Path sysfsRoot)
    {
        return new SysfsGidDirectory(SysfsDevices.read(sysfsRoot));
    }

    public RdmaDevices devices()
    {
        return devices;
    }

    @Override
    public Optional<RdmaPortBinding> findInfinibandGid(final Gid gid)
    {
        return devices.find(gid).stream()
            .filter(b -> b.port().linkLayer() == LinkLayer.INFINIBAND && b.entry().type() == GidType.IB)
            .findFirst()
            .map(SysfsGidDirectory::binding);
    }

    @Override
    public Optional<RdmaPortBinding> findRoceGid(final Gid gid, final String netdev)
    {
        return devices.find(netdev, gid, GidType.ROCE_V2)
            .or(() -> devices.find(netdev, gid, GidType.ROCE_V1))
            .map(SysfsGidDirectory::binding);
    }

    @Override
    public Optional<RdmaPortBinding> loopbackPort()
    {
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
        final GidEntry entry = binding.entry();
        final int pkey = binding.port().pkeys().stream().filter(p -> p.index() == 0).findFirst()
            .map(PkeyEntry::pkey).orElse(PkeyEntry.DEFAULT_PKEY);
        return new RdmaPortBinding(binding.device().name(), binding.port().number(), entry.index(), entry.gid(),
            entry.type(), entry.netdev().orElse(null), PKey.of(pkey));
    }
}
