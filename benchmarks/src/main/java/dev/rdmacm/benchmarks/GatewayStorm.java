package dev.rdmacm.benchmarks;

import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.CmEventType;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmId;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A job-start storm behind a router: N resolutions to N distinct destinations that share one next hop
 * (10.3.0.0/16 via the silent 10.2.0.99 on a2, which benchmarks/run-resolver-bench routes), all waiting
 * on that one neighbour; then the neighbour is made valid ({@code ip neigh replace ... nud permanent})
 * and the time until the N-th ADDR_RESOLVED is measured, with the event loop's CPU. Each N runs on its
 * own RdmaCm, in one invocation: the time per resolution at the largest N against the smallest shows
 * whether releasing the waiters costs more than linear. The first N only warms the JIT.
 * <p>
 * usage: {@code GatewayStorm WARM_UP N...}, e.g. {@code 3000 1000 10000 30000}.
 */
public final class GatewayStorm
{
    private static final String GATEWAY = "10.2.0.99";
    private static final Duration TIMEOUT = Duration.ofMillis(600_000);

    private GatewayStorm()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        if (args.length < 2)
        {
            System.err.println("GatewayStorm: give a count to warm the JIT with, then the counts to compare, e.g. 3000 1000 10000");
            System.exit(2);
        }
        run(Integer.parseInt(args[0]));
        double baseline = 0;
        for (int i = 1; i < args.length; i++)
        {
            final int count = Integer.parseInt(args[i]);
            final double perResolution = run(count);
            if (baseline == 0)
            {
                baseline = perResolution;
            }
            System.out.printf("gateway storm %d: %.2f us per resolution released, %.2fx the first measured count's%n",
                count, perResolution, perResolution / baseline);
        }
    }

    private static double run(final int count) throws Exception
    {
        neighbour("del", GATEWAY, "dev", "a2");
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (RdmaCm cm = RdmaCm.open(RdmaCm.Options.builder().networkNamespace(BenchNamespace.path())
                .gids(BenchNamespace.gids()).build());
             EventChannel channel = cm.createEventChannel())
        {
            final List<RdmaCmId> ids = new ArrayList<>(count);
            final long waitStart = System.nanoTime();
            for (int i = 0; i < count; i++)
            {
                final RdmaCmId id = cm.createId(channel);
                ids.add(id);
                id.resolveAddr(null, InetAddress.getByAddress(new byte[] {10, 3, (byte)(i >> 8), (byte)i}), TIMEOUT);
            }
            final long waiting = System.nanoTime() - waitStart;
            final long loopThread = loopThreadId();
            final long cpuBefore = threads.getThreadCpuTime(loopThread);
            final long released = System.nanoTime();
            neighbour("replace", GATEWAY, "lladdr", "02:00:00:00:00:99", "nud", "permanent", "dev", "a2");
            int resolved = 0;
            int other = 0;
            CmEvent event;
            while (resolved + other < count && (event = channel.getEvent(Duration.ofSeconds(30))) != null)
            {
                if (event.type() == CmEventType.ADDR_RESOLVED)
                {
                    resolved++;
                }
                else
                {
                    other++;
                }
                event.ack();
            }
            final long took = System.nanoTime() - released;
            final long cpu = threads.getThreadCpuTime(loopThread) - cpuBefore;
            System.out.printf("gateway storm %d: started in %.0f ms; released: %d ADDR_RESOLVED, %d other, in %.1f ms " +
                "(loop thread CPU %.1f ms)%n", count, waiting / 1e6, resolved, other, took / 1e6, cpu / 1e6);
            for (final RdmaCmId id : ids)
            {
                id.destroy();
            }
            return took / 1e3 / count;
        }
    }

    private static long loopThreadId()
    {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("rdmacm-conductor"))
            .findFirst().orElseThrow(() -> new IllegalStateException("no rdmacm-conductor thread")).threadId();
    }

    /** {@code ip -n NS neigh ARGS}: a deletion of an entry that is not there is not an error. */
    private static void neighbour(final String... args) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of("ip", "-n", System.getProperty(BenchNamespace.PROPERTY), "neigh"));
        command.addAll(List.of(args));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes());
        if (process.waitFor() != 0 && !args[0].equals("del"))
        {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + output.strip());
        }
    }
}
