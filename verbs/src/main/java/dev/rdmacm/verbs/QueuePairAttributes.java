package dev.rdmacm.verbs;

/**
 * What {@code ibv_query_qp} reports about a UD QP: the kernel's view, which is what counts when it
 * differs from what the binding last asked for.
 *
 * @param state     the current state.
 * @param qkey      the Q_Key, as an unsigned 32-bit value.
 * @param pkeyIndex the P_Key index.
 * @param port      the port number.
 * @param sqPsn     the send queue's packet sequence number (24 bits).
 */
public record QueuePairAttributes(QpState state, long qkey, int pkeyIndex, int port, int sqPsn)
{
}
