package dev.rdmacm.verbs;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.sa.MtuCode;
import dev.rdmacm.testing.CHeaders;
import dev.rdmacm.testing.CProgram;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The bytes the RC QP's transitions and posts write into verbs structs, and read from them,
 * compared with what a C program leaves when it fills the same struct through
 * {@code infiniband/verbs.h}: the path's GRH inside {@code ibv_qp_attr}, the RTR and RTS members,
 * the {@code wr.rdma} union and the big-endian immediate data of {@code ibv_send_wr}, the
 * scatter/gather entries, and a completion's immediate data and status.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RcStructBytesTest
{
    private static final String VERBS = "#include <infiniband/verbs.h>";

    @BeforeEach
    void requireHeaders()
    {
        Peers.requireFile("/usr/include/infiniband/verbs.h", "libibverbs-dev");
    }

    @Test
    void shouldAskForAnRcQpAsC()
    {
        final String c = CHeaders.bytesOf(VERBS, """
            struct ibv_qp_init_attr a;
            memset(&a, 0, sizeof a);
            a.send_cq = (struct ibv_cq *)0x1000; a.recv_cq = (struct ibv_cq *)0x2000;
            a.cap.max_send_wr = 8; a.cap.max_recv_wr = 500; a.cap.max_send_sge = 4; a.cap.max_recv_sge = 3;
            a.cap.max_inline_data = 64; a.qp_type = IBV_QPT_RC; a.sq_sig_all = 0;
            """, "a");

        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment init = arena.allocate(IbvLayouts.IBV_QP_INIT_ATTR);
            RcQueuePair.writeCreateAttributes(init, MemorySegment.ofAddress(0x1000), MemorySegment.ofAddress(0x2000),
                new QueuePairCapabilities(8, 500, 4, 3, 64));

            assertEquals(c, hex(init));
        }
    }

    @Test
    void shouldMoveAnRcQpToInitWithRemoteAccessAsC()
    {
        final String c = CHeaders.bytesOf(VERBS, """
            struct ibv_qp_attr a;
            memset(&a, 0, sizeof a);
            a.qp_state = IBV_QPS_INIT; a.pkey_index = 0x7f; a.port_num = 2;
            a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
            """, "a");

        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment attr = state(arena, QpState.INIT);
            RcQueuePair.writeInitAttributes(attr, 2, 0x7f, IbvConstants.IBV_ACCESS_REMOTE_WRITE
                | IbvConstants.IBV_ACCESS_REMOTE_READ | IbvConstants.IBV_ACCESS_REMOTE_ATOMIC);

            assertEquals(c, hex(attr));
        }
    }

    @Test
    void shouldMoveAnRcQpToRtrWithARoceGrhPathAsC()
    {
        final String c = CHeaders.bytesOf(VERBS, """
            struct ibv_qp_attr a;
            memset(&a, 0, sizeof a);
            a.qp_state = IBV_QPS_RTR; a.path_mtu = IBV_MTU_1024; a.dest_qp_num = 0xabcdef; a.rq_psn = 0x123456;
            a.max_dest_rd_atomic = 16; a.min_rnr_timer = 12;
            a.ah_attr.is_global = 1; a.ah_attr.port_num = 1; a.ah_attr.sl = 5; a.ah_attr.dlid = 0;
            a.ah_attr.grh.dgid.raw[10] = 0xff; a.ah_attr.grh.dgid.raw[11] = 0xff;
            a.ah_attr.grh.dgid.raw[12] = 192; a.ah_attr.grh.dgid.raw[13] = 0; a.ah_attr.grh.dgid.raw[14] = 2;
            a.ah_attr.grh.dgid.raw[15] = 2;
            a.ah_attr.grh.sgid_index = 3; a.ah_attr.grh.hop_limit = 64; a.ah_attr.grh.traffic_class = 0x68;
            a.ah_attr.grh.flow_label = 0xabcde;
            """, "a");
        final AddressVector path = new AddressVector(1, 0, 5, 0, 0,
            Optional.of(new AddressVector.GlobalRoute(Gid.parse("::ffff:192.0.2.2"), 3, 64, 0x68, 0xabcde)));

        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment attr = state(arena, QpState.RTR);
            RcQueuePair.writeRtrAttributes(attr, new RcReceiveParameters(path, MtuCode.MTU_1024, 0xabcdef, 0x123456, 16, 12));

            assertEquals(c, hex(attr));
        }
    }

    @Test
    void shouldMoveAnRcQpToRtsAsC()
    {
        final String c = CHeaders.bytesOf(VERBS, """
            struct ibv_qp_attr a;
            memset(&a, 0, sizeof a);
            a.qp_state = IBV_QPS_RTS; a.sq_psn = 0xfedcba; a.timeout = 14; a.retry_cnt = 7; a.rnr_retry = 6;
            a.max_rd_atomic = 4;
            """, "a");

        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment attr = state(arena, QpState.RTS);
            RcQueuePair.writeRtsAttributes(attr, new RcSendParameters(0xfedcba, 14, 7, 6, 4));

            assertEquals(c, hex(attr));
        }
    }

    @Test
    void shouldReadQueriedRcAttributesAsCWroteThem()
    {
        final String c = CHeaders.bytesOf(VERBS, """
            struct ibv_qp_attr a;
            memset(&a, 0, sizeof a);
            a.qp_state = IBV_QPS_RTS; a.path_mtu = IBV_MTU_4096; a.qp_access_flags = IBV_ACCESS_REMOTE_READ;
            a.pkey_index = 1; a.port_num = 1; a.dest_qp_num = 0x11; a.rq_psn = 0xffffff; a.sq_psn = 0x222;
            a.max_dest_rd_atomic = 128; a.max_rd_atomic = 255; a.min_rnr_timer = 31; a.timeout = 18; a.retry_cnt = 3;
            a.rnr_retry = 7;
            a.cap.max_send_wr = 9; a.cap.max_recv_wr = 10; a.cap.max_send_sge = 2; a.cap.max_recv_sge = 1;
            a.cap.max_inline_data = 112;
            a.ah_attr.is_global = 1; a.ah_attr.port_num = 1; a.ah_attr.sl = 15; a.ah_attr.static_rate = 3;
            a.ah_attr.grh.dgid.global.subnet_prefix = htobe64(0xfe80000000000000ULL);
            a.ah_attr.grh.dgid.global.interface_id = htobe64(0x0002c90300a1b2c5ULL);
            a.ah_attr.grh.sgid_index = 1; a.ah_attr.grh.hop_limit = 1; a.ah_attr.grh.traffic_class = 255;
            a.ah_attr.grh.flow_label = 0xfffff;
            """, "a");

        final RcQueuePairAttributes attributes = RcQueuePair.readAttributes(segment(c));

        assertEquals(new RcQueuePairAttributes(QpState.RTS, IbvConstants.IBV_ACCESS_REMOTE_READ, 1, 1,
            Optional.of(new AddressVector(1, 0, 15, 0, 3,
                Optional.of(new AddressVector.GlobalRoute(Gid.parse("fe80::2:c903:a1:b2c5"), 1, 1, 255, 0xfffff)))),
            Optional.of(MtuCode.MTU_4096), 0x11, 0xffffff, 0x222, 128, 255, 31, 18, 3, 7,
            new QueuePairCapabilities(9, 10, 2, 1, 112)), attributes);
    }

    @Test
    void shouldReadNoPathFromAQpInReset()
    {
        final String c = CHeaders.bytesOf(VERBS, """
            struct ibv_qp_attr a;
            memset(&a, 0, sizeof a);
            a.qp_state = IBV_QPS_RESET;
            a.cap.max_send_wr = 1; a.cap.max_recv_wr = 1; a.cap.max_send_sge = 1; a.cap.max_recv_sge = 1;
            """, "a");

        final RcQueuePairAttributes attributes = RcQueuePair.readAttributes(segment(c));

        assertEquals(Optional.empty(), attributes.primaryPath());
        assertEquals(Optional.empty(), attributes.pathMtu());
    }

    @Test
    void shouldPostASignalledInlineSendWithImmediateDataOverTwoEntriesAsC()
    {
        try (ScatterGatherList sgl = new ScatterGatherList(2); RcWorkRequests requests = new RcWorkRequests(null, MemorySegment.NULL, Arena.ofAuto().allocate(RcWorkRequests.LAYOUT)))
        {
            sgl.put(0x7000_1000L, 24, 0x11).put(0x7000_2000L, 40, 0x22);
            requests.fillSend(0xfeed_0001L, IbvConstants.IBV_WR_SEND_WITH_IMM, sgl, true, true, 0x1234_5678, 0, 0);
            final String c = CHeaders.bytesOf(VERBS, """
                struct ibv_send_wr w;
                memset(&w, 0, sizeof w);
                w.wr_id = 0xfeed0001ULL; w.next = NULL; w.sg_list = (struct ibv_sge *)0x%xULL; w.num_sge = 2;
                w.opcode = IBV_WR_SEND_WITH_IMM; w.send_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
                w.imm_data = htobe32(0x12345678);
                """.formatted(sgl.segment().address()), "w");

            assertEquals(c, hex(requests.sendWr()));
        }
    }

    @Test
    void shouldPostAnUnsignalledRdmaWriteWithTheRdmaUnionAsC()
    {
        try (ScatterGatherList sgl = new ScatterGatherList(1); RcWorkRequests requests = new RcWorkRequests(null, MemorySegment.NULL, Arena.ofAuto().allocate(RcWorkRequests.LAYOUT)))
        {
            sgl.put(0x7000_1000L, 4096, 0x33);
            requests.fillSend(7, IbvConstants.IBV_WR_RDMA_WRITE, sgl, false, false, 0, 0x7fff_0000_1234L, 0xfedc_ba98);
            final String c = CHeaders.bytesOf(VERBS, """
                struct ibv_send_wr w;
                memset(&w, 0, sizeof w);
                w.wr_id = 7; w.sg_list = (struct ibv_sge *)0x%xULL; w.num_sge = 1; w.opcode = IBV_WR_RDMA_WRITE;
                w.send_flags = 0; w.wr.rdma.remote_addr = 0x7fff00001234ULL; w.wr.rdma.rkey = 0xfedcba98;
                """.formatted(sgl.segment().address()), "w");

            assertEquals(c, hex(requests.sendWr()));
        }
    }

    @Test
    void shouldPostAnRdmaReadAsC()
    {
        try (ScatterGatherList sgl = new ScatterGatherList(1); RcWorkRequests requests = new RcWorkRequests(null, MemorySegment.NULL, Arena.ofAuto().allocate(RcWorkRequests.LAYOUT)))
        {
            sgl.put(0x7000_1000L, 512, 0x44);
            requests.fillSend(-1L, IbvConstants.IBV_WR_RDMA_READ, sgl, true, false, 0, 0x1000L, 0x1);
            final String c = CHeaders.bytesOf(VERBS, """
                struct ibv_send_wr w;
                memset(&w, 0, sizeof w);
                w.wr_id = 0xffffffffffffffffULL; w.sg_list = (struct ibv_sge *)0x%xULL; w.num_sge = 1;
                w.opcode = IBV_WR_RDMA_READ; w.send_flags = IBV_SEND_SIGNALED;
                w.wr.rdma.remote_addr = 0x1000; w.wr.rdma.rkey = 1;
                """.formatted(sgl.segment().address()), "w");

            assertEquals(c, hex(requests.sendWr()));
        }
    }

    @Test
    void shouldPostAReceiveOverThreeEntriesAsC()
    {
        try (ScatterGatherList sgl = new ScatterGatherList(3); RcWorkRequests requests = new RcWorkRequests(null, MemorySegment.NULL, Arena.ofAuto().allocate(RcWorkRequests.LAYOUT)))
        {
            sgl.put(0x7000_1000L, 1, 0x55).put(0x7000_2000L, 0x7fff_ffff, 0x66).put(0xffff_ffff_0000L, 0, -1);
            requests.fillRecv(0x5151, sgl);
            final String wr = CHeaders.bytesOf(VERBS, """
                struct ibv_recv_wr w;
                memset(&w, 0, sizeof w);
                w.wr_id = 0x5151; w.next = NULL; w.sg_list = (struct ibv_sge *)0x%xULL; w.num_sge = 3;
                """.formatted(sgl.segment().address()), "w");
            final String sges = CHeaders.bytesOf(VERBS, """
                struct ibv_sge s[3];
                memset(s, 0, sizeof s);
                s[0].addr = 0x70001000ULL; s[0].length = 1; s[0].lkey = 0x55;
                s[1].addr = 0x70002000ULL; s[1].length = 0x7fffffff; s[1].lkey = 0x66;
                s[2].addr = 0xffffffff0000ULL; s[2].length = 0; s[2].lkey = 0xffffffff;
                """, "s");

            assertEquals(wr, hex(requests.recvWr()));
            assertEquals(sges, hex(sgl.segment()));
            assertEquals(3, sgl.count());
            assertEquals(1L + 0x7fff_ffff, sgl.totalLength());
        }
    }

    @Test
    void shouldReadAWriteWithImmediatesCompletionAsCWroteIt()
    {
        final String c = CHeaders.bytesOf(VERBS, """
            struct ibv_wc w;
            memset(&w, 0, sizeof w);
            w.wr_id = 3; w.status = IBV_WC_SUCCESS; w.opcode = IBV_WC_RECV_RDMA_WITH_IMM; w.byte_len = 0;
            w.imm_data = htobe32(0xcafe0001); w.qp_num = 0x12; w.src_qp = 0x34; w.wc_flags = IBV_WC_WITH_IMM;
            """, "w");

        try (WorkCompletions completions = new WorkCompletions(1))
        {
            MemorySegment.copy(segment(c), 0, completions.segment(), 0, completions.segment().byteSize());

            assertEquals(0xcafe_0001, completions.immediateData(0));
            assertEquals(true, completions.hasImmediateData(0));
            assertEquals(CompletionOpcode.RECV_RDMA_WITH_IMM, completions.completionOpcode(0));
            assertEquals(CompletionStatus.SUCCESS, completions.completionStatus(0));
        }
    }

    @Test
    void shouldDescribeEveryCompletionStatusAsLibibverbsDoes()
    {
        final String fromC = CProgram.compileAndRun("""
            #include <stdio.h>
            #include <infiniband/verbs.h>
            int main(void) {
              for (int s = IBV_WC_SUCCESS; s <= IBV_WC_TM_RNDV_INCOMPLETE; s++) printf("%d %s\\n", s, ibv_wc_status_str(s));
              return 0;
            }
            """, "-libverbs");

        final StringBuilder ours = new StringBuilder();
        for (final CompletionStatus status : CompletionStatus.values())
        {
            ours.append(status.value()).append(' ').append(status.description()).append('\n');
        }
        assertEquals(fromC, ours.toString());
    }

    @Test
    void shouldNameEveryCompletionStatusAndOpcodeAsTheHeaderDoes()
    {
        final StringBuilder c = new StringBuilder("#include <stdio.h>\n#include <infiniband/verbs.h>\nint main(void) {\n");
        final StringBuilder ours = new StringBuilder();
        for (final AbiEnum constant : concat(CompletionStatus.values(), CompletionOpcode.values()))
        {
            c.append("  printf(\"%s %d\\n\", \"").append(constant.text()).append("\", (int)").append(constant.text()).append(");\n");
            ours.append(constant.text()).append(' ').append(constant.value()).append('\n');
        }
        c.append("  return 0;\n}\n");

        assertEquals(CProgram.compileAndRun(c.toString()), ours.toString());
    }

    private static AbiEnum[] concat(final AbiEnum[] first, final AbiEnum[] second)
    {
        final AbiEnum[] all = new AbiEnum[first.length + second.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }

    private static MemorySegment state(final Arena arena, final QpState state)
    {
        final MemorySegment attr = arena.allocate(IbvLayouts.IBV_QP_ATTR);
        attr.set(JAVA_INT, RcQueuePair.ATTR_QP_STATE_OFFSET, state.value());
        return attr;
    }

    /** The bytes in native memory, aligned as the C struct was. */
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
