package dev.rdmacm.umad;

import dev.rdmacm.protocol.Gid;

/**
 * Where a MAD goes to or came from: the address part of {@code struct ib_user_mad_hdr}. On a send it
 * is the destination the kernel builds its address handle from; on a receive the kernel fills it with
 * the sender's, so that the same record answers a request. The fields mean the remote side's in both
 * directions (QPN, LID, GID) except the two indexes, which are local tables' (P_Key, source GID).
 * <p>
 * RoCE has no LIDs and routes on the GRH only: a MAD to a RoCE port needs {@link Grh} with the peer's
 * GID, and the kernel refuses an address handle without one ({@link UmadPort#send} says so first).
 *
 * @param remoteQpn the peer's QP, 1 for its GSI; 24 bits.
 * @param qkey      the Q_Key (GSI: {@link #GSI_QKEY}); on a receive the kernel leaves it 0.
 * @param lid       the peer's LID (0 on RoCE).
 * @param sl        service level, 0-15.
 * @param pathBits  the source path bits, 0-127.
 * @param pkeyIndex the local P_Key table index the MAD is sent with or arrived with.
 * @param grh       the global route, or null for a LID-routed MAD without a GRH.
 */
public record MadAddress(int remoteQpn, long qkey, int lid, int sl, int pathBits, int pkeyIndex, Grh grh)
{
    /** The well-known Q_Key of QP1 (IBA 13.5.3.2). */
    public static final long GSI_QKEY = 0x8001_0000L;
    public static final int GSI_QPN = 1;
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
        requireRange("LID", lid, 0xffff);
        requireRange("SL", sl, 15);
        requireRange("path bits", pathBits, 0x7f);
        requireRange("P_Key index", pkeyIndex, 0xffff);
    }

    /** QP1 of the port with {@code remoteGid}, sent from local GID {@code localGidIndex}: how RoCE addresses a GSI. */
    public static MadAddress gsi(final Gid remoteGid, final int localGidIndex, final int pkeyIndex)
    {
        return new MadAddress(GSI_QPN, GSI_QKEY, 0, 0, 0, pkeyIndex, new Grh(remoteGid, localGidIndex, DEFAULT_HOP_LIMIT, 0, 0));
    }

    /** QP1 of the port with {@code lid}, no GRH: how an InfiniBand subnet addresses a GSI. */
    public static MadAddress gsi(final int lid, final int sl, final int pkeyIndex)
    {
        return new MadAddress(GSI_QPN, GSI_QKEY, lid, sl, 0, pkeyIndex, null);
    }

    /** The address in {@code header} (allocates: for the slow path; hot paths read the header's fields). */
    public static MadAddress from(final UserMadHeader header)
    {
        final Grh grh = header.grhPresent() ?
            new Grh(header.gid(), header.gidIndex(), header.hopLimit(), header.trafficClass(), header.flowLabel()) : null;
        return new MadAddress(header.qpn(), header.qkey(), header.lid(), header.sl(), header.pathBits(), header.pkeyIndex(),
            grh);
    }

    /** Writes the address fields of {@code header}; a GRH's fields are zeroed when there is none. */
    public void writeTo(final UserMadHeader header)
    {
        header.qpn(remoteQpn).qkey(qkey).lid(lid).sl(sl).pathBits(pathBits).pkeyIndex(pkeyIndex);
        if (grh == null)
        {
            header.grhPresent(false).gidIndex(0).hopLimit(0).trafficClass(0).gid(Gid.ZERO).flowLabel(0);
        }
        else
        {
            header.grhPresent(true).gidIndex(grh.localGidIndex()).hopLimit(grh.hopLimit()).trafficClass(grh.trafficClass())
                .gid(grh.remoteGid()).flowLabel(grh.flowLabel());
        }
    }

    private static void requireRange(final String what, final int value, final int max)
    {
        if (value < 0 || value > max)
        {
            throw new IllegalArgumentException(what + " " + value + ": must be from 0 to " + max);
        }
    }
}
