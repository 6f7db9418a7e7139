package dev.rdmacm.addrinfo;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.protocol.ServiceId;
import dev.rdmacm.protocol.SockaddrIb;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * {@code struct sockaddr_ib} as a value: encoded and decoded through cm-protocol's {@link SockaddrIb}
 * flyweight, which holds the layout; the {@code sib_pkey} is a {@link PKey}.
 */
public record IbSockaddr(PKey pkey, long flowInfo, Gid gid, long serviceId, long serviceIdMask, long scopeId)
    implements RdmaSockaddr
{
    public static final int LENGTH = SockaddrIb.LENGTH;

    public static IbSockaddr fromBytes(final byte[] bytes)
    {
        final SockaddrIb sib = new SockaddrIb().wrap(new UnsafeBuffer(bytes), 0, bytes.length);
        return new IbSockaddr(PKey.of(sib.pkey()), sib.flowinfo(), sib.addr(), sib.sid(), sib.sidMask(), sib.scopeId());
    }

    /**
     * Parses the text form {@link #toText()} prints: {@code gid=GID} and, in any order, the optional
     * {@code pkey=} (default 0xffff), {@code sid=}, {@code sid_mask=}, {@code flowinfo=} and
     * {@code scope_id=} (default 0), separated by spaces.
     *
     * @param what names the input in the error, e.g. {@code --dst}.
     */
    public static IbSockaddr parse(final String text, final String what)
    {
        Gid gid = null;
        PKey pkey = PKey.of(PKey.DEFAULT);
        long sid = 0;
        long sidMask = 0;
        long flowInfo = 0;
        long scopeId = 0;
        for (final String field : text.trim().split("\\s+"))
        {
            final int equals = field.indexOf('=');
            final String name = equals < 0 ? field : field.substring(0, equals);
            final String value = equals < 0 ? "" : field.substring(equals + 1);
            try
            {
                switch (name)
                {
                    case "gid" -> gid = Gid.parse(value);
                    case "pkey" -> pkey = PKey.parse(value);
                    case "sid" -> sid = ServiceId.parse(value);
                    case "sid_mask" -> sidMask = ServiceId.parse(value);
                    case "flowinfo" -> flowInfo = unsigned32(value);
                    case "scope_id" -> scopeId = Long.parseUnsignedLong(value);
                    default -> throw new IllegalArgumentException("'" + field +
                        "' is not one of gid=, pkey=, sid=, sid_mask=, flowinfo=, scope_id=");
                }
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IllegalArgumentException(what + ": " + ex.getMessage(), ex);
            }
        }
        if (gid == null)
        {
            throw new IllegalArgumentException(what + ": an AF_IB address needs gid=GID, e.g. 'gid=fe80::2 sid=0x1061d2f'");
        }
        return new IbSockaddr(pkey, flowInfo, gid, sid, sidMask, scopeId);
    }

    private static long unsigned32(final String value)
    {
        final long parsed = Long.parseLong(value);
        if (parsed < 0 || parsed > 0xffff_ffffL)
        {
            throw new IllegalArgumentException("flowinfo " + value + " is not a number from 0 to 4294967295");
        }
        return parsed;
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
        new SockaddrIb().wrap(new UnsafeBuffer(bytes), 0).init().pkey(pkey.value()).flowinfo(flowInfo).addr(gid).sid(serviceId)
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
            gid, pkey, ServiceId.format(serviceId), serviceIdMask, flowInfo, Long.toUnsignedString(scopeId));
    }
}
