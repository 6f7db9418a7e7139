package dev.rdmacm.cm;

import dev.rdmacm.ucma.KernelQpAttributes;
import dev.rdmacm.verbs.QpState;
import dev.rdmacm.verbs.RcQueuePair;

/**
 * The kernel CM's {@link ConnectResponseMoves}: the thread that moves the QP asks the kernel for each
 * state's attributes right before the move (INIT_QP_ATTR, {@code rdma_init_qp_attr}), as librdmacm's
 * {@code ucma_modify_qp_rtr} and {@code ucma_modify_qp_rts} do, the application's responder resources and
 * initiator depth overriding the kernel's. A QP still in RESET goes to INIT first with the kernel's port,
 * P_Key index and access flags.
 *
 * @param kernel             the RdmaCm's kernel CM, whose channel's lock the asking and the reading of each answer hold
 *                           ({@link KernelQpAttributes}), the QP's move not.
 * @param handle             the kernel id.
 * @param responderResources the responder resources for RTR ({@link KernelQpAttributes#KERNELS}: the kernel's).
 * @param initiatorDepth     the initiator depth for RTS ({@link KernelQpAttributes#KERNELS}: the kernel's).
 * @param privateData        the REP's private data for the ESTABLISHED of a CONNECT_RESPONSE; empty for an accept.
 */
record KernelQpMoves(KernelCm kernel, int handle, int responderResources, int initiatorDepth, byte[] privateData)
    implements ConnectResponseMoves
{
    @Override
    public void readyToSend(final RcQueuePair queuePair)
    {
        kernel.command(channel ->
        {
            if (queuePair.state() == QpState.RESET)
            {
                KernelQpAttributes.init(channel, handle, queuePair);
            }
            KernelQpAttributes.readyToReceive(channel, handle, queuePair, responderResources);
            KernelQpAttributes.readyToSend(channel, handle, queuePair, initiatorDepth);
        });
    }
}
