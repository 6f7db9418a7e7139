package dev.rdmacm.protocol.cm;

import dev.rdmacm.protocol.Flyweight;
import dev.rdmacm.protocol.MalformedMessageException;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Flyweight over the RDMA IP CM Service header (IBA Annex A11; the kernel's {@code struct cma_hdr} in
 * drivers/infiniband/core/cma.c) that leads the private data of a REQ or SIDR_REQ whose Service ID is
 * in the RDMA IP CM range {@code 0x0000000001xxxxxx}. Big-endian, 36 bytes.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-------+-------+-------+-------+-------------------------------+
 *  | MajV  | MinV  |  IPV  | Rsvd  |          SourcePort           |   0
 *  +-------+-------+-------+-------+-------------------------------+
 *  |                 SourceIPAddress (16 bytes)                    |   4
 *  +---------------------------------------------------------------+
 *  |               DestinationIPAddress (16 bytes)                 |  20
 *  +---------------------------------------------------------------+
 *  |                 consumer private data ...                     |  36
 * </pre>
 * MajV/MinV together are the kernel's {@code cma_version} byte (0x00); IPV is the upper nibble of its
 * {@code ip_version} byte (4 or 6). An IPv4 address is the last 4 bytes of its 16-byte field with the
 * 12 bytes before it zero (the kernel's {@code union cma_ip_addr.ip4}: {@code pad[3]} then
 * {@code addr}), not the IPv4-mapped {@code ::ffff:a.b.c.d} form. The destination port is not here: it
 * is the low 16 bits of the Service ID. {@link #toString()} names the fields as tshark's
 * {@code infiniband.cm.req.ip_cm.*} do.
 */
public final class IpCmPrivateDataHeader extends Flyweight
{
    public static final int VERSION_OFFSET = 0;
    public static final int MAJOR_VERSION_OFFSET = 0;
    public static final int MINOR_VERSION_OFFSET = 0;
    public static final int IP_VERSION_OFFSET = 1;
    public static final int SOURCE_PORT_OFFSET = 2;
    public static final int SOURCE_ADDRESS_OFFSET = 4;
    public static final int DESTINATION_ADDRESS_OFFSET = 20;
    public static final int ADDRESS_LENGTH = 16;
    /** Where an IPv4 address starts inside its 16-byte field. */
    public static final int IPV4_IN_ADDRESS_OFFSET = 12;
    public static final int LENGTH = 36;

    public static final int MAJOR_VERSION_MASK = 0xf0;
    public static final int MAJOR_VERSION_SHIFT = 4;
    public static final int MINOR_VERSION_MASK = 0x0f;
    public static final int MINOR_VERSION_SHIFT = 0;
    public static final int IP_VERSION_MASK = 0xf0;
    public static final int IP_VERSION_SHIFT = 4;

    /** The only header version defined (kernel {@code CMA_VERSION}): MajV 0, MinV 0. */
    public static final int CMA_VERSION = 0x00;
    public static final int IP_VERSION_4 = 4;
    public static final int IP_VERSION_6 = 6;

    /**
     * Wraps {@code buffer} for reading, checking that a whole header is present.
     *
     * @throws MalformedMessageException when fewer than {@link #LENGTH} bytes are present.
     */
    public IpCmPrivateDataHeader wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        wrapForReading("RDMA IP CM private data header", buffer, offset, length, LENGTH);
        return this;
    }

    /** Wraps {@code buffer} for writing. */
    public IpCmPrivateDataHeader wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapForWriting(buffer, offset);
        return this;
    }

    /** Wraps the header at the start of a REQ's private data. */
    public IpCmPrivateDataHeader wrap(final ConnectRequest request)
    {
        return wrapPrivateData(request);
    }

    /** Wraps the header at the start of a SIDR_REQ's private data. */
    public IpCmPrivateDataHeader wrap(final SidrRequest request)
    {
        return wrapPrivateData(request);
    }

    /** The whole version byte, MajV and MinV: the kernel's {@code cma_version}. */
    public short version()
    {
        return u8(VERSION_OFFSET);
    }

    public IpCmPrivateDataHeader version(final int value)
    {
        requireWidth(value, 8, "version");
        putU8(VERSION_OFFSET, value);
        return this;
    }

    public int majorVersion()
    {
        return bits8(MAJOR_VERSION_OFFSET, MAJOR_VERSION_SHIFT, Integer.bitCount(MAJOR_VERSION_MASK));
    }

    public IpCmPrivateDataHeader majorVersion(final int value)
    {
        putBits(MAJOR_VERSION_OFFSET, MAJOR_VERSION_MASK, MAJOR_VERSION_SHIFT, value, "majv");
        return this;
    }

    public int minorVersion()
    {
        return bits8(MINOR_VERSION_OFFSET, MINOR_VERSION_SHIFT, Integer.bitCount(MINOR_VERSION_MASK));
    }

    public IpCmPrivateDataHeader minorVersion(final int value)
    {
        putBits(MINOR_VERSION_OFFSET, MINOR_VERSION_MASK, MINOR_VERSION_SHIFT, value, "minv");
        return this;
    }

    /** 4 or 6 ({@link #IP_VERSION_4}, {@link #IP_VERSION_6}); anything else is not an IP CM header. */
    public int ipVersion()
    {
        return bits8(IP_VERSION_OFFSET, IP_VERSION_SHIFT, Integer.bitCount(IP_VERSION_MASK));
    }

    public IpCmPrivateDataHeader ipVersion(final int value)
    {
        putBits(IP_VERSION_OFFSET, IP_VERSION_MASK, IP_VERSION_SHIFT, value, "ipv");
        return this;
    }

    public int sourcePort()
    {
        return u16(SOURCE_PORT_OFFSET);
    }

    public IpCmPrivateDataHeader sourcePort(final int value)
    {
        requireWidth(value, 16, "sport");
        putU16(SOURCE_PORT_OFFSET, value);
        return this;
    }

    /** The IPv4 source address as an int in network order (the last 4 bytes of the field). */
    public int sourceIpv4()
    {
        return (int)u32(SOURCE_ADDRESS_OFFSET + IPV4_IN_ADDRESS_OFFSET);
    }

    /** Writes an IPv4 source address: 12 zero bytes, then the address. Does not set IPV. */
    public IpCmPrivateDataHeader sourceIpv4(final int address)
    {
        putIpv4(SOURCE_ADDRESS_OFFSET, address);
        return this;
    }

    public int destinationIpv4()
    {
        return (int)u32(DESTINATION_ADDRESS_OFFSET + IPV4_IN_ADDRESS_OFFSET);
    }

    public IpCmPrivateDataHeader destinationIpv4(final int address)
    {
        putIpv4(DESTINATION_ADDRESS_OFFSET, address);
        return this;
    }

    /** The first 8 bytes of the IPv6 source address. */
    public long sourceIpv6High()
    {
        return u64(SOURCE_ADDRESS_OFFSET);
    }

    /** The last 8 bytes of the IPv6 source address. */
    public long sourceIpv6Low()
    {
        return u64(SOURCE_ADDRESS_OFFSET + 8);
    }

    /** Writes an IPv6 source address as its two big-endian halves. Does not set IPV. */
    public IpCmPrivateDataHeader sourceIpv6(final long high, final long low)
    {
        putIpv6(SOURCE_ADDRESS_OFFSET, high, low);
        return this;
    }

    public long destinationIpv6High()
    {
        return u64(DESTINATION_ADDRESS_OFFSET);
    }

    public long destinationIpv6Low()
    {
        return u64(DESTINATION_ADDRESS_OFFSET + 8);
    }

    public IpCmPrivateDataHeader destinationIpv6(final long high, final long low)
    {
        putIpv6(DESTINATION_ADDRESS_OFFSET, high, low);
        return this;
    }

    /**
     * The source address as IPV says to read it; allocates, for tools and tests.
     *
     * @throws MalformedMessageException when IPV is neither 4 nor 6.
     */
    public InetAddress sourceAddress()
    {
        return address(SOURCE_ADDRESS_OFFSET, "sip");
    }

    /** The destination address as IPV says to read it; allocates. */
    public InetAddress destinationAddress()
    {
        return address(DESTINATION_ADDRESS_OFFSET, "dip");
    }

    /**
     * {@code cma_format_hdr}'s header (version 0, the IP version, the source port, both addresses) and then
     * {@code consumer}: the private data of rdma_cm's REQ and SIDR_REQ on an IP id.
     */
    public static byte[] privateData(final InetAddress source, final InetAddress destination, final int sourcePort,
        final byte[] consumer)
    {
        final byte[] data = new byte[LENGTH + consumer.length];
        new IpCmPrivateDataHeader().wrap(new UnsafeBuffer(data), 0).version(CMA_VERSION).sourcePort(sourcePort)
            .addresses(source, destination);
        System.arraycopy(consumer, 0, data, LENGTH, consumer.length);
        return data;
    }

    /** Sets IPV and both addresses from two addresses of the same family. */
    public IpCmPrivateDataHeader addresses(final InetAddress source, final InetAddress destination)
    {
        if (source instanceof Inet4Address && destination instanceof Inet4Address)
        {
            return ipVersion(IP_VERSION_4).sourceIpv4(ipv4(source)).destinationIpv4(ipv4(destination));
        }
        if (source instanceof Inet6Address && destination instanceof Inet6Address)
        {
            mutableBuffer.putBytes(offset + SOURCE_ADDRESS_OFFSET, source.getAddress());
            mutableBuffer.putBytes(offset + DESTINATION_ADDRESS_OFFSET, destination.getAddress());
            return ipVersion(IP_VERSION_6);
        }
        throw new IllegalArgumentException("RDMA IP CM header: source " + source + " and destination " +
            destination + " must both be IPv4 or both IPv6");
    }

    @Override
    public String toString()
    {
        if (!isWrapped())
        {
            return "IpCm{unwrapped}";
        }
        final StringBuilder text = new StringBuilder(128)
            .append("IpCm{majv=").append(majorVersion())
            .append(", minv=").append(minorVersion())
            .append(", ipv=").append(ipVersion())
            .append(", sport=").append(sourcePort());
        final int ipVersion = ipVersion();
        if (ipVersion == IP_VERSION_4 || ipVersion == IP_VERSION_6)
        {
            final String suffix = ipVersion == IP_VERSION_4 ? "4=" : "6=";
            text.append(", sip").append(suffix).append(sourceAddress().getHostAddress())
                .append(", dip").append(suffix).append(destinationAddress().getHostAddress());
        }
        return text.append('}').toString();
    }

    private IpCmPrivateDataHeader wrapPrivateData(final CmMessage<?> message)
    {
        final int start = message.offset() + message.privateDataOffset();
        if (message.buffer() instanceof MutableDirectBuffer writable)
        {
            return wrap(writable, start);
        }
        return wrap(message.buffer(), start, message.privateDataLength());
    }

    private InetAddress address(final int field, final String name)
    {
        final int ipVersion = ipVersion();
        final byte[] bytes;
        if (ipVersion == IP_VERSION_4)
        {
            bytes = new byte[4];
            buffer.getBytes(offset + field + IPV4_IN_ADDRESS_OFFSET, bytes);
        }
        else if (ipVersion == IP_VERSION_6)
        {
            bytes = new byte[ADDRESS_LENGTH];
            buffer.getBytes(offset + field, bytes);
        }
        else
        {
            throw new MalformedMessageException("RDMA IP CM private data header: ipv " + ipVersion +
                " is neither 4 nor 6, so " + name + " cannot be read");
        }
        try
        {
            return InetAddress.getByAddress(bytes);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalStateException("4 or 16 bytes are always an address", ex);
        }
    }

    private void putIpv4(final int field, final int address)
    {
        // the 12 zero bytes as two stores: a general zero() costs more than the rest of the header
        putU64(field, 0);
        putU32(field + Long.BYTES, 0);
        putU32(field + IPV4_IN_ADDRESS_OFFSET, address & 0xffff_ffffL);
    }

    private void putIpv6(final int field, final long high, final long low)
    {
        putU64(field, high);
        putU64(field + 8, low);
    }

    private static int ipv4(final InetAddress address)
    {
        final byte[] bytes = address.getAddress();
        return ((bytes[0] & 0xff) << 24) | ((bytes[1] & 0xff) << 16) | ((bytes[2] & 0xff) << 8) | (bytes[3] & 0xff);
    }

    private void putBits(final int field, final int mask, final int shift, final int value, final String name)
    {
        requireWidth(value, Integer.bitCount(mask), name);
        putBits8(field, shift, Integer.bitCount(mask), value);
    }

    private static void requireWidth(final int value, final int bits, final String name)
    {
        if ((value >>> bits) != 0)
        {
            throw new IllegalArgumentException("RDMA IP CM header " + name + ": " + value + " does not fit in " +
                bits + " unsigned bits (0.." + ((1 << bits) - 1) + ")");
        }
    }
}
