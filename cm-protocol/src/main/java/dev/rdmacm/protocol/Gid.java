package dev.rdmacm.protocol;

import java.util.Locale;

/**
 * A 128-bit InfiniBand Global Identifier: a 64-bit subnet prefix followed by a 64-bit interface ID,
 * both big-endian on the wire. Immutable; flyweights expose the two halves as longs so that hot paths
 * never need to allocate one of these.
 * <p>
 * Printed as {@code ip} and {@code saquery} print it: the IPv6 text form of the 16 bytes, with the
 * longest run of zero groups compressed ({@code fe80::10:4}) and IPv4-mapped GIDs as
 * {@code ::ffff:192.168.1.5}, exactly as glibc's {@code inet_ntop} does.
 */
public record Gid(long subnetPrefix, long interfaceId)
{
    /** The link-local subnet prefix {@code fe80::/64} that every port has at GID index 0. */
    public static final long LINK_LOCAL_PREFIX = 0xfe80_0000_0000_0000L;
    /** The all-zero GID, which the kernel treats as "unset". */
    public static final Gid ZERO = new Gid(0, 0);
    public static final int LENGTH = 16;

    private static final long IPV4_MAPPED_MARK = 0x0000_ffff_0000_0000L;

    /**
     * Both halves, as the record's own equals compares them; written out because that one is a chain of method
     * handles the C1-only JVMs of the CLI and the guests do not inline, and GIDs are compared and hashed per
     * resolution (the GID tables' index) and per connection (the kernel's answer beside ours).
     */
    @Override
    public boolean equals(final Object other)
    {
        return other instanceof Gid o && subnetPrefix == o.subnetPrefix && interfaceId == o.interfaceId;
    }

    /** Of both halves, to agree with {@link #equals}. */
    @Override
    public int hashCode()
    {
        return 31 * Long.hashCode(subnetPrefix) + Long.hashCode(interfaceId);
    }

    /** The GID whose bytes are the IPv4-mapped IPv6 address {@code ::ffff:a.b.c.d}, as RoCE v2 uses. */
    public static Gid ipv4Mapped(final int ipv4Address)
    {
        return new Gid(0, IPV4_MAPPED_MARK | (ipv4Address & 0xffff_ffffL));
    }

    /** The GID with the same 16 bytes as an IPv6 address, given as its two big-endian halves. */
    public static Gid ipv6(final long high, final long low)
    {
        return new Gid(high, low);
    }

    /** Reads a GID from 16 bytes starting at {@code offset}. */
    public static Gid fromBytes(final byte[] bytes, final int offset)
    {
        MalformedMessageException.requireLength("GID", bytes.length - offset, LENGTH);
        return new Gid(readLong(bytes, offset), readLong(bytes, offset + 8));
    }

    /**
     * Parses the IPv6 text form ({@code fe80::10:4}, {@code ::ffff:10.0.0.1}) or 32 hexadecimal digits
     * with optional colons every 4 digits ({@code fe80:0000:0000:0000:0000:0000:0010:0004}).
     *
     * @throws IllegalArgumentException naming the text and the rule it breaks.
     */
    public static Gid parse(final String text)
    {
        final byte[] bytes = Ipv6Text.parse(text, "GID");
        return fromBytes(bytes, 0);
    }

    public boolean isZero()
    {
        return subnetPrefix == 0 && interfaceId == 0;
    }

    public boolean isLinkLocal()
    {
        return (subnetPrefix & 0xffc0_0000_0000_0000L) == LINK_LOCAL_PREFIX;
    }

    public boolean isIpv4Mapped()
    {
        return subnetPrefix == 0 && (interfaceId & 0xffff_ffff_0000_0000L) == IPV4_MAPPED_MARK;
    }

    /** The IPv4 address of an IPv4-mapped GID, as an int in network order. */
    public int ipv4Address()
    {
        if (!isIpv4Mapped())
        {
            throw new IllegalStateException("GID " + this + " is not IPv4-mapped (::ffff:a.b.c.d)");
        }
        return (int)interfaceId;
    }

    /** The 16 bytes in wire order. */
    public byte[] toBytes()
    {
        final byte[] bytes = new byte[LENGTH];
        writeLong(bytes, 0, subnetPrefix);
        writeLong(bytes, 8, interfaceId);
        return bytes;
    }

    /** The 32 hexadecimal digits with a colon every 4, as sysfs {@code gids/N} files hold them. */
    public String toLongForm()
    {
        final StringBuilder text = new StringBuilder(39);
        for (int group = 0; group < 8; group++)
        {
            if (group > 0)
            {
                text.append(':');
            }
            text.append(String.format(Locale.ROOT, "%04x", group(group)));
        }
        return text.toString();
    }

    @Override
    public String toString()
    {
        return Ipv6Text.format(toBytes());
    }

    private int group(final int index)
    {
        final long half = index < 4 ? subnetPrefix : interfaceId;
        return (int)(half >>> (48 - 16 * (index & 3))) & 0xffff;
    }

    private static long readLong(final byte[] bytes, final int offset)
    {
        long value = 0;
        for (int i = 0; i < 8; i++)
        {
            value = (value << 8) | (bytes[offset + i] & 0xffL);
        }
        return value;
    }

    private static void writeLong(final byte[] bytes, final int offset, final long value)
    {
        for (int i = 0; i < 8; i++)
        {
            bytes[offset + i] = (byte)(value >>> (56 - 8 * i));
        }
    }
}
