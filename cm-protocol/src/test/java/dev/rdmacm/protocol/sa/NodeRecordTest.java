package dev.rdmacm.protocol.sa;

import dev.rdmacm.protocol.MalformedMessageException;
import dev.rdmacm.testing.CHeaders;
import dev.rdmacm.testing.Peers;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class NodeRecordTest
{
    private static final String IB_TYPES = "#include <iba/ib_types.h>";

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[NodeRecord.PADDED_LENGTH]);
    private final NodeRecord record = new NodeRecord();

    @Test
    void shouldMatchOpenSmNodeRecordLayout()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        CHeaders.assertValues(IB_TYPES, Map.ofEntries(
            entry("sizeof(ib_node_record_t)", NodeRecord.PADDED_LENGTH),
            entry("offsetof(ib_node_record_t, pad)", NodeRecord.LENGTH),
            entry("offsetof(ib_node_record_t, lid)", NodeRecord.LID_OFFSET),
            entry("offsetof(ib_node_record_t, resv)", NodeRecord.RESERVED_OFFSET),
            entry("offsetof(ib_node_record_t, node_info)", NodeRecord.NODE_INFO_OFFSET),
            entry("sizeof(ib_node_info_t)", NodeRecord.NODE_INFO_LENGTH),
            entry("offsetof(ib_node_record_t, node_info.base_version)", NodeRecord.BASE_VERSION_OFFSET),
            entry("offsetof(ib_node_record_t, node_info.class_version)", NodeRecord.CLASS_VERSION_OFFSET),
            entry("offsetof(ib_node_record_t, node_info.node_type)", NodeRecord.NODE_TYPE_OFFSET),
            entry("offsetof(ib_node_record_t, node_info.num_ports)", NodeRecord.NUM_PORTS_OFFSET),
            entry("offsetof(ib_node_record_t, node_info.sys_guid)", NodeRecord.SYSTEM_IMAGE_GUID_OFFSET),
            entry("offsetof(ib_node_record_t, node_info.node_guid)", NodeRecord.NODE_GUID_OFFSET),
            entry("offsetof(ib_node_record_t, node_info.port_guid)", NodeRecord.PORT_GUID_OFFSET),
            entry("offsetof(ib_node_record_t, node_info.partition_cap)", NodeRecord.PARTITION_CAP_OFFSET),
            entry("offsetof(ib_node_record_t, node_info.device_id)", NodeRecord.DEVICE_ID_OFFSET),
            entry("offsetof(ib_node_record_t, node_info.revision)", NodeRecord.REVISION_OFFSET),
            entry("offsetof(ib_node_record_t, node_info.port_num_vendor_id)", NodeRecord.LOCAL_PORT_NUM_OFFSET),
            entry("offsetof(ib_node_record_t, node_desc)", NodeRecord.NODE_DESCRIPTION_OFFSET),
            entry("IB_NODE_DESCRIPTION_SIZE", NodeRecord.NODE_DESCRIPTION_LENGTH),
            entry("IB_NODE_TYPE_CA", NodeRecord.NODE_TYPE_CA),
            entry("IB_NODE_TYPE_SWITCH", NodeRecord.NODE_TYPE_SWITCH),
            entry("IB_NODE_TYPE_ROUTER", NodeRecord.NODE_TYPE_ROUTER)),
            CHeaders.OPENSM_FLAGS);
    }

    @Test
    void shouldEncodeTheBytesOpenSmBuildsForTheSameValues()
    {
        Peers.requireFile("/usr/include/infiniband/iba/ib_types.h", "libopensm-dev");
        final String fromC = CHeaders.bytesOf(IB_TYPES, """
              ib_node_record_t n;
              memset(&n, 0, sizeof(n));
              n.lid = cl_hton16(4);
              n.node_info.base_version = 1;
              n.node_info.class_version = 1;
              n.node_info.node_type = IB_NODE_TYPE_CA;
              n.node_info.num_ports = 2;
              n.node_info.sys_guid = cl_hton64(0x0002c90300001000ULL);
              n.node_info.node_guid = cl_hton64(0x0002c90300001001ULL);
              n.node_info.port_guid = cl_hton64(0x0002c90300001002ULL);
              n.node_info.partition_cap = cl_hton16(128);
              n.node_info.device_id = cl_hton16(0x1003);
              n.node_info.revision = cl_hton32(0x000000b0);
              n.node_info.port_num_vendor_id = cl_hton32((1u << 24) | 0x0002c9);
              strcpy((char *)n.node_desc.description, "Hca2 HCA-1");
            """, "n", CHeaders.OPENSM_FLAGS);

        record.wrap(buffer, 0).clear().lid(4).baseVersion(1).classVersion(1).nodeType(NodeRecord.NODE_TYPE_CA)
            .numPorts(2).systemImageGuid(0x0002_c903_0000_1000L).nodeGuid(0x0002_c903_0000_1001L)
            .portGuid(0x0002_c903_0000_1002L).partitionCap(128).deviceId(0x1003).revision(0xb0).localPortNum(1)
            .vendorId(0x0002c9).nodeDescription("Hca2 HCA-1");

        assertEquals(fromC, CHeaders.hex(buffer, 0, NodeRecord.PADDED_LENGTH));
    }

    @Test
    void shouldRoundTripEveryFieldAtItsMaximum()
    {
        record.wrap(buffer, 0).clear().lid(0xffff).baseVersion(0xff).classVersion(0xff).nodeType(0xff)
            .numPorts(0xff).systemImageGuid(-1L).nodeGuid(-1L).portGuid(-1L).partitionCap(0xffff).deviceId(0xffff)
            .revision(0xffff_ffffL).localPortNum(0xff).vendorId(0xff_ffff).nodeDescription("d".repeat(64));

        record.wrap(buffer, 0, NodeRecord.LENGTH);
        assertEquals(0xffff, record.lid());
        assertEquals(0xff, record.baseVersion());
        assertEquals(0xff, record.classVersion());
        assertEquals(0xff, record.nodeType());
        assertEquals(0xff, record.numPorts());
        assertEquals(-1L, record.systemImageGuid());
        assertEquals(-1L, record.nodeGuid());
        assertEquals(-1L, record.portGuid());
        assertEquals(0xffff, record.partitionCap());
        assertEquals(0xffff, record.deviceId());
        assertEquals(0xffff_ffffL, record.revision());
        assertEquals(0xff, record.localPortNum());
        assertEquals(0xff_ffff, record.vendorId());
        assertEquals("d".repeat(64), record.nodeDescription());
    }

    @Test
    void shouldKeepLocalPortNumAndVendorIdApart()
    {
        record.wrap(buffer, 0).clear().localPortNum(0xff).vendorId(0);
        assertEquals("ff000000", CHeaders.hex(buffer, NodeRecord.LOCAL_PORT_NUM_OFFSET, 4));

        record.localPortNum(0).vendorId(0xff_ffff);
        assertEquals("00ffffff", CHeaders.hex(buffer, NodeRecord.LOCAL_PORT_NUM_OFFSET, 4));
    }

    @Test
    void shouldPrintTheNodeTypeByName()
    {
        record.wrap(buffer, 0).clear().lid(4).nodeType(NodeRecord.NODE_TYPE_SWITCH).numPorts(8)
            .nodeDescription("Switch1");

        assertEquals("NodeRecord{LID=4, BaseVersion=0, ClassVersion=0, NodeType=Switch, NumPorts=8, " +
            "SystemImageGUID=0x0000000000000000, NodeGUID=0x0000000000000000, PortGUID=0x0000000000000000, " +
            "PartitionCap=0, DeviceID=0x0000, Revision=0x00000000, LocalPortNum=0, VendorID=0x000000, " +
            "NodeDescription=\"Switch1\"}", record.toString());
    }

    @Test
    void shouldRejectAShortRecord()
    {
        final MalformedMessageException ex = assertThrows(MalformedMessageException.class,
            () -> record.wrap(buffer, 0, 100));

        assertEquals("NodeRecord: 100 bytes present, the format needs at least 108", ex.getMessage());
    }
}
