package dev.rdmacm.cm;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.sa.multicast.MulticastMemberships;

import java.net.InetAddress;

/**
 * One group an id joined, the kernel's {@code struct cma_multicast} in the id's {@code mc_list}: the
 * address it was joined by (a leave finds it by that, as librdmacm compares addresses), the flag and the
 * context it was given, the MGID asked for, and its membership in the port's table once asked. Owned by
 * the conductor.
 */
final class IdMulticast
{
    final IdContext id;
    final InetAddress group;
    final MulticastJoinFlag flag;
    final Object context;
    /** The MGID asked for; null when the kernel's CM joins, whose MGID comes with MULTICAST_JOIN. */
    final Gid mgid;
    /** The port's table membership; null while the join waits for the broadcast group's record. */
    MulticastMemberships.Member member;
    /** The MGID and MLID the id's QP is attached to (librdmacm's attach at JOIN), or null. */
    Gid attachedMgid;
    int attachedMlid;
    /** RoCE: the netdev whose IPv4 membership of the group this join holds ({@code cma_igmp_send}), 0 for none. */
    int igmpIfindex;
    /** The kernel's handle of the membership (JOIN_MCAST's answer) when the kernel's CM joined, else -1. */
    int kernelHandle = -1;
    boolean left;

    IdMulticast(final IdContext id, final InetAddress group, final MulticastJoinFlag flag, final Object context,
        final Gid mgid)
    {
        this.id = id;
        this.group = group;
        this.flag = flag;
        this.context = context;
        this.mgid = mgid;
    }

    @Override
    public String toString()
    {
        return id + " in " + group.getHostAddress() + " (" + mgid + ", " + flag + ")";
    }
}
