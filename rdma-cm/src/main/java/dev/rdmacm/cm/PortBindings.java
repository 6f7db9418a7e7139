package dev.rdmacm.cm;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.PortSpace;
import org.agrona.collections.Int2ObjectHashMap;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * The ports ids are bound to, per port space, as the kernel CM keeps them in its {@code rdma_bind_list}s
 * (drivers/infiniband/core/cma.c): {@link #bindAny} is {@code cma_alloc_any_port}, {@link #bind} is
 * {@code cma_use_port} with {@code cma_check_port}. One table per {@link RdmaCm}: the kernel's is per
 * network namespace, and ours does not see the ports the kernel's CM handed to other processes.
 * <p>
 * Every bound id is one entry, most of them alone on their port: a port maps to its {@link Owner}
 * itself and to a list only once a second id shares it, in an open-addressing table of unboxed ports
 * (a boxed port, a map node and a one-element list cost 100 bytes per id, issue 15).
 * <p>
 * Not thread-safe: the caller serialises (the ids' CM does, under its own lock).
 */
final class PortBindings
{
    /** {@code PROT_SOCK}: ports below it need CAP_NET_BIND_SERVICE. */
    static final int PRIVILEGED_PORTS_END = 1024;

    /** One id's place in a bind list: what {@code cma_check_port} and {@code cma_port_is_unique} read. */
    record Owner(Object id, InetAddress source, InetAddress destination, int destinationPort, boolean reuseAddr,
        boolean afOnly)
    {
    }

    /** Per port space, a port's {@link Owner}, or its {@code List<Owner>} when more than one id holds it. */
    private final Map<PortSpace, Int2ObjectHashMap<Object>> spaces = new EnumMap<>(PortSpace.class);
    private final RandomGenerator random;
    private final boolean mayBindPrivileged;
    private int lastUsedPort;

    /**
     * @param random            chooses where the search for a free port starts, as {@code prandom_u32_max} does.
     * @param mayBindPrivileged whether the process has CAP_NET_BIND_SERVICE.
     */
    PortBindings(final RandomGenerator random, final boolean mayBindPrivileged)
    {
        this.random = random;
        this.mayBindPrivileged = mayBindPrivileged;
    }

    /**
     * {@code cma_alloc_any_port}: a port from {@code [low, high]} (the namespace's
     * {@code ip_local_port_range}), starting at a random one and walking up, skipping the port handed
     * out last, that no id in the same port space shares with {@code owner} by
     * {@code cma_port_is_unique}'s rules.
     *
     * @throws RdmaCmException EADDRNOTAVAIL when every port of the range is taken.
     */
    int bindAny(final String call, final PortSpace space, final Owner owner, final int low, final int high)
        throws RdmaCmException
    {
        int remaining = high - low + 1;
        int rover = low + random.nextInt(remaining);
        while (true)
        {
            if (rover != lastUsedPort)
            {
                final List<Owner> owners = owners(space, rover);
                if (owners == null || isUnique(owners, owner))
                {
                    add(space, rover, owner);
                    lastUsedPort = rover;
                    return rover;
                }
            }
            if (--remaining == 0)
            {
                throw new RdmaCmException(call, Errno.EADDRNOTAVAIL, "every port of " + low + "-" + high +
                    " in " + space + " is taken", true);
            }
            rover = rover + 1 > high ? low : rover + 1;
        }
    }

    /**
     * {@code cma_use_port}: binds {@code port}, which ids already on it allow when both set reuseaddr,
     * when both are afonly and of different families, or when both sources are concrete and differ.
     *
     * @throws RdmaCmException EACCES for a privileged port without CAP_NET_BIND_SERVICE; EADDRNOTAVAIL
     *                         when a wildcard meets another id on the port; EADDRINUSE when the same
     *                         source address already has it.
     */
    void bind(final String call, final PortSpace space, final int port, final Owner owner) throws RdmaCmException
    {
        if (port < PRIVILEGED_PORTS_END && !mayBindPrivileged)
        {
            throw new RdmaCmException(call, Errno.EACCES, "port " + port +
                " is below " + PRIVILEGED_PORTS_END + " and the process lacks CAP_NET_BIND_SERVICE", true);
        }
        final List<Owner> owners = owners(space, port);
        if (owners != null)
        {
            for (final Owner current : owners)
            {
                if (current.id() == owner.id() || owner.reuseAddr() && current.reuseAddr())
                {
                    continue;
                }
                if (owner.afOnly() && current.afOnly() && family(owner.source()) != family(current.source()))
                {
                    continue;
                }
                if (owner.source().isAnyLocalAddress() || current.source().isAnyLocalAddress())
                {
                    throw new RdmaCmException(call, Errno.EADDRNOTAVAIL, "port " + port + " in " + space +
                        " is bound by another id and one of the two sources is a wildcard", true);
                }
                if (same(owner.source(), current.source()))
                {
                    throw new RdmaCmException(call, Errno.EADDRINUSE, owner.source().getHostAddress() +
                        " port " + port + " in " + space + " is bound by another id", true);
                }
            }
        }
        add(space, port, owner);
    }

    /** Takes {@code id} off {@code port}: {@code cma_release_port}. */
    void release(final PortSpace space, final int port, final Object id)
    {
        final Int2ObjectHashMap<Object> ports = spaces.get(space);
        final Object held = ports == null ? null : ports.get(port);
        if (held instanceof Owner owner)
        {
            if (owner.id() == id)
            {
                ports.remove(port);
            }
        }
        else if (held != null)
        {
            final List<Owner> owners = sharing(held);
            owners.removeIf(o -> o.id() == id);
            if (owners.isEmpty())
            {
                ports.remove(port);
            }
            else if (owners.size() == 1)
            {
                ports.put(port, owners.getFirst());
            }
        }
    }

    /** How many ids hold {@code port}. */
    int ownerCount(final PortSpace space, final int port)
    {
        final List<Owner> owners = owners(space, port);
        return owners == null ? 0 : owners.size();
    }

    /**
     * {@code cma_port_is_unique}: another id on the port is told apart by a different destination port,
     * source or destination address, each only when both sides have a concrete one.
     */
    private static boolean isUnique(final List<Owner> owners, final Owner owner)
    {
        for (final Owner current : owners)
        {
            if (current.id() == owner.id())
            {
                continue;
            }
            if (owner.destinationPort() != 0 && current.destinationPort() != 0 &&
                owner.destinationPort() != current.destinationPort())
            {
                continue;
            }
            if (concrete(owner.source()) && concrete(current.source()) && !same(owner.source(), current.source()))
            {
                continue;
            }
            if (concrete(owner.destination()) && concrete(current.destination()) &&
                !same(owner.destination(), current.destination()))
            {
                continue;
            }
            return false;
        }
        return true;
    }

    private static boolean concrete(final InetAddress address)
    {
        return address != null && !address.isAnyLocalAddress();
    }

    private static boolean same(final InetAddress a, final InetAddress b)
    {
        return Arrays.equals(a.getAddress(), b.getAddress());
    }

    private static int family(final InetAddress address)
    {
        return address.getAddress().length;
    }

    private List<Owner> owners(final PortSpace space, final int port)
    {
        final Int2ObjectHashMap<Object> ports = spaces.get(space);
        final Object held = ports == null ? null : ports.get(port);
        return held == null ? null : held instanceof Owner owner ? List.of(owner) : sharing(held);
    }

    private void add(final PortSpace space, final int port, final Owner owner)
    {
        final Int2ObjectHashMap<Object> ports = spaces.computeIfAbsent(space, s -> new Int2ObjectHashMap<>());
        final Object held = ports.get(port);
        if (held == null)
        {
            ports.put(port, owner);
        }
        else if (held instanceof Owner first)
        {
            final List<Owner> owners = new ArrayList<>(2);
            owners.add(first);
            owners.add(owner);
            ports.put(port, owners);
        }
        else
        {
            sharing(held).add(owner);
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Owner> sharing(final Object held)
    {
        return (List<Owner>)held;
    }
}
