package dev.rdmacm.verbs;

import java.lang.foreign.MemorySegment;

import static dev.rdmacm.verbs.IbvLayouts.IBV_PORT_ATTR;
import static dev.rdmacm.verbs.IbvLayouts.offset;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * Every field of the 52-byte {@code struct ibv_port_attr} of rdma-core 44, unsigned values widened.
 * Filled through the extended {@code verbs_context} query_port, so {@code port_cap_flags2} is real;
 * through the exported compatibility symbol it would always be 0.
 *
 * @param state                the logical port state ({@code IBV_PORT_*}).
 * @param maxMtu               the largest MTU, as an {@code IBV_MTU_*} code (1 = 256 ... 5 = 4096).
 * @param activeMtu            the active MTU code.
 * @param gidTableLength       GID table entries.
 * @param portCapFlags         the PortInfo CapabilityMask.
 * @param maxMessageSize       the largest message.
 * @param badPkeyCounter       P_Key violations counted.
 * @param qkeyViolationCounter Q_Key violations counted.
 * @param pkeyTableLength      P_Key table entries.
 * @param lid                  the base LID.
 * @param smLid                the subnet manager's LID.
 * @param lmc                  the LID mask count.
 * @param maxVlNum             the VL capability code.
 * @param smSl                 the service level to the subnet manager.
 * @param subnetTimeout        the subnet timeout code.
 * @param initTypeReply        the InitTypeReply bits.
 * @param activeWidth          the {@code IB_WIDTH_*} code.
 * @param activeSpeed          the {@code IB_SPEED_*} code.
 * @param physState            the physical port state.
 * @param linkLayer            the {@code IBV_LINK_LAYER_*} value.
 * @param flags                {@code IBV_QPF_*} port flags.
 * @param portCapFlags2        the PortInfo CapabilityMask2.
 */
public record PortAttributes(
    int state,
    int maxMtu,
    int activeMtu,
    int gidTableLength,
    long portCapFlags,
    long maxMessageSize,
    long badPkeyCounter,
    long qkeyViolationCounter,
    int pkeyTableLength,
    int lid,
    int smLid,
    int lmc,
    int maxVlNum,
    int smSl,
    int subnetTimeout,
    int initTypeReply,
    int activeWidth,
    int activeSpeed,
    int physState,
    int linkLayer,
    int flags,
    int portCapFlags2)
{
    static final long STATE_OFFSET = offset(IBV_PORT_ATTR, "state");
    static final long MAX_MTU_OFFSET = offset(IBV_PORT_ATTR, "max_mtu");
    static final long ACTIVE_MTU_OFFSET = offset(IBV_PORT_ATTR, "active_mtu");
    static final long GID_TBL_LEN_OFFSET = offset(IBV_PORT_ATTR, "gid_tbl_len");
    static final long PORT_CAP_FLAGS_OFFSET = offset(IBV_PORT_ATTR, "port_cap_flags");
    static final long MAX_MSG_SZ_OFFSET = offset(IBV_PORT_ATTR, "max_msg_sz");
    static final long BAD_PKEY_CNTR_OFFSET = offset(IBV_PORT_ATTR, "bad_pkey_cntr");
    static final long QKEY_VIOL_CNTR_OFFSET = offset(IBV_PORT_ATTR, "qkey_viol_cntr");
    static final long PKEY_TBL_LEN_OFFSET = offset(IBV_PORT_ATTR, "pkey_tbl_len");
    static final long LID_OFFSET = offset(IBV_PORT_ATTR, "lid");
    static final long SM_LID_OFFSET = offset(IBV_PORT_ATTR, "sm_lid");
    static final long LMC_OFFSET = offset(IBV_PORT_ATTR, "lmc");
    static final long MAX_VL_NUM_OFFSET = offset(IBV_PORT_ATTR, "max_vl_num");
    static final long SM_SL_OFFSET = offset(IBV_PORT_ATTR, "sm_sl");
    static final long SUBNET_TIMEOUT_OFFSET = offset(IBV_PORT_ATTR, "subnet_timeout");
    static final long INIT_TYPE_REPLY_OFFSET = offset(IBV_PORT_ATTR, "init_type_reply");
    static final long ACTIVE_WIDTH_OFFSET = offset(IBV_PORT_ATTR, "active_width");
    static final long ACTIVE_SPEED_OFFSET = offset(IBV_PORT_ATTR, "active_speed");
    static final long PHYS_STATE_OFFSET = offset(IBV_PORT_ATTR, "phys_state");
    static final long LINK_LAYER_OFFSET = offset(IBV_PORT_ATTR, "link_layer");
    static final long FLAGS_OFFSET = offset(IBV_PORT_ATTR, "flags");
    static final long PORT_CAP_FLAGS2_OFFSET = offset(IBV_PORT_ATTR, "port_cap_flags2");

    /** Decodes a filled {@code struct ibv_port_attr} (host byte order, as libibverbs returns it). */
    static PortAttributes read(final MemorySegment attr)
    {
        return new PortAttributes(
            attr.get(JAVA_INT, STATE_OFFSET),
            attr.get(JAVA_INT, MAX_MTU_OFFSET),
            attr.get(JAVA_INT, ACTIVE_MTU_OFFSET),
            attr.get(JAVA_INT, GID_TBL_LEN_OFFSET),
            Integer.toUnsignedLong(attr.get(JAVA_INT, PORT_CAP_FLAGS_OFFSET)),
            Integer.toUnsignedLong(attr.get(JAVA_INT, MAX_MSG_SZ_OFFSET)),
            Integer.toUnsignedLong(attr.get(JAVA_INT, BAD_PKEY_CNTR_OFFSET)),
            Integer.toUnsignedLong(attr.get(JAVA_INT, QKEY_VIOL_CNTR_OFFSET)),
            Short.toUnsignedInt(attr.get(JAVA_SHORT, PKEY_TBL_LEN_OFFSET)),
            Short.toUnsignedInt(attr.get(JAVA_SHORT, LID_OFFSET)),
            Short.toUnsignedInt(attr.get(JAVA_SHORT, SM_LID_OFFSET)),
            Byte.toUnsignedInt(attr.get(JAVA_BYTE, LMC_OFFSET)),
            Byte.toUnsignedInt(attr.get(JAVA_BYTE, MAX_VL_NUM_OFFSET)),
            Byte.toUnsignedInt(attr.get(JAVA_BYTE, SM_SL_OFFSET)),
            Byte.toUnsignedInt(attr.get(JAVA_BYTE, SUBNET_TIMEOUT_OFFSET)),
            Byte.toUnsignedInt(attr.get(JAVA_BYTE, INIT_TYPE_REPLY_OFFSET)),
            Byte.toUnsignedInt(attr.get(JAVA_BYTE, ACTIVE_WIDTH_OFFSET)),
            Byte.toUnsignedInt(attr.get(JAVA_BYTE, ACTIVE_SPEED_OFFSET)),
            Byte.toUnsignedInt(attr.get(JAVA_BYTE, PHYS_STATE_OFFSET)),
            Byte.toUnsignedInt(attr.get(JAVA_BYTE, LINK_LAYER_OFFSET)),
            Byte.toUnsignedInt(attr.get(JAVA_BYTE, FLAGS_OFFSET)),
            Short.toUnsignedInt(attr.get(JAVA_SHORT, PORT_CAP_FLAGS2_OFFSET)));
    }

    /** The logical state as an enum; {@code null} for a value outside {@code enum ibv_port_state}. */
    public PortState portState()
    {
        return PortState.ofValue(state);
    }

    public LinkLayer linkLayerType()
    {
        return LinkLayer.ofValue(linkLayer);
    }

    /** The rate text sysfs would show, e.g. {@code 100 Gb/sec (4X EDR)}. */
    public String rateText()
    {
        return PortRate.text(activeWidth, activeSpeed);
    }
}
