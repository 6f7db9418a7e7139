package dev.rdmacm.protocol.sa;

import dev.rdmacm.testing.CHeaders;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class MtuCodeTest
{
    @Test
    void shouldMatchIbvMtuAndItsSizes()
    {
        Peers.requireFile("/usr/include/infiniband/verbs.h", "libibverbs-dev");
        CHeaders.assertValues("#include <infiniband/verbs.h>", Map.ofEntries(
            entry("IBV_MTU_256", MtuCode.MTU_256.code()),
            entry("IBV_MTU_512", MtuCode.MTU_512.code()),
            entry("IBV_MTU_1024", MtuCode.MTU_1024.code()),
            entry("IBV_MTU_2048", MtuCode.MTU_2048.code()),
            entry("IBV_MTU_4096", MtuCode.MTU_4096.code()),
            entry("128 << IBV_MTU_256", MtuCode.MTU_256.bytes()),
            entry("128 << IBV_MTU_4096", MtuCode.MTU_4096.bytes())));
    }

    @Test
    void shouldMatchOpenSmMtuCodes()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        CHeaders.assertValues("#include <iba/ib_types.h>", Map.ofEntries(
            entry("IB_MTU_LEN_256", MtuCode.MTU_256.code()),
            entry("IB_MTU_LEN_512", MtuCode.MTU_512.code()),
            entry("IB_MTU_LEN_1024", MtuCode.MTU_1024.code()),
            entry("IB_MTU_LEN_2048", MtuCode.MTU_2048.code()),
            entry("IB_MTU_LEN_4096", MtuCode.MTU_4096.code()),
            entry("IB_MIN_MTU", MtuCode.MTU_256.code()),
            entry("IB_MAX_MTU", MtuCode.MTU_4096.code())),
            CHeaders.OPENSM_FLAGS);
    }

    @Test
    void shouldConvertBetweenCodesAndSizes()
    {
        assertEquals(MtuCode.MTU_1024, MtuCode.fromCode(3));
        assertEquals(MtuCode.MTU_4096, MtuCode.fromBytes(4096));
        assertEquals(MtuCode.MTU_2048, MtuCode.parse(" 2048"));
        assertEquals("4 (2048)", MtuCode.describe(4));
        assertEquals("0 (reserved)", MtuCode.describe(0));
    }

    @Test
    void shouldRejectACodeOutside1To5()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> MtuCode.fromCode(6));

        assertEquals("MTU code 6 is not 1-5 (256-4096 bytes)", ex.getMessage());
    }

    @Test
    void shouldRejectASizeThatIsNoIbMtu()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> MtuCode.parse("1500"));

        assertEquals("MTU 1500 bytes is not one of 256, 512, 1024, 2048, 4096", ex.getMessage());
    }

    @Test
    void shouldRejectTextThatIsNotANumber()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> MtuCode.parse("2k"));

        assertEquals("MTU '2k' is not a number of bytes (256, 512, 1024, 2048 or 4096)", ex.getMessage());
    }
}
