package dev.rdmacm.ibcm;

import dev.rdmacm.protocol.cm.CmAttribute;
import dev.rdmacm.protocol.cm.ConnectReject;
import dev.rdmacm.protocol.cm.IbCmState;
import dev.rdmacm.protocol.cm.RejectReason;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(10)
class DuplicateAndStaleTest
{
    @Test
    void shouldMakeNoSecondConnectionForADuplicateReq()
    {
        final BackToBackCms cms = new BackToBackCms();
        cms.passive.connection().listen(BackToBackCms.SERVICE_ID); // a consumer that has not answered yet
        cms.active.connection().connect(BackToBackCms.connectParameters(BackToBackCms.ACTIVE_QPN, null),
            QpTransitions.NONE);
        cms.settle();

        cms.pipe.replay(cms.pipe.sent(CmAttribute.REQ).getFirst());
        cms.settle();

        assertEquals(1, cms.passive.events(IbCmEvent.RequestReceived.class).size());
        assertEquals(2, cms.passive.engine.connections().size(), "the listener and one connection");
        assertEquals(1, cms.pipe.sent(CmAttribute.REQ).size());
        assertEquals(1, cms.passive.engine.duplicateMads());
    }

    @Test
    void shouldResendTheMraForADuplicateReq()
    {
        final BackToBackCms cms = new BackToBackCms();
        cms.passive.connection().listen(BackToBackCms.SERVICE_ID);
        cms.passive.reaction = (connection, event) ->
        {
            if (event instanceof IbCmEvent.RequestReceived)
            {
                connection.sendMra(20, false, new byte[] {1, 2, 3});
            }
        };
        cms.active.connection().connect(BackToBackCms.connectParameters(BackToBackCms.ACTIVE_QPN, null),
            QpTransitions.NONE);
        cms.settle();

        cms.pipe.replay(cms.pipe.sent(CmAttribute.REQ).getFirst());
        cms.settle();

        assertEquals(2, cms.pipe.sent(CmAttribute.MRA).size());
        assertArrayEquals(cms.pipe.sent(CmAttribute.MRA).get(0).mad(), cms.pipe.sent(CmAttribute.MRA).get(1).mad());
        assertEquals(1, cms.passive.events(IbCmEvent.RequestReceived.class).size());
    }

    @Test
    void shouldRejectAReqFromAConnectedQpAsStaleWithReason10()
    {
        final BackToBackCms cms = new BackToBackCms();
        cms.establish();
        // the same CA and QP ask again under a new comm ID: the peer lost the connection we still have
        final IbCmConnection again = cms.active.connection();
        cms.active.reaction = (connection, event) ->
        {
            if (event instanceof IbCmEvent.DisconnectRequested)
            {
                connection.drep(null);
            }
        };
        again.connect(BackToBackCms.connectParameters(BackToBackCms.ACTIVE_QPN, null), QpTransitions.NONE);
        cms.settle();

        final IbCmEvent.Rejected rejected = cms.active.events(IbCmEvent.Rejected.class).getFirst();
        assertEquals(10, rejected.reason());
        assertEquals(RejectReason.STALE_CONN, rejected.rejectReason());
        // cm_rej_handler: a stale REJ sends the rejected connection to TIMEWAIT, not IDLE
        assertEquals(IbCmState.TIMEWAIT, again.state());
        final ConnectReject rej = new ConnectReject().wrapMad(new UnsafeBuffer(
            cms.pipe.sent(CmAttribute.REJ).getFirst().mad()), 0, 256);
        assertEquals(ConnectReject.MESSAGE_REJECTED_REQ, rej.messageRejected());
        assertEquals(again.localCommId(), rej.remoteCommId());
    }

    @Test
    void shouldDisconnectTheOldConnectionWhenAStaleReqComes()
    {
        final BackToBackCms cms = new BackToBackCms();
        final IbCmConnection old = cms.establish();
        cms.active.reaction = (connection, event) ->
        {
            if (event instanceof IbCmEvent.DisconnectRequested)
            {
                connection.drep(null);
            }
        };
        cms.active.connection().connect(BackToBackCms.connectParameters(BackToBackCms.ACTIVE_QPN, null),
            QpTransitions.NONE);
        cms.settle();

        assertEquals(1, cms.active.events(IbCmEvent.DisconnectRequested.class).size());
        assertEquals(IbCmState.TIMEWAIT, old.state());
        assertEquals(IbCmState.TIMEWAIT, cms.passive.accepted().state());
        assertEquals(1, cms.passive.events(IbCmEvent.RequestReceived.class).size());
    }

    @Test
    void shouldRejectWithInvalidServiceIdWhenNothingListens()
    {
        final BackToBackCms cms = new BackToBackCms();
        final IbCmConnection active = cms.active.connection();
        active.connect(BackToBackCms.connectParameters(BackToBackCms.ACTIVE_QPN, null), QpTransitions.NONE);
        cms.settle();

        // cm_match_req: no listener, cm_issue_rej(IB_CM_REJ_INVALID_SERVICE_ID, CM_MSG_RESPONSE_REQ)
        final IbCmEvent.Rejected rejected = cms.active.events(IbCmEvent.Rejected.class).getFirst();
        assertEquals(8, rejected.reason());
        assertEquals(IbCmState.IDLE, active.state());
        assertEquals(1, cms.pipe.sent(CmAttribute.REQ).size(), "no retry after the REJ");
        assertEquals(0, cms.passive.engine.connections().size());
    }
}
