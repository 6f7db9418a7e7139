package dev.rdmacm.sa.transport;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.mad.MadAddress;

/**
 * The local end of a MAD transport: our LID, port GUID and source GID, and where the SA is: the SM's
 * LID and SL (PortInfo's MasterSMLID and MasterSMSL) and, when it must be reached with a global route
 * header, its GID. A RoCE port has no SM LID, so there the GID is the only way to name the SA.
 *
 * @param gid   the GID our MADs carry as their source (index 0 on InfiniBand, the RoCE v2 entry on RoCE).
 * @param saGid the SA's GID, or null to reach it by the SM's LID alone.
 */
public record LocalPort(String name, int lid, long portGuid, Gid gid, int smLid, int smSl, Gid saGid)
{
    /** A port whose SA is reached by the SM's LID. */
    public LocalPort(final String name, final int lid, final long portGuid, final Gid gid, final int smLid, final int smSl)
    {
        this(name, lid, portGuid, gid, smLid, smSl, null);
    }

    /** QP1 of the SA: at the SM's LID, with a GRH to {@link #saGid} when there is one. */
    public MadAddress saAddress()
    {
        return saGid == null ? MadAddress.gsi(smLid, smSl, 0) : MadAddress.gsi(smLid, smSl, saGid);
    }
}
