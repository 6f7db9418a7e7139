package dev.rdmacm.protocol.cm;

import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.protocol.mad.MadMethod;
import dev.rdmacm.protocol.mad.ManagementClass;
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
        final Map<String, Integer> expected = new LinkedHashMap<>();
        for (final CmAttribute attribute : CmAttribute.values())
        {
            expected.put(attribute == CmAttribute.CLASS_PORT_INFO ?
                "UMAD_ATTR_CLASS_PORT_INFO" : "UMAD_CM_ATTR_" + attribute.name(), attribute.id());
        }

        KernelCmFields.assertHeaderValues(expected);
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
        KernelCmFields.assertHeaderValues(Map.of(
            "UMAD_CLASS_CM", ManagementClass.COMM_MGT,
            "IB_MCLASS_CM_VER_2", CmMad.CLASS_VERSION,
            "UMAD_METHOD_SEND", MadMethod.SEND,
            "offsetof(struct umad_packet, data)", CmMad.MESSAGE_OFFSET,
            "UMAD_LEN_DATA", CmMad.MESSAGE_LENGTH,
            "sizeof(struct umad_packet)", MadHeader.MAD_SIZE));
    }
}
