package dev.rdmacm.sa.transport;

/**
 * Where a MAD goes: a LID and QP, with the Q_Key, P_Key index and SL a UD send needs. The SA is
 * at the SM's LID, QP 1, with the well-known GSI Q_Key unless ClassPortInfo redirects it.
 */
public record MadAddress(int lid, int qp, long qkey, int pkeyIndex, int sl)
{
    /** The Q_Key of QP1 (IBA 13.4.6.1). */
    public static final long GSI_QKEY = 0x8001_0000L;
    public static final int GSI_QP = 1;
    /** A MAD on a UD QP is never longer than this. */
    public static final int MAX_MAD_LENGTH = 256;

    public MadAddress
    {
        if (lid <= 0 || lid > 0xffff)
        {
            throw new IllegalArgumentException("LID " + lid + " out of range: a destination LID is 1..0xffff");
        }
        if (qp < 0 || qp > 0xff_ffff)
        {
            throw new IllegalArgumentException("QP " + qp + " out of range: a QP number has 24 bits");
        }
    }

    /** The general services interface of the port at {@code lid}: QP1, the GSI Q_Key, P_Key index 0. */
    public static MadAddress gsi(final int lid, final int sl)
    {
        return new MadAddress(lid, GSI_QP, GSI_QKEY, 0, sl);
    }

    public MadAddress withLidAndQp(final int newLid, final int newQp, final long newQkey)
    {
        return new MadAddress(newLid, newQp, newQkey, pkeyIndex, sl);
    }
}
