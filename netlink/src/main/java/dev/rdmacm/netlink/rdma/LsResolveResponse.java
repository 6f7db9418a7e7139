package dev.rdmacm.netlink.rdma;

import dev.rdmacm.netlink.wire.NetlinkAttribute;
import dev.rdmacm.netlink.wire.NetlinkMessageHeader;
import dev.rdmacm.protocol.MalformedMessageException;
import dev.rdmacm.protocol.path.IbvPathData;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import static dev.rdmacm.netlink.rdma.RdmaNlLs.HOST_ORDER;

/**
 * The daemon's answer to an LS RESOLVE request, as ibacm's {@code acm_nl_send} writes it: the
 * request's type and sequence number, the sender's pid, no family header, and either one
 * PATH_RECORD attribute holding a {@code struct ib_path_rec_data} or the {@link RdmaNlLs#F_ERR} flag
 * and no attribute.
 * <pre>
 *  nlmsghdr (len, type = request's, flags 0 | F_ERR, seq = request's, pid)
 *  nlattr (len 76, type PATH_RECORD)
 *    ib_path_rec_data: flags u32 host | reserved u32 | path_rec 64 bytes (network order)
 * </pre>
 * The kernel's {@code IB_PATH_*} flags have the values of {@link IbvPathData}'s. Path flags:
 * {@code PRIMARY|OUTBOUND} for a unidirectional request, {@code PRIMARY|GMP|BIDIRECTIONAL}
 * otherwise.
 */
public final class LsResolveResponse
{
    /** {@code sizeof(struct ib_path_rec_data)}. */
    public static final int PATH_REC_DATA_LENGTH = 72;
    public static final int PATH_REC_FLAGS_OFFSET = 0;
    public static final int PATH_REC_RESERVED_OFFSET = 4;
    public static final int PATH_REC_OFFSET = 8;
    public static final int PATH_LENGTH = 64;

    private LsResolveResponse()
    {
    }

    /** The {@code ib_path_rec_data} flags ibacm uses for a request with {@code pathUse}. */
    public static int pathFlags(final int pathUse)
    {
        return pathUse == RdmaNlLs.PATH_USE_UNIDIRECTIONAL
            ? IbvPathData.FLAG_PRIMARY | IbvPathData.FLAG_OUTBOUND
            : IbvPathData.FLAG_PRIMARY | IbvPathData.FLAG_GMP | IbvPathData.FLAG_BIDIRECTIONAL;
    }

    /** Encodes a success carrying {@code path} (64 bytes); returns the message length. */
    public static int encodePath(final MutableDirectBuffer buffer, final int offset, final LsResolveRequest request,
        final long pid, final byte[] path)
    {
        if (path.length != PATH_LENGTH)
        {
            throw new IllegalArgumentException("LS RESOLVE response: path record of " + path.length + " bytes, must be 64");
        }
        final int attribute = offset + NetlinkMessageHeader.LENGTH;
        final int data =
            NetlinkAttribute.putHeader(buffer, attribute, RdmaNlLs.NLA_TYPE_PATH_RECORD, PATH_REC_DATA_LENGTH);
        buffer.putInt(data + PATH_REC_FLAGS_OFFSET, pathFlags(request.pathUse()), HOST_ORDER);
        buffer.putInt(data + PATH_REC_RESERVED_OFFSET, 0, HOST_ORDER);
        buffer.putBytes(data + PATH_REC_OFFSET, path);
        final int length = NetlinkMessageHeader.LENGTH + NetlinkAttribute.totalLength(PATH_REC_DATA_LENGTH);
        header(buffer, offset, request, pid, length, 0);
        return length;
    }

    /** Encodes a failure: header only, with {@link RdmaNlLs#F_ERR}; returns the message length. */
    public static int encodeError(final MutableDirectBuffer buffer, final int offset, final LsResolveRequest request,
        final long pid)
    {
        header(buffer, offset, request, pid, NetlinkMessageHeader.LENGTH, RdmaNlLs.F_ERR);
        return NetlinkMessageHeader.LENGTH;
    }

    private static void header(final MutableDirectBuffer buffer, final int offset, final LsResolveRequest request,
        final long pid, final int length, final int flags)
    {
        new NetlinkMessageHeader().wrap(buffer, offset).length(length)
            .type(RdmaNlLs.type(RdmaNlLs.CLIENT_LS, RdmaNlLs.OP_RESOLVE))
            .flags(flags).sequence(request.seq()).portId(pid);
    }

    /** The path record of a success response, or null for an F_ERR one, as the kernel reads it. */
    public static byte[] decodePath(final DirectBuffer buffer, final int offset, final int length)
    {
        final NetlinkMessageHeader header = new NetlinkMessageHeader().wrap(buffer, offset, length);
        if ((header.flags() & RdmaNlLs.F_ERR) != 0)
        {
            return null;
        }
        final byte[][] path = new byte[1][];
        NetlinkAttribute.forEach(buffer, offset + NetlinkMessageHeader.LENGTH,
            RdmaNlLs.messageLength(header, length, "LS RESOLVE response") - NetlinkMessageHeader.LENGTH, RdmaNlLs.NLA_TYPE_MASK,
            "LS RESOLVE response", (type, b, payload, payloadLength) ->
            {
                if ((type & RdmaNlLs.NLA_TYPE_MASK) == RdmaNlLs.NLA_TYPE_PATH_RECORD && path[0] == null)
                {
                    if (payloadLength < PATH_REC_DATA_LENGTH)
                    {
                        throw new MalformedMessageException("LS RESOLVE response: PATH_RECORD of " + payloadLength
                            + " bytes, must be " + PATH_REC_DATA_LENGTH);
                    }
                    path[0] = new byte[PATH_LENGTH];
                    b.getBytes(payload + PATH_REC_OFFSET, path[0]);
                }
            });
        if (path[0] == null)
        {
            throw new MalformedMessageException("LS RESOLVE response: no F_ERR flag and no PATH_RECORD attribute");
        }
        return path[0];
    }
}
