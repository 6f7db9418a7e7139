package dev.rdmacm.protocol.mad;

import dev.rdmacm.protocol.Gid;

/**
 * The remote end of a MAD: where a MAD goes to or came from, as a UD send needs it and as umad's
 * {@code struct ib_user_mad_hdr} carries it. On a send it is the destination the address handle is
 * built from; on a receive the sender's, so that the same record answers a request. The fields mean
 * the remote side's in both directions (QPN, LID, GID) except the two indexes, which are local tables'
 * (P_Key, source GID). Every MAD transport takes it: umad (the CM), the SA client's verbs UD QP and its
 * ibsim transport.
 * <p>
 * RoCE has no LIDs and routes on the GRH only: a MAD to a RoCE port needs a {@link Grh} with the peer's
 * GID, and a LID of 0 without one names nothing.
 *
 * @param remoteQpn the peer's QP, {@link Gsi#QPN} for its GSI; 24 bits.
 * @param qkey      the Q_Key (GSI: {@link Gsi#QKEY}); on a umad receive the kernel leaves it 0.
 * @param lid       the peer's LID (0 on RoCE, with a GRH).
 * @param sl        service level, 0-15.
 * @param pathBits  the source path bits, 0-127.
 * @param pkeyIndex the local P_Key table index the MAD is sent with or arrived with.
 * @param grh       the global route, or null for a LID-routed MAD without a GRH.
 */
public record MadAddress(int remoteQpn, long qkey, int lid, int sl, int pathBits, int pkeyIndex, Grh grh)
{
    /** The hop limit the kernel CM puts on a RoCE route to a directly reachable peer (the IP TTL it uses). */
    public static final int DEFAULT_HOP_LIMIT = 64;

    /**
     * A GRH: the peer's GID, the local GID table index to send from (or that the MAD arrived at), hop
     * limit, traffic class and 20-bit flow label.
     */
    public record Grh(Gid remoteGid, int localGidIndex, int hopLimit, int trafficClass, int flowLabel)
    {
        public Grh
        {
            if (remoteGid == null)
            {
                throw new IllegalArgumentException("GRH without a remote GID");
            }
            requireRange("GRH local GID index", localGidIndex, 0xff);
            requireRange("GRH hop limit", hopLimit, 0xff);
            requireRange("GRH traffic class", trafficClass, 0xff);
            requireRange("GRH flow label", flowLabel, 0xf_ffff);
        }
    }

    public MadAddress
    {
        requireRange("remote QPN", remoteQpn, 0xff_ffff);
        if (qkey < 0 || qkey > 0xffff_ffffL)
        {
            throw new IllegalArgumentException("Q_Key " + qkey + ": must fit in 32 bits");
        }
        if (lid < 0 || lid > 0xffff || (lid == 0 && grh == null))
        {
            throw new IllegalArgumentException("LID " + lid + " out of range: a destination LID is 1..0xffff, or 0 with a GID " +
                "(RoCE, which has no LIDs)");
        }
        requireRange("SL", sl, 15);
        requireRange("path bits", pathBits, 0x7f);
        requireRange("P_Key index", pkeyIndex, 0xffff);
    }

    /** QP1 of the port with {@code remoteGid}, sent from local GID {@code localGidIndex}: how RoCE addresses a GSI. */
    public static MadAddress gsi(final Gid remoteGid, final int localGidIndex, final int pkeyIndex)
    {
        return new MadAddress(Gsi.QPN, Gsi.QKEY, 0, 0, 0, pkeyIndex, new Grh(remoteGid, localGidIndex, DEFAULT_HOP_LIMIT, 0, 0));
    }

    /** QP1 of the port with {@code lid}, no GRH: how an InfiniBand subnet addresses a GSI. */
    public static MadAddress gsi(final int lid, final int sl, final int pkeyIndex)
    {
        return new MadAddress(Gsi.QPN, Gsi.QKEY, lid, sl, 0, pkeyIndex, null);
    }

    /**
     * QP1 of the port with {@code remoteGid}, through {@code lid} (0 on RoCE), P_Key index 0: how the SA
     * client names an SA it must reach with a GRH. The transport picks its own source GID and hop limit.
     */
    public static MadAddress gsi(final int lid, final int sl, final Gid remoteGid)
    {
        return new MadAddress(Gsi.QPN, Gsi.QKEY, lid, sl, 0, 0, new Grh(remoteGid, 0, DEFAULT_HOP_LIMIT, 0, 0));
    }

    /** The GRH's GID, or null for a LID-routed address. */
    public Gid remoteGid()
    {
        return grh == null ? null : grh.remoteGid();
    }

    /** A ClassPortInfo redirect names a LID: the new address is routed by that LID alone, QP and Q_Key as given. */
    public MadAddress withLidAndQp(final int newLid, final int newQpn, final long newQkey)
    {
        return new MadAddress(newQpn, newQkey, newLid, sl, pathBits, pkeyIndex, null);
    }

    /** "LID 5", or "GID ::ffff:10.0.0.2" when the address names one: for messages. */
    public String where()
    {
        return grh == null ? "LID " + lid : "GID " + grh.remoteGid();
    }

    private static void requireRange(final String what, final int value, final int max)
    {
        if (value < 0 || value > max)
        {
            throw new IllegalArgumentException(what + " " + value + ": must be from 0 to " + max);
        }
    }
}
