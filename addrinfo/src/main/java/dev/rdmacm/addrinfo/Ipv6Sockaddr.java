package dev.rdmacm.addrinfo;

import dev.rdmacm.protocol.Ipv6Text;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * {@code struct sockaddr_in6}, 28 bytes.
 * <pre>
 *  0               2               4                               8
 * +-------+-------+-------+-------+-------+-------+-------+-------+
 * | sin6_family   | sin6_port(BE) | sin6_flowinfo (BE)            |
 * +-------+-------+-------+-------+-------+-------+-------+-------+
 * | sin6_addr (16 bytes, network order)                            |
 * +                                                                +
 * |                                                                |
 * +-------+-------+-------+-------+-------+-------+-------+-------+
 * | sin6_scope_id (host order)    |
 * +-------+-------+-------+-------+
 * </pre>
 */
public record Ipv6Sockaddr(byte[] address, int port, long flowInfo, long scopeId) implements RdmaSockaddr
{
    public static final int LENGTH = 28;
    static final int PORT_OFFSET = 2;
    static final int FLOWINFO_OFFSET = 4;
    static final int ADDR_OFFSET = 8;
    static final int ADDR_LENGTH = 16;
    static final int SCOPE_ID_OFFSET = 24;

    public Ipv6Sockaddr
    {
        if (address.length != ADDR_LENGTH)
        {
            throw new IllegalArgumentException("an IPv6 address has 16 bytes, not " + address.length);
        }
        address = address.clone();
    }

    public static Ipv6Sockaddr fromBytes(final byte[] bytes)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        final byte[] address = new byte[ADDR_LENGTH];
        buffer.getBytes(ADDR_OFFSET, address);
        return new Ipv6Sockaddr(address, buffer.getShort(PORT_OFFSET, ByteOrder.BIG_ENDIAN) & 0xffff,
            buffer.getInt(FLOWINFO_OFFSET, ByteOrder.BIG_ENDIAN) & 0xffff_ffffL,
            buffer.getInt(SCOPE_ID_OFFSET, HOST_ORDER) & 0xffff_ffffL);
    }

    static Ipv6Sockaddr parse(final String text, final String what)
    {
        final int close = text.indexOf(']');
        if (close < 0)
        {
            throw new IllegalArgumentException(what + ": '" + text + "' opens '[' but has no ']' ([ipv6[%scope]][:port])");
        }
        final String inside = text.substring(1, close);
        final String tail = text.substring(close + 1);
        final int port;
        if (tail.isEmpty())
        {
            port = 0;
        }
        else if (tail.startsWith(":"))
        {
            port = RdmaSockaddr.parsePort(tail.substring(1), what);
        }
        else
        {
            throw new IllegalArgumentException(what + ": '" + tail + "' after ']' in '" + text + "' is not :port");
        }
        final int percent = inside.indexOf('%');
        long scopeId = 0;
        if (percent >= 0)
        {
            final String scope = inside.substring(percent + 1);
            if (!scope.matches("[0-9]{1,10}") || Long.parseLong(scope) > 0xffff_ffffL)
            {
                throw new IllegalArgumentException(what + ": scope '" + scope + "' in '" + text + "' is not a number from 0 to 4294967295");
            }
            scopeId = Long.parseLong(scope);
        }
        final byte[] address = Ipv6Text.parse(percent >= 0 ? inside.substring(0, percent) : inside, what);
        return new Ipv6Sockaddr(address, port, 0, scopeId);
    }

    @Override
    public byte[] address()
    {
        return address.clone();
    }

    @Override
    public int family()
    {
        return AddressFamily.AF_INET6;
    }

    @Override
    public byte[] toBytes()
    {
        final byte[] bytes = new byte[LENGTH];
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        buffer.putShort(FAMILY_OFFSET, (short)AddressFamily.AF_INET6, HOST_ORDER);
        buffer.putShort(PORT_OFFSET, (short)port, ByteOrder.BIG_ENDIAN);
        buffer.putInt(FLOWINFO_OFFSET, (int)flowInfo, ByteOrder.BIG_ENDIAN);
        buffer.putBytes(ADDR_OFFSET, address);
        buffer.putInt(SCOPE_ID_OFFSET, (int)scopeId, HOST_ORDER);
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
        return "[" + Ipv6Text.format(address) + (scopeId != 0 ? "%" + scopeId : "") + "]:" + port;
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof Ipv6Sockaddr that && Arrays.equals(address, that.address) && port == that.port &&
            flowInfo == that.flowInfo && scopeId == that.scopeId;
    }

    @Override
    public int hashCode()
    {
        return Arrays.hashCode(address) * 31 + port;
    }

    @Override
    public String toString()
    {
        return "Ipv6Sockaddr" + toText();
    }
}
