package dev.rdmacm.ucma;

import dev.rdmacm.protocol.sa.MtuCode;
import dev.rdmacm.ucma.abi.UverbsAhAttr;
import dev.rdmacm.ucma.abi.UverbsQpAttr;
import dev.rdmacm.verbs.AddressVector;
import dev.rdmacm.verbs.QpState;
import dev.rdmacm.verbs.RcQueuePair;
import dev.rdmacm.verbs.RcReceiveParameters;
import dev.rdmacm.verbs.RcSendParameters;

import java.util.Optional;

/**
 * Moves an RC QP of the verbs binding with the attributes the kernel's CM gives its id (INIT_QP_ATTR,
 * {@code rdma_init_qp_attr}), as librdmacm moves an id's QP: to INIT when the QP is made
 * ({@code ucma_init_conn_qp}), to RTR and RTS on the active side when CONNECT_RESPONSE is taken and on
 * the passive side before ACCEPT ({@code ucma_modify_qp_rtr}, {@code ucma_modify_qp_rts}, with the
 * responder resources and initiator depth the application gave overriding the kernel's). The kernel
 * is asked on the calling thread, right before each move, as librdmacm asks it; each answer is read inside
 * {@link UcmaChannel#answer} (on a command slot of the thread's) and the move, an {@code ibv_modify_qp},
 * made after it, which gives the slot back before the QP moves.
 * <p>
 * The verbs binding moves with its own attribute masks (the typed {@code init}, {@code readyToReceive},
 * {@code readyToSend}), which hold every attribute the kernel's mask names for an RC QP. Before RTR the
 * QP is moved INIT to INIT with the kernel's INIT attributes asked again, as {@code ucma_modify_qp_rtr}
 * does: the port and P_Key index the kernel holds once the route is known.
 */
public final class KernelQpAttributes
{
    /** {@code IBV_QPS_INIT}, {@code IBV_QPS_RTR}, {@code IBV_QPS_RTS}: the states INIT_QP_ATTR is asked for. */
    public static final int IBV_QPS_INIT = 1;
    public static final int IBV_QPS_RTR = 2;
    public static final int IBV_QPS_RTS = 3;
    /** Keep the kernel's {@code max_dest_rd_atomic} or {@code max_rd_atomic} (librdmacm's RDMA_MAX_RESP_RES / _INIT_DEPTH). */
    public static final int KERNELS = -1;

    private KernelQpAttributes()
    {
    }

    /** RESET to INIT with the kernel's port, P_Key index and access flags for {@code id}. */
    public static void init(final UcmaChannel channel, final int id, final RcQueuePair queuePair)
    {
        final InitAttributes attr = initAttributes(channel, id);
        queuePair.init(attr.port(), attr.pkeyIndex(), attr.accessFlags());
    }

    /**
     * INIT (from RESET first, if needed), INIT again with the kernel's INIT attributes, then RTR with the
     * kernel's path, MTU, remote QPN and PSN for {@code id}; {@code responderResources} replaces its
     * {@code max_dest_rd_atomic} unless {@link #KERNELS}.
     */
    public static void readyToReceive(final UcmaChannel channel, final int id, final RcQueuePair queuePair,
        final int responderResources)
    {
        if (queuePair.state() == QpState.RESET)
        {
            init(channel, id, queuePair);
        }
        final InitAttributes again = initAttributes(channel, id);
        queuePair.initAgain(again.port(), again.pkeyIndex(), again.accessFlags());
        final RcReceiveParameters receive = channel.answer(ch ->
        {
            final UverbsQpAttr attr = ch.initQpAttr(id, IBV_QPS_RTR);
            final UverbsAhAttr ah = attr.ahAttr();
            final AddressVector path = new AddressVector(ah.portNum(), ah.dlid(), ah.sl(), ah.srcPathBits(), ah.staticRate(),
                ah.isGlobal() ? Optional.of(new AddressVector.GlobalRoute(ah.dgid(), ah.sgidIndex(), ah.hopLimit(), ah.trafficClass(),
                    (int)ah.flowLabel())) : Optional.empty());
            return new RcReceiveParameters(path, MtuCode.fromCode((int)attr.pathMtu()), (int)attr.destQpNum(), (int)attr.rqPsn(),
                responderResources == KERNELS ? attr.maxDestRdAtomic() : responderResources, attr.minRnrTimer());
        });
        queuePair.readyToReceive(receive);
    }

    /** RTR to RTS with the kernel's PSN, timeout and retry counts; {@code initiatorDepth} replaces {@code max_rd_atomic}. */
    public static void readyToSend(final UcmaChannel channel, final int id, final RcQueuePair queuePair, final int initiatorDepth)
    {
        final RcSendParameters send = channel.answer(ch ->
        {
            final UverbsQpAttr attr = ch.initQpAttr(id, IBV_QPS_RTS);
            return new RcSendParameters((int)attr.sqPsn(), attr.timeout(), attr.retryCnt(), attr.rnrRetry(),
                initiatorDepth == KERNELS ? attr.maxRdAtomic() : initiatorDepth);
        });
        queuePair.readyToSend(send);
    }

    /** INIT_QP_ATTR for INIT, read inside the channel's answer; the QP moves after it. */
    private static InitAttributes initAttributes(final UcmaChannel channel, final int id)
    {
        return channel.answer(ch ->
        {
            final UverbsQpAttr attr = ch.initQpAttr(id, IBV_QPS_INIT);
            return new InitAttributes(attr.portNum(), attr.pkeyIndex(), (int)attr.qpAccessFlags());
        });
    }

    private record InitAttributes(int port, int pkeyIndex, int accessFlags)
    {
    }
}
