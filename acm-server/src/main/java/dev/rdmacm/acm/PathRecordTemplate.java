package dev.rdmacm.acm;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.path.IbvPathRecord;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The 64-byte {@code ibv_path_record}s the service builds itself: SA query templates, and the routes
 * preloaded from OpenSM's dump. Only the fields ibacm itself fills are written; the rest stay zero.
 */
final class PathRecordTemplate
{
    static final int LENGTH = IbvPathRecord.LENGTH;

    private PathRecordTemplate()
    {
    }

    /**
     * An SA query template from an endpoint to a GID or LID destination, as acmp's
     * {@code acmp_record_path_addr} fills {@code dest->path}: the endpoint's P_Key, SGID and SLID and
     * the destination, nothing else, so the query masks exactly those (neither Reversible nor NumbPath).
     */
    static byte[] query(final AcmEndpoint endpoint, final Gid dgid, final int dlid)
    {
        final UnsafeBuffer bytes = new UnsafeBuffer(new byte[LENGTH]);
        final IbvPathRecord record = new IbvPathRecord().wrap(bytes, 0).sgid(endpoint.gid()).dlid(dlid)
            .slid(endpoint.lid()).pKey(endpoint.pkey());
        if (dgid != null)
        {
            record.dgid(dgid);
        }
        return bytes.byteArray();
    }

    /**
     * A route known from OpenSM's path-record dump, filled as ibacm's acmp does for
     * {@code route_preload opensm_full_v1}: reversible, the endpoint's P_Key, SL/MTU/rate codes from
     * the dump written as whole bytes (no selector), the packet lifetime given.
     */
    static byte[] preloaded(final AcmEndpoint endpoint, final Gid dgid, final int dlid, final int sl, final int mtu,
        final int rate, final int packetLifetime)
    {
        final UnsafeBuffer bytes = new UnsafeBuffer(new byte[LENGTH]);
        new IbvPathRecord().wrap(bytes, 0).sgid(endpoint.gid()).dgid(dgid).dlid(dlid).slid(endpoint.lid())
            .reversible(true).pKey(endpoint.pkey()).sl(sl);
        bytes.putByte(IbvPathRecord.MTU_OFFSET, (byte)mtu);
        bytes.putByte(IbvPathRecord.RATE_OFFSET, (byte)rate);
        bytes.putByte(IbvPathRecord.PACKET_LIFE_TIME_OFFSET, (byte)packetLifetime);
        return bytes.byteArray();
    }

    static IbvPathRecord view(final byte[] record)
    {
        return new IbvPathRecord().wrap(new UnsafeBuffer(record), 0, record.length);
    }
}
