package dev.rdmacm.protocol.mad;

/**
 * MAD method codes (IBA 13.4.5 Table 112, and the SA's own methods of 15.2.2 Table 190). The high bit
 * (0x80) marks a response.
 */
public final class MadMethod
{
    public static final int GET = 0x01;
    public static final int SET = 0x02;
    public static final int SEND = 0x03;
    public static final int TRAP = 0x05;
    public static final int REPORT = 0x06;
    public static final int TRAP_REPRESS = 0x07;
    public static final int GET_TABLE = 0x12;
    public static final int GET_TRACE_TABLE = 0x13;
    public static final int GET_MULTI = 0x14;
    public static final int DELETE = 0x15;
    public static final int GET_RESP = 0x81;
    public static final int REPORT_RESP = 0x86;
    public static final int GET_TABLE_RESP = 0x92;
    public static final int GET_MULTI_RESP = 0x94;
    public static final int DELETE_RESP = 0x95;
    public static final int RESPONSE_BIT = 0x80;

    private MadMethod()
    {
    }

    public static boolean isResponse(final int method)
    {
        return (method & RESPONSE_BIT) != 0;
    }

    /** The IBA name, e.g. {@code SubnAdmGetTableResp} is shown as {@code GetTableResp}. */
    public static String name(final int method)
    {
        return switch (method)
        {
            case GET -> "Get";
            case SET -> "Set";
            case SEND -> "Send";
            case TRAP -> "Trap";
            case REPORT -> "Report";
            case TRAP_REPRESS -> "TrapRepress";
            case GET_TABLE -> "GetTable";
            case GET_TRACE_TABLE -> "GetTraceTable";
            case GET_MULTI -> "GetMulti";
            case DELETE -> "Delete";
            case GET_RESP -> "GetResp";
            case REPORT_RESP -> "ReportResp";
            case GET_TABLE_RESP -> "GetTableResp";
            case GET_MULTI_RESP -> "GetMultiResp";
            case DELETE_RESP -> "DeleteResp";
            default -> String.format("0x%02x", method);
        };
    }
}
