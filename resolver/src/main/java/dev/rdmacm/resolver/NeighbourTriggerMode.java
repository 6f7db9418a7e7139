package dev.rdmacm.resolver;

/** How the resolver makes the kernel start ARP/ND for a next hop that has no valid neighbour entry. */
public enum NeighbourTriggerMode
{
    /**
     * RTM_NEWNEIGH with NTF_USE (no data packet, needs CAP_NET_ADMIN), falling back to a UDP datagram
     * for good after the first EPERM.
     */
    NTF_USE_ELSE_UDP,
    /** A one-byte UDP datagram to the discard port of the next hop, as rdma-core's neigh.c does. */
    UDP
}
