package dev.rdmacm.loop;

/**
 * The monotonic nanosecond clock a loop measures its deadlines on. Injected, so that a state machine's
 * timing (timeouts, retries, neighbour deadlines, queue timeouts) is tested by moving a clock instead of
 * by sleeping and hoping the machine was not loaded.
 * <p>
 * Only differences between two readings mean anything, as with {@link System#nanoTime()}; compare with
 * {@code a - b < 0}, never {@code a < b}.
 */
@FunctionalInterface
public interface NanoClock
{
    /** {@link System#nanoTime()}: what every loop runs on outside tests. */
    NanoClock SYSTEM = System::nanoTime;

    long nanoTime();
}
