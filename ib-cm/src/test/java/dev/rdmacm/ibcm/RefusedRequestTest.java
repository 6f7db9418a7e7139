package dev.rdmacm.ibcm;

import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.protocol.ServiceId;
import dev.rdmacm.protocol.cm.CmAttribute;
import dev.rdmacm.protocol.cm.ConnectRequest;
import dev.rdmacm.protocol.cm.IbCmState;
import dev.rdmacm.protocol.cm.SidrStatus;
import dev.rdmacm.protocol.mad.MadHeader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A listener whose consumer does not take a request ({@link IbCmEventHandler#takesRequest}: rdma_cm's
 * userspace ABI with the listener's backlog used up): {@code cm_destroy_id(-ENOMEM)} keeps nothing and
 * sends no REJ for a REQ, so that the peer's retry may find room, and answers a SIDR_REQ REJECT. The
 * flood is 10,000 REQs with distinct comm IDs and QPNs, the active engine's own REQ re-addressed by a
 * raw sender that hands them to the passive engine as its MAD layer would.
 */
@Timeout(30)
class RefusedRequestTest
{
    private static final int FLOOD = 10_000;
    private static final int ROOM = 16;

    /**
     * The passive consumer: room for {@code room} requests, as rdma-cm's listener has for its backlog; each
     * REQ it takes uses one until {@link #free} gives it back.
     */
    private static final class ConsumerWithRoom implements IbCmEventHandler
    {
        private final IbCmEventHandler recorder;
        private int room;
        private int asked;

        ConsumerWithRoom(final IbCmEventHandler recorder, final int room)
        {
            this.recorder = recorder;
            this.room = room;
        }

        @Override
        public void onEvent(final IbCmConnection connection, final IbCmEvent event)
        {
            recorder.onEvent(connection, event);
        }

        @Override
        public boolean takesRequest(final IbCmPeerAddress from)
        {
            asked++;
            if (room == 0)
            {
                return false;
            }
            room--;
            return true;
        }

        void free(final int places)
        {
            room += places;
        }
    }

    @Test
    void shouldKeepNothingAndSendNoRejForAReqTheListenerDoesNotTake()
    {
        final BackToBackCms cms = new BackToBackCms();
        final ConsumerWithRoom consumer = new ConsumerWithRoom(cms.passive.handler(), 0);
        cms.passive.engine.createConnection(consumer).listen(BackToBackCms.SERVICE_ID);
        final IbCmConnection active = cms.active.connection();

        active.connect(BackToBackCms.connectParameters(BackToBackCms.ACTIVE_QPN, null), QpTransitions.NONE);
        cms.settle();

        assertEquals(1, consumer.asked);
        assertEquals(1, cms.passive.engine.refusedRequests());
        assertEquals(1, cms.passive.engine.connections().size(), "the listener alone");
        assertEquals(List.of(), cms.passive.events(), "no event for a request not taken");
        assertEquals(List.of(CmAttribute.REQ), cms.pipe.sent().stream().map(InMemoryMadPipe.Sent::attribute).toList(),
            "no REJ and no MRA: the REQ is dropped");
        assertEquals(IbCmState.REQ_SENT, active.state(), "the peer waits to send its REQ again");
    }

    @Test
    void shouldTakeTheRetriedReqAsANewOneOnceThereIsRoom()
    {
        final BackToBackCms cms = new BackToBackCms();
        final ConsumerWithRoom consumer = new ConsumerWithRoom(cms.passive.handler(), 0);
        cms.passive.engine.createConnection(consumer).listen(BackToBackCms.SERVICE_ID);
        cms.passive.reaction = (connection, event) ->
        {
            if (event instanceof IbCmEvent.RequestReceived)
            {
                connection.accept(BackToBackCms.acceptParameters(null), QpTransitions.NONE);
            }
        };
        final IbCmConnection active = cms.active.connection();
        active.connect(BackToBackCms.connectParameters(BackToBackCms.ACTIVE_QPN, null), QpTransitions.NONE);
        cms.settle();
        consumer.free(1);

        // the active side's REQ wait: 2 * 4.096 us * 2^18 (packet lifetime 18) + 4.096 us * 2^20 (rdma_cm's 20), 6.4 s
        cms.advance(Duration.ofSeconds(7));

        assertEquals(2, cms.pipe.sent(CmAttribute.REQ).size(), "the REQ and its one retry");
        assertEquals(1, cms.passive.engine.refusedRequests());
        assertEquals(1, cms.passive.events(IbCmEvent.RequestReceived.class).size(), "the retry is a new request");
        assertEquals(IbCmState.ESTABLISHED, active.state());
        assertEquals(0, cms.passive.engine.duplicateMads(), "the refused REQ left nothing to call the retry a duplicate of");
    }

    @Test
    void shouldHoldOnlyTheRequestsTheListenerTakesUnderAFloodOfDistinctReqsAndStillConnect()
    {
        final BackToBackCms cms = new BackToBackCms();
        final ConsumerWithRoom consumer = new ConsumerWithRoom(cms.passive.handler(), ROOM);
        cms.passive.engine.createConnection(consumer).listen(BackToBackCms.SERVICE_ID);
        final byte[] req = oneReq();
        final UnsafeBuffer flood = new UnsafeBuffer(req.clone());
        final ConnectRequest rewrite = new ConnectRequest().wrapMad(flood, 0, MadHeader.MAD_SIZE);
        final IbCmPeerAddress rawPeer = IbCmPeerAddress.cmAt(BackToBackCms.ACTIVE_GID, 0);

        for (int i = 0; i < FLOOD; i++)
        {
            rewrite.localCommId(0x7000_0000L + i).localQpn(0x1000 + i);
            cms.passive.engine.onMadReceived(rawPeer, flood, 0, MadHeader.MAD_SIZE);
        }

        assertEquals(FLOOD, consumer.asked);
        assertEquals(ROOM, cms.passive.events(IbCmEvent.RequestReceived.class).size());
        assertEquals(ROOM + 1, cms.passive.engine.connections().size(), "the listener and the requests taken");
        assertEquals(FLOOD - ROOM, cms.passive.engine.refusedRequests());
        assertEquals(0, cms.passive.engine.droppedMads(), "refused, not malformed or unmatched");
        assertTrue(cms.pipe.sent().stream().noneMatch(sent -> sent.from().equals(BackToBackCms.PASSIVE_GID)),
            "the passive side sent nothing for the flood");

        // the consumer took its events and rejected them (rdma_get_cm_event gives the backlog's places back)
        cms.passive.engine.connections().stream().filter(c -> c.state() == IbCmState.REQ_RCVD).toList()
            .forEach(c -> c.reject(dev.rdmacm.protocol.cm.RejectReason.CONSUMER_DEFINED, null, null));
        consumer.free(ROOM);
        cms.passive.reaction = (connection, event) ->
        {
            if (event instanceof IbCmEvent.RequestReceived)
            {
                connection.accept(BackToBackCms.acceptParameters(null), QpTransitions.NONE);
            }
        };
        final IbCmConnection legitimate = cms.active.connection();
        legitimate.connect(BackToBackCms.connectParameters(BackToBackCms.ACTIVE_QPN, null), QpTransitions.NONE);
        cms.settle();

        assertEquals(IbCmState.ESTABLISHED, legitimate.state());
        assertEquals(IbCmState.ESTABLISHED, cms.passive.accepted().state());
    }

    @Test
    void shouldAnswerASidrReqTheListenerDoesNotTakeWithRejectAndKeepNothing()
    {
        final long service = ServiceId.of(PortSpace.UDP, 20000);
        final BackToBackCms cms = new BackToBackCms();
        final ConsumerWithRoom consumer = new ConsumerWithRoom(cms.passive.handler(), 0);
        cms.passive.engine.createConnection(consumer).listen(service);
        final IbCmConnection active = cms.active.connection();

        active.sidrRequest(new SidrRequestParameters(service, IbCmPeerAddress.cmAt(BackToBackCms.PASSIVE_GID, 0), 0xffff,
            4096, 15, null));
        cms.settle();

        // cm_destroy_id in SIDR_REQ_RCVD: SIDR_REP with IB_SIDR_REJECT
        assertEquals(SidrStatus.REJECT.code(), cms.active.events(IbCmEvent.SidrReplyReceived.class).getFirst().status());
        assertEquals(1, cms.passive.engine.refusedRequests());
        assertEquals(1, cms.passive.engine.connections().size(), "the listener alone");
        assertEquals(List.of(), cms.passive.events());
    }

    /** The bytes of one REQ as the active engine sends it to the passive's listener's Service ID. */
    private static byte[] oneReq()
    {
        final BackToBackCms source = new BackToBackCms();
        source.active.connection().connect(BackToBackCms.connectParameters(BackToBackCms.ACTIVE_QPN, null),
            QpTransitions.NONE);
        return source.pipe.sent(CmAttribute.REQ).getFirst().mad();
    }
}
