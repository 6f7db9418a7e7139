package dev.rdmacm.netlink;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.Libc;
import dev.rdmacm.netlink.wire.NetlinkAttribute;
import dev.rdmacm.netlink.wire.NetlinkMessageHeader;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.NLM_F_ACK;
import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.NLM_F_CREATE;
import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.NLM_F_DUMP;
import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.NLM_F_REQUEST;
import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.RTM_GETADDR;
import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.RTM_GETLINK;
import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.RTM_GETNEIGH;
import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.RTM_GETQDISC;
import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.RTM_GETROUTE;
import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.RTM_NEWADDR;
import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.RTM_NEWLINK;
import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.RTM_NEWNEIGH;
import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.RTM_NEWQDISC;
import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.RTM_NEWROUTE;

/**
 * The rtnetlink requests address resolution needs, over one {@link NetlinkSocket}: route lookup,
 * link information, the addresses configured locally, neighbour lookup and the NTF_USE trigger, and a
 * netdev's traffic classes (the qdisc dump) for route resolution.
 * Requests are encoded in place in the socket's native buffer; replies are decoded into records.
 * <p>
 * Not thread-safe, like the socket it uses.
 */
public final class Rtnetlink implements AutoCloseable
{
    /** The uid the kernel CM's route lookups carry: its flow is zeroed ({@code flowi4_uid}, {@code flowi6_uid}). */
    public static final int KERNEL_CM_UID = 0;

    private final NetlinkSocket socket;
    private final NetlinkMessageHeader requestHeader = new NetlinkMessageHeader();
    private final RouteMessage routeMessage = new RouteMessage();
    private final LinkMessage linkMessage = new LinkMessage();
    private final NeighbourMessage neighbourMessage = new NeighbourMessage();
    private final AddressMessage addressMessage = new AddressMessage();
    private final QdiscMessage qdiscMessage = new QdiscMessage();
    private final MqprioOptions mqprio = new MqprioOptions();
    private final NetlinkAttribute attribute = new NetlinkAttribute();
    private final NetlinkAttribute nested = new NetlinkAttribute();
    private final NetlinkAttribute linkInfoData = new NetlinkAttribute();
    private final NetlinkAttribute qosMappings = new NetlinkAttribute();

    private Route route;
    private Link link;
    private Neighbour neighbour;
    private final List<InterfaceAddress> addresses = new ArrayList<>();
    private int wantedIfindex;
    private TrafficClasses trafficClasses;

    private final NetlinkMessageHandler onRoute = (header, buffer, end) -> route = decodeRoute(header, buffer, end);
    private final NetlinkMessageHandler onLink = (header, buffer, end) -> link = decodeLink(header, buffer, end);
    private final NetlinkMessageHandler onNeighbour =
        (header, buffer, end) -> neighbour = decodeNeighbour(header, buffer, end);
    private final NetlinkMessageHandler onAddress = this::collectAddress;
    private final NetlinkMessageHandler onQdisc = this::collectTrafficClasses;
    private final NetlinkMessageHandler ignore = (header, buffer, end) -> { };

    public Rtnetlink(final NetlinkSocket socket)
    {
        this.socket = socket;
    }

    /** Opens its own socket in the calling thread's network namespace. */
    public static Rtnetlink open() throws IOException
    {
        return new Rtnetlink(NetlinkSocket.open());
    }

    public NetlinkSocket socket()
    {
        return socket;
    }

    /**
     * RTM_GETROUTE: the route the kernel would use for {@code destination}, as {@code ip route get DST
     * [from SRC] [oif DEV] uid 0}. The kernel CM's own lookup ({@code addr4_resolve}, {@code addr6_resolve}
     * in drivers/infiniband/core/addr.c) zeroes its flow, so it routes as uid 0; a request without
     * RTA_UID would be routed with the calling thread's real uid and meet {@code uidrange} rules the
     * kernel CM never sees.
     *
     * @param source        a source address to validate and use, or null for the kernel's choice.
     * @param outputIfindex the device the lookup is bound to (IPv6 scope id), or 0.
     * @throws NetlinkException with the kernel's errno: ENETUNREACH (no route, throw), EHOSTUNREACH
     *                          (unreachable), EINVAL (blackhole), EACCES (prohibit)...
     */
    public Route route(final InetAddress destination, final InetAddress source, final int outputIfindex)
        throws IOException
    {
        final UnsafeBuffer buffer = begin(RTM_GETROUTE, NLM_F_REQUEST);
        final byte[] dst = destination.getAddress();
        routeMessage.wrap(buffer, NetlinkMessageHeader.LENGTH).clear()
            .family(family(destination))
            .dstLength(dst.length * 8)
            .srcLength(source == null ? 0 : dst.length * 8);
        int end = routeMessage.attributesOffset();
        end = NetlinkAttribute.put(buffer, end, RouteMessage.RTA_DST, dst, dst.length);
        if (source != null)
        {
            final byte[] src = source.getAddress();
            end = NetlinkAttribute.put(buffer, end, RouteMessage.RTA_SRC, src, src.length);
        }
        if (outputIfindex != 0)
        {
            end = NetlinkAttribute.putU32(buffer, end, RouteMessage.RTA_OIF, outputIfindex);
        }
        end = NetlinkAttribute.putU32(buffer, end, RouteMessage.RTA_UID, KERNEL_CM_UID);
        route = null;
        try
        {
            socket.transact(end, "RTM_GETROUTE", onRoute);
        }
        catch (final NetlinkException ex)
        {
            throw ex.about(destination.getHostAddress());
        }
        return requireReply(route, "RTM_GETROUTE");
    }

    /** RTM_GETLINK by index; ENODEV when there is no such interface. */
    public Link link(final int ifindex) throws IOException
    {
        final UnsafeBuffer buffer = begin(RTM_GETLINK, NLM_F_REQUEST);
        linkMessage.wrap(buffer, NetlinkMessageHeader.LENGTH).clear().index(ifindex);
        int end = linkMessage.attributesOffset();
        end = NetlinkAttribute.putU32(buffer, end, LinkMessage.IFLA_EXT_MASK, 0);
        link = null;
        try
        {
            socket.transact(end, "RTM_GETLINK", onLink);
        }
        catch (final NetlinkException ex)
        {
            throw ex.about("ifindex " + ifindex);
        }
        return requireReply(link, "RTM_GETLINK");
    }

    /** RTM_GETLINK by name (IFLA_IFNAME); ENODEV when there is no such interface. */
    public Link link(final String name) throws IOException
    {
        final UnsafeBuffer buffer = begin(RTM_GETLINK, NLM_F_REQUEST);
        linkMessage.wrap(buffer, NetlinkMessageHeader.LENGTH).clear();
        int end = linkMessage.attributesOffset();
        final byte[] bytes = (name + "\0").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        end = NetlinkAttribute.put(buffer, end, LinkMessage.IFLA_IFNAME, bytes, bytes.length);
        end = NetlinkAttribute.putU32(buffer, end, LinkMessage.IFLA_EXT_MASK, 0);
        link = null;
        try
        {
            socket.transact(end, "RTM_GETLINK", onLink);
        }
        catch (final NetlinkException ex)
        {
            throw ex.about(name);
        }
        return requireReply(link, "RTM_GETLINK");
    }

    /** RTM_GETADDR dump of one family (AF_INET or AF_INET6). */
    public List<InterfaceAddress> addresses(final int family) throws IOException
    {
        final UnsafeBuffer buffer = begin(RTM_GETADDR, NLM_F_REQUEST | NLM_F_DUMP);
        addressMessage.wrap(buffer, NetlinkMessageHeader.LENGTH).clear().family(family);
        addresses.clear();
        socket.transact(addressMessage.attributesOffset(), "RTM_GETADDR dump", onAddress);
        return List.copyOf(addresses);
    }

    /** The local address equal to {@code address}, on {@code ifindex} if that is not 0; null if none. */
    public InterfaceAddress findLocalAddress(final InetAddress address, final int ifindex) throws IOException
    {
        final byte[] wanted = address.getAddress();
        for (final InterfaceAddress candidate : addresses(family(address)))
        {
            if (java.util.Arrays.equals(candidate.address().getAddress(), wanted) &&
                (ifindex == 0 || candidate.ifindex() == ifindex))
            {
                return candidate;
            }
        }
        return null;
    }

    /** RTM_GETNEIGH for one entry; null when the kernel has none (ENOENT). */
    public Neighbour neighbour(final int ifindex, final InetAddress destination) throws IOException
    {
        final UnsafeBuffer buffer = begin(RTM_GETNEIGH, NLM_F_REQUEST);
        final byte[] dst = destination.getAddress();
        neighbourMessage.wrap(buffer, NetlinkMessageHeader.LENGTH).clear().family(family(destination)).ifindex(ifindex);
        final int end = NetlinkAttribute.put(buffer, neighbourMessage.attributesOffset(), NeighbourMessage.NDA_DST, dst,
            dst.length);
        neighbour = null;
        try
        {
            socket.transact(end, "RTM_GETNEIGH", onNeighbour);
        }
        catch (final NetlinkException ex)
        {
            if (ex.errno() == Errno.ENOENT)
            {
                return null;
            }
            throw ex.about(destination.getHostAddress());
        }
        return neighbour;
    }

    /**
     * RTM_NEWNEIGH with NTF_USE: starts ARP/ND for {@code destination} without sending a data packet,
     * creating the entry if needed. Needs CAP_NET_ADMIN (else {@link NetlinkException} with EPERM).
     */
    public void triggerNeighbourResolution(final int ifindex, final InetAddress destination) throws IOException
    {
        final UnsafeBuffer buffer = begin(RTM_NEWNEIGH, NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE);
        final byte[] dst = destination.getAddress();
        neighbourMessage.wrap(buffer, NetlinkMessageHeader.LENGTH).clear()
            .family(family(destination)).ifindex(ifindex).state(0).flags(NeighbourMessage.NTF_USE);
        final int end = NetlinkAttribute.put(buffer, neighbourMessage.attributesOffset(), NeighbourMessage.NDA_DST, dst,
            dst.length);
        try
        {
            socket.transact(end, "RTM_NEWNEIGH NTF_USE", ignore);
        }
        catch (final NetlinkException ex)
        {
            throw ex.about(destination.getHostAddress());
        }
    }

    /** Decodes an RTM_NEWROUTE message (a reply to RTM_GETROUTE). */
    public Route decodeRoute(final NetlinkMessageHeader header, final DirectBuffer buffer, final int end)
    {
        if (header.type() != RTM_NEWROUTE)
        {
            return null;
        }
        routeMessage.wrap(buffer, header.bodyOffset(), end - header.bodyOffset());
        final int family = routeMessage.family();
        int table = routeMessage.table();
        InetAddress destination = null;
        InetAddress source = null;
        InetAddress preferredSource = null;
        InetAddress gateway = null;
        int oif = 0;
        int hopLimit = 0;
        int mtu = 0;
        attribute.wrap(buffer, routeMessage.attributesOffset(), end);
        while (attribute.next())
        {
            switch (attribute.type())
            {
                case RouteMessage.RTA_DST -> destination = address(attribute);
                case RouteMessage.RTA_SRC -> source = address(attribute);
                case RouteMessage.RTA_PREFSRC -> preferredSource = address(attribute);
                case RouteMessage.RTA_GATEWAY -> gateway = address(attribute);
                case RouteMessage.RTA_OIF -> oif = (int)attribute.u32();
                case RouteMessage.RTA_TABLE -> table = (int)attribute.u32();
                case RouteMessage.RTA_METRICS ->
                {
                    nested.wrap(buffer, attribute.valueOffset(), attribute.valueOffset() + attribute.valueLength());
                    while (nested.next())
                    {
                        if (nested.type() == RouteMessage.RTAX_HOPLIMIT)
                        {
                            hopLimit = (int)nested.u32();
                        }
                        else if (nested.type() == RouteMessage.RTAX_MTU)
                        {
                            mtu = (int)nested.u32();
                        }
                    }
                }
                default ->
                {
                }
            }
        }
        if (destination == null)
        {
            destination = zeroAddress(family);
        }
        return new Route(routeMessage.type(), table, routeMessage.scope(), routeMessage.flags(), destination,
            source, preferredSource, gateway, oif, hopLimit, mtu);
    }

    /** Decodes an RTM_NEWLINK or RTM_DELLINK message. */
    public Link decodeLink(final NetlinkMessageHeader header, final DirectBuffer buffer, final int end)
    {
        linkMessage.wrap(buffer, header.bodyOffset(), end - header.bodyOffset());
        String name = "";
        int mtu = 0;
        int operationalState = 0;
        byte[] address = new byte[0];
        byte[] broadcast = new byte[0];
        int lowerIfindex = 0;
        Vlan vlan = null;
        String kind = "";
        int txQueues = 0;
        int event = 0;
        attribute.wrap(buffer, linkMessage.attributesOffset(), end);
        while (attribute.next())
        {
            switch (attribute.type())
            {
                case LinkMessage.IFLA_IFNAME -> name = attribute.string();
                case LinkMessage.IFLA_LINK -> lowerIfindex = (int)attribute.u32();
                case LinkMessage.IFLA_LINKINFO ->
                {
                    kind = linkKind(buffer, attribute.valueOffset(), attribute.valueOffset() + attribute.valueLength());
                    vlan = vlan(buffer, attribute.valueOffset(), attribute.valueOffset() + attribute.valueLength());
                }
                case LinkMessage.IFLA_NUM_TX_QUEUES -> txQueues = (int)attribute.u32();
                case LinkMessage.IFLA_EVENT -> event = (int)attribute.u32();
                case LinkMessage.IFLA_MTU -> mtu = (int)attribute.u32();
                case LinkMessage.IFLA_ADDRESS -> address = attribute.bytes();
                case LinkMessage.IFLA_BROADCAST -> broadcast = attribute.bytes();
                case LinkMessage.IFLA_OPERSTATE -> operationalState = attribute.u8();
                default ->
                {
                }
            }
        }
        if (vlan != null)
        {
            vlan = new Vlan(vlan.id(), lowerIfindex, vlan.egressQosMap());
        }
        return new Link(linkMessage.index(), name, linkMessage.type(), linkMessage.flags(), mtu, address, broadcast,
            operationalState, vlan, kind, txQueues, event);
    }

    /** IFLA_INFO_KIND of the IFLA_LINKINFO in {@code [offset, end)}, empty if it has none. */
    private String linkKind(final DirectBuffer buffer, final int offset, final int end)
    {
        nested.wrap(buffer, offset, end);
        while (nested.next())
        {
            if (nested.type() == LinkMessage.IFLA_INFO_KIND)
            {
                return nested.string();
            }
        }
        return "";
    }

    /**
     * The traffic classes of {@code ifindex} ({@code num_tc}, {@code prio_tc_map}) from an RTM_GETQDISC
     * dump: the options of its root mqprio qdisc, which the kernel fills from the device. A netdev with
     * another root qdisc reads as {@link TrafficClasses#none}; so does one whose classes a driver or
     * taprio set without an mqprio root (this reads mqprio only).
     */
    public TrafficClasses trafficClasses(final int ifindex) throws IOException
    {
        final UnsafeBuffer buffer = begin(RTM_GETQDISC, NLM_F_REQUEST | NLM_F_DUMP);
        qdiscMessage.wrap(buffer, NetlinkMessageHeader.LENGTH).clear();
        wantedIfindex = ifindex;
        trafficClasses = null;
        socket.transact(qdiscMessage.attributesOffset(), "RTM_GETQDISC dump", onQdisc);
        return trafficClasses != null ? trafficClasses : TrafficClasses.none(ifindex);
    }

    /** The netdev of an RTM_NEWQDISC or RTM_DELQDISC message (an RTNLGRP_TC event). */
    public int decodeQdiscIfindex(final NetlinkMessageHeader header, final DirectBuffer buffer, final int end)
    {
        return qdiscMessage.wrap(buffer, header.bodyOffset(), end - header.bodyOffset()).ifindex();
    }

    /** A root mqprio qdisc of {@link #wantedIfindex} becomes {@link #trafficClasses}. */
    private void collectTrafficClasses(final NetlinkMessageHeader header, final DirectBuffer buffer, final int end)
    {
        if (header.type() != RTM_NEWQDISC)
        {
            return;
        }
        qdiscMessage.wrap(buffer, header.bodyOffset(), end - header.bodyOffset());
        if (qdiscMessage.ifindex() != wantedIfindex || qdiscMessage.parent() != QdiscMessage.TC_H_ROOT)
        {
            return;
        }
        String kind = "";
        int options = -1;
        int optionsLength = 0;
        attribute.wrap(buffer, qdiscMessage.attributesOffset(), end);
        while (attribute.next())
        {
            if (attribute.type() == QdiscMessage.TCA_KIND)
            {
                kind = attribute.string();
            }
            else if (attribute.type() == QdiscMessage.TCA_OPTIONS)
            {
                options = attribute.valueOffset();
                optionsLength = attribute.valueLength();
            }
        }
        if (!kind.equals("mqprio") || options < 0)
        {
            return;
        }
        mqprio.wrap(buffer, options, optionsLength);
        final byte[] map = new byte[MqprioOptions.PRIO_TC_MAP_LENGTH];
        for (int priority = 0; priority < map.length; priority++)
        {
            map[priority] = (byte)mqprio.trafficClass(priority);
        }
        trafficClasses = new TrafficClasses(wantedIfindex, mqprio.numTc(), map);
    }

    /** IFLA_LINKINFO in {@code [offset, end)}: a {@link Vlan} (lower ifindex 0) when its kind is vlan, else null. */
    private Vlan vlan(final DirectBuffer buffer, final int offset, final int end)
    {
        String kind = "";
        int dataOffset = -1;
        int dataEnd = -1;
        nested.wrap(buffer, offset, end);
        while (nested.next())
        {
            if (nested.type() == LinkMessage.IFLA_INFO_KIND)
            {
                kind = nested.string();
            }
            else if (nested.type() == LinkMessage.IFLA_INFO_DATA)
            {
                dataOffset = nested.valueOffset();
                dataEnd = dataOffset + nested.valueLength();
            }
        }
        if (!kind.equals("vlan") || dataOffset < 0)
        {
            return null;
        }
        int id = 0;
        final List<Vlan.QosMapping> egress = new ArrayList<>();
        linkInfoData.wrap(buffer, dataOffset, dataEnd);
        while (linkInfoData.next())
        {
            if (linkInfoData.type() == LinkMessage.IFLA_VLAN_ID && linkInfoData.valueLength() >= Short.BYTES)
            {
                id = buffer.getShort(linkInfoData.valueOffset(), NetlinkMessageHeader.ORDER) & 0xffff;
            }
            else if (linkInfoData.type() == LinkMessage.IFLA_VLAN_EGRESS_QOS)
            {
                qosMappings.wrap(buffer, linkInfoData.valueOffset(), linkInfoData.valueOffset() + linkInfoData.valueLength());
                while (qosMappings.next())
                {
                    if (qosMappings.type() == LinkMessage.IFLA_VLAN_QOS_MAPPING &&
                        qosMappings.valueLength() >= LinkMessage.QOS_MAPPING_LENGTH)
                    {
                        final int at = qosMappings.valueOffset();
                        egress.add(new Vlan.QosMapping(
                            buffer.getInt(at + LinkMessage.QOS_MAPPING_FROM_OFFSET, NetlinkMessageHeader.ORDER) & 0xffff_ffffL,
                            buffer.getInt(at + LinkMessage.QOS_MAPPING_TO_OFFSET, NetlinkMessageHeader.ORDER)));
                    }
                }
            }
        }
        return new Vlan(id, 0, egress);
    }

    /** Decodes an RTM_NEWNEIGH or RTM_DELNEIGH message (a reply or an RTNLGRP_NEIGH event). */
    public Neighbour decodeNeighbour(final NetlinkMessageHeader header, final DirectBuffer buffer, final int end)
    {
        neighbourMessage.wrap(buffer, header.bodyOffset(), end - header.bodyOffset());
        InetAddress destination = null;
        byte[] lladdr = new byte[0];
        attribute.wrap(buffer, neighbourMessage.attributesOffset(), end);
        while (attribute.next())
        {
            switch (attribute.type())
            {
                case NeighbourMessage.NDA_DST -> destination = address(attribute);
                case NeighbourMessage.NDA_LLADDR -> lladdr = attribute.bytes();
                default ->
                {
                }
            }
        }
        return new Neighbour(neighbourMessage.ifindex(), destination, lladdr, neighbourMessage.state(),
            neighbourMessage.flags());
    }

    private void collectAddress(final NetlinkMessageHeader header, final DirectBuffer buffer, final int end)
    {
        if (header.type() != RTM_NEWADDR)
        {
            return;
        }
        final InterfaceAddress address = decodeAddress(header, buffer, end);
        if (address != null)
        {
            addresses.add(address);
        }
    }

    /**
     * Dumps one table on this socket ({@code type} RTM_GETLINK, RTM_GETADDR or RTM_GETNEIGH of
     * {@code family}): its answer goes to {@code answer}, and the group notifications the socket reads
     * meanwhile go to {@code unsolicited}, in the order the kernel queued them.
     */
    public void dump(final int type, final int family, final NetlinkMessageHandler answer,
        final NetlinkMessageHandler unsolicited) throws IOException
    {
        final UnsafeBuffer buffer = begin(type, NLM_F_REQUEST | NLM_F_DUMP);
        final int end;
        final String name;
        switch (type)
        {
            case RTM_GETLINK ->
            {
                linkMessage.wrap(buffer, NetlinkMessageHeader.LENGTH).clear().family(family);
                end = NetlinkAttribute.putU32(buffer, linkMessage.attributesOffset(), LinkMessage.IFLA_EXT_MASK, 0);
                name = "RTM_GETLINK dump";
            }
            case RTM_GETADDR ->
            {
                addressMessage.wrap(buffer, NetlinkMessageHeader.LENGTH).clear().family(family);
                end = addressMessage.attributesOffset();
                name = "RTM_GETADDR dump";
            }
            case RTM_GETNEIGH ->
            {
                neighbourMessage.wrap(buffer, NetlinkMessageHeader.LENGTH).clear().family(family);
                end = neighbourMessage.attributesOffset();
                name = "RTM_GETNEIGH dump";
            }
            default -> throw new IllegalArgumentException("no dump of message type " + type + " here");
        }
        socket.transact(end, name, answer, unsolicited);
    }

    /** Decodes an RTM_NEWADDR or RTM_DELADDR message; null when it names no address. */
    public InterfaceAddress decodeAddress(final NetlinkMessageHeader header, final DirectBuffer buffer, final int end)
    {
        addressMessage.wrap(buffer, header.bodyOffset(), end - header.bodyOffset());
        InetAddress local = null;
        InetAddress address = null;
        attribute.wrap(buffer, addressMessage.attributesOffset(), end);
        while (attribute.next())
        {
            if (attribute.type() == AddressMessage.IFA_LOCAL)
            {
                local = address(attribute);
            }
            else if (attribute.type() == AddressMessage.IFA_ADDRESS)
            {
                address = address(attribute);
            }
        }
        // For IPv4 point-to-point links IFA_ADDRESS is the peer; IFA_LOCAL is always ours when present.
        final InetAddress own = local != null ? local : address;
        return own == null ? null :
            new InterfaceAddress((int)addressMessage.index(), own, addressMessage.prefixLength(), addressMessage.scope());
    }

    private UnsafeBuffer begin(final int type, final int flags)
    {
        final UnsafeBuffer buffer = socket.requestBuffer();
        requestHeader.wrap(buffer, 0).length(0).type(type).flags(flags).sequence(socket.nextSequence()).portId(0);
        return buffer;
    }

    private static <T> T requireReply(final T reply, final String request) throws NetlinkException
    {
        if (reply == null)
        {
            throw new NetlinkException(request + " (acknowledged without a reply message)", Errno.EPROTO, null);
        }
        return reply;
    }

    private static InetAddress address(final NetlinkAttribute attribute)
    {
        try
        {
            return InetAddress.getByAddress(attribute.bytes());
        }
        catch (final UnknownHostException ex)
        {
            return null; // a length other than 4 or 16: not an IP address attribute after all
        }
    }

    private static InetAddress zeroAddress(final int family)
    {
        try
        {
            return InetAddress.getByAddress(new byte[family == Libc.AF_INET ? 4 : 16]);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    public static int family(final InetAddress address)
    {
        return address instanceof Inet4Address ? Libc.AF_INET : Libc.AF_INET6;
    }

    @Override
    public void close()
    {
        socket.close();
    }
}
