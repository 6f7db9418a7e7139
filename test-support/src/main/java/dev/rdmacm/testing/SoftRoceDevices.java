package dev.rdmacm.testing;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fresh Soft-RoCE devices for a test that removes one under a live id (in a guest): each added with
 * {@code rdma link add rxeN type rxe netdev ...}, N counted from the test's own first number so that two
 * classes never reuse a name, and removed with {@code rdma link delete}, which returns only once every
 * process has let go of the device. {@link #close} removes what the test did not.
 */
public final class SoftRoceDevices implements AutoCloseable
{
    /** {@code rdma link delete} waits for every holder of the device. */
    private static final Duration COMMAND = Duration.ofSeconds(60);
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final AtomicInteger next;
    private final List<String> added = new CopyOnWriteArrayList<>();

    /**
     * @param firstNumber the N of the first device's name {@code rxeN}, one range per test class.
     */
    public SoftRoceDevices(final int firstNumber)
    {
        this.next = new AtomicInteger(firstNumber);
    }

    /** A fresh rxe device on {@code netdev}, removed by {@link #close} unless removed before. */
    public String add(final String netdev)
    {
        final String device = "rxe" + next.getAndIncrement();
        HostCommand.run(COMMAND, "rdma", "link", "add", device, "type", "rxe", "netdev", netdev).orFail("rdma link add " + device);
        added.add(device);
        return device;
    }

    /**
     * Starts {@code rdma link delete device}, for a test that must let go of the device while the command
     * waits for it; {@link Removal#await} takes its outcome.
     */
    public Removal remove(final String device)
    {
        return new Removal(device, CompletableFuture.supplyAsync(() -> HostCommand.run(COMMAND, "rdma", "link", "delete", device)));
    }

    /** {@code rdma link delete device}, once every holder has let go. */
    public void delete(final String device) throws InterruptedException
    {
        remove(device).await();
    }

    /** Whether {@code device} is one of this set's that is still there. */
    public boolean holds(final String device)
    {
        return added.contains(device);
    }

    /** Removes every device not removed yet, whatever holds it (a failed test's). */
    @Override
    public void close()
    {
        for (final String device : added)
        {
            HostCommand.run(COMMAND, "rdma", "link", "delete", device);
            added.remove(device);
        }
    }

    /** An {@code rdma link delete} under way. */
    public final class Removal
    {
        private final String device;
        private final CompletableFuture<HostCommand.Outcome> command;

        private Removal(final String device, final CompletableFuture<HostCommand.Outcome> command)
        {
            this.device = device;
            this.command = command;
        }

        /** Until the command has ended; a failure naming the device if it failed or outlived its limit. */
        public void await() throws InterruptedException
        {
            try
            {
                command.get(COMMAND.toSeconds() + 5, TimeUnit.SECONDS).orFail("rdma link delete " + device);
            }
            catch (final ExecutionException | TimeoutException ex)
            {
                throw new AssertionError("rdma link delete " + device + ": " + ex, ex);
            }
            added.remove(device);
        }
    }

    /**
     * Until {@code rdma resource show cm_id} lists an id of the kernel's on {@code device} in {@code state}
     * ({@code LISTEN}, {@code CONNECT}, ...), within 30 s; a failure with the listing and what {@code peer}, the
     * process that holds it, printed.
     */
    public static void awaitKernelId(final String device, final String state, final RunningPeer peer) throws InterruptedException
    {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        String ids;
        while (!(ids = HostCommand.run(COMMAND, "rdma", "resource", "show", "cm_id").orFail("rdma resource show cm_id").output()).lines()
            .anyMatch(line -> line.startsWith("link " + device + "/") && line.contains(" state " + state + " ")))
        {
            assertTrue(System.nanoTime() - deadline < 0, "no kernel id in " + state + " on " + device + " within " + WAIT + ":\n" + ids
                + "the peer printed:\n" + peer);
            Thread.sleep(20);
        }
    }

    /**
     * Until {@code rdma resource show cm_id} lists a kernel id in LISTEN in {@code portSpace} on {@code address} (the
     * wildcard for a peer that listens on every address) and {@code port}, a real peer's listener, within 30 s. The
     * port space counts: a kernel rping (TCP) on udaddy's port is not udaddy's (UDP) listener, and a wait that took
     * it for one let a SIDR REQ go before udaddy listened.
     */
    public static void awaitKernelListener(final KernelCmId.PortSpace portSpace, final InetAddress address, final int port)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        String ids;
        while (!listens(ids = HostCommand.run(COMMAND, "rdma", "resource", "show", "cm_id").orFail("rdma resource show cm_id").output(),
            portSpace, address, port))
        {
            assertTrue(System.nanoTime() - deadline < 0, "no kernel listener in " + portSpace + " on " + address.getHostAddress() + ":"
                + port + " within " + WAIT + ":\n" + ids);
            Thread.sleep(50);
        }
    }

    /** Whether {@code listing}, what {@code rdma resource show cm_id} printed, has that listener. */
    static boolean listens(final String listing, final KernelCmId.PortSpace portSpace, final InetAddress address, final int port)
    {
        return listing.lines().map(KernelCmId::parse).flatMap(Optional::stream)
            .anyMatch(id -> id.isListener(portSpace, address, port));
    }
}
