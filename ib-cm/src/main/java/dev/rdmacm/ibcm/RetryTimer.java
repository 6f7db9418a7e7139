package dev.rdmacm.ibcm;

import dev.rdmacm.loop.DeadlineTimers;

/**
 * A connection's one timer, and the message it re-sends when the timer fires: the part of the MAD layer
 * ib_cm leans on. ib_cm hands its REQ, REP, DREQ and SIDR_REQ to the MAD layer with a timeout and a retry
 * count, and the MAD layer sends the same bytes again each time the timeout passes without an answer; an
 * MRA stretches the wait ({@code ib_modify_mad}). TIMEWAIT uses the same timer with nothing to re-send.
 * Keeping this apart leaves {@link IbCmConnection}'s state methods to say only which message waits how
 * long, and what happens when the retries run out.
 */
final class RetryTimer
{
    private final IbCmEngine engine;
    private final IbCmConnection owner;
    private byte[] outstanding;
    private long waitMs;
    private int retriesLeft;
    private long timerId = DeadlineTimers.NULL_TIMER;

    RetryTimer(final IbCmEngine engine, final IbCmConnection owner)
    {
        this.engine = engine;
        this.owner = owner;
    }

    /** Sends the formatter's MAD to {@code peer} and keeps its bytes for {@code retries} re-sends, {@code waitMs} apart. */
    void sendAndWait(final IbCmPeerAddress peer, final long waitMs, final int retries)
    {
        outstanding = engine.formatter.copy();
        this.waitMs = waitMs;
        retriesLeft = retries;
        engine.sendBytes(peer, outstanding);
        schedule(waitMs);
    }

    /** True while a message waits for its answer. */
    boolean waiting()
    {
        return outstanding != null;
    }

    /** An MRA came: this wait and every retry's from now on are {@code waitMs}; the retries left stay as they were. */
    void extendWait(final long waitMs)
    {
        this.waitMs = waitMs;
        schedule(waitMs);
    }

    /** The timer fired: re-sends the outstanding message to {@code peer} while retries are left, else runs {@code exhausted}. */
    boolean retryOr(final IbCmPeerAddress peer, final Runnable exhausted)
    {
        if (outstanding == null)
        {
            return false;
        }
        if (retriesLeft > 0)
        {
            retriesLeft--;
            engine.sendBytes(peer, outstanding);
            schedule(waitMs);
            return true;
        }
        outstanding = null;
        exhausted.run();
        return true;
    }

    /** No answer is awaited any more, and the timer is off. */
    void cancel()
    {
        outstanding = null;
        timerId = engine.timers.cancel(timerId);
    }

    /** (Re)starts the timer {@code millis} from now, with or without a message to re-send (TIMEWAIT). */
    void schedule(final long millis)
    {
        timerId = engine.timers.reschedule(timerId, owner, engine.now() + millis * 1_000_000L);
    }

    /** True when {@code firedTimerId} is this timer (not one cancelled or rescheduled since); it is then off. */
    boolean fired(final long firedTimerId)
    {
        if (firedTimerId != timerId)
        {
            return false;
        }
        timerId = DeadlineTimers.NULL_TIMER;
        return true;
    }
}
