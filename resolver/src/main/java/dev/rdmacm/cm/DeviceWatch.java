package dev.rdmacm.cm;

import dev.rdmacm.libc.ErrnoException;
import dev.rdmacm.loop.FdWait;
import dev.rdmacm.netlink.UeventSocket;

import java.util.function.Consumer;

/**
 * Learns that an RDMA device went away, as the kernel CM's {@code cma_remove_one} does, from the
 * kernel's uevents ({@code remove} of subsystem infiniband): 6.1 sends no RDMA netlink device
 * notification. A thread of its own, so the resolver's loop keeps its one watched descriptor; it waits
 * in poll(2) and does nothing until an event or {@link #close}.
 * <p>
 * Without uevents (a kernel without them, or a socket the process may not open) there is no watch,
 * and ids on a removed device get no DEVICE_REMOVAL; {@link #start} says so by returning null.
 */
final class DeviceWatch implements AutoCloseable
{
    private static final System.Logger LOG = System.getLogger(DeviceWatch.class.getName());

    private final UeventSocket uevents;
    private final FdWait wait;
    private final Thread thread;
    private volatile boolean closing;

    private DeviceWatch(final UeventSocket uevents, final FdWait wait, final Consumer<String> removed)
    {
        this.uevents = uevents;
        this.wait = wait;
        this.thread = Thread.ofPlatform().daemon().name("rdmacm-device-watch").unstarted(() -> run(removed));
    }

    /** Watches in the calling thread's network namespace; {@code removed} gets each removed device's name. */
    static DeviceWatch start(final Consumer<String> removed)
    {
        final UeventSocket uevents;
        try
        {
            uevents = UeventSocket.open();
        }
        catch (final ErrnoException ex)
        {
            LOG.log(System.Logger.Level.WARNING, "no RDMA device watch (DEVICE_REMOVAL): " + ex.getMessage());
            return null;
        }
        final FdWait wait;
        try
        {
            wait = new FdWait(uevents.fd());
        }
        catch (final RuntimeException ex)
        {
            uevents.close();
            throw ex;
        }
        final DeviceWatch watch = new DeviceWatch(uevents, wait, removed);
        watch.thread.start();
        return watch;
    }

    private void run(final Consumer<String> removed)
    {
        try
        {
            while (!closing)
            {
                if (wait.await(Long.MAX_VALUE))
                {
                    uevents.drain(event ->
                    {
                        final String device = event.removedRdmaDevice();
                        if (device != null)
                        {
                            removed.accept(device);
                        }
                    });
                }
            }
        }
        catch (final RuntimeException ex)
        {
            LOG.log(System.Logger.Level.ERROR, "RDMA device watch stopped: " + ex.getMessage(), ex);
        }
    }

    /** Stops the thread and closes the socket. */
    @Override
    public void close()
    {
        closing = true;
        wait.wakeUp();
        try
        {
            thread.join();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        finally
        {
            wait.close();
            uevents.close();
        }
    }
}
