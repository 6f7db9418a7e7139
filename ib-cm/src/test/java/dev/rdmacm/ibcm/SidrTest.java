package dev.rdmacm.ibcm;

import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.protocol.ServiceId;
import dev.rdmacm.protocol.cm.CmAttribute;
import dev.rdmacm.protocol.cm.IbCmState;
import dev.rdmacm.protocol.cm.SidrStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(30)
class SidrTest
{
    /** rdma_cm's SIDR values (cma.c cma_resolve_ib_udp): 1 << (CMA_CM_RESPONSE_TIMEOUT - 8) ms, 15 retries. */
    private static final long SIDR_TIMEOUT_MS = 4096;
    private static final int SIDR_RETRIES = 15;
    private static final long RDMA_PS_UDP_SERVICE_ID = ServiceId.of(PortSpace.UDP, 20000);

    private static SidrRequestParameters request(final byte[] privateData)
    {
        return new SidrRequestParameters(RDMA_PS_UDP_SERVICE_ID, IbCmPeerAddress.cmAt(BackToBackCms.PASSIVE_GID, 0),
            0xffff, SIDR_TIMEOUT_MS, SIDR_RETRIES, privateData);
    }

    @Test
    void shouldResolveAServiceIdToTheListenersQpnAndQKey()
    {
        final BackToBackCms cms = new BackToBackCms();
        cms.passive.connection().listen(RDMA_PS_UDP_SERVICE_ID);
        cms.passive.reaction = (connection, event) ->
        {
            if (event instanceof IbCmEvent.SidrRequestReceived)
            {
                connection.sidrReply(SidrStatus.SUCCESS, 0x1234, 0x01234567L, null, new byte[] {42});
            }
        };
        final IbCmConnection active = cms.active.connection();
        final byte[] privateData = {1, 2, 3, 4};

        active.sidrRequest(request(privateData));
        cms.settle();

        final IbCmEvent.SidrRequestReceived received = cms.passive.events(IbCmEvent.SidrRequestReceived.class).getFirst();
        assertEquals(RDMA_PS_UDP_SERVICE_ID, received.serviceId());
        assertArrayEquals(privateData, Arrays.copyOf(received.privateData(), 4));
        final IbCmEvent.SidrReplyReceived reply = cms.active.events(IbCmEvent.SidrReplyReceived.class).getFirst();
        assertEquals(SidrStatus.SUCCESS.code(), reply.status());
        assertEquals(0x1234, reply.qpn());
        assertEquals(0x01234567L, reply.qKey());
        assertEquals(42, reply.privateData()[0]);
        assertEquals(IbCmState.IDLE, active.state());
        assertEquals(IbCmState.IDLE, cms.passive.accepted().state());
    }

    @Test
    void shouldAnswerUnsupportedWhenNothingListensOnTheServiceId()
    {
        final BackToBackCms cms = new BackToBackCms();
        final IbCmConnection active = cms.active.connection();

        active.sidrRequest(request(null));
        cms.settle();

        // cm_sidr_req_handler: no listener, ib_send_cm_sidr_rep(.status = IB_SIDR_UNSUPPORTED)
        assertEquals(1, cms.active.events(IbCmEvent.SidrReplyReceived.class).getFirst().status());
        assertEquals(0, cms.passive.engine.connections().size());
    }

    @Test
    void shouldIgnoreADuplicateSidrReqWhileTheFirstIsServed()
    {
        final BackToBackCms cms = new BackToBackCms();
        cms.passive.connection().listen(RDMA_PS_UDP_SERVICE_ID);
        cms.active.connection().sidrRequest(request(null));
        cms.settle();

        cms.pipe.replay(cms.pipe.sent(CmAttribute.SIDR_REQ).getFirst());
        cms.settle();

        assertEquals(1, cms.passive.events(IbCmEvent.SidrRequestReceived.class).size());
    }

    @Test
    void shouldRetryTheSidrReqThenTimeOut()
    {
        final BackToBackCms cms = new BackToBackCms();
        final IbCmConnection active = cms.active.connection();
        final IbCmConnection toSilentPeer = active;
        toSilentPeer.sidrRequest(new SidrRequestParameters(RDMA_PS_UDP_SERVICE_ID,
            IbCmPeerAddress.cmAt(dev.rdmacm.protocol.Gid.parse("fe80::dead"), 0), 0xffff, SIDR_TIMEOUT_MS, SIDR_RETRIES,
            null));
        final long timeoutNanos = (SIDR_RETRIES + 1) * SIDR_TIMEOUT_MS * 1_000_000L;

        cms.advanceTo(timeoutNanos - 1);
        assertEquals(IbCmState.SIDR_REQ_SENT, active.state());
        cms.advanceTo(timeoutNanos);

        assertEquals(IbCmState.IDLE, active.state());
        assertEquals(1, cms.active.events(IbCmEvent.SidrRequestTimedOut.class).size());
        assertEquals(SIDR_RETRIES + 1, cms.pipe.sent(CmAttribute.SIDR_REQ).size());
    }
}
