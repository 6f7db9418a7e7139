package dev.rdmacm.verbs;

/**
 * One non-empty entry of a port's P_Key table: the index a QP's {@code pkey_index} names and the
 * 16-bit P_Key (bit 15 set: full membership).
 *
 * @param index the index within the port's P_Key table.
 * @param pkey  the P_Key, 0 to 0xffff.
 */
public record PkeyEntry(int index, int pkey)
{
    public static final int DEFAULT_PKEY = 0xffff;
    public static final int FULL_MEMBER_BIT = 0x8000;

    public PkeyEntry
    {
        if (index < 0 || pkey < 0 || pkey > 0xffff)
        {
            throw new IllegalArgumentException("P_Key entry " + index + " = " + pkey + ": index must be >= 0, P_Key 0-0xffff");
        }
    }

    public boolean isFullMember()
    {
        return (pkey & FULL_MEMBER_BIT) != 0;
    }

    /** {@code 0xffff}, as sysfs writes it. */
    public String text()
    {
        return String.format("0x%04x", pkey);
    }
}
