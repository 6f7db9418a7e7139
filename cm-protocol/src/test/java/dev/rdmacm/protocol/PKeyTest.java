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

class PKeyTest
{
    @Test
    void shouldMatchOpenSmPKeyMasks()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        CHeaders.assertValues("#include <iba/ib_types.h>", Map.ofEntries(
            entry("IB_DEFAULT_PKEY", PKey.DEFAULT),
            entry("cl_ntoh16(IB_PKEY_BASE_MASK)", PKey.BASE_MASK),
            entry("cl_ntoh16(IB_PKEY_TYPE_MASK)", PKey.FULL_MEMBER_BIT)),
            CHeaders.OPENSM_FLAGS);
    }

    @Test
    void shouldSplitTheMembershipBitFromThePartitionNumber()
    {
        assertTrue(PKey.isFullMember(PKey.DEFAULT));
        assertEquals(0x7fff, PKey.base(PKey.DEFAULT));
        assertFalse(PKey.isFullMember(0x7fff));
        assertEquals(0x0001, PKey.base(0x8001));
    }

    @Test
    void shouldMatchWhenOneSideIsAFullMember()
    {
        assertTrue(PKey.matches(0x8001, 0x0001));
        assertTrue(PKey.matches(0x8001, 0x8001));
        assertFalse(PKey.matches(0x0001, 0x0001));
        assertFalse(PKey.matches(0x8001, 0x8002));
        assertFalse(PKey.matches(0x8000, 0x8000));
    }

    @Test
    void shouldSwitchMembership()
    {
        assertEquals(new PKey(0xffff), new PKey(0x7fff).asFullMember());
        assertEquals(new PKey(0x7fff), new PKey(0xffff).asLimitedMember());
    }

    @Test
    void shouldFormatAsFourHexDigits()
    {
        assertEquals("0xffff", new PKey(PKey.DEFAULT).toString());
        assertEquals("0x0001", PKey.format(1));
    }

    @Test
    void shouldParseHexAndDecimal()
    {
        assertEquals(new PKey(0x8001), PKey.parse("0x8001"));
        assertEquals(new PKey(0xffff), PKey.parse("65535"));
    }

    @Test
    void shouldRejectAValueAbove16BitsNamingTheRule()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> PKey.parse("0x10000"));

        assertEquals("P_Key '0x10000' is out of range: expected a 16-bit value: 0-65535 or 0x0-0xffff",
            ex.getMessage());
    }

    @Test
    void shouldRejectHexWithoutDigits()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> PKey.parse("0x"));

        assertEquals("P_Key '0x' is not a 16-bit value: 0-65535 or 0x0-0xffff", ex.getMessage());
    }

    @Test
    void shouldWidenAWireShortUnsigned()
    {
        assertEquals(0xffff, PKey.fromWire((short)0xffff).value());
        assertEquals(PKey.of(0x8001), PKey.fromWire((short)0x8001));
        assertTrue(PKey.fromWire((short)0xffff).isFullMember());
    }

    @Test
    void shouldRefuseAValueBeyondSixteenBits()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> PKey.of(0x10000));
        assertTrue(ex.getMessage().startsWith("P_Key 65536 is not a 16-bit value"), ex.getMessage());
    }
}
