package dev.rdmacm.cm.kernel;

import dev.rdmacm.addrinfo.IbSockaddr;
import dev.rdmacm.resolver.AddressResolution;
import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.CmEventType;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmException;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.protocol.Ipv6Text;
import dev.rdmacm.protocol.path.IbvPathData;
import dev.rdmacm.protocol.path.IbvPathRecord;
import dev.rdmacm.resolver.RoutePath;
import dev.rdmacm.sa.path.PathRecordValue;
import dev.rdmacm.testing.HostCommand;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Our {@link RdmaCmId} on a {@link CmCase}, written as the oracle writes the real librdmacm's answer:
 * the same keys in the same order, the same text, so the two maps compare field by field.
 */
final class OurCm
{
    /**
     * How long past the call's timeout an event may take: only a bound against a hang, never a
     * measurement. A GID-table miss makes the live sysfs directory read every table again on the loop,
     * which takes 5 s and more in the TCG guest under load (onlink-ipv6, whose source address was added
     * after open, and netdev-without-rdma): a 5 s grace broke there.
     */
    private static final long EVENT_GRACE_MS = 30_000;

    private OurCm()
    {
    }

    /** The address as inet_ntop writes it (RFC 5952), which is what the oracle prints. */
    private static String text(final InetAddress address)
    {
        return address instanceof Inet6Address ? Ipv6Text.format(address.getAddress()) : address.getHostAddress();
    }

    /**
     * {@code ADDR}, {@code ADDR#PORT} or {@code ADDR%IFNAME} as the oracle's getaddrinfo reads it. An
     * IPv4-mapped IPv6 literal stays an IPv6 address, as a sockaddr_in6 carries it (InetAddress would
     * turn it into IPv4).
     */
    static InetSocketAddress socketAddress(final String text) throws UnknownHostException
    {
        final int hash = text.indexOf('#');
        final String host = hash < 0 ? text : text.substring(0, hash);
        final int port = hash < 0 ? 0 : Integer.parseInt(text.substring(hash + 1));
        InetAddress address = InetAddress.getByName(host);
        if (host.contains(":") && !(address instanceof Inet6Address))
        {
            address = Inet6Address.getByAddress(null, Gid.parse(host).toBytes(), -1);
        }
        return new InetSocketAddress(address, port);
    }

    /** The oracle's {@code ib:GID[/PKEY[/SID[/SID_MASK]]]}: a sockaddr_ib; null for an IP address. */
    static IbSockaddr ibAddress(final String text)
    {
        if (text == null || !text.startsWith("ib:"))
        {
            return null;
        }
        final String[] parts = text.substring(3).split("/");
        final int pkey = parts.length > 1 ? Integer.parseInt(parts[1].replaceFirst("^0x", ""), 16) : PKey.DEFAULT;
        final long sid = parts.length > 2 ? Long.parseUnsignedLong(parts[2].replaceFirst("^0x", ""), 16) : 0;
        final long mask = parts.length > 3 ? Long.parseUnsignedLong(parts[3].replaceFirst("^0x", ""), 16) : 0;
        return new IbSockaddr(PKey.of(pkey), 0, Gid.parse(parts[0]), sid, mask, 0);
    }

    private static PortSpace portSpace(final CmCase which)
    {
        final String ps = which.option("ps");
        return ps == null ? PortSpace.TCP : ps.equals("ib") ? PortSpace.IB : ps.equals("udp") ? PortSpace.UDP : PortSpace.TCP;
    }

    /** The oracle's print_sockaddr for a sockaddr_ib: the Service ID, its mask, the P_Key, the GID, the port. */
    private static void ibFields(final Map<String, String> fields, final String key, final IbSockaddr address)
    {
        fields.put(key + "_sid", String.format("0x%016x", address.serviceId()));
        fields.put(key + "_sid_mask", String.format("0x%016x", address.serviceIdMask()));
        fields.put(key + "_sib_pkey", String.format("0x%04x", address.pkey().value()));
        fields.put(key, Ipv6Text.format(address.gid().toBytes()));
        fields.put(key + "_port", Integer.toString(address.port()));
    }

    /**
     * {@code rdma_resolve_addr} with the case's addresses: AF_IB when the destination or the source is
     * one (an IP source with an AF_IB destination is bound first, which is what the kernel does with
     * the two before it finds their families differ).
     */
    private static void resolveAddr(final RdmaCmId id, final CmCase which) throws Exception
    {
        final IbSockaddr ibDestination = ibAddress(which.destination());
        final IbSockaddr ibSource = ibAddress(which.source());
        final Duration timeout = Duration.ofMillis(which.timeoutMs());
        if (ibDestination != null)
        {
            if (which.source() != null && ibSource == null)
            {
                id.bindAddr(socketAddress(which.source()));
            }
            id.resolveAddr(ibSource, ibDestination, timeout);
            return;
        }
        if (ibSource != null)
        {
            id.bindAddr(ibSource);
            id.resolveAddr(null, socketAddress(which.destination()), timeout);
            return;
        }
        id.resolveAddr(which.source() == null ? null : socketAddress(which.source()), socketAddress(which.destination()),
            timeout);
    }

    /** What a caller does with the id once its route is resolved, before it is destroyed. */
    @FunctionalInterface
    interface Routed
    {
        void routed(RdmaCmId id, EventChannel channel) throws Exception;
    }

    /** Everything the oracle prints for the case: address, ports, route, in the oracle's order. */
    static Map<String, String> resolve(final RdmaCm cm, final CmCase which) throws Exception
    {
        return resolve(cm, which, (id, channel) -> { });
    }

    /** {@link #resolve(RdmaCm, CmCase)}, and {@code then} on the id if its route resolved. */
    static Map<String, String> resolve(final RdmaCm cm, final CmCase which, final Routed then) throws Exception
    {
        final Map<String, String> fields = new LinkedHashMap<>();
        try (EventChannel channel = cm.createEventChannel(); RdmaCmId id = cm.createId(channel, portSpace(which));
            RdmaCmId holder = cm.createId(channel))
        {
            if (which.option("hold") != null)
            {
                hold(holder, which, fields);
            }
            if (which.tos() != null)
            {
                id.setServiceType(which.tos());
            }
            if (which.has("reuse"))
            {
                id.setReuseAddr(true);
            }
            if (which.has("afonly"))
            {
                id.setAfOnly(true);
            }
            if (which.option("ack") != null)
            {
                id.setAckTimeout(Integer.parseInt(which.option("ack")));
            }
            if (which.option("failneigh") != null)
            {
                failNeighbour(which, fields);
            }
            try
            {
                resolveAddr(id, which);
            }
            catch (final RdmaCmException ex)
            {
                fields.put("addr_errno", Integer.toString(ex.errno()));
                return fields;
            }
            final CmEvent event = await(channel, which, fields, "addr");
            if (event == null || event.type() != CmEventType.ADDR_RESOLVED)
            {
                return fields;
            }
            final AddressResolution resolution = id.resolution();
            fields.put("device", resolution.binding().device());
            fields.put("port_num", Integer.toString(resolution.binding().port()));
            if (id.ibSource() != null)
            {
                // librdmacm's ucma_query_gid: an AF_IB id's ibaddr GIDs are those of its sockaddr_ibs
                ibFields(fields, "src", id.ibSource());
                ibFields(fields, "dst", id.ibDestination());
                fields.put("sgid", id.ibSource().gid().toString());
                fields.put("dgid", id.ibDestination().gid().toString());
            }
            else
            {
                fields.put("src", text(resolution.source()));
                fields.put("src_port", Integer.toString(id.sourcePort()));
                fields.put("dst", text(resolution.destination()));
                fields.put("dst_port", Integer.toString(id.destinationPort()));
                fields.put("sgid", resolution.sgid().toString());
                fields.put("dgid", resolution.dgid().toString());
            }
            fields.put("addr_pkey", resolution.pkey().toString());
            if (which.has("ibpath") || which.has("ibpathflags0"))
            {
                try
                {
                    id.setIbPath(List.of(fixedPath(resolution, which.has("ibpath") ? 0x2b : 0)));
                }
                catch (final RdmaCmException ex)
                {
                    fields.put("ibpath_errno", Integer.toString(ex.errno()));
                    return fields;
                }
                final CmEvent given = await(channel, which, fields, "route");
                if (given != null && given.type() == CmEventType.ROUTE_RESOLVED)
                {
                    route(id.route().paths(), fields);
                    then.routed(id, channel);
                }
                return fields;
            }
            try
            {
                id.resolveRoute(Duration.ofMillis(which.timeoutMs()));
            }
            catch (final RdmaCmException ex)
            {
                fields.put("route_errno", Integer.toString(ex.errno()));
                return fields;
            }
            final CmEvent routed = await(channel, which, fields, "route");
            if (routed != null && routed.type() == CmEventType.ROUTE_RESOLVED)
            {
                route(id.route().paths(), fields);
                then.routed(id, channel);
            }
        }
        return fields;
    }

    /** The oracle's {@code set_ib_path} record, byte for byte: the same values on both sides. */
    private static byte[] fixedPath(final AddressResolution resolution, final int flags)
    {
        final byte[] record = new byte[IbvPathData.LENGTH];
        final UnsafeBuffer buffer = new UnsafeBuffer(record);
        buffer.putInt(0, flags, ByteOrder.nativeOrder());
        final int path = IbvPathData.PATH_OFFSET;
        buffer.putLong(path + IbvPathRecord.SERVICE_ID_OFFSET, 0x1122334455667788L, ByteOrder.BIG_ENDIAN);
        buffer.putBytes(path + IbvPathRecord.DGID_OFFSET, resolution.dgid().toBytes());
        buffer.putBytes(path + IbvPathRecord.SGID_OFFSET, resolution.sgid().toBytes());
        buffer.putShort(path + IbvPathRecord.DLID_OFFSET, (short)0x1234, ByteOrder.BIG_ENDIAN);
        buffer.putShort(path + IbvPathRecord.SLID_OFFSET, (short)0x5678, ByteOrder.BIG_ENDIAN);
        buffer.putInt(path + IbvPathRecord.FLOW_LABEL_HOP_LIMIT_OFFSET, 0x12345 << 8 | 7, ByteOrder.BIG_ENDIAN);
        buffer.putByte(path + IbvPathRecord.TCLASS_OFFSET, (byte)0x20);
        buffer.putByte(path + IbvPathRecord.REVERSIBLE_NUMB_PATH_OFFSET, (byte)(0x80 | 1));
        buffer.putShort(path + IbvPathRecord.P_KEY_OFFSET, (short)0xffff, ByteOrder.BIG_ENDIAN);
        buffer.putShort(path + IbvPathRecord.QOS_CLASS_SL_OFFSET, (short)5, ByteOrder.BIG_ENDIAN);
        buffer.putByte(path + IbvPathRecord.MTU_OFFSET, (byte)(2 << 6 | 3));
        buffer.putByte(path + IbvPathRecord.RATE_OFFSET, (byte)(2 << 6 | 6));
        buffer.putByte(path + IbvPathRecord.PACKET_LIFE_TIME_OFFSET, (byte)(2 << 6 | 14));
        return record;
    }

    /** As the oracle does it: {@code ip neigh replace DST dev IFNAME nud failed}, right before resolve_addr. */
    private static void failNeighbour(final CmCase which, final Map<String, String> fields)
    {
        final HostCommand.Outcome result = HostCommand.run(Duration.ofSeconds(30), "ip", "neigh", "replace",
            which.destination(), "dev", which.option("failneigh"), "nud", "failed");
        if (!result.succeeded())
        {
            fields.put("failneigh_error", "1");
        }
    }

    private static void hold(final RdmaCmId holder, final CmCase which, final Map<String, String> fields)
        throws Exception
    {
        if (which.has("holdreuse"))
        {
            holder.setReuseAddr(true);
        }
        if (which.has("holdafonly"))
        {
            holder.setAfOnly(true);
        }
        try
        {
            holder.bindAddr(socketAddress(which.option("hold")));
        }
        catch (final RdmaCmException ex)
        {
            fields.put("hold_errno", Integer.toString(ex.errno()));
        }
    }

    private static CmEvent await(final EventChannel channel, final CmCase which, final Map<String, String> fields,
        final String step) throws InterruptedException
    {
        final CmEvent event = channel.getEvent(Duration.ofMillis(which.timeoutMs() + EVENT_GRACE_MS));
        if (event == null)
        {
            fields.put(step + "_event", "NONE");
            return null;
        }
        fields.put(step + "_event", "RDMA_CM_EVENT_" + event.type().name());
        fields.put(step + "_status", Integer.toString(event.status()));
        event.ack();
        return event;
    }

    /**
     * {@code print_route} of the oracle: {@code id->route.num_paths} and the first path_rec, which
     * librdmacm's {@code ucma_convert_path} fills from the kernel's path (see {@link RoutePath}).
     */
    private static void route(final List<RoutePath> paths, final Map<String, String> fields)
    {
        fields.put("num_paths", Integer.toString(paths.size()));
        if (paths.isEmpty())
        {
            return;
        }
        final RoutePath path = paths.getFirst();
        final PathRecordValue p = path.record();
        fields.put("path_dgid", p.dgid().toString());
        fields.put("path_sgid", p.sgid().toString());
        fields.put("dlid", Integer.toString(p.dlid().value()));
        fields.put("slid", Integer.toString(p.slid().value()));
        fields.put("raw_traffic", "0");
        fields.put("flow_label", Integer.toString(path.librdmacmFlowLabel()));
        fields.put("hop_limit", Integer.toString(p.hopLimit()));
        fields.put("traffic_class", Integer.toString(p.tClass()));
        fields.put("reversible", p.reversible() ? "1" : "0");
        fields.put("numb_path", "1");
        fields.put("pkey", String.format("0x%04x", p.pKey().value()));
        fields.put("sl", Integer.toString(p.sl()));
        fields.put("mtu_selector", Integer.toString(RoutePath.LIBRDMACM_SELECTOR));
        fields.put("mtu", Integer.toString(p.mtu() & RoutePath.LIBRDMACM_CODE_MASK));
        fields.put("rate_selector", Integer.toString(RoutePath.LIBRDMACM_SELECTOR));
        fields.put("rate", Integer.toString(p.rate() & RoutePath.LIBRDMACM_CODE_MASK));
        fields.put("packet_life_time_selector", Integer.toString(RoutePath.LIBRDMACM_SELECTOR));
        fields.put("packet_life_time", Integer.toString(p.packetLifeTime() & RoutePath.LIBRDMACM_CODE_MASK));
        fields.put("preference", Integer.toString(path.librdmacmPreference()));
    }
}
