package dev.rdmacm.protocol.acm;

/**
 * The opcodes of the ibacm client protocol ({@code ACM_OP_*} in {@code infiniband/acm.h}).
 * <p>
 * The low nibble selects the operation; {@link #ACK} marks a response but is not always set (ibacm's
 * provider answers a successful RESOLVE with the request's opcode unchanged), and no client checks it.
 * "Query the SA" is not an opcode but the {@link AcmEpFlags#QUERY_SA} flag of a PATH entry.
 */
public final class AcmOp
{
    public static final int MASK = 0x0f;
    public static final int RESOLVE = 0x01;
    public static final int PERF_QUERY = 0x02;
    public static final int EP_QUERY = 0x03;
    public static final int ACK = 0x80;

    private AcmOp()
    {
    }

    /** The name used in logs and traces, e.g. {@code RESOLVE} or {@code PERF_QUERY|ACK}. */
    public static String name(final int opcode)
    {
        final String base = switch (opcode & MASK)
        {
            case RESOLVE -> "RESOLVE";
            case PERF_QUERY -> "PERF_QUERY";
            case EP_QUERY -> "EP_QUERY";
            default -> "OP_0x" + Integer.toHexString(opcode & MASK);
        };
        return (opcode & ACK) != 0 ? base + "|ACK" : base;
    }
}
