package dev.rdmacm.verbs;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.mad.Gsi;
import dev.rdmacm.testing.CHeaders;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HexFormat;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The bytes this binding writes into, and reads from, verbs structs, compared with the bytes a C
 * program leaves when it fills the same struct through {@code infiniband/verbs.h}: byte order,
 * widths and signedness, beyond the offsets the conformance test checks.
 */
class VerbsStructBytesTest
{
    private static final String VERBS = "#include <infiniband/verbs.h>";

    @BeforeEach
    void requireHeaders()
    {
        Peers.requireFile("/usr/include/infiniband/verbs.h", "libibverbs-dev");
    }

    @Test
    void shouldWriteAGlobalAddressVectorAsC()
    {
        final String c = CHeaders.bytesOf(VERBS, """
            struct ibv_ah_attr a;
            memset(&a, 0, sizeof a);
            a.grh.dgid.global.subnet_prefix = htobe64(0xfe80000000000000ULL);
            a.grh.dgid.global.interface_id = htobe64(0x0002c90300a1b2c5ULL);
            a.grh.flow_label = 0xfffff;
            a.grh.sgid_index = 255;
            a.grh.hop_limit = 64;
            a.grh.traffic_class = 0xa0;
            a.dlid = 0xc001;
            a.sl = 15;
            a.src_path_bits = 127;
            a.static_rate = 7;
            a.is_global = 1;
            a.port_num = 2;
            """, "a");
        final AddressVector destination = new AddressVector(2, 0xc001, 15, 127, 7,
            Optional.of(new AddressVector.GlobalRoute(Gid.parse("fe80::2:c903:a1:b2c5"), 255, 64, 0xa0, 0xfffff)));

        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment attr = arena.allocate(IbvLayouts.IBV_AH_ATTR);
            AddressHandle.write(destination, attr);

            assertEquals(c, hex(attr));
        }
    }

    @Test
    void shouldWriteALidAddressVectorAsC()
    {
        final String c = CHeaders.bytesOf(VERBS, """
            struct ibv_ah_attr a;
            memset(&a, 0, sizeof a);
            a.dlid = 0x15;
            a.sl = 3;
            a.port_num = 1;
            """, "a");

        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment attr = arena.allocate(IbvLayouts.IBV_AH_ATTR);
            AddressHandle.write(AddressVector.lid(1, 0x15, 3), attr);

            assertEquals(c, hex(attr));
        }
    }

    @Test
    void shouldAskForAUdQpAsC()
    {
        final String c = CHeaders.bytesOf(VERBS, """
            struct ibv_qp_init_attr a;
            memset(&a, 0, sizeof a);
            a.send_cq = (struct ibv_cq *)0x1000; a.recv_cq = (struct ibv_cq *)0x2000;
            a.cap.max_send_wr = 16; a.cap.max_recv_wr = 32; a.cap.max_send_sge = 1; a.cap.max_recv_sge = 2;
            a.cap.max_inline_data = 64; a.qp_type = IBV_QPT_UD; a.sq_sig_all = 0;
            """, "a");

        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment init = arena.allocate(IbvLayouts.IBV_QP_INIT_ATTR);
            UdQueuePair.writeCreateAttributes(init, MemorySegment.ofAddress(0x1000), MemorySegment.ofAddress(0x2000),
                new QueuePairCapabilities(16, 32, 1, 2, 64));

            assertEquals(c, hex(init));
        }
    }

    @Test
    void shouldMoveAUdQpToInitWithTheSaQkeyAsC()
    {
        final String c = CHeaders.bytesOf(VERBS, """
            struct ibv_qp_attr a;
            memset(&a, 0, sizeof a);
            a.qp_state = IBV_QPS_INIT; a.pkey_index = 0xfffe; a.port_num = 2; a.qkey = 0x80010000;
            """, "a");

        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment attr = arena.allocate(IbvLayouts.IBV_QP_ATTR);
            attr.set(JAVA_INT, UdQueuePair.ATTR_QP_STATE_OFFSET, QpState.INIT.value());
            UdQueuePair.writeInitAttributes(attr, 2, 0xfffe, Gsi.QKEY);

            assertEquals(c, hex(attr));
        }
    }

    @Test
    void shouldMoveAUdQpToRtsWithA24BitPsnAsC()
    {
        final String c = CHeaders.bytesOf(VERBS, """
            struct ibv_qp_attr a;
            memset(&a, 0, sizeof a);
            a.qp_state = IBV_QPS_RTS; a.sq_psn = 0xabcdef;
            """, "a");

        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment attr = arena.allocate(IbvLayouts.IBV_QP_ATTR);
            attr.set(JAVA_INT, UdQueuePair.ATTR_QP_STATE_OFFSET, QpState.RTS.value());
            UdQueuePair.writeRtsAttributes(attr, 0x7fab_cdef);

            assertEquals(c, hex(attr));
        }
    }

    @Test
    void shouldReadEveryPortAttributeAsCWroteIt()
    {
        final String c = CHeaders.bytesOf(VERBS, """
            struct ibv_port_attr a;
            memset(&a, 0, sizeof a);
            a.state = IBV_PORT_ACTIVE; a.max_mtu = IBV_MTU_4096; a.active_mtu = IBV_MTU_2048;
            a.gid_tbl_len = 256; a.port_cap_flags = 0xa651e848; a.max_msg_sz = 0xffffffff;
            a.bad_pkey_cntr = 0xfffffffe; a.qkey_viol_cntr = 7; a.pkey_tbl_len = 128; a.lid = 0xc001;
            a.sm_lid = 0xbfff; a.lmc = 7; a.max_vl_num = 4; a.sm_sl = 15; a.subnet_timeout = 18;
            a.init_type_reply = 0xff; a.active_width = 2; a.active_speed = 64; a.phys_state = 5;
            a.link_layer = IBV_LINK_LAYER_INFINIBAND; a.flags = 0x81; a.port_cap_flags2 = 0x8032;
            """, "a");

        final PortAttributes port = PortAttributes.read(segment(c));

        assertEquals(new PortAttributes(4, 5, 4, 256, 0xa651_e848L, 0xffff_ffffL, 0xffff_fffeL, 7, 128, 0xc001, 0xbfff, 7,
            4, 15, 18, 0xff, 2, 64, 5, 1, 0x81, 0x8032), port);
        assertEquals("200 Gb/sec (4X HDR)", port.rateText());
    }

    @Test
    void shouldReadDeviceAttributesWithBigEndianGuidsAsCWroteThem()
    {
        final String c = CHeaders.bytesOf(VERBS, """
            struct ibv_device_attr a;
            memset(&a, 0, sizeof a);
            strcpy(a.fw_ver, "16.35.2000");
            a.node_guid = htobe64(0x0002c90300a1b2c4ULL); a.sys_image_guid = htobe64(0x0002c90300a1b2c7ULL);
            a.max_mr_size = 0xffffffffffffffffULL; a.vendor_id = 0x02c9; a.vendor_part_id = 4119;
            a.hw_ver = 0x80000000; a.max_qp = 131072; a.max_qp_wr = 32768; a.max_sge = 30; a.max_cq = 16777216;
            a.max_cqe = 4194303; a.max_mr = 16777216; a.max_pd = 8388608; a.max_ah = 2147483647;
            a.max_pkeys = 65535; a.local_ca_ack_delay = 16; a.phys_port_cnt = 255;
            """, "a");

        final DeviceAttributes device = DeviceAttributes.read(segment(c));

        assertEquals(new DeviceAttributes("16.35.2000", 0x0002_c903_00a1_b2c4L, 0x0002_c903_00a1_b2c7L, 0x02c9, 4119,
            0x8000_0000L, 131072, 32768, 30, 16777216, 4194303, 16777216, -1L, 8388608, 2147483647, 65535, 16, 255), device);
    }

    @Test
    void shouldReadAWorkCompletionAsCWroteIt()
    {
        final String c = CHeaders.bytesOf(VERBS, """
            struct ibv_wc w[2];
            memset(w, 0, sizeof w);
            w[1].wr_id = 0xfedcba9876543210ULL; w[1].status = IBV_WC_GENERAL_ERR; w[1].opcode = IBV_WC_RECV;
            w[1].vendor_err = 0xffffffff; w[1].byte_len = 0xfffffff0; w[1].qp_num = 0xffffff; w[1].src_qp = 1;
            w[1].wc_flags = IBV_WC_GRH; w[1].pkey_index = 0xffff; w[1].slid = 0xc001; w[1].sl = 15;
            """, "w");

        try (WorkCompletions completions = new WorkCompletions(2))
        {
            MemorySegment.copy(segment(c), 0, completions.segment(), 0, completions.segment().byteSize());

            assertEquals(0xfedc_ba98_7654_3210L, completions.wrId(1));
            assertEquals(IbvConstants.IBV_WC_GENERAL_ERR, completions.status(1));
            assertEquals(IbvConstants.IBV_WC_RECV, completions.opcode(1));
            assertEquals(0xffff_ffffL, completions.vendorError(1));
            assertEquals(0xffff_fff0L, completions.byteLength(1));
            assertEquals(0xff_ffff, completions.qpNumber(1));
            assertEquals(1, completions.sourceQp(1));
            assertEquals(IbvConstants.IBV_WC_GRH, completions.flags(1));
            assertEquals(0xffff, completions.pkeyIndex(1));
            assertEquals(0xc001, completions.sourceLid(1));
            assertEquals(15, completions.serviceLevel(1));
        }
    }

    @Test
    void shouldReadQueriedQpAttributesAsCWroteThem()
    {
        final String c = CHeaders.bytesOf(VERBS, """
            struct ibv_qp_attr a;
            memset(&a, 0xa5, sizeof a);
            a.qp_state = IBV_QPS_SQE; a.qkey = 0x80010000; a.pkey_index = 0xfffe; a.port_num = 255; a.sq_psn = 0xabcdef;
            """, "a");

        final QueuePairAttributes attributes = UdQueuePair.readAttributes(segment(c));

        assertEquals(new QueuePairAttributes(QpState.SQE, 0x8001_0000L, 0xfffe, 255, 0xab_cdef), attributes);
    }

    /** The bytes in native memory, aligned as the C struct was (heap byte arrays are not). */
    private static MemorySegment segment(final String hex)
    {
        final byte[] bytes = HexFormat.of().parseHex(hex);
        final MemorySegment aligned = Arena.ofAuto().allocate(bytes.length, 8);
        MemorySegment.copy(bytes, 0, aligned, JAVA_BYTE, 0, bytes.length);
        return aligned;
    }

    private static String hex(final MemorySegment segment)
    {
        return HexFormat.of().formatHex(segment.toArray(JAVA_BYTE));
    }
}
