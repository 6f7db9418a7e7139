package dev.rdmacm.protocol.sa;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.MalformedMessageException;
import dev.rdmacm.testing.CHeaders;
import dev.rdmacm.testing.CProgram;
import dev.rdmacm.testing.Peers;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MultiPathRecordTest
{
    private static final String IB_TYPES = "#include <iba/ib_types.h>";

    private static final String OPENSM_FILL = """
          ib_multipath_rec_t m;
          memset(&m, 0, sizeof(m));
          m.hop_flow_raw = cl_hton32((1u << 31) | (0x54321u << 8) | 0x02);
          m.tclass = 0x11;
          m.num_path = 0x80 | 4;
          m.pkey = cl_hton16(0xffff);
          ib_multipath_rec_set_qos_class(&m, 0x5a5);
          ib_multipath_rec_set_sl(&m, 0x9);
          m.mtu = (2 << 6) | 4;
          m.rate = (3 << 6) | 12;
          m.pkt_life = (1 << 6) | 19;
          m.independence = 0x80;
          m.sgid_count = 2;
          m.dgid_count = 1;
          uint64_t sid = cl_hton64(0xa100000001064853ULL);
          m.service_id_8msb = ((uint8_t *)&sid)[0];
          memcpy(m.service_id_56lsb, ((uint8_t *)&sid) + 1, 7);
          m.gids[0].unicast.prefix = cl_hton64(0xfe80000000000000ULL);
          m.gids[0].unicast.interface_id = cl_hton64(0x0000000000100004ULL);
          m.gids[1].unicast.prefix = cl_hton64(0xfe80000000000000ULL);
          m.gids[1].unicast.interface_id = cl_hton64(0x0000000000100005ULL);
          m.gids[2].unicast.prefix = cl_hton64(0xfe80000000000000ULL);
          m.gids[2].unicast.interface_id = cl_hton64(0x0000000000100007ULL);
        """;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[SaMad.DATA_LENGTH]);
    private final MultiPathRecord record = new MultiPathRecord();

    @Test
    void shouldMatchOpenSmMultiPathRecordLayout()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        CHeaders.assertValues(IB_TYPES, Map.ofEntries(
            entry("sizeof(ib_multipath_rec_t)", MultiPathRecord.length(MultiPathRecord.MAX_GIDS)),
            entry("IB_MULTIPATH_MAX_GIDS", MultiPathRecord.MAX_GIDS),
            entry("offsetof(ib_multipath_rec_t, hop_flow_raw)", MultiPathRecord.FLOW_LABEL_HOP_LIMIT_OFFSET),
            entry("offsetof(ib_multipath_rec_t, tclass)", MultiPathRecord.TCLASS_OFFSET),
            entry("offsetof(ib_multipath_rec_t, num_path)", MultiPathRecord.REVERSIBLE_NUMB_PATH_OFFSET),
            entry("offsetof(ib_multipath_rec_t, pkey)", MultiPathRecord.P_KEY_OFFSET),
            entry("offsetof(ib_multipath_rec_t, qos_class_sl)", MultiPathRecord.QOS_CLASS_SL_OFFSET),
            entry("offsetof(ib_multipath_rec_t, mtu)", MultiPathRecord.MTU_OFFSET),
            entry("offsetof(ib_multipath_rec_t, rate)", MultiPathRecord.RATE_OFFSET),
            entry("offsetof(ib_multipath_rec_t, pkt_life)", MultiPathRecord.PACKET_LIFE_TIME_OFFSET),
            entry("offsetof(ib_multipath_rec_t, service_id_8msb)", MultiPathRecord.SERVICE_ID_8MSB_OFFSET),
            entry("offsetof(ib_multipath_rec_t, independence)", MultiPathRecord.INDEPENDENCE_SELECTOR_OFFSET),
            entry("offsetof(ib_multipath_rec_t, sgid_count)", MultiPathRecord.SGID_COUNT_OFFSET),
            entry("offsetof(ib_multipath_rec_t, dgid_count)", MultiPathRecord.DGID_COUNT_OFFSET),
            entry("offsetof(ib_multipath_rec_t, service_id_56lsb)", MultiPathRecord.SERVICE_ID_56LSB_OFFSET),
            entry("offsetof(ib_multipath_rec_t, gids)", MultiPathRecord.GIDS_OFFSET)),
            CHeaders.OPENSM_FLAGS);
    }

    @Test
    void shouldMatchEveryOpenSmMultiPathRecordMaskBit()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        CHeaders.assertValues(IB_TYPES, Map.ofEntries(
            entry("cl_ntoh64(IB_MPR_COMPMASK_RAWTRAFFIC)", MultiPathRecordComponentMask.RAW_TRAFFIC),
            entry("cl_ntoh64(IB_MPR_COMPMASK_RESV0)", MultiPathRecordComponentMask.RESERVED_1),
            entry("cl_ntoh64(IB_MPR_COMPMASK_FLOWLABEL)", MultiPathRecordComponentMask.FLOW_LABEL),
            entry("cl_ntoh64(IB_MPR_COMPMASK_HOPLIMIT)", MultiPathRecordComponentMask.HOP_LIMIT),
            entry("cl_ntoh64(IB_MPR_COMPMASK_TCLASS)", MultiPathRecordComponentMask.TCLASS),
            entry("cl_ntoh64(IB_MPR_COMPMASK_REVERSIBLE)", MultiPathRecordComponentMask.REVERSIBLE),
            entry("cl_ntoh64(IB_MPR_COMPMASK_NUMBPATH)", MultiPathRecordComponentMask.NUMB_PATH),
            entry("cl_ntoh64(IB_MPR_COMPMASK_PKEY)", MultiPathRecordComponentMask.P_KEY),
            entry("cl_ntoh64(IB_MPR_COMPMASK_QOS_CLASS)", MultiPathRecordComponentMask.QOS_CLASS),
            entry("cl_ntoh64(IB_MPR_COMPMASK_SL)", MultiPathRecordComponentMask.SL),
            entry("cl_ntoh64(IB_MPR_COMPMASK_MTUSELEC)", MultiPathRecordComponentMask.MTU_SELECTOR),
            entry("cl_ntoh64(IB_MPR_COMPMASK_MTU)", MultiPathRecordComponentMask.MTU),
            entry("cl_ntoh64(IB_MPR_COMPMASK_RATESELEC)", MultiPathRecordComponentMask.RATE_SELECTOR),
            entry("cl_ntoh64(IB_MPR_COMPMASK_RATE)", MultiPathRecordComponentMask.RATE),
            entry("cl_ntoh64(IB_MPR_COMPMASK_PKTLIFETIMESELEC)", MultiPathRecordComponentMask.PACKET_LIFE_TIME_SELECTOR),
            entry("cl_ntoh64(IB_MPR_COMPMASK_PKTLIFETIME)", MultiPathRecordComponentMask.PACKET_LIFE_TIME),
            entry("cl_ntoh64(IB_MPR_COMPMASK_SERVICEID_MSB)", MultiPathRecordComponentMask.SERVICE_ID_8MSB),
            entry("cl_ntoh64(IB_MPR_COMPMASK_INDEPSELEC)", MultiPathRecordComponentMask.INDEPENDENCE_SELECTOR),
            entry("cl_ntoh64(IB_MPR_COMPMASK_RESV3)", MultiPathRecordComponentMask.RESERVED_18),
            entry("cl_ntoh64(IB_MPR_COMPMASK_SGIDCOUNT)", MultiPathRecordComponentMask.SGID_COUNT),
            entry("cl_ntoh64(IB_MPR_COMPMASK_DGIDCOUNT)", MultiPathRecordComponentMask.DGID_COUNT),
            entry("cl_ntoh64(IB_MPR_COMPMASK_SERVICEID_LSB)", MultiPathRecordComponentMask.SERVICE_ID_56LSB),
            entry("cl_ntoh64(IB_MPR_COMPMASK_SERVICEID)", MultiPathRecordComponentMask.SERVICE_ID)),
            CHeaders.OPENSM_FLAGS);
    }

    @Test
    void shouldEncodeTheBytesOpenSmBuildsForTheSameValues()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        final String fromC = CHeaders.bytesOf(IB_TYPES, OPENSM_FILL, "m", CHeaders.OPENSM_FLAGS);

        encodeSameValues();

        assertEquals(fromC, CHeaders.hex(buffer, 0, SaMad.DATA_LENGTH));
    }

    @Test
    void shouldReadTheServiceIdOpenSmReassembles()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        final String fromC = CProgram.compileAndRun("#include <stdio.h>\n#include <string.h>\n" + IB_TYPES +
            "\nint main(void) {\n" + OPENSM_FILL + """
              printf("0x%016llx %u %u\\n", (unsigned long long)cl_ntoh64(ib_multipath_rec_service_id(&m)),
                ib_multipath_rec_sl(&m), ib_multipath_rec_qos_class(&m));
              return 0;
            }
            """, CHeaders.OPENSM_FLAGS);

        encodeSameValues();
        record.wrap(buffer, 0, SaMad.DATA_LENGTH);

        assertEquals(fromC.strip(), String.format("0x%016x %d %d", record.serviceId(), record.sl(), record.qosClass()));
    }

    @Test
    void shouldListSourceGidsBeforeDestinationGids()
    {
        encodeSameValues();
        record.wrap(buffer, 0, MultiPathRecord.length(3));

        assertEquals(Gid.parse("fe80::10:4"), record.sgid(0));
        assertEquals(Gid.parse("fe80::10:5"), record.sgid(1));
        assertEquals(Gid.parse("fe80::10:7"), record.dgid(0));
        assertEquals(0x0000_0000_0010_0007L, record.gidInterfaceId(2));
        assertEquals(MultiPathRecord.length(3), record.length());
    }

    @Test
    void shouldRoundTripEveryHeaderFieldAtItsMaximum()
    {
        record.wrap(buffer, 0).clear(0).rawTraffic(true).flowLabel(0xfffff).hopLimit(0xff).tClass(0xff)
            .reversible(true).numbPath(0x7f).pKey(0xffff).qosClass(0xfff).sl(0xf)
            .mtuSelector(Selector.LARGEST_AVAILABLE).mtu(0x3f).rateSelector(Selector.LARGEST_AVAILABLE).rate(0x3f)
            .packetLifeTimeSelector(Selector.LARGEST_AVAILABLE).packetLifeTime(0x3f).serviceId(-1L)
            .independenceSelector(3).sgidCount(0).dgidCount(0);

        record.wrap(buffer, 0, MultiPathRecord.HEADER_LENGTH);
        assertTrue(record.rawTraffic());
        assertEquals(0xfffff, record.flowLabel());
        assertEquals(-1L, record.serviceId());
        assertEquals(3, record.independenceSelector());
        assertEquals(0, record.dgidCount());
        assertEquals("8fffffff" + "ff".repeat(10) + "c0" + "0000" + "ff".repeat(7),
            CHeaders.hex(buffer, 0, MultiPathRecord.HEADER_LENGTH));
    }

    @Test
    void shouldKeepTheDgidCountWhenTheServiceIdIsWritten()
    {
        record.wrap(buffer, 0).clear(0).dgidCount(9).serviceId(0x1122_3344_5566_7788L);

        assertEquals(9, record.dgidCount());
        assertEquals(0x1122_3344_5566_7788L, record.serviceId());
        assertEquals("11", CHeaders.hex(buffer, MultiPathRecord.SERVICE_ID_8MSB_OFFSET, 1));
        assertEquals("2233445566778" + "8", CHeaders.hex(buffer, MultiPathRecord.SERVICE_ID_56LSB_OFFSET, 7));
    }

    @Test
    void shouldPrintEveryGidWithItsRole()
    {
        encodeSameValues();

        final String text = record.wrap(buffer, 0, SaMad.DATA_LENGTH).toString();

        assertTrue(text.startsWith("MultiPathRecord{RawTraffic=1, FlowLabel=0x54321, HopLimit=2, TClass=17, " +
            "Reversible=1, NumbPath=4, P_Key=0xffff, QoSClass=1445, SL=9, MTUSelector=2 (=), MTU=4 (2048), " +
            "RateSelector=3 (best), Rate=12 (56 Gb/s), PacketLifeTimeSelector=1 (<), PacketLifeTime=19 (2.15 s), " +
            "ServiceID=0xa100000001064853, IndependenceSelector=2, SGIDCount=2, DGIDCount=1"), text);
        assertTrue(text.endsWith("SGID[0]=fe80::10:4, SGID[1]=fe80::10:5, DGID[0]=fe80::10:7}"), text);
    }

    @Test
    void shouldRejectCountsThatAnnounceMoreGidsThanThereAreBytes()
    {
        record.wrap(buffer, 0).clear(0).sgidCount(2).dgidCount(1);

        final MalformedMessageException ex = assertThrows(MalformedMessageException.class,
            () -> record.wrap(buffer, 0, 60));

        assertEquals("MultiPathRecord: SGIDCount 2 + DGIDCount 1 GIDs need 72 bytes, 60 present", ex.getMessage());
    }

    @Test
    void shouldRejectARecordShorterThanItsHeader()
    {
        final MalformedMessageException ex = assertThrows(MalformedMessageException.class,
            () -> record.wrap(buffer, 0, 23));

        assertEquals("MultiPathRecord: 23 bytes present, the format needs at least 24", ex.getMessage());
    }

    @Test
    void shouldRefuseAGidIndexBeyondTheCount()
    {
        encodeSameValues();

        final IndexOutOfBoundsException ex = assertThrows(IndexOutOfBoundsException.class, () -> record.dgid(1));

        assertEquals("MultiPathRecord DGID index 1 is outside the 1 the record holds", ex.getMessage());
    }

    private void encodeSameValues()
    {
        record.wrap(buffer, 0).clear(MultiPathRecord.MAX_GIDS)
            .rawTraffic(true).flowLabel(0x54321).hopLimit(2).tClass(0x11).reversible(true).numbPath(4).pKey(0xffff)
            .qosClass(0x5a5).sl(9).mtuSelector(Selector.EXACTLY).mtu(4).rateSelector(Selector.LARGEST_AVAILABLE)
            .rate(12).packetLifeTimeSelector(Selector.LESS_THAN).packetLifeTime(19)
            .independenceSelector(2).sgidCount(2).dgidCount(1).serviceId(0xa100_0000_0106_4853L)
            .gid(0, Gid.parse("fe80::10:4")).gid(1, Gid.parse("fe80::10:5"))
            .gid(2, Gid.LINK_LOCAL_PREFIX, 0x0000_0000_0010_0007L);
    }
}
