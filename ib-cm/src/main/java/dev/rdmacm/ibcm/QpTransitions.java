package dev.rdmacm.ibcm;

/**
 * What the connection's RC QP must do when the handshake says so: the verbs layer implements it.
 * The engine calls {@link #readyToReceive} then {@link #readyToSend} where rdma_cm does (the passive
 * side before it sends its REP, {@code cma_accept_ib}; the active side when the REP comes, before its
 * RTU, {@code cma_rep_recv}) and {@link #error} once when the connection ends after that (REJ, timeout,
 * DREQ sent or received). A method that throws fails the step: the engine rejects as rdma_cm does.
 */
public interface QpTransitions
{
    /** INIT → RTR with the attributes' path, remote QPN, receive PSN, MTU and responder resources. */
    void readyToReceive(IbCmConnection connection, QpAttributes attributes);

    /** RTR → RTS with the send PSN, local ACK timeout, retry counts and initiator depth. */
    void readyToSend(IbCmConnection connection, QpAttributes attributes);

    /** → ERR: the connection is going; flushes outstanding work. */
    void error(IbCmConnection connection);

    /** No QP (tests of the CM alone, SIDR). */
    QpTransitions NONE = new QpTransitions()
    {
        @Override
        public void readyToReceive(final IbCmConnection connection, final QpAttributes attributes)
        {
        }

        @Override
        public void readyToSend(final IbCmConnection connection, final QpAttributes attributes)
        {
        }

        @Override
        public void error(final IbCmConnection connection)
        {
        }
    };
}
