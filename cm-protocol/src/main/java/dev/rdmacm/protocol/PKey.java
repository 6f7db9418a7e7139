package dev.rdmacm.protocol;

/**
 * A 16-bit Partition Key (IBA 10.9.1): bit 15 is the membership bit (1 = full member, 0 = limited
 * member) and bits 0-14 the partition number. Two keys match when their partition numbers are equal
 * and at least one is a full member. 0xFFFF is the default partition with full membership.
 * <p>
 * Printed as {@code 0x%04x}, as sysfs {@code pkeys/N} and {@code ip link} print it; parsed from
 * {@code 0x}-prefixed hexadecimal or decimal.
 */
public record PKey(int value)
{
    public static final int FULL_MEMBER_BIT = 0x8000;
    public static final int BASE_MASK = 0x7fff;
    public static final int DEFAULT = 0xffff;
    /** P_Key 0x0000 (and 0x8000) is invalid: it matches nothing. */
    public static final int INVALID = 0x0000;
    /** The two keys every RoCE resolution carries (0 after resolve_addr, 0xffff on its path): made once, not per id. */
    private static final PKey INVALID_KEY = new PKey(INVALID);
    private static final PKey DEFAULT_KEY = new PKey(DEFAULT);

    public PKey
    {
        if (value < 0 || value > 0xffff)
        {
            throw new IllegalArgumentException("P_Key " + value + " is not a 16-bit value 0-0xffff");
        }
    }

    /**
     * The P_Key of a 16-bit value (0..0xffff), as the API's records carry it.
     *
     * @throws IllegalArgumentException naming the value and the range.
     */
    public static PKey of(final int value)
    {
        return value == INVALID ? INVALID_KEY : value == DEFAULT ? DEFAULT_KEY : new PKey(value);
    }

    /** The P_Key of a big-endian wire field read as a Java {@code short}: widened unsigned, so 0xffff, not -1. */
    public static PKey fromWire(final short field)
    {
        return new PKey(Short.toUnsignedInt(field));
    }

    public static boolean isFullMember(final int pkey)
    {
        return (pkey & FULL_MEMBER_BIT) != 0;
    }

    /** The 15-bit partition number without the membership bit. */
    public static int base(final int pkey)
    {
        return pkey & BASE_MASK;
    }

    /** Whether a port with {@code a} may talk to one with {@code b} (IBA 10.9.3). */
    public static boolean matches(final int a, final int b)
    {
        return base(a) != 0 && base(a) == base(b) && (isFullMember(a) || isFullMember(b));
    }

    public boolean isFullMember()
    {
        return isFullMember(value);
    }

    public int base()
    {
        return base(value);
    }

    public PKey asFullMember()
    {
        return new PKey(value | FULL_MEMBER_BIT);
    }

    public PKey asLimitedMember()
    {
        return new PKey(value & BASE_MASK);
    }

    /**
     * Parses {@code 0xffff}, {@code 0x8001} or a decimal number.
     *
     * @throws IllegalArgumentException naming the text and the rule it breaks.
     */
    public static PKey parse(final String text)
    {
        return new PKey(UnsignedText.parse16("P_Key", text));
    }

    public static String format(final int pkey)
    {
        return String.format("0x%04x", pkey & 0xffff);
    }

    @Override
    public String toString()
    {
        return format(value);
    }
}
