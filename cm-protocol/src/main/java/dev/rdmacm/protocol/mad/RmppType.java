package dev.rdmacm.protocol.mad;

/** RMPP packet types, the {@code RMPPType} byte of the RMPP header (IBA 13.6.2.1, Table 183). */
public final class RmppType
{
    /** No RMPP: the header is all zero, as in every single-MAD SA request. */
    public static final int NONE = 0;
    public static final int DATA = 1;
    public static final int ACK = 2;
    public static final int STOP = 3;
    public static final int ABORT = 4;

    private RmppType()
    {
    }

    public static String name(final int type)
    {
        return switch (type)
        {
            case NONE -> "NONE";
            case DATA -> "DATA";
            case ACK -> "ACK";
            case STOP -> "STOP";
            case ABORT -> "ABORT";
            default -> "RESERVED(" + type + ")";
        };
    }
}
