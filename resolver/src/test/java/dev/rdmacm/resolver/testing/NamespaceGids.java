package dev.rdmacm.resolver.testing;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.resolver.FixedGidDirectory;
import dev.rdmacm.resolver.GidDirectory;
import dev.rdmacm.resolver.GidType;
import dev.rdmacm.resolver.RdmaPortBinding;

import java.util.ArrayList;
import java.util.List;

/**
 * The GID table a soft-RoCE device {@code rxe0} would have if it were bound to the host namespace's
 * a0, a1, a2 and a4 (and not a3): index 0 the link-local GID, then for every IP address one RoCE v1
 * and one RoCE v2 entry, as the kernel's GID cache fills it. The namespaces have no RDMA device of
 * their own, so this stands in for the verbs module's sysfs reader over a recorded tree.
 */
public final class NamespaceGids
{
    public static final String DEVICE = "rxe0";
    public static final int PORT = 1;

    private NamespaceGids()
    {
    }

    public static GidDirectory hostDirectory()
    {
        final List<RdmaPortBinding> entries = new ArrayList<>();
        entries.add(new RdmaPortBinding(DEVICE, PORT, 0, Gid.parse("fe80::1"), GidType.ROCE_V1, "a0", 0xffff));
        add(entries, "a0", "::ffff:10.1.0.1", "fd01::1", "fe80::1");
        add(entries, "a1", "::ffff:10.2.0.1", "fd02::1", "fe80::21");
        add(entries, "a2", "::ffff:10.4.0.1");
        add(entries, "a4", "::ffff:10.6.0.1");
        return new FixedGidDirectory(entries);
    }

    private static void add(final List<RdmaPortBinding> entries, final String netdev, final String... gids)
    {
        for (final String gid : gids)
        {
            entries.add(new RdmaPortBinding(DEVICE, PORT, entries.size(), Gid.parse(gid), GidType.ROCE_V1, netdev, 0xffff));
            entries.add(new RdmaPortBinding(DEVICE, PORT, entries.size(), Gid.parse(gid), GidType.ROCE_V2, netdev, 0xffff));
        }
    }
}
