package dev.rdmacm.cm;

import dev.rdmacm.protocol.Gid;

import java.util.function.IntUnaryOperator;

/**
 * What {@code cma_resolve_iboe_route} reads to build a RoCE path: the id's addresses, ports and
 * options, the route's hop limit, and the bound netdev's MTU and priority map.
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
 *                                or a VLAN's egress QoS map); {@code p -> 0} for a netdev without one.
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
    IntUnaryOperator priorityToTrafficClass)
{
    /** A netdev with no traffic classes ({@code num_tc == 0}) and no VLAN: every priority maps to 0. */
    public static final IntUnaryOperator NO_TRAFFIC_CLASSES = priority -> 0;
}
