package dev.rdmacm.cli;

import dev.rdmacm.cm.CmIdState;
import dev.rdmacm.cm.ConnectionManager;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmId;

import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Issue 32's split of the connect step of {@code rdmacm cmtime --cm kernel}: cmtime's own client
 * ({@link CmtimeClient}, the steps it always runs) on an {@code RdmaCm} whose transition listener notes, per
 * id, when {@code rdma_connect} moved it to CONNECT, when the kernel's id answered ADDR_RESOLVED and
 * ROUTE_RESOLVED (after which CONNECT goes to the kernel), and when it was ESTABLISHED. The kernel's resolution
 * is the half of our connect step that librdmacm's cmtime pays in its resolve steps instead. The listener
 * builds each transition's text, so the table it prints is a little slower than cmtime's.
 * <pre>
 *   CmtimeKernelHalves SERVER PORT CONNECTIONS
 * </pre>
 */
public final class CmtimeKernelHalves
{
    private static final int CONNECT = 0;
    private static final int KERNEL_ADDRESS = 1;
    private static final int KERNEL_ROUTE = 2;
    private static final int ESTABLISHED = 3;

    private CmtimeKernelHalves()
    {
    }

    /** Runs one cmtime round of {@code args} (SERVER PORT CONNECTIONS), its table and then the split on {@code out}; 0 if it completed. */
    public static int run(final String[] args, final PrintStream out) throws Exception
    {
        final int connections = Integer.parseInt(args[2]);
        final Map<RdmaCmId, long[]> times = new ConcurrentHashMap<>();
        final RdmaCm.Options options = RdmaCm.Options.builder().connectionManager(ConnectionManager.KERNEL).listener((id, from, to, reason) ->
        {
            final long now = System.nanoTime();
            final long[] at = times.computeIfAbsent(id, ignored -> new long[4]);
            if (to == CmIdState.CONNECT && from != CmIdState.CONNECT)
            {
                at[CONNECT] = now;
            }
            else if (to == CmIdState.ESTABLISHED)
            {
                at[ESTABLISHED] = now;
            }
            else if (reason.startsWith("kernel CM id ") && reason.contains(" ADDR_RESOLVED: "))
            {
                at[KERNEL_ADDRESS] = now;
            }
            else if (reason.startsWith("kernel CM id ") && reason.contains(" ROUTE_RESOLVED: "))
            {
                at[KERNEL_ROUTE] = now;
            }
        }).build();
        final boolean ok;
        try (RdmaCm cm = RdmaCm.open(options); EventChannel channel = cm.createEventChannel();
            DeviceProtectionDomains devices = new DeviceProtectionDomains())
        {
            final CmtimeClient client = new CmtimeClient(cm, channel, connections, null, new InetSocketAddress(InetAddress.getByName(args[0]),
                Integer.parseInt(args[1])), 2, Duration.ofMillis(2000), out, System.err);
            ok = client.run(devices);
        }
        final List<long[]> all = times.values().stream().filter(at -> Arrays.stream(at).allMatch(t -> t != 0)).toList();
        if (all.size() != connections)
        {
            out.printf("halves: %d of %d connections have all four times%n", all.size(), connections);
            return 1;
        }
        final long first = all.stream().mapToLong(at -> at[CONNECT]).min().orElseThrow();
        out.printf("halves, from the first rdma_connect, ms: the last connect called %.1f, the last kernel ADDR_RESOLVED %.1f, "
            + "the last kernel ROUTE_RESOLVED (CONNECT written) %.1f, the last ESTABLISHED %.1f%n", last(all, CONNECT, first),
            last(all, KERNEL_ADDRESS, first), last(all, KERNEL_ROUTE, first), last(all, ESTABLISHED, first));
        out.printf("halves, per connection, median (max) ms: connect called to the kernel's ADDR_RESOLVED %s, to its ROUTE_RESOLVED %s, "
            + "to ESTABLISHED %s%n", spans(all, CONNECT, KERNEL_ADDRESS), spans(all, KERNEL_ADDRESS, KERNEL_ROUTE),
            spans(all, KERNEL_ROUTE, ESTABLISHED));
        return ok ? 0 : 1;
    }

    private static double last(final List<long[]> all, final int which, final long first)
    {
        return (all.stream().mapToLong(at -> at[which]).max().orElseThrow() - first) / 1e6;
    }

    private static String spans(final List<long[]> all, final int from, final int to)
    {
        final long[] spans = all.stream().mapToLong(at -> at[to] - at[from]).sorted().toArray();
        return String.format("%.2f (%.2f)", spans[spans.length / 2] / 1e6, spans[spans.length - 1] / 1e6);
    }
}
