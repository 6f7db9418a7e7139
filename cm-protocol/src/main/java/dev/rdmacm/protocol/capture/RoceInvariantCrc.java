package dev.rdmacm.protocol.capture;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.util.zip.CRC32;

/**
 * The Invariant CRC of a RoCE v2 packet (IBA Annex A17, RoCEv2, A17.5.3): the CRC-32 of the Ethernet
 * polynomial over the packet from the IP header to the end of the payload, with every field a router
 * may change masked to ones and 64 bits of ones standing in front for the LRH that RoCE does not have.
 * <pre>
 *   covered: 8 x 0xff | IP header | UDP header | BTH | DETH ... payload      (not the Ethernet header)
 *   masked to ones:
 *     IPv4  Type of Service (1), Time to Live (1), Header Checksum (2)
 *     IPv6  Traffic Class and Flow Label (the 28 bits after Version), Hop Limit (1)
 *     UDP   Checksum (2)
 *     BTH   the byte before the Destination QP (FECN, BECN, Resv6) at BTH offset 4
 * </pre>
 * The result is the CRC's final (complemented) value, and it goes on the wire least significant byte
 * first, as an Ethernet FCS does: rxe stores {@code ~crc32_le(...)} in CPU order (rxe_icrc.c), and
 * {@code RoceInvariantCrcTest} checks this against frames that rxe sent.
 * <p>
 * One scratch array per instance, no allocation per packet; not thread-safe.
 */
public final class RoceInvariantCrc
{
    public static final int LENGTH = 4;
    /** The LRH's place in a RoCE v2 ICRC: 64 bits of ones. */
    public static final int LRH_PLACEHOLDER_LENGTH = 8;
    public static final int IPV4_TOS_OFFSET = 1;
    public static final int IPV4_TTL_OFFSET = 8;
    public static final int IPV4_CHECKSUM_OFFSET = 10;
    public static final int IPV6_HOP_LIMIT_OFFSET = 7;
    public static final int UDP_CHECKSUM_OFFSET = 6;
    public static final int BTH_RESERVED_OFFSET = 4;
    private static final byte ONES = (byte)0xff;

    private final CRC32 crc = new CRC32();
    private final byte[] scratch = new byte[RoceV2MadFrame.IPV6_FRAME_LENGTH + LRH_PLACEHOLDER_LENGTH];

    /**
     * The ICRC of the RoCE v2 packet whose IP header starts at {@code ipOffset} and whose ICRC (not
     * covered) starts at {@code icrcOffset}.
     *
     * @param ipv6 whether the IP header is IPv6 (40 bytes) rather than IPv4 (its IHL gives its length).
     * @throws IllegalArgumentException when the range is too short for the headers or too long for a MAD packet.
     */
    public int compute(final DirectBuffer frame, final int ipOffset, final int icrcOffset, final boolean ipv6)
    {
        final int ipLength = ipv6 ? RoceV2MadFrame.IPV6_HEADER_LENGTH : (frame.getByte(ipOffset) & 0x0f) * 4;
        final int udpOffset = ipOffset + ipLength;
        final int bthOffset = udpOffset + RoceV2MadFrame.UDP_HEADER_LENGTH;
        final int covered = icrcOffset - ipOffset;
        if (covered < ipLength + RoceV2MadFrame.UDP_HEADER_LENGTH + BaseTransportHeader.LENGTH
            || covered + LRH_PLACEHOLDER_LENGTH > scratch.length)
        {
            throw new IllegalArgumentException("ICRC over " + covered + " bytes from the IP header: a RoCE v2 MAD packet has "
                + "IP, UDP and BTH headers and at most " + (scratch.length - LRH_PLACEHOLDER_LENGTH) + " bytes");
        }
        for (int i = 0; i < LRH_PLACEHOLDER_LENGTH; i++)
        {
            scratch[i] = ONES;
        }
        frame.getBytes(ipOffset, scratch, LRH_PLACEHOLDER_LENGTH, covered);
        final int ip = LRH_PLACEHOLDER_LENGTH;
        if (ipv6)
        {
            // Version stays; Traffic Class and Flow Label are the low 4 bits of byte 0 and bytes 1-3
            scratch[ip] |= 0x0f;
            scratch[ip + 1] = ONES;
            scratch[ip + 2] = ONES;
            scratch[ip + 3] = ONES;
            scratch[ip + IPV6_HOP_LIMIT_OFFSET] = ONES;
        }
        else
        {
            scratch[ip + IPV4_TOS_OFFSET] = ONES;
            scratch[ip + IPV4_TTL_OFFSET] = ONES;
            scratch[ip + IPV4_CHECKSUM_OFFSET] = ONES;
            scratch[ip + IPV4_CHECKSUM_OFFSET + 1] = ONES;
        }
        final int udp = ip + (udpOffset - ipOffset);
        scratch[udp + UDP_CHECKSUM_OFFSET] = ONES;
        scratch[udp + UDP_CHECKSUM_OFFSET + 1] = ONES;
        scratch[ip + (bthOffset - ipOffset) + BTH_RESERVED_OFFSET] = ONES;
        crc.reset();
        crc.update(scratch, 0, LRH_PLACEHOLDER_LENGTH + covered);
        return (int)crc.getValue();
    }

    /** The ICRC as it is stored in the frame at {@code icrcOffset}: least significant byte first. */
    public static int stored(final DirectBuffer frame, final int icrcOffset)
    {
        return frame.getInt(icrcOffset, ByteOrder.LITTLE_ENDIAN);
    }
}
