package dev.rdmacm.protocol.capture;

import dev.rdmacm.protocol.MalformedMessageException;
import dev.rdmacm.protocol.mad.Gsi;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UdMadPacketTest
{
    private static UnsafeBuffer framed(final boolean withGrh)
    {
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[UdMadPacket.GLOBAL_FRAME_LENGTH]);
        final UdMadPacket packet = new UdMadPacket().wrapForFraming(frame, 0, withGrh);
        packet.lrh().dlid(1).slid(4);
        packet.bth().pkey(0xffff).destQp(1);
        packet.deth().qkey(Gsi.QKEY).sourceQp(1);
        return frame;
    }

    private static String rejection(final UnsafeBuffer frame, final int length)
    {
        return assertThrows(MalformedMessageException.class, () -> new UdMadPacket().wrap(frame, 0, length))
            .getMessage();
    }

    @Test
    void shouldLayOutALocalFrameAt290Bytes()
    {
        assertEquals(8, UdMadPacket.BTH_OFFSET_LOCAL);
        assertEquals(20, UdMadPacket.DETH_OFFSET_LOCAL);
        assertEquals(28, UdMadPacket.MAD_OFFSET_LOCAL);
        assertEquals(284, UdMadPacket.ICRC_OFFSET_LOCAL);
        assertEquals(288, UdMadPacket.VCRC_OFFSET_LOCAL);
        assertEquals(290, UdMadPacket.LOCAL_FRAME_LENGTH);
        assertEquals(72, UdMadPacket.LOCAL_PACKET_LENGTH_WORDS);
    }

    @Test
    void shouldLayOutAGlobalFrameAt330Bytes()
    {
        final UdMadPacket packet = new UdMadPacket().wrap(framed(true), 0, UdMadPacket.GLOBAL_FRAME_LENGTH);

        assertEquals(48, packet.bthOffset());
        assertEquals(68, packet.madOffset());
        assertEquals(328, packet.vcrcOffset());
        assertEquals(330, packet.frameLength());
        assertEquals(82, packet.lrh().packetLengthWords());
        assertEquals(280, packet.grh().payloadLength());
    }

    @Test
    void shouldReadBackTheFramedHeaders()
    {
        final UdMadPacket packet = new UdMadPacket().wrap(framed(false), 0, UdMadPacket.LOCAL_FRAME_LENGTH);

        assertFalse(packet.hasGrh());
        assertEquals(1, packet.lrh().dlid());
        assertEquals(4, packet.lrh().slid());
        assertEquals(BaseTransportHeader.OPCODE_UD_SEND_ONLY, packet.bth().opCode());
        assertEquals(0xffff, packet.bth().pkey());
        assertEquals(1, packet.bth().destQp());
        assertEquals(Gsi.QKEY, packet.deth().qkey());
        assertEquals(1, packet.deth().sourceQp());
        assertEquals(0, packet.invariantCrc());
        assertEquals(0, packet.variantCrc());
        assertEquals("UdMadPacket{LRH{VL=0, LVer=0, SL=0, LNH=2, DLID=1, PktLen=72, SLID=4}, BTH{OpCode=0x64, SE=false, " +
            "M=false, PadCnt=0, TVer=0, P_Key=0xffff, DestQP=0x1, A=false, PSN=0}, DETH{Q_Key=0x80010000, SrcQP=0x1}, " +
            "ICRC=0x0, VCRC=0x0}", packet.toString());
    }

    @Test
    void shouldRejectALinkNextHeaderThatIsNotIba()
    {
        final UnsafeBuffer frame = framed(false);
        new LocalRouteHeader().wrap(frame, 0).linkNextHeader(1);

        assertEquals("UD MAD packet: LRH LNH 1 is neither 2 (IBA local) nor 3 (IBA global)",
            rejection(frame, UdMadPacket.LOCAL_FRAME_LENGTH));
    }

    @Test
    void shouldRejectAPacketLengthThatDoesNotHoldOneMad()
    {
        final UnsafeBuffer frame = framed(false);
        new LocalRouteHeader().wrap(frame, 0).packetLengthWords(73);

        assertEquals("UD MAD packet: LRH PktLen 73 words, a UD packet with one 256-byte MAD has 72",
            rejection(frame, UdMadPacket.LOCAL_FRAME_LENGTH));
    }

    @Test
    void shouldRejectATruncatedFrame()
    {
        assertEquals("UD MAD packet: 289 bytes present, the format needs at least 290",
            rejection(framed(false), UdMadPacket.LOCAL_FRAME_LENGTH - 1));
    }

    @Test
    void shouldRejectAGrhWhoseNextHeaderIsNotIbaTransport()
    {
        final UnsafeBuffer frame = framed(true);
        new GlobalRouteHeader().wrap(frame, UdMadPacket.GRH_OFFSET).nextHeader(0x11);

        assertEquals("UD MAD packet: GRH NxtHdr 0x11 is not 0x1b (IBA transport)",
            rejection(frame, UdMadPacket.GLOBAL_FRAME_LENGTH));
    }

    @Test
    void shouldRejectAnOpCodeOtherThanUdSendOnly()
    {
        final UnsafeBuffer frame = framed(false);
        new BaseTransportHeader().wrap(frame, UdMadPacket.BTH_OFFSET_LOCAL).opCode(0x04);

        assertEquals("UD MAD packet: BTH OpCode 0x4 is not 0x64 (UD SEND Only)",
            rejection(frame, UdMadPacket.LOCAL_FRAME_LENGTH));
    }

    @Test
    void shouldRefuseTheGrhOfALocalFrame()
    {
        final UdMadPacket packet = new UdMadPacket().wrap(framed(false), 0, UdMadPacket.LOCAL_FRAME_LENGTH);

        assertTrue(assertThrows(IllegalStateException.class, packet::grh).getMessage().contains("no GRH"));
    }
}
