package dev.rdmacm.cm;

import dev.rdmacm.addrinfo.IbSockaddr;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.netlink.HardwareAddress;
import dev.rdmacm.netlink.LinkMessage;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.protocol.ServiceId;
import dev.rdmacm.resolver.AddressResolution;
import dev.rdmacm.resolver.engine.GidDerivation;
import dev.rdmacm.resolver.spi.GidDirectory;
import dev.rdmacm.resolver.NetworkType;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.resolver.ResolutionTrace;
import dev.rdmacm.verbs.GidType;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The kernel's rules for AF_IB ({@code struct sockaddr_ib}) addresses, drivers/infiniband/core/cma.c
 * in 6.1: which port space a bound AF_IB source takes ({@code cma_select_ib_ps}), the Service ID it
 * holds once its port is bound ({@code cma_bind_port}), and what {@code rdma_resolve_addr} finds for
 * an AF_IB destination ({@code cma_resolve_loopback}, {@code cma_resolve_ib_dev}). The address and its Service ID mask are those of
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

    /**
     * What {@code rdma_resolve_addr} leaves in an AF_IB id.
     *
     * @param resolution its {@code rdma_dev_addr} and device.
     * @param source     its {@code src_addr}: with the SGID found, or ::1 for loopback.
     */
    record Resolved(AddressResolution resolution, IbSockaddr source)
    {
    }

    private IbAddressing()
    {
    }

    /**
     * {@code cma_resolve_loopback} (a zero destination GID) or {@code cma_resolve_ib_addr}, for an id
     * bound to {@code source} and, when that source named a GID, to {@code bound} (else null).
     *
     * @throws RdmaCmException ENODEV, returned by the call, when no port fits.
     */
    static Resolved resolve(final GidDirectory gids, final RdmaPortBinding bound, final IbSockaddr source,
        final IbSockaddr destination, final ResolutionTrace trace) throws RdmaCmException
    {
        final long start = System.nanoTime();
        final boolean loopback = destination.gid().isZero();
        RdmaPortBinding device = bound;
        IbSockaddr src = source;
        final Gid sgid;
        final Gid dgid;
        final PKey pkey;
        if (loopback)
        {
            if (device == null)
            {
                device = gids.loopbackPort().orElseThrow(() -> new RdmaCmException("rdma_resolve_addr", Errno.ENODEV,
                    "no RDMA device for an AF_IB loopback destination", true));
                src = withGid(src, LOOPBACK);
                pkey = device.pkey();
            }
            else
            {
                pkey = src.pkey();
            }
            sgid = device.gid();
            dgid = sgid;
        }
        else
        {
            if (device == null)
            {
                device = gids.findAfIbPort(destination.gid(), destination.pkey().value()).orElseThrow(() ->
                    new RdmaCmException("rdma_resolve_addr", Errno.ENODEV, "no InfiniBand or RoCE port holds P_Key " +
                        destination.pkey() + " and GID " + destination.gid() + " or, ACTIVE, a GID of its subnet", true));
                src = withGid(src, device.gid());
            }
            sgid = src.gid();
            dgid = destination.gid();
            pkey = src.pkey();
        }
        trace.record("gid match", start, device + (loopback ? " (AF_IB loopback: DGID = SGID)" : " (AF_IB)"));
        // cma_translate_ib makes an AF_IB address ARPHRD_INFINIBAND on any port; cma_bind_loopback picks by protocol
        final int deviceType = !loopback || device.gidType() == GidType.IB ? LinkMessage.ARPHRD_INFINIBAND :
            LinkMessage.ARPHRD_ETHER;
        return new Resolved(new AddressResolution(asAddress(src.gid()), asAddress(destination.gid()), loopback, 0, null,
            deviceType, null, NetworkType.IB, 0, gidHardwareAddress(sgid), HardwareAddress.NONE, gidHardwareAddress(dgid), sgid,
            dgid, pkey, device, trace.steps()), src);
    }

    /** {@code rdma_addr_set_sgid}/{@code _dgid}: the GID at byte 4 of a 20-byte hardware address. */
    private static HardwareAddress gidHardwareAddress(final Gid gid)
    {
        final byte[] address = new byte[GidDerivation.IPOIB_HARDWARE_ADDRESS_LENGTH];
        System.arraycopy(gid.toBytes(), 0, address, 4, Gid.LENGTH);
        return HardwareAddress.of(address);
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
