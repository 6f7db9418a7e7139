package dev.rdmacm.benchmarks;

import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmId;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Heap per pending resolution: starts N resolutions (default 10,000) on one RdmaCm, one event-loop
 * thread, to 100 next hops on a link whose peer never answers, measures the heap after full GCs while
 * they all wait, splits it by class, then closes (each ends with ADDR_ERROR EINTR). Run by
 * benchmarks/run-resolver-bench, once per way of starting them:
 * <ul>
 *   <li>{@code sync}: one {@code resolveAddr} after the other, each returning once the loop has
 *   accepted it, so their deadlines spread over the time the calls take;</li>
 *   <li>{@code burst}: {@code resolveAddrAsync} as fast as the caller can, so the deadlines crowd
 *   into few milliseconds (10,000 calls in 125-217 ms here; a job-start storm).</li>
 * </ul>
 */
public final class PendingResolutionHeap
{
    private static final Duration TIMEOUT = Duration.ofMillis(600_000);

    private PendingResolutionHeap()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final int count = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        final String start = args.length > 1 ? args[1] : "sync";
        if (!start.equals("sync") && !start.equals("burst"))
        {
            System.err.println("PendingResolutionHeap: the second argument is how to start them, sync or burst, not " + start);
            System.exit(2);
        }
        final boolean burst = start.equals("burst");
        final RdmaCm cm = RdmaCm.open(RdmaCm.Options.builder().networkNamespace(BenchNamespace.path())
            .gids(BenchNamespace.gids()).build());
        final EventChannel channel = cm.createEventChannel();
        final List<RdmaCmId> ids = new ArrayList<>(count);
        final List<InetAddress> destinations = new ArrayList<>();
        for (int i = 0; i < 100; i++)
        {
            destinations.add(InetAddress.getByName("10.2.1." + (i + 1)));
        }
        for (int i = 0; i < count; i++)
        {
            ids.add(cm.createId(channel));
        }
        final long before = usedHeapAfterGc();
        final ClassHistogram histogramBefore = ClassHistogram.take();
        final long startedAt = System.nanoTime();
        for (int i = 0; i < count; i++)
        {
            final InetAddress destination = destinations.get(i % destinations.size());
            if (burst)
            {
                ids.get(i).resolveAddrAsync(null, destination, TIMEOUT);
            }
            else
            {
                ids.get(i).resolveAddr(null, destination, TIMEOUT);
            }
        }
        final long callsTook = System.nanoTime() - startedAt;
        if (burst)
        {
            // The loop takes commands in order: once a synchronous call behind them returns, it has
            // started every one of them (and this one waits with them, 1 in 10,000).
            final RdmaCmId barrier = cm.createId(channel);
            barrier.resolveAddr(null, destinations.getFirst(), TIMEOUT);
            ids.add(barrier);
        }
        final long during = usedHeapAfterGc();
        final ClassHistogram histogramDuring = ClassHistogram.take();
        final long threads = Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().equals("rdmacm-conductor")).count();
        System.out.printf("pending resolutions: %d on %d event-loop thread(s), started %s in %.1f ms, events so far: %d%n",
            count, threads, burst ? "by resolveAddrAsync" : "one resolveAddr after the other", callsTook / 1e6,
            channel.pendingEvents());
        System.out.printf("heap per pending resolution: %d bytes (%d -> %d bytes after full GC)%n",
            (during - before) / count, before, during);
        printGrowth(histogramDuring, histogramBefore, count);
        cm.close();
        int ended = 0;
        CmEvent event;
        while ((event = channel.getEvent(Duration.ofSeconds(5))) != null)
        {
            event.ack();
            ended++;
            if (ended == ids.size())
            {
                break;
            }
        }
        System.out.printf("after close: %d of %d ended with ADDR_ERROR%n", ended, ids.size());
    }

    private static void printGrowth(final ClassHistogram during, final ClassHistogram before, final int count)
    {
        final List<ClassHistogram.Row> growth = during.growthSince(before);
        System.out.printf("live objects per pending resolution, by class (GC.class_histogram, %d -> %d bytes):%n",
            before.totalBytes(), during.totalBytes());
        System.out.printf("%10s %10s  %s%n", "bytes", "instances", "class");
        long shown = 0;
        for (int i = 0; i < Math.min(25, growth.size()); i++)
        {
            final ClassHistogram.Row row = growth.get(i);
            shown += row.bytes();
            System.out.printf("%10.1f %10.2f  %s%n", (double)row.bytes() / count, (double)row.instances() / count,
                row.className());
        }
        final long total = growth.stream().mapToLong(ClassHistogram.Row::bytes).sum();
        System.out.printf("%10.1f %10s  (the other %d growing classes)%n", (double)(total - shown) / count, "",
            Math.max(0, growth.size() - 25));
    }

    private static long usedHeapAfterGc() throws InterruptedException
    {
        for (int i = 0; i < 3; i++)
        {
            System.gc();
            Thread.sleep(100);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
