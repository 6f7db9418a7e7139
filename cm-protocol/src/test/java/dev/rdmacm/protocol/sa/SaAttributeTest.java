package dev.rdmacm.protocol.sa;

import dev.rdmacm.testing.CHeaders;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;

class SaAttributeTest
{
    @Test
    void shouldMatchUmadSaAttributeIds()
    {
        Peers.requireFile("/usr/include/infiniband/umad_sa.h", "libibumad-dev");
        CHeaders.assertValues("#include <infiniband/umad_sa.h>", Map.ofEntries(
            entry("UMAD_ATTR_CLASS_PORT_INFO", SaAttribute.CLASS_PORT_INFO),
            entry("UMAD_ATTR_NOTICE", SaAttribute.NOTICE),
            entry("UMAD_ATTR_INFORM_INFO", SaAttribute.INFORM_INFO),
            entry("UMAD_SA_ATTR_NODE_REC", SaAttribute.NODE_RECORD),
            entry("UMAD_SA_ATTR_PORT_INFO_REC", SaAttribute.PORT_INFO_RECORD),
            entry("UMAD_SA_ATTR_SLVL_REC", SaAttribute.SL_TO_VL_MAPPING_TABLE_RECORD),
            entry("UMAD_SA_ATTR_SWITCH_INFO_REC", SaAttribute.SWITCH_INFO_RECORD),
            entry("UMAD_SA_ATTR_LINEAR_FT_REC", SaAttribute.LINEAR_FORWARDING_TABLE_RECORD),
            entry("UMAD_SA_ATTR_RANDOM_FT_REC", SaAttribute.RANDOM_FORWARDING_TABLE_RECORD),
            entry("UMAD_SA_ATTR_MCAST_FT_REC", SaAttribute.MULTICAST_FORWARDING_TABLE_RECORD),
            entry("UMAD_SA_ATTR_SM_INFO_REC", SaAttribute.SM_INFO_RECORD),
            entry("UMAD_SA_ATTR_LINK_SPD_WIDTH_TABLE_REC", SaAttribute.LINK_SPEED_WIDTH_PAIRS_TABLE_RECORD),
            entry("UMAD_SA_ATTR_INFORM_INFO_REC", SaAttribute.INFORM_INFO_RECORD),
            entry("UMAD_SA_ATTR_LINK_REC", SaAttribute.LINK_RECORD),
            entry("UMAD_SA_ATTR_GUID_INFO_REC", SaAttribute.GUID_INFO_RECORD),
            entry("UMAD_SA_ATTR_SERVICE_REC", SaAttribute.SERVICE_RECORD),
            entry("UMAD_SA_ATTR_PKEY_TABLE_REC", SaAttribute.P_KEY_TABLE_RECORD),
            entry("UMAD_SA_ATTR_PATH_REC", SaAttribute.PATH_RECORD),
            entry("UMAD_SA_ATTR_VL_ARB_REC", SaAttribute.VL_ARBITRATION_TABLE_RECORD),
            entry("UMAD_SA_ATTR_MCMEMBER_REC", SaAttribute.MC_MEMBER_RECORD),
            entry("UMAD_SA_ATTR_TRACE_REC", SaAttribute.TRACE_RECORD),
            entry("UMAD_SA_ATTR_MULTI_PATH_REC", SaAttribute.MULTI_PATH_RECORD),
            entry("UMAD_SA_ATTR_SERVICE_ASSOC_REC", SaAttribute.SERVICE_ASSOCIATION_RECORD),
            entry("UMAD_SA_ATTR_HIERARCHY_INFO_REC", SaAttribute.HIERARCHY_INFO_RECORD),
            entry("UMAD_SA_ATTR_CABLE_INFO_REC", SaAttribute.CABLE_INFO_RECORD),
            entry("UMAD_SA_ATTR_PORT_INFO_EXT_REC", SaAttribute.PORT_INFO_EXTENDED_RECORD)));
    }

    @Test
    void shouldNameAttributesAsTheIbaDoes()
    {
        assertEquals("PathRecord", SaAttribute.name(0x0035));
        assertEquals("MultiPathRecord", SaAttribute.name(0x003a));
        assertEquals("0x1234", SaAttribute.name(0x1234));
    }
}
