package dev.rdmacm.netlink;

/**
 * Flyweight over {@code struct ndmsg} (12 bytes), the body of RTM_NEWNEIGH/RTM_GETNEIGH/RTM_DELNEIGH,
 * followed by NDA_* attributes. Host byte order.
 * <pre>
 *  +---------------+---------------+-------------------------------+
 *  |  ndm_family   |   ndm_pad1    |        ndm_pad2 (u16)         |  0
 *  +---------------+---------------+-------------------------------+
 *  |                      ndm_ifindex (s32)                        |  4
 *  +-------------------------------+---------------+---------------+
 *  |     ndm_state (u16, NUD_*)    | ndm_flags NTF | ndm_type RTN  |  8
 *  +-------------------------------+---------------+---------------+
 * </pre>
 */
public final class NeighbourMessage extends MessageBody<NeighbourMessage>
{
    public static final int PAD1_OFFSET = 1;
    public static final int PAD2_OFFSET = 2;
    public static final int IFINDEX_OFFSET = 4;
    public static final int STATE_OFFSET = 8;
    public static final int FLAGS_OFFSET = 10;
    public static final int TYPE_OFFSET = 11;
    public static final int LENGTH = 12;

    public static final int NDA_DST = 1;
    public static final int NDA_LLADDR = 2;
    public static final int NDA_PROBES = 4;

    public static final int NUD_NONE = 0x00;
    public static final int NUD_INCOMPLETE = 0x01;
    public static final int NUD_REACHABLE = 0x02;
    public static final int NUD_STALE = 0x04;
    public static final int NUD_DELAY = 0x08;
    public static final int NUD_PROBE = 0x10;
    public static final int NUD_FAILED = 0x20;
    public static final int NUD_NOARP = 0x40;
    public static final int NUD_PERMANENT = 0x80;
    /** The kernel's NUD_VALID: a hardware address that may be used. */
    public static final int NUD_VALID =
        NUD_PERMANENT | NUD_NOARP | NUD_REACHABLE | NUD_PROBE | NUD_STALE | NUD_DELAY;

    /** Start resolution as if a packet had been sent (RTM_NEWNEIGH, needs CAP_NET_ADMIN). */
    public static final int NTF_USE = 0x01;
    /** A proxy entry (pneigh): answered for others, not a neighbour of ours. */
    public static final int NTF_PROXY = 0x08;

    @Override
    int length()
    {
        return LENGTH;
    }

    @Override
    String structName()
    {
        return "ndmsg";
    }

    public int ifindex()
    {
        return (int)hostU32(IFINDEX_OFFSET);
    }

    public NeighbourMessage ifindex(final int ifindex)
    {
        putHostU32(IFINDEX_OFFSET, ifindex);
        return this;
    }

    public int state()
    {
        return hostU16(STATE_OFFSET);
    }

    public NeighbourMessage state(final int state)
    {
        putHostU16(STATE_OFFSET, state);
        return this;
    }

    public short flags()
    {
        return u8(FLAGS_OFFSET);
    }

    public NeighbourMessage flags(final int flags)
    {
        putU8(FLAGS_OFFSET, flags);
        return this;
    }

    public short type()
    {
        return u8(TYPE_OFFSET);
    }
}
