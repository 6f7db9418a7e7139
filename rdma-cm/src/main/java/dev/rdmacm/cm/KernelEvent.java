package dev.rdmacm.cm;

import dev.rdmacm.ucma.abi.ConnParam;
import dev.rdmacm.ucma.abi.EventResponse;
import dev.rdmacm.ucma.abi.UcmaEventType;
import dev.rdmacm.ucma.abi.UdParam;
import dev.rdmacm.ucma.abi.UverbsAhAttr;
import dev.rdmacm.verbs.AddressVector;

import java.util.Optional;

/**
 * One event of the kernel's RDMA CM, copied out of the channel's event buffer (valid only until the next
 * GET_EVENT): an RC id's {@code param.conn} as values, and a UD id's {@code param.ud}.
 *
 * @param uid                the uid the event carries (the listener's for CONNECT_REQUEST).
 * @param handle             the kernel id's handle (the new id's for CONNECT_REQUEST).
 * @param type               the event.
 * @param status             0, a negative errno, or REJECTED's reason.
 * @param privateData        {@code param.conn}'s private data.
 * @param qpNum              the peer's QPN (CONNECT_REQUEST, CONNECT_RESPONSE).
 * @param responderResources the responder resources to accept with.
 * @param initiatorDepth     the initiator depth to accept with.
 * @param flowControl        the peer's flow control.
 * @param retryCount         the peer's retry count.
 * @param rnrRetryCount      the peer's RNR retry count.
 * @param ud                 {@code param.ud} read as a UD id's (empty when {@code ud} is false).
 */
record KernelEvent(long uid, int handle, UcmaEventType type, int status, byte[] privateData, long qpNum, int responderResources,
    int initiatorDepth, int flowControl, int retryCount, int rnrRetryCount, Optional<UdParameters> ud)
{
    /** The event's values; {@code ud}: the id is a UD one, whose parameter is {@code param.ud}. */
    static KernelEvent copyOf(final EventResponse event, final boolean ud)
    {
        final UcmaEventType type = UcmaEventType.of(event.event());
        if (ud && type != UcmaEventType.ESTABLISHED && type != UcmaEventType.MULTICAST_JOIN)
        {
            // only ESTABLISHED (the SIDR_REP's) and MULTICAST_JOIN carry an address handle; the others have zeros there
            final UdParam param = event.ud();
            return new KernelEvent(event.uid(), event.id(), type, event.status(), param.privateData(), param.qpNum(), 0, 0, 0, 0, 0,
                Optional.empty());
        }
        if (ud)
        {
            final UdParam param = event.ud();
            final UverbsAhAttr ah = param.ahAttr();
            final AddressVector vector = new AddressVector(ah.portNum(), ah.dlid(), ah.sl(), ah.srcPathBits(), ah.staticRate(),
                ah.isGlobal() ? Optional.of(new AddressVector.GlobalRoute(ah.dgid(), ah.sgidIndex(), ah.hopLimit(), ah.trafficClass(),
                    (int)ah.flowLabel())) : Optional.empty());
            return new KernelEvent(event.uid(), event.id(), UcmaEventType.of(event.event()), event.status(), param.privateData(),
                param.qpNum(), 0, 0, 0, 0, 0, Optional.of(new UdParameters(param.privateData(), vector, (int)param.qpNum(),
                param.qkey())));
        }
        final ConnParam conn = event.conn();
        return new KernelEvent(event.uid(), event.id(), UcmaEventType.of(event.event()), event.status(), conn.privateData(),
            conn.qpNum(), conn.responderResources() & 0xff, conn.initiatorDepth() & 0xff, conn.flowControl() & 0xff,
            conn.retryCount() & 0xff, conn.rnrRetryCount() & 0xff, Optional.empty());
    }
}
