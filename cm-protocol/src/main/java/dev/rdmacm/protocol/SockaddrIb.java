package dev.rdmacm.protocol;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Flyweight over {@code struct sockaddr_ib} ({@code infiniband/ib.h}), the AF_IB address librdmacm
 * passes for native IB addressing, 48 bytes. It is a host struct: {@code sib_family} and
 * {@code sib_scope_id} are in host byte order; every other field is {@code __be} (network order).
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-------------------------------+-------------------------------+
 *  |   sib_family (host, AF_IB)    |       sib_pkey (__be16)       |  0
 *  +-------------------------------+-------------------------------+
 *  |                     sib_flowinfo (__be32)                     |  4
 *  +---------------------------------------------------------------+
 *  |               sib_addr: struct ib_addr (16 bytes, a GID)      |  8
 *  +---------------------------------------------------------------+
 *  |                       sib_sid (__be64)                        | 24
 *  +---------------------------------------------------------------+
 *  |                     sib_sid_mask (__be64)                     | 32
 *  +---------------------------------------------------------------+
 *  |                  sib_scope_id (__u64, host)                   | 40
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class SockaddrIb extends Flyweight
{
    public static final int FAMILY_OFFSET = 0;
    public static final int PKEY_OFFSET = 2;
    public static final int FLOWINFO_OFFSET = 4;
    public static final int ADDR_OFFSET = 8;
    public static final int SID_OFFSET = 24;
    public static final int SID_MASK_OFFSET = 32;
    public static final int SCOPE_ID_OFFSET = 40;
    public static final int LENGTH = 48;
    /** {@code AF_IB} from {@code infiniband/ib.h}. */
    public static final int AF_IB = 27;

    /**
     * Wraps an address for reading, checking its length and that its family is AF_IB.
     *
     * @throws MalformedMessageException naming the family when it is not AF_IB.
     */
    public SockaddrIb wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        wrapForReading("sockaddr_ib", buffer, offset, length, LENGTH);
        if (family() != AF_IB)
        {
            throw new MalformedMessageException("sockaddr_ib: sib_family " + family() + " is not AF_IB (" + AF_IB + ")");
        }
        return this;
    }

    public SockaddrIb wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapForWriting(buffer, offset);
        return this;
    }

    /** Zeroes the struct and sets {@code sib_family} to AF_IB. */
    public SockaddrIb init()
    {
        zero(0, LENGTH);
        putHostU16(FAMILY_OFFSET, AF_IB);
        return this;
    }

    public int family()
    {
        return hostU16(FAMILY_OFFSET);
    }

    public SockaddrIb family(final int value)
    {
        putHostU16(FAMILY_OFFSET, value);
        return this;
    }

    public int pkey()
    {
        return u16(PKEY_OFFSET);
    }

    public SockaddrIb pkey(final int value)
    {
        putU16(PKEY_OFFSET, value);
        return this;
    }

    public long flowinfo()
    {
        return u32(FLOWINFO_OFFSET);
    }

    public SockaddrIb flowinfo(final long value)
    {
        putU32(FLOWINFO_OFFSET, value);
        return this;
    }

    public long addrSubnetPrefix()
    {
        return u64(ADDR_OFFSET);
    }

    public long addrInterfaceId()
    {
        return u64(ADDR_OFFSET + 8);
    }

    public Gid addr()
    {
        return gidAt(ADDR_OFFSET);
    }

    public SockaddrIb addr(final long subnetPrefix, final long interfaceId)
    {
        putGid(ADDR_OFFSET, subnetPrefix, interfaceId);
        return this;
    }

    public SockaddrIb addr(final Gid gid)
    {
        return addr(gid.subnetPrefix(), gid.interfaceId());
    }

    public long sid()
    {
        return u64(SID_OFFSET);
    }

    public SockaddrIb sid(final long value)
    {
        putU64(SID_OFFSET, value);
        return this;
    }

    public long sidMask()
    {
        return u64(SID_MASK_OFFSET);
    }

    public SockaddrIb sidMask(final long value)
    {
        putU64(SID_MASK_OFFSET, value);
        return this;
    }

    public long scopeId()
    {
        return hostU64(SCOPE_ID_OFFSET);
    }

    public SockaddrIb scopeId(final long value)
    {
        putHostU64(SCOPE_ID_OFFSET, value);
        return this;
    }

    @Override
    public String toString()
    {
        if (!isWrapped())
        {
            return "sockaddr_ib{unwrapped}";
        }
        return String.format(
            "sockaddr_ib{sib_family=%d, sib_pkey=%s, sib_flowinfo=0x%08x, sib_addr=%s, sib_sid=%s, " +
            "sib_sid_mask=0x%016x, sib_scope_id=%s}",
            family(), PKey.format(pkey()), flowinfo(), addr(), ServiceId.format(sid()), sidMask(),
            Long.toUnsignedString(scopeId()));
    }
}
