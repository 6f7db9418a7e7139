package dev.rdmacm.protocol.sa;

import dev.rdmacm.protocol.MalformedMessageException;
import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.protocol.mad.MadMethod;
import dev.rdmacm.protocol.mad.RmppHeader;
import dev.rdmacm.protocol.mad.RmppType;
import dev.rdmacm.testing.CHeaders;
import dev.rdmacm.testing.Peers;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SaMadTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[SaMad.LENGTH]);
    private final SaMad mad = new SaMad();

    @Test
    void shouldMatchUmadSaPacketLayout()
    {
        Peers.requireFile("/usr/include/infiniband/umad_sa.h", "libibumad-dev");
        CHeaders.assertValues("#include <infiniband/umad_sa.h>", Map.ofEntries(
            entry("sizeof(struct umad_sa_packet)", SaMad.LENGTH),
            entry("offsetof(struct umad_sa_packet, rmpp_hdr)", RmppHeader.VERSION_OFFSET),
            entry("offsetof(struct umad_sa_packet, sm_key)", SaMad.SM_KEY_OFFSET),
            entry("offsetof(struct umad_sa_packet, attr_offset)", SaMad.ATTRIBUTE_OFFSET_OFFSET),
            entry("offsetof(struct umad_sa_packet, reserved)", SaMad.RESERVED_OFFSET),
            entry("offsetof(struct umad_sa_packet, comp_mask)", SaMad.COMPONENT_MASK_OFFSET),
            entry("offsetof(struct umad_sa_packet, data)", SaMad.DATA_OFFSET),
            entry("UMAD_LEN_SA_DATA", SaMad.DATA_LENGTH),
            entry("UMAD_SA_CLASS_VERSION", SaMad.CLASS_VERSION)));
    }

    @Test
    void shouldMatchOpenSmSaMadLayout()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        CHeaders.assertValues("#include <iba/ib_types.h>", Map.ofEntries(
            entry("sizeof(ib_sa_mad_t)", SaMad.LENGTH),
            entry("offsetof(ib_sa_mad_t, sm_key)", SaMad.SM_KEY_OFFSET),
            entry("offsetof(ib_sa_mad_t, attr_offset)", SaMad.ATTRIBUTE_OFFSET_OFFSET),
            entry("offsetof(ib_sa_mad_t, resv3)", SaMad.RESERVED_OFFSET),
            entry("offsetof(ib_sa_mad_t, comp_mask)", SaMad.COMPONENT_MASK_OFFSET),
            entry("offsetof(ib_sa_mad_t, data)", SaMad.DATA_OFFSET),
            entry("IB_SA_DATA_SIZE", SaMad.DATA_LENGTH),
            entry("IB_SA_MAD_HDR_SIZE", SaMad.DATA_OFFSET)),
            CHeaders.OPENSM_FLAGS);
    }

    @Test
    void shouldEncodeTheBytesOfAPathRecordGetTableAsCBuildsThem()
    {
        Peers.requireFile("/usr/include/infiniband/umad_sa.h", "libibumad-dev");
        final String fromC = CHeaders.bytesOf("#include <infiniband/umad_sa.h>", """
              struct umad_sa_packet m;
              memset(&m, 0, sizeof(m));
              m.mad_hdr.base_version = UMAD_BASE_VERSION;
              m.mad_hdr.mgmt_class = UMAD_CLASS_SUBN_ADM;
              m.mad_hdr.class_version = UMAD_SA_CLASS_VERSION;
              m.mad_hdr.method = UMAD_SA_METHOD_GET_TABLE;
              m.mad_hdr.tid = htobe64(0x1122334455667788ULL);
              m.mad_hdr.attr_id = htobe16(UMAD_SA_ATTR_PATH_REC);
              uint64_t key = htobe64(0x0102030405060708ULL);
              memcpy(m.sm_key, &key, 8);
              m.attr_offset = htobe16(8);
              m.comp_mask = htobe64((1ULL << 2) | (1ULL << 3) | (1ULL << 12));
              m.data[0] = 0xab;
              m.data[199] = 0xcd;
            """, "m");

        mad.wrap(buffer, 0).initRequest(MadMethod.GET_TABLE, 0x1122_3344_5566_7788L, SaAttribute.PATH_RECORD)
            .smKey(0x0102_0304_0506_0708L).attributeOffset(PathRecord.LENGTH / SaMad.ATTRIBUTE_OFFSET_UNIT)
            .componentMask(PathRecordComponentMask.DGID | PathRecordComponentMask.SGID |
                PathRecordComponentMask.NUMB_PATH);
        buffer.putByte(mad.dataOffset(), (byte)0xab);
        buffer.putByte(mad.dataOffset() + SaMad.DATA_LENGTH - 1, (byte)0xcd);

        assertEquals(fromC, CHeaders.hex(buffer, 0, SaMad.LENGTH));
    }

    @Test
    void shouldRoundTripEveryClassHeaderFieldAtItsMaximum()
    {
        mad.wrap(buffer, 0).smKey(-1L).attributeOffset(0xffff).componentMask(-1L);

        mad.wrap(buffer, 0, SaMad.LENGTH);
        assertEquals(-1L, mad.smKey());
        assertEquals(0xffff, mad.attributeOffset());
        assertEquals(0xffff * 8, mad.attributeOffsetBytes());
        assertEquals(-1L, mad.componentMask());
    }

    @Test
    void shouldExposeTheCommonAndRmppHeadersOverTheSameBytes()
    {
        mad.wrap(buffer, 0).initRequest(MadMethod.GET, 7, SaAttribute.CLASS_PORT_INFO);
        mad.rmpp().type(RmppType.DATA);

        final MadHeader header = new MadHeader().wrap(buffer, 0, SaMad.LENGTH);
        assertEquals(SaAttribute.CLASS_PORT_INFO, header.attributeId());
        assertEquals(7L, header.transactionId());
        assertEquals(RmppType.DATA, buffer.getByte(RmppHeader.TYPE_OFFSET));
    }

    @Test
    void shouldPrintMethodStatusAttributeAndMaskByName()
    {
        mad.wrap(buffer, 0).initRequest(MadMethod.GET_TABLE_RESP, 0x10, SaAttribute.PATH_RECORD)
            .attributeOffset(8).componentMask(PathRecordComponentMask.DGID | PathRecordComponentMask.SGID);
        mad.header().status(SaStatus.toStatusWord(SaStatus.NO_RECORDS));

        assertEquals("SA{Method=GetTableResp, Status=ERR_NO_RECORDS, TransactionID=0x0000000000000010, " +
            "AttributeID=PathRecord, AttributeModifier=0x00000000, RMPP{RMPPVersion=0, RMPPType=NONE, RRespTime=0, " +
            "RMPPFlags=0x0, RMPPStatus=NORMAL, SegmentNumber=0, PayloadLength=0}, SM_Key=0x0000000000000000, " +
            "AttributeOffset=8, ComponentMask=0x000000000000000c (DGID|SGID)}", mad.toString());
    }

    @Test
    void shouldRejectAMadShorterThan256Bytes()
    {
        final MalformedMessageException ex = assertThrows(MalformedMessageException.class,
            () -> mad.wrap(buffer, 0, 255));

        assertEquals("SA MAD: 255 bytes present, the format needs at least 256", ex.getMessage());
    }
}
