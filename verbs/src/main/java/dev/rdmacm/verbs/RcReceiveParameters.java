package dev.rdmacm.verbs;

import dev.rdmacm.protocol.sa.MtuCode;

/**
 * What an RC QP needs to go INIT -> RTR, named as the kernel's {@code ib_cm} names the REQ and REP
 * fields it takes them from ({@code cm_init_qp_rtr_attr}): the passive side fills them from the REQ,
 * the active side from the REP and its own REQ's path.
 *
 * @param primaryPath        the path to the remote port ({@code ah_attr}): on RoCE a GRH with the
 *                           remote GID, the local SGID index, hop limit, traffic class, flow label
 *                           and SL; from the REQ's primary path.
 * @param pathMtu            {@code path_mtu}: the REQ's Path Packet Payload MTU.
 * @param remoteQpn          {@code dest_qp_num}: the Local QPN of the peer's REQ or REP (24 bits).
 * @param rqPsn              {@code rq_psn}: the Starting PSN of the peer's REQ or REP (24 bits).
 * @param responderResources {@code max_dest_rd_atomic}: the RDMA reads and atomics this QP answers
 *                           at once (the REP's Responder Resources on the passive side).
 * @param minRnrTimer        {@code min_rnr_timer}: the 5-bit RNR NAK timer code this QP sends when
 *                           no receive is posted (ib_cm sets 0 for RC; {@code ibv_rc_pingpong} 12).
 */
public record RcReceiveParameters(AddressVector primaryPath, MtuCode pathMtu, int remoteQpn, int rqPsn,
    int responderResources, int minRnrTimer)
{
    public RcReceiveParameters
    {
        if (primaryPath == null || pathMtu == null)
        {
            throw new IllegalArgumentException("RTR parameters: primaryPath and pathMtu are required");
        }
        if (remoteQpn < 0 || remoteQpn > 0xff_ffff || rqPsn < 0 || rqPsn > 0xff_ffff)
        {
            throw new IllegalArgumentException("RTR parameters: remoteQpn 0x" + Integer.toHexString(remoteQpn) + " and rqPsn 0x"
                + Integer.toHexString(rqPsn) + " are 24-bit values (0-0xffffff)");
        }
        if (responderResources < 0 || responderResources > 255 || minRnrTimer < 0 || minRnrTimer > 31)
        {
            throw new IllegalArgumentException("RTR parameters: responderResources " + responderResources + " (0-255) or minRnrTimer "
                + minRnrTimer + " (0-31) out of range");
        }
    }
}
