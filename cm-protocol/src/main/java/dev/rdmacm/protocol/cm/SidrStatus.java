package dev.rdmacm.protocol.cm;

/**
 * The Status of a SIDR_REP (IBA 12.11.2, Table 120), named as the kernel's
 * {@code enum ib_cm_sidr_status} names them ({@code IB_SIDR_NO_QP} is {@link #NO_QP}); the codes are
 * ib_cm_types.h's {@code IB_SIDR_*}.
 */
public enum SidrStatus
{
    SUCCESS(0),
    UNSUPPORTED(1),
    REJECT(2),
    NO_QP(3),
    REDIRECT(4),
    UNSUPPORTED_VERSION(5);

    private static final SidrStatus[] BY_CODE = values();

    private final int code;

    SidrStatus(final int code)
    {
        this.code = code;
    }

    /** The 8-bit Status as it is on the wire. */
    public int code()
    {
        return code;
    }

    /** The status with this code, or {@code null} for a code IBA does not assign. */
    public static SidrStatus fromCode(final int code)
    {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
