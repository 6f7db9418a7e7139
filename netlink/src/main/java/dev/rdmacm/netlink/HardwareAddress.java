package dev.rdmacm.netlink;

import java.util.Arrays;

/**
 * A link-layer address, immutable: a netdev's ({@code IFLA_ADDRESS}, {@code IFLA_BROADCAST}) or a
 * neighbour's ({@code NDA_LLADDR}), as many bytes as its netdev type has (6 on Ethernet, 20 on IPoIB:
 * flags and QPN, then the GID), or none ({@link #NONE}: IFF_NOARP, loopback). Equal when the bytes are;
 * printed as {@code ip} prints it, lower-case hex bytes joined by colons.
 */
public final class HardwareAddress
{
    /** No address: zero bytes. */
    public static final HardwareAddress NONE = new HardwareAddress(new byte[0]);

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private final byte[] bytes;

    private HardwareAddress(final byte[] bytes)
    {
        this.bytes = bytes;
    }

    /** The address of a copy of {@code address}; {@link #NONE} for null or no bytes. */
    public static HardwareAddress of(final byte[] address)
    {
        return address == null || address.length == 0 ? NONE : new HardwareAddress(address.clone());
    }

    /** How many bytes it has. */
    public int length()
    {
        return bytes.length;
    }

    public boolean isEmpty()
    {
        return bytes.length == 0;
    }

    /** Byte {@code index}, widened unsigned (0-255). */
    public int unsignedByte(final int index)
    {
        return bytes[index] & 0xff;
    }

    /** A new array with the bytes. */
    public byte[] toBytes()
    {
        return bytes.clone();
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof HardwareAddress address && Arrays.equals(bytes, address.bytes);
    }

    @Override
    public int hashCode()
    {
        return Arrays.hashCode(bytes);
    }

    /** As {@code ip} prints it: {@code 52:54:00:12:34:56}; empty for {@link #NONE}. */
    @Override
    public String toString()
    {
        return format(bytes);
    }

    /** {@code address} as {@code ip} prints it; empty for null. */
    public static String format(final byte[] address)
    {
        if (address == null)
        {
            return "";
        }
        final StringBuilder text = new StringBuilder(address.length * 3);
        for (int i = 0; i < address.length; i++)
        {
            if (i > 0)
            {
                text.append(':');
            }
            text.append(HEX[(address[i] >>> 4) & 0xf]).append(HEX[address[i] & 0xf]);
        }
        return text.toString();
    }
}
