package dev.rdmacm.verbs;

/**
 * The states of a QP ({@code enum ibv_qp_state}); the names are the ones {@code rdma resource show qp}
 * prints. This binding moves a UD QP through RESET, INIT, RTR and RTS; {@code ibv_query_qp} can also
 * report the others.
 */
public enum QpState
{
    RESET(IbvConstants.IBV_QPS_RESET),
    INIT(IbvConstants.IBV_QPS_INIT),
    RTR(IbvConstants.IBV_QPS_RTR),
    RTS(IbvConstants.IBV_QPS_RTS),
    SQD(IbvConstants.IBV_QPS_SQD),
    SQE(IbvConstants.IBV_QPS_SQE),
    ERR(IbvConstants.IBV_QPS_ERR);

    private final int value;

    QpState(final int value)
    {
        this.value = value;
    }

    /** The {@code IBV_QPS_*} value. */
    public int value()
    {
        return value;
    }

    /**
     * The state for an {@code IBV_QPS_*} value.
     *
     * @throws IllegalArgumentException naming the value when it is none of them.
     */
    public static QpState ofValue(final int value)
    {
        for (final QpState state : values())
        {
            if (state.value == value)
            {
                return state;
            }
        }
        throw new IllegalArgumentException("qp_state " + value + " is not an IBV_QPS_* state (0-6)");
    }
}
