package dev.rdmacm.verbs;

import dev.rdmacm.protocol.Gid;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The RDMA devices of a host and where they came from, with the lookups address resolution needs:
 * which device, port and GID index a netdev's address is bound to.
 *
 * @param source  where the devices were read: {@code libibverbs} or {@code sysfs <root>}.
 * @param devices the devices, in the order the source listed them.
 */
public record RdmaDevices(String source, List<RdmaDevice> devices)
{
    public RdmaDevices
    {
        devices = List.copyOf(devices);
    }

    /** The device called {@code name}. */
    public Optional<RdmaDevice> device(final String name)
    {
        return devices.stream().filter(d -> d.name().equals(name)).findFirst();
    }

    /**
     * Every GID table entry holding {@code gid} on {@code netdev} (a RoCE address usually has one
     * RoCE v1 and one RoCE v2 entry), in device, port and index order.
     */
    public List<GidBinding> find(final String netdev, final Gid gid)
    {
        final List<GidBinding> found = new ArrayList<>();
        for (final GidBinding binding : all())
        {
            if (binding.entry().isOn(netdev) && binding.entry().gid().equals(gid))
            {
                found.add(binding);
            }
        }
        return found;
    }

    /** The entry holding {@code gid} on {@code netdev} with {@code type}, e.g. RoCE v2 as rdma_cm prefers. */
    public Optional<GidBinding> find(final String netdev, final Gid gid, final GidType type)
    {
        // every resolution asks this: a walk that allocates only its answer, not every entry's binding
        for (final RdmaDevice device : devices)
        {
            for (final RdmaPort port : device.ports())
            {
                for (final GidEntry entry : port.gids())
                {
                    if (entry.isOn(netdev) && entry.gid().equals(gid) && entry.type() == type)
                    {
                        return Optional.of(new GidBinding(device, port, entry));
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** Every entry holding {@code gid} on any port (InfiniBand GIDs have no netdev). */
    public List<GidBinding> find(final Gid gid)
    {
        return all().stream().filter(b -> b.entry().gid().equals(gid)).toList();
    }

    /** Every GID entry bound to {@code netdev}. */
    public List<GidBinding> onNetdev(final String netdev)
    {
        return all().stream().filter(b -> b.entry().isOn(netdev)).toList();
    }

    /** Every GID entry of every port of every device. */
    public List<GidBinding> all()
    {
        final List<GidBinding> all = new ArrayList<>();
        for (final RdmaDevice device : devices)
        {
            for (final RdmaPort port : device.ports())
            {
                for (final GidEntry entry : port.gids())
                {
                    all.add(new GidBinding(device, port, entry));
                }
            }
        }
        return all;
    }
}
