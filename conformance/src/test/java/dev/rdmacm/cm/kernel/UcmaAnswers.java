package dev.rdmacm.cm.kernel;

import dev.rdmacm.addrinfo.Ipv4Sockaddr;
import dev.rdmacm.addrinfo.Ipv6Sockaddr;
import dev.rdmacm.addrinfo.RdmaSockaddr;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.Ipv6Text;
import dev.rdmacm.protocol.path.IbvPathData;
import dev.rdmacm.protocol.path.IbvPathRecord;
import dev.rdmacm.ucma.UcmaChannel;
import dev.rdmacm.ucma.UcmaException;
import dev.rdmacm.ucma.abi.EventResponse;
import dev.rdmacm.ucma.abi.QueryAddrResponse;
import dev.rdmacm.ucma.abi.QueryPathResponse;
import dev.rdmacm.ucma.abi.UcmaConstants;
import dev.rdmacm.ucma.abi.UcmaEventType;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A {@link CmCase} driven through the ucma module's {@link UcmaChannel} (the kernel's CM, no librdmacm),
 * written as {@code cm_oracle.c} writes what librdmacm hands the application for the same case: the same
 * keys, the same text. The queries are librdmacm's after each event (QUERY ADDR and GID after
 * ADDR_RESOLVED, QUERY PATH after ROUTE_RESOLVED), and the path goes through {@code ucma_convert_path}'s
 * rules (selectors 2, codes masked to 5 bits, preference = the path's flags, flow label and hop limit
 * split from their word), so that the kernel's answer to us and to librdmacm compare field by field.
 * An id is bound first when the case has a source ({@code rdma_resolve_addr} with a source binds it in
 * the kernel just the same).
 */
final class UcmaAnswers
{
    /** Only a bound against a hang, never a measurement (as OurCm's). */
    private static final long EVENT_GRACE_MS = 30_000;
    private static final Path SYSFS_DEVICES = Path.of("/sys/class/infiniband");

    private UcmaAnswers()
    {
    }

    /** The case's address (IPv4 or IPv6, {@code ADDR#PORT}) as the sockaddr the command carries. */
    static RdmaSockaddr sockaddr(final String text) throws UnknownHostException
    {
        final InetSocketAddress address = OurCm.socketAddress(text);
        if (address.getAddress() instanceof Inet4Address v4)
        {
            final byte[] bytes = v4.getAddress();
            return new Ipv4Sockaddr((bytes[0] & 0xff) << 24 | (bytes[1] & 0xff) << 16 | (bytes[2] & 0xff) << 8 | bytes[3] & 0xff,
                address.getPort());
        }
        final Inet6Address v6 = (Inet6Address)address.getAddress();
        return new Ipv6Sockaddr(v6.getAddress(), address.getPort(), 0, Math.max(v6.getScopeId(), 0));
    }

    /** Everything the oracle prints for the case, from one id on {@code channel} with {@code uid}. */
    static Map<String, String> resolve(final UcmaChannel channel, final CmCase which, final long uid) throws UnknownHostException
    {
        final Map<String, String> fields = new LinkedHashMap<>();
        final int id = channel.createId(uid, UcmaConstants.RDMA_PS_TCP, UcmaConstants.IB_QPT_RC);
        try
        {
            try
            {
                if (which.source() != null)
                {
                    channel.bind(id, sockaddr(which.source()));
                }
                channel.resolveAddr(id, null, sockaddr(which.destination()), which.timeoutMs());
            }
            catch (final UcmaException ex)
            {
                fields.put("addr_errno", Integer.toString(ex.errno()));
                return fields;
            }
            if (await(channel, which, fields, "addr") != UcmaEventType.ADDR_RESOLVED)
            {
                return fields;
            }
            final Gid[] gids = address(channel, id, fields);
            if (which.has("ibpath") || which.has("ibpathflags0"))
            {
                return givenPath(channel, id, which, gids, fields);
            }
            try
            {
                channel.resolveRoute(id, which.timeoutMs());
            }
            catch (final UcmaException ex)
            {
                fields.put("route_errno", Integer.toString(ex.errno()));
                return fields;
            }
            if (await(channel, which, fields, "route") == UcmaEventType.ROUTE_RESOLVED)
            {
                route(channel.queryPath(id), fields);
            }
            return fields;
        }
        finally
        {
            channel.destroyId(id);
        }
    }

    /**
     * The oracle's {@code ibpath} and {@code ibpathflags0} cases: SET_OPTION {@code RDMA_OPTION_IB_PATH}
     * with its fixed record (flags 0x2b, or 0), then the route the kernel installed, read back.
     */
    private static Map<String, String> givenPath(final UcmaChannel channel, final int id, final CmCase which, final Gid[] gids,
        final Map<String, String> fields)
    {
        try
        {
            channel.setOption(id, UcmaConstants.RDMA_OPTION_IB, UcmaConstants.RDMA_OPTION_IB_PATH,
                fixedPath(gids[0], gids[1], which.has("ibpath") ? UcmaConstants.IB_PATH_INSTALLED_FLAGS : 0));
        }
        catch (final UcmaException ex)
        {
            fields.put("ibpath_errno", Integer.toString(ex.errno()));
            return fields;
        }
        if (await(channel, which, fields, "route") == UcmaEventType.ROUTE_RESOLVED)
        {
            route(channel.queryPath(id), fields);
        }
        return fields;
    }

    /** cm_oracle.c's set_ib_path record, the same values: every field one the kernel would not choose itself. */
    private static byte[] fixedPath(final Gid sgid, final Gid dgid, final int flags)
    {
        final byte[] record = new byte[IbvPathData.LENGTH];
        final UnsafeBuffer buffer = new UnsafeBuffer(record);
        buffer.putInt(IbvPathData.FLAGS_OFFSET, flags, ByteOrder.nativeOrder());
        final int at = IbvPathData.PATH_OFFSET;
        buffer.putLong(at + IbvPathRecord.SERVICE_ID_OFFSET, 0x1122334455667788L, ByteOrder.BIG_ENDIAN);
        buffer.putBytes(at + IbvPathRecord.DGID_OFFSET, dgid.toBytes());
        buffer.putBytes(at + IbvPathRecord.SGID_OFFSET, sgid.toBytes());
        buffer.putShort(at + IbvPathRecord.DLID_OFFSET, (short)0x1234, ByteOrder.BIG_ENDIAN);
        buffer.putShort(at + IbvPathRecord.SLID_OFFSET, (short)0x5678, ByteOrder.BIG_ENDIAN);
        buffer.putInt(at + IbvPathRecord.FLOW_LABEL_HOP_LIMIT_OFFSET, 0x12345 << 8 | 7, ByteOrder.BIG_ENDIAN);
        buffer.putByte(at + IbvPathRecord.TCLASS_OFFSET, (byte)0x20);
        buffer.putByte(at + IbvPathRecord.REVERSIBLE_NUMB_PATH_OFFSET, (byte)(0x80 | 1));
        buffer.putShort(at + IbvPathRecord.P_KEY_OFFSET, (short)0xffff, ByteOrder.BIG_ENDIAN);
        buffer.putShort(at + IbvPathRecord.QOS_CLASS_SL_OFFSET, (short)5, ByteOrder.BIG_ENDIAN);
        buffer.putByte(at + IbvPathRecord.MTU_OFFSET, (byte)(2 << 6 | 3));
        buffer.putByte(at + IbvPathRecord.RATE_OFFSET, (byte)(2 << 6 | 6));
        buffer.putByte(at + IbvPathRecord.PACKET_LIFE_TIME_OFFSET, (byte)(2 << 6 | 14));
        return record;
    }

    /** librdmacm's ucma_query_addr then ucma_query_gid, printed as the oracle prints them; the source and destination GIDs. */
    private static Gid[] address(final UcmaChannel channel, final int id, final Map<String, String> fields)
    {
        final QueryAddrResponse addr = channel.queryAddr(id);
        fields.put("device", deviceOf(addr.nodeGuid()));
        fields.put("port_num", Integer.toString(addr.portNum()));
        // librdmacm copies the __be16 into ibaddr.pkey as it is, and the oracle prints that u16 unswapped
        final String pkey = String.format("0x%04x", Short.reverseBytes((short)addr.pkey()) & 0xffff);
        socket(fields, "src", addr.source());
        socket(fields, "dst", addr.destination());
        final QueryAddrResponse gid = channel.queryGid(id);
        fields.put("sgid", gid.sourceGid().toString());
        fields.put("dgid", gid.destinationGid().toString());
        fields.put("addr_pkey", pkey);
        return new Gid[] {gid.sourceGid(), gid.destinationGid()};
    }

    private static void socket(final Map<String, String> fields, final String key, final RdmaSockaddr address)
    {
        switch (address)
        {
            case Ipv4Sockaddr v4 ->
            {
                fields.put(key, (v4.address() >>> 24) + "." + (v4.address() >>> 16 & 0xff) + "." + (v4.address() >>> 8 & 0xff) +
                    "." + (v4.address() & 0xff));
                fields.put(key + "_port", Integer.toString(v4.port()));
            }
            case Ipv6Sockaddr v6 ->
            {
                fields.put(key, Ipv6Text.format(v6.address()));
                fields.put(key + "_port", Integer.toString(v6.port()));
            }
            case null -> fields.put(key, "-");
            default -> fields.put(key, "family " + address.family());
        }
    }

    /** The device whose sysfs node GUID is {@code guid} (librdmacm matches the GUID, and the index where it has one). */
    static String deviceOf(final long guid)
    {
        final String text = String.format("%04x:%04x:%04x:%04x", guid >>> 48, guid >>> 32 & 0xffff, guid >>> 16 & 0xffff,
            guid & 0xffff);
        try (Stream<Path> devices = Files.list(SYSFS_DEVICES))
        {
            for (final Path device : devices.sorted().toList())
            {
                if (Files.readString(device.resolve("node_guid")).strip().equals(text))
                {
                    return device.getFileName().toString();
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return "guid " + text;
    }

    private static UcmaEventType await(final UcmaChannel channel, final CmCase which, final Map<String, String> fields,
        final String step)
    {
        final EventResponse event = channel.getEvent(which.timeoutMs() + EVENT_GRACE_MS, TimeUnit.MILLISECONDS);
        if (event == null)
        {
            fields.put(step + "_event", "NONE");
            return null;
        }
        final UcmaEventType type = UcmaEventType.of(event.event());
        fields.put(step + "_event", "RDMA_CM_EVENT_" + type.name());
        fields.put(step + "_status", Integer.toString(event.status()));
        return type;
    }

    /** The oracle's print_route of the first path, after librdmacm's ucma_convert_path. */
    private static void route(final QueryPathResponse paths, final Map<String, String> fields)
    {
        final long count = paths.numPaths();
        fields.put("num_paths", Long.toString(count));
        if (count < 1)
        {
            return;
        }
        final IbvPathData data = paths.path(0, new IbvPathData());
        final byte[] bytes = new byte[IbvPathData.LENGTH];
        data.buffer().getBytes(data.offset(), bytes);
        final UnsafeBuffer p = new UnsafeBuffer(bytes);
        final int at = IbvPathData.PATH_OFFSET;
        final byte[] gid = new byte[16];
        p.getBytes(at + IbvPathRecord.DGID_OFFSET, gid);
        fields.put("path_dgid", Gid.fromBytes(gid, 0).toString());
        p.getBytes(at + IbvPathRecord.SGID_OFFSET, gid);
        fields.put("path_sgid", Gid.fromBytes(gid, 0).toString());
        fields.put("dlid", Integer.toString(p.getShort(at + IbvPathRecord.DLID_OFFSET, ByteOrder.BIG_ENDIAN) & 0xffff));
        fields.put("slid", Integer.toString(p.getShort(at + IbvPathRecord.SLID_OFFSET, ByteOrder.BIG_ENDIAN) & 0xffff));
        fields.put("raw_traffic", "0");
        final long flowHop = p.getInt(at + IbvPathRecord.FLOW_LABEL_HOP_LIMIT_OFFSET, ByteOrder.BIG_ENDIAN) & 0xffff_ffffL;
        fields.put("flow_label", Long.toString(flowHop >>> 8));
        fields.put("hop_limit", Long.toString(flowHop & 0xff));
        fields.put("traffic_class", Integer.toString(p.getByte(at + IbvPathRecord.TCLASS_OFFSET) & 0xff));
        fields.put("reversible", Integer.toString((p.getByte(at + IbvPathRecord.REVERSIBLE_NUMB_PATH_OFFSET) & 0xff) >>> 7));
        fields.put("numb_path", "1");
        fields.put("pkey", String.format("0x%04x", p.getShort(at + IbvPathRecord.P_KEY_OFFSET, ByteOrder.BIG_ENDIAN) & 0xffff));
        fields.put("sl", Integer.toString(p.getShort(at + IbvPathRecord.QOS_CLASS_SL_OFFSET, ByteOrder.BIG_ENDIAN) & 0xf));
        fields.put("mtu_selector", "2");
        fields.put("mtu", Integer.toString(p.getByte(at + IbvPathRecord.MTU_OFFSET) & 0x1f));
        fields.put("rate_selector", "2");
        fields.put("rate", Integer.toString(p.getByte(at + IbvPathRecord.RATE_OFFSET) & 0x1f));
        fields.put("packet_life_time_selector", "2");
        fields.put("packet_life_time", Integer.toString(p.getByte(at + IbvPathRecord.PACKET_LIFE_TIME_OFFSET) & 0x1f));
        fields.put("preference", Long.toString(data.flags() & 0xff));
    }
}
