package dev.rdmacm.libc.testing;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * A task on a new thread of its own, after a change that holds for the calling thread alone (its uid, its
 * capabilities, its network namespace), so that the test's other threads keep theirs. The task's
 * exception is the call's.
 */
final class ThreadOfItsOwn
{
    /** What the new thread does to itself before the task. */
    interface Setup
    {
        void apply() throws Throwable;
    }

    private ThreadOfItsOwn()
    {
    }

    static <T> T call(final String name, final Setup setup, final Callable<T> task) throws Exception
    {
        final CompletableFuture<T> result = new CompletableFuture<>();
        final Thread thread = new Thread(() ->
        {
            try
            {
                setup.apply();
                result.complete(task.call());
            }
            catch (final Throwable ex)
            {
                result.completeExceptionally(ex);
            }
        }, name);
        thread.start();
        thread.join();
        try
        {
            return result.get();
        }
        catch (final ExecutionException ex)
        {
            throw ex.getCause() instanceof Exception cause ? cause : ex;
        }
    }
}
