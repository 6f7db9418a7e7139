package dev.rdmacm.cm;

import dev.rdmacm.netlink.testing.NamespaceTopology;
import dev.rdmacm.resolver.testing.RecordedGids;
import dev.rdmacm.testing.OpenDescriptors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The public API from 8 threads at once (issue 30, defect 8), against the real kernel's routes and
 * neighbours in the namespaces of {@link NamespaceTopology}: random creates, binds, listens, address and
 * route resolutions (to a permanent neighbour, to ones ARP must find, to a silent next hop, to unreachable
 * and prohibited nets) and destroys, many of them while a resolution is in flight, with events taken from
 * a shared channel, from each thread's own and through synchronous ids. The seed is printed; set
 * {@code -Drdmacm.concurrency.seed=N} to replay a run. Afterwards:
 * <ul>
 *   <li>no event of an id was handed out after its {@code destroy()} had returned;</li>
 *   <li>every failure was an {@link RdmaCmException}, never another exception;</li>
 *   <li>once the {@code RdmaCm} is closed, its threads and file descriptors are back to what they were
 *   before it opened.</li>
 * </ul>
 * Destroy during a connection needs a second host with a CM: the guests' tests do that
 * (conformance's connection cases).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConcurrentApiNamespaceTest
{
    private static final int THREADS = 8;
    private static final int OPERATIONS_PER_THREAD = 400;
    /** Ids a thread keeps alive at most: enough for destroys to meet resolutions in flight. */
    private static final int LIVE_IDS_PER_THREAD = 12;
    private static final Duration EVENT_WAIT = Duration.ofMillis(2);

    private static NamespaceTopology topology;
    private static List<InetAddress> destinations;

    @BeforeAll
    static void start() throws Exception
    {
        topology = NamespaceTopology.create();
        topology.ip(topology.host, "neigh", "replace", "192.0.2.2", "lladdr", "02:00:00:00:00:02", "dev",
            NamespaceTopology.RDMA_NETDEV, "nud", "permanent");
        destinations = Stream.of("192.0.2.2", "192.0.2.11", "192.0.2.12", "192.0.2.13", "10.3.0.2", "2001:db8::2",
            "10.4.0.9", "198.18.1.1", "203.0.113.1", "127.0.0.1").map(InetAddress::ofLiteral).toList();
    }

    @AfterAll
    static void stop()
    {
        if (topology != null)
        {
            topology.close();
        }
    }

    @Test
    void shouldHandOutNoEventAfterDestroyAndLeaveNothingBehindUnderEightThreads() throws Exception
    {
        final long seed = Long.getLong("rdmacm.concurrency.seed", System.nanoTime());
        System.out.println("ConcurrentApiNamespaceTest seed " + seed + " (-Drdmacm.concurrency.seed=" + seed + " replays it)");
        final TreeSet<String> threadsBefore = CmThreads.now();
        final OpenDescriptors descriptorsBefore = OpenDescriptors.now();

        final Run run = new Run();
        try (RdmaCm cm = RdmaCm.open(RdmaCm.Options.builder().networkNamespace(topology.hostPath())
            .gids(RecordedGids.softRoce()).build()))
        {
            final EventChannel shared = cm.createEventChannel();
            final Thread sharedReader = Thread.ofPlatform().name("shared-channel-reader").start(() -> run.drain(shared));
            final CountDownLatch done = new CountDownLatch(THREADS);
            final List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++)
            {
                final SplittableRandom random = new SplittableRandom(seed + t);
                workers.add(Thread.ofPlatform().name("api-worker-" + t).start(() ->
                {
                    try
                    {
                        run.work(cm, shared, random);
                    }
                    catch (final Throwable ex)
                    {
                        run.unexpected.add(Thread.currentThread().getName() + ": " + ex);
                    }
                    finally
                    {
                        done.countDown();
                    }
                }));
            }
            assertTrue(done.await(90, TimeUnit.SECONDS), "the 8 workers finished within 90 s (seed " + seed + ")");
            run.stopped.set(true);
            sharedReader.join(TimeUnit.SECONDS.toMillis(10));
            shared.close();
        }

        assertEquals(List.of(), run.unexpected, "failures other than RdmaCmException (seed " + seed + ")");
        assertEquals(List.of(), run.eventsAfterDestroy, "events handed out after destroy() had returned (seed " + seed + ")");
        assertTrue(run.events.get() > 0 && run.destroysInFlight.get() > 0,
            "the run took events (" + run.events + ") and destroyed ids with a resolution in flight (" + run.destroysInFlight + ")");
        System.out.println("ConcurrentApiNamespaceTest: " + run.operations + " operations, " + run.events + " events, " +
            run.destroysInFlight + " destroys during a resolution, " + run.refusals + " calls refused with an errno");
        assertEquals(threadsBefore, CmThreads.now(), "the RdmaCm's threads are gone after close");
        assertEquals(List.of(), OpenDescriptors.openedSince(descriptorsBefore), "file descriptors left open after close (seed "
            + seed + ")");
    }

    /** The state every worker shares: the invariants' records and the counters the test prints. */
    private static final class Run
    {
        final AtomicBoolean stopped = new AtomicBoolean();
        final AtomicLong clock = new AtomicLong();
        /** The clock's value when an id's destroy() returned: an event taken after that is a violation. */
        final Map<RdmaCmId, Long> destroyedAt = new ConcurrentHashMap<>();
        final List<String> unexpected = new CopyOnWriteArrayList<>();
        final List<String> eventsAfterDestroy = new CopyOnWriteArrayList<>();
        final AtomicLong operations = new AtomicLong();
        final AtomicLong events = new AtomicLong();
        final AtomicLong destroysInFlight = new AtomicLong();
        final AtomicLong refusals = new AtomicLong();

        void work(final RdmaCm cm, final EventChannel shared, final SplittableRandom random) throws Exception
        {
            final List<RdmaCmId> live = new ArrayList<>();
            try (EventChannel own = cm.createEventChannel())
            {
                for (int i = 0; i < OPERATIONS_PER_THREAD; i++)
                {
                    operations.incrementAndGet();
                    final int choice = random.nextInt(100);
                    try
                    {
                        if (live.isEmpty() || choice < 20)
                        {
                            if (live.size() >= LIVE_IDS_PER_THREAD)
                            {
                                destroy(live.remove(0));
                            }
                            final int kind = random.nextInt(3);
                            live.add(cm.createId(kind == 0 ? shared : kind == 1 ? own : null));
                        }
                        else
                        {
                            act(live, random, choice);
                        }
                    }
                    catch (final RdmaCmException ex)
                    {
                        refusals.incrementAndGet();
                    }
                    take(own, EVENT_WAIT);
                }
                live.forEach(this::destroy);
                while (take(own, EVENT_WAIT))
                {
                    // the last events of the thread's ids: taken and acknowledged before the channel closes
                }
            }
        }

        private void act(final List<RdmaCmId> live, final SplittableRandom random, final int choice) throws Exception
        {
            final RdmaCmId id = live.get(random.nextInt(live.size()));
            final InetAddress destination = destinations.get(random.nextInt(destinations.size()));
            final Duration timeout = Duration.ofMillis(50 + random.nextInt(400));
            if (choice < 45)
            {
                if (id.channel() == null)
                {
                    // a synchronous id waits for its outcome: only destinations that end quickly
                    id.resolveAddr(null, destinations.get(random.nextInt(3)), timeout);
                }
                else
                {
                    id.resolveAddrAsync(null, destination, timeout);
                }
            }
            else if (choice < 60)
            {
                if (id.channel() != null || id.state() == CmIdState.ADDR_RESOLVED)
                {
                    id.resolveRouteAsync(timeout);
                }
            }
            else if (choice < 70)
            {
                id.bindAddr(new InetSocketAddress(InetAddress.ofLiteral(random.nextBoolean() ? "0.0.0.0" : "::"), 0));
            }
            else if (choice < 75)
            {
                if (id.channel() != null)
                {
                    id.listen(random.nextInt(4));
                }
            }
            else
            {
                live.remove(id);
                if (id.state() == CmIdState.ADDR_QUERY || id.state() == CmIdState.ROUTE_QUERY)
                {
                    destroysInFlight.incrementAndGet();
                }
                destroy(id);
            }
        }

        private void destroy(final RdmaCmId id)
        {
            id.destroy();
            destroyedAt.put(id, clock.incrementAndGet());
        }

        /** Takes one event if one comes within {@code wait}, checks it against the destroys, acknowledges it. */
        private boolean take(final EventChannel channel, final Duration wait) throws InterruptedException
        {
            final long before = clock.get();
            final CmEvent event = channel.getEvent(wait);
            if (event == null)
            {
                return false;
            }
            events.incrementAndGet();
            final Long destroyed = destroyedAt.get(event.id());
            if (destroyed != null && destroyed <= before)
            {
                eventsAfterDestroy.add(event + " of " + event.id() + ", destroyed at " + destroyed + ", taken after " + before);
            }
            event.ack();
            return true;
        }

        void drain(final EventChannel shared)
        {
            try
            {
                while (!stopped.get())
                {
                    take(shared, Duration.ofMillis(20));
                }
                while (take(shared, EVENT_WAIT))
                {
                    // what came before the workers' last destroys
                }
            }
            catch (final Throwable ex)
            {
                unexpected.add("shared-channel-reader: " + ex);
            }
        }
    }
}
