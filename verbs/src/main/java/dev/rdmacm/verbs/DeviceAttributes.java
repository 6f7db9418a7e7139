package dev.rdmacm.verbs;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

import static dev.rdmacm.verbs.IbvLayouts.BE64;
import static dev.rdmacm.verbs.IbvLayouts.IBV_DEVICE_ATTR;
import static dev.rdmacm.verbs.IbvLayouts.offset;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * What {@code ibv_query_device} reports: identity and the limits that matter to a connection manager.
 *
 * @param firmwareVersion the {@code fw_ver} text.
 * @param nodeGuid        the node GUID (the {@code __be64} read big-endian).
 * @param sysImageGuid    the system image GUID.
 * @param vendorId        the IEEE OUI of the vendor.
 * @param vendorPartId    the vendor's part number.
 * @param hardwareVersion the hardware revision.
 * @param maxQp           QPs the device supports.
 * @param maxQpWr         work requests per queue.
 * @param maxSge          scatter/gather entries per work request.
 * @param maxCq           CQs.
 * @param maxCqe          entries per CQ.
 * @param maxMr           memory regions.
 * @param maxMrSize       bytes per memory region.
 * @param maxPd           protection domains.
 * @param maxAh           address handles.
 * @param maxPkeys        P_Key table entries per port.
 * @param localCaAckDelay {@code local_ca_ack_delay}: the CA's ACK delay, 4.096 us * 2^value (the CM's
 *                        TargetACKDelay in a REP).
 * @param physPortCount   the number of ports, numbered from 1.
 */
public record DeviceAttributes(
    String firmwareVersion,
    long nodeGuid,
    long sysImageGuid,
    long vendorId,
    long vendorPartId,
    long hardwareVersion,
    int maxQp,
    int maxQpWr,
    int maxSge,
    int maxCq,
    int maxCqe,
    int maxMr,
    long maxMrSize,
    int maxPd,
    int maxAh,
    int maxPkeys,
    int localCaAckDelay,
    int physPortCount)
{
    static final long FW_VER_OFFSET = offset(IBV_DEVICE_ATTR, "fw_ver");
    static final long FW_VER_LENGTH = IBV_DEVICE_ATTR.select(MemoryLayout.PathElement.groupElement("fw_ver")).byteSize();
    static final long NODE_GUID_OFFSET = offset(IBV_DEVICE_ATTR, "node_guid");
    static final long SYS_IMAGE_GUID_OFFSET = offset(IBV_DEVICE_ATTR, "sys_image_guid");
    static final long MAX_MR_SIZE_OFFSET = offset(IBV_DEVICE_ATTR, "max_mr_size");
    static final long VENDOR_ID_OFFSET = offset(IBV_DEVICE_ATTR, "vendor_id");
    static final long VENDOR_PART_ID_OFFSET = offset(IBV_DEVICE_ATTR, "vendor_part_id");
    static final long HW_VER_OFFSET = offset(IBV_DEVICE_ATTR, "hw_ver");
    static final long MAX_QP_OFFSET = offset(IBV_DEVICE_ATTR, "max_qp");
    static final long MAX_QP_WR_OFFSET = offset(IBV_DEVICE_ATTR, "max_qp_wr");
    static final long MAX_SGE_OFFSET = offset(IBV_DEVICE_ATTR, "max_sge");
    static final long MAX_CQ_OFFSET = offset(IBV_DEVICE_ATTR, "max_cq");
    static final long MAX_CQE_OFFSET = offset(IBV_DEVICE_ATTR, "max_cqe");
    static final long MAX_MR_OFFSET = offset(IBV_DEVICE_ATTR, "max_mr");
    static final long MAX_PD_OFFSET = offset(IBV_DEVICE_ATTR, "max_pd");
    static final long MAX_AH_OFFSET = offset(IBV_DEVICE_ATTR, "max_ah");
    static final long MAX_PKEYS_OFFSET = offset(IBV_DEVICE_ATTR, "max_pkeys");
    static final long LOCAL_CA_ACK_DELAY_OFFSET = offset(IBV_DEVICE_ATTR, "local_ca_ack_delay");
    static final long PHYS_PORT_CNT_OFFSET = offset(IBV_DEVICE_ATTR, "phys_port_cnt");

    /** Decodes a filled {@code struct ibv_device_attr}. */
    static DeviceAttributes read(final MemorySegment attr)
    {
        final byte[] fwVer = attr.asSlice(FW_VER_OFFSET, FW_VER_LENGTH).toArray(JAVA_BYTE);
        int length = 0;
        while (length < fwVer.length && fwVer[length] != 0)
        {
            length++;
        }
        return new DeviceAttributes(
            new String(fwVer, 0, length, StandardCharsets.US_ASCII),
            attr.get(BE64, NODE_GUID_OFFSET),
            attr.get(BE64, SYS_IMAGE_GUID_OFFSET),
            Integer.toUnsignedLong(attr.get(JAVA_INT, VENDOR_ID_OFFSET)),
            Integer.toUnsignedLong(attr.get(JAVA_INT, VENDOR_PART_ID_OFFSET)),
            Integer.toUnsignedLong(attr.get(JAVA_INT, HW_VER_OFFSET)),
            attr.get(JAVA_INT, MAX_QP_OFFSET),
            attr.get(JAVA_INT, MAX_QP_WR_OFFSET),
            attr.get(JAVA_INT, MAX_SGE_OFFSET),
            attr.get(JAVA_INT, MAX_CQ_OFFSET),
            attr.get(JAVA_INT, MAX_CQE_OFFSET),
            attr.get(JAVA_INT, MAX_MR_OFFSET),
            attr.get(JAVA_LONG, MAX_MR_SIZE_OFFSET),
            attr.get(JAVA_INT, MAX_PD_OFFSET),
            attr.get(JAVA_INT, MAX_AH_OFFSET),
            Short.toUnsignedInt(attr.get(JAVA_SHORT, MAX_PKEYS_OFFSET)),
            Byte.toUnsignedInt(attr.get(JAVA_BYTE, LOCAL_CA_ACK_DELAY_OFFSET)),
            Byte.toUnsignedInt(attr.get(JAVA_BYTE, PHYS_PORT_CNT_OFFSET)));
    }
}
