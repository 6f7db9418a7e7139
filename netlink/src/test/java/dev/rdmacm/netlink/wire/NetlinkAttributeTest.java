package dev.rdmacm.netlink.wire;

import dev.rdmacm.protocol.MalformedMessageException;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The attribute cursor's behaviour on runs the encoders wrote and on broken ones. */
class NetlinkAttributeTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
    private final NetlinkAttribute attribute = new NetlinkAttribute();

    @Test
    void shouldReadBackWhatTheEncodersWrote()
    {
        int end = NetlinkAttribute.putU32(buffer, 0, 4, 0x0102_0304L);
        end = NetlinkAttribute.put(buffer, end, 3, "ib0\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        end = NetlinkAttribute.putU8(buffer, end, 16 | NetlinkAttribute.NLA_F_NESTED, 6);

        attribute.wrap(buffer, 0, end);
        assertTrue(attribute.next());
        assertEquals(0x0102_0304L, attribute.u32());
        assertTrue(attribute.next());
        assertEquals("ib0", attribute.string());
        assertTrue(attribute.next());
        assertEquals(16, attribute.type());
        assertEquals(6, attribute.u8());
        assertFalse(attribute.next());
        assertEquals(24, end);
    }

    @Test
    void shouldStopQuietlyAtAnAttributeRunningPastTheEnd()
    {
        final int end = NetlinkAttribute.putU32(buffer, 0, 4, 1);
        buffer.putShort(NetlinkAttribute.LENGTH_OFFSET, (short)40, NetlinkMessageHeader.ORDER);

        assertFalse(attribute.wrap(buffer, 0, end).next());
    }

    @Test
    void shouldRejectAU32ReadOfAShorterValue()
    {
        final int end = NetlinkAttribute.putU8(buffer, 0, 4, 1);
        attribute.wrap(buffer, 0, end).next();

        final MalformedMessageException ex = assertThrows(MalformedMessageException.class, attribute::u32);
        assertEquals("netlink attribute type 4: 1 value bytes, must be at least 4", ex.getMessage());
    }

    @Test
    void shouldRefuseAReadBeforeNext()
    {
        attribute.wrap(buffer, 0, 8);

        assertThrows(IllegalStateException.class, attribute::type);
    }

    @Test
    void shouldRejectARunOutsideTheBuffer()
    {
        final MalformedMessageException ex =
            assertThrows(MalformedMessageException.class, () -> attribute.wrap(buffer, 0, 65));
        assertEquals("netlink attributes: bytes 0..65 do not fit in a buffer of 64 bytes", ex.getMessage());
    }
}
