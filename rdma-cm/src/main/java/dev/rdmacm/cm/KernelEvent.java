package dev.rdmacm.cm;

import dev.rdmacm.ucma.abi.ConnParam;
import dev.rdmacm.ucma.abi.EventResponse;
import dev.rdmacm.ucma.abi.UcmaEventType;

/**
 * One event of the kernel's RDMA CM, copied out of the channel's event buffer (valid only until the next
 * GET_EVENT): an RC id's {@code param.conn} as values.
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
 */
record KernelEvent(long uid, int handle, UcmaEventType type, int status, byte[] privateData, long qpNum, int responderResources,
    int initiatorDepth, int flowControl, int retryCount, int rnrRetryCount)
{
    static KernelEvent copyOf(final EventResponse event)
    {
        final ConnParam conn = event.conn();
        return new KernelEvent(event.uid(), event.id(), UcmaEventType.of(event.event()), event.status(), conn.privateData(),
            conn.qpNum(), conn.responderResources() & 0xff, conn.initiatorDepth() & 0xff, conn.flowControl() & 0xff,
            conn.retryCount() & 0xff, conn.rnrRetryCount() & 0xff);
    }
}
