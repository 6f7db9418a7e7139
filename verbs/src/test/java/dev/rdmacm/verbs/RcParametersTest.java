package dev.rdmacm.verbs;

import dev.rdmacm.protocol.sa.MtuCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Bad RTR and RTS values are refused before any native call, naming the value and its range. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RcParametersTest
{
    private static final AddressVector PATH = AddressVector.lid(1, 1, 0);

    @Test
    void shouldRefuseARemoteQpnWiderThan24Bits()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> new RcReceiveParameters(PATH, MtuCode.MTU_1024, 0x100_0000, 0, 1, 0));

        assertEquals("RTR parameters: remoteQpn 0x1000000 and rqPsn 0x0 are 24-bit values (0-0xffffff)", ex.getMessage());
    }

    @Test
    void shouldRefuseAnRnrTimerCodeAbove31()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> new RcReceiveParameters(PATH, MtuCode.MTU_1024, 1, 0, 1, 32));

        assertEquals("RTR parameters: responderResources 1 (0-255) or minRnrTimer 32 (0-31) out of range", ex.getMessage());
    }

    @Test
    void shouldRefuseARetryCountAbove7()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> new RcSendParameters(0, 14, 8, 7, 1));

        assertEquals("RTS parameters: localAckTimeout 14 (0-31), retryCount 8 (0-7), rnrRetryCount 7 (0-7) or initiatorDepth 1"
            + " (0-255) out of range", ex.getMessage());
    }

    @Test
    void shouldRefuseAnSqPsnWiderThan24Bits()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> new RcSendParameters(-1, 14, 7, 7, 1));

        assertEquals("RTS parameters: sqPsn 0xffffffff is a 24-bit value (0-0xffffff)", ex.getMessage());
    }

    @Test
    void shouldRefuseAnEntryBeyondTheListsCapacity()
    {
        try (ScatterGatherList sgl = new ScatterGatherList(1))
        {
            sgl.put(0x1000, 8, 1);

            final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> sgl.put(0x2000, 8, 1));
            assertEquals("ibv_sge: the scatter/gather list is full (1 entries)", ex.getMessage());
            assertEquals(1, sgl.count());
        }
    }
}
