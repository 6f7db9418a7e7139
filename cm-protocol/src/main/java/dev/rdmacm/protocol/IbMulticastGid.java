package dev.rdmacm.protocol;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;

/**
 * The multicast GID an IP group address stands for on InfiniBand, as the kernel's {@code cma_set_mgid}
 * makes it from {@code ip_ib_mc_map} and {@code ipv6_ib_mc_map} and the IPoIB netdev's broadcast
 * address (its scope nibble and its P_Key, full bit set):
 * <pre>
 *   IPv4 a.b.c.d:  ff 1S | s0 s1 | PP PP | 00 00 00 00 00 00 | (a AND 0x0f) b c d
 *   IPv6 address:  ff 1S | s0 s1 | PP PP | address bytes 6..15
 * </pre>
 * where the signature s0 s1 is 40 1b (IPv4) or 60 1b (IPv6), its second byte 01 for RDMA_PS_UDP (the
 * RDMA CM's own signature). A wildcard or loopback address gives the zero MGID, which asks the SA to
 * make one; an IPv6 address that is itself an SA-made MGID ({@code ff1x:a01b::/32}) is kept as it is.
 */
public final class IbMulticastGid
{
    /** IPoIB's default broadcast scope nibble: link-local (ff12:...). */
    public static final int DEFAULT_SCOPE = 2;
    private static final int SA_ASSIGNED_MASK = 0xfff0_ffff;
    private static final int SA_ASSIGNED = 0xff10_a01b;
    private static final int RDMA_CM_SIGNATURE = 0x01;
    private static final int IPOIB_SIGNATURE = 0x1b;

    private IbMulticastGid()
    {
    }

    /**
     * @param group     the IPv4 or IPv6 group address.
     * @param portSpace the id's port space: RDMA_PS_UDP puts the RDMA CM signature in the MGID.
     * @param scope     the broadcast address's scope nibble ({@link #DEFAULT_SCOPE} for IPoIB's default).
     * @param pKey      the IPoIB netdev's P_Key; its full-membership bit is set in the MGID.
     */
    public static Gid of(final InetAddress group, final PortSpace portSpace, final int scope, final int pKey)
    {
        if (scope < 0 || scope > 0xf || pKey < 0 || pKey > 0xffff)
        {
            throw new IllegalArgumentException("multicast GID of " + group.getHostAddress() + ": scope " + scope +
                " (0-15) or P_Key 0x" + Integer.toHexString(pKey) + " (16 bits) out of range");
        }
        if (group.isAnyLocalAddress() || group.isLoopbackAddress())
        {
            return Gid.ZERO;
        }
        final byte[] address = group.getAddress();
        final byte[] mgid = new byte[Gid.LENGTH];
        if (group instanceof Inet6Address)
        {
            final int head = ((address[0] & 0xff) << 24) | ((address[1] & 0xff) << 16) | ((address[2] & 0xff) << 8) |
                (address[3] & 0xff);
            if ((head & SA_ASSIGNED_MASK) == SA_ASSIGNED)
            {
                return Gid.fromBytes(address, 0);
            }
            System.arraycopy(address, 6, mgid, 6, 10);
            mgid[2] = 0x60;
        }
        else if (group instanceof Inet4Address)
        {
            mgid[12] = (byte)(address[0] & 0x0f);
            System.arraycopy(address, 1, mgid, 13, 3);
            mgid[2] = 0x40;
        }
        mgid[0] = (byte)0xff;
        mgid[1] = (byte)(0x10 | scope);
        mgid[3] = (byte)(portSpace == PortSpace.UDP ? RDMA_CM_SIGNATURE : IPOIB_SIGNATURE);
        final int full = pKey | PKey.FULL_MEMBER_BIT;
        mgid[4] = (byte)(full >>> 8);
        mgid[5] = (byte)full;
        return Gid.fromBytes(mgid, 0);
    }
}
