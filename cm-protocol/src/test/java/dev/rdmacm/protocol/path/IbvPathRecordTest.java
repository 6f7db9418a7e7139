package dev.rdmacm.protocol.path;

import dev.rdmacm.protocol.MalformedMessageException;
import dev.rdmacm.protocol.sa.PathRecord;
import dev.rdmacm.protocol.sa.Selector;
import dev.rdmacm.testing.CHeaders;
import dev.rdmacm.testing.Peers;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IbvPathRecordTest
{
    private static final String SA_H = "#include <infiniband/sa.h>";

    /** Fills {@code p} the way ibacm does: every field already in network order. */
    static final String C_FILL = """
          struct ibv_path_record p;
          memset(&p, 0, sizeof(p));
          p.service_id = htobe64(0x00000000013f1234ULL);
          p.dgid.global.subnet_prefix = htobe64(0xfe80000000000000ULL);
          p.dgid.global.interface_id = htobe64(0x0002c90300000007ULL);
          p.sgid.global.subnet_prefix = htobe64(0xfe80000000000000ULL);
          p.sgid.global.interface_id = htobe64(0x0002c90300000004ULL);
          p.dlid = htobe16(7);
          p.slid = htobe16(4);
          p.flowlabel_hoplimit = htobe32((0x12345u << 8) | 0xff);
          p.tclass = 0xa0;
          p.reversible_numpath = IBV_PATH_RECORD_REVERSIBLE | 1;
          p.pkey = htobe16(0xffff);
          p.qosclass_sl = htobe16((0x123 << 4) | 0x3);
          p.mtu = (2 << 6) | 5;
          p.rate = (2 << 6) | 7;
          p.packetlifetime = (2 << 6) | 18;
          p.preference = 1;
        """;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[IbvPathRecord.LENGTH]);
    private final IbvPathRecord path = new IbvPathRecord();

    @Test
    void shouldMatchTheLayoutOfInfinibandSaH()
    {
        Peers.requireFile("/usr/include/infiniband/sa.h", "libibverbs-dev");
        CHeaders.assertValues(SA_H, Map.ofEntries(
            entry("sizeof(struct ibv_path_record)", IbvPathRecord.LENGTH),
            entry("offsetof(struct ibv_path_record, service_id)", IbvPathRecord.SERVICE_ID_OFFSET),
            entry("offsetof(struct ibv_path_record, dgid)", IbvPathRecord.DGID_OFFSET),
            entry("offsetof(struct ibv_path_record, sgid)", IbvPathRecord.SGID_OFFSET),
            entry("offsetof(struct ibv_path_record, dlid)", IbvPathRecord.DLID_OFFSET),
            entry("offsetof(struct ibv_path_record, slid)", IbvPathRecord.SLID_OFFSET),
            entry("offsetof(struct ibv_path_record, flowlabel_hoplimit)", IbvPathRecord.FLOW_LABEL_HOP_LIMIT_OFFSET),
            entry("offsetof(struct ibv_path_record, tclass)", IbvPathRecord.TCLASS_OFFSET),
            entry("offsetof(struct ibv_path_record, reversible_numpath)", IbvPathRecord.REVERSIBLE_NUMB_PATH_OFFSET),
            entry("offsetof(struct ibv_path_record, pkey)", IbvPathRecord.P_KEY_OFFSET),
            entry("offsetof(struct ibv_path_record, qosclass_sl)", IbvPathRecord.QOS_CLASS_SL_OFFSET),
            entry("offsetof(struct ibv_path_record, mtu)", IbvPathRecord.MTU_OFFSET),
            entry("offsetof(struct ibv_path_record, rate)", IbvPathRecord.RATE_OFFSET),
            entry("offsetof(struct ibv_path_record, packetlifetime)", IbvPathRecord.PACKET_LIFE_TIME_OFFSET),
            entry("offsetof(struct ibv_path_record, preference)", IbvPathRecord.PREFERENCE_OFFSET),
            entry("offsetof(struct ibv_path_record, reserved)", IbvPathRecord.RESERVED_OFFSET),
            entry("IBV_PATH_RECORD_REVERSIBLE", IbvPathRecord.REVERSIBLE_BIT)));
    }

    @Test
    void shouldEncodeTheBytesACProgramBuildsForTheSameValues()
    {
        Peers.requireFile("/usr/include/infiniband/sa.h", "libibverbs-dev");
        final String fromC = CHeaders.bytesOf(SA_H, C_FILL, "p");

        encodeSameValues(path.wrap(buffer, 0));

        assertEquals(fromC, CHeaders.hex(buffer, 0, IbvPathRecord.LENGTH));
    }

    @Test
    void shouldReadTheSameBytesAsTheSaPathRecordApartFromRawTraffic()
    {
        encodeSameValues(path.wrap(buffer, 0));
        final PathRecord record = new PathRecord().wrap(buffer, 0, PathRecord.LENGTH);

        assertEquals(path.serviceId(), record.serviceId());
        assertEquals(path.dgid(), record.dgid());
        assertEquals(path.flowLabel(), record.flowLabel());
        assertEquals(path.sl(), record.sl());
        assertEquals(path.packetLifeTime(), record.packetLifeTime());
        assertEquals(path.toString().replace("ibv_path_record{", "PathRecord{").replace("}", ", RawTraffic=0}"),
            record.toString());
    }

    @Test
    void shouldRoundTripEveryFieldAtItsMaximum()
    {
        path.wrap(buffer, 0).clear().serviceId(-1L).dgid(-1L, -1L).sgid(-1L, -1L).dlid(0xffff).slid(0xffff)
            .flowLabel(0xfffff).hopLimit(0xff).tClass(0xff).reversible(true).numbPath(0x7f).pKey(0xffff)
            .qosClass(0xfff).sl(0xf).mtuSelector(Selector.LARGEST_AVAILABLE).mtu(0x3f)
            .rateSelector(Selector.LARGEST_AVAILABLE).rate(0x3f)
            .packetLifeTimeSelector(Selector.LARGEST_AVAILABLE).packetLifeTime(0x3f).preference(0xff);

        assertEquals("ffffffffffffffff" + "ff".repeat(32) + "ffffffff" + "0fffffff" + "ffffffffffff" + "ffffffff" +
            "000000000000", CHeaders.hex(buffer, 0, IbvPathRecord.LENGTH));
        assertTrue(path.reversible());
        assertEquals(0x7f, path.numbPath());
        assertEquals(0xfffff, path.flowLabel());
    }

    @Test
    void shouldRejectAShortRecordNamingTheCStruct()
    {
        final MalformedMessageException ex = assertThrows(MalformedMessageException.class,
            () -> path.wrap(buffer, 0, 10));

        assertEquals("ibv_path_record: 10 bytes present, the format needs at least 64", ex.getMessage());
    }

    static void encodeSameValues(final IbvPathRecord path)
    {
        path.clear().serviceId(0x0000_0000_013f_1234L)
            .dgid(0xfe80_0000_0000_0000L, 0x0002_c903_0000_0007L)
            .sgid(0xfe80_0000_0000_0000L, 0x0002_c903_0000_0004L)
            .dlid(7).slid(4).flowLabel(0x12345).hopLimit(0xff).tClass(0xa0).reversible(true).numbPath(1)
            .pKey(0xffff).qosClass(0x123).sl(3).mtuSelector(Selector.EXACTLY).mtu(5)
            .rateSelector(Selector.EXACTLY).rate(7).packetLifeTimeSelector(Selector.EXACTLY).packetLifeTime(18)
            .preference(1);
    }
}
