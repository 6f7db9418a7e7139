package dev.rdmacm.netlink;

/** Link-layer addresses in the text form {@code ip} prints: lower-case hex bytes joined by colons. */
public final class HardwareAddress
{
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private HardwareAddress()
    {
    }

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
