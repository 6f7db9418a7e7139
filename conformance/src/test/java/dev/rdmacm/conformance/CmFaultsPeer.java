package dev.rdmacm.conformance;

import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.CmEventType;
import dev.rdmacm.cm.diagnostics.CmMadFilter;
import dev.rdmacm.cm.ConnectionParameters;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.protocol.cm.CmAttribute;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The userspace guest's side of the CM fault cases, three in one JVM (a guest JVM's start costs more
 * than the cases), each line of output prefixed by its case:
 * <ol>
 *   <li>{@code dup-req}: listen on OURS:LISTEN_PORT, and answer the kernel's REQ only after
 *       DELAY_SECONDS, longer than its REQ wait, so that its REQ comes again; every event during the
 *       delay is printed (a second CONNECT_REQUEST would be a second connection); then accept, and end
 *       when the kernel disconnects.</li>
 *   <li>{@code drep-lost-in}: connect to PEER:IN_PORT and disconnect, with every DREP received dropped
 *       (the {@link CmMadFilter}, the one thing no real peer does on demand): our DREQ's retries, then
 *       DISCONNECTED -110 and TIMEWAIT_EXIT.</li>
 *   <li>{@code drep-lost-out}: connect to PEER:OUT_PORT, whose server disconnects first, with every DREP
 *       we send dropped: the kernel's DREQ retries are on the REQ's response timeout and Max CM Retries.</li>
 * </ol>
 * The two DREP cases shorten the waits where a librdmacm user can ({@code rdma_set_ack_timeout}, which
 * shortens the path's packet lifetime) and where only this CM can ({@link RdmaCmId#setCmResponseTimeout}).
 * Prints {@code CASE cm FROM -> TO}, {@code CASE event TYPE status N} and {@code CASE dropped N}; exits 1
 * at the first event it did not expect. Usage: {@code CmFaultsPeer OURS PEER LISTEN_PORT DELAY_SECONDS
 * IN_PORT OUT_PORT}.
 */
public final class CmFaultsPeer
{
    /** What the DREP cases put in the REQ: 4.096 us * 2^16 = 268 ms per answer, 3 tries. */
    static final int RESPONSE_TIMEOUT = 16;
    static final int MAX_CM_RETRIES = 2;
    /** {@code rdma_set_ack_timeout}: the RoCE path's packet lifetime becomes 13 (33.5 ms). */
    static final int ACK_TIMEOUT = 14;
    private static final Duration RESOLVE = Duration.ofSeconds(2);
    private static final Duration ANSWER = Duration.ofSeconds(60);

    private static volatile String current = "";

    private CmFaultsPeer()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final InetAddress ours = InetAddress.getByName(args[0]);
        final InetAddress peer = InetAddress.getByName(args[1]);
        try (RdmaCm cm = RdmaCm.open(); EventChannel channel = cm.createEventChannel())
        {
            cm.connectionTransitions((localCommId, remoteCommId, from, to, now) -> System.out.println(current + " cm " + from + " -> " + to));
            current = "dup-req";
            answerAfterDelay(cm, channel, new InetSocketAddress(ours, Integer.parseInt(args[2])), Integer.parseInt(args[3]));
            current = "drep-lost-in";
            final AtomicInteger dropped = new AtomicInteger();
            cm.cmMadFilter(counting(CmMadFilter.Direction.RECEIVED, dropped));
            disconnectWithDrepsLost(cm, channel, new InetSocketAddress(peer, Integer.parseInt(args[4])), true);
            print("dropped " + dropped.getAndSet(0));
            current = "drep-lost-out";
            cm.cmMadFilter(counting(CmMadFilter.Direction.SENT, dropped));
            disconnectWithDrepsLost(cm, channel, new InetSocketAddress(peer, Integer.parseInt(args[5])), false);
            print("dropped " + dropped.get());
        }
    }

    private static void answerAfterDelay(final RdmaCm cm, final EventChannel channel, final InetSocketAddress address,
        final int delaySeconds) throws Exception
    {
        final RdmaCmId listener = cm.createId(channel);
        listener.bindAddr(address);
        listener.listen(1);
        System.err.println("listening");
        final CmEvent request = expect(channel, CmEventType.CONNECT_REQUEST);
        final RdmaCmId id = request.id();
        request.ack();
        final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(delaySeconds);
        for (long left; (left = until - System.nanoTime()) > 0; )
        {
            final CmEvent during = channel.getEvent(Duration.ofNanos(left));
            if (during != null)
            {
                print("event " + during.type() + " status " + during.status() + " during the delay");
                during.ack();
            }
        }
        try (RcEndpoint endpoint = RcEndpoint.on(id))
        {
            id.accept(ConnectionParameters.of(1, 1));
            expect(channel, CmEventType.ESTABLISHED).ack();
            expect(channel, CmEventType.DISCONNECTED).ack();
            id.disconnect();
        }
        id.destroy();
        listener.destroy();
    }

    private static void disconnectWithDrepsLost(final RdmaCm cm, final EventChannel channel, final InetSocketAddress peer,
        final boolean weDisconnect) throws Exception
    {
        final RdmaCmId id = cm.createId(channel);
        id.setAckTimeout(ACK_TIMEOUT);
        id.setCmResponseTimeout(RESPONSE_TIMEOUT, MAX_CM_RETRIES);
        id.resolveAddr(null, peer, RESOLVE);
        expect(channel, CmEventType.ADDR_RESOLVED).ack();
        id.resolveRoute(RESOLVE);
        expect(channel, CmEventType.ROUTE_RESOLVED).ack();
        try (RcEndpoint endpoint = RcEndpoint.on(id))
        {
            id.connect(ConnectionParameters.of(1, 1));
            expect(channel, CmEventType.ESTABLISHED).ack();
            if (weDisconnect)
            {
                id.disconnect();
                expect(channel, CmEventType.DISCONNECTED).ack();
            }
            else
            {
                expect(channel, CmEventType.DISCONNECTED).ack();
                id.disconnect();
            }
            expect(channel, CmEventType.TIMEWAIT_EXIT).ack();
        }
        id.destroy();
    }

    private static CmMadFilter counting(final CmMadFilter.Direction direction, final AtomicInteger dropped)
    {
        final CmMadFilter drops = CmMadFilter.dropping(direction, CmAttribute.DREP);
        return (way, attribute) ->
        {
            final boolean pass = drops.pass(way, attribute);
            if (!pass)
            {
                dropped.incrementAndGet();
            }
            return pass;
        };
    }

    private static CmEvent expect(final EventChannel channel, final CmEventType wanted) throws InterruptedException
    {
        final CmEvent event = channel.getEvent(ANSWER);
        print(event == null ? "no event" : "event " + event.type() + " status " + event.status());
        if (event == null || event.type() != wanted)
        {
            // not System.exit: the main may run in GuestMainDriver's JVM, which a main's exit would end; a main that throws exits with 1 too
            throw new IllegalStateException("expected " + wanted + ", got " + event);
        }
        return event;
    }

    private static void print(final String line)
    {
        System.out.println(current + " " + line);
    }
}
