package dev.rdmacm.resolver.engine;

import java.net.InetAddress;

/** A neighbour-table entry's identity: the interface and the next-hop address (compared by bytes). */
public record NeighbourKey(int ifindex, InetAddress address)
{
}
