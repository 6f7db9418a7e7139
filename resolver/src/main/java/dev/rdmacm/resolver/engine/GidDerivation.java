package dev.rdmacm.resolver.engine;

import dev.rdmacm.netlink.LinkMessage;
import dev.rdmacm.protocol.Gid;

import java.net.Inet4Address;
import java.net.InetAddress;

/**
 * How the kernel derives GIDs and the P_Key from addresses ({@code rdma_ip2gid},
 * {@code rdma_addr_gid_offset}, {@code ib_addr_get_pkey}).
 * <pre>
 *  IPoIB hardware address (20 bytes):   | flags | QPN (3) |          port GID (16)          |
 *                                        0       1         4                                 20
 *  IPoIB broadcast address (20 bytes):  | 00 ff ff ff | ff12:401b:PPPP:0000:0000:0000:ffff:ffff |
 *                                                      4          8 (P_Key at bytes 8-9)
 * </pre>
 */
public final class GidDerivation
{
    /** {@code rdma_addr_gid_offset} for ARPHRD_INFINIBAND. */
    public static final int IPOIB_GID_OFFSET = 4;
    /** {@code INFINIBAND_ALEN}: an IPoIB hardware address, flags and QPN (4 bytes) then the GID. */
    public static final int IPOIB_HARDWARE_ADDRESS_LENGTH = 20;
    /** Where the P_Key sits in an IPoIB broadcast address (bytes 8 and 9). */
    public static final int IPOIB_PKEY_OFFSET = 8;
    /** The default P_Key, full member, which RoCE uses. */
    public static final int DEFAULT_PKEY = 0xffff;

    private GidDerivation()
    {
    }

    /** {@code rdma_ip2gid}: IPv4 as {@code ::ffff:a.b.c.d}, IPv6 as is. */
    public static Gid ipToGid(final InetAddress address)
    {
        final byte[] bytes = address.getAddress();
        if (address instanceof Inet4Address)
        {
            return Gid.ipv4Mapped(((bytes[0] & 0xff) << 24) | ((bytes[1] & 0xff) << 16) | ((bytes[2] & 0xff) << 8) |
                (bytes[3] & 0xff));
        }
        return Gid.fromBytes(bytes, 0);
    }

    /** The port GID inside an IPoIB hardware address (bytes 4-19). */
    public static Gid ipoibGid(final byte[] hardwareAddress)
    {
        if (hardwareAddress.length != IPOIB_HARDWARE_ADDRESS_LENGTH)
        {
            throw new IllegalArgumentException("IPoIB hardware address must be " + IPOIB_HARDWARE_ADDRESS_LENGTH +
                " bytes, got " + hardwareAddress.length);
        }
        return Gid.fromBytes(hardwareAddress, IPOIB_GID_OFFSET);
    }

    /** The P_Key in an IPoIB broadcast address (bytes 8-9, big-endian). */
    public static int ipoibPkey(final byte[] broadcastAddress)
    {
        if (broadcastAddress.length != IPOIB_HARDWARE_ADDRESS_LENGTH)
        {
            throw new IllegalArgumentException("IPoIB broadcast address must be " + IPOIB_HARDWARE_ADDRESS_LENGTH +
                " bytes, got " + broadcastAddress.length);
        }
        return ((broadcastAddress[IPOIB_PKEY_OFFSET] & 0xff) << 8) | (broadcastAddress[IPOIB_PKEY_OFFSET + 1] & 0xff);
    }

    /** The GID of a netdev for the device binding step: IPoIB from its hardware address, RoCE from the IP. */
    public static Gid sourceGid(final int deviceType, final byte[] hardwareAddress, final InetAddress source)
    {
        return deviceType == LinkMessage.ARPHRD_INFINIBAND ? ipoibGid(hardwareAddress) : ipToGid(source);
    }
}
