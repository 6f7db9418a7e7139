package dev.rdmacm.protocol.mad;

import dev.rdmacm.testing.CHeaders;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;

class ManagementClassTest
{
    @Test
    void shouldMatchUmadTypesClassCodes()
    {
        Peers.requireFile("/usr/include/infiniband/umad_types.h", "libibumad-dev");
        CHeaders.assertValues("#include <infiniband/umad_types.h>", Map.ofEntries(
            entry("UMAD_CLASS_SUBN_LID_ROUTED", ManagementClass.SUBN_LID_ROUTED),
            entry("UMAD_CLASS_SUBN_DIRECTED_ROUTE", ManagementClass.SUBN_DIRECTED_ROUTE),
            entry("UMAD_CLASS_SUBN_ADM", ManagementClass.SUBN_ADM),
            entry("UMAD_CLASS_PERF_MGMT", ManagementClass.PERF_MGT),
            entry("UMAD_CLASS_BM", ManagementClass.BASEBOARD_MGT),
            entry("UMAD_CLASS_DEVICE_MGMT", ManagementClass.DEV_MGT),
            entry("UMAD_CLASS_CM", ManagementClass.COMM_MGT),
            entry("UMAD_CLASS_SNMP", ManagementClass.SNMP),
            entry("UMAD_CLASS_VENDOR_RANGE1_START", ManagementClass.VENDOR_RANGE1_START),
            entry("UMAD_CLASS_VENDOR_RANGE1_END", ManagementClass.VENDOR_RANGE1_END),
            entry("UMAD_CLASS_DEVICE_ADM", ManagementClass.DEV_ADM),
            entry("UMAD_CLASS_BOOT_MGMT", ManagementClass.BOOT_MGT),
            entry("UMAD_CLASS_BIS", ManagementClass.BIS),
            entry("UMAD_CLASS_CONG_MGMT", ManagementClass.CONG_MGT),
            entry("UMAD_CLASS_VENDOR_RANGE2_START", ManagementClass.VENDOR_RANGE2_START),
            entry("UMAD_CLASS_VENDOR_RANGE2_END", ManagementClass.VENDOR_RANGE2_END)));
    }

    @Test
    void shouldMatchOpenSmClassCodes()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        CHeaders.assertValues("#include <iba/ib_types.h>", Map.ofEntries(
            entry("IB_MCLASS_SUBN_LID", ManagementClass.SUBN_LID_ROUTED),
            entry("IB_MCLASS_SUBN_DIR", ManagementClass.SUBN_DIRECTED_ROUTE),
            entry("IB_MCLASS_SUBN_ADM", ManagementClass.SUBN_ADM),
            entry("IB_MCLASS_PERF", ManagementClass.PERF_MGT),
            entry("IB_MCLASS_BM", ManagementClass.BASEBOARD_MGT),
            entry("IB_MCLASS_DEV_MGMT", ManagementClass.DEV_MGT),
            entry("IB_MCLASS_COMM_MGMT", ManagementClass.COMM_MGT),
            entry("IB_MCLASS_SNMP", ManagementClass.SNMP),
            entry("IB_MCLASS_DEV_ADM", ManagementClass.DEV_ADM),
            entry("IB_MCLASS_BIS", ManagementClass.BIS),
            entry("IB_MCLASS_CC", ManagementClass.CONG_MGT)),
            CHeaders.OPENSM_FLAGS);
    }

    @Test
    void shouldNameClassesAsWiresharkDoes()
    {
        assertEquals("SubnAdm", ManagementClass.name(0x03));
        assertEquals("ComMgt", ManagementClass.name(0x07));
        assertEquals("Vendor(0x0a)", ManagementClass.name(0x0a));
        assertEquals("0x60", ManagementClass.name(0x60));
    }
}
