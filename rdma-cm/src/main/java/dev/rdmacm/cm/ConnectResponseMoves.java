package dev.rdmacm.cm;

import dev.rdmacm.verbs.RcQueuePair;

/**
 * What the CM hands the thread that moves an RC QP, with librdmacm's {@code ucma_modify_qp_rtr} and
 * {@code ucma_modify_qp_rts} on that thread: {@link IbCmQpMoves} for the userspace CM (ib_cm's attributes,
 * computed on the conductor), {@link KernelQpMoves} for the kernel's (INIT_QP_ATTR asked right before each
 * move, as librdmacm asks it).
 */
sealed interface ConnectResponseMoves permits IbCmQpMoves, KernelQpMoves
{
    /**
     * INIT (for a QP still in RESET) -> RTR -> RTS, on the calling thread.
     *
     * @throws RuntimeException what {@code ibv_modify_qp} (or the kernel's INIT_QP_ATTR) threw.
     */
    void readyToSend(RcQueuePair queuePair);

    /** The REP's private data, which the ESTABLISHED made of CONNECT_RESPONSE carries (empty for an accept). */
    byte[] privateData();
}
