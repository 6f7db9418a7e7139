package dev.rdmacm.addrinfo;

/** The {@code enum ibv_qp_type} values that {@code rdma_addrinfo.ai_qp_type} carries. */
public final class QpType
{
    public static final int RC = 2;
    public static final int UC = 3;
    public static final int UD = 4;
    public static final int XRC_SEND = 9;
    public static final int XRC_RECV = 10;

    private QpType()
    {
    }

    public static String name(final int qpType)
    {
        return switch (qpType)
        {
            case 0 -> "unset";
            case RC -> "IBV_QPT_RC";
            case UC -> "IBV_QPT_UC";
            case UD -> "IBV_QPT_UD";
            case XRC_SEND -> "IBV_QPT_XRC_SEND";
            case XRC_RECV -> "IBV_QPT_XRC_RECV";
            default -> "qp type " + qpType;
        };
    }

    /** Parses the CLI spelling {@code rc}, {@code uc} or {@code ud}. */
    public static int parse(final String text)
    {
        return switch (text)
        {
            case "rc" -> RC;
            case "uc" -> UC;
            case "ud" -> UD;
            default -> throw new IllegalArgumentException("QP type '" + text + "' is not one of rc, uc, ud");
        };
    }
}
