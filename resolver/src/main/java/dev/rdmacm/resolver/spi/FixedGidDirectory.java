package dev.rdmacm.resolver.spi;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.verbs.GidType;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@link GidDirectory} over a fixed list of GID table entries, in device/port/index order, with the
 * first entry's port taken as the loopback port. For callers that know their devices' tables (or read
 * them elsewhere), and for tests whose namespaces have no RDMA device of their own.
 */
public final class FixedGidDirectory implements GidDirectory
{
    private final List<RdmaPortBinding> entries;

    /**
     * A directory of fixed entries, copied.
     *
     * @param entries the GID table entries, in order; the first entry's port is the loopback port.
     */
    public FixedGidDirectory(final List<RdmaPortBinding> entries)
    {
        this.entries = List.copyOf(entries);
    }

    @Override
    public Optional<RdmaPortBinding> findInfinibandGid(final Gid gid)
    {
        return entries.stream().filter(e -> e.gidType() == GidType.IB && e.gid().equals(gid)).findFirst();
    }

    @Override
    public Optional<RdmaPortBinding> findRoceGid(final Gid gid, final String netdev)
    {
        RdmaPortBinding v1 = null;
        for (final RdmaPortBinding entry : entries)
        {
            if (entry.gidType() != GidType.IB && entry.gid().equals(gid) && netdev.equals(entry.netdev()))
            {
                if (entry.gidType() == GidType.ROCE_V2)
                {
                    return Optional.of(entry);
                }
                if (v1 == null)
                {
                    v1 = entry;
                }
            }
        }
        return Optional.ofNullable(v1);
    }

    @Override
    public Optional<RdmaPortBinding> loopbackPort()
    {
        return entries.stream().filter(e -> e.gidIndex() == 0).findFirst();
    }

    /** As the interface says, every entry's port taken as ACTIVE, with the AF_IB capability, holding only the P_Key of its binding. */
    @Override
    public Optional<RdmaPortBinding> findAfIbPort(final Gid dgid, final int pkey)
    {
        return entries.stream()
            .filter(e -> PKey.base(e.pkey().value()) == PKey.base(pkey))
            .filter(e -> e.gid().equals(dgid) || e.gid().subnetPrefix() == dgid.subnetPrefix())
            .findFirst();
    }

    /** The first entry of each device and port, in the list's order. */
    @Override
    public List<RdmaPortBinding> ports()
    {
        final Map<String, RdmaPortBinding> first = new LinkedHashMap<>();
        entries.forEach(e -> first.putIfAbsent(e.device() + "/" + e.port(), e));
        return List.copyOf(first.values());
    }

    @Override
    public Optional<RdmaPortBinding> entry(final String device, final int port, final int gidIndex)
    {
        return entries.stream().filter(e -> e.device().equals(device) && e.port() == port && e.gidIndex() == gidIndex).findFirst();
    }
}
