package dev.rdmacm.protocol.sa;

/** SA attribute IDs (IBA 15.2.5, Table 192), the {@code AttributeID} of an SA MAD. */
public final class SaAttribute
{
    public static final int CLASS_PORT_INFO = 0x0001;
    public static final int NOTICE = 0x0002;
    public static final int INFORM_INFO = 0x0003;
    public static final int NODE_RECORD = 0x0011;
    public static final int PORT_INFO_RECORD = 0x0012;
    public static final int SL_TO_VL_MAPPING_TABLE_RECORD = 0x0013;
    public static final int SWITCH_INFO_RECORD = 0x0014;
    public static final int LINEAR_FORWARDING_TABLE_RECORD = 0x0015;
    public static final int RANDOM_FORWARDING_TABLE_RECORD = 0x0016;
    public static final int MULTICAST_FORWARDING_TABLE_RECORD = 0x0017;
    public static final int SM_INFO_RECORD = 0x0018;
    public static final int LINK_SPEED_WIDTH_PAIRS_TABLE_RECORD = 0x0019;
    public static final int LINK_RECORD = 0x0020;
    public static final int GUID_INFO_RECORD = 0x0030;
    public static final int SERVICE_RECORD = 0x0031;
    public static final int P_KEY_TABLE_RECORD = 0x0033;
    public static final int PATH_RECORD = 0x0035;
    public static final int VL_ARBITRATION_TABLE_RECORD = 0x0036;
    public static final int MC_MEMBER_RECORD = 0x0038;
    public static final int TRACE_RECORD = 0x0039;
    public static final int MULTI_PATH_RECORD = 0x003a;
    public static final int SERVICE_ASSOCIATION_RECORD = 0x003b;
    public static final int HIERARCHY_INFO_RECORD = 0x003c;
    public static final int CABLE_INFO_RECORD = 0x003d;
    public static final int PORT_INFO_EXTENDED_RECORD = 0x003e;
    public static final int INFORM_INFO_RECORD = 0x00f3;

    private SaAttribute()
    {
    }

    /** The IBA name, e.g. {@code PathRecord}; unknown IDs as {@code 0x%04x}. */
    public static String name(final int attributeId)
    {
        return switch (attributeId)
        {
            case CLASS_PORT_INFO -> "ClassPortInfo";
            case NOTICE -> "Notice";
            case INFORM_INFO -> "InformInfo";
            case NODE_RECORD -> "NodeRecord";
            case PORT_INFO_RECORD -> "PortInfoRecord";
            case SL_TO_VL_MAPPING_TABLE_RECORD -> "SLtoVLMappingTableRecord";
            case SWITCH_INFO_RECORD -> "SwitchInfoRecord";
            case LINEAR_FORWARDING_TABLE_RECORD -> "LinearForwardingTableRecord";
            case RANDOM_FORWARDING_TABLE_RECORD -> "RandomForwardingTableRecord";
            case MULTICAST_FORWARDING_TABLE_RECORD -> "MulticastForwardingTableRecord";
            case SM_INFO_RECORD -> "SMInfoRecord";
            case LINK_SPEED_WIDTH_PAIRS_TABLE_RECORD -> "LinkSpeedWidthPairsTableRecord";
            case LINK_RECORD -> "LinkRecord";
            case GUID_INFO_RECORD -> "GuidInfoRecord";
            case SERVICE_RECORD -> "ServiceRecord";
            case P_KEY_TABLE_RECORD -> "P_KeyTableRecord";
            case PATH_RECORD -> "PathRecord";
            case VL_ARBITRATION_TABLE_RECORD -> "VLArbitrationTableRecord";
            case MC_MEMBER_RECORD -> "MCMemberRecord";
            case TRACE_RECORD -> "TraceRecord";
            case MULTI_PATH_RECORD -> "MultiPathRecord";
            case SERVICE_ASSOCIATION_RECORD -> "ServiceAssociationRecord";
            case HIERARCHY_INFO_RECORD -> "HierarchyInfoRecord";
            case CABLE_INFO_RECORD -> "CableInfoRecord";
            case PORT_INFO_EXTENDED_RECORD -> "PortInfoExtendedRecord";
            case INFORM_INFO_RECORD -> "InformInfoRecord";
            default -> String.format("0x%04x", attributeId);
        };
    }
}
