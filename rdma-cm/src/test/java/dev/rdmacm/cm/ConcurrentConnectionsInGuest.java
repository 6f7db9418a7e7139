package dev.rdmacm.cm;

import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.OpenDescriptors;
import dev.rdmacm.testing.Peers;
import dev.rdmacm.verbs.CompletionQueue;
import dev.rdmacm.verbs.ProtectionDomain;
import dev.rdmacm.verbs.QueuePairCapabilities;
import dev.rdmacm.verbs.RcQueuePair;
import dev.rdmacm.verbs.Verbs;
import dev.rdmacm.verbs.VerbsContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The public API from 8 threads with real connections (issue 30, defect 8, the guest half of
 * {@link ConcurrentApiNamespaceTest}), in the userspace-CM guest ({@code UserspaceGuestSuite}, the verbs
 * pair): a listener on {@code rxe11} (192.0.2.2) whose thread accepts every request on a QP of its own,
 * and 8 threads on {@code rxe10} (192.0.2.1), each with its own channel, that at random connect and
 * disconnect, destroy an id while its REQ is out, destroy one during its address or route resolution,
 * or bind and destroy. The seed is printed; {@code -Drdmacm.concurrency.seed=N} replays a run.
 * Afterwards:
 * <ul>
 *   <li>no event of an id was handed out after its {@code destroy()} had returned;</li>
 *   <li>every failure was an {@link RdmaCmException};</li>
 *   <li>{@code rdma resource} (pd, cq, qp, cm_id, mr) of both devices, this JVM's descriptors and the
 *   CM's threads are back to what they were before the {@code RdmaCm} opened.</li>
 * </ul>
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
public class ConcurrentConnectionsInGuest
{
    private static final String CLIENT_DEVICE = "rxe10";
    private static final String SERVER_DEVICE = "rxe11";
    private static final int PORT = 7520;
    private static final int THREADS = 8;
    private static final int OPERATIONS_PER_THREAD = 12;
    private static final Duration RESOLVE = Duration.ofSeconds(5);
    /** A bound on each wait, so that a lost event fails the test instead of hanging it; never asserted on. */
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** The clients' CM response timeout (4.096 us x 2^18, about 1.07 s) and Max CM Retries, which their REQs carry. */
    private static final int CM_RESPONSE_TIMEOUT = 18;
    private static final int CM_RETRIES = 4;
    private static final QueuePairCapabilities CAPABILITIES = new QueuePairCapabilities(1, 1, 1, 1, 0);
    /** The events that end a connection of the server's: its id is destroyed then. */
    private static final EnumSet<CmEventType> ENDS = EnumSet.of(CmEventType.DISCONNECTED, CmEventType.REJECTED,
        CmEventType.UNREACHABLE, CmEventType.CONNECT_ERROR, CmEventType.DEVICE_REMOVAL);

    @Test
    void shouldHandOutNoEventAfterDestroyAndLeaveNoResourceBehindUnderEightThreadsWithConnections() throws Exception
    {
        Peers.require(System.getenv("RDMACM_GUEST_SHARE") != null,
            "RDMACM_GUEST_SHARE: this class runs inside a KernelGuest (UserspaceGuestSuite)");
        final long seed = Long.getLong("rdmacm.concurrency.seed", System.nanoTime());
        System.out.println("ConcurrentConnectionsInGuest seed " + seed + " (-Drdmacm.concurrency.seed=" + seed + " replays it)");
        final Map<String, Map<String, String>> resourcesBefore = resources();
        final TreeSet<String> threadsBefore = CmThreads.now();
        final OpenDescriptors descriptorsBefore = OpenDescriptors.now();
        final Run run = new Run(InetAddress.getByName("192.0.2.1"), InetAddress.getByName("192.0.2.2"));

        try (RdmaCm cm = RdmaCm.open(); Side client = Side.on(CLIENT_DEVICE); Side server = Side.on(SERVER_DEVICE))
        {
            final EventChannel listening = cm.createEventChannel();
            final RdmaCmId listener = cm.createId(listening);
            listener.bindAddr(new InetSocketAddress(run.server, PORT));
            listener.listen(THREADS * 2);
            final Thread serverThread = Thread.ofPlatform().name("server").start(() -> run.serve(listening, server));
            final CountDownLatch done = new CountDownLatch(THREADS);
            for (int t = 0; t < THREADS; t++)
            {
                final SplittableRandom random = new SplittableRandom(seed + t);
                Thread.ofPlatform().name("api-worker-" + t).start(() ->
                {
                    try
                    {
                        run.work(cm, client, random);
                    }
                    catch (final Throwable ex)
                    {
                        run.unexpected.add(Thread.currentThread().getName() + ": " + ex);
                    }
                    finally
                    {
                        done.countDown();
                    }
                });
            }
            assertTrue(done.await(150, TimeUnit.SECONDS), "the 8 workers finished within 150 s (seed " + seed + ")");
            run.stopped.set(true);
            serverThread.join(2 * WAIT.toMillis());
            assertTrue(!serverThread.isAlive(), "the server's connections ended within " + WAIT.multipliedBy(2) + ": " + run.serverIds);
            listener.destroy();
            listening.close();
        }

        assertEquals(List.of(), run.unexpected, "failures other than RdmaCmException (seed " + seed + ")");
        assertEquals(List.of(), run.eventsAfterDestroy, "events handed out after destroy() had returned (seed " + seed + ")");
        System.out.println("ConcurrentConnectionsInGuest: " + run.counts + ", " + run.refusals + " calls refused with an errno");
        assertTrue(run.counts.getOrDefault("established", 0L) > 0 && run.counts.getOrDefault("destroy in connection", 0L) > 0
            && run.counts.getOrDefault("destroy in resolution", 0L) > 0, "the run connected, and destroyed ids in a connection "
            + "and in a resolution: " + run.counts);
        assertEquals(resourcesBefore, resources(), "rdma resource (seed " + seed + ")");
        assertEquals(threadsBefore, CmThreads.now(), "the RdmaCm's threads are gone after close");
        assertEquals(List.of(), OpenDescriptors.openedSince(descriptorsBefore), "file descriptors left open after close (seed " + seed
            + ")");
    }

    /** A device's context, protection domain and one completion queue, shared by the QPs of one side. */
    private record Side(VerbsContext context, ProtectionDomain pd, CompletionQueue cq) implements AutoCloseable
    {
        static Side on(final String device)
        {
            final VerbsContext context = Verbs.open(device);
            final ProtectionDomain pd = context.allocateProtectionDomain();
            return new Side(context, pd, context.createCompletionQueue(THREADS * 8, null));
        }

        RcQueuePair queuePair()
        {
            return pd.createRcQueuePair(cq, cq, CAPABILITIES);
        }

        @Override
        public void close()
        {
            cq.close();
            pd.close();
            context.close();
        }
    }

    /** What the threads share: the invariants' records and the counts the test prints. */
    private static final class Run
    {
        final InetAddress client;
        final InetAddress server;
        final AtomicBoolean stopped = new AtomicBoolean();
        final AtomicLong clock = new AtomicLong();
        final Map<RdmaCmId, Long> destroyedAt = new ConcurrentHashMap<>();
        final List<String> unexpected = new CopyOnWriteArrayList<>();
        final List<String> eventsAfterDestroy = new CopyOnWriteArrayList<>();
        final Map<String, Long> counts = new ConcurrentHashMap<>();
        final AtomicLong refusals = new AtomicLong();
        /** The server's live connections and their QPs; the server thread's alone. */
        final Map<RdmaCmId, RcQueuePair> serverIds = new HashMap<>();

        Run(final InetAddress client, final InetAddress server)
        {
            this.client = client;
            this.server = server;
        }

        void count(final String what)
        {
            counts.merge(what, 1L, Long::sum);
        }

        void work(final RdmaCm cm, final Side verbs, final SplittableRandom random) throws Exception
        {
            try (EventChannel own = cm.createEventChannel())
            {
                for (int i = 0; i < OPERATIONS_PER_THREAD; i++)
                {
                    final int choice = random.nextInt(100);
                    final RdmaCmId id = cm.createId(own);
                    RcQueuePair qp = null;
                    try
                    {
                        if (choice < 10)
                        {
                            id.bindAddr(new InetSocketAddress(client, 0));
                            count("bind");
                            continue;
                        }
                        id.resolveAddr(new InetSocketAddress(client, 0), new InetSocketAddress(server, PORT), RESOLVE);
                        if (choice < 20)
                        {
                            count("destroy in resolution");
                            continue;
                        }
                        if (!expect(own, id, CmEventType.ADDR_RESOLVED))
                        {
                            continue;
                        }
                        id.resolveRoute(RESOLVE);
                        if (choice < 30)
                        {
                            count("destroy in resolution");
                            continue;
                        }
                        if (!expect(own, id, CmEventType.ROUTE_RESOLVED))
                        {
                            continue;
                        }
                        qp = verbs.queuePair();
                        id.attachQp(qp);
                        // the REQ's timeouts bound the server's REP retries to a client that destroyed its id: ~5 s, not ~70
                        id.setCmResponseTimeout(CM_RESPONSE_TIMEOUT, CM_RETRIES);
                        id.connect(ConnectionParameters.of(1, 1));
                        if (choice < 50)
                        {
                            count("destroy in connection");
                            continue;
                        }
                        if (!expect(own, id, CmEventType.ESTABLISHED))
                        {
                            continue;
                        }
                        count("established");
                        id.disconnect();
                        expect(own, id, CmEventType.DISCONNECTED);
                    }
                    catch (final RdmaCmException ex)
                    {
                        refusals.incrementAndGet();
                    }
                    finally
                    {
                        destroy(id);
                        if (qp != null)
                        {
                            qp.close();
                        }
                    }
                }
                while (take(own, Duration.ofMillis(50)) != null)
                {
                    // what the destroyed ids left: taken and checked before the channel closes
                }
            }
        }

        /** The next event of {@code id} on {@code channel}; false (counted) when it is another type. */
        private boolean expect(final EventChannel channel, final RdmaCmId id, final CmEventType type) throws InterruptedException
        {
            final long deadline = System.nanoTime() + WAIT.toNanos();
            while (System.nanoTime() - deadline < 0)
            {
                final CmEvent event = take(channel, WAIT);
                if (event != null && event.id() == id)
                {
                    if (event.type() != type)
                    {
                        count(event.type() + " (status " + event.status() + ") instead of " + type);
                    }
                    return event.type() == type;
                }
            }
            unexpected.add("no " + type + " for " + id + " within " + WAIT);
            return false;
        }

        private void destroy(final RdmaCmId id)
        {
            id.destroy();
            destroyedAt.put(id, clock.incrementAndGet());
        }

        /** One event if one comes within {@code wait}, checked against the destroys and acknowledged. */
        private CmEvent take(final EventChannel channel, final Duration wait) throws InterruptedException
        {
            final long before = clock.get();
            final CmEvent event = channel.getEvent(wait);
            if (event == null)
            {
                return null;
            }
            final Long destroyed = destroyedAt.get(event.id());
            if (destroyed != null && destroyed <= before)
            {
                eventsAfterDestroy.add(event + " of " + event.id() + ", destroyed at " + destroyed + ", taken after " + before);
            }
            event.ack();
            return event;
        }

        /** The server's thread: accepts every request on a QP of its own, destroys each connection when it ends. */
        void serve(final EventChannel channel, final Side verbs)
        {
            try
            {
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(150) + WAIT.toNanos();
                while (!(stopped.get() && serverIds.isEmpty()) && System.nanoTime() - deadline < 0)
                {
                    final CmEvent event = take(channel, Duration.ofMillis(20));
                    if (event == null)
                    {
                        continue;
                    }
                    final RdmaCmId id = event.id();
                    if (event instanceof CmEvent.ConnectRequest request)
                    {
                        final RcQueuePair qp = verbs.queuePair();
                        serverIds.put(id, qp);
                        try
                        {
                            id.attachQp(qp);
                            id.accept(request.parameters());
                        }
                        catch (final RdmaCmException ex)
                        {
                            count("server refused " + ex.errno());
                            end(id);
                        }
                    }
                    else if (ENDS.contains(event.type()))
                    {
                        count("server " + event.type());
                        end(id);
                    }
                }
            }
            catch (final Throwable ex)
            {
                unexpected.add("server: " + ex);
            }
        }

        private void end(final RdmaCmId id)
        {
            destroy(id);
            final RcQueuePair qp = serverIds.remove(id);
            if (qp != null)
            {
                qp.close();
            }
        }
    }

    /** {@code rdma resource}'s counts of the two devices. */
    private static Map<String, Map<String, String>> resources()
    {
        final Map<String, Map<String, String>> all = new TreeMap<>();
        final String output = HostCommand.run(WAIT, null, List.of("rdma", "resource")).orFail("rdma resource").output();
        for (final String line : output.lines().toList())
        {
            final String[] fields = line.strip().split("\\s+");
            if (fields.length > 2 && (fields[1].equals(CLIENT_DEVICE + ":") || fields[1].equals(SERVER_DEVICE + ":")))
            {
                final Map<String, String> counts = new TreeMap<>();
                for (int i = 2; i + 1 < fields.length; i += 2)
                {
                    counts.put(fields[i], fields[i + 1]);
                }
                all.put(fields[1], counts);
            }
        }
        assertEquals(2, all.size(), output);
        return all;
    }
}
