package dev.rdmacm.protocol.acm;

/**
 * The status byte of an ibacm reply ({@code ACM_STATUS_*} in {@code infiniband/acm.h}). Value 4 is
 * not assigned. libacm maps them to errno values ({@code acm_error}), which is what {@code ib_acme}
 * prints; {@link #errnoName(int)} gives that mapping.
 */
public final class AcmStatus
{
    public static final int SUCCESS = 0;
    public static final int ENOMEM = 1;
    public static final int EINVAL = 2;
    public static final int ENODATA = 3;
    public static final int ENOTCONN = 5;
    public static final int ETIMEDOUT = 6;
    public static final int ESRCADDR = 7;
    public static final int ESRCTYPE = 8;
    public static final int EDESTADDR = 9;
    public static final int EDESTTYPE = 10;

    private AcmStatus()
    {
    }

    public static String name(final int status)
    {
        return switch (status)
        {
            case SUCCESS -> "SUCCESS";
            case ENOMEM -> "ENOMEM";
            case EINVAL -> "EINVAL";
            case ENODATA -> "ENODATA";
            case ENOTCONN -> "ENOTCONN";
            case ETIMEDOUT -> "ETIMEDOUT";
            case ESRCADDR -> "ESRCADDR";
            case ESRCTYPE -> "ESRCTYPE";
            case EDESTADDR -> "EDESTADDR";
            case EDESTTYPE -> "EDESTTYPE";
            default -> "STATUS_" + status;
        };
    }

    /** The errno name libacm's {@code acm_error} turns the status into (what ib_acme reports). */
    public static String errnoName(final int status)
    {
        return switch (status)
        {
            case SUCCESS -> "0";
            case ENOMEM -> "ENOMEM";
            case ENODATA -> "ENODATA";
            case ENOTCONN -> "ENOTCONN";
            case ETIMEDOUT -> "ETIMEDOUT";
            case ESRCADDR, EDESTADDR -> "EADDRNOTAVAIL";
            default -> "EINVAL";
        };
    }
}
