package dev.rdmacm.sa.transport.verbs;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.sa.transport.MadSource;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The 40 bytes in front of a received datagram, as providers write them; the in-guest tests read
 * the real ones rxe writes.
 */
class ReceivedGrhTest
{
    /**
     * 20 zero bytes, then an IPv4 header as rxe copies it for a MAD: 308 bytes (UDP, BTH, DETH, MAD,
     * ICRC), don't fragment, TTL 64, UDP, 10.10.0.2 to 10.10.0.1, checksum 0x25a3.
     */
    private static final String ROCE_V2_IPV4 = "0000000000000000000000000000000000000000" +
        "4500013400004000401125a30a0a00020a0a0001";
    /** An IB GRH (IPVer 6, NxtHdr 0x1b, HopLmt 1), SGID fe80::2:c903:a1:b2c5, DGID fe80::2:c903:a1:b2c6. */
    private static final String IB_GRH = "60000000011c1b01" + "fe800000000000000002c90300a1b2c5" + "fe800000000000000002c90300a1b2c6";

    @Test
    void shouldReadTheIpv4SourceOfARoceV2DatagramAsAnIpv4MappedGid()
    {
        final MadSource source = read(ROCE_V2_IPV4);

        assertEquals(Gid.parse("::ffff:10.10.0.2"), source.gid());
        assertEquals("GID ::ffff:10.10.0.2 LID 0 QP 1", source.toString());
    }

    @Test
    void shouldReadTheSgidOfAGrh()
    {
        assertEquals(Gid.parse("fe80::2:c903:a1:b2c5"), read(IB_GRH).gid());
    }

    @Test
    void shouldTakeAnIpv6HeaderWhoseTailLooksLikeIpv4ForIpv6WhenTheChecksumIsWrong()
    {
        // bytes 20.. of this GRH start 0x45, but the "IPv4 checksum" does not hold: it is an SGID.
        final String grh = "60000000011c1b01" + "fe80000000000000000000004500012c" + "fe800000000000000002c90300a1b2c6";

        assertEquals(Gid.parse("fe80::4500:12c"), read(grh).gid());
    }

    @Test
    void shouldHaveNoSourceGidForBytesThatAreNeitherHeader()
    {
        final MadSource source = new MadSource();

        assertFalse(ReceivedGrh.readSource(new UnsafeBuffer(new byte[40]), 0, 0, 1, source));
        assertFalse(source.hasGid());
    }

    @Test
    void shouldCheckTheIpv4HeaderChecksumAsRfc791Says()
    {
        final byte[] header = HexFormat.of().parseHex(ROCE_V2_IPV4);

        assertTrue(ReceivedGrh.ipv4ChecksumHolds(new UnsafeBuffer(header), ReceivedGrh.IPV4_HEADER_OFFSET));
        header[ReceivedGrh.IPV4_HEADER_OFFSET + 8]--;
        assertFalse(ReceivedGrh.ipv4ChecksumHolds(new UnsafeBuffer(header), ReceivedGrh.IPV4_HEADER_OFFSET));
    }

    private static MadSource read(final String hex)
    {
        final MadSource source = new MadSource();
        assertTrue(ReceivedGrh.readSource(new UnsafeBuffer(HexFormat.of().parseHex(hex)), 0, 0, 1, source));
        return source;
    }
}
