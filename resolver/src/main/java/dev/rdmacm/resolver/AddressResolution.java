package dev.rdmacm.resolver;

import dev.rdmacm.netlink.HardwareAddress;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PKey;

import java.net.InetAddress;
import java.util.List;

/**
 * The result of {@code rdma_resolve_addr}: what the kernel stores in the id's {@code rdma_dev_addr}
 * and route, plus the steps that produced it.
 *
 * @param source                     the source address (the route's preferred source for a wildcard).
 * @param destination                the destination address.
 * @param loopback                   a zero or loopback destination: no route, no neighbour, DGID = SGID.
 * @param ifindex                    the bound netdev's index (0 for loopback resolution).
 * @param netdev                     its name, or null.
 * @param deviceType                 its ARPHRD type.
 * @param gateway                    the route's gateway, or null when directly connected.
 * @param networkType                IB, or IPV4/IPV6 for RoCE behind a gateway.
 * @param hopLimit                   the route's hop limit metric, else the namespace's default TTL (IPv4)
 *                                   or the netdev's hop_limit (IPv6), as the kernel saves it for RoCE.
 * @param sourceHardwareAddress      the netdev's hardware address.
 * @param broadcastAddress           the netdev's broadcast address.
 * @param destinationHardwareAddress the neighbour's address (RoCE: the DMAC; IPoIB: QPN + GID); none for IFF_NOARP.
 * @param sgid                       the source GID.
 * @param dgid                       the destination GID.
 * @param pkey                       the P_Key (IPoIB: from the broadcast address; RoCE: 0, as ib_addr_get_pkey
 *                                   reads an Ethernet broadcast address; the path's 0xffff comes with the route).
 * @param binding                    the device, port and GID index the source is bound to.
 * @param steps                      what was done, with timestamps.
 */
public record AddressResolution(
    InetAddress source,
    InetAddress destination,
    boolean loopback,
    int ifindex,
    String netdev,
    int deviceType,
    InetAddress gateway,
    NetworkType networkType,
    int hopLimit,
    HardwareAddress sourceHardwareAddress,
    HardwareAddress broadcastAddress,
    HardwareAddress destinationHardwareAddress,
    Gid sgid,
    Gid dgid,
    PKey pkey,
    RdmaPortBinding binding,
    List<ResolutionStep> steps)
{
    /**
     * Null hardware addresses become {@link HardwareAddress#NONE}; {@code steps} is copied, unmodifiable,
     * unless it is a trace's steps taken to be made when read ({@link ResolutionTrace#stepsWhenRead}).
     */
    public AddressResolution
    {
        sourceHardwareAddress = sourceHardwareAddress == null ? HardwareAddress.NONE : sourceHardwareAddress;
        broadcastAddress = broadcastAddress == null ? HardwareAddress.NONE : broadcastAddress;
        destinationHardwareAddress = destinationHardwareAddress == null ? HardwareAddress.NONE : destinationHardwareAddress;
        steps = steps instanceof TraceSteps ? steps : List.copyOf(steps);
    }

    /** {@return the destination MAC for RoCE, as {@code ip neigh} prints it} */
    public String destinationHardwareText()
    {
        return destinationHardwareAddress.toString();
    }

    /** {@return the source netdev's hardware address, as {@code ip link} prints it} */
    public String sourceHardwareText()
    {
        return sourceHardwareAddress.toString();
    }
}
