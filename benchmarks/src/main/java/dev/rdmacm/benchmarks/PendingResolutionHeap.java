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
 * they all wait, then closes (each ends with ADDR_ERROR EINTR). Run by benchmarks/run-resolver-bench.
 */
public final class PendingResolutionHeap
{
    private PendingResolutionHeap()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final int count = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        final RdmaCm cm = RdmaCm.open(RdmaCm.Options.defaults().networkNamespace(BenchNamespace.path())
            .gids(BenchNamespace.gids()));
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
        for (int i = 0; i < count; i++)
        {
            ids.get(i).resolveAddr(null, destinations.get(i % destinations.size()), Duration.ofMillis(600_000));
        }
        final long during = usedHeapAfterGc();
        final long threads = Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().equals("rdmacm-resolver")).count();
        System.out.printf("pending resolutions: %d on %d event-loop thread(s), events so far: %d%n",
            count, threads, channel.pendingEvents());
        System.out.printf("heap per pending resolution: %d bytes (%d -> %d bytes after full GC)%n",
            (during - before) / count, before, during);
        cm.close();
        int ended = 0;
        CmEvent event;
        while ((event = channel.getEvent(Duration.ofSeconds(5))) != null)
        {
            event.ack();
            ended++;
            if (ended == count)
            {
                break;
            }
        }
        System.out.printf("after close: %d of %d ended with ADDR_ERROR%n", ended, count);
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
