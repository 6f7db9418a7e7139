package dev.rdmacm.protocol.mad;

import dev.rdmacm.testing.CHeaders;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MadStatusTest
{
    @Test
    void shouldMatchUmadTypesStatusConstants()
    {
        Peers.requireFile("/usr/include/infiniband/umad_types.h", "libibumad-dev");
        CHeaders.assertValues("#include <infiniband/umad_types.h>", Map.ofEntries(
            entry("UMAD_STATUS_SUCCESS", MadStatus.SUCCESS),
            entry("UMAD_STATUS_BUSY", MadStatus.BUSY),
            entry("UMAD_STATUS_REDIRECT", MadStatus.REDIRECT),
            entry("UMAD_STATUS_BAD_VERSION", MadStatus.of(MadStatus.FIELD_BAD_VERSION, 0)),
            entry("UMAD_STATUS_METHOD_NOT_SUPPORTED", MadStatus.of(MadStatus.FIELD_METHOD_NOT_SUPPORTED, 0)),
            entry("UMAD_STATUS_ATTR_NOT_SUPPORTED", MadStatus.of(MadStatus.FIELD_METHOD_ATTRIBUTE_NOT_SUPPORTED, 0)),
            entry("UMAD_STATUS_INVALID_ATTR_VALUE", MadStatus.of(MadStatus.FIELD_INVALID_VALUE, 0)),
            entry("UMAD_STATUS_INVALID_FIELD_MASK", MadStatus.INVALID_FIELD_MASK),
            entry("UMAD_STATUS_CLASS_MASK", MadStatus.CLASS_SPECIFIC_MASK)));
    }

    @Test
    void shouldMatchOpenSmStatusConstants()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        CHeaders.assertValues("#include <iba/ib_types.h>", Map.ofEntries(
            entry("cl_ntoh16(IB_MAD_STATUS_BUSY)", MadStatus.BUSY),
            entry("cl_ntoh16(IB_MAD_STATUS_REDIRECT)", MadStatus.REDIRECT),
            entry("cl_ntoh16(IB_MAD_STATUS_UNSUP_CLASS_VER)", MadStatus.of(MadStatus.FIELD_BAD_VERSION, 0)),
            entry("cl_ntoh16(IB_MAD_STATUS_UNSUP_METHOD)", MadStatus.of(MadStatus.FIELD_METHOD_NOT_SUPPORTED, 0)),
            entry("cl_ntoh16(IB_MAD_STATUS_UNSUP_METHOD_ATTR)",
                MadStatus.of(MadStatus.FIELD_METHOD_ATTRIBUTE_NOT_SUPPORTED, 0)),
            entry("cl_ntoh16(IB_MAD_STATUS_INVALID_FIELD)", MadStatus.of(MadStatus.FIELD_INVALID_VALUE, 0)),
            entry("cl_ntoh16(IB_MAD_STATUS_CLASS_MASK)", MadStatus.CLASS_SPECIFIC_MASK)),
            CHeaders.OPENSM_FLAGS);
    }

    @Test
    void shouldTakeAStatusWordApart()
    {
        final int status = 0x0300 | MadStatus.of(MadStatus.FIELD_METHOD_NOT_SUPPORTED, 0) | MadStatus.BUSY;

        assertTrue(MadStatus.isBusy(status));
        assertFalse(MadStatus.isRedirect(status));
        assertEquals(MadStatus.FIELD_METHOD_NOT_SUPPORTED, MadStatus.invalidField(status));
        assertEquals(3, MadStatus.classSpecific(status));
    }

    @Test
    void shouldNameEveryInvalidFieldCode()
    {
        final String[] names = new String[8];
        for (int code = 0; code < 8; code++)
        {
            names[code] = MadStatus.invalidFieldName(code);
        }

        assertEquals("[VALID, BAD_VERSION, METHOD_NOT_SUPPORTED, METHOD_ATTRIBUTE_NOT_SUPPORTED, RESERVED_4, " +
            "RESERVED_5, RESERVED_6, INVALID_VALUE]", java.util.Arrays.toString(names));
    }

    @Test
    void shouldNameAnyStatusWord()
    {
        assertEquals("SUCCESS", MadStatus.name(0));
        assertEquals("BUSY|REDIRECT|INVALID_VALUE|RESERVED(0x00e0)|CLASS_SPECIFIC(0xff)", MadStatus.name(0xffff));
        assertEquals("CLASS_SPECIFIC(0x03)", MadStatus.name(0x0300));
    }
}
