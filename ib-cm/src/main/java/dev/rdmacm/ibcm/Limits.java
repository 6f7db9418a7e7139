package dev.rdmacm.ibcm;

/**
 * The bounds ib_cm checks its consumers' input against: the private data each message holds
 * (include/rdma/ib_cm.h {@code IB_CM_*_PRIVATE_DATA_SIZE}), the ARI, and the widths of the fields the
 * parameters end up in. Every error names the input and the rule.
 */
final class Limits
{
    static final int REQ_PRIVATE_DATA_SIZE = 92;
    static final int MRA_PRIVATE_DATA_SIZE = 222;
    static final int REJ_PRIVATE_DATA_SIZE = 148;
    static final int REP_PRIVATE_DATA_SIZE = 196;
    static final int RTU_PRIVATE_DATA_SIZE = 224;
    static final int DREQ_PRIVATE_DATA_SIZE = 220;
    static final int DREP_PRIVATE_DATA_SIZE = 224;
    static final int REJ_ARI_LENGTH = 72;
    static final int SIDR_REQ_PRIVATE_DATA_SIZE = 216;
    static final int SIDR_REP_PRIVATE_DATA_SIZE = 136;
    static final int SIDR_REP_INFO_LENGTH = 72;

    private static final byte[] NONE = new byte[0];

    private Limits()
    {
    }

    static void requireBits(final String name, final long value, final int bits)
    {
        if (value < 0 || (value >>> bits) != 0)
        {
            throw new IllegalArgumentException(name + ": " + value + " does not fit in " + bits +
                " unsigned bits (0.." + ((1L << bits) - 1) + ")");
        }
    }

    /** {@code data} (null: none) checked against {@code limit}; returns a private copy. */
    static byte[] privateData(final String message, final byte[] data, final int limit)
    {
        if (data == null || data.length == 0)
        {
            return NONE;
        }
        if (data.length > limit)
        {
            throw new IllegalArgumentException(message + " private data: " + data.length +
                " bytes given, a " + message + " holds at most " + limit + " (IB_CM_" + message.replace(' ', '_') +
                "_PRIVATE_DATA_SIZE)");
        }
        return data.clone();
    }

    static byte[] ari(final byte[] ari)
    {
        if (ari == null || ari.length == 0)
        {
            return NONE;
        }
        if (ari.length > REJ_ARI_LENGTH)
        {
            throw new IllegalArgumentException("REJ ARI: " + ari.length + " bytes given, a REJ holds at most " +
                REJ_ARI_LENGTH + " (IB_CM_REJ_ARI_LENGTH)");
        }
        return ari.clone();
    }

    static byte[] sidrInfo(final byte[] info)
    {
        if (info == null || info.length == 0)
        {
            return NONE;
        }
        if (info.length > SIDR_REP_INFO_LENGTH)
        {
            throw new IllegalArgumentException("SIDR_REP additional information: " + info.length +
                " bytes given, a SIDR_REP holds at most " + SIDR_REP_INFO_LENGTH + " (IB_CM_SIDR_REP_INFO_LENGTH)");
        }
        return info.clone();
    }
}
