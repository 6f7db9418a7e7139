package dev.rdmacm.protocol.mad;

import dev.rdmacm.protocol.MalformedMessageException;
import dev.rdmacm.testing.CHeaders;
import dev.rdmacm.testing.Peers;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RmppHeaderTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
    private final RmppHeader rmpp = new RmppHeader();

    @Test
    void shouldMatchUmadTypesLayout()
    {
        Peers.requireFile("/usr/include/infiniband/umad_types.h", "libibumad-dev");
        CHeaders.assertValues("#include <infiniband/umad_types.h>", Map.ofEntries(
            entry("offsetof(struct umad_rmpp_packet, rmpp_hdr)", RmppHeader.VERSION_OFFSET),
            entry("sizeof(struct umad_rmpp_hdr)", RmppHeader.LENGTH),
            entry("offsetof(struct umad_rmpp_hdr, rmpp_version) + 24", RmppHeader.VERSION_OFFSET),
            entry("offsetof(struct umad_rmpp_hdr, rmpp_type) + 24", RmppHeader.TYPE_OFFSET),
            entry("offsetof(struct umad_rmpp_hdr, rmpp_rtime_flags) + 24", RmppHeader.RESP_TIME_FLAGS_OFFSET),
            entry("offsetof(struct umad_rmpp_hdr, rmpp_status) + 24", RmppHeader.STATUS_OFFSET),
            entry("offsetof(struct umad_rmpp_hdr, seg_num) + 24", RmppHeader.SEGMENT_NUMBER_OFFSET),
            entry("offsetof(struct umad_rmpp_hdr, paylen_newwin) + 24", RmppHeader.PAYLOAD_LENGTH_OFFSET),
            entry("offsetof(struct umad_rmpp_packet, data)", RmppHeader.END_OFFSET),
            entry("UMAD_RMPP_VERSION", RmppHeader.VERSION),
            entry("UMAD_RMPP_FLAG_ACTIVE", RmppHeader.FLAG_ACTIVE),
            entry("UMAD_LEN_RMPP_DATA", MadHeader.MAD_SIZE - RmppHeader.END_OFFSET)));
    }

    @Test
    void shouldMatchOpenSmRmppConstants()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        CHeaders.assertValues("#include <iba/ib_types.h>", Map.ofEntries(
            entry("offsetof(ib_rmpp_mad_t, rmpp_version)", RmppHeader.VERSION_OFFSET),
            entry("offsetof(ib_rmpp_mad_t, rmpp_flags)", RmppHeader.RESP_TIME_FLAGS_OFFSET),
            entry("offsetof(ib_rmpp_mad_t, seg_num)", RmppHeader.SEGMENT_NUMBER_OFFSET),
            entry("offsetof(ib_rmpp_mad_t, paylen_newwin)", RmppHeader.PAYLOAD_LENGTH_OFFSET),
            entry("sizeof(ib_rmpp_mad_t)", RmppHeader.END_OFFSET),
            entry("IB_RMPP_TYPE_DATA", RmppType.DATA),
            entry("IB_RMPP_TYPE_ACK", RmppType.ACK),
            entry("IB_RMPP_TYPE_STOP", RmppType.STOP),
            entry("IB_RMPP_TYPE_ABORT", RmppType.ABORT),
            entry("IB_RMPP_NO_RESP_TIME", RmppHeader.NO_RESP_TIME),
            entry("IB_RMPP_FLAG_ACTIVE", RmppHeader.FLAG_ACTIVE),
            entry("IB_RMPP_FLAG_FIRST", RmppHeader.FLAG_FIRST),
            entry("IB_RMPP_FLAG_LAST", RmppHeader.FLAG_LAST),
            entry("IB_RMPP_STATUS_SUCCESS", RmppStatus.NORMAL),
            entry("IB_RMPP_STATUS_RESX", RmppStatus.RESOURCES_EXHAUSTED),
            entry("IB_RMPP_STATUS_T2L", RmppStatus.TOTAL_TIME_TOO_LONG),
            entry("IB_RMPP_STATUS_BAD_LEN", RmppStatus.INCONSISTENT_LAST_AND_PAYLOAD_LENGTH),
            entry("IB_RMPP_STATUS_BAD_SEG", RmppStatus.INCONSISTENT_FIRST_AND_SEGMENT),
            entry("IB_RMPP_STATUS_BADT", RmppStatus.BAD_RMPP_TYPE),
            entry("IB_RMPP_STATUS_W2S", RmppStatus.NEW_WINDOW_LAST_TOO_SMALL),
            entry("IB_RMPP_STATUS_S2B", RmppStatus.SEGMENT_NUMBER_TOO_BIG),
            entry("IB_RMPP_STATUS_BAD_STATUS", RmppStatus.ILLEGAL_STATUS),
            entry("IB_RMPP_STATUS_UNV", RmppStatus.UNSUPPORTED_VERSION),
            entry("IB_RMPP_STATUS_TMR", RmppStatus.TOO_MANY_RETRIES),
            entry("IB_RMPP_STATUS_UNSPEC", RmppStatus.UNSPECIFIED)),
            CHeaders.OPENSM_FLAGS);
    }

    @Test
    void shouldEncodeTheBytesOpenSmSettersBuild()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        final String fromC = CHeaders.bytesOf("#include <iba/ib_types.h>", """
              ib_rmpp_mad_t m;
              memset(&m, 0, sizeof(m));
              m.rmpp_version = 1;
              m.rmpp_type = IB_RMPP_TYPE_DATA;
              m.rmpp_flags = IB_RMPP_FLAG_ACTIVE | IB_RMPP_FLAG_FIRST;
              ib_rmpp_set_resp_time(&m, 0x13);
              m.rmpp_status = 0;
              m.seg_num = cl_hton32(1);
              m.paylen_newwin = cl_hton32(0x2c0);
            """, "m", CHeaders.OPENSM_FLAGS);

        rmpp.wrap(buffer, 0).version(RmppHeader.VERSION).type(RmppType.DATA).respTime(0x13)
            .flags(RmppHeader.FLAG_ACTIVE | RmppHeader.FLAG_FIRST).status(RmppStatus.NORMAL).segmentNumber(1)
            .payloadLength(0x2c0);

        assertEquals(fromC, CHeaders.hex(buffer, 0, RmppHeader.END_OFFSET));
    }

    @Test
    void shouldKeepRespTimeAndFlagsApart()
    {
        rmpp.wrap(buffer, 0).respTime(RmppHeader.NO_RESP_TIME).flags(0);
        assertEquals(0xf8, buffer.getByte(RmppHeader.RESP_TIME_FLAGS_OFFSET) & 0xff);

        rmpp.respTime(0).flags(RmppHeader.FLAGS_MASK);
        assertEquals(0x07, buffer.getByte(RmppHeader.RESP_TIME_FLAGS_OFFSET) & 0xff);
        assertTrue(rmpp.isActive());
        assertTrue(rmpp.isFirst());
        assertTrue(rmpp.isLast());
        assertEquals(0, rmpp.respTime());
    }

    @Test
    void shouldRoundTripEveryFieldAtItsMaximum()
    {
        rmpp.wrap(buffer, 0).version(0xff).type(0xff).respTime(0x1f).flags(0x7).status(0xff)
            .segmentNumber(0xffff_ffffL).newWindowLast(0xffff_ffffL);

        rmpp.wrap(buffer, 0, MadHeader.MAD_SIZE);
        assertEquals(0xff, rmpp.version());
        assertEquals(0xff, rmpp.type());
        assertEquals(0x1f, rmpp.respTime());
        assertEquals(0x7, rmpp.flags());
        assertEquals(0xff, rmpp.status());
        assertEquals(0xffff_ffffL, rmpp.segmentNumber());
        assertEquals(0xffff_ffffL, rmpp.payloadLength());
    }

    @Test
    void shouldClearToTheAllZeroHeaderOfANonRmppMad()
    {
        buffer.setMemory(0, MadHeader.MAD_SIZE, (byte)0xff);

        rmpp.wrap(buffer, 0).clear();

        assertEquals("ff".repeat(24) + "00".repeat(12) + "ff", CHeaders.hex(buffer, 0, 37));
        assertFalse(rmpp.isActive());
    }

    @Test
    void shouldPrintTheFieldNamesWiresharkUses()
    {
        rmpp.wrap(buffer, 0).version(1).type(RmppType.ACK).respTime(0x1f).flags(RmppHeader.FLAG_ACTIVE)
            .segmentNumber(3).newWindowLast(5);

        assertEquals("RMPP{RMPPVersion=1, RMPPType=ACK, RRespTime=31, RMPPFlags=0x1 (Active), RMPPStatus=NORMAL, " +
            "SegmentNumber=3, NewWindowLast=5}", rmpp.toString());
    }

    @Test
    void shouldNameTypesAndStatuses()
    {
        assertEquals("STOP", RmppType.name(3));
        assertEquals("RESERVED(9)", RmppType.name(9));
        assertEquals("SEGMENT_NUMBER_TOO_BIG", RmppStatus.name(123));
        assertEquals("RESERVED(50)", RmppStatus.name(50));
        assertEquals("CLASS_SPECIFIC(200)", RmppStatus.name(200));
    }

    @Test
    void shouldRejectAMadThatEndsInsideTheRmppHeader()
    {
        final MalformedMessageException ex = assertThrows(MalformedMessageException.class,
            () -> rmpp.wrap(buffer, 0, 30));

        assertEquals("RMPP header: 30 bytes present, the format needs at least 36", ex.getMessage());
    }
}
