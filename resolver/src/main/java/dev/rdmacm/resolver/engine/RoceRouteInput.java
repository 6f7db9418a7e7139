package dev.rdmacm.resolver.engine;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.resolver.spi.KernelProfile;

import java.util.Objects;
import java.util.function.IntUnaryOperator;

/**
 * What {@code cma_resolve_iboe_route} reads to build a RoCE path: the id's addresses, ports and
 * options, the route's hop limit and destination MAC, and the bound netdev's MTU and priority map.
 * Built with {@link #builder()}; every field not set takes the value an id has after a plain
 * {@code rdma_resolve_addr} (no ToS, no ACK timeout, ports 0, RoCE v2, no traffic classes).
 *
 * @param sgid                    {@code rdma_ip2gid(src)}.
 * @param dgid                    {@code rdma_ip2gid(dst)}.
 * @param ibDestination           the destination is AF_IB (hop limit 1).
 * @param ipv6Source              the source is AF_INET6 (its flow label may be used).
 * @param sourceFlowinfo          {@code sin6_flowinfo} of the source (host order), 0 for IPv4.
 * @param sourcePort              the id's source port.
 * @param destinationPort         the destination port.
 * @param hopLimit                {@code addr->dev_addr.hoplimit}, from the route.
 * @param netdevMtu               the bound netdev's MTU.
 * @param idTos                   the ToS set with {@code rdma_set_service_type}, or null.
 * @param defaultRoceTos          the port's {@code default_roce_tos} (configfs, 0 by default).
 * @param ackTimeout              the value given to {@code rdma_set_ack_timeout}, or null.
 * @param portSupportsRoceV2      {@code rdma_protocol_roce_udp_encap(device, port)}.
 * @param priorityToTrafficClass  the netdev's priority to traffic-class map ({@code netdev_get_prio_tc_map},
 *                                or a VLAN's egress QoS map); {@link #NO_TRAFFIC_CLASSES} for a netdev without one.
 * @param destinationMac          {@code dev_addr.dst_dev_addr}: the neighbour's (or gateway's) MAC, 6 bytes.
 * @param profile                 the kernel whose rules apply.
 */
record RoceRouteInput(
    Gid sgid,
    Gid dgid,
    boolean ibDestination,
    boolean ipv6Source,
    int sourceFlowinfo,
    int sourcePort,
    int destinationPort,
    int hopLimit,
    int netdevMtu,
    Integer idTos,
    int defaultRoceTos,
    Integer ackTimeout,
    boolean portSupportsRoceV2,
    IntUnaryOperator priorityToTrafficClass,
    byte[] destinationMac,
    KernelProfile profile)
{
    /** A netdev with no traffic classes ({@code num_tc == 0}) and no VLAN: every priority maps to 0. */
    static final IntUnaryOperator NO_TRAFFIC_CLASSES = priority -> 0;
    /** An Ethernet address. */
    static final int MAC_LENGTH = 6;

    RoceRouteInput
    {
        Objects.requireNonNull(sgid, "sgid");
        Objects.requireNonNull(dgid, "dgid");
        Objects.requireNonNull(priorityToTrafficClass, "priorityToTrafficClass");
        Objects.requireNonNull(profile, "profile");
        if (destinationMac.length != MAC_LENGTH)
        {
            throw new IllegalArgumentException("destination MAC: expected " + MAC_LENGTH + " bytes, got " +
                destinationMac.length);
        }
        destinationMac = destinationMac.clone();
    }

    static Builder builder()
    {
        return new Builder();
    }

    /** Fluent construction; {@link #build()} checks that the GIDs were given. */
    static final class Builder
    {
        private Gid sgid;
        private Gid dgid;
        private boolean ibDestination;
        private boolean ipv6Source;
        private int sourceFlowinfo;
        private int sourcePort;
        private int destinationPort;
        private int hopLimit = 64;
        private int netdevMtu = 1500;
        private Integer idTos;
        private int defaultRoceTos;
        private Integer ackTimeout;
        private boolean portSupportsRoceV2 = true;
        private IntUnaryOperator priorityToTrafficClass = NO_TRAFFIC_CLASSES;
        private byte[] destinationMac = new byte[MAC_LENGTH];
        private KernelProfile profile = KernelProfile.defaultProfile();

        Builder gids(final Gid sgid, final Gid dgid)
        {
            this.sgid = sgid;
            this.dgid = dgid;
            return this;
        }

        Builder ibDestination(final boolean value)
        {
            this.ibDestination = value;
            return this;
        }

        /** An IPv6 source and its {@code sin6_flowinfo} (host order). */
        Builder ipv6Source(final int flowinfo)
        {
            this.ipv6Source = true;
            this.sourceFlowinfo = flowinfo;
            return this;
        }

        Builder ports(final int source, final int destination)
        {
            this.sourcePort = source;
            this.destinationPort = destination;
            return this;
        }

        Builder hopLimit(final int value)
        {
            this.hopLimit = value;
            return this;
        }

        Builder netdevMtu(final int value)
        {
            this.netdevMtu = value;
            return this;
        }

        Builder idTos(final Integer value)
        {
            this.idTos = value;
            return this;
        }

        Builder defaultRoceTos(final int value)
        {
            this.defaultRoceTos = value;
            return this;
        }

        Builder ackTimeout(final Integer value)
        {
            this.ackTimeout = value;
            return this;
        }

        Builder portSupportsRoceV2(final boolean value)
        {
            this.portSupportsRoceV2 = value;
            return this;
        }

        Builder priorityToTrafficClass(final IntUnaryOperator map)
        {
            this.priorityToTrafficClass = map;
            return this;
        }

        Builder destinationMac(final byte[] mac)
        {
            this.destinationMac = mac;
            return this;
        }

        Builder profile(final KernelProfile value)
        {
            this.profile = value;
            return this;
        }

        RoceRouteInput build()
        {
            return new RoceRouteInput(sgid, dgid, ibDestination, ipv6Source, sourceFlowinfo, sourcePort,
                destinationPort, hopLimit, netdevMtu, idTos, defaultRoceTos, ackTimeout, portSupportsRoceV2,
                priorityToTrafficClass, destinationMac, profile);
        }
    }
}
