package dev.rdmacm.protocol;

import dev.rdmacm.testing.CHeaders;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LidTest
{
    @Test
    void shouldMatchOpenSmLidRanges()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        CHeaders.assertValues("#include <iba/ib_types.h>", Map.ofEntries(
            entry("IB_LID_UCAST_START_HO", Lid.UNICAST_MIN),
            entry("IB_LID_UCAST_END_HO", Lid.UNICAST_MAX),
            entry("IB_LID_MCAST_START_HO", Lid.MULTICAST_MIN),
            entry("IB_LID_MCAST_END_HO", Lid.MULTICAST_MAX),
            entry("IB_LID_PERMISSIVE", Lid.PERMISSIVE)),
            CHeaders.OPENSM_FLAGS);
    }

    @Test
    void shouldClassifyTheBoundariesOfEachRange()
    {
        assertFalse(Lid.isUnicast(0x0000));
        assertTrue(Lid.isUnicast(0x0001));
        assertTrue(Lid.isUnicast(0xbfff));
        assertFalse(Lid.isUnicast(0xc000));
        assertTrue(Lid.isMulticast(0xc000));
        assertTrue(Lid.isMulticast(0xfffe));
        assertFalse(Lid.isMulticast(0xffff));
        assertTrue(Lid.isPermissive(0xffff));
        assertFalse(Lid.isPermissive(0xfffe));
    }

    @Test
    void shouldParseDecimalAndHex()
    {
        assertEquals(new Lid(4), Lid.parse("4"));
        assertEquals(new Lid(4), Lid.parse("0x0004"));
        assertEquals(new Lid(0xffff), Lid.parse("0xFFFF"));
        assertEquals(new Lid(65535), Lid.parse(" 65535 "));
    }

    @Test
    void shouldFormatInDecimalAsIbstatDoes()
    {
        assertEquals("49151", new Lid(0xbfff).toString());
        assertEquals("0", Lid.format(0));
    }

    @Test
    void shouldRejectAValueAbove16BitsNamingTheRule()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> Lid.parse("65536"));

        assertEquals("LID '65536' is out of range: expected a 16-bit value: 0-65535 or 0x0-0xffff", ex.getMessage());
    }

    @Test
    void shouldRejectTextThatIsNotANumber()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> Lid.parse("-1"));

        assertEquals("LID '-1' is not a 16-bit value: 0-65535 or 0x0-0xffff", ex.getMessage());
    }

    @Test
    void shouldRejectEmptyText()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> Lid.parse(""));

        assertEquals("LID: empty, expected a 16-bit value: 0-65535 or 0x0-0xffff", ex.getMessage());
    }

    @Test
    void shouldRejectANegativeValue()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> new Lid(-1));

        assertEquals("LID -1 is not a 16-bit value 0-65535", ex.getMessage());
    }

    @Test
    void shouldWidenAWireShortUnsigned()
    {
        assertEquals(0xffff, Lid.fromWire((short)0xffff).value());
        assertEquals(Lid.of(0x8001), Lid.fromWire((short)0x8001));
    }

    @Test
    void shouldRefuseAValueBeyondSixteenBits()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> Lid.of(0x10000));
        assertTrue(ex.getMessage().startsWith("LID 65536 is not a 16-bit value"), ex.getMessage());
    }
}
