package dev.rdmacm.sa.transport.verbs;

import dev.rdmacm.sa.transport.MadSource;
import org.agrona.DirectBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * The source GID of a received UD datagram, read from the 40 bytes a provider writes in front of it
 * when the completion has {@code IBV_WC_GRH}. Those bytes are an InfiniBand GRH, or on RoCE v2 the
 * packet's IP header:
 * <pre>
 *   GRH or IPv6 header (40 bytes)       RoCE v2 over IPv4 (rxe, mlx5)
 *    0 version (6) | tclass | flow        0..19 unspecified (rxe: zero)
 *    8 source GID / address (16)         20 IPv4 header: 20 version (4) | IHL (5), 32 source address
 *   24 destination GID / address (16)
 * </pre>
 * They are told apart as libibverbs does ({@code get_grh_header_version}, behind
 * {@code ibv_init_ah_from_wc}): no version 6 in byte 0 but version 4 at byte 20 is IPv4; version 6
 * is IPv4 only when byte 20 also reads as a 20-byte IPv4 header whose checksum is right; anything
 * else has no source GID we could trust.
 */
final class ReceivedGrh
{
    static final int LENGTH = 40;
    static final int IPV4_HEADER_OFFSET = 20;
    private static final int IPV4_HEADER_LENGTH = 20;
    private static final int IPV4_SOURCE_OFFSET = IPV4_HEADER_OFFSET + 12;
    /** Within the IPv4 header. */
    private static final int IPV4_CHECKSUM_FIELD = 10;
    private static final int SOURCE_GID_OFFSET = 8;
    private static final long IPV4_MAPPED_MARK = 0x0000_ffff_0000_0000L;

    private ReceivedGrh()
    {
    }

    /**
     * Sets {@code source} from the GRH area at {@code offset} and the completion's source LID and QP.
     *
     * @return false when the area is neither a GRH nor an IP header: then {@code source} has no GID.
     */
    static boolean readSource(final DirectBuffer buffer, final int offset, final int sourceLid, final int sourceQp,
        final MadSource source)
    {
        final int version = (buffer.getByte(offset) & 0xf0) >>> 4;
        final int ipv4VersionAndLength = buffer.getByte(offset + IPV4_HEADER_OFFSET) & 0xff;
        final boolean ipv4;
        if (version != 6)
        {
            ipv4 = ipv4VersionAndLength >>> 4 == 4;
            if (!ipv4)
            {
                source.set(sourceLid, sourceQp);
                return false;
            }
        }
        else
        {
            // The first byte of an IPv6 header can be any byte: only a valid IPv4 header at 20 is proof.
            ipv4 = ipv4VersionAndLength == 0x45 && ipv4ChecksumHolds(buffer, offset + IPV4_HEADER_OFFSET);
        }
        if (ipv4)
        {
            source.set(sourceLid, sourceQp, 0,
                IPV4_MAPPED_MARK | (buffer.getInt(offset + IPV4_SOURCE_OFFSET, BIG_ENDIAN) & 0xffff_ffffL));
        }
        else
        {
            source.set(sourceLid, sourceQp, buffer.getLong(offset + SOURCE_GID_OFFSET, BIG_ENDIAN),
                buffer.getLong(offset + SOURCE_GID_OFFSET + Long.BYTES, BIG_ENDIAN));
        }
        return true;
    }

    /** The ones' complement sum of the header's 16-bit words, its checksum field taken as 0, against that field. */
    static boolean ipv4ChecksumHolds(final DirectBuffer buffer, final int headerOffset)
    {
        int sum = 0;
        for (int i = 0; i < IPV4_HEADER_LENGTH; i += 2)
        {
            if (i != IPV4_CHECKSUM_FIELD)
            {
                sum += buffer.getShort(headerOffset + i, BIG_ENDIAN) & 0xffff;
            }
        }
        while ((sum >>> 16) != 0)
        {
            sum = (sum & 0xffff) + (sum >>> 16);
        }
        return ((~sum) & 0xffff) == (buffer.getShort(headerOffset + IPV4_CHECKSUM_FIELD, BIG_ENDIAN) & 0xffff);
    }
}
