package dev.rdmacm.protocol.cm;

/**
 * The AP status of an APR (IBA 12.8.3, Table 117), named as the kernel's {@code enum ib_cm_apr_status}
 * names them ({@code IB_CM_APR_INVALID_LID} is {@link #INVALID_LID}); the codes are ib_cm_types.h's
 * {@code IB_AP_*}.
 */
public enum AlternatePathStatus
{
    SUCCESS(0),
    INVALID_COMM_ID(1),
    UNSUPPORTED(2),
    REJECT(3),
    REDIRECT(4),
    IS_CURRENT(5),
    INVALID_QPN_EECN(6),
    INVALID_LID(7),
    INVALID_GID(8),
    INVALID_FLOW_LABEL(9),
    INVALID_TCLASS(10),
    INVALID_HOP_LIMIT(11),
    INVALID_PACKET_RATE(12),
    INVALID_SL(13);

    private static final AlternatePathStatus[] BY_CODE = values();

    private final int code;

    AlternatePathStatus(final int code)
    {
        this.code = code;
    }

    /** The 8-bit AP status as it is on the wire. */
    public int code()
    {
        return code;
    }

    /** The status with this code, or {@code null} for a code IBA does not assign. */
    public static AlternatePathStatus fromCode(final int code)
    {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
