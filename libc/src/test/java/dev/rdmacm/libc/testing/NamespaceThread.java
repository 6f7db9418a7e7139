package dev.rdmacm.libc.testing;

import dev.rdmacm.libc.NetworkNamespace;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * One platform thread that entered a network namespace with setns(2); code submitted to it opens its
 * sockets inside that namespace. The test JVM's other threads stay where they were.
 */
public final class NamespaceThread implements AutoCloseable
{
    private final ExecutorService executor;

    public NamespaceThread(final Path namespace)
    {
        executor = Executors.newSingleThreadExecutor(runnable -> new Thread(() ->
        {
            try
            {
                NetworkNamespace.enter(namespace);
            }
            catch (final Exception ex)
            {
                throw new IllegalStateException("cannot enter " + namespace + ": " + ex.getMessage(), ex);
            }
            runnable.run();
        }, "netns-" + namespace.getFileName()));
    }

    public <T> T call(final Callable<T> task) throws Exception
    {
        try
        {
            return executor.submit(task).get(60, TimeUnit.SECONDS);
        }
        catch (final ExecutionException ex)
        {
            if (ex.getCause() instanceof Exception cause)
            {
                throw cause;
            }
            throw ex;
        }
    }

    @Override
    public void close()
    {
        executor.shutdownNow();
        try
        {
            executor.awaitTermination(10, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
