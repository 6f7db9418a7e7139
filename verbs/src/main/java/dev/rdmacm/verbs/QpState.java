package dev.rdmacm.verbs;

/** The states of a QP ({@code enum ibv_qp_state}) that this binding moves a UD QP through. */
public enum QpState
{
    RESET(IbvConstants.IBV_QPS_RESET),
    INIT(IbvConstants.IBV_QPS_INIT),
    RTR(IbvConstants.IBV_QPS_RTR),
    RTS(IbvConstants.IBV_QPS_RTS),
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
}
