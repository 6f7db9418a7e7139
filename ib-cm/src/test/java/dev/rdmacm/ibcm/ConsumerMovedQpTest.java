package dev.rdmacm.ibcm;

import dev.rdmacm.protocol.cm.CmAttribute;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static dev.rdmacm.protocol.cm.IbCmState.ESTABLISHED;
import static dev.rdmacm.protocol.cm.IbCmState.IDLE;
import static dev.rdmacm.protocol.cm.IbCmState.MRA_REP_SENT;
import static dev.rdmacm.protocol.cm.IbCmState.REP_RCVD;
import static dev.rdmacm.protocol.cm.IbCmState.REQ_SENT;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The handshake as rdma_cm drives it for a QP the kernel does not hold (librdmacm's): the passive side asks
 * for the attributes ({@link IbCmConnection#prepareAccept}) before the REP, the active side MRAs the REP
 * (delayed) and sends the RTU when its consumer has moved the QP ({@link IbCmConnection#sendRtu}); the engine
 * moves no QP.
 */
@Timeout(10)
class ConsumerMovedQpTest
{
    @Test
    void shouldSendInTheRepThePsnThatPrepareAcceptGave()
    {
        final BackToBackCms cms = new BackToBackCms();
        final List<QpAttributes> prepared = new ArrayList<>();
        cms.passive.connection().listen(BackToBackCms.SERVICE_ID);
        cms.passive.reaction = (connection, event) ->
        {
            if (event instanceof IbCmEvent.RequestReceived)
            {
                final AcceptParameters parameters = new AcceptParameters(BackToBackCms.PASSIVE_QPN, 1, 1, 0, true, 7, false, null);
                prepared.add(connection.prepareAccept(parameters));
                prepared.add(connection.prepareAccept(parameters));
                connection.accept(parameters, QpTransitions.NONE);
            }
        };
        final IbCmConnection active = cms.active.connection();
        active.connect(BackToBackCms.connectParameters(BackToBackCms.ACTIVE_QPN, null), QpTransitions.NONE);
        cms.settle();

        assertEquals(prepared.get(0).receivePsn(), prepared.get(1).receivePsn());
        assertEquals(prepared.get(0).receivePsn(), active.qpAttributes().sendPsn());
        assertEquals(prepared.get(0).remoteQpn(), BackToBackCms.ACTIVE_QPN);
    }

    @Test
    void shouldSendTheRtuOnlyWhenTheConsumerAsksAfterItsDelayedMra()
    {
        final BackToBackCms cms = new BackToBackCms();
        cms.listenAndAccept();
        final List<QpAttributes> atReply = new ArrayList<>();
        cms.active.reaction = (connection, event) ->
        {
            if (event instanceof IbCmEvent.ReplyReceived)
            {
                connection.sendMra(24, true, null);
                atReply.add(connection.qpAttributes());
            }
        };
        final IbCmConnection active = cms.active.connection();
        active.connect(BackToBackCms.connectParameters(BackToBackCms.ACTIVE_QPN, null), QpTransitions.NONE);
        cms.settle();

        assertEquals(MRA_REP_SENT, active.state());
        assertEquals(List.of(CmAttribute.REQ, CmAttribute.REP), cms.pipe.sent().stream().map(InMemoryMadPipe.Sent::attribute).toList());
        assertEquals(BackToBackCms.PASSIVE_QPN, atReply.getFirst().remoteQpn());

        active.sendRtu(null);
        cms.settle();

        assertEquals(List.of(IDLE, REQ_SENT, REP_RCVD, MRA_REP_SENT, ESTABLISHED), cms.active.states(active));
        assertEquals(List.of(CmAttribute.REQ, CmAttribute.REP, CmAttribute.RTU),
            cms.pipe.sent().stream().map(InMemoryMadPipe.Sent::attribute).toList());
        assertEquals(ESTABLISHED, cms.passive.accepted().state());
    }
}
