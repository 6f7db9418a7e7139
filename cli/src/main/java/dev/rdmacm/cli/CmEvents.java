package dev.rdmacm.cli;

import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.resolver.ResolutionStep;

import java.time.Duration;
import java.util.List;

/**
 * How the commands take events: the next event of a channel, acknowledged, and what the CLI reads of an
 * event beyond its {@code type()}, {@code status()} and {@code id()} (the id holds the resolution and
 * the route): the trace of a resolution event and the detail of a failure, read by pattern over the
 * sealed {@code CmEvent}.
 */
final class CmEvents
{
    /** Every resolution ends by its own deadline; this much longer only guards against a lost event. */
    private static final long LOST_EVENT_MARGIN_MS = 10_000;

    private CmEvents()
    {
    }

    /** The next event of {@code channel}, acknowledged; a lost event (none within the timeout and the margin) is a bug. */
    static CmEvent next(final EventChannel channel, final long timeoutMs) throws InterruptedException
    {
        final CmEvent event = channel.getEvent(Duration.ofMillis(timeoutMs + LOST_EVENT_MARGIN_MS));
        if (event == null)
        {
            throw new IllegalStateException("no event within " + (timeoutMs + LOST_EVENT_MARGIN_MS) + " ms");
        }
        event.ack();
        return event;
    }

    /** The steps of the resolution that produced {@code event}. */
    static List<ResolutionStep> steps(final CmEvent event)
    {
        return event instanceof CmEvent.ResolutionEvent resolution && resolution.trace() != null ?
            resolution.trace().steps() : List.of();
    }

    /** What failed, for the message of a failure event's error (its type and status are fields of their own). */
    static String message(final CmEvent event)
    {
        final String detail = switch (event)
        {
            case CmEvent.AddrError error -> error.detail();
            case CmEvent.RouteError error -> error.detail();
            default -> null;
        };
        return detail == null ? event.toString() : detail;
    }
}
