package dev.rdmacm.resolver.acm;

import dev.rdmacm.protocol.Gid;
import org.agrona.concurrent.UnsafeBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * Builds the 64-byte {@code ibv_path_record}s (the SA PathRecord wire layout, network order) that the
 * service sends as SA query templates and serves from its preloaded routes. Only the fields ibacm
 * itself fills are written; everything else stays zero.
 * <pre>
 *  0 service_id 8 | 8 dgid 16 | 24 sgid 16 | 40 dlid 2 | 42 slid 2 | 44 flowlabel_hoplimit 4 |
 *  48 tclass 1 | 49 reversible_numpath 1 | 50 pkey 2 | 52 qosclass_sl 2 | 54 mtu 1 | 55 rate 1 |
 *  56 packetlifetime 1 | 57 preference 1 | 58 reserved 6
 * </pre>
 */
final class PathRecordTemplate
{
    static final int LENGTH = 64;
    static final int DGID_OFFSET = 8;
    static final int SGID_OFFSET = 24;
    static final int DLID_OFFSET = 40;
    static final int SLID_OFFSET = 42;
    static final int REVERSIBLE_NUMPATH_OFFSET = 49;
    static final int PKEY_OFFSET = 50;
    static final int QOSCLASS_SL_OFFSET = 52;
    static final int MTU_OFFSET = 54;
    static final int RATE_OFFSET = 55;
    static final int PACKET_LIFETIME_OFFSET = 56;
    static final int REVERSIBLE = 0x80;

    private PathRecordTemplate()
    {
    }

    /** An SA query template from an endpoint to a GID or LID destination: reversible, one path. */
    static byte[] query(final AcmEndpoint endpoint, final Gid dgid, final int dlid)
    {
        final UnsafeBuffer record = new UnsafeBuffer(new byte[LENGTH]);
        putGid(record, SGID_OFFSET, endpoint.gid());
        if (dgid != null)
        {
            putGid(record, DGID_OFFSET, dgid);
        }
        record.putShort(DLID_OFFSET, (short)dlid, BIG_ENDIAN);
        record.putShort(SLID_OFFSET, (short)endpoint.lid(), BIG_ENDIAN);
        record.putByte(REVERSIBLE_NUMPATH_OFFSET, (byte)(REVERSIBLE | 1));
        record.putShort(PKEY_OFFSET, (short)endpoint.pkey(), BIG_ENDIAN);
        return record.byteArray();
    }

    /**
     * A route known from OpenSM's path-record dump, filled as ibacm's acmp does for
     * {@code route_preload opensm_full_v1}: reversible, the endpoint's P_Key, SL/MTU/rate from the dump,
     * packet lifetime as given.
     */
    static byte[] preloaded(final AcmEndpoint endpoint, final Gid dgid, final int dlid, final int sl, final int mtu,
        final int rate, final int packetLifetime)
    {
        final UnsafeBuffer record = new UnsafeBuffer(new byte[LENGTH]);
        putGid(record, SGID_OFFSET, endpoint.gid());
        putGid(record, DGID_OFFSET, dgid);
        record.putShort(DLID_OFFSET, (short)dlid, BIG_ENDIAN);
        record.putShort(SLID_OFFSET, (short)endpoint.lid(), BIG_ENDIAN);
        record.putByte(REVERSIBLE_NUMPATH_OFFSET, (byte)REVERSIBLE);
        record.putShort(PKEY_OFFSET, (short)endpoint.pkey(), BIG_ENDIAN);
        record.putShort(QOSCLASS_SL_OFFSET, (short)(sl & 0xf), BIG_ENDIAN);
        record.putByte(MTU_OFFSET, (byte)mtu);
        record.putByte(RATE_OFFSET, (byte)rate);
        record.putByte(PACKET_LIFETIME_OFFSET, (byte)packetLifetime);
        return record.byteArray();
    }

    static Gid dgid(final byte[] record)
    {
        return Gid.fromBytes(record, DGID_OFFSET);
    }

    static int dlid(final byte[] record)
    {
        return ((record[DLID_OFFSET] & 0xff) << 8) | (record[DLID_OFFSET + 1] & 0xff);
    }

    private static void putGid(final UnsafeBuffer record, final int offset, final Gid gid)
    {
        record.putLong(offset, gid.subnetPrefix(), BIG_ENDIAN);
        record.putLong(offset + 8, gid.interfaceId(), BIG_ENDIAN);
    }
}
