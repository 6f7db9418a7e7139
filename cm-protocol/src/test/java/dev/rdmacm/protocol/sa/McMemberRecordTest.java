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

class McMemberRecordTest
{
    private static final String IB_TYPES = "#include <iba/ib_types.h>";

    /** A C body that fills {@code r} with the values of {@link #encodeSameValues} through OpenSM's own setters. */
    private static final String OPENSM_FILL = """
          ib_member_rec_t r;
          memset(&r, 0, sizeof(r));
          r.mgid.unicast.prefix = cl_hton64(0xff124001ffff0000ULL);
          r.mgid.unicast.interface_id = cl_hton64(0x000000000f010203ULL);
          r.port_gid.unicast.prefix = cl_hton64(0xfe80000000000000ULL);
          r.port_gid.unicast.interface_id = cl_hton64(0x0000000000100004ULL);
          r.qkey = cl_hton32(0x01234567);
          r.mlid = cl_hton16(0xc001);
          r.mtu = (2 << 6) | 4;
          r.tclass = 0x5a;
          r.pkey = cl_hton16(0x8001);
          r.rate = (1 << 6) | 3;
          r.pkt_life = (3 << 6) | 18;
          r.sl_flow_hop = ib_member_set_sl_flow_hop(0xd, 0xabcde, 0x40);
          r.scope_state = ib_member_set_scope_state(2, IB_MC_REC_STATE_FULL_MEMBER);
          ib_member_set_join_state(&r, IB_MC_REC_STATE_SEND_ONLY_FULL_MEMBER | IB_MC_REC_STATE_FULL_MEMBER);
        """;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[McMemberRecord.LENGTH]);
    private final McMemberRecord record = new McMemberRecord();

    @Test
    void shouldMatchOpenSmMemberRecordLayout()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        CHeaders.assertValues(IB_TYPES, Map.ofEntries(
            entry("sizeof(ib_member_rec_t)", McMemberRecord.LENGTH),
            entry("offsetof(ib_member_rec_t, mgid)", McMemberRecord.MGID_OFFSET),
            entry("offsetof(ib_member_rec_t, port_gid)", McMemberRecord.PORT_GID_OFFSET),
            entry("offsetof(ib_member_rec_t, qkey)", McMemberRecord.Q_KEY_OFFSET),
            entry("offsetof(ib_member_rec_t, mlid)", McMemberRecord.MLID_OFFSET),
            entry("offsetof(ib_member_rec_t, mtu)", McMemberRecord.MTU_OFFSET),
            entry("offsetof(ib_member_rec_t, tclass)", McMemberRecord.TCLASS_OFFSET),
            entry("offsetof(ib_member_rec_t, pkey)", McMemberRecord.P_KEY_OFFSET),
            entry("offsetof(ib_member_rec_t, rate)", McMemberRecord.RATE_OFFSET),
            entry("offsetof(ib_member_rec_t, pkt_life)", McMemberRecord.PACKET_LIFE_TIME_OFFSET),
            entry("offsetof(ib_member_rec_t, sl_flow_hop)", McMemberRecord.SL_FLOW_LABEL_HOP_LIMIT_OFFSET),
            entry("offsetof(ib_member_rec_t, scope_state)", McMemberRecord.SCOPE_JOIN_STATE_OFFSET),
            entry("offsetof(ib_member_rec_t, reserved) - 1", McMemberRecord.PROXY_JOIN_OFFSET),
            entry("offsetof(ib_member_rec_t, pad)", McMemberRecord.PADDING_OFFSET),
            entry("IB_MC_REC_STATE_FULL_MEMBER", McMemberRecord.JoinState.FULL_MEMBER),
            entry("IB_MC_REC_STATE_NON_MEMBER", McMemberRecord.JoinState.NON_MEMBER),
            entry("IB_MC_REC_STATE_SEND_ONLY_NON_MEMBER", McMemberRecord.JoinState.SEND_ONLY_NON_MEMBER),
            entry("IB_MC_REC_STATE_SEND_ONLY_FULL_MEMBER", McMemberRecord.JoinState.SEND_ONLY_FULL_MEMBER)),
            CHeaders.OPENSM_FLAGS);
    }

    @Test
    void shouldUseOpenSmComponentMaskBits()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        CHeaders.assertValues(IB_TYPES, Map.ofEntries(
            entry("cl_ntoh64(IB_MCR_COMPMASK_MGID)", McMemberRecordComponentMask.MGID),
            entry("cl_ntoh64(IB_MCR_COMPMASK_PORT_GID)", McMemberRecordComponentMask.PORT_GID),
            entry("cl_ntoh64(IB_MCR_COMPMASK_QKEY)", McMemberRecordComponentMask.QKEY),
            entry("cl_ntoh64(IB_MCR_COMPMASK_MLID)", McMemberRecordComponentMask.MLID),
            entry("cl_ntoh64(IB_MCR_COMPMASK_MTU_SEL)", McMemberRecordComponentMask.MTU_SELECTOR),
            entry("cl_ntoh64(IB_MCR_COMPMASK_MTU)", McMemberRecordComponentMask.MTU),
            entry("cl_ntoh64(IB_MCR_COMPMASK_TCLASS)", McMemberRecordComponentMask.TRAFFIC_CLASS),
            entry("cl_ntoh64(IB_MCR_COMPMASK_PKEY)", McMemberRecordComponentMask.PKEY),
            entry("cl_ntoh64(IB_MCR_COMPMASK_RATE_SEL)", McMemberRecordComponentMask.RATE_SELECTOR),
            entry("cl_ntoh64(IB_MCR_COMPMASK_RATE)", McMemberRecordComponentMask.RATE),
            entry("cl_ntoh64(IB_MCR_COMPMASK_LIFE_SEL)", McMemberRecordComponentMask.PACKET_LIFE_TIME_SELECTOR),
            entry("cl_ntoh64(IB_MCR_COMPMASK_LIFE)", McMemberRecordComponentMask.PACKET_LIFE_TIME),
            entry("cl_ntoh64(IB_MCR_COMPMASK_SL)", McMemberRecordComponentMask.SL),
            entry("cl_ntoh64(IB_MCR_COMPMASK_FLOW)", McMemberRecordComponentMask.FLOW_LABEL),
            entry("cl_ntoh64(IB_MCR_COMPMASK_HOP)", McMemberRecordComponentMask.HOP_LIMIT),
            entry("cl_ntoh64(IB_MCR_COMPMASK_SCOPE)", McMemberRecordComponentMask.SCOPE),
            entry("cl_ntoh64(IB_MCR_COMPMASK_JOIN_STATE)", McMemberRecordComponentMask.JOIN_STATE),
            entry("cl_ntoh64(IB_MCR_COMPMASK_PROXY)", McMemberRecordComponentMask.PROXY_JOIN)),
            CHeaders.OPENSM_FLAGS);
    }

    @Test
    void shouldEncodeTheBytesOpenSmBuildsForTheSameValues()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        final String fromC = CHeaders.bytesOf(IB_TYPES, OPENSM_FILL, "r", CHeaders.OPENSM_FLAGS);

        encodeSameValues();

        assertEquals(fromC, CHeaders.hex(buffer, 0, McMemberRecord.LENGTH));
    }

    @Test
    void shouldDecodeWhatOpenSmGettersRead()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        final String output = CProgram.compileAndRun(
            "#include <stdio.h>\n#include <string.h>\n" + IB_TYPES + "\nint main(void) {\n" + OPENSM_FILL + """
                  uint8_t sl, hop, scope, state; uint32_t flow;
                  ib_member_get_sl_flow_hop(r.sl_flow_hop, &sl, &flow, &hop);
                  ib_member_get_scope_state(r.scope_state, &scope, &state);
                  printf("%u %u %u %u %u %u %u %u\\n", sl, flow, hop, scope, state, cl_ntoh32(r.qkey), cl_ntoh16(r.mlid),
                    cl_ntoh16(r.pkey));
                  return 0;
                }
                """, CHeaders.OPENSM_FLAGS);

        encodeSameValues();
        record.wrap(buffer, 0, McMemberRecord.LENGTH);

        assertEquals(output.strip(), String.format("%d %d %d %d %d %d %d %d", record.sl(), record.flowLabel(),
            record.hopLimit(), record.scope(), record.joinState(), record.qkey(), record.mlid(), record.pKey()));
    }

    /**
     * ProxyJoin is the most significant bit of byte 49, as the kernel's {@code mcmember_rec_table} places it
     * (offset_bits 8, one bit) and tshark reads it. OpenSM's {@code uint8_t proxy_join:1} is the least
     * significant bit on x86, so OpenSM would not see ours: we never send it (the kernel does not either).
     */
    @Test
    void shouldPutProxyJoinInTheFirstBitAfterJoinState()
    {
        record.wrap(buffer, 0).clear().proxyJoin(true);

        assertEquals(0x80, buffer.getByte(McMemberRecord.PROXY_JOIN_OFFSET) & 0xff);
        assertTrue(record.proxyJoin());
    }

    @Test
    void shouldRoundTripEveryFieldAtItsMaximum()
    {
        record.wrap(buffer, 0).clear().mgid(new Gid(-1L, -1L)).portGid(new Gid(-1L, -1L)).qkey(0xffff_ffffL)
            .mlid(0xffff).mtuSelector(Selector.LARGEST_AVAILABLE).mtu(0x3f).tClass(0xff).pKey(0xffff)
            .rateSelector(Selector.LARGEST_AVAILABLE).rate(0x3f).packetLifeTimeSelector(Selector.LARGEST_AVAILABLE)
            .packetLifeTime(0x3f).sl(0xf).flowLabel(0xfffff).hopLimit(0xff).scope(0xf).joinState(0xf).proxyJoin(true);

        record.wrap(buffer, 0, McMemberRecord.LENGTH);
        assertEquals(new Gid(-1L, -1L), record.mgid());
        assertEquals(new Gid(-1L, -1L), record.portGid());
        assertEquals(0xffff_ffffL, record.qkey());
        assertEquals(0xffff, record.mlid());
        assertEquals(3, record.mtuSelector());
        assertEquals(0x3f, record.mtu());
        assertEquals(0xff, record.tClass());
        assertEquals(0xffff, record.pKey());
        assertEquals(3, record.rateSelector());
        assertEquals(0x3f, record.rate());
        assertEquals(3, record.packetLifeTimeSelector());
        assertEquals(0x3f, record.packetLifeTime());
        assertEquals(0xf, record.sl());
        assertEquals(0xfffff, record.flowLabel());
        assertEquals(0xff, record.hopLimit());
        assertEquals(0xf, record.scope());
        assertEquals(0xf, record.joinState());
        assertTrue(record.proxyJoin());
        assertEquals("00000000", CHeaders.hex(buffer, McMemberRecord.PADDING_OFFSET, 4));
    }

    @Test
    void shouldRejectARecordShorterThanItsAttributeOffset()
    {
        final MalformedMessageException ex = assertThrows(MalformedMessageException.class,
            () -> record.wrap(buffer, 0, 55));

        assertEquals("MCMemberRecord: 55 bytes present, the format needs at least 56", ex.getMessage());
    }

    @Test
    void shouldPrintTheFieldNamesIbaUses()
    {
        encodeSameValues();

        assertEquals("MCMemberRecord{MGID=ff12:4001:ffff::f01:203, PortGID=fe80::10:4, Q_Key=0x1234567, MLID=0xc001, " +
            "MTUSelector=" + Selector.describe(2) + ", MTU=4, TClass=90, P_Key=0x8001, RateSelector=" + Selector.describe(1) +
            ", Rate=3, PacketLifeTimeSelector=" + Selector.describe(3) + ", PacketLifeTime=18, SL=13, FlowLabel=0xabcde, " +
            "HopLimit=64, Scope=2, JoinState=0x9, ProxyJoin=0}", record.toString());
    }

    private void encodeSameValues()
    {
        record.wrap(buffer, 0).clear().mgid(Gid.parse("ff12:4001:ffff::f01:203")).portGid(Gid.parse("fe80::10:4"))
            .qkey(0x0123_4567L).mlid(0xc001).mtuSelector(Selector.EXACTLY).mtu(4).tClass(0x5a).pKey(0x8001)
            .rateSelector(Selector.LESS_THAN).rate(3).packetLifeTimeSelector(Selector.LARGEST_AVAILABLE).packetLifeTime(18)
            .sl(0xd).flowLabel(0xabcde).hopLimit(0x40).scope(2)
            .joinState(McMemberRecord.JoinState.SEND_ONLY_FULL_MEMBER | McMemberRecord.JoinState.FULL_MEMBER);
    }
}
