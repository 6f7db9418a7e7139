package dev.rdmacm.netlink;

import dev.rdmacm.netlink.wire.NetlinkAttribute;
import dev.rdmacm.netlink.wire.NetlinkMessageHeader;
import dev.rdmacm.protocol.MalformedMessageException;
import org.agrona.DirectBuffer;

import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.ORDER;

/**
 * Flyweight over {@code struct nlmsgerr}, the body of NLMSG_ERROR: a negative errno (0 for an ACK),
 * the header of the request it answers, the rest of that request unless {@code NLM_F_CAPPED}, then,
 * with {@code NLM_F_ACK_TLVS}, extended-ack attributes (NLMSGERR_ATTR_*).
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                 error (s32, -errno or 0)                      |  0
 *  +---------------------------------------------------------------+
 *  |            original nlmsghdr (16 bytes)                       |  4
 *  +---------------------------------------------------------------+
 *  |   original payload (absent if NLM_F_CAPPED) ...               | 20
 *  +---------------------------------------------------------------+
 *  |   nlattr NLMSGERR_ATTR_MSG (string), _OFFS (u32) ...          |
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class NetlinkErrorMessage
{
    public static final int ERROR_OFFSET = 0;
    public static final int ORIGINAL_HEADER_OFFSET = 4;
    public static final int LENGTH = 4 + NetlinkMessageHeader.LENGTH;

    public static final int NLMSGERR_ATTR_MSG = 1;
    public static final int NLMSGERR_ATTR_OFFS = 2;

    private final NetlinkMessageHeader original = new NetlinkMessageHeader();
    private final NetlinkAttribute attribute = new NetlinkAttribute();
    private DirectBuffer buffer;
    private int offset;
    private int end;
    private int headerFlags;

    /**
     * @param offset      where the nlmsgerr body starts.
     * @param end         end of the enclosing message.
     * @param headerFlags flags of the enclosing NLMSG_ERROR header (CAPPED / ACK_TLVS).
     */
    public NetlinkErrorMessage wrap(final DirectBuffer buffer, final int offset, final int end, final int headerFlags)
    {
        MalformedMessageException.requireLength("nlmsgerr", end - offset, LENGTH);
        this.buffer = buffer;
        this.offset = offset;
        this.end = end;
        this.headerFlags = headerFlags;
        original.wrap(buffer, offset + ORIGINAL_HEADER_OFFSET, end - offset - ORIGINAL_HEADER_OFFSET);
        return this;
    }

    /** The positive errno, 0 for an acknowledgement. */
    public int errno()
    {
        return -buffer.getInt(offset + ERROR_OFFSET, ORDER);
    }

    public NetlinkMessageHeader original()
    {
        return original;
    }

    /** The kernel's extended-ack text, e.g. "ipv6: Invalid flags for get route request", or null. */
    public String extendedAckMessage()
    {
        if ((headerFlags & NetlinkMessageHeader.NLM_F_ACK_TLVS) == 0)
        {
            return null;
        }
        final int attributes = (headerFlags & NetlinkMessageHeader.NLM_F_CAPPED) != 0 ?
            offset + LENGTH :
            offset + ORIGINAL_HEADER_OFFSET + NetlinkMessageHeader.align((int)original.length());
        attribute.wrap(buffer, attributes, end);
        while (attribute.next())
        {
            if (attribute.type() == NLMSGERR_ATTR_MSG)
            {
                return attribute.string();
            }
        }
        return null;
    }
}
