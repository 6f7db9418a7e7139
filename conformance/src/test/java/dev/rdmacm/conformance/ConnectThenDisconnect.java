package dev.rdmacm.conformance;

import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.CmEventType;
import dev.rdmacm.cm.ConnectionParameters;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmId;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * The userspace guest's side of the MRA case, run as its own JVM there: connect to ADDR:PORT with an RC
 * QP, print every CM state change ({@code cm FROM -> TO}), every move of the QP with the thread that made
 * it ({@code qp FROM -> TO on THREAD}) and every RDMA CM event ({@code event TYPE status N}), disconnect
 * once ESTABLISHED. With {@code fail-rtr} the QP is moved to ERR before the connect, so the move to RTR
 * that CONNECT_RESPONSE asks of the thread that takes it fails: CONNECT_ERROR, and the id is destroyed
 * (its REJ ends the peer's side). Usage: {@code ConnectThenDisconnect ADDR PORT [fail-rtr]}.
 */
public final class ConnectThenDisconnect
{
    private static final Duration RESOLVE = Duration.ofSeconds(2);
    /** The REQ's 16 tries at 6144 ms, or an MRA's 65 s, bound the wait for the answer. */
    private static final Duration ANSWER = Duration.ofSeconds(120);

    private ConnectThenDisconnect()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        try (RdmaCm cm = RdmaCm.open(); EventChannel channel = cm.createEventChannel())
        {
            cm.connectionTransitions((localCommId, remoteCommId, from, to, now) -> System.out.println("cm " + from + " -> " + to));
            final RdmaCmId id = cm.createId(channel);
            id.resolveAddr(null, new InetSocketAddress(InetAddress.getByName(args[0]), Integer.parseInt(args[1])), RESOLVE);
            expect(channel, CmEventType.ADDR_RESOLVED);
            id.resolveRoute(RESOLVE);
            expect(channel, CmEventType.ROUTE_RESOLVED);
            final boolean failRtr = args.length > 2 && args[2].equals("fail-rtr");
            try (RcEndpoint endpoint = RcEndpoint.on(id, (qp, from, to, mask) ->
                System.out.println("qp " + from + " -> " + to + " on " + Thread.currentThread().getName())))
            {
                if (failRtr)
                {
                    endpoint.qp().error();
                }
                id.connect(ConnectionParameters.of(1, 1));
                if (failRtr)
                {
                    expect(channel, CmEventType.CONNECT_ERROR);
                }
                else
                {
                    expect(channel, CmEventType.ESTABLISHED);
                    id.disconnect();
                    expect(channel, CmEventType.DISCONNECTED);
                }
            }
            id.destroy();
        }
    }

    private static void expect(final EventChannel channel, final CmEventType wanted) throws InterruptedException
    {
        final CmEvent event = channel.getEvent(ANSWER);
        System.out.println(event == null ? "no event" : "event " + event.type() + " status " + event.status());
        if (event == null || event.type() != wanted)
        {
            // not System.exit: the main may run in GuestMainDriver's JVM, which a main's exit would end; a main that throws exits with 1 too
            throw new IllegalStateException("expected " + wanted + ", got " + event);
        }
        event.ack();
    }
}
