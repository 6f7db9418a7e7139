package dev.rdmacm.ucma.abi;

/**
 * The values of {@code <rdma/rdma_user_cm.h>} that are not commands or struct layouts (those are
 * {@link UcmaCommand} and the flyweights), and the few the ABI takes from other headers: the QP types
 * of {@code ib_verbs.h} that CREATE_ID carries and the {@code ibv_event_type}s that NOTIFY carries.
 * Each is checked against the header by gcc (UcmaLayoutConformanceTest).
 */
public final class UcmaConstants
{
    /** {@code RDMA_USER_CM_ABI_VERSION}: the version this binding speaks; librdmacm accepts 3 and 4. */
    public static final int ABI_VERSION = 4;
    /** {@code RDMA_MAX_PRIVATE_DATA}: the room in conn_param, ud_param and reject. */
    public static final int MAX_PRIVATE_DATA = 256;

    /** {@code enum rdma_ucm_port_space}: bytes 4 and 5 of the Service ID (IBTA Annex A11). */
    public static final int RDMA_PS_IPOIB = 0x0002;
    public static final int RDMA_PS_IB = 0x013f;
    public static final int RDMA_PS_TCP = 0x0106;
    public static final int RDMA_PS_UDP = 0x0111;

    /** {@code enum ib_qp_type} values CREATE_ID takes for {@link #RDMA_PS_IB} (the other spaces imply theirs). */
    public static final int IB_QPT_RC = 2;
    public static final int IB_QPT_UD = 4;

    /** The {@code option} of QUERY. */
    public static final int RDMA_USER_CM_QUERY_ADDR = 0;
    public static final int RDMA_USER_CM_QUERY_PATH = 1;
    public static final int RDMA_USER_CM_QUERY_GID = 2;

    /** SET_OPTION's levels and names. */
    public static final int RDMA_OPTION_ID = 0;
    public static final int RDMA_OPTION_IB = 1;
    public static final int RDMA_OPTION_ID_TOS = 0;
    public static final int RDMA_OPTION_ID_REUSEADDR = 1;
    public static final int RDMA_OPTION_ID_AFONLY = 2;
    public static final int RDMA_OPTION_ID_ACK_TIMEOUT = 3;
    public static final int RDMA_OPTION_IB_PATH = 1;

    /** JOIN_MCAST's {@code join_flags}. */
    public static final int RDMA_MC_JOIN_FLAG_FULLMEMBER = 0;
    public static final int RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER = 1;

    /** NOTIFY's {@code event} ({@code enum ibv_event_type}): the only two the kernel acts on. */
    public static final int IBV_EVENT_PATH_MIG = 6;
    public static final int IBV_EVENT_COMM_EST = 4;

    /** The one flag set {@code RDMA_OPTION_IB_PATH} installs: GMP, PRIMARY, BIDIRECTIONAL. */
    public static final int IB_PATH_INSTALLED_FLAGS = 0x2b;

    private UcmaConstants()
    {
    }
}
