package dev.rdmacm.cm;

import dev.rdmacm.libc.NetworkNamespace;
import dev.rdmacm.loop.FdWait;
import dev.rdmacm.netlink.Link;
import dev.rdmacm.netlink.NetlinkSocket;
import dev.rdmacm.netlink.Rtnetlink;
import dev.rdmacm.protocol.netlink.NetlinkMessageHeader;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Learns that a bond changed its active slave, as the kernel CM's {@code cma_netdev_callback} does on
 * {@code NETDEV_BONDING_FAILOVER}: from rtnetlink's RTNLGRP_LINK, whose RTM_NEWLINK for that event
 * carries {@code IFLA_EVENT_BONDING_FAILOVER} and the bond's address after the failover
 * ({@code bond_change_active_slave} sets the MAC before it notifies). A thread of its own in the
 * resolver's network namespace (the kernel compares {@code dev_net} too), so the resolver's loop keeps
 * its sockets to itself; it waits in poll(2) and does nothing until an event or {@link #close}.
 * <p>
 * Without the socket there is no watch, and no id gets ADDR_CHANGE; {@link #start} says so by
 * returning null.
 */
final class BondFailoverWatch implements AutoCloseable
{
    private static final System.Logger LOG = System.getLogger(BondFailoverWatch.class.getName());
    private static final long START_LIMIT_SECONDS = 30;

    /** Told of each failover: the bond's ifindex, name and hardware address after it. */
    interface Listener
    {
        void failedOver(int ifindex, String bond, byte[] address);
    }

    private final Path namespace;
    private final Listener listener;
    private final Thread thread;
    private final CompletableFuture<FdWait> started = new CompletableFuture<>();
    private volatile boolean closing;

    private BondFailoverWatch(final Path namespace, final Listener listener)
    {
        this.namespace = namespace;
        this.listener = listener;
        this.thread = Thread.ofPlatform().daemon().name("rdmacm-bond-watch").unstarted(this::run);
    }

    /**
     * Watches in {@code namespace} (null: the caller's) once its socket is open; null, logged, when it
     * cannot be opened.
     */
    static BondFailoverWatch start(final Path namespace, final Listener listener)
    {
        final BondFailoverWatch watch = new BondFailoverWatch(namespace, listener);
        watch.thread.start();
        try
        {
            watch.started.get(START_LIMIT_SECONDS, TimeUnit.SECONDS);
            return watch;
        }
        catch (final ExecutionException | TimeoutException ex)
        {
            watch.close();
            final Throwable cause = ex instanceof ExecutionException ? ex.getCause() : ex;
            LOG.log(System.Logger.Level.WARNING, "no bonding failover watch (ADDR_CHANGE): " + cause.getMessage());
            return null;
        }
        catch (final InterruptedException ex)
        {
            watch.close();
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private void run()
    {
        NetlinkSocket socket = null;
        FdWait wait = null;
        try
        {
            if (namespace != null)
            {
                NetworkNamespace.enter(namespace);
            }
            socket = NetlinkSocket.open();
            socket.joinGroup(NetlinkSocket.RTNLGRP_LINK, "RTNLGRP_LINK");
            wait = new FdWait(socket.fd());
        }
        catch (final RuntimeException ex)
        {
            closeQuietly(wait, socket);
            started.completeExceptionally(ex);
            return;
        }
        started.complete(wait);
        final Rtnetlink decoder = new Rtnetlink(socket);
        try
        {
            while (!closing)
            {
                if (wait.await(Long.MAX_VALUE) && socket.drain((header, buffer, end) ->
                {
                    if (header.type() == NetlinkMessageHeader.RTM_NEWLINK)
                    {
                        final Link link = decoder.decodeLink(header, buffer, end);
                        if (link.isBondingFailover() && link.isBondMaster())
                        {
                            listener.failedOver(link.ifindex(), link.name(), link.address());
                        }
                    }
                }) < 0)
                {
                    LOG.log(System.Logger.Level.WARNING, "link events were dropped (ENOBUFS): a bonding failover " +
                        "among them is lost, and its ids get no ADDR_CHANGE");
                }
            }
        }
        catch (final RuntimeException ex)
        {
            LOG.log(System.Logger.Level.ERROR, "bonding failover watch stopped: " + ex.getMessage(), ex);
        }
        finally
        {
            socket.close();
        }
    }

    private static void closeQuietly(final FdWait wait, final NetlinkSocket socket)
    {
        try
        {
            if (wait != null)
            {
                wait.close();
            }
        }
        catch (final RuntimeException ex)
        {
            LOG.log(System.Logger.Level.WARNING, "closing the bonding watch's wake-up: " + ex.getMessage());
        }
        if (socket != null)
        {
            socket.close();
        }
    }

    /**
     * Stops the thread, which closes its socket, then frees the wake-up (FdWait may be closed only once
     * its waiter has stopped). The thread always settles {@link #started}, so waiting for it is short;
     * a wake-up sent before the thread polls stays pending in the eventfd.
     */
    @Override
    public void close()
    {
        closing = true;
        final FdWait wait = started.handle((w, failure) -> w).join();
        if (wait != null)
        {
            wait.wakeUp();
        }
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
            if (wait != null)
            {
                closeQuietly(wait, null);
            }
        }
    }
}
