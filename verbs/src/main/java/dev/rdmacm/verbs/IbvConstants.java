package dev.rdmacm.verbs;

/**
 * The enumerators of {@code infiniband/verbs.h} this binding passes to or reads from libibverbs,
 * named exactly as in C so that {@code VerbsLayoutConformanceTest} can print each from a
 * gcc-compiled program and compare.
 */
public final class IbvConstants
{
    // enum ibv_qp_type
    public static final int IBV_QPT_UD = 4;

    // enum ibv_qp_state
    public static final int IBV_QPS_RESET = 0;
    public static final int IBV_QPS_INIT = 1;
    public static final int IBV_QPS_RTR = 2;
    public static final int IBV_QPS_RTS = 3;
    public static final int IBV_QPS_SQD = 4;
    public static final int IBV_QPS_SQE = 5;
    public static final int IBV_QPS_ERR = 6;

    // enum ibv_qp_attr_mask
    public static final int IBV_QP_STATE = 1;
    public static final int IBV_QP_PKEY_INDEX = 1 << 4;
    public static final int IBV_QP_PORT = 1 << 5;
    public static final int IBV_QP_QKEY = 1 << 6;
    public static final int IBV_QP_SQ_PSN = 1 << 16;

    // enum ibv_access_flags
    public static final int IBV_ACCESS_LOCAL_WRITE = 1;

    // enum ibv_wr_opcode
    public static final int IBV_WR_SEND = 2;
    public static final int IBV_WR_SEND_WITH_IMM = 3;

    // enum ibv_send_flags
    public static final int IBV_SEND_SIGNALED = 1 << 1;
    public static final int IBV_SEND_SOLICITED = 1 << 2;
    public static final int IBV_SEND_INLINE = 1 << 3;

    // enum ibv_wc_status
    public static final int IBV_WC_SUCCESS = 0;
    public static final int IBV_WC_WR_FLUSH_ERR = 5;
    public static final int IBV_WC_GENERAL_ERR = 21;

    // enum ibv_wc_opcode
    public static final int IBV_WC_SEND = 0;
    public static final int IBV_WC_RECV = 1 << 7;

    // enum ibv_wc_flags
    public static final int IBV_WC_GRH = 1;

    // enum ibv_gid_type
    public static final int IBV_GID_TYPE_IB = 0;
    public static final int IBV_GID_TYPE_ROCE_V1 = 1;
    public static final int IBV_GID_TYPE_ROCE_V2 = 2;

    // enum ibv_port_state
    public static final int IBV_PORT_DOWN = 1;
    public static final int IBV_PORT_ACTIVE = 4;

    // enum ibv_node_type
    public static final int IBV_NODE_CA = 1;

    // IBV_LINK_LAYER_*
    public static final int IBV_LINK_LAYER_INFINIBAND = 1;
    public static final int IBV_LINK_LAYER_ETHERNET = 2;

    /** The space a UD receive buffer reserves in front of the payload for the GRH (IBA 11.4.1.2). */
    public static final int GRH_LENGTH = 40;

    private IbvConstants()
    {
    }
}
