package dev.rdmacm.resolver.engine;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.ErrnoException;
import dev.rdmacm.libc.NetworkNamespace;
import dev.rdmacm.libc.testing.NamespaceThread;
import dev.rdmacm.netlink.Route;
import dev.rdmacm.netlink.Rtnetlink;
import dev.rdmacm.resolver.engine.KernelAnswers.Query;
import dev.rdmacm.resolver.engine.KernelAnswers.RouteAnswer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@link RouteCache} while the configuration changes under it, in a {@link GeneratedNetwork}, the
 * kernel's {@code ip -j route get ... uid 0} the oracle: every answer equals the kernel's state before
 * or after the change it overlaps, and the state after once the change has returned; and when the
 * kernel drops notifications (a tiny receive buffer, a burst of changes: ENOBUFS) the cache empties
 * and answers stay right.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RouteCacheNamespaceTest
{
    private static final Query LOOKUP = Query.to("172.16.1.9");

    private GeneratedNetwork network;
    private KernelAnswers kernel;

    @BeforeEach
    void createNetwork()
    {
        network = GeneratedNetwork.create();
        kernel = new KernelAnswers(network);
        // routes without a gateway: the only answers the cache keeps
        network.batch(List.of("route add 172.16.1.0/24 dev h0", "route add 172.16.1.0/24 dev h2 table 100",
            "nexthop add id 1 dev h0"));
        kernel.readLinks();
    }

    @AfterEach
    void deleteNetwork()
    {
        if (network != null)
        {
            network.close();
        }
    }

    /** One timed lookup: when it began and ended ({@code System.nanoTime}) and what it answered. */
    private record Lookup(long startNanos, long endNanos, RouteAnswer answer)
    {
    }

    /** One change: when its command began and returned, and the kernel's answer after it. */
    private record Change(String command, long startNanos, long endNanos, RouteAnswer after)
    {
    }

    @Test
    void shouldAnswerTheStateBeforeOrAfterEachChangeWhileResolutionsRun() throws Exception
    {
        final List<String> steps = List.of(
            "route replace 172.16.1.0/24 dev h1",
            "rule add pref 100 to 172.16.1.0/24 table 100",
            "rule del pref 100",
            "route replace 172.16.1.0/24 nhid 1",
            "nexthop replace id 1 dev h2",
            "link set h2 down",
            "link set h2 up",
            "route replace 172.16.1.0/24 dev h0",
            "address del 10.0.0.1/24 dev h0",
            "address add 10.0.0.1/24 dev h0",
            "route replace 172.16.1.0/24 dev h0",
            "nexthop replace id 1 dev h0");
        final RouteAnswer initial = kernel.route(LOOKUP);
        final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicLong completed = new AtomicLong();
        final List<Lookup> lookups = new ArrayList<>();
        final CompletableFuture<RouteCache> finished = new CompletableFuture<>();
        final Thread resolutions = Thread.ofPlatform().name("route-cache-lookups").start(() ->
        {
            try
            {
                NetworkNamespace.enter(network.hostPath());
                try (Rtnetlink rtnetlink = Rtnetlink.open(); RouteCache cache = RouteCache.open())
                {
                    while (running.get())
                    {
                        final long start = System.nanoTime();
                        final RouteAnswer answer = lookUp(cache, rtnetlink);
                        lookups.add(new Lookup(start, System.nanoTime(), answer));
                        completed.incrementAndGet();
                        // paced (tens of microseconds): many lookups overlap each change, and the record stays small
                        LockSupport.parkNanos(1_000);
                    }
                    finished.complete(cache);
                }
            }
            catch (final Throwable ex)
            {
                finished.completeExceptionally(ex);
            }
        });
        final List<Change> changes = new ArrayList<>();
        try
        {
            for (int round = 0; round < 3; round++)
            {
                for (final String step : steps)
                {
                    final long start = System.nanoTime();
                    network.batch(List.of(step));
                    final long end = System.nanoTime();
                    changes.add(new Change(step, start, end, kernel.route(LOOKUP)));
                    awaitLookups(completed, 20);
                }
            }
        }
        finally
        {
            running.set(false);
            resolutions.join(TimeUnit.SECONDS.toMillis(10));
        }
        // its counters, read once the thread that owned it has ended (the future orders the reads after its writes)
        final RouteCache statistics = finished.get(10, TimeUnit.SECONDS);

        final List<String> wrong = new ArrayList<>();
        int settled = 0;
        for (final Lookup lookup : lookups)
        {
            // the states this lookup may see: the one before the first change it overlaps, and after each one
            final List<RouteAnswer> allowed = new ArrayList<>();
            RouteAnswer before = initial;
            for (final Change change : changes)
            {
                if (change.endNanos() < lookup.startNanos())
                {
                    before = change.after();
                }
                else if (change.startNanos() < lookup.endNanos())
                {
                    allowed.add(change.after());
                }
            }
            allowed.add(before);
            if (allowed.size() == 1)
            {
                settled++;
            }
            if (!allowed.contains(lookup.answer()))
            {
                wrong.add(lookup + " is none of " + allowed);
            }
        }
        System.out.println("RouteCacheNamespaceTest: " + lookups.size() + " lookups (" + settled + " between changes) " +
            "over " + changes.size() + " changes; " + statistics);
        assertEquals(List.of(), wrong.stream().limit(10).toList(), wrong.size() + " answers match no state");
        assertTrue(settled > changes.size(), "too few lookups between changes: " + settled);
        // one drain may take the notifications of two changes, so flushes count fewer than the changes
        assertTrue(statistics.hits() > 0 && statistics.flushes() > 0, "the cache served answers and was emptied: " +
            statistics);
    }

    @Test
    void shouldEmptyTheCacheWhenTheKernelDropsNotifications() throws Exception
    {
        try (NamespaceThread inHost = new NamespaceThread(network.hostPath());
             Rtnetlink rtnetlink = inHost.call(Rtnetlink::open);
             RouteCache cache = inHost.call(() -> RouteCache.open(1, RouteCache.DEFAULT_CAPACITY)))
        {
            assertEquals(kernel.route(LOOKUP), inHost.call(() -> lookUp(cache, rtnetlink)));
            assertEquals(kernel.route(LOOKUP), inHost.call(() -> lookUp(cache, rtnetlink)));
            // a burst of notifications the tiny buffer cannot hold, the change that matters last among them
            final List<String> burst = new ArrayList<>();
            for (int i = 10; i < 250; i++)
            {
                burst.add("address add 10.2.0." + i + "/24 dev h2");
            }
            burst.add("route replace 172.16.1.0/24 dev h1");
            network.batch(burst);

            final RouteAnswer after = kernel.route(LOOKUP);
            assertEquals(after, inHost.call(() -> lookUp(cache, rtnetlink)));
            assertEquals(after, inHost.call(() -> lookUp(cache, rtnetlink)));
            final RouteCache statistics = cache;
            System.out.println("RouteCacheNamespaceTest after a burst into a tiny buffer: " + statistics);
            assertTrue(statistics.overflows() > 0, "the kernel reported no lost notification: " + statistics);
        }
    }

    /**
     * Lets the lookup thread answer {@code count} more times in the state a change left (on two busy
     * cores it may not run for a while); the class's timeout bounds the wait.
     */
    private static void awaitLookups(final AtomicLong completed, final int count) throws InterruptedException
    {
        final long target = completed.get() + count;
        while (completed.get() < target)
        {
            Thread.sleep(1);
        }
    }

    private static RouteAnswer lookUp(final RouteCache cache, final Rtnetlink rtnetlink) throws Exception
    {
        final Route route;
        try
        {
            route = cache.route(rtnetlink, LOOKUP.destination(), null, 0);
        }
        catch (final ErrnoException ex)
        {
            return RouteAnswer.refused(Errno.description(ex.errno()));
        }
        return new RouteAnswer(null, route.type(), route.outputIfindex(), route.gateway(), route.preferredSource(),
            route.hopLimit());
    }
}
