package dev.rdmacm.cm;

import dev.rdmacm.ibcm.QpAttributes;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.verbs.AddressVector;
import dev.rdmacm.verbs.QpState;
import dev.rdmacm.verbs.RcQueuePair;
import dev.rdmacm.verbs.RcReceiveParameters;
import dev.rdmacm.verbs.RcSendParameters;
import dev.rdmacm.protocol.sa.MtuCode;

import java.util.Optional;

/**
 * The userspace CM's {@link ConnectResponseMoves}: the id's port and GID entry, the attributes this stack's
 * ib_cm gives for RTR and RTS ({@code rdma_init_qp_attr}), and, for CONNECT_RESPONSE, the REP's private data
 * that its ESTABLISHED carries.
 */
record IbCmQpMoves(RdmaPortBinding binding, QpAttributes attributes, byte[] privateData) implements ConnectResponseMoves
{
    /**
     * INIT (for a QP still in RESET) -> RTR -> RTS with {@link #attributes}, on the calling thread.
     *
     * @throws RuntimeException what {@code ibv_modify_qp} threw ({@link dev.rdmacm.verbs.VerbsException}).
     */
    @Override
    public void readyToSend(final RcQueuePair queuePair)
    {
        if (queuePair.state() == QpState.RESET)
        {
            queuePair.init(binding.port(), 0, RcQueuePair.QP_ACCESS_FLAGS);
        }
        final var path = attributes.path();
        final AddressVector vector = new AddressVector(binding.port(), path.dlid(), path.sl(), 0, 0, Optional.of(
            new AddressVector.GlobalRoute(path.dgid(), binding.gidIndex(), path.hopLimit(), path.trafficClass(), path.flowLabel())));
        queuePair.readyToReceive(new RcReceiveParameters(vector, MtuCode.fromCode(attributes.pathMtu()), attributes.remoteQpn(),
            attributes.receivePsn(), attributes.responderResources(), attributes.minRnrTimer()));
        queuePair.readyToSend(new RcSendParameters(attributes.sendPsn(), attributes.localAckTimeout(), attributes.retryCount(),
            attributes.rnrRetryCount(), attributes.initiatorDepth()));
    }
}
