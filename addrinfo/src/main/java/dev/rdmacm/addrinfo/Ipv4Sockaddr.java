package dev.rdmacm.addrinfo;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * {@code struct sockaddr_in}, 16 bytes.
 * <pre>
 *  0               2               4                               8
 * +-------+-------+-------+-------+-------+-------+-------+-------+
 * | sin_family    | sin_port (BE) | sin_addr (4 bytes, net order)  |
 * +-------+-------+-------+-------+-------+-------+-------+-------+
 * | sin_zero (8 bytes)                                             |
 * +-------+-------+-------+-------+-------+-------+-------+-------+
 * </pre>
 *
 * @param address the IPv4 address as a big-endian int ({@code 192.0.2.1} is {@code 0xC0000201}).
 * @param port    0..65535.
 */
public record Ipv4Sockaddr(int address, int port) implements RdmaSockaddr
{
    public static final int LENGTH = 16;
    static final int PORT_OFFSET = 2;
    static final int ADDR_OFFSET = 4;

    public static Ipv4Sockaddr fromBytes(final byte[] bytes)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        return new Ipv4Sockaddr(buffer.getInt(ADDR_OFFSET, ByteOrder.BIG_ENDIAN),
            buffer.getShort(PORT_OFFSET, ByteOrder.BIG_ENDIAN) & 0xffff);
    }

    static Ipv4Sockaddr parse(final String text, final String what)
    {
        final int colon = text.indexOf(':');
        final String host = colon < 0 ? text : text.substring(0, colon);
        final int port = colon < 0 ? 0 : RdmaSockaddr.parsePort(text.substring(colon + 1), what);
        final String[] parts = host.split("\\.", -1);
        if (parts.length != 4)
        {
            throw new IllegalArgumentException(what + ": '" + text + "' is not a.b.c.d[:port], [ipv6[%scope]][:port] or gid=GID [sid=...]");
        }
        int address = 0;
        for (final String part : parts)
        {
            if (!part.matches("[0-9]{1,3}") || Integer.parseInt(part) > 255)
            {
                throw new IllegalArgumentException(what + ": '" + part + "' in '" + text + "' is not a number from 0 to 255");
            }
            address = address << 8 | Integer.parseInt(part);
        }
        return new Ipv4Sockaddr(address, port);
    }

    @Override
    public int family()
    {
        return AddressFamily.AF_INET;
    }

    @Override
    public byte[] toBytes()
    {
        final byte[] bytes = new byte[LENGTH];
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        buffer.putShort(FAMILY_OFFSET, (short)AddressFamily.AF_INET, HOST_ORDER);
        buffer.putShort(PORT_OFFSET, (short)port, ByteOrder.BIG_ENDIAN);
        buffer.putInt(ADDR_OFFSET, address, ByteOrder.BIG_ENDIAN);
        return bytes;
    }

    @Override
    public int length()
    {
        return LENGTH;
    }

    /** The four address bytes in network order. */
    public byte[] addressBytes()
    {
        return new byte[] {(byte)(address >>> 24), (byte)(address >>> 16), (byte)(address >>> 8), (byte)address};
    }

    @Override
    public String toText()
    {
        return (address >>> 24) + "." + (address >>> 16 & 0xff) + "." + (address >>> 8 & 0xff) + "." + (address & 0xff) + ":" + port;
    }
}
