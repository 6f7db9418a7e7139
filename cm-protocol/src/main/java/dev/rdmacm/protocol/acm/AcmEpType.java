package dev.rdmacm.protocol.acm;

/**
 * The {@code type} of an address entry ({@code ACM_EP_INFO_*} in {@code infiniband/acm.h}), which
 * selects how the 64-byte {@code info} union is read. ibacm's internal address types continue the
 * numbering with GID 4 and LID 5 and accept 1..5 in requests; 6 and above are reserved.
 */
public final class AcmEpType
{
    public static final int NAME = 0x0001;
    public static final int ADDRESS_IP = 0x0002;
    public static final int ADDRESS_IP6 = 0x0003;
    /** ibacm-internal ({@code ACM_ADDRESS_GID}): info holds a 16-byte GID. */
    public static final int ADDRESS_GID = 0x0004;
    /** ibacm-internal ({@code ACM_ADDRESS_LID}): info holds a big-endian 16-bit LID. */
    public static final int ADDRESS_LID = 0x0005;
    /** First value ibacm rejects as an address type ({@code ACM_ADDRESS_RESERVED}). */
    public static final int ADDRESS_RESERVED = 0x0006;
    public static final int PATH = 0x0010;

    private AcmEpType()
    {
    }

    /** Whether ibacm accepts {@code type} for a SOURCE or DEST entry (1..5). */
    public static boolean isAddressType(final int type)
    {
        return type > 0 && type < ADDRESS_RESERVED;
    }

    public static String name(final int type)
    {
        return switch (type)
        {
            case NAME -> "NAME";
            case ADDRESS_IP -> "IP";
            case ADDRESS_IP6 -> "IP6";
            case ADDRESS_GID -> "GID";
            case ADDRESS_LID -> "LID";
            case PATH -> "PATH";
            default -> "TYPE_0x" + Integer.toHexString(type);
        };
    }
}
