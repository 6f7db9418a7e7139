package dev.rdmacm.verbs;

/**
 * The status of a work completion ({@code enum ibv_wc_status}): {@link #text()} is the C name,
 * {@link #description()} what libibverbs' {@code ibv_wc_status_str} says for it (a test compares
 * both with the installed library).
 */
public enum CompletionStatus implements AbiEnum
{
    SUCCESS(IbvConstants.IBV_WC_SUCCESS, "success"),
    LOC_LEN_ERR(IbvConstants.IBV_WC_LOC_LEN_ERR, "local length error"),
    LOC_QP_OP_ERR(IbvConstants.IBV_WC_LOC_QP_OP_ERR, "local QP operation error"),
    LOC_EEC_OP_ERR(IbvConstants.IBV_WC_LOC_EEC_OP_ERR, "local EE context operation error"),
    LOC_PROT_ERR(IbvConstants.IBV_WC_LOC_PROT_ERR, "local protection error"),
    WR_FLUSH_ERR(IbvConstants.IBV_WC_WR_FLUSH_ERR, "Work Request Flushed Error"),
    MW_BIND_ERR(IbvConstants.IBV_WC_MW_BIND_ERR, "memory management operation error"),
    BAD_RESP_ERR(IbvConstants.IBV_WC_BAD_RESP_ERR, "bad response error"),
    LOC_ACCESS_ERR(IbvConstants.IBV_WC_LOC_ACCESS_ERR, "local access error"),
    REM_INV_REQ_ERR(IbvConstants.IBV_WC_REM_INV_REQ_ERR, "remote invalid request error"),
    REM_ACCESS_ERR(IbvConstants.IBV_WC_REM_ACCESS_ERR, "remote access error"),
    REM_OP_ERR(IbvConstants.IBV_WC_REM_OP_ERR, "remote operation error"),
    RETRY_EXC_ERR(IbvConstants.IBV_WC_RETRY_EXC_ERR, "transport retry counter exceeded"),
    RNR_RETRY_EXC_ERR(IbvConstants.IBV_WC_RNR_RETRY_EXC_ERR, "RNR retry counter exceeded"),
    LOC_RDD_VIOL_ERR(IbvConstants.IBV_WC_LOC_RDD_VIOL_ERR, "local RDD violation error"),
    REM_INV_RD_REQ_ERR(IbvConstants.IBV_WC_REM_INV_RD_REQ_ERR, "remote invalid RD request"),
    REM_ABORT_ERR(IbvConstants.IBV_WC_REM_ABORT_ERR, "aborted error"),
    INV_EECN_ERR(IbvConstants.IBV_WC_INV_EECN_ERR, "invalid EE context number"),
    INV_EEC_STATE_ERR(IbvConstants.IBV_WC_INV_EEC_STATE_ERR, "invalid EE context state"),
    FATAL_ERR(IbvConstants.IBV_WC_FATAL_ERR, "fatal error"),
    RESP_TIMEOUT_ERR(IbvConstants.IBV_WC_RESP_TIMEOUT_ERR, "response timeout error"),
    GENERAL_ERR(IbvConstants.IBV_WC_GENERAL_ERR, "general error"),
    TM_ERR(IbvConstants.IBV_WC_TM_ERR, "TM error"),
    TM_RNDV_INCOMPLETE(IbvConstants.IBV_WC_TM_RNDV_INCOMPLETE, "TM software rendezvous");

    private static final CompletionStatus[] BY_VALUE = values();

    private final int value;
    private final String description;

    CompletionStatus(final int value, final String description)
    {
        this.value = value;
        this.description = description;
    }

    @Override
    public int value()
    {
        return value;
    }

    /** The C enumerator, e.g. {@code IBV_WC_RETRY_EXC_ERR}. */
    @Override
    public String text()
    {
        return "IBV_WC_" + name();
    }

    /** What {@code ibv_wc_status_str} returns. */
    public String description()
    {
        return description;
    }

    /**
     * The status for an {@code IBV_WC_*} value; {@code ibv_poll_cq} reports nothing else, so an
     * unknown value is a provider bug.
     *
     * @throws IllegalArgumentException naming the value and the range.
     */
    public static CompletionStatus ofValue(final int value)
    {
        if (value < 0 || value >= BY_VALUE.length)
        {
            throw new IllegalArgumentException("wc status " + value + " is not an IBV_WC_* status (0-" + (BY_VALUE.length - 1) + ")");
        }
        return BY_VALUE[value];
    }
}
