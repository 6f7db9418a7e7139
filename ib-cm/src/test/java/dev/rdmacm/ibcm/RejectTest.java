package dev.rdmacm.ibcm;

import dev.rdmacm.protocol.cm.IbCmState;
import dev.rdmacm.protocol.cm.RejectReason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class RejectTest
{
    private static byte[] pattern(final int length)
    {
        final byte[] data = new byte[length];
        for (int i = 0; i < length; i++)
        {
            data[i] = (byte)(0x80 + i);
        }
        return data;
    }

    @Test
    void shouldDeliverTheFull148BytesOfRejectPrivateDataIntact()
    {
        final BackToBackCms cms = new BackToBackCms();
        final byte[] privateData = pattern(148);
        cms.passive.connection().listen(BackToBackCms.SERVICE_ID);
        cms.passive.reaction = (connection, event) ->
        {
            if (event instanceof IbCmEvent.RequestReceived)
            {
                connection.reject(RejectReason.CONSUMER_DEFINED, null, privateData);
            }
        };
        final IbCmConnection active = cms.active.connection();
        active.connect(BackToBackCms.connectParameters(BackToBackCms.ACTIVE_QPN, null), QpTransitions.NONE);
        cms.settle();

        final IbCmEvent.Rejected rejected = cms.active.events(IbCmEvent.Rejected.class).getFirst();
        assertEquals(28, rejected.reason());
        assertArrayEquals(privateData, rejected.privateData());
        assertEquals(IbCmState.IDLE, active.state());
        assertEquals(IbCmState.IDLE, cms.passive.accepted().state());
    }

    @Test
    void shouldRefuseRejectPrivateDataOverTheRejLimit()
    {
        final BackToBackCms cms = new BackToBackCms();
        cms.passive.connection().listen(BackToBackCms.SERVICE_ID);
        cms.active.connection().connect(BackToBackCms.connectParameters(BackToBackCms.ACTIVE_QPN, null),
            QpTransitions.NONE);
        cms.settle();
        final IbCmConnection passive = cms.passive.accepted();

        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> passive.reject(RejectReason.CONSUMER_DEFINED, null, new byte[149]));

        assertTrue(refused.getMessage().contains("149 bytes given, a REJ holds at most 148"), refused.getMessage());
        assertEquals(IbCmState.REQ_RCVD, passive.state(), "nothing sent, nothing changed");
    }

    @Test
    void shouldDeliverTheAriOfAReject()
    {
        final BackToBackCms cms = new BackToBackCms();
        final byte[] ari = pattern(72);
        cms.passive.connection().listen(BackToBackCms.SERVICE_ID);
        cms.passive.reaction = (connection, event) ->
        {
            if (event instanceof IbCmEvent.RequestReceived)
            {
                connection.reject(RejectReason.INVALID_GID, ari, null);
            }
        };
        cms.active.connection().connect(BackToBackCms.connectParameters(BackToBackCms.ACTIVE_QPN, null),
            QpTransitions.NONE);
        cms.settle();

        assertArrayEquals(ari, cms.active.events(IbCmEvent.Rejected.class).getFirst().ari());
    }

    @Test
    void shouldRefuseToRejectAnEstablishedConnection()
    {
        final BackToBackCms cms = new BackToBackCms();
        final IbCmConnection active = cms.establish();

        final IllegalStateException refused = assertThrows(IllegalStateException.class,
            () -> active.reject(RejectReason.CONSUMER_DEFINED, null, null));

        assertEquals("reject is not allowed in state ESTABLISHED (ib_cm: EINVAL)", refused.getMessage());
    }

    @Test
    void shouldRejectWithTheCaGuidAsAriWhenTheActiveSideGivesUp()
    {
        final BackToBackCms cms = new BackToBackCms();
        cms.passive.connection().listen(BackToBackCms.SERVICE_ID);
        final IbCmConnection active = cms.active.connection();
        active.connect(BackToBackCms.connectParameters(BackToBackCms.ACTIVE_QPN, null), QpTransitions.NONE);
        cms.settle();

        active.close();
        cms.settle();

        // cm_destroy_id in REQ_SENT: REJ(IB_CM_REJ_TIMEOUT) with the node GUID as ARI, which the passive
        // side matches by its remote-ID table (cm_acquire_rejected_id)
        final IbCmEvent.Rejected rejected = cms.passive.events(IbCmEvent.Rejected.class).getFirst();
        assertEquals(4, rejected.reason());
        assertEquals(8, rejected.ari().length);
        assertEquals(BackToBackCms.ACTIVE_CA_GUID, java.nio.ByteBuffer.wrap(rejected.ari()).getLong());
        assertEquals(IbCmState.IDLE, cms.passive.accepted().state());
    }
}
