package dev.rdmacm.cm;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.loop.NanoClock;
import dev.rdmacm.netlink.testing.NamespaceTopology;
import dev.rdmacm.resolver.AddressResolution;
import dev.rdmacm.resolver.ResolvedRoute;
import dev.rdmacm.resolver.testing.RecordedGids;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.ref.WeakReference;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A synchronous {@code rdma_resolve_addr} that needs no waiting runs to its end on the caller's thread
 * ({@link CallerResolution}), against the real kernel in the namespaces of {@link NamespaceTopology}:
 * where it runs is seen by the resolution's own transition, the rest is what the conductor's way gives.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CallerResolutionNamespaceTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    /** Calls made for one that runs on the caller's thread (the others went the conductor's way, rightly). */
    private static final int ATTEMPTS = 5;
    /** A port no other test of this class binds. */
    private static final int RACED_PORT = 47_111;
    /** Another, for the routes compared. */
    private static final int ROUTED_PORT = 47_112;

    private static NamespaceTopology topology;
    private static RdmaCm cm;
    private static InetAddress valid;
    /** The thread each resolution ended on, as its transition to RESOLVED was made. */
    private static final List<Thread> resolvedOn = new CopyOnWriteArrayList<>();
    /** The same for each route. */
    private static final List<Thread> routedOn = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() throws Exception
    {
        topology = NamespaceTopology.create();
        cm = RdmaCm.open(RdmaCm.Options.builder().networkNamespace(topology.hostPath()).gids(RecordedGids.softRoce())
            .build(), NanoClock.SYSTEM, (p, from, to, now) ->
        {
            if (to == PendingResolution.State.RESOLVED)
            {
                resolvedOn.add(Thread.currentThread());
            }
        }, (r, from, to, now) ->
        {
            if (to == PendingRoute.State.RESOLVED)
            {
                routedOn.add(Thread.currentThread());
            }
        });
        // not the kernel's 64: a caller's thread, outside the namespace, must read the namespace's sysctl
        topology.sysctl(topology.host, "net.ipv4.ip_default_ttl", "59");
        topology.ip(topology.host, "neigh", "replace", "192.0.2.2", "lladdr", "02:00:00:00:00:b0", "dev",
            NamespaceTopology.RDMA_NETDEV, "nud", "permanent");
        valid = InetAddress.getByName("192.0.2.2");
        // the first resolution fills the conductor's mirror and opens the hop limit's sysctl in the namespace;
        // the first route asks ACM first, as librdmacm does, and finds no service: no route asks it again
        try (RdmaCmId first = cm.createId(null))
        {
            first.resolveAddr(null, valid, TIMEOUT);
            first.resolveRoute(TIMEOUT);
        }
    }

    @AfterAll
    static void stop()
    {
        if (cm != null)
        {
            cm.close();
        }
        if (topology != null)
        {
            topology.close();
        }
    }

    /**
     * A call rightly goes the conductor's way while the conductor reads a notification of the namespace's (the
     * mirror's generation odd: a neighbour's state moving, say), or behind a command of this thread still queued when
     * its spin ends: the call is made again, a few times at most, until one ran here.
     */
    @Test
    void shouldFinishAResolutionThatNeedsNoWaitingOnTheCallersThread() throws Exception
    {
        try (EventChannel channel = cm.createEventChannel();
             RdmaCmId id = resolvedOnTheCallersThread(channel))
        {
            assertEquals(List.of(Thread.currentThread()), resolvedOn, "resolved on the caller's thread");
            assertEquals(CmIdState.ADDR_RESOLVED, id.state());
            final CmEvent event = channel.getEvent(Duration.ofSeconds(10));
            event.ack();
            assertEquals(CmEventType.ADDR_RESOLVED, event.type());
            final AddressResolution resolution = ((CmEvent.AddrResolved)event).resolution();
            assertEquals(resolution, id.resolution());
            assertEquals(59, resolution.hopLimit(), "the namespace's ip_default_ttl, not the caller's");
            assertNotEquals(0, id.sourcePort(), "auto-bound to a port");
        }
    }

    /** An id on {@code channel} resolved on this thread, at the first of {@link #ATTEMPTS} tries that was; else the last. */
    private static RdmaCmId resolvedOnTheCallersThread(final EventChannel channel) throws Exception
    {
        for (int attempt = 1; ; attempt++)
        {
            resolvedOn.clear();
            final RdmaCmId id = cm.createId(channel);
            id.resolveAddr(null, valid, TIMEOUT);
            if (resolvedOn.equals(List.of(Thread.currentThread())) || attempt == ATTEMPTS)
            {
                return id;
            }
            channel.getEvent(Duration.ofSeconds(10)).ack();
            id.close();
        }
    }

    /**
     * Each id a caller resolves and destroys itself hands the loop two things without waking it (its adoption, its
     * forgetting). With nothing else to wake it, the loop must still take them, or they keep every such id: 306,000
     * of them after 8 s of this loop, until some other work came. It ends once all but fewer than the limit of
     * hand-overs made without a wake-up are gone; before the limit it waited for the class's timeout.
     * <p>
     * The ids counted are an unbroken run resolved on the caller's thread: a call may rightly go the conductor's way
     * (made while the conductor read a notification of the namespace's, or behind a command of this thread still
     * queued when its spin ended: once in 384 calls in a CI run), and that wakes the conductor, which then takes the
     * hand-overs before it whether or not the limit wakes it. So such a call starts the run again; a caller's path
     * that never finishes here fails on the class's timeout.
     */
    @Test
    void shouldNotKeepTheIdsThatCallersResolvedAndDestroyedThemselves() throws Exception
    {
        final List<WeakReference<RdmaCmId>> destroyed = new ArrayList<>();
        while (destroyed.size() < 3 * ConductorAgent.UNWOKEN_LIMIT)
        {
            resolvedOn.clear();
            try (RdmaCmId id = cm.createId(null))
            {
                id.resolveAddr(null, valid, TIMEOUT);
                if (resolvedOn.equals(List.of(Thread.currentThread())))
                {
                    destroyed.add(new WeakReference<>(id));
                }
                else
                {
                    destroyed.clear();
                }
            }
        }
        while (destroyed.stream().filter(id -> id.get() != null).count() >= ConductorAgent.UNWOKEN_LIMIT)
        {
            System.gc();
            Thread.sleep(10);
        }
    }

    /**
     * The caller reads the conductor's mirror under one stamp per attempt ({@code NetlinkMirror.readStamp}):
     * a neighbour the kernel changed just before the call, its RTM_NEWNEIGH perhaps still in the socket or
     * in the conductor's hands, is the one the resolution takes, each time, whichever thread finishes it (the
     * caller's, or the conductor's while the mirror is not whole).
     */
    @Test
    void shouldTakeTheNeighbourTheKernelChangedJustBefore() throws Exception
    {
        try
        {
            for (int round = 0; round < 20; round++)
            {
                final String lladdr = String.format("02:00:00:00:01:%02x", round);
                topology.ip(topology.host, "neigh", "replace", "192.0.2.2", "lladdr", lladdr, "dev",
                    NamespaceTopology.RDMA_NETDEV, "nud", "permanent");
                try (RdmaCmId id = cm.createId(null))
                {
                    id.resolveAddr(null, valid, TIMEOUT);

                    assertArrayEquals(new byte[] {2, 0, 0, 0, 1, (byte)round}, id.resolution().destinationHardwareAddress().toBytes(),
                        "round " + round);
                }
            }
        }
        finally
        {
            topology.ip(topology.host, "neigh", "replace", "192.0.2.2", "lladdr", "02:00:00:00:00:b0", "dev",
                NamespaceTopology.RDMA_NETDEV, "nud", "permanent");
        }
    }

    /**
     * The same, with the change's RTM_NEWNEIGH held in the mirror's socket every time, not just when the conductor
     * is slow to read it: the conductor is kept inside a command of the test's while the kernel changes the
     * neighbour and the caller resolves, so the mirror still holds the old address, valid, and its generation
     * has not moved. Only the attempt's stamp ({@code AddressResolver.mirrorStamp}: {@code NetlinkMirror.readStamp},
     * a poll of the events socket) tells the caller to ask the kernel; a stamp taken without that poll, or one kept
     * from an earlier attempt while the generation stays, takes the old address.
     */
    @Test
    void shouldTakeTheNeighbourTheKernelChangedWhileTheConductorHadNotReadTheChange() throws Exception
    {
        resolvedOn.clear();
        try (RdmaCmId warm = cm.createId(null); RdmaCmId id = cm.createId(null))
        {
            // an attempt before, under the stamp the generation still has: a stamp kept from it must not serve the next
            warm.resolveAddr(null, valid, TIMEOUT);
            try (HeldConductor held = HeldConductor.hold(cm))
            {
                topology.ip(topology.host, "neigh", "replace", "192.0.2.2", "lladdr", "02:00:00:00:02:01", "dev",
                    NamespaceTopology.RDMA_NETDEV, "nud", "permanent");

                id.resolveAddr(null, valid, TIMEOUT);

                assertEquals(List.of(Thread.currentThread(), Thread.currentThread()), resolvedOn,
                    "both resolved on the caller's thread, the second while the conductor was held");
                assertArrayEquals(new byte[] {2, 0, 0, 0, 2, 1}, id.resolution().destinationHardwareAddress().toBytes());
            }
        }
        finally
        {
            topology.ip(topology.host, "neigh", "replace", "192.0.2.2", "lladdr", "02:00:00:00:00:b0", "dev",
                NamespaceTopology.RDMA_NETDEV, "nud", "permanent");
        }
    }

    /**
     * The RoCE route built on the caller's thread is the one the conductor builds: an {@link RdmaCm} with a
     * state listener resolves on the conductor (the listener sees every change on its thread).
     */
    @Test
    void shouldBuildOnTheCallersThreadTheRoceRouteTheConductorBuilds() throws Exception
    {
        // one source port for both: a RoCE v2 path's flow label comes from the ports
        final InetSocketAddress source = new InetSocketAddress(InetAddress.getByName("0.0.0.0"), ROUTED_PORT);
        final InetSocketAddress destination = new InetSocketAddress(valid, 7471);
        routedOn.clear();
        final ResolvedRoute ours;
        try (EventChannel channel = cm.createEventChannel();
             RdmaCmId id = cm.createId(channel))
        {
            id.resolveAddr(source, destination, TIMEOUT);
            channel.getEvent(Duration.ofSeconds(10)).ack();
            id.resolveRoute(TIMEOUT);
            assertEquals(List.of(Thread.currentThread()), routedOn, "routed on the caller's thread");
            assertEquals(CmIdState.ROUTE_RESOLVED, id.state());
            final CmEvent event = channel.getEvent(Duration.ofSeconds(10));
            event.ack();
            assertEquals(CmEventType.ROUTE_RESOLVED, event.type());
            ours = id.route();
            assertEquals(ours, ((CmEvent.RouteResolved)event).route());
        }
        final List<String> conductorTransitions = new CopyOnWriteArrayList<>();
        try (RdmaCm onConductor = RdmaCm.open(RdmaCm.Options.builder().networkNamespace(topology.hostPath())
                .gids(RecordedGids.softRoce()).listener((id, from, to, reason) -> conductorTransitions.add(to.name()))
                .build());
             RdmaCmId id = onConductor.createId(null))
        {
            id.resolveAddr(source, destination, TIMEOUT);
            id.resolveRoute(TIMEOUT);
            assertEquals(List.of("ADDR_BOUND", "ADDR_QUERY", "ADDR_RESOLVED", "ROUTE_QUERY", "ROUTE_RESOLVED"),
                conductorTransitions);
            assertEquals(ours.kind(), id.route().kind());
            assertArrayEquals(ours.primary().toPathData(), id.route().primary().toPathData());
        }
    }

    @Test
    void shouldLeaveACallBehindAnUnfinishedCommandOfItsIdToTheConductor() throws Exception
    {
        try (RdmaCmId id = cm.createId(null))
        {
            final CompletableFuture<AddressResolution> first = id.resolveAddrAsync(null, valid, TIMEOUT);
            // queued after the first, in this thread's order, whatever the conductor has done by now
            final RdmaCmException second = assertThrows(RdmaCmException.class, () -> id.resolveAddr(null, valid, TIMEOUT));
            assertEquals(Errno.EINVAL, second.errno());
            assertTrue(second.returnedByCall());
            assertEquals(valid, first.get(10, TimeUnit.SECONDS).destination());
        }
    }

    @Test
    void shouldReleaseThePortOfAnIdDestroyedWhileItsCallerResolves() throws Exception
    {
        final InetSocketAddress source = new InetSocketAddress(InetAddress.getByName("0.0.0.0"), RACED_PORT);
        final InetSocketAddress destination = new InetSocketAddress(valid, 0);
        for (int round = 0; round < 200; round++)
        {
            final RdmaCmId id = cm.createId(null);
            final CyclicBarrier go = new CyclicBarrier(2);
            final CompletableFuture<Void> destroyed = CompletableFuture.runAsync(() ->
            {
                await(go);
                id.destroy();
            });
            await(go);
            try
            {
                id.resolveAddr(source, destination, TIMEOUT);
            }
            catch (final RdmaCmException lost)
            {
                assertEquals(Errno.EINVAL, lost.errno(), "only a destroyed id refuses: " + lost.getMessage());
            }
            destroyed.get(10, TimeUnit.SECONDS);
            // the destroy was queued before this bind: the port is free again, whoever won
            try (RdmaCmId next = cm.createId(null))
            {
                next.bindAddr(source);
            }
        }
    }

    private static void await(final CyclicBarrier barrier)
    {
        try
        {
            barrier.await(10, TimeUnit.SECONDS);
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
