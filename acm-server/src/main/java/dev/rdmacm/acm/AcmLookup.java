package dev.rdmacm.acm;

import dev.rdmacm.loop.DeadlineTimers;

import java.util.ArrayDeque;

/**
 * What a route and an address-cache entry share: a state in the style of Aeron's Election (every
 * change through {@link #transition}, which the service traces), the requests waiting for the
 * lookup, its expiry, its deadline (a timer in the service's {@link DeadlineTimers} while a query is
 * out), and a generation that is bumped on every query so that a
 * completion arriving after a timeout is recognised and dropped.
 */
abstract class AcmLookup<S extends Enum<S>>
{
    final ArrayDeque<AcmPendingRequest> waiters = new ArrayDeque<>();
    private S state;
    long expiresAtNs;
    long deadlineNs;
    long timerId = DeadlineTimers.NULL_TIMER;
    long generation;

    AcmLookup(final S initial)
    {
        this.state = initial;
    }

    final S state()
    {
        return state;
    }

    /** The one place the state changes; returns the previous one for the trace. */
    final S transition(final S next)
    {
        final S previous = state;
        state = next;
        return previous;
    }

    /** What the trace calls this lookup, e.g. {@code route 1->fe80::a} or {@code address 10.0.0.2}. */
    abstract String traceName();

    /** In {@code valid} and not yet expired at {@code nowNs}. */
    final boolean isValid(final S valid, final long nowNs)
    {
        return state == valid && nowNs < expiresAtNs;
    }
}
