package dev.rdmacm.cm.kernel;

import dev.rdmacm.addrinfo.AddrInfoResult;
import dev.rdmacm.addrinfo.Ipv4Sockaddr;
import dev.rdmacm.addrinfo.Ipv6Sockaddr;
import dev.rdmacm.addrinfo.RdmaAddrInfo;
import dev.rdmacm.addrinfo.RdmaAddrInfoHints;
import dev.rdmacm.addrinfo.RdmaGetAddrInfo;
import dev.rdmacm.addrinfo.RdmaSockaddr;
import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.CmEventType;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmException;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.libc.Libc;
import dev.rdmacm.protocol.Ipv6Text;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * Our side of {@link AddrinfoAgainstLibrdmacmInGuest}: each {@link AddrinfoCase} run on our
 * {@link RdmaCmId}, printed under the keys {@code addrinfo_oracle.c} prints, so the two maps compare.
 */
final class OurAddrinfo
{
    private static final int READABLE_WAIT_MS = 100;
    private static final int DNS_WAIT_MS = 10_000;
    private static final int DNS_ANSWER_MS = 50;

    private OurAddrinfo()
    {
    }

    static Map<String, Map<String, String>> run(final List<AddrinfoCase> cases) throws Exception
    {
        final Map<String, Map<String, String>> byCase = new LinkedHashMap<>();
        try (RdmaCm cm = RdmaCm.open())
        {
            for (final AddrinfoCase c : cases)
            {
                byCase.put(c.name(), run(cm, c));
            }
        }
        return byCase;
    }

    private static Map<String, String> run(final RdmaCm cm, final AddrinfoCase c) throws Exception
    {
        final Map<String, String> out = new LinkedHashMap<>();
        try (EventChannel channel = cm.createEventChannel(); RdmaCmId id = cm.createId(channel))
        {
            for (int index = 0; index < c.steps().size(); index++)
            {
                step(out, index, c.steps().get(index), id, channel);
            }
            CmEvent left;
            while ((left = channel.pollEvent()) != null)
            {
                left.ack();
            }
        }
        out.put("end", "1");
        return out;
    }

    private static void step(final Map<String, String> out, final int n, final String step, final RdmaCmId id,
        final EventChannel channel) throws Exception
    {
        final String[] parts = step.split(",", -1);
        switch (parts[0])
        {
            case "resolve" -> call(out, n, "resolve", () -> id.resolveAddrinfo(text(parts[1]), text(parts[2]), hints(parts)));
            case "gai" ->
            {
                final AddrInfoResult result = RdmaGetAddrInfo.withDefaults().getaddrinfo(text(parts[1]), text(parts[2]), hints(parts));
                out.put(n + ".gai", Integer.toString(result.returnCode()));
                out.put(n + ".errno", result instanceof AddrInfoResult.ErrnoError e ? Integer.toString(e.errno()) : "0");
                if (result instanceof AddrInfoResult.Success success)
                {
                    list(out, n, success.entries());
                }
            }
            case "query" ->
            {
                final AtomicReference<List<RdmaAddrInfo>> taken = new AtomicReference<>();
                if (call(out, n, "query", () -> taken.set(id.queryAddrinfo())))
                {
                    list(out, n, taken.get());
                }
            }
            case "write" -> call(out, n, "write", () -> id.writeCmEvent(type(Integer.parseInt(parts[1])), Integer.parseInt(parts[2]),
                Long.parseUnsignedLong(parts[3], 16)));
            case "event" -> event(out, n, channel);
            case "bind" -> call(out, n, "bind", () -> id.bindAddr(InetAddress.getByName(parts[1])));
            case "busy" -> busy(out, n, id, step.substring("busy,".length()));
            default -> out.put(n + ".bad_step", "1");
        }
    }

    /** The event type of an {@code enum rdma_cm_event_type} value. */
    private static CmEventType type(final int value)
    {
        for (final CmEventType type : CmEventType.values())
        {
            if (type.value() == value)
            {
                return type;
            }
        }
        return null; // RDMA_CM_EVENT_INTERNAL (19) has no Java value: writeCmEvent refuses it as any non-USER event
    }

    private interface Call
    {
        void run() throws RdmaCmException, UnknownHostException;
    }

    private static boolean call(final Map<String, String> out, final int n, final String name, final Call call)
    {
        try
        {
            call.run();
            out.put(n + "." + name, "0");
            out.put(n + ".errno", "0");
            return true;
        }
        catch (final RdmaCmException ex)
        {
            out.put(n + "." + name, "-1");
            out.put(n + ".errno", Integer.toString(ex.errno()));
            return false;
        }
        catch (final UnknownHostException ex)
        {
            throw new AssertionError("a step's address is not numeric: " + ex.getMessage(), ex);
        }
    }

    /** poll(2) on the channel's fd, as the oracle does, then the event. */
    private static void event(final Map<String, String> out, final int n, final EventChannel channel) throws InterruptedException
    {
        final int ready;
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment pollfd = arena.allocate(8);
            pollfd.set(JAVA_INT, 0, channel.fd());
            pollfd.set(JAVA_SHORT, 4, Libc.POLLIN);
            ready = Libc.poll(new Libc.CallState(arena), pollfd, 1, READABLE_WAIT_MS);
        }
        out.put(n + ".readable", ready == 1 ? "1" : "0");
        if (ready != 1)
        {
            return;
        }
        final CmEvent event = channel.getEvent();
        out.put(n + ".event", "RDMA_CM_EVENT_" + event.type().name());
        out.put(n + ".status", Integer.toString(event.status()));
        if (event instanceof CmEvent.User user)
        {
            out.put(n + ".arg", "0x" + Long.toHexString(user.arg()));
        }
        event.ack();
    }

    /** The busy step: our own resolution pending on another thread, on a DNS query this side answers. */
    private static void busy(final Map<String, String> out, final int n, final RdmaCmId id, final String node) throws Exception
    {
        try (DatagramChannel dns = DatagramChannel.open(StandardProtocolFamily.INET);
            Selector selector = Selector.open())
        {
            dns.bind(new InetSocketAddress("127.0.0.1", 53)).configureBlocking(false).register(selector, SelectionKey.OP_READ);
            final CompletableFuture<Integer> first = CompletableFuture.supplyAsync(() ->
            {
                try
                {
                    id.resolveAddrinfo(node, null, null);
                    return 0;
                }
                catch (final RdmaCmException ex)
                {
                    return ex.errno();
                }
            });
            out.put(n + ".query_arrived", selector.select(DNS_WAIT_MS) > 0 ? "1" : "0");
            call(out, n, "second_resolve", () -> id.resolveAddrinfo(node, null, null));
            out.put(n + ".second_errno", out.remove(n + ".errno"));
            call(out, n, "query_while_pending", id::queryAddrinfo);
            out.put(n + ".query_errno", out.remove(n + ".errno"));
            while (!first.isDone())
            {
                selector.select(DNS_ANSWER_MS);
                selector.selectedKeys().clear();
                answerNxdomain(dns);
            }
            final int errno = first.get();
            out.put(n + ".first_resolve", errno == 0 ? "0" : "-1");
            out.put(n + ".first_errno", Integer.toString(errno));
        }
    }

    private static void answerNxdomain(final DatagramChannel dns) throws IOException
    {
        final ByteBuffer packet = ByteBuffer.allocate(512);
        SocketAddress from;
        while ((from = dns.receive(packet.clear())) != null)
        {
            packet.flip();
            if (packet.remaining() >= 12)
            {
                packet.put(2, (byte)(0x81 | (packet.get(2) & 0x01)));
                packet.put(3, (byte)0x83);
                dns.send(packet, from);
            }
        }
    }

    private static void list(final Map<String, String> out, final int n, final List<RdmaAddrInfo> entries)
    {
        for (int i = 0; i < entries.size(); i++)
        {
            final RdmaAddrInfo ai = entries.get(i);
            final String key = n + "." + i + ".";
            out.put(key + "flags", "0x" + Integer.toHexString(ai.flags()));
            out.put(key + "family", Integer.toString(ai.family()));
            out.put(key + "qp_type", Integer.toString(ai.qpType()));
            out.put(key + "port_space", "0x" + Integer.toHexString(ai.portSpace()));
            out.put(key + "src", sockaddr(ai.srcAddr()));
            out.put(key + "dst", sockaddr(ai.dstAddr()));
            out.put(key + "src_canonname", ai.srcCanonName() == null ? "-" : ai.srcCanonName());
            out.put(key + "dst_canonname", ai.dstCanonName() == null ? "-" : ai.dstCanonName());
            out.put(key + "route_len", Integer.toString(ai.route().length));
            out.put(key + "connect_len", Integer.toString(ai.connect().length));
        }
        out.put(n + ".entries", Integer.toString(entries.size()));
    }

    private static String sockaddr(final RdmaSockaddr address)
    {
        return switch (address)
        {
            case null -> "-";
            case Ipv4Sockaddr v4 -> (v4.address() >>> 24) + "." + (v4.address() >>> 16 & 0xff) + "." + (v4.address() >>> 8 & 0xff) + "." +
                (v4.address() & 0xff) + "#" + v4.port();
            case Ipv6Sockaddr v6 -> Ipv6Text.format(v6.address()) + "#" + v6.port() + "%" + v6.scopeId();
            default -> "family" + address.family();
        };
    }

    private static String text(final String field)
    {
        return field.equals("-") ? null : field;
    }

    private static RdmaAddrInfoHints hints(final String[] parts)
    {
        return parts[3].equals("-") ? null :
            RdmaAddrInfoHints.NONE.withFlags(Integer.parseInt(parts[3], 16)).withFamily(Integer.parseInt(parts[4]));
    }
}
