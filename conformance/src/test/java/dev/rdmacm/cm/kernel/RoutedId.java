package dev.rdmacm.cm.kernel;

import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.CmEventType;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCmId;

import java.net.InetSocketAddress;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Where the kernel guest's connection cases start: an id resolved to its destination, address then route
 * (2 s each, as rping asks), each event taken from the id's channel and checked ({@link #next}, which the cases
 * take their other events with too), so that the case goes on with {@code id.binding().device()} to open its
 * {@link VerbsEndpoint} on.
 */
final class RoutedId
{
    private static final Duration RESOLVE = Duration.ofSeconds(2);
    private static final Duration WAIT = Duration.ofSeconds(30);

    private RoutedId()
    {
    }

    /**
     * {@code id} resolved from {@code source} (null: the route's) to {@code destination}; {@code peer}, what
     * the case's peer printed so far, goes into a failure.
     */
    static RdmaCmId resolved(final RdmaCmId id, final EventChannel channel, final InetSocketAddress source,
        final InetSocketAddress destination, final Object peer) throws InterruptedException
    {
        id.resolveAddr(source, destination, RESOLVE);
        next(channel, CmEventType.ADDR_RESOLVED, peer);
        id.resolveRoute(RESOLVE);
        next(channel, CmEventType.ROUTE_RESOLVED, peer);
        return id;
    }

    /** The channel's next event within 30 s, acked, of type {@code expected}; {@code peer} goes into a failure. */
    static CmEvent next(final EventChannel channel, final CmEventType expected, final Object peer) throws InterruptedException
    {
        final CmEvent event = channel.getEvent(WAIT);
        assertNotNull(event, () -> "no " + expected + " within " + WAIT + "; the peer printed:\n" + peer);
        event.ack();
        assertEquals(expected, event.type(), () -> event + "; the peer printed:\n" + peer);
        return event;
    }
}
