package dev.rdmacm.sa.transport;

import dev.rdmacm.protocol.Gid;

/**
 * Where a MAD goes: a LID and QP, with the Q_Key, P_Key index and SL a UD send needs, and a GID when
 * it must travel with a global route header. The SA is at the SM's LID, QP 1, with the well-known GSI
 * Q_Key unless ClassPortInfo redirects it. On RoCE there are no LIDs: the LID is 0 and the GID says
 * where the SA is.
 *
 * @param gid the destination GID for a GRH, or null to route by LID alone.
 */
public record MadAddress(int lid, int qp, long qkey, int pkeyIndex, int sl, Gid gid)
{
    /** The Q_Key of QP1 (IBA 13.4.6.1). */
    public static final long GSI_QKEY = 0x8001_0000L;
    public static final int GSI_QP = 1;
    /** A MAD on a UD QP is never longer than this. */
    public static final int MAX_MAD_LENGTH = 256;

    public MadAddress
    {
        if (lid < 0 || lid > 0xffff || (lid == 0 && gid == null))
        {
            throw new IllegalArgumentException("LID " + lid + " out of range: a destination LID is 1..0xffff, or 0 with a GID " +
                "(RoCE, which has no LIDs)");
        }
        if (qp < 0 || qp > 0xff_ffff)
        {
            throw new IllegalArgumentException("QP " + qp + " out of range: a QP number has 24 bits");
        }
    }

    /** Routed by LID alone. */
    public MadAddress(final int lid, final int qp, final long qkey, final int pkeyIndex, final int sl)
    {
        this(lid, qp, qkey, pkeyIndex, sl, null);
    }

    /** The general services interface of the port at {@code lid}: QP1, the GSI Q_Key, P_Key index 0. */
    public static MadAddress gsi(final int lid, final int sl)
    {
        return new MadAddress(lid, GSI_QP, GSI_QKEY, 0, sl, null);
    }

    /** The general services interface of the port with {@code gid}, reached with a GRH (through {@code lid}, 0 on RoCE). */
    public static MadAddress gsi(final int lid, final int sl, final Gid gid)
    {
        return new MadAddress(lid, GSI_QP, GSI_QKEY, 0, sl, gid);
    }

    /** A ClassPortInfo redirect names a LID: the new address is routed by that LID alone. */
    public MadAddress withLidAndQp(final int newLid, final int newQp, final long newQkey)
    {
        return new MadAddress(newLid, newQp, newQkey, pkeyIndex, sl, null);
    }

    /** "LID 5", or "GID ::ffff:10.0.0.2" when the address names one: for messages. */
    public String where()
    {
        return gid == null ? "LID " + lid : "GID " + gid;
    }
}
