package dev.rdmacm.protocol.cm;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class CmAttributeTest
{
    @Test
    void shouldHaveTheIdsOfUmadCm()
    {
        final Map<String, String> c = new LinkedHashMap<>();
        final Map<String, Integer> java = new LinkedHashMap<>();
        for (final CmAttribute attribute : CmAttribute.values())
        {
            c.put(attribute.name(), attribute == CmAttribute.CLASS_PORT_INFO ?
                "UMAD_ATTR_CLASS_PORT_INFO" : "UMAD_CM_ATTR_" + attribute.name());
            java.put(attribute.name(), attribute.id());
        }

        KernelCmFields.assertSameValues(c, java);
    }

    @Test
    void shouldFindEveryAttributeByItsId()
    {
        for (final CmAttribute attribute : CmAttribute.values())
        {
            assertEquals(attribute, CmAttribute.fromId(attribute.id()));
        }
        assertNull(CmAttribute.fromId(0x001b));
        assertNull(CmAttribute.fromId(0xffff));
        assertNull(CmAttribute.fromId(-1));
    }

    @Test
    void shouldHaveTheClassConstantsOfUmadTypesAndIbCmTypes()
    {
        final String output = KernelCmFields.run("""
              printf("%d %d %d %zu %d %d\\n", UMAD_CLASS_CM, IB_MCLASS_CM_VER_2, UMAD_METHOD_SEND,
                offsetof(struct umad_packet, data), UMAD_LEN_DATA, MAD_BLOCK_SIZE);
            """);

        assertEquals(CmMad.MGMT_CLASS + " " + CmMad.CLASS_VERSION + " " + CmMad.METHOD_SEND + " " +
            CmMad.MESSAGE_OFFSET + " " + CmMad.MESSAGE_LENGTH + " " + (CmMad.MESSAGE_OFFSET + CmMad.MESSAGE_LENGTH) +
            "\n", output);
    }
}
