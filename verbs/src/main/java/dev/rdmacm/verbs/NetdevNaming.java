package dev.rdmacm.verbs;

import java.util.Optional;

/**
 * How the netdev of a GID table entry, which libibverbs reports as an ifindex
 * ({@code ibv_gid_entry.ndev_ifindex}), gets the name a {@link GidEntry} carries.
 * <p>
 * An ifindex means something only in the netdev's own network namespace, which the entry does not
 * say: {@code if_indextoname} in the caller's namespace names a netdev of another namespace wrongly or
 * not at all, and a thread that entered a namespace names it differently from one that did not. The
 * kernel's {@code gid_attrs/ndevs/<index>} file names it wherever it lives
 * ({@code dev.rdmacm.verbs.sysfs.SysfsDevices#netdevNaming}).
 */
@FunctionalInterface
public interface NetdevNaming
{
    /**
     * The name of the netdev of entry {@code index} on {@code port}, which libibverbs reported as
     * {@code ifindex} (never 0: an entry without a netdev is not asked about); empty when it is gone.
     */
    Optional<String> name(int port, int index, int ifindex);
}
