package dev.rdmacm.acm;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.acm.AcmEpAddrData;
import dev.rdmacm.protocol.acm.AcmEpFlags;
import dev.rdmacm.protocol.acm.AcmEpType;
import dev.rdmacm.protocol.acm.AcmHeader;
import dev.rdmacm.protocol.acm.AcmMessage;
import dev.rdmacm.protocol.acm.AcmOp;
import dev.rdmacm.protocol.path.IbvPathRecord;
import org.agrona.concurrent.UnsafeBuffer;

/** Requests as the real clients encode them (reference section 4.6), built with the flyweights. */
final class AcmRequests
{
    private AcmRequests()
    {
    }

    static byte[] resolveIp(final int source, final int destination, final long destFlags)
    {
        final int entries = source == 0 ? 1 : 2;
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[AcmMessage.resolveLength(entries)]);
        new AcmHeader().wrap(buffer, 0).version(1).opcode(AcmOp.RESOLVE).length(buffer.capacity());
        final AcmEpAddrData entry = new AcmEpAddrData();
        int at = AcmHeader.LENGTH;
        if (source != 0)
        {
            entry.wrap(buffer, at).flags(AcmEpFlags.SOURCE).type(AcmEpType.ADDRESS_IP).ipv4(source);
            at += AcmEpAddrData.LENGTH;
        }
        entry.wrap(buffer, at).flags(destFlags).type(AcmEpType.ADDRESS_IP).ipv4(destination);
        return buffer.byteArray();
    }

    /** A PATH entry with SGID and DGID set, as {@code ib_acme -f g} sends it. */
    static byte[] resolveGid(final Gid sgid, final Gid dgid, final long flags)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[AcmMessage.resolveLength(1)]);
        new AcmHeader().wrap(buffer, 0).version(1).opcode(AcmOp.RESOLVE).length(buffer.capacity());
        final AcmEpAddrData entry = new AcmEpAddrData().wrap(buffer, AcmHeader.LENGTH).flags(flags).type(AcmEpType.PATH);
        entry.path(new IbvPathRecord()).dgid(dgid).sgid(sgid).reversible(true).numbPath(1);
        return buffer.byteArray();
    }

    static byte[] perfQuery()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[AcmHeader.LENGTH]);
        new AcmHeader().wrap(buffer, 0).version(1).opcode(AcmOp.PERF_QUERY).length(AcmHeader.LENGTH);
        return buffer.byteArray();
    }

    static AcmHeader header(final byte[] reply)
    {
        return new AcmHeader().wrap(new UnsafeBuffer(reply), 0, reply.length);
    }

    static int ipv4(final String dotted)
    {
        return AcmAddress.parseIpv4(dotted);
    }
}
