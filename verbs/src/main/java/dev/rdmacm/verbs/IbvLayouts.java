package dev.rdmacm.verbs;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.StructLayout;
import java.lang.foreign.UnionLayout;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.List;

import static java.lang.foreign.MemoryLayout.paddingLayout;
import static java.lang.foreign.MemoryLayout.sequenceLayout;
import static java.lang.foreign.MemoryLayout.structLayout;
import static java.lang.foreign.MemoryLayout.unionLayout;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * The structs of {@code infiniband/verbs.h} (rdma-core 44, Linux x86_64) that this binding reads or
 * writes, transcribed by hand.
 * <p>
 * FFM never pads, so every padding the C compiler inserts is written out here, and the layout names
 * are the C member names so that {@code VerbsLayoutConformanceTest} can print {@code offsetof} of
 * every member from a gcc-compiled program and compare. Anonymous C unions get names starting with
 * {@code $}, which the test leaves out of the C member path. {@code union ibv_gid} has 8-byte
 * alignment (its {@code global} view holds two {@code __be64}); modelling it as 16 bytes would make
 * {@code ibv_global_route} 23 bytes with alignment 4 instead of 24 with 8.
 * <p>
 * Host-order integers use the native-order {@link ValueLayout}s; the {@code __be} fields (GUIDs,
 * GIDs, P_Keys, immediate data) are read with {@link #BE64}, {@link #BE32} and {@link #BE16}, explicitly
 * big-endian.
 */
public final class IbvLayouts
{
    /** A {@code __be64} (GUIDs, GID halves): network byte order whatever the host's. */
    public static final ValueLayout.OfLong BE64 = JAVA_LONG.withOrder(ByteOrder.BIG_ENDIAN);
    /** A {@code __be32} (the immediate data of a send and of its completion). */
    public static final ValueLayout.OfInt BE32 = JAVA_INT.withOrder(ByteOrder.BIG_ENDIAN);
    /** A {@code __be16} (P_Keys from ibv_query_pkey). */
    public static final ValueLayout.OfShort BE16 = JAVA_SHORT.withOrder(ByteOrder.BIG_ENDIAN);

    /** {@code pthread_mutex_t}: 40 opaque bytes, 8-aligned. */
    private static final MemoryLayout PTHREAD_MUTEX = sequenceLayout(5, JAVA_LONG);
    /** {@code pthread_cond_t}: 48 opaque bytes, 8-aligned. */
    private static final MemoryLayout PTHREAD_COND = sequenceLayout(6, JAVA_LONG);

    public static final UnionLayout IBV_GID = unionLayout(
        sequenceLayout(16, JAVA_BYTE).withName("raw"),
        structLayout(
            JAVA_LONG.withName("subnet_prefix"),
            JAVA_LONG.withName("interface_id")).withName("global")).withName("union ibv_gid");

    public static final StructLayout IBV_CONTEXT_OPS = structLayout(
        ADDRESS.withName("_compat_query_device"),
        ADDRESS.withName("_compat_query_port"),
        ADDRESS.withName("_compat_alloc_pd"),
        ADDRESS.withName("_compat_dealloc_pd"),
        ADDRESS.withName("_compat_reg_mr"),
        ADDRESS.withName("_compat_rereg_mr"),
        ADDRESS.withName("_compat_dereg_mr"),
        ADDRESS.withName("alloc_mw"),
        ADDRESS.withName("bind_mw"),
        ADDRESS.withName("dealloc_mw"),
        ADDRESS.withName("_compat_create_cq"),
        ADDRESS.withName("poll_cq"),
        ADDRESS.withName("req_notify_cq"),
        ADDRESS.withName("_compat_cq_event"),
        ADDRESS.withName("_compat_resize_cq"),
        ADDRESS.withName("_compat_destroy_cq"),
        ADDRESS.withName("_compat_create_srq"),
        ADDRESS.withName("_compat_modify_srq"),
        ADDRESS.withName("_compat_query_srq"),
        ADDRESS.withName("_compat_destroy_srq"),
        ADDRESS.withName("post_srq_recv"),
        ADDRESS.withName("_compat_create_qp"),
        ADDRESS.withName("_compat_query_qp"),
        ADDRESS.withName("_compat_modify_qp"),
        ADDRESS.withName("_compat_destroy_qp"),
        ADDRESS.withName("post_send"),
        ADDRESS.withName("post_recv"),
        ADDRESS.withName("_compat_create_ah"),
        ADDRESS.withName("_compat_destroy_ah"),
        ADDRESS.withName("_compat_attach_mcast"),
        ADDRESS.withName("_compat_detach_mcast"),
        ADDRESS.withName("_compat_async_event")).withName("struct ibv_context_ops");

    public static final StructLayout IBV_CONTEXT = structLayout(
        ADDRESS.withName("device"),
        IBV_CONTEXT_OPS.withName("ops"),
        JAVA_INT.withName("cmd_fd"),
        JAVA_INT.withName("async_fd"),
        JAVA_INT.withName("num_comp_vectors"),
        paddingLayout(4),
        PTHREAD_MUTEX.withName("mutex"),
        ADDRESS.withName("abi_compat")).withName("struct ibv_context");

    /**
     * {@code struct verbs_context}: the extended context that libibverbs allocates in front of the
     * {@code ibv_context} it hands out. Only the members this binding calls are named; the rest of
     * the 312 bytes of function pointers is padding here.
     */
    public static final StructLayout VERBS_CONTEXT = structLayout(
        ADDRESS.withName("query_port"),
        paddingLayout(304),
        JAVA_LONG.withName("sz"),
        IBV_CONTEXT.withName("context")).withName("struct verbs_context");

    public static final StructLayout IBV_DEVICE = structLayout(
        structLayout(ADDRESS, ADDRESS).withName("_ops"),
        JAVA_INT.withName("node_type"),
        JAVA_INT.withName("transport_type"),
        sequenceLayout(64, JAVA_BYTE).withName("name"),
        sequenceLayout(64, JAVA_BYTE).withName("dev_name"),
        sequenceLayout(256, JAVA_BYTE).withName("dev_path"),
        sequenceLayout(256, JAVA_BYTE).withName("ibdev_path")).withName("struct ibv_device");

    public static final StructLayout IBV_DEVICE_ATTR = structLayout(
        sequenceLayout(64, JAVA_BYTE).withName("fw_ver"),
        JAVA_LONG.withName("node_guid"),
        JAVA_LONG.withName("sys_image_guid"),
        JAVA_LONG.withName("max_mr_size"),
        JAVA_LONG.withName("page_size_cap"),
        JAVA_INT.withName("vendor_id"),
        JAVA_INT.withName("vendor_part_id"),
        JAVA_INT.withName("hw_ver"),
        JAVA_INT.withName("max_qp"),
        JAVA_INT.withName("max_qp_wr"),
        JAVA_INT.withName("device_cap_flags"),
        JAVA_INT.withName("max_sge"),
        JAVA_INT.withName("max_sge_rd"),
        JAVA_INT.withName("max_cq"),
        JAVA_INT.withName("max_cqe"),
        JAVA_INT.withName("max_mr"),
        JAVA_INT.withName("max_pd"),
        JAVA_INT.withName("max_qp_rd_atom"),
        JAVA_INT.withName("max_ee_rd_atom"),
        JAVA_INT.withName("max_res_rd_atom"),
        JAVA_INT.withName("max_qp_init_rd_atom"),
        JAVA_INT.withName("max_ee_init_rd_atom"),
        JAVA_INT.withName("atomic_cap"),
        JAVA_INT.withName("max_ee"),
        JAVA_INT.withName("max_rdd"),
        JAVA_INT.withName("max_mw"),
        JAVA_INT.withName("max_raw_ipv6_qp"),
        JAVA_INT.withName("max_raw_ethy_qp"),
        JAVA_INT.withName("max_mcast_grp"),
        JAVA_INT.withName("max_mcast_qp_attach"),
        JAVA_INT.withName("max_total_mcast_qp_attach"),
        JAVA_INT.withName("max_ah"),
        JAVA_INT.withName("max_fmr"),
        JAVA_INT.withName("max_map_per_fmr"),
        JAVA_INT.withName("max_srq"),
        JAVA_INT.withName("max_srq_wr"),
        JAVA_INT.withName("max_srq_sge"),
        JAVA_SHORT.withName("max_pkeys"),
        JAVA_BYTE.withName("local_ca_ack_delay"),
        JAVA_BYTE.withName("phys_port_cnt"),
        paddingLayout(4)).withName("struct ibv_device_attr");

    /** 52 bytes in rdma-core 44; the exported {@code ibv_query_port} fills only the first 48. */
    public static final StructLayout IBV_PORT_ATTR = structLayout(
        JAVA_INT.withName("state"),
        JAVA_INT.withName("max_mtu"),
        JAVA_INT.withName("active_mtu"),
        JAVA_INT.withName("gid_tbl_len"),
        JAVA_INT.withName("port_cap_flags"),
        JAVA_INT.withName("max_msg_sz"),
        JAVA_INT.withName("bad_pkey_cntr"),
        JAVA_INT.withName("qkey_viol_cntr"),
        JAVA_SHORT.withName("pkey_tbl_len"),
        JAVA_SHORT.withName("lid"),
        JAVA_SHORT.withName("sm_lid"),
        JAVA_BYTE.withName("lmc"),
        JAVA_BYTE.withName("max_vl_num"),
        JAVA_BYTE.withName("sm_sl"),
        JAVA_BYTE.withName("subnet_timeout"),
        JAVA_BYTE.withName("init_type_reply"),
        JAVA_BYTE.withName("active_width"),
        JAVA_BYTE.withName("active_speed"),
        JAVA_BYTE.withName("phys_state"),
        JAVA_BYTE.withName("link_layer"),
        JAVA_BYTE.withName("flags"),
        JAVA_SHORT.withName("port_cap_flags2"),
        paddingLayout(2)).withName("struct ibv_port_attr");

    public static final StructLayout IBV_GID_ENTRY = structLayout(
        IBV_GID.withName("gid"),
        JAVA_INT.withName("gid_index"),
        JAVA_INT.withName("port_num"),
        JAVA_INT.withName("gid_type"),
        JAVA_INT.withName("ndev_ifindex")).withName("struct ibv_gid_entry");

    public static final StructLayout IBV_PD = structLayout(
        ADDRESS.withName("context"),
        JAVA_INT.withName("handle"),
        paddingLayout(4)).withName("struct ibv_pd");

    public static final StructLayout IBV_MR = structLayout(
        ADDRESS.withName("context"),
        ADDRESS.withName("pd"),
        ADDRESS.withName("addr"),
        JAVA_LONG.withName("length"),
        JAVA_INT.withName("handle"),
        JAVA_INT.withName("lkey"),
        JAVA_INT.withName("rkey"),
        paddingLayout(4)).withName("struct ibv_mr");

    public static final StructLayout IBV_COMP_CHANNEL = structLayout(
        ADDRESS.withName("context"),
        JAVA_INT.withName("fd"),
        JAVA_INT.withName("refcnt")).withName("struct ibv_comp_channel");

    public static final StructLayout IBV_CQ = structLayout(
        ADDRESS.withName("context"),
        ADDRESS.withName("channel"),
        ADDRESS.withName("cq_context"),
        JAVA_INT.withName("handle"),
        JAVA_INT.withName("cqe"),
        PTHREAD_MUTEX.withName("mutex"),
        PTHREAD_COND.withName("cond"),
        JAVA_INT.withName("comp_events_completed"),
        JAVA_INT.withName("async_events_completed")).withName("struct ibv_cq");

    public static final StructLayout IBV_QP_CAP = structLayout(
        JAVA_INT.withName("max_send_wr"),
        JAVA_INT.withName("max_recv_wr"),
        JAVA_INT.withName("max_send_sge"),
        JAVA_INT.withName("max_recv_sge"),
        JAVA_INT.withName("max_inline_data")).withName("struct ibv_qp_cap");

    public static final StructLayout IBV_QP_INIT_ATTR = structLayout(
        ADDRESS.withName("qp_context"),
        ADDRESS.withName("send_cq"),
        ADDRESS.withName("recv_cq"),
        ADDRESS.withName("srq"),
        IBV_QP_CAP.withName("cap"),
        JAVA_INT.withName("qp_type"),
        JAVA_INT.withName("sq_sig_all"),
        paddingLayout(4)).withName("struct ibv_qp_init_attr");

    public static final StructLayout IBV_QP = structLayout(
        ADDRESS.withName("context"),
        ADDRESS.withName("qp_context"),
        ADDRESS.withName("pd"),
        ADDRESS.withName("send_cq"),
        ADDRESS.withName("recv_cq"),
        ADDRESS.withName("srq"),
        JAVA_INT.withName("handle"),
        JAVA_INT.withName("qp_num"),
        JAVA_INT.withName("state"),
        JAVA_INT.withName("qp_type"),
        PTHREAD_MUTEX.withName("mutex"),
        PTHREAD_COND.withName("cond"),
        JAVA_INT.withName("events_completed"),
        paddingLayout(4)).withName("struct ibv_qp");

    public static final StructLayout IBV_GLOBAL_ROUTE = structLayout(
        IBV_GID.withName("dgid"),
        JAVA_INT.withName("flow_label"),
        JAVA_BYTE.withName("sgid_index"),
        JAVA_BYTE.withName("hop_limit"),
        JAVA_BYTE.withName("traffic_class"),
        paddingLayout(1)).withName("struct ibv_global_route");

    public static final StructLayout IBV_AH_ATTR = structLayout(
        IBV_GLOBAL_ROUTE.withName("grh"),
        JAVA_SHORT.withName("dlid"),
        JAVA_BYTE.withName("sl"),
        JAVA_BYTE.withName("src_path_bits"),
        JAVA_BYTE.withName("static_rate"),
        JAVA_BYTE.withName("is_global"),
        JAVA_BYTE.withName("port_num"),
        paddingLayout(1)).withName("struct ibv_ah_attr");

    public static final StructLayout IBV_AH = structLayout(
        ADDRESS.withName("context"),
        ADDRESS.withName("pd"),
        JAVA_INT.withName("handle"),
        paddingLayout(4)).withName("struct ibv_ah");

    public static final StructLayout IBV_QP_ATTR = structLayout(
        JAVA_INT.withName("qp_state"),
        JAVA_INT.withName("cur_qp_state"),
        JAVA_INT.withName("path_mtu"),
        JAVA_INT.withName("path_mig_state"),
        JAVA_INT.withName("qkey"),
        JAVA_INT.withName("rq_psn"),
        JAVA_INT.withName("sq_psn"),
        JAVA_INT.withName("dest_qp_num"),
        JAVA_INT.withName("qp_access_flags"),
        IBV_QP_CAP.withName("cap"),
        IBV_AH_ATTR.withName("ah_attr"),
        IBV_AH_ATTR.withName("alt_ah_attr"),
        JAVA_SHORT.withName("pkey_index"),
        JAVA_SHORT.withName("alt_pkey_index"),
        JAVA_BYTE.withName("en_sqd_async_notify"),
        JAVA_BYTE.withName("sq_draining"),
        JAVA_BYTE.withName("max_rd_atomic"),
        JAVA_BYTE.withName("max_dest_rd_atomic"),
        JAVA_BYTE.withName("min_rnr_timer"),
        JAVA_BYTE.withName("port_num"),
        JAVA_BYTE.withName("timeout"),
        JAVA_BYTE.withName("retry_cnt"),
        JAVA_BYTE.withName("rnr_retry"),
        JAVA_BYTE.withName("alt_port_num"),
        JAVA_BYTE.withName("alt_timeout"),
        paddingLayout(1),
        JAVA_INT.withName("rate_limit"),
        paddingLayout(4)).withName("struct ibv_qp_attr");

    public static final StructLayout IBV_SGE = structLayout(
        JAVA_LONG.withName("addr"),
        JAVA_INT.withName("length"),
        JAVA_INT.withName("lkey")).withName("struct ibv_sge");

    public static final StructLayout IBV_MW_BIND_INFO = structLayout(
        ADDRESS.withName("mr"),
        JAVA_LONG.withName("addr"),
        JAVA_LONG.withName("length"),
        JAVA_INT.withName("mw_access_flags"),
        paddingLayout(4)).withName("struct ibv_mw_bind_info");

    public static final StructLayout IBV_SEND_WR = structLayout(
        JAVA_LONG.withName("wr_id"),
        ADDRESS.withName("next"),
        ADDRESS.withName("sg_list"),
        JAVA_INT.withName("num_sge"),
        JAVA_INT.withName("opcode"),
        JAVA_INT.withName("send_flags"),
        unionLayout(
            JAVA_INT.withName("imm_data"),
            JAVA_INT.withName("invalidate_rkey")).withName("$imm"),
        unionLayout(
            structLayout(
                JAVA_LONG.withName("remote_addr"),
                JAVA_INT.withName("rkey"),
                paddingLayout(4)).withName("rdma"),
            structLayout(
                JAVA_LONG.withName("remote_addr"),
                JAVA_LONG.withName("compare_add"),
                JAVA_LONG.withName("swap"),
                JAVA_INT.withName("rkey"),
                paddingLayout(4)).withName("atomic"),
            structLayout(
                ADDRESS.withName("ah"),
                JAVA_INT.withName("remote_qpn"),
                JAVA_INT.withName("remote_qkey")).withName("ud")).withName("wr"),
        unionLayout(
            structLayout(JAVA_INT.withName("remote_srqn")).withName("xrc")).withName("qp_type"),
        paddingLayout(4),
        unionLayout(
            structLayout(
                ADDRESS.withName("mw"),
                JAVA_INT.withName("rkey"),
                paddingLayout(4),
                IBV_MW_BIND_INFO.withName("bind_info")).withName("bind_mw"),
            structLayout(
                ADDRESS.withName("hdr"),
                JAVA_SHORT.withName("hdr_sz"),
                JAVA_SHORT.withName("mss"),
                paddingLayout(4)).withName("tso")).withName("$bind_or_tso")).withName("struct ibv_send_wr");

    public static final StructLayout IBV_RECV_WR = structLayout(
        JAVA_LONG.withName("wr_id"),
        ADDRESS.withName("next"),
        ADDRESS.withName("sg_list"),
        JAVA_INT.withName("num_sge"),
        paddingLayout(4)).withName("struct ibv_recv_wr");

    public static final StructLayout IBV_WC = structLayout(
        JAVA_LONG.withName("wr_id"),
        JAVA_INT.withName("status"),
        JAVA_INT.withName("opcode"),
        JAVA_INT.withName("vendor_err"),
        JAVA_INT.withName("byte_len"),
        unionLayout(
            JAVA_INT.withName("imm_data"),
            JAVA_INT.withName("invalidated_rkey")).withName("$imm"),
        JAVA_INT.withName("qp_num"),
        JAVA_INT.withName("src_qp"),
        JAVA_INT.withName("wc_flags"),
        JAVA_SHORT.withName("pkey_index"),
        JAVA_SHORT.withName("slid"),
        JAVA_BYTE.withName("sl"),
        JAVA_BYTE.withName("dlid_path_bits"),
        paddingLayout(2)).withName("struct ibv_wc");

    /** Every struct above, for the conformance test. */
    public static final List<MemoryLayout> ALL = List.of(
        IBV_GID, IBV_CONTEXT_OPS, IBV_CONTEXT, VERBS_CONTEXT, IBV_DEVICE, IBV_DEVICE_ATTR, IBV_PORT_ATTR,
        IBV_GID_ENTRY, IBV_PD, IBV_MR, IBV_COMP_CHANNEL, IBV_CQ, IBV_QP_CAP, IBV_QP_INIT_ATTR, IBV_QP,
        IBV_GLOBAL_ROUTE, IBV_AH_ATTR, IBV_AH, IBV_QP_ATTR, IBV_SGE, IBV_MW_BIND_INFO, IBV_SEND_WR,
        IBV_RECV_WR, IBV_WC);

    private IbvLayouts()
    {
    }

    /** The byte offset of a member, by its path of C member names ({@code $}-named unions included). */
    public static long offset(final MemoryLayout layout, final String... path)
    {
        final PathElement[] elements = new PathElement[path.length];
        for (int i = 0; i < path.length; i++)
        {
            elements[i] = PathElement.groupElement(path[i]);
        }
        return layout.byteOffset(elements);
    }
}
