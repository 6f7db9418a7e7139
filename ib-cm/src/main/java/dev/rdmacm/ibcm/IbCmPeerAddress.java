package dev.rdmacm.ibcm;

import dev.rdmacm.protocol.Gid;

import java.util.Objects;

/**
 * Where a CM MAD goes or came from, as far as the engine cares: the peer port's GID, the QP the MAD
 * is addressed to (the remote CM's QP1 for everything ib_cm sends) and the P_Key index it travels on.
 * The MAD transport (umad) turns it into its own address (GRH, LID, Q_Key) and back; the engine only
 * answers a received MAD to the address it came from, as ib_cm's {@code cm_alloc_response_msg} does.
 *
 * @param gid       the peer port's GID (the GRH's SGID of a received MAD, the path's DGID of a REQ).
 * @param qpn       the peer QP; {@link #CM_QPN} for the CM.
 * @param pkeyIndex the local P_Key table index to send on.
 */
public record IbCmPeerAddress(Gid gid, int qpn, int pkeyIndex)
{
    /** The General Services QP, where every CM listens (ib_cm's {@code remote_cm_qpn = 1}). */
    public static final int CM_QPN = 1;

    public IbCmPeerAddress
    {
        Objects.requireNonNull(gid, "gid");
        if ((qpn >>> 24) != 0)
        {
            throw new IllegalArgumentException("IbCmPeerAddress qpn: " + qpn + " does not fit in 24 bits");
        }
        if ((pkeyIndex >>> 16) != 0)
        {
            throw new IllegalArgumentException("IbCmPeerAddress pkeyIndex: " + pkeyIndex + " is not 0..65535");
        }
    }

    /** The CM of the port with {@code gid}, on P_Key index {@code pkeyIndex}. */
    public static IbCmPeerAddress cmAt(final Gid gid, final int pkeyIndex)
    {
        return new IbCmPeerAddress(gid, CM_QPN, pkeyIndex);
    }
}
