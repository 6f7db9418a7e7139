package dev.rdmacm.protocol;

/**
 * A 16-bit InfiniBand Local Identifier (IBA 4.1.3): 0 is reserved (unassigned), 0x0001-0xBFFF are
 * unicast, 0xC000-0xFFFE multicast, and 0xFFFF is the permissive LID. Flyweights return LIDs as plain
 * {@code int}s; the static methods classify those without allocating.
 * <p>
 * Printed in decimal, as {@code ibstat} and {@code ibv_devinfo} print them; parsed from decimal or from
 * {@code 0x}-prefixed hexadecimal, as sysfs ({@code 0x1}) and {@code saquery} write them.
 */
public record Lid(int value)
{
    public static final int UNASSIGNED = 0x0000;
    public static final int UNICAST_MIN = 0x0001;
    public static final int UNICAST_MAX = 0xbfff;
    public static final int MULTICAST_MIN = 0xc000;
    public static final int MULTICAST_MAX = 0xfffe;
    public static final int PERMISSIVE = 0xffff;

    public Lid
    {
        if (value < 0 || value > 0xffff)
        {
            throw new IllegalArgumentException("LID " + value + " is not a 16-bit value 0-65535");
        }
    }

    /**
     * The LID of a 16-bit value (0..0xffff), as the API's records carry it.
     *
     * @throws IllegalArgumentException naming the value and the range.
     */
    public static Lid of(final int value)
    {
        return new Lid(value);
    }

    /** The LID of a big-endian wire field read as a Java {@code short}: widened unsigned, so 0xffff is 65535, not -1. */
    public static Lid fromWire(final short field)
    {
        return new Lid(Short.toUnsignedInt(field));
    }

    public static boolean isUnicast(final int lid)
    {
        return lid >= UNICAST_MIN && lid <= UNICAST_MAX;
    }

    public static boolean isMulticast(final int lid)
    {
        return lid >= MULTICAST_MIN && lid <= MULTICAST_MAX;
    }

    public static boolean isPermissive(final int lid)
    {
        return lid == PERMISSIVE;
    }

    public boolean isUnicast()
    {
        return isUnicast(value);
    }

    public boolean isMulticast()
    {
        return isMulticast(value);
    }

    public boolean isPermissive()
    {
        return isPermissive(value);
    }

    /**
     * Parses {@code 4}, {@code 0x4} or {@code 0x0004}.
     *
     * @throws IllegalArgumentException naming the text and the rule it breaks.
     */
    public static Lid parse(final String text)
    {
        return new Lid(UnsignedText.parse16("LID", text));
    }

    /** The decimal form, e.g. {@code 4}. */
    public static String format(final int lid)
    {
        return Integer.toString(lid);
    }

    @Override
    public String toString()
    {
        return format(value);
    }
}
