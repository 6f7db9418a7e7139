package dev.rdmacm.netlink;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

@Timeout(10)
class HardwareAddressTest
{
    private static byte[] mac()
    {
        return new byte[] {0x52, 0x54, 0x00, (byte)0xab, (byte)0xcd, (byte)0xef};
    }

    @Test
    void shouldNotChangeWhenTheArrayItWasMadeFromChanges()
    {
        final byte[] given = mac();
        final HardwareAddress address = HardwareAddress.of(given);

        given[0] = 0;

        assertEquals("52:54:00:ab:cd:ef", address.toString());
    }

    @Test
    void shouldNotChangeWhenTheArrayItHandedOutChanges()
    {
        final HardwareAddress address = HardwareAddress.of(mac());

        address.toBytes()[0] = 0;

        assertEquals("52:54:00:ab:cd:ef", address.toString());
    }

    @Test
    void shouldEqualAnAddressOfTheSameBytes()
    {
        assertEquals(HardwareAddress.of(mac()), HardwareAddress.of(mac()));
        assertEquals(HardwareAddress.of(mac()).hashCode(), HardwareAddress.of(mac()).hashCode());
        assertNotEquals(HardwareAddress.of(mac()), HardwareAddress.of(new byte[] {0x52, 0x54, 0x00, (byte)0xab, (byte)0xcd, 0}));
    }

    @Test
    void shouldBeNoneForNoBytesOrNull()
    {
        assertSame(HardwareAddress.NONE, HardwareAddress.of(new byte[0]));
        assertSame(HardwareAddress.NONE, HardwareAddress.of(null));
        assertEquals("", HardwareAddress.NONE.toString());
    }

    @Test
    void shouldReadItsBytesUnsigned()
    {
        final HardwareAddress address = HardwareAddress.of(mac());

        assertEquals(6, address.length());
        assertEquals(0xef, address.unsignedByte(5));
    }
}
