package dev.rdmacm.verbs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The names an {@code ibv_modify_qp} error gives its attribute mask: each is the {@code IbvConstants}
 * field of that name, whose value {@code VerbsLayoutConformanceTest} compares with the header.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class QpAttributeMaskTest
{
    @Test
    void shouldNameEveryBitAsTheEnumeratorOfThatValue() throws IllegalAccessException
    {
        int checked = 0;
        for (final Field field : IbvConstants.class.getFields())
        {
            if (Modifier.isStatic(field.getModifiers()) && field.getName().startsWith("IBV_QP_") && !field.getName().startsWith("IBV_QP_INIT"))
            {
                final int bit = field.getInt(null);
                assertEquals("0x" + Integer.toHexString(bit) + " (" + field.getName() + ")", QpAttributeMask.describe(bit));
                checked++;
            }
        }
        assertEquals(22, checked);
    }

    @Test
    void shouldNameAnRtrMaskInBitOrder()
    {
        assertEquals("0x129181 (IBV_QP_STATE|IBV_QP_AV|IBV_QP_PATH_MTU|IBV_QP_RQ_PSN|IBV_QP_MIN_RNR_TIMER|"
            + "IBV_QP_MAX_DEST_RD_ATOMIC|IBV_QP_DEST_QPN)", QpAttributeMask.describe(IbvConstants.IBV_QP_STATE | RcQueuePair.RTR_MASK));
    }

    @Test
    void shouldKeepUnknownBitsInHex()
    {
        assertEquals("0x40000001 (IBV_QP_STATE|0x40000000)", QpAttributeMask.describe(0x4000_0001));
    }
}
