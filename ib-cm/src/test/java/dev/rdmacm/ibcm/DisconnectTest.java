package dev.rdmacm.ibcm;

import dev.rdmacm.protocol.cm.CmAttribute;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static dev.rdmacm.protocol.cm.IbCmState.DREQ_RCVD;
import static dev.rdmacm.protocol.cm.IbCmState.DREQ_SENT;
import static dev.rdmacm.protocol.cm.IbCmState.ESTABLISHED;
import static dev.rdmacm.protocol.cm.IbCmState.IDLE;
import static dev.rdmacm.protocol.cm.IbCmState.TIMEWAIT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(30)
class DisconnectTest
{
    private static final long NANOS_PER_MS = 1_000_000L;

    /** cm_convert_to_ms from the IBA definition, 4.096 us * 2^t, to a power of two ms not above it, 1 at least. */
    private static long cmMillis(final int ibaTime)
    {
        return Math.max(1, Long.highestOneBit((4096L << ibaTime) / NANOS_PER_MS));
    }

    private static void answerDreqs(final BackToBackCms.Side side)
    {
        side.reaction = (connection, event) ->
        {
            if (event instanceof IbCmEvent.DisconnectRequested)
            {
                connection.drep(null);
            }
        };
    }

    @Test
    void shouldDisconnectBothSidesWithDreqAndDrep()
    {
        final BackToBackCms cms = new BackToBackCms();
        final IbCmConnection active = cms.establish();
        final IbCmConnection passive = cms.passive.accepted();
        answerDreqs(cms.passive);
        final byte[] privateData = {9, 8, 7};

        active.disconnect(privateData);
        cms.settle();

        assertEquals(List.of(ESTABLISHED, DREQ_SENT, TIMEWAIT),
            cms.active.states(active).subList(3, 6));
        assertEquals(List.of(ESTABLISHED, DREQ_RCVD, TIMEWAIT), cms.passive.states(passive).subList(3, 6));
        final byte[] received = cms.passive.events(IbCmEvent.DisconnectRequested.class).getFirst().privateData();
        assertArrayEquals(privateData, java.util.Arrays.copyOf(received, 3));
        assertEquals(1, cms.active.events(IbCmEvent.DisconnectReplyReceived.class).size());
    }

    @Test
    void shouldRetryTheDreqThenEnterTimewaitWhenEveryDrepIsLost()
    {
        final BackToBackCms cms = new BackToBackCms();
        final IbCmConnection active = cms.establish();
        answerDreqs(cms.passive);
        cms.pipe.loseAll(CmAttribute.DREP);
        final long start = cms.elapsedNanos();

        active.disconnect(null);
        cms.settle();
        // cm_send_dreq_locked: the DREQ waits the connection's timeout_ms (the REQ's: 2 * PacketLifeTime +
        // RemoteCMResponseTimeout), max_cm_retries times, then IB_CM_DREQ_ERROR and cm_enter_timewait
        final long waitNanos = (2 * cmMillis(18) + cmMillis(20)) * NANOS_PER_MS;
        final long timeoutNanos = 16 * waitNanos;
        cms.advanceTo(start + timeoutNanos - 1);
        assertEquals(DREQ_SENT, active.state());
        cms.advanceTo(start + timeoutNanos);

        assertEquals(TIMEWAIT, active.state());
        assertEquals(1, cms.active.events(IbCmEvent.DisconnectRequestTimedOut.class).size());
        assertEquals(16, cms.pipe.sent(CmAttribute.DREQ).size());
    }

    @Test
    void shouldAnswerARetriedDreqInTimewaitWithTheDrepAgain()
    {
        final BackToBackCms cms = new BackToBackCms();
        final IbCmConnection active = cms.establish();
        answerDreqs(cms.passive);
        cms.pipe.lose(sent -> sent.attribute() == CmAttribute.DREP && cms.pipe.sent(CmAttribute.DREP).isEmpty());

        active.disconnect(null);
        cms.settle();
        assertEquals(TIMEWAIT, cms.passive.accepted().state());

        cms.pipe.replay(cms.pipe.sent(CmAttribute.DREQ).getFirst());
        cms.settle();

        assertEquals(2, cms.pipe.sent(CmAttribute.DREP).size());
        assertArrayEquals(cms.pipe.sent(CmAttribute.DREP).get(0).mad(), cms.pipe.sent(CmAttribute.DREP).get(1).mad());
        assertEquals(TIMEWAIT, active.state());
        assertEquals(1, cms.active.events(IbCmEvent.DisconnectReplyReceived.class).size());
    }

    @Test
    void shouldDisconnectBothWhenBothSendDreqAtOnce()
    {
        final BackToBackCms cms = new BackToBackCms();
        final IbCmConnection active = cms.establish();
        final IbCmConnection passive = cms.passive.accepted();
        answerDreqs(cms.active);
        answerDreqs(cms.passive);

        active.disconnect(null);
        passive.disconnect(null);
        cms.settle();

        assertEquals(List.of(ESTABLISHED, DREQ_SENT, DREQ_RCVD, TIMEWAIT), cms.active.states(active).subList(3, 7));
        assertEquals(List.of(ESTABLISHED, DREQ_SENT, DREQ_RCVD, TIMEWAIT),
            cms.passive.states(passive).subList(3, 7));
        assertEquals(1, cms.active.events(IbCmEvent.DisconnectRequested.class).size());
        assertEquals(1, cms.passive.events(IbCmEvent.DisconnectRequested.class).size());
    }

    @Test
    void shouldExitTimewaitOnBothSidesAfterASimultaneousDisconnect()
    {
        final BackToBackCms cms = new BackToBackCms();
        final IbCmConnection active = cms.establish();
        final IbCmConnection passive = cms.passive.accepted();
        answerDreqs(cms.active);
        answerDreqs(cms.passive);
        active.disconnect(null);
        passive.disconnect(null);
        cms.settle();

        cms.advance(java.time.Duration.ofSeconds(10));

        assertEquals(IDLE, active.state());
        assertEquals(IDLE, passive.state());
        assertEquals(1, cms.active.events(IbCmEvent.TimewaitExit.class).size());
        assertEquals(1, cms.passive.events(IbCmEvent.TimewaitExit.class).size());
    }

    @Test
    void shouldAnswerADreqForAClosedConnectionWithADrep()
    {
        final BackToBackCms cms = new BackToBackCms();
        final IbCmConnection active = cms.establish();
        // the passive consumer answers the DREQ and, as rdma_cm does, destroys its ID when TIMEWAIT ends
        cms.passive.reaction = (connection, event) ->
        {
            if (event instanceof IbCmEvent.DisconnectRequested)
            {
                connection.drep(null);
            }
            if (event instanceof IbCmEvent.TimewaitExit)
            {
                connection.close();
            }
        };
        cms.pipe.lose(sent -> sent.attribute() == CmAttribute.DREP && cms.pipe.sent(CmAttribute.DREP).isEmpty());
        final long start = cms.elapsedNanos();

        active.disconnect(null);
        cms.settle();
        final long waitNanos = (2 * cmMillis(18) + cmMillis(20)) * NANOS_PER_MS;
        cms.advanceTo(start + waitNanos);

        // cm_dreq_handler: no connection has these IDs any more; cm_issue_drep answers all the same
        assertEquals(1, cms.passive.engine.connections().size(), "only the listener is left");
        assertEquals(2, cms.pipe.sent(CmAttribute.DREP).size());
        assertEquals(TIMEWAIT, active.state());
        assertEquals(1, cms.active.events(IbCmEvent.DisconnectReplyReceived.class).size());
    }
}
