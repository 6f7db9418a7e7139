package dev.rdmacm.resolver.addrinfo;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.protocol.ServiceId;
import dev.rdmacm.protocol.SockaddrIb;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * {@code struct sockaddr_ib} as a value: encoded and decoded through cm-protocol's {@link SockaddrIb}
 * flyweight, which holds the layout.
 */
public record IbSockaddr(int pkey, long flowInfo, Gid gid, long serviceId, long serviceIdMask, long scopeId)
    implements RdmaSockaddr
{
    public static final int LENGTH = SockaddrIb.LENGTH;

    public static IbSockaddr fromBytes(final byte[] bytes)
    {
        final SockaddrIb sib = new SockaddrIb().wrap(new UnsafeBuffer(bytes), 0, bytes.length);
        return new IbSockaddr(sib.pkey(), sib.flowinfo(), sib.addr(), sib.sid(), sib.sidMask(), sib.scopeId());
    }

    /** The port an AF_IB address stands for: the low 16 bits of the Service ID ({@code ucma_get_port}). */
    public int port()
    {
        return ServiceId.port(serviceId);
    }

    @Override
    public int family()
    {
        return AddressFamily.AF_IB;
    }

    @Override
    public byte[] toBytes()
    {
        final byte[] bytes = new byte[LENGTH];
        new SockaddrIb().wrap(new UnsafeBuffer(bytes), 0).init().pkey(pkey).flowinfo(flowInfo).addr(gid).sid(serviceId)
            .sidMask(serviceIdMask).scopeId(scopeId);
        return bytes;
    }

    @Override
    public int length()
    {
        return LENGTH;
    }

    @Override
    public String toText()
    {
        return String.format("gid=%s pkey=%s sid=%s sid_mask=0x%016x flowinfo=%d scope_id=%s",
            gid, PKey.format(pkey), ServiceId.format(serviceId), serviceIdMask, flowInfo, Long.toUnsignedString(scopeId));
    }
}
