package dev.rdmacm.cm;

import dev.rdmacm.addrinfo.IbSockaddr;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.protocol.ServiceId;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The kernel's rules for AF_IB ({@code struct sockaddr_ib}) addresses, drivers/infiniband/core/cma.c
 * in 6.1: which port space a bound AF_IB source takes ({@code cma_select_ib_ps}), the Service ID it
 * holds once its port is bound ({@code cma_bind_port}), and the loopback source
 * ({@code cma_set_loopback}). The address and its Service ID mask are those of
 * {@code sib_sid}/{@code sib_sid_mask}, host-order longs here.
 */
final class IbAddressing
{
    /** {@code cma_set_loopback} for AF_IB: {@code sib_addr} = ::1. */
    static final Gid LOOPBACK = new Gid(0, 1);

    /**
     * What {@code cma_select_ib_ps} chose for a source.
     *
     * @param space  the port space the port is taken from (TCP for a TCP Service ID on an RDMA_PS_IB id).
     * @param source the source with {@code sib_sid = ps | port} and {@code RDMA_IB_IP_PS_MASK} added to its mask.
     * @param port   {@code cma_port}: the low 16 bits of {@code sid & sid_mask}, 0 for any.
     */
    record PortSpaceChoice(PortSpace space, IbSockaddr source, int port)
    {
    }

    private IbAddressing()
    {
    }

    /**
     * {@code cma_select_ib_ps}: the source's Service ID, under the Port Space bits of its mask, must be
     * RDMA_IB_IP_PS_IB on an RDMA_PS_IB id, or that of TCP or UDP on an id of that space or of
     * RDMA_PS_IB. A zero mask matches anything, first IB. Null when none fits (EPROTONOSUPPORT).
     */
    static PortSpaceChoice selectPortSpace(final PortSpace idSpace, final IbSockaddr source)
    {
        final long mask = source.serviceIdMask() & ServiceId.PS_MASK;
        final long sid = source.serviceId() & mask;
        final PortSpace chosen;
        if (idSpace == PortSpace.IB && sid == (ServiceId.PS_IB & mask))
        {
            chosen = PortSpace.IB;
        }
        else if ((idSpace == PortSpace.IB || idSpace == PortSpace.TCP) && sid == (ServiceId.PS_TCP & mask))
        {
            chosen = PortSpace.TCP;
        }
        else if ((idSpace == PortSpace.IB || idSpace == PortSpace.UDP) && sid == (ServiceId.PS_UDP & mask))
        {
            chosen = PortSpace.UDP;
        }
        else
        {
            return null;
        }
        final int port = (int)(source.serviceId() & source.serviceIdMask() & ServiceId.PORT_MASK);
        final IbSockaddr selected = new IbSockaddr(source.pkey(), source.flowInfo(), source.gid(),
            ServiceId.of(chosen, port), ServiceId.PS_MASK | source.serviceIdMask(), source.scopeId());
        return new PortSpaceChoice(chosen, selected, port);
    }

    /** {@code cma_bind_port}: {@code sib_sid = (sid & mask) | port}, {@code sib_sid_mask = ~0}. */
    static IbSockaddr boundTo(final IbSockaddr source, final int port)
    {
        return new IbSockaddr(source.pkey(), source.flowInfo(), source.gid(),
            (source.serviceId() & source.serviceIdMask()) | port, -1L, source.scopeId());
    }

    /** The same address with another GID (the SGID a resolution found, or ::1 for loopback). */
    static IbSockaddr withGid(final IbSockaddr address, final Gid gid)
    {
        return new IbSockaddr(address.pkey(), address.flowInfo(), gid, address.serviceId(), address.serviceIdMask(),
            address.scopeId());
    }

    /** {@code cma_bind_addr} without a source: the zero AF_IB address with the destination's P_Key. */
    static IbSockaddr anyFor(final IbSockaddr destination)
    {
        return new IbSockaddr(destination.pkey(), 0, Gid.ZERO, 0, 0, 0);
    }

    /**
     * A GID in the IPv6 form that {@link AddressResolution} and the port table hold addresses in; the
     * zero GID is the wildcard {@code ::}, as {@code cma_any_addr} treats it.
     */
    static InetAddress asAddress(final Gid gid)
    {
        try
        {
            return Inet6Address.getByAddress(null, gid.toBytes(), -1);
        }
        catch (final UnknownHostException impossible)
        {
            throw new IllegalStateException(impossible);
        }
    }
}
