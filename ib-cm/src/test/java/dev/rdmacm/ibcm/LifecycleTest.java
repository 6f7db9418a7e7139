package dev.rdmacm.ibcm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class LifecycleTest
{
    @Test
    void shouldLeaveNoConnectionAndNoTimerAfterEverythingIsClosed()
    {
        final BackToBackCms cms = new BackToBackCms();
        final IbCmConnection active = cms.establish();
        final IbCmConnection passive = cms.passive.accepted();

        active.close();
        cms.settle();
        passive.close();
        cms.engineListeners().forEach(IbCmConnection::close);
        cms.advance(Duration.ofMinutes(30));

        assertEquals(0, cms.active.engine.connections().size());
        assertEquals(0, cms.passive.engine.connections().size());
        assertEquals(0, cms.active.timers.count());
        assertEquals(0, cms.passive.timers.count());
    }

    @Test
    void shouldRefuseASecondListenerOnTheSameServiceId()
    {
        final BackToBackCms cms = new BackToBackCms();
        cms.passive.connection().listen(BackToBackCms.SERVICE_ID);

        final IllegalStateException refused = assertThrows(IllegalStateException.class,
            () -> cms.passive.connection().listen(BackToBackCms.SERVICE_ID));

        assertTrue(refused.getMessage().contains("has a listener already"), refused.getMessage());
    }

    @Test
    void shouldRefuseToConnectAListener()
    {
        final BackToBackCms cms = new BackToBackCms();
        final IbCmConnection listener = cms.passive.connection();
        listener.listen(BackToBackCms.SERVICE_ID);

        final IllegalStateException refused = assertThrows(IllegalStateException.class,
            () -> listener.connect(BackToBackCms.connectParameters(1, null), QpTransitions.NONE));

        assertEquals("connect is not allowed in state LISTEN (ib_cm: EINVAL)", refused.getMessage());
    }

    @Test
    void shouldRefuseReqPrivateDataOver92Bytes()
    {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> BackToBackCms.connectParameters(1, new byte[93]));

        assertEquals("REQ private data: 93 bytes given, a REQ holds at most 92 (IB_CM_REQ_PRIVATE_DATA_SIZE)",
            refused.getMessage());
    }

    @Test
    void shouldRefuseAQpnWiderThan24Bits()
    {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> BackToBackCms.connectParameters(1 << 24, null));

        assertEquals("ConnectParameters localQpn: 16777216 does not fit in 24 unsigned bits (0..16777215)",
            refused.getMessage());
    }

    @Test
    void shouldMoveTheQpToErrorOnceWhenTheConnectionEnds()
    {
        final BackToBackCms cms = new BackToBackCms();
        final int[] errors = new int[1];
        final QpTransitions counting = new QpTransitions()
        {
            @Override
            public void readyToReceive(final IbCmConnection connection, final QpAttributes attributes)
            {
            }

            @Override
            public void readyToSend(final IbCmConnection connection, final QpAttributes attributes)
            {
            }

            @Override
            public void error(final IbCmConnection connection)
            {
                errors[0]++;
            }
        };
        cms.listenAndAccept();
        cms.passive.reaction = (connection, event) ->
        {
            if (event instanceof IbCmEvent.RequestReceived)
            {
                connection.accept(BackToBackCms.acceptParameters(null), QpTransitions.NONE);
            }
            if (event instanceof IbCmEvent.DisconnectRequested)
            {
                connection.drep(null);
            }
        };
        final IbCmConnection active = cms.active.connection();
        active.connect(BackToBackCms.connectParameters(BackToBackCms.ACTIVE_QPN, null), counting);
        cms.settle();

        active.disconnect(null);
        cms.advance(Duration.ofSeconds(10));
        active.close();

        assertEquals(1, errors[0]);
    }
}
