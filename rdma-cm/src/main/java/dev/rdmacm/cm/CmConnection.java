package dev.rdmacm.cm;

import dev.rdmacm.resolver.RdmaPortBinding;

import java.util.concurrent.CompletableFuture;

/**
 * An id's connection, through whichever CM runs it: this stack's own ({@link IdConnection}, ib_cm's MADs on the
 * port's CM thread) or the kernel's ({@link KernelConnection}, ucma commands on {@code /dev/infiniband/rdma_cm}).
 * {@link ConnectionPhase} checks the id's state and hands each call to the id's one connection; what each CM does
 * with it, and how its events come back as {@link CmEvent}s, is the implementation's. Sealed: the conductor knows
 * both, and a third CM is a change here, not a silent fall-through.
 * <pre>
 *   call                              userspace (IdConnection)                kernel (KernelConnection)
 *   prepareAccept  (rdma_accept, RC)  ib_cm's attributes (IbCmQpMoves)        INIT_QP_ATTR at each move (KernelQpMoves)
 *   accept         (rdma_accept)      REP (RC) or SIDR_REP status 0 (UD)      ACCEPT
 *   sendRtu        (after the moves)  RTU, ESTABLISHED once it is out         ACCEPT without parameters, ESTABLISHED
 *   reject         (rdma_reject)      REJ (RC) or SIDR_REP status 2 (UD)      REJECT
 *   disconnect     (rdma_disconnect)  DREQ, or the DREP to the peer's         DISCONNECT
 *   close          (rdma_destroy_id)  REJ, DREQ or DREP as the state asks     DESTROY_ID
 * </pre>
 */
sealed interface CmConnection permits IdConnection, KernelConnection
{
    /** {@return the RDMA device, port and GID entry of the connection, or null when the CM has not said} */
    RdmaPortBinding binding();

    /**
     * {@code rdma_accept}'s first part on an RC id ({@code rdma_init_qp_attr}): {@code reply} completes with what
     * the caller moves its QP with before {@link #accept}, or with the error that refused it.
     *
     * @param parameters the application's accept parameters.
     * @param qpNumber   the number of the id's QP.
     * @param reply      completed on the conductor or the port's CM thread.
     * @throws RdmaCmException when the CM refuses at once.
     */
    void prepareAccept(ConnectionParameters parameters, int qpNumber, CompletableFuture<ConnectResponseMoves> reply)
        throws RdmaCmException;

    /**
     * {@code rdma_accept}: the REP (RC, the caller having moved the QP) or the SIDR_REP with status 0 (UD).
     *
     * @param parameters the application's accept parameters.
     * @param qpNumber   the number of the id's QP (a UD id's UD QP).
     * @param reply      completes once the REP is out, or with the error that kept it from going.
     * @throws RdmaCmException when the CM refuses at once.
     */
    void accept(ConnectionParameters parameters, int qpNumber, CompletableFuture<Void> reply) throws RdmaCmException;

    /**
     * The active side's {@code UCMA_CMD_ACCEPT} after CONNECT_RESPONSE ({@code cma_rep_recv}): the RTU, once the
     * taker moved the QP to RTS; the id is then ESTABLISHED ({@link ConnectionPhase#rtuSent}).
     *
     * @param reply completes once the id is ESTABLISHED, or with the error that kept the RTU from going.
     * @throws RdmaCmException when the CM refuses at once.
     */
    void sendRtu(CompletableFuture<Void> reply) throws RdmaCmException;

    /**
     * {@code rdma_reject}: a REJ, consumer defined, or on a UD request's id the SIDR_REP with status 2.
     *
     * @param privateData the consumer's private data.
     * @throws RdmaCmException when the CM refuses at once.
     */
    void reject(byte[] privateData) throws RdmaCmException;

    /**
     * {@code rdma_disconnect}: a DREQ, or the DREP when the peer's DREQ came first.
     *
     * @throws RdmaCmException when the CM refuses at once.
     */
    void disconnect() throws RdmaCmException;

    /** {@code rdma_destroy_id}'s part: the CM sends the REJ, DREQ or DREP the state asks for, and forgets the connection. */
    void close();
}
