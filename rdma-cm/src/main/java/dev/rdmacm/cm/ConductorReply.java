package dev.rdmacm.cm;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * How an application thread waits for the conductor's answer to one of an id's commands, spinning
 * before it parks.
 */
final class ConductorReply
{
    private ConductorReply()
    {
    }

    /**
     * Waits for the reply: spinning first ({@link RdmaCm.Options#spin}), since the loop answers
     * most calls within microseconds and parking costs a scheduler wake-up on each side. The call's
     * {@link RdmaCmException}, or any other unchecked failure, is thrown as the conductor gave it.
     * Not interruptible: the conductor completes every future, so the call finishes first and the
     * interrupt is kept for after it.
     *
     * @param future    the command's reply.
     * @param spinNanos how long to spin before parking.
     * @param <T>       what the call returns.
     * @return the reply's value.
     * @throws RdmaCmException as the conductor failed the call.
     */
    static <T> T await(final CompletableFuture<T> future, final long spinNanos) throws RdmaCmException
    {
        // the clock only while spinning: a reply that is there, or no spin, reads none
        if (spinNanos > 0 && !future.isDone())
        {
            final long spinUntil = System.nanoTime() + spinNanos;
            while (!future.isDone() && System.nanoTime() - spinUntil < 0)
            {
                Thread.onSpinWait();
            }
        }
        boolean interrupted = false;
        try
        {
            while (true)
            {
                try
                {
                    return future.get();
                }
                catch (final InterruptedException ex)
                {
                    interrupted = true; // the conductor completes every future; finish the call first
                }
                catch (final ExecutionException ex)
                {
                    if (ex.getCause() instanceof RuntimeException failure)
                    {
                        throw failure;
                    }
                    throw new IllegalStateException(ex.getCause());
                }
            }
        }
        finally
        {
            if (interrupted)
            {
                Thread.currentThread().interrupt();
            }
        }
    }
}
