package dev.rdmacm.protocol.sa;

import dev.rdmacm.protocol.Flyweight;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Flyweight over the SA NodeRecord attribute (IBA 15.2.5.2, attribute ID 0x0011): the LID, the port's
 * NodeInfo (IBA 14.2.5.3) and its NodeDescription, 108 bytes, big-endian. In a GetTable response the
 * records are {@link #PADDED_LENGTH} bytes apart (AttributeOffset 14).
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-------------------------------+-------------------------------+
 *  |              LID              |           Reserved            |   0
 *  +---------------+---------------+---------------+---------------+
 *  |  BaseVersion  | ClassVersion  |   NodeType    |   NumPorts    |   4
 *  +---------------+---------------+---------------+---------------+
 *  |                       SystemImageGUID                         |   8
 *  +---------------------------------------------------------------+
 *  |                           NodeGUID                            |  16
 *  +---------------------------------------------------------------+
 *  |                           PortGUID                            |  24
 *  +-------------------------------+-------------------------------+
 *  |          PartitionCap         |           DeviceID            |  32
 *  +-------------------------------+-------------------------------+
 *  |                           Revision                            |  36
 *  +---------------+-----------------------------------------------+
 *  | LocalPortNum  |                   VendorID                    |  40
 *  +---------------+-----------------------------------------------+
 *  |          NodeDescription (64 bytes, UTF-8, NUL-padded)        |  44
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class NodeRecord extends Flyweight
{
    public static final int LID_OFFSET = 0;
    public static final int RESERVED_OFFSET = 2;
    public static final int NODE_INFO_OFFSET = 4;
    public static final int BASE_VERSION_OFFSET = 4;
    public static final int CLASS_VERSION_OFFSET = 5;
    public static final int NODE_TYPE_OFFSET = 6;
    public static final int NUM_PORTS_OFFSET = 7;
    public static final int SYSTEM_IMAGE_GUID_OFFSET = 8;
    public static final int NODE_GUID_OFFSET = 16;
    public static final int PORT_GUID_OFFSET = 24;
    public static final int PARTITION_CAP_OFFSET = 32;
    public static final int DEVICE_ID_OFFSET = 34;
    public static final int REVISION_OFFSET = 36;
    public static final int LOCAL_PORT_NUM_OFFSET = 40;
    /** VendorID: the low 24 bits of the word that LocalPortNum starts. */
    public static final int VENDOR_ID_OFFSET = 41;
    public static final int NODE_INFO_LENGTH = 40;
    public static final int NODE_DESCRIPTION_OFFSET = 44;
    public static final int NODE_DESCRIPTION_LENGTH = 64;
    public static final int LENGTH = 108;
    /** The record rounded up to whole 8-byte words, as OpenSM's {@code ib_node_record_t} is. */
    public static final int PADDED_LENGTH = 112;

    public static final int NODE_TYPE_CA = 1;
    public static final int NODE_TYPE_SWITCH = 2;
    public static final int NODE_TYPE_ROUTER = 3;

    public NodeRecord wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        wrapForReading("NodeRecord", buffer, offset, length, LENGTH);
        return this;
    }

    public NodeRecord wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapForWriting(buffer, offset);
        return this;
    }

    public NodeRecord clear()
    {
        zero(0, LENGTH);
        return this;
    }

    public int lid()
    {
        return u16(LID_OFFSET);
    }

    public NodeRecord lid(final int value)
    {
        putU16(LID_OFFSET, value);
        putU16(RESERVED_OFFSET, 0);
        return this;
    }

    public short baseVersion()
    {
        return u8(BASE_VERSION_OFFSET);
    }

    public NodeRecord baseVersion(final int value)
    {
        putU8(BASE_VERSION_OFFSET, value);
        return this;
    }

    public short classVersion()
    {
        return u8(CLASS_VERSION_OFFSET);
    }

    public NodeRecord classVersion(final int value)
    {
        putU8(CLASS_VERSION_OFFSET, value);
        return this;
    }

    /** 1 channel adapter, 2 switch, 3 router. */
    public short nodeType()
    {
        return u8(NODE_TYPE_OFFSET);
    }

    public NodeRecord nodeType(final int value)
    {
        putU8(NODE_TYPE_OFFSET, value);
        return this;
    }

    public short numPorts()
    {
        return u8(NUM_PORTS_OFFSET);
    }

    public NodeRecord numPorts(final int value)
    {
        putU8(NUM_PORTS_OFFSET, value);
        return this;
    }

    public long systemImageGuid()
    {
        return u64(SYSTEM_IMAGE_GUID_OFFSET);
    }

    public NodeRecord systemImageGuid(final long value)
    {
        putU64(SYSTEM_IMAGE_GUID_OFFSET, value);
        return this;
    }

    public long nodeGuid()
    {
        return u64(NODE_GUID_OFFSET);
    }

    public NodeRecord nodeGuid(final long value)
    {
        putU64(NODE_GUID_OFFSET, value);
        return this;
    }

    public long portGuid()
    {
        return u64(PORT_GUID_OFFSET);
    }

    public NodeRecord portGuid(final long value)
    {
        putU64(PORT_GUID_OFFSET, value);
        return this;
    }

    public int partitionCap()
    {
        return u16(PARTITION_CAP_OFFSET);
    }

    public NodeRecord partitionCap(final int value)
    {
        putU16(PARTITION_CAP_OFFSET, value);
        return this;
    }

    public int deviceId()
    {
        return u16(DEVICE_ID_OFFSET);
    }

    public NodeRecord deviceId(final int value)
    {
        putU16(DEVICE_ID_OFFSET, value);
        return this;
    }

    public long revision()
    {
        return u32(REVISION_OFFSET);
    }

    public NodeRecord revision(final long value)
    {
        putU32(REVISION_OFFSET, value);
        return this;
    }

    public short localPortNum()
    {
        return u8(LOCAL_PORT_NUM_OFFSET);
    }

    public NodeRecord localPortNum(final int value)
    {
        putU8(LOCAL_PORT_NUM_OFFSET, value);
        return this;
    }

    /** The 24-bit IEEE OUI of the vendor. */
    public int vendorId()
    {
        return (int)bits32(LOCAL_PORT_NUM_OFFSET, 0, 24);
    }

    public NodeRecord vendorId(final int value)
    {
        putBits32(LOCAL_PORT_NUM_OFFSET, 0, 24, value);
        return this;
    }

    /** The description up to its first NUL (or all 64 bytes), decoded as UTF-8. */
    public String nodeDescription()
    {
        return paddedText(NODE_DESCRIPTION_OFFSET, NODE_DESCRIPTION_LENGTH);
    }

    /** @throws IllegalArgumentException when the UTF-8 form exceeds 64 bytes. */
    public NodeRecord nodeDescription(final String description)
    {
        putPaddedText("NodeDescription", NODE_DESCRIPTION_OFFSET, NODE_DESCRIPTION_LENGTH, description);
        return this;
    }

    public static String nodeTypeName(final int nodeType)
    {
        return switch (nodeType)
        {
            case NODE_TYPE_CA -> "Channel Adapter";
            case NODE_TYPE_SWITCH -> "Switch";
            case NODE_TYPE_ROUTER -> "Router";
            default -> "Unknown(" + nodeType + ")";
        };
    }

    @Override
    public String toString()
    {
        if (!isWrapped())
        {
            return "NodeRecord{unwrapped}";
        }
        return String.format(
            "NodeRecord{LID=%d, BaseVersion=%d, ClassVersion=%d, NodeType=%s, NumPorts=%d, " +
            "SystemImageGUID=0x%016x, NodeGUID=0x%016x, PortGUID=0x%016x, PartitionCap=%d, DeviceID=0x%04x, " +
            "Revision=0x%08x, LocalPortNum=%d, VendorID=0x%06x, NodeDescription=\"%s\"}",
            lid(), baseVersion(), classVersion(), nodeTypeName(nodeType()), numPorts(), systemImageGuid(),
            nodeGuid(), portGuid(), partitionCap(), deviceId(), revision(), localPortNum(), vendorId(),
            nodeDescription());
    }
}
