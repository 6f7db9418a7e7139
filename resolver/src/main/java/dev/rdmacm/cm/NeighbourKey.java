package dev.rdmacm.cm;

import java.net.InetAddress;

/** A neighbour-table entry's identity: the interface and the next-hop address (compared by bytes). */
record NeighbourKey(int ifindex, InetAddress address)
{
}
