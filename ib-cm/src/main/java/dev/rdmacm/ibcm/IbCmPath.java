package dev.rdmacm.ibcm;

import dev.rdmacm.protocol.Gid;

import java.util.Objects;

/**
 * The primary path of a connection, as the REQ carries it and the RC QP's address vector needs it: the
 * fields of the SA PathRecord (or of the RoCE path rdma_cm synthesises) that ib_cm's
 * {@code cm_format_req} copies into the REQ, seen from the local side. On the passive side it is built
 * from the REQ turned around, as {@code cm_format_paths_from_req} does.
 *
 * @param sgid           the local port GID.
 * @param dgid           the remote port GID.
 * @param slid           the local LID (0 on RoCE).
 * @param dlid           the remote LID (0 on RoCE).
 * @param flowLabel      20 bits.
 * @param rate           the 6-bit IBA rate code.
 * @param trafficClass   8 bits.
 * @param hopLimit       8 bits; at most 1 means subnet-local, so the REQ carries the LIDs.
 * @param sl             4 bits.
 * @param mtu            the 4-bit IBA MTU code (1 = 256 ... 5 = 4096).
 * @param packetLifeTime the 6-bit PacketLifeTime exponent (4.096 us * 2^value); rdma_cm uses 18 on RoCE.
 * @param pkey           the P_Key, full-member bit included.
 */
public record IbCmPath(Gid sgid, Gid dgid, int slid, int dlid, int flowLabel, int rate, int trafficClass,
                     int hopLimit, int sl, int mtu, int packetLifeTime, int pkey)
{
    public IbCmPath
    {
        Objects.requireNonNull(sgid, "sgid");
        Objects.requireNonNull(dgid, "dgid");
        Limits.requireBits("IbCmPath slid", slid, 16);
        Limits.requireBits("IbCmPath dlid", dlid, 16);
        Limits.requireBits("IbCmPath flowLabel", flowLabel, 20);
        Limits.requireBits("IbCmPath rate", rate, 6);
        Limits.requireBits("IbCmPath trafficClass", trafficClass, 8);
        Limits.requireBits("IbCmPath hopLimit", hopLimit, 8);
        Limits.requireBits("IbCmPath sl", sl, 4);
        Limits.requireBits("IbCmPath mtu", mtu, 4);
        Limits.requireBits("IbCmPath packetLifeTime", packetLifeTime, 6);
        Limits.requireBits("IbCmPath pkey", pkey, 16);
    }
}
