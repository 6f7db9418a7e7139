package dev.rdmacm.netlink;

/**
 * Flyweight over {@code struct tcmsg} (20 bytes), the body of RTM_NEWQDISC/RTM_GETQDISC, followed by
 * TCA_* attributes. Host byte order.
 * <pre>
 *  +---------------+---------------+-------------------------------+
 *  |  tcm_family   |  tcm__pad1    |       tcm__pad2 (u16)         |  0
 *  +---------------+---------------+-------------------------------+
 *  |                      tcm_ifindex (s32)                        |  4
 *  +---------------------------------------------------------------+
 *  |                      tcm_handle (u32)                         |  8
 *  +---------------------------------------------------------------+
 *  |            tcm_parent (u32, TC_H_ROOT for a root qdisc)       | 12
 *  +---------------------------------------------------------------+
 *  |                       tcm_info (u32)                          | 16
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class QdiscMessage extends MessageBody<QdiscMessage>
{
    public static final int PAD1_OFFSET = 1;
    public static final int PAD2_OFFSET = 2;
    public static final int IFINDEX_OFFSET = 4;
    public static final int HANDLE_OFFSET = 8;
    public static final int PARENT_OFFSET = 12;
    public static final int INFO_OFFSET = 16;
    public static final int LENGTH = 20;

    public static final int TCA_KIND = 1;
    public static final int TCA_OPTIONS = 2;
    /** {@code tcm_parent} of the qdisc attached to the device itself. */
    public static final long TC_H_ROOT = 0xFFFF_FFFFL;

    @Override
    int length()
    {
        return LENGTH;
    }

    @Override
    String structName()
    {
        return "tcmsg";
    }

    public int ifindex()
    {
        return (int)hostU32(IFINDEX_OFFSET);
    }

    public long handle()
    {
        return hostU32(HANDLE_OFFSET);
    }

    public long parent()
    {
        return hostU32(PARENT_OFFSET);
    }
}
