package dev.rdmacm.ibcm;

import dev.rdmacm.protocol.cm.CmAttribute;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static dev.rdmacm.protocol.cm.IbCmState.ESTABLISHED;
import static dev.rdmacm.protocol.cm.IbCmState.IDLE;
import static dev.rdmacm.protocol.cm.IbCmState.REP_RCVD;
import static dev.rdmacm.protocol.cm.IbCmState.REP_SENT;
import static dev.rdmacm.protocol.cm.IbCmState.REQ_RCVD;
import static dev.rdmacm.protocol.cm.IbCmState.REQ_SENT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class HandshakeTest
{
    @Test
    void shouldEstablishBothSidesThroughReqRepRtu()
    {
        final BackToBackCms cms = new BackToBackCms();
        final IbCmConnection active = cms.establish();
        final IbCmConnection passive = cms.passive.accepted();

        assertEquals(List.of(IDLE, REQ_SENT, REP_RCVD, ESTABLISHED), cms.active.states(active));
        assertEquals(List.of(IDLE, REQ_RCVD, REP_SENT, ESTABLISHED), cms.passive.states(passive));
        assertEquals(List.of(CmAttribute.REQ, CmAttribute.REP, CmAttribute.RTU),
            cms.pipe.sent().stream().map(InMemoryMadPipe.Sent::attribute).toList());
        assertEquals(IbCmEvent.EstablishedBy.RTU_SENT,
            cms.active.events(IbCmEvent.Established.class).getFirst().by());
        assertEquals(IbCmEvent.EstablishedBy.RTU_RECEIVED,
            cms.passive.events(IbCmEvent.Established.class).getFirst().by());
    }

    @Test
    void shouldPairTheCommIdsOfBothSides()
    {
        final BackToBackCms cms = new BackToBackCms();
        final IbCmConnection active = cms.establish();
        final IbCmConnection passive = cms.passive.accepted();

        assertEquals(active.localCommId(), passive.remoteCommId());
        assertEquals(passive.localCommId(), active.remoteCommId());
    }

    @Test
    void shouldDeliverTheReqPrivateDataToTheListener()
    {
        final BackToBackCms cms = new BackToBackCms();
        cms.listenAndAccept();
        final byte[] privateData = new byte[92];
        for (int i = 0; i < privateData.length; i++)
        {
            privateData[i] = (byte)(i * 7 + 1);
        }
        cms.active.connection().connect(BackToBackCms.connectParameters(BackToBackCms.ACTIVE_QPN, privateData),
            QpTransitions.NONE);
        cms.settle();

        assertArrayEquals(privateData, cms.passive.events(IbCmEvent.RequestReceived.class).getFirst().privateData());
    }

    @Test
    void shouldMoveBothQpsWithTheCrossedParametersOfReqAndRep()
    {
        final BackToBackCms cms = new BackToBackCms();
        final List<String> calls = new ArrayList<>();
        final List<QpAttributes> activeQp = new ArrayList<>();
        final List<QpAttributes> passiveQp = new ArrayList<>();
        final IbCmConnection listener = cms.passive.connection();
        listener.listen(BackToBackCms.SERVICE_ID);
        cms.passive.reaction = (connection, event) ->
        {
            if (event instanceof IbCmEvent.RequestReceived)
            {
                connection.accept(new AcceptParameters(BackToBackCms.PASSIVE_QPN, 2, 3, 0, true, 6, false, null),
                    recording("passive", calls, passiveQp));
            }
        };
        final IbCmConnection active = cms.active.connection();
        active.connect(new ConnectParameters(BackToBackCms.SERVICE_ID, IbCmPeerAddress.cmAt(BackToBackCms.PASSIVE_GID, 0),
            BackToBackCms.rocePath(BackToBackCms.ACTIVE_GID, BackToBackCms.PASSIVE_GID), BackToBackCms.ACTIVE_QPN,
            false, 5, 1, 20, 20, 15, 5, 4, true, false, null), recording("active", calls, activeQp));
        cms.settle();

        assertEquals(List.of("passive RTR", "passive RTS", "active RTR", "active RTS"), calls);
        final QpAttributes a = activeQp.getFirst();
        final QpAttributes p = passiveQp.getFirst();
        assertEquals(BackToBackCms.PASSIVE_QPN, a.remoteQpn());
        assertEquals(BackToBackCms.ACTIVE_QPN, p.remoteQpn());
        assertEquals(a.sendPsn(), p.receivePsn());
        assertEquals(p.sendPsn(), a.receivePsn());
        // the passive side's REP has the last word (cm_rep_handler takes it crossed): what one side may
        // issue is what the other accepts
        assertEquals(2, p.responderResources());
        assertEquals(3, p.initiatorDepth());
        assertEquals(3, a.responderResources());
        assertEquals(2, a.initiatorDepth());
        // the active side's transport retries are its own; its RNR retries are the passive's REP value
        assertEquals(5, a.retryCount());
        assertEquals(6, a.rnrRetryCount());
        assertEquals(5, p.retryCount());
        assertEquals(4, p.rnrRetryCount());
        assertEquals(3, a.pathMtu());
        assertEquals(3, p.pathMtu());
        assertEquals(BackToBackCms.ACTIVE_GID, p.path().dgid());
        assertEquals(BackToBackCms.PASSIVE_GID, a.path().dgid());
    }

    @Test
    void shouldDrawEveryStartingPsnFrom24Bits()
    {
        final BackToBackCms cms = new BackToBackCms();
        final IbCmConnection active = cms.establish();
        final QpAttributes attributes = active.qpAttributes();

        assertEquals(0, attributes.sendPsn() >>> 24);
        assertEquals(0, attributes.receivePsn() >>> 24);
        assertTrue(attributes.sendPsn() != attributes.receivePsn());
    }

    @Test
    void shouldEstablishOnTheFirstReceiveWhenTheRtuIsLost()
    {
        final BackToBackCms cms = new BackToBackCms();
        cms.pipe.loseAll(CmAttribute.RTU);
        cms.establish();
        final IbCmConnection passive = cms.passive.accepted();
        assertEquals(REP_SENT, passive.state());

        // the QP's first receive: the kernel's IB_EVENT_COMM_EST, which rdma_cm passes to ib_cm_notify
        assertTrue(passive.establish());

        assertEquals(ESTABLISHED, passive.state());
        assertEquals(IbCmEvent.EstablishedBy.COMMUNICATION_ESTABLISHED,
            cms.passive.events(IbCmEvent.Established.class).getFirst().by());
        cms.advance(Duration.ofMinutes(10));
        assertEquals(1, cms.pipe.sent(CmAttribute.REP).size(), "no REP retry once established");
        assertTrue(cms.passive.events(IbCmEvent.ReplyTimedOut.class).isEmpty());
    }

    @Test
    void shouldSayEstablishedAlreadyWhenTheRtuCameFirst()
    {
        final BackToBackCms cms = new BackToBackCms();
        cms.establish();

        assertFalse(cms.passive.accepted().establish());
    }

    @Test
    void shouldResendTheRtuWhenTheRepComesAgain()
    {
        final BackToBackCms cms = new BackToBackCms();
        cms.pipe.loseAll(CmAttribute.RTU);
        cms.establish();
        final InMemoryMadPipe.Sent rep = cms.pipe.sent(CmAttribute.REP).getFirst();
        cms.pipe.lose(sent -> false);

        cms.pipe.replay(rep);
        cms.settle();

        final List<InMemoryMadPipe.Sent> rtus = cms.pipe.sent(CmAttribute.RTU);
        assertEquals(2, rtus.size());
        assertTrue(rtus.get(0).lost());
        assertArrayEquals(rtus.get(0).mad(), rtus.get(1).mad());
        assertEquals(ESTABLISHED, cms.passive.accepted().state());
    }

    @Test
    void shouldTraceEveryTransitionAtTheClocksTime()
    {
        final BackToBackCms cms = new BackToBackCms();
        cms.clock.advance(Duration.ofMillis(5));
        final IbCmConnection active = cms.establish();

        final BackToBackCms.Transition first = cms.transitions.stream()
            .filter(t -> t.connection() == active).findFirst().orElseThrow();
        assertEquals(REQ_SENT, first.to());
        assertEquals(cms.startNanos + 5_000_000L, first.atNanos());
    }

    @Test
    void shouldDeliverTheRepPrivateDataToTheActiveSide()
    {
        final BackToBackCms cms = new BackToBackCms();
        final IbCmConnection listener = cms.passive.connection();
        listener.listen(BackToBackCms.SERVICE_ID);
        final byte[] privateData = new byte[196];
        privateData[0] = 0x5a;
        privateData[195] = (byte)0xa5;
        cms.passive.reaction = (connection, event) ->
        {
            if (event instanceof IbCmEvent.RequestReceived)
            {
                connection.accept(BackToBackCms.acceptParameters(privateData), QpTransitions.NONE);
            }
        };
        cms.active.connection().connect(BackToBackCms.connectParameters(BackToBackCms.ACTIVE_QPN, null),
            QpTransitions.NONE);
        cms.settle();

        final IbCmEvent.ReplyReceived reply = assertInstanceOf(IbCmEvent.ReplyReceived.class,
            cms.active.events().getFirst());
        assertArrayEquals(privateData, reply.privateData());
    }

    private static QpTransitions recording(final String side, final List<String> calls, final List<QpAttributes> seen)
    {
        return new QpTransitions()
        {
            @Override
            public void readyToReceive(final IbCmConnection connection, final QpAttributes attributes)
            {
                calls.add(side + " RTR");
                seen.add(attributes);
            }

            @Override
            public void readyToSend(final IbCmConnection connection, final QpAttributes attributes)
            {
                calls.add(side + " RTS");
            }

            @Override
            public void error(final IbCmConnection connection)
            {
                calls.add(side + " ERR");
            }
        };
    }
}
