package dev.rdmacm.addrinfo;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * A socket address as {@code rdma_addrinfo} carries it in {@code ai_src_addr} / {@code ai_dst_addr}: the
 * bytes of a {@code struct sockaddr_in}, {@code sockaddr_in6} or {@code sockaddr_ib}, or — for a hint
 * address of any other family, which librdmacm copies verbatim — the opaque bytes.
 * <p>
 * Text form (the CLI prints and reads it): {@code a.b.c.d:port}, {@code [v6]:port} or
 * {@code [v6%scope]:port} with the numeric scope id when it is not 0.
 */
public sealed interface RdmaSockaddr permits Ipv4Sockaddr, Ipv6Sockaddr, IbSockaddr, OpaqueSockaddr
{
    /** {@code sa_family_t} and {@code sin6_scope_id}/{@code sib_scope_id} are in host order. */
    ByteOrder HOST_ORDER = ByteOrder.nativeOrder();
    int FAMILY_OFFSET = 0;

    int family();

    /** The bytes of the C struct, exactly as librdmacm would hold them. */
    byte[] toBytes();

    /** {@code ai_src_len} / {@code ai_dst_len}. */
    default int length()
    {
        return toBytes().length;
    }

    String toText();

    /** Reads the C struct bytes: the family picks the layout; other families stay opaque. */
    static RdmaSockaddr fromBytes(final byte[] bytes)
    {
        if (bytes.length < 2)
        {
            return new OpaqueSockaddr(bytes);
        }
        final int family = familyOf(bytes);
        if (family == AddressFamily.AF_INET && bytes.length == Ipv4Sockaddr.LENGTH)
        {
            return Ipv4Sockaddr.fromBytes(bytes);
        }
        if (family == AddressFamily.AF_INET6 && bytes.length == Ipv6Sockaddr.LENGTH)
        {
            return Ipv6Sockaddr.fromBytes(bytes);
        }
        if (family == AddressFamily.AF_IB && bytes.length == IbSockaddr.LENGTH)
        {
            return IbSockaddr.fromBytes(bytes);
        }
        return new OpaqueSockaddr(bytes);
    }

    /**
     * Parses the text form: {@code a.b.c.d:port}, {@code a.b.c.d}, {@code [v6]:port}, {@code [v6%scope]:port}
     * or {@code [v6]} (the port is 0..65535 and the scope a number), or an AF_IB address as
     * {@link IbSockaddr#toText()} prints it ({@code gid=... sid=...}).
     *
     * @param what names the input in the error, e.g. {@code --src}.
     */
    static RdmaSockaddr parse(final String text, final String what)
    {
        if (text.startsWith("gid="))
        {
            return IbSockaddr.parse(text, what);
        }
        if (text.startsWith("["))
        {
            return Ipv6Sockaddr.parse(text, what);
        }
        return Ipv4Sockaddr.parse(text, what);
    }

    static int familyOf(final byte[] bytes)
    {
        return new UnsafeBuffer(bytes).getShort(FAMILY_OFFSET, HOST_ORDER) & 0xffff;
    }

    /** The port of a text form's {@code :port} tail; {@code what} names the input in the error. */
    static int parsePort(final String text, final String what)
    {
        try
        {
            final int port = Integer.parseInt(text);
            if (port >= 0 && port <= 0xffff)
            {
                return port;
            }
        }
        catch (final NumberFormatException ignored)
        {
            // reported below with the rule
        }
        throw new IllegalArgumentException(what + ": port '" + text + "' is not a number from 0 to 65535");
    }
}
