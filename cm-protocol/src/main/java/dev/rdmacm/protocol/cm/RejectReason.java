package dev.rdmacm.protocol.cm;

/**
 * The Reason codes of a REJ (IBA 12.6.7.2, Table 109), named as the kernel's
 * {@code enum ib_cm_rej_reason} names them ({@code IB_CM_REJ_NO_QP} is {@link #NO_QP}) and described
 * as the kernel's {@code ibcm_reject_msg()} describes them, which is what {@code rdma_reject_msg()}
 * shows librdmacm users. Code 34 is not assigned; 35 came with ECE (IBA comment 9434).
 */
public enum RejectReason
{
    NO_QP(1, "no QP"),
    NO_EEC(2, "no EEC"),
    NO_RESOURCES(3, "no resources"),
    TIMEOUT(4, "timeout"),
    UNSUPPORTED(5, "unsupported"),
    INVALID_COMM_ID(6, "invalid comm ID"),
    INVALID_COMM_INSTANCE(7, "invalid comm instance"),
    INVALID_SERVICE_ID(8, "invalid service ID"),
    INVALID_TRANSPORT_TYPE(9, "invalid transport type"),
    STALE_CONN(10, "stale conn"),
    RDC_NOT_EXIST(11, "RDC not exist"),
    INVALID_GID(12, "invalid GID"),
    INVALID_LID(13, "invalid LID"),
    INVALID_SL(14, "invalid SL"),
    INVALID_TRAFFIC_CLASS(15, "invalid traffic class"),
    INVALID_HOP_LIMIT(16, "invalid hop limit"),
    INVALID_PACKET_RATE(17, "invalid packet rate"),
    INVALID_ALT_GID(18, "invalid alt GID"),
    INVALID_ALT_LID(19, "invalid alt LID"),
    INVALID_ALT_SL(20, "invalid alt SL"),
    INVALID_ALT_TRAFFIC_CLASS(21, "invalid alt traffic class"),
    INVALID_ALT_HOP_LIMIT(22, "invalid alt hop limit"),
    INVALID_ALT_PACKET_RATE(23, "invalid alt packet rate"),
    PORT_CM_REDIRECT(24, "port CM redirect"),
    PORT_REDIRECT(25, "port redirect"),
    INVALID_MTU(26, "invalid MTU"),
    INSUFFICIENT_RESP_RESOURCES(27, "insufficient resp resources"),
    CONSUMER_DEFINED(28, "consumer defined"),
    INVALID_RNR_RETRY(29, "invalid RNR retry"),
    DUPLICATE_LOCAL_COMM_ID(30, "duplicate local comm ID"),
    INVALID_CLASS_VERSION(31, "invalid class version"),
    INVALID_FLOW_LABEL(32, "invalid flow label"),
    INVALID_ALT_FLOW_LABEL(33, "invalid alt flow label"),
    VENDOR_OPTION_NOT_SUPPORTED(35, "vendor option is not supported");

    private static final RejectReason[] BY_CODE = new RejectReason[36];

    static
    {
        for (final RejectReason reason : values())
        {
            BY_CODE[reason.code] = reason;
        }
    }

    private final int code;
    private final String description;

    RejectReason(final int code, final String description)
    {
        this.code = code;
        this.description = description;
    }

    /** The 16-bit Reason as it is on the wire. */
    public int code()
    {
        return code;
    }

    /** The kernel's text for the reason, e.g. {@code invalid service ID}. */
    public String description()
    {
        return description;
    }

    /** The reason with this code, or {@code null} for a code IBA does not assign. */
    public static RejectReason fromCode(final int code)
    {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }

    /** The kernel's text for any code, {@code unrecognized reason} for unassigned ones, as the kernel says. */
    public static String describe(final int code)
    {
        final RejectReason reason = fromCode(code);
        return reason == null ? "unrecognized reason" : reason.description;
    }
}
