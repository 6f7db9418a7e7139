package dev.rdmacm.protocol.mad;

/**
 * MAD management class codes (IBA 13.4.4, Table 113), the {@code MgmtClass} byte of the common header.
 */
public final class ManagementClass
{
    public static final int SUBN_LID_ROUTED = 0x01;
    public static final int SUBN_DIRECTED_ROUTE = 0x81;
    /** Subnet administration: the SA that answers PathRecord queries. */
    public static final int SUBN_ADM = 0x03;
    public static final int PERF_MGT = 0x04;
    public static final int BASEBOARD_MGT = 0x05;
    public static final int DEV_MGT = 0x06;
    /** Communication management: REQ, REP, RTU and the rest. */
    public static final int COMM_MGT = 0x07;
    public static final int SNMP = 0x08;
    public static final int VENDOR_RANGE1_START = 0x09;
    public static final int VENDOR_RANGE1_END = 0x0f;
    public static final int DEV_ADM = 0x10;
    public static final int BOOT_MGT = 0x11;
    public static final int BIS = 0x12;
    public static final int CONG_MGT = 0x21;
    public static final int VENDOR_RANGE2_START = 0x30;
    public static final int VENDOR_RANGE2_END = 0x4f;

    private ManagementClass()
    {
    }

    public static boolean isVendor(final int mgmtClass)
    {
        return (mgmtClass >= VENDOR_RANGE1_START && mgmtClass <= VENDOR_RANGE1_END) ||
            (mgmtClass >= VENDOR_RANGE2_START && mgmtClass <= VENDOR_RANGE2_END);
    }

    /** The name Wireshark and the IBA use, e.g. {@code SubnAdm}; unknown codes as {@code 0x%02x}. */
    public static String name(final int mgmtClass)
    {
        return switch (mgmtClass)
        {
            case SUBN_LID_ROUTED -> "SubnMgt(LID routed)";
            case SUBN_DIRECTED_ROUTE -> "SubnMgt(directed route)";
            case SUBN_ADM -> "SubnAdm";
            case PERF_MGT -> "PerfMgt";
            case BASEBOARD_MGT -> "BMgt";
            case DEV_MGT -> "DevMgt";
            case COMM_MGT -> "ComMgt";
            case SNMP -> "SNMP";
            case DEV_ADM -> "DevAdm";
            case BOOT_MGT -> "BootMgt";
            case BIS -> "BIS";
            case CONG_MGT -> "CongMgt";
            default -> isVendor(mgmtClass) ?
                String.format("Vendor(0x%02x)", mgmtClass) : String.format("0x%02x", mgmtClass);
        };
    }
}
