package dev.rdmacm.resolver.addrinfo;

import dev.rdmacm.protocol.Gid;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * {@code struct sockaddr_ib} ({@code infiniband/ib.h}), 48 bytes.
 * <pre>
 *  0               2               4                               8
 * +-------+-------+-------+-------+-------+-------+-------+-------+
 * | sib_family    | sib_pkey (BE) | sib_flowinfo (BE)             |
 * +-------+-------+-------+-------+-------+-------+-------+-------+
 * | sib_addr: the GID (16 bytes)                                   |
 * +                                                                +
 * |                                                                |
 * +-------+-------+-------+-------+-------+-------+-------+-------+
 * | sib_sid (BE u64)                                               |
 * +-------+-------+-------+-------+-------+-------+-------+-------+
 * | sib_sid_mask (BE u64)                                          |
 * +-------+-------+-------+-------+-------+-------+-------+-------+
 * | sib_scope_id (host order u64)                                  |
 * +-------+-------+-------+-------+-------+-------+-------+-------+
 * </pre>
 * Temporary until cm-protocol's {@code SockaddrIb} is on main.
 */
public record IbSockaddr(int pkey, long flowInfo, Gid gid, long serviceId, long serviceIdMask, long scopeId)
    implements RdmaSockaddr
{
    public static final int LENGTH = 48;
    static final int PKEY_OFFSET = 2;
    static final int FLOWINFO_OFFSET = 4;
    static final int ADDR_OFFSET = 8;
    static final int SID_OFFSET = 24;
    static final int SID_MASK_OFFSET = 32;
    static final int SCOPE_ID_OFFSET = 40;

    public static IbSockaddr fromBytes(final byte[] bytes)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        return new IbSockaddr(buffer.getShort(PKEY_OFFSET, ByteOrder.BIG_ENDIAN) & 0xffff,
            buffer.getInt(FLOWINFO_OFFSET, ByteOrder.BIG_ENDIAN) & 0xffff_ffffL,
            Gid.fromBytes(bytes, ADDR_OFFSET),
            buffer.getLong(SID_OFFSET, ByteOrder.BIG_ENDIAN),
            buffer.getLong(SID_MASK_OFFSET, ByteOrder.BIG_ENDIAN),
            buffer.getLong(SCOPE_ID_OFFSET, HOST_ORDER));
    }

    /** The port an AF_IB address stands for: the low 16 bits of the Service ID ({@code ucma_get_port}). */
    public int port()
    {
        return (int)(serviceId & 0xffff);
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
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        buffer.putShort(FAMILY_OFFSET, (short)AddressFamily.AF_IB, HOST_ORDER);
        buffer.putShort(PKEY_OFFSET, (short)pkey, ByteOrder.BIG_ENDIAN);
        buffer.putInt(FLOWINFO_OFFSET, (int)flowInfo, ByteOrder.BIG_ENDIAN);
        buffer.putBytes(ADDR_OFFSET, gid.toBytes());
        buffer.putLong(SID_OFFSET, serviceId, ByteOrder.BIG_ENDIAN);
        buffer.putLong(SID_MASK_OFFSET, serviceIdMask, ByteOrder.BIG_ENDIAN);
        buffer.putLong(SCOPE_ID_OFFSET, scopeId, HOST_ORDER);
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
        return String.format("gid=%s pkey=0x%04x sid=0x%016x sid_mask=0x%016x flowinfo=%d scope_id=%d",
            gid, pkey, serviceId, serviceIdMask, flowInfo, scopeId);
    }
}
