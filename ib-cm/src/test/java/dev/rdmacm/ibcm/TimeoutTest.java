package dev.rdmacm.ibcm;

import dev.rdmacm.protocol.cm.CmAttribute;
import dev.rdmacm.protocol.cm.IbCmState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The waits, computed here from the IBA definition of a CM time (4.096 us * 2^t) rounded as cm.c's
 * {@code cm_convert_to_ms} rounds it: "approximate conversion to ms from 4.096us x 2^iba_time",
 * {@code 1 << max(iba_time - 8, 0)}, i.e. the largest power of two milliseconds not above the IBA time,
 * and 1 ms below 2^8.
 */
@Timeout(30)
class TimeoutTest
{
    private static final long NANOS_PER_MS = 1_000_000L;
    /** The rdma_cm values the fixture's REQ carries: PacketLifeTime 18 (RoCE), both response timeouts 20. */
    private static final int PACKET_LIFE_TIME = 18;
    private static final int CM_RESPONSE_TIMEOUT = 20;
    private static final int MAX_CM_RETRIES = 15;

    /** cm_convert_to_ms from the IBA definition: 4.096 us * 2^t, to a power of two ms not above it, 1 at least. */
    private static long cmMillis(final int ibaTime)
    {
        final long ibaNanos = 4096L << ibaTime;
        return Math.max(1, Long.highestOneBit(ibaNanos / NANOS_PER_MS));
    }

    @Test
    void shouldRetryTheReqThenTimeOutWhenEveryRepIsLost()
    {
        final BackToBackCms cms = new BackToBackCms();
        cms.listenAndAccept();
        cms.pipe.loseAll(CmAttribute.REP);
        final IbCmConnection active = cms.active.connection();
        active.connect(BackToBackCms.connectParameters(BackToBackCms.ACTIVE_QPN, null), QpTransitions.NONE);
        cms.settle();
        // cm.c ib_send_cm_req: timeout_ms = cm_convert_to_ms(packet_life_time) * 2 +
        // cm_convert_to_ms(remote_cm_response_timeout); the MAD layer re-sends max_cm_retries times, waiting
        // timeout_ms after each send, then reports the timeout (IB_CM_REQ_ERROR)
        final long waitNanos = (2 * cmMillis(PACKET_LIFE_TIME) + cmMillis(CM_RESPONSE_TIMEOUT)) * NANOS_PER_MS;
        final long timeoutNanos = (MAX_CM_RETRIES + 1) * waitNanos;

        cms.advanceTo(timeoutNanos - 1);
        assertEquals(IbCmState.REQ_SENT, active.state());
        assertTrue(cms.active.events(IbCmEvent.RequestTimedOut.class).isEmpty());
        cms.advanceTo(timeoutNanos);

        assertEquals(IbCmState.IDLE, active.state());
        assertEquals(1, cms.active.events(IbCmEvent.RequestTimedOut.class).size());
        final List<InMemoryMadPipe.Sent> reqs = cms.pipe.sent(CmAttribute.REQ);
        assertEquals(MAX_CM_RETRIES + 1, reqs.size());
        for (int i = 0; i < reqs.size(); i++)
        {
            assertEquals(cms.startNanos + i * waitNanos, reqs.get(i).atNanos(), "REQ " + i);
            assertArrayEquals(reqs.getFirst().mad(), reqs.get(i).mad(), "a retry re-sends the same bytes");
        }
    }

    @Test
    void shouldMakeOnlyOneConnectionForTheRetriedReqs()
    {
        final BackToBackCms cms = new BackToBackCms();
        cms.listenAndAccept();
        cms.pipe.loseAll(CmAttribute.REP);
        cms.active.connection().connect(BackToBackCms.connectParameters(BackToBackCms.ACTIVE_QPN, null),
            QpTransitions.NONE);
        cms.settle();
        final long waitNanos = (2 * cmMillis(PACKET_LIFE_TIME) + cmMillis(CM_RESPONSE_TIMEOUT)) * NANOS_PER_MS;

        cms.advanceTo(3 * waitNanos);

        assertEquals(1, cms.passive.events(IbCmEvent.RequestReceived.class).size());
        assertEquals(2, cms.passive.engine.connections().size(), "the listener and one connection");
        assertEquals(3, cms.passive.engine.duplicateMads());
    }

    @Test
    void shouldTimeOutTheRepAfterItsRetriesWhenNoRtuComes()
    {
        final BackToBackCms cms = new BackToBackCms();
        cms.pipe.loseAll(CmAttribute.RTU);
        cms.establish();
        final IbCmConnection passive = cms.passive.accepted();
        // cm_req_handler: the REP waits cm_convert_to_ms(REQ.LocalCMResponseTimeout), REQ.MaxCMRetries times
        final long timeoutNanos = (MAX_CM_RETRIES + 1) * cmMillis(CM_RESPONSE_TIMEOUT) * NANOS_PER_MS;

        cms.advanceTo(timeoutNanos - 1);
        assertEquals(IbCmState.REP_SENT, passive.state());
        cms.advanceTo(timeoutNanos);

        assertEquals(IbCmState.IDLE, passive.state());
        assertEquals(1, cms.passive.events(IbCmEvent.ReplyTimedOut.class).size());
        assertEquals(MAX_CM_RETRIES + 1, cms.pipe.sent(CmAttribute.REP).size());
    }

    @Test
    void shouldWaitTheMraServiceTimeoutBeforeTheNextReqRetry()
    {
        final BackToBackCms cms = new BackToBackCms();
        final int serviceTimeout = 16;
        final IbCmConnection listener = cms.passive.connection();
        listener.listen(BackToBackCms.SERVICE_ID);
        cms.passive.reaction = (connection, event) ->
        {
            if (event instanceof IbCmEvent.RequestReceived)
            {
                connection.sendMra(serviceTimeout, false, null);
            }
        };
        final IbCmConnection active = cms.active.connection();
        active.connect(BackToBackCms.connectParameters(BackToBackCms.ACTIVE_QPN, null), QpTransitions.NONE);
        cms.settle();
        assertEquals(IbCmState.MRA_REQ_RCVD, active.state());
        // cm_mra_handler: timeout = cm_convert_to_ms(service_timeout) + cm_convert_to_ms(av.timeout), with
        // av.timeout = packet_life_time + 1 (cm_init_av_by_path); ib_modify_mad restarts the wait from the MRA
        final long extendedNanos = (cmMillis(serviceTimeout) + cmMillis(PACKET_LIFE_TIME + 1)) * NANOS_PER_MS;

        cms.advanceTo(extendedNanos - 1);
        assertEquals(1, cms.pipe.sent(CmAttribute.REQ).size());
        cms.advanceTo(extendedNanos);

        assertEquals(2, cms.pipe.sent(CmAttribute.REQ).size());
        assertEquals(1, cms.active.events(IbCmEvent.MraReceived.class).size());
        assertEquals(serviceTimeout, cms.active.events(IbCmEvent.MraReceived.class).getFirst().serviceTimeout());
    }

    @Test
    void shouldKeepRetryingTheReqOnTheMraWaitUntilTheRetriesAreSpent()
    {
        final BackToBackCms cms = new BackToBackCms();
        final int serviceTimeout = 16;
        final IbCmConnection listener = cms.passive.connection();
        listener.listen(BackToBackCms.SERVICE_ID);
        cms.passive.reaction = (connection, event) ->
        {
            if (event instanceof IbCmEvent.RequestReceived)
            {
                connection.sendMra(serviceTimeout, false, null);
            }
        };
        final IbCmConnection active = cms.active.connection();
        active.connect(BackToBackCms.connectParameters(BackToBackCms.ACTIVE_QPN, null), QpTransitions.NONE);
        cms.settle();
        final long extendedNanos = (cmMillis(serviceTimeout) + cmMillis(PACKET_LIFE_TIME + 1)) * NANOS_PER_MS;
        // every retry after the MRA waits the MRA's time; the retries left are not reset (ib_modify_mad)
        final long timeoutNanos = (MAX_CM_RETRIES + 1) * extendedNanos;

        cms.advanceTo(timeoutNanos - 1);
        assertEquals(IbCmState.MRA_REQ_RCVD, active.state());
        cms.advanceTo(timeoutNanos);

        assertEquals(IbCmState.IDLE, active.state());
        assertEquals(1, cms.active.events(IbCmEvent.RequestTimedOut.class).size());
        assertEquals(MAX_CM_RETRIES + 1, cms.pipe.sent(CmAttribute.REQ).size());
        assertEquals(MAX_CM_RETRIES + 1, cms.pipe.sent(CmAttribute.MRA).size(), "one MRA per REQ");
    }

    @Test
    void shouldSendADelayedMraOnlyInAnswerToARetriedReq()
    {
        final BackToBackCms cms = new BackToBackCms();
        final IbCmConnection listener = cms.passive.connection();
        listener.listen(BackToBackCms.SERVICE_ID);
        cms.passive.reaction = (connection, event) ->
        {
            if (event instanceof IbCmEvent.RequestReceived)
            {
                // rdma_cm's CMA_CM_MRA_SETTING: IB_CM_MRA_FLAG_DELAY | 24
                connection.sendMra(24, true, null);
            }
        };
        cms.active.connection().connect(BackToBackCms.connectParameters(BackToBackCms.ACTIVE_QPN, null),
            QpTransitions.NONE);
        cms.settle();
        assertTrue(cms.pipe.sent(CmAttribute.MRA).isEmpty());
        final long waitNanos = (2 * cmMillis(PACKET_LIFE_TIME) + cmMillis(CM_RESPONSE_TIMEOUT)) * NANOS_PER_MS;

        cms.advanceTo(waitNanos);

        assertEquals(1, cms.pipe.sent(CmAttribute.MRA).size());
        assertEquals(cms.startNanos + waitNanos, cms.pipe.sent(CmAttribute.MRA).getFirst().atNanos());
    }

    @Test
    void shouldLeaveTimewaitAfterTheQpsLocalAckTimeout()
    {
        final BackToBackCms cms = new BackToBackCms();
        final IbCmConnection active = cms.establish();
        cms.passive.reaction = (connection, event) ->
        {
            if (event instanceof IbCmEvent.DisconnectRequested)
            {
                connection.drep(null);
            }
        };
        active.disconnect(null);
        cms.settle();
        final long enteredNanos = cms.elapsedNanos();
        assertEquals(IbCmState.TIMEWAIT, active.state());
        // cm_enter_timewait waits cm_convert_to_ms(av.timeout); on the active side cm_rep_handler set
        // av.timeout = cm_ack_timeout(target_ack_delay, packet_life_time), cm.c's approximation of
        // 4.096x2^ack_timeout = 4.096x2^ack_delay + 2x4.096x2^life_time: "select the max(ack_delay,
        // life_time + 1), and increment it (round up) only if the other is within 50%"
        final int lifeTimePlusOne = PACKET_LIFE_TIME + 1;
        final int ackDelay = BackToBackCms.CA_ACK_DELAY;
        final int ackTimeout = Math.max(ackDelay, lifeTimePlusOne) +
            (Math.min(ackDelay, lifeTimePlusOne) >= Math.max(ackDelay, lifeTimePlusOne) - 1 ? 1 : 0);
        final long timewaitNanos = cmMillis(ackTimeout) * NANOS_PER_MS;

        cms.advanceTo(enteredNanos + timewaitNanos - 1);
        assertEquals(IbCmState.TIMEWAIT, active.state());
        cms.advanceTo(enteredNanos + timewaitNanos);

        assertEquals(IbCmState.IDLE, active.state());
        assertEquals(1, cms.active.events(IbCmEvent.TimewaitExit.class).size());
        assertEquals(ackTimeout, active.qpAttributes().localAckTimeout());
    }
}
