package dev.rdmacm.resolver.spi;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.verbs.GidEntry;
import dev.rdmacm.verbs.GidType;
import dev.rdmacm.verbs.PkeyEntry;
import dev.rdmacm.verbs.RdmaDevice;
import dev.rdmacm.verbs.RdmaDevices;
import dev.rdmacm.verbs.RdmaPort;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One read of the RDMA devices' GID tables, with its RoCE bindings indexed by netdev and GID: the
 * answer of {@code cma_acquire_dev_by_src_ip} for a RoCE source (the first RoCE v2 entry holding the GID
 * on the netdev, in device, port and index order, else the first RoCE v1 one) decided once per read for
 * every (netdev, GID) the tables hold. Every resolution asks it, and a walk of every entry of every
 * device was 14% of resolve addr's samples in the kernel guest's cmtime (13 rxe devices, issue 32).
 * <p>
 * Immutable: a table read makes new tables, so a lookup never sees an index of other tables.
 */
final class GidTables
{
    private final RdmaDevices devices;
    /** By netdev, then GID: the binding rdma_cm takes, in an {@code Optional} made once. */
    private final Map<String, Map<Gid, Optional<RdmaPortBinding>>> roce = new HashMap<>();

    GidTables(final RdmaDevices devices)
    {
        this.devices = devices;
        // RoCE v2 entries first, so that a v1 entry of the same GID and netdev does not take its place
        index(GidType.ROCE_V2);
        index(GidType.ROCE_V1);
    }

    /** {@return the devices as read} */
    RdmaDevices devices()
    {
        return devices;
    }

    /** The binding of the RoCE {@code gid} on {@code netdev}, v2 before v1; empty when no entry holds it. */
    Optional<RdmaPortBinding> roce(final String netdev, final Gid gid)
    {
        final Map<Gid, Optional<RdmaPortBinding>> onNetdev = roce.get(netdev);
        if (onNetdev == null)
        {
            return Optional.empty();
        }
        final Optional<RdmaPortBinding> binding = onNetdev.get(gid);
        return binding == null ? Optional.empty() : binding;
    }

    private void index(final GidType type)
    {
        for (final RdmaDevice device : devices.devices())
        {
            for (final RdmaPort port : device.ports())
            {
                for (final GidEntry entry : port.gids())
                {
                    if (entry.type() == type && entry.netdev().isPresent())
                    {
                        roce.computeIfAbsent(entry.netdev().get(), name -> new HashMap<>())
                            .computeIfAbsent(entry.gid(), gid -> Optional.of(binding(device, port, entry)));
                    }
                }
            }
        }
    }

    /** The binding of one entry, with its port's P_Key at index 0 (the default P_Key when the table has none). */
    static RdmaPortBinding binding(final RdmaDevice device, final RdmaPort port, final GidEntry entry)
    {
        int pkey = PkeyEntry.DEFAULT_PKEY;
        for (final PkeyEntry p : port.pkeys())
        {
            if (p.index() == 0)
            {
                pkey = p.pkey();
                break;
            }
        }
        return new RdmaPortBinding(device.name(), port.number(), entry.index(), entry.gid(), entry.type(),
            entry.netdev().orElse(null), PKey.of(pkey));
    }
}
