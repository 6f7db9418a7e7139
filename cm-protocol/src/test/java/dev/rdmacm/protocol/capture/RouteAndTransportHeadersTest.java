package dev.rdmacm.protocol.capture;

import dev.rdmacm.protocol.mad.Gsi;
import org.agrona.BitUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every field of LRH, GRH, BTH and DETH at its maximum, and the big-endian bytes of typical values. */
class RouteAndTransportHeadersTest
{
    @Test
    void shouldRoundTripLrhFieldsAtTheirMaximum()
    {
        final LocalRouteHeader lrh = new LocalRouteHeader().wrap(new UnsafeBuffer(new byte[8]), 0)
            .virtualLane(15).linkVersion(15).serviceLevel(15).linkNextHeader(3).dlid(0xffff)
            .packetLengthWords(0x7ff).slid(0xffff);

        assertEquals("LRH{VL=15, LVer=15, SL=15, LNH=3, DLID=65535, PktLen=2047, SLID=65535}", lrh.toString());
    }

    @Test
    void shouldWriteLrhBigEndian()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[8]);
        new LocalRouteHeader().wrap(buffer, 0).virtualLane(15).linkVersion(1).serviceLevel(2)
            .linkNextHeader(2).dlid(0x1234).packetLengthWords(72).slid(0x5678);

        assertEquals("f12212340048" + "5678", BitUtil.toHex(buffer.byteArray()));
    }

    @Test
    void shouldRoundTripGrhFieldsAtTheirMaximum()
    {
        final GlobalRouteHeader grh = new GlobalRouteHeader().wrap(new UnsafeBuffer(new byte[40]), 0)
            .ipVersion(15).trafficClass(0xff).flowLabel(0xf_ffff).payloadLength(0xffff).nextHeader(0xff)
            .hopLimit(0xff).sgid(-1L, -1L).dgid(-1L, -2L);

        assertEquals(15, grh.ipVersion());
        assertEquals(0xff, grh.trafficClass());
        assertEquals(0xf_ffff, grh.flowLabel());
        assertEquals(0xffff, grh.payloadLength());
        assertEquals(0xff, grh.nextHeader());
        assertEquals(0xff, grh.hopLimit());
        assertEquals(-1L, grh.sgidSubnetPrefix());
        assertEquals(-1L, grh.sgidInterfaceId());
        assertEquals(-1L, grh.dgidSubnetPrefix());
        assertEquals(-2L, grh.dgidInterfaceId());
    }

    @Test
    void shouldWriteGrhBigEndian()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[40]);
        new GlobalRouteHeader().wrap(buffer, 0).ipVersion(6).trafficClass(0xab).flowLabel(0x12345)
            .payloadLength(280).nextHeader(0x1b).hopLimit(64).sgid(0xfe80_0000_0000_0000L, 1).dgid(0, 0x0102);

        assertEquals("6ab12345" + "01181b40" + "fe800000000000000000000000000001" +
            "00000000000000000000000000000102", BitUtil.toHex(buffer.byteArray()));
        assertTrue(new GlobalRouteHeader().wrap(buffer, 0, 40).toString().contains("SGID=fe80::1, DGID=::102"));
    }

    @Test
    void shouldRoundTripBthFieldsAtTheirMaximum()
    {
        final BaseTransportHeader bth = new BaseTransportHeader().wrap(new UnsafeBuffer(new byte[12]), 0)
            .opCode(0xff).solicitedEvent(true).migrationRequest(true).padCount(3).transportVersion(15)
            .pkey(0xffff).destQp(0xff_ffff).ackRequest(true).psn(0xff_ffff);

        assertEquals("BTH{OpCode=0xff, SE=true, M=true, PadCnt=3, TVer=15, P_Key=0xffff, DestQP=0xffffff, A=true, " +
            "PSN=16777215}", bth.toString());
    }

    @Test
    void shouldWriteBthBigEndian()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[12]);
        new BaseTransportHeader().wrap(buffer, 0).opCode(0x64).solicitedEvent(true).padCount(2).pkey(0x8001)
            .destQp(0x123456).psn(0xabcdef).ackRequest(true);

        assertEquals("64a08001" + "00123456" + "80abcdef", BitUtil.toHex(buffer.byteArray()));
    }

    @Test
    void shouldRoundTripDethFieldsAtTheirMaximum()
    {
        final DatagramExtendedTransportHeader deth = new DatagramExtendedTransportHeader()
            .wrap(new UnsafeBuffer(new byte[8]), 0).qkey(0xffff_ffffL).sourceQp(0xff_ffff);

        assertEquals(0xffff_ffffL, deth.qkey());
        assertEquals(0xff_ffff, deth.sourceQp());
    }

    @Test
    void shouldWriteDethBigEndian()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[8]);
        new DatagramExtendedTransportHeader().wrap(buffer, 0).qkey(Gsi.QKEY)
            .sourceQp(0x000abc);

        assertEquals("80010000" + "00000abc", BitUtil.toHex(buffer.byteArray()));
    }
}
