package dev.rdmacm.netlink.rdma;

import dev.rdmacm.netlink.wire.NetlinkAttribute;
import dev.rdmacm.netlink.wire.NetlinkMessageHeader;
import dev.rdmacm.protocol.MalformedMessageException;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import static dev.rdmacm.netlink.rdma.RdmaNlLs.HOST_ORDER;

/**
 * LS SET_TIMEOUT: the daemon tells the kernel how long to wait for its answers
 * ({@code ib_nl_handle_set_timeout}): a header with type {@code RDMA_NL_GET_TYPE(LS, SET_TIMEOUT)},
 * no family header, one TIMEOUT attribute (u32 milliseconds, host order).
 */
public final class LsSetTimeout
{
    private LsSetTimeout()
    {
    }

    public static int encode(final MutableDirectBuffer buffer, final int offset, final long seq, final long pid,
        final long timeoutMs)
    {
        final int end =
            NetlinkAttribute.putU32(buffer, offset + NetlinkMessageHeader.LENGTH, RdmaNlLs.NLA_TYPE_TIMEOUT, timeoutMs);
        new NetlinkMessageHeader().wrap(buffer, offset).length(end - offset)
            .type(RdmaNlLs.type(RdmaNlLs.CLIENT_LS, RdmaNlLs.OP_SET_TIMEOUT)).flags(NetlinkMessageHeader.NLM_F_REQUEST)
            .sequence(seq).portId(pid);
        return end - offset;
    }

    public static long decodeTimeoutMs(final DirectBuffer buffer, final int offset, final int length)
    {
        final NetlinkMessageHeader header = new NetlinkMessageHeader().wrap(buffer, offset, length);
        final long[] timeout = {-1};
        NetlinkAttribute.forEach(buffer, offset + NetlinkMessageHeader.LENGTH,
            (int)Math.min(length, header.length()) - NetlinkMessageHeader.LENGTH, RdmaNlLs.NLA_TYPE_MASK,
            "LS SET_TIMEOUT", (type, b, payload, payloadLength) ->
            {
                if ((type & RdmaNlLs.NLA_TYPE_MASK) == RdmaNlLs.NLA_TYPE_TIMEOUT && payloadLength == 4)
                {
                    timeout[0] = b.getInt(payload, HOST_ORDER) & 0xffff_ffffL;
                }
            });
        if (timeout[0] < 0)
        {
            throw new MalformedMessageException("LS SET_TIMEOUT: no 4-byte TIMEOUT attribute");
        }
        return timeout[0];
    }
}
