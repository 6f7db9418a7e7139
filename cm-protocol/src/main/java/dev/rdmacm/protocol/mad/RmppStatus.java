package dev.rdmacm.protocol.mad;

/** RMPP status codes, the {@code RMPPStatus} byte of STOP and ABORT packets (IBA 13.6.2.1, Table 184). */
public final class RmppStatus
{
    public static final int NORMAL = 0;
    /** Resources exhausted (STOP). */
    public static final int RESOURCES_EXHAUSTED = 1;
    /** Total time too long. */
    public static final int TOTAL_TIME_TOO_LONG = 118;
    /** Inconsistent Last and PayloadLength. */
    public static final int INCONSISTENT_LAST_AND_PAYLOAD_LENGTH = 119;
    /** Inconsistent First and Segment number. */
    public static final int INCONSISTENT_FIRST_AND_SEGMENT = 120;
    public static final int BAD_RMPP_TYPE = 121;
    /** NewWindowLast too small. */
    public static final int NEW_WINDOW_LAST_TOO_SMALL = 122;
    /** SegmentNumber too big. */
    public static final int SEGMENT_NUMBER_TOO_BIG = 123;
    public static final int ILLEGAL_STATUS = 124;
    public static final int UNSUPPORTED_VERSION = 125;
    public static final int TOO_MANY_RETRIES = 126;
    public static final int UNSPECIFIED = 127;

    private RmppStatus()
    {
    }

    public static String name(final int status)
    {
        return switch (status)
        {
            case NORMAL -> "NORMAL";
            case RESOURCES_EXHAUSTED -> "RESOURCES_EXHAUSTED";
            case TOTAL_TIME_TOO_LONG -> "TOTAL_TIME_TOO_LONG";
            case INCONSISTENT_LAST_AND_PAYLOAD_LENGTH -> "INCONSISTENT_LAST_AND_PAYLOAD_LENGTH";
            case INCONSISTENT_FIRST_AND_SEGMENT -> "INCONSISTENT_FIRST_AND_SEGMENT";
            case BAD_RMPP_TYPE -> "BAD_RMPP_TYPE";
            case NEW_WINDOW_LAST_TOO_SMALL -> "NEW_WINDOW_LAST_TOO_SMALL";
            case SEGMENT_NUMBER_TOO_BIG -> "SEGMENT_NUMBER_TOO_BIG";
            case ILLEGAL_STATUS -> "ILLEGAL_STATUS";
            case UNSUPPORTED_VERSION -> "UNSUPPORTED_VERSION";
            case TOO_MANY_RETRIES -> "TOO_MANY_RETRIES";
            case UNSPECIFIED -> "UNSPECIFIED";
            default -> status >= 128 ? "CLASS_SPECIFIC(" + status + ")" : "RESERVED(" + status + ")";
        };
    }
}
