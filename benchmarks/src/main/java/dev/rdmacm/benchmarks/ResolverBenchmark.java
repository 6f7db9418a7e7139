package dev.rdmacm.benchmarks;

import dev.rdmacm.resolver.AddressResolution;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.libc.NetworkNamespace;
import dev.rdmacm.netlink.Neighbour;
import dev.rdmacm.netlink.Route;
import dev.rdmacm.netlink.Rtnetlink;
import dev.rdmacm.resolver.engine.RouteCache;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Netlink round trips of address resolution against the real kernel, inside the namespace that
 * {@code benchmarks/run-resolver-bench} builds, compared there with the C program
 * {@code src/main/c/netlink_roundtrip.c} doing the same raw round trips.
 * <ul>
 *   <li>{@code routeLookup}: one RTM_GETROUTE (C: "route").</li>
 *   <li>{@code resolutionRoundTrips}: RTM_GETROUTE, RTM_GETLINK, RTM_GETNEIGH for a valid neighbour, the
 *       round trips of one resolution attempt (C: "resolution").</li>
 *   <li>{@code resolveAddrSynchronous}: a whole synchronous {@code rdma_resolve_addr} through the event
 *       loop, including the two thread hand-overs (no C counterpart), with the loop and the caller
 *       blocking at once ({@code spinNanos} 0) and spinning 50 us first (the default on two or more CPUs).</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED",
    "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class ResolverBenchmark
{
    @State(Scope.Thread)
    public static class InNamespace
    {
        Rtnetlink rtnetlink;
        RouteCache routeCache;
        InetAddress destination;

        @Setup(Level.Trial)
        public void enter() throws Exception
        {
            // JMH runs setup and benchmark of a thread-scoped state on the same worker thread.
            NetworkNamespace.enter(BenchNamespace.path());
            rtnetlink = Rtnetlink.open();
            routeCache = RouteCache.open();
            destination = InetAddress.getByName(BenchNamespace.VALID_NEIGHBOUR);
        }

        @TearDown(Level.Trial)
        public void close()
        {
            routeCache.close();
            rtnetlink.close();
        }
    }

    /** An RdmaCm spinning {@code spinNanos} before blocking: 0 is the baseline without spinning. */
    @State(Scope.Thread)
    public static class Cm
    {
        @Param({"0", "50000"})
        long spinNanos;
        /** {@code RdmaCm.Options.Builder#routeCache}: off by default; {@code -p routeCache=false,true} compares. */
        @Param({"false"})
        boolean routeCache;
        RdmaCm cm;

        @Setup(Level.Trial)
        public void open() throws Exception
        {
            cm = RdmaCm.open(RdmaCm.Options.builder().networkNamespace(BenchNamespace.path())
                .gids(BenchNamespace.gids()).spin(Duration.ofNanos(spinNanos)).routeCache(routeCache).build());
        }

        @TearDown(Level.Trial)
        public void close()
        {
            cm.close();
        }
    }

    @Benchmark
    public Route routeLookup(final InNamespace state) throws Exception
    {
        return state.rtnetlink.route(state.destination, null, 0);
    }

    /** {@code routeLookup} answered by the opt-in {@link RouteCache}: one recvfrom (nothing queued) and a map lookup. */
    @Benchmark
    public Route routeLookupCached(final InNamespace state) throws Exception
    {
        return state.routeCache.route(state.rtnetlink, state.destination, null, 0);
    }

    @Benchmark
    public Neighbour resolutionRoundTrips(final InNamespace state) throws Exception
    {
        final Route route = state.rtnetlink.route(state.destination, null, 0);
        state.rtnetlink.link(route.outputIfindex());
        return state.rtnetlink.neighbour(route.outputIfindex(), route.nextHop());
    }

    @Benchmark
    public AddressResolution resolveAddrSynchronous(final InNamespace state, final Cm cm) throws Exception
    {
        final RdmaCmId id = cm.cm.createId(null);
        id.resolveAddr(null, state.destination, Duration.ofMillis(2000));
        final AddressResolution resolution = id.resolution();
        id.destroy();
        return resolution;
    }
}
