package dev.rdmacm.netlink;

/**
 * Flyweight over {@code struct ifaddrmsg} (8 bytes), the body of RTM_NEWADDR/RTM_GETADDR, followed by
 * IFA_* attributes. Host byte order.
 * <pre>
 *  +---------------+---------------+---------------+---------------+
 *  |  ifa_family   | ifa_prefixlen |   ifa_flags   |   ifa_scope   |  0
 *  +---------------+---------------+---------------+---------------+
 *  |                       ifa_index (u32)                         |  4
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class AddressMessage extends MessageBody<AddressMessage>
{
    public static final int PREFIX_LENGTH_OFFSET = 1;
    public static final int FLAGS_OFFSET = 2;
    public static final int SCOPE_OFFSET = 3;
    public static final int INDEX_OFFSET = 4;
    public static final int LENGTH = 8;

    public static final int IFA_ADDRESS = 1;
    public static final int IFA_LOCAL = 2;
    public static final int IFA_LABEL = 3;

    @Override
    int length()
    {
        return LENGTH;
    }

    @Override
    String structName()
    {
        return "ifaddrmsg";
    }

    public short prefixLength()
    {
        return u8(PREFIX_LENGTH_OFFSET);
    }

    public short flags()
    {
        return u8(FLAGS_OFFSET);
    }

    public short scope()
    {
        return u8(SCOPE_OFFSET);
    }

    public long index()
    {
        return hostU32(INDEX_OFFSET);
    }
}
