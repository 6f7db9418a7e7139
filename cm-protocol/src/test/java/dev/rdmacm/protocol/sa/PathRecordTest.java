package dev.rdmacm.protocol.sa;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.MalformedMessageException;
import dev.rdmacm.testing.CHeaders;
import dev.rdmacm.testing.Peers;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PathRecordTest
{
    private static final String IB_TYPES = "#include <iba/ib_types.h>";

    /** A C body that fills {@code r} with the values of {@link #encodeSameValues} through OpenSM's own setters. */
    private static final String OPENSM_FILL = """
          ib_gid_t dgid, sgid;
          dgid.unicast.prefix = cl_hton64(0xfe80000000000000ULL);
          dgid.unicast.interface_id = cl_hton64(0x0002c90300a1b2c3ULL);
          sgid.unicast.prefix = cl_hton64(0xfec0000000000001ULL);
          sgid.unicast.interface_id = cl_hton64(0x0002c90300d4e5f6ULL);
          ib_path_rec_t r;
          memset(&r, 0, sizeof(r));
          ib_path_rec_init_local(&r, &dgid, &sgid, cl_hton16(0x1234), cl_hton16(0x0bcd), 0x80 | 0x05,
              cl_hton16(0x8001), 0xd, 0xabc, 2, 4, 3, 16, 1, 0x12, 0x77);
          r.service_id = cl_hton64(0x0000000001064853ULL);
          r.hop_flow_raw = cl_hton32((1u << 31) | (0xabcdeu << 8) | 0x40);
          r.tclass = 0x5a;
        """;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[PathRecord.LENGTH]);
    private final PathRecord record = new PathRecord();

    @Test
    void shouldMatchOpenSmPathRecordLayout()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        CHeaders.assertValues(IB_TYPES, Map.ofEntries(
            entry("sizeof(ib_path_rec_t)", PathRecord.LENGTH),
            entry("offsetof(ib_path_rec_t, service_id)", PathRecord.SERVICE_ID_OFFSET),
            entry("offsetof(ib_path_rec_t, dgid)", PathRecord.DGID_OFFSET),
            entry("offsetof(ib_path_rec_t, sgid)", PathRecord.SGID_OFFSET),
            entry("offsetof(ib_path_rec_t, dlid)", PathRecord.DLID_OFFSET),
            entry("offsetof(ib_path_rec_t, slid)", PathRecord.SLID_OFFSET),
            entry("offsetof(ib_path_rec_t, hop_flow_raw)", PathRecord.FLOW_LABEL_HOP_LIMIT_OFFSET),
            entry("offsetof(ib_path_rec_t, tclass)", PathRecord.TCLASS_OFFSET),
            entry("offsetof(ib_path_rec_t, num_path)", PathRecord.REVERSIBLE_NUMB_PATH_OFFSET),
            entry("offsetof(ib_path_rec_t, pkey)", PathRecord.P_KEY_OFFSET),
            entry("offsetof(ib_path_rec_t, qos_class_sl)", PathRecord.QOS_CLASS_SL_OFFSET),
            entry("offsetof(ib_path_rec_t, mtu)", PathRecord.MTU_OFFSET),
            entry("offsetof(ib_path_rec_t, rate)", PathRecord.RATE_OFFSET),
            entry("offsetof(ib_path_rec_t, pkt_life)", PathRecord.PACKET_LIFE_TIME_OFFSET),
            entry("offsetof(ib_path_rec_t, preference)", PathRecord.PREFERENCE_OFFSET),
            entry("offsetof(ib_path_rec_t, resv2)", PathRecord.RESERVED_OFFSET),
            entry("sizeof(((ib_path_rec_t *)0)->resv2)", PathRecord.RESERVED_LENGTH),
            entry("IB_PATH_REC_SL_MASK", (1 << PathProperties.SL_WIDTH) - 1),
            entry("IB_PATH_REC_QOS_CLASS_MASK", ((1 << PathProperties.QOS_CLASS_WIDTH) - 1) << PathProperties.QOS_CLASS_SHIFT),
            entry("IB_PATH_REC_SELECTOR_MASK", 3 << Selector.SHIFT),
            entry("IB_PATH_REC_BASE_MASK", Selector.CODE_MASK)),
            CHeaders.OPENSM_FLAGS);
    }

    @Test
    void shouldEncodeTheBytesOpenSmBuildsForTheSameValues()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        final String fromC = CHeaders.bytesOf(IB_TYPES, OPENSM_FILL, "r", CHeaders.OPENSM_FLAGS);

        encodeSameValues();

        assertEquals(fromC, CHeaders.hex(buffer, 0, PathRecord.LENGTH));
    }

    @Test
    void shouldDecodeWhatOpenSmGettersRead()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        final String output = dev.rdmacm.testing.CProgram.compileAndRun(
            "#include <stdio.h>\n#include <string.h>\n" + IB_TYPES + "\nint main(void) {\n" + OPENSM_FILL + """
                  printf("%u %u %u %u %u %u %u %u %u %u %u %u\\n", ib_path_rec_flow_lbl(&r), ib_path_rec_hop_limit(&r),
                    ib_path_rec_num_path(&r), ib_path_rec_sl(&r), ib_path_rec_qos_class(&r), ib_path_rec_mtu(&r),
                    ib_path_rec_mtu_sel(&r), ib_path_rec_rate(&r), ib_path_rec_rate_sel(&r), ib_path_rec_pkt_life(&r),
                    ib_path_rec_pkt_life_sel(&r), cl_ntoh16(r.pkey));
                  return 0;
                }
                """, CHeaders.OPENSM_FLAGS);

        encodeSameValues();
        record.wrap(buffer, 0, PathRecord.LENGTH);

        assertEquals(output.strip(), String.format("%d %d %d %d %d %d %d %d %d %d %d %d",
            record.flowLabel(), record.hopLimit(), record.numbPath(), record.sl(), record.qosClass(), record.mtu(),
            record.mtuSelector(), record.rate(), record.rateSelector(), record.packetLifeTime(),
            record.packetLifeTimeSelector(), record.pKey()));
    }

    @Test
    void shouldRoundTripEveryFieldAtItsMaximum()
    {
        record.wrap(buffer, 0).clear()
            .serviceId(-1L).dgid(-1L, -1L).sgid(-1L, -1L).dlid(0xffff).slid(0xffff).rawTraffic(true)
            .flowLabel(0xfffff).hopLimit(0xff).tClass(0xff).reversible(true).numbPath(0x7f).pKey(0xffff)
            .qosClass(0xfff).sl(0xf).mtuSelector(Selector.LARGEST_AVAILABLE).mtu(0x3f)
            .rateSelector(Selector.LARGEST_AVAILABLE).rate(0x3f).packetLifeTimeSelector(Selector.LARGEST_AVAILABLE)
            .packetLifeTime(0x3f).preference(0xff);

        record.wrap(buffer, 0, PathRecord.LENGTH);
        assertEquals(-1L, record.serviceId());
        assertEquals(new Gid(-1L, -1L), record.dgid());
        assertEquals(-1L, record.sgidPrefix());
        assertEquals(-1L, record.sgidInterfaceId());
        assertEquals(0xffff, record.dlid());
        assertEquals(0xffff, record.slid());
        assertTrue(record.rawTraffic());
        assertEquals(0xfffff, record.flowLabel());
        assertEquals(0xff, record.hopLimit());
        assertEquals(0xff, record.tClass());
        assertTrue(record.reversible());
        assertEquals(0x7f, record.numbPath());
        assertEquals(0xffff, record.pKey());
        assertEquals(0xfff, record.qosClass());
        assertEquals(0xf, record.sl());
        assertEquals(3, record.mtuSelector());
        assertEquals(0x3f, record.mtu());
        assertEquals(3, record.rateSelector());
        assertEquals(0x3f, record.rate());
        assertEquals(3, record.packetLifeTimeSelector());
        assertEquals(0x3f, record.packetLifeTime());
        assertEquals(0xff, record.preference());
    }

    @Test
    void shouldLeaveOnlyReservedBitsSetWhenEveryFieldIsZeroedOverOnes()
    {
        buffer.setMemory(0, PathRecord.LENGTH, (byte)0xff);
        record.wrap(buffer, 0)
            .serviceId(0).dgid(0, 0).sgid(0, 0).dlid(0).slid(0).rawTraffic(false).flowLabel(0).hopLimit(0)
            .tClass(0).reversible(false).numbPath(0).pKey(0).qosClass(0).sl(0).mtuSelector(Selector.GREATER_THAN)
            .mtu(0).rateSelector(Selector.GREATER_THAN).rate(0).packetLifeTimeSelector(Selector.GREATER_THAN)
            .packetLifeTime(0).preference(0);

        final byte[] expected = new byte[PathRecord.LENGTH];
        expected[PathRecord.FLOW_LABEL_HOP_LIMIT_OFFSET] = 0x70;
        for (int i = PathRecord.RESERVED_OFFSET; i < PathRecord.LENGTH; i++)
        {
            expected[i] = (byte)0xff;
        }
        assertArrayEquals(expected, buffer.byteArray());
    }

    @Test
    void shouldKeepNeighbouringBitFieldsApart()
    {
        record.wrap(buffer, 0).clear().flowLabel(0xfffff);
        assertEquals("0fffff00", CHeaders.hex(buffer, PathRecord.FLOW_LABEL_HOP_LIMIT_OFFSET, 4));

        record.clear().qosClass(1).sl(0);
        assertEquals("0010", CHeaders.hex(buffer, PathRecord.QOS_CLASS_SL_OFFSET, 2));

        record.clear().rateSelector(Selector.EXACTLY).rate(0);
        assertEquals("80", CHeaders.hex(buffer, PathRecord.RATE_OFFSET, 1));
    }

    @Test
    void shouldPrintTheFieldNamesWiresharkUses()
    {
        encodeSameValues();

        assertEquals("PathRecord{ServiceID=0x0000000001064853, DGID=fe80::2:c903:a1:b2c3, " +
            "SGID=fec0::1:2:c903:d4:e5f6, DLID=4660, SLID=3021, FlowLabel=0xabcde, HopLimit=64, TClass=90, " +
            "Reversible=1, NumbPath=5, P_Key=0x8001, QoSClass=2748, SL=13, MTUSelector=2 (=), MTU=4 (2048), " +
            "RateSelector=3 (best), Rate=16 (100 Gb/s), PacketLifeTimeSelector=1 (<), PacketLifeTime=18 (1.07 s), " +
            "Preference=119, RawTraffic=1}", record.toString());
    }

    @Test
    void shouldRejectARecordShorterThan64Bytes()
    {
        final MalformedMessageException ex = assertThrows(MalformedMessageException.class,
            () -> record.wrap(buffer, 0, 63));

        assertEquals("PathRecord: 63 bytes present, the format needs at least 64", ex.getMessage());
    }

    @Test
    void shouldRejectALengthThatRunsPastTheBuffer()
    {
        final MalformedMessageException ex = assertThrows(MalformedMessageException.class,
            () -> record.wrap(buffer, 8, 64));

        assertEquals("PathRecord: 64 bytes at offset 8 do not fit in a buffer of 64 bytes", ex.getMessage());
    }

    @Test
    void shouldRejectANegativeOffset()
    {
        final MalformedMessageException ex = assertThrows(MalformedMessageException.class,
            () -> record.wrap(buffer, -1, 64));

        assertEquals("PathRecord: 64 bytes at offset -1 do not fit in a buffer of 64 bytes", ex.getMessage());
    }

    @Test
    void shouldReadGidHalvesWithoutTheValueObject()
    {
        record.wrap(buffer, 0).clear().dgid(Gid.parse("fe80::10:4"));

        assertEquals(Gid.LINK_LOCAL_PREFIX, record.dgidPrefix());
        assertEquals(0x0000_0000_0010_0004L, record.dgidInterfaceId());
        assertFalse(record.rawTraffic());
    }

    private void encodeSameValues()
    {
        record.wrap(buffer, 0).clear()
            .serviceId(0x0000_0000_0106_4853L)
            .dgid(0xfe80_0000_0000_0000L, 0x0002_c903_00a1_b2c3L)
            .sgid(0xfec0_0000_0000_0001L, 0x0002_c903_00d4_e5f6L)
            .dlid(0x1234).slid(0x0bcd).rawTraffic(true).flowLabel(0xabcde).hopLimit(0x40).tClass(0x5a)
            .reversible(true).numbPath(5).pKey(0x8001).qosClass(0xabc).sl(0xd)
            .mtuSelector(Selector.EXACTLY).mtu(MtuCode.MTU_2048.code())
            .rateSelector(Selector.LARGEST_AVAILABLE).rate(RateCode.RATE_100_GBPS.code())
            .packetLifeTimeSelector(Selector.LESS_THAN).packetLifeTime(0x12).preference(0x77);
    }
}
