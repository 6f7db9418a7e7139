package dev.rdmacm.sa.transport;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.mad.MadAddress;

/**
 * Where a received MAD came from, as the fabric reported it (the work completion and the GRH, never
 * what the MAD itself claims): the source LID and QP and, when the packet carried a global route
 * header, the source GID. A RoCE packet always does, and its LID is 0, so on RoCE the GID is the only
 * thing telling one peer from another.
 * <p>
 * A flyweight in the manner of Aeron's {@code Header}: each transport owns one, sets it before every
 * {@link MadReceiver#onMad} call and reuses it, so receiving allocates nothing. It is valid only
 * during that call; copy what must outlive it.
 */
public final class MadSource
{
    private int lid;
    private int qp;
    private boolean global;
    private long gidPrefix;
    private long gidInterfaceId;

    /** A MAD routed by LID alone. */
    public MadSource set(final int sourceLid, final int sourceQp)
    {
        lid = sourceLid;
        qp = sourceQp;
        global = false;
        gidPrefix = 0;
        gidInterfaceId = 0;
        return this;
    }

    /** A MAD that carried a GRH (or, on RoCE v2, an IP header) naming its source GID. */
    public MadSource set(final int sourceLid, final int sourceQp, final long sourceGidPrefix, final long sourceGidInterfaceId)
    {
        lid = sourceLid;
        qp = sourceQp;
        global = true;
        gidPrefix = sourceGidPrefix;
        gidInterfaceId = sourceGidInterfaceId;
        return this;
    }

    /** The same source as {@code other}, for a copy that outlives the receive call. */
    public MadSource set(final MadSource other)
    {
        lid = other.lid;
        qp = other.qp;
        global = other.global;
        gidPrefix = other.gidPrefix;
        gidInterfaceId = other.gidInterfaceId;
        return this;
    }

    public int lid()
    {
        return lid;
    }

    public int qp()
    {
        return qp;
    }

    /** Whether the packet carried a source GID. */
    public boolean hasGid()
    {
        return global;
    }

    public long gidPrefix()
    {
        return gidPrefix;
    }

    public long gidInterfaceId()
    {
        return gidInterfaceId;
    }

    /** The source GID, or null when the packet had no GRH; allocates, so not for the receive path. */
    public Gid gid()
    {
        return global ? new Gid(gidPrefix, gidInterfaceId) : null;
    }

    /**
     * Whether this is where {@code address} is: the same LID and QP and, when the address names a GID
     * (a global route, as on RoCE), a GRH from that GID. An address without a GID ignores any GRH: on
     * one InfiniBand subnet the LID already says who sent it.
     */
    public boolean isFrom(final MadAddress address)
    {
        if (lid != address.lid() || qp != address.remoteQpn())
        {
            return false;
        }
        final Gid gid = address.remoteGid();
        return gid == null || (global && gidPrefix == gid.subnetPrefix() && gidInterfaceId == gid.interfaceId());
    }

    @Override
    public String toString()
    {
        return (global ? "GID " + new Gid(gidPrefix, gidInterfaceId) + " " : "") + "LID " + lid + " QP " + qp;
    }
}
