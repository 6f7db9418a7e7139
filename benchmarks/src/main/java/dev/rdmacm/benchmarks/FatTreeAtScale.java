package dev.rdmacm.benchmarks;

import dev.rdmacm.acm.AcmGidLookup;
import dev.rdmacm.acm.AcmEndpointFile;
import dev.rdmacm.acm.AcmLog;
import dev.rdmacm.acm.AcmOptions;
import dev.rdmacm.acm.AcmServer;
import dev.rdmacm.acm.SaPathQuerier;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.acm.AcmCounter;
import dev.rdmacm.protocol.acm.AcmEpAddrData;
import dev.rdmacm.protocol.acm.AcmHeader;
import dev.rdmacm.protocol.acm.AcmMessage;
import dev.rdmacm.protocol.path.IbvPathRecord;
import dev.rdmacm.protocol.sa.NodeRecord;
import dev.rdmacm.protocol.sa.SaAttribute;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaClientConfig;
import dev.rdmacm.sa.SaCounter;
import dev.rdmacm.sa.SaError;
import dev.rdmacm.sa.SaQueryException;
import dev.rdmacm.sa.SaRequest;
import dev.rdmacm.sa.SaResponse;
import dev.rdmacm.sa.path.PathQuery;
import dev.rdmacm.sa.path.PathRecordValue;
import dev.rdmacm.sa.path.PathRecords;
import dev.rdmacm.sa.testing.FabricTopology;
import dev.rdmacm.sa.testing.FatTreeTopology;
import dev.rdmacm.sa.testing.SimulatedFabric;
import dev.rdmacm.sa.transport.ibsim.IbsimTransport;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The all-paths sweep, a job-start storm and an OpenSM path-dump preload on a simulated fat tree of
 * thousands of HCAs (issue 15): ibsim + OpenSM on a {@link FatTreeTopology}, started and stopped here.
 * <ol>
 *   <li><b>Discovery</b> (not measured as a target): one NodeRecord Get per LID tells which LIDs are
 *       HCAs and their port GUIDs, from OpenSM's SA; a separate client, so the sweep's counts are its own.</li>
 *   <li><b>Sweep</b>: from Hca2, a PathRecord Get (SGID, DGID, reversible, one path) to every other HCA,
 *       all submitted at once to one {@link SaClient} with {@link #SWEEP_DEPTH} in flight, cache and coalescing on:
 *       SA queries sent, time from the first submission to the last answer, losses (timeouts, retries,
 *       failures, a path that is not to the DGID or LID asked for). Run {@code SWEEPS} times, the
 *       cache emptied between runs.</li>
 *   <li><b>Storm</b>: acm-server (ibacm's protocol) in front of an SA client attached as Hca2, route
 *       cache on; {@code STORM_IDS} RESOLVE requests by GID over {@code STORM_DESTINATIONS}
 *       destinations, each on its own unix-socket connection, all written before any reply is read:
 *       what {@code rdma_resolve_route} of that many ids through ibacm sends. SA queries = the server's
 *       ROUTE_QUERY counter.</li>
 *   <li><b>Preload</b>: the same storm against an acm-server started with {@code route_preload
 *       opensm_full_v1} on a path dump written from the sweep's answers (OpenSM's format; Debian does
 *       not ship the plugin that writes it, see {@code docs/}); it must send no SA query.</li>
 * </ol>
 * Each phase prints its wall time, the CPU of our JVM (split into JIT, GC and other threads, and the SA
 * client's engine thread among the others), OpenSM and
 * ibsim, the JVM's heap after a full GC and OpenSM's and ibsim's resident memory.
 * <p>
 * usage: {@code FatTreeAtScale [HCAS [SWEEPS [STORM_IDS [STORM_DESTINATIONS]]]]}, defaults 4000 3 4000 100;
 * run by {@code benchmarks/run-scale-bench}.
 */
public final class FatTreeAtScale
{
    private static final String SOURCE = "Hca2";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** A query's timeout runs from its submission, also while it waits for a free slot of the window. */
    private static final Duration QUEUED_TIMEOUT = Duration.ofSeconds(60);
    /** The sweep's window: ibacm's default sa_depth of 1 caps a sweep at one round trip per path. */
    private static final int SWEEP_DEPTH = 64;

    private final SimulatedFabric fabric;
    private final Path dir;
    /** HCA port GUIDs by LID, from OpenSM's NodeRecords. */
    private final Map<Integer, Long> hcaByLid = new TreeMap<>();
    private int sourceLid;
    private int smLid;
    private Gid sourceGid;
    private final List<PathRecordValue> sweptPaths = new ArrayList<>();

    private FatTreeAtScale(final SimulatedFabric fabric, final Path dir)
    {
        this.fabric = fabric;
        this.dir = dir;
    }

    public static void main(final String[] args) throws Exception
    {
        final int hcas = args.length > 0 ? Integer.parseInt(args[0]) : 4000;
        final int sweeps = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        final int stormIds = args.length > 2 ? Integer.parseInt(args[2]) : 4000;
        final int stormDestinations = args.length > 3 ? Integer.parseInt(args[3]) : 100;
        final FabricTopology topology = FatTreeTopology.of(hcas);
        System.out.printf("topology: %s; ibsim %s%n", topology.description(), String.join(" ", topology.ibsimCapacity()));
        final Path dir = Files.createTempDirectory("rdmacm-scale-bench");
        final long startNanos = System.nanoTime();
        try (SimulatedFabric fabric = SimulatedFabric.start(topology))
        {
            final FatTreeAtScale bench = new FatTreeAtScale(fabric, dir);
            System.out.printf("fabric up: ibsim and OpenSM started, OpenSM's SA answering saquery -c %.2f s after launch; " +
                    "CPU since launch: OpenSM %.2f s, ibsim %.2f s; RSS: OpenSM %.1f MB, ibsim %.1f MB%n",
                (System.nanoTime() - startNanos) / 1e9, ProcessCpu.of(fabric.openSmPid()).ownNanos() / 1e9,
                ProcessCpu.of(fabric.ibsimPid()).ownNanos() / 1e9, residentMegabytes(fabric.openSmPid()),
                residentMegabytes(fabric.ibsimPid()));
            bench.discover(topology.hcas().size(), topology.nodes());
            bench.sweep(sweeps);
            final String rawClient = System.getProperty("rdmacm.bench.rawClient");
            if (rawClient != null)
            {
                bench.rawSweep(Path.of(rawClient), sweeps);
            }
            bench.storm(stormIds, stormDestinations, false);
            bench.storm(stormIds, stormDestinations, true);
        }
        finally
        {
            AcmServerBenchmark.deleteTree(dir);
        }
    }

    /** CPU and memory over one phase. */
    private static final class Phase
    {
        private final SimulatedFabric fabric;
        private final SaClient client;
        private final long wallBefore = System.nanoTime();
        private final ProcessCpu jvmBefore = ProcessCpu.self();
        private final JvmThreadCpu threadsBefore = JvmThreadCpu.now();
        private final ProcessCpu openSmBefore;
        private final ProcessCpu ibsimBefore;
        private final long engineBefore;

        Phase(final SimulatedFabric fabric, final SaClient client)
        {
            this.fabric = fabric;
            this.client = client;
            this.openSmBefore = ProcessCpu.of(fabric.openSmPid());
            this.ibsimBefore = ProcessCpu.of(fabric.ibsimPid());
            this.engineBefore = client == null ? 0 : EngineThreadCpu.nanos(client);
        }

        void report(final String name, final long queries)
        {
            final double wall = (System.nanoTime() - wallBefore) / 1e9;
            final long jvm = ProcessCpu.self().minus(jvmBefore).ownNanos();
            final long openSm = ProcessCpu.of(fabric.openSmPid()).minus(openSmBefore).ownNanos();
            final long ibsim = ProcessCpu.of(fabric.ibsimPid()).minus(ibsimBefore).ownNanos();
            final JvmThreadCpu threads = JvmThreadCpu.now().minus(threadsBefore);
            final String engine = String.format(" (JIT %.2f s, GC %.2f s, other threads %.2f s%s)", threads.jitNanos() / 1e9,
                threads.gcNanos() / 1e9, threads.otherNanos() / 1e9, client == null ? "" :
                String.format(", of which the engine thread %.3f s", (EngineThreadCpu.nanos(client) - engineBefore) / 1e9));
            System.gc();
            final long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            System.out.printf("  [%s] wall %.3f s; CPU: our JVM %.2f s%s, OpenSM %.2f s, ibsim %.2f s%s; memory: JVM heap after GC " +
                    "%.1f MB, OpenSM RSS %.1f MB, ibsim RSS %.1f MB%n", name, wall, jvm / 1e9, engine, openSm / 1e9, ibsim / 1e9,
                queries == 0 ? "" : String.format(" (JVM %.1f us, OpenSM %.1f us per SA query)", jvm / 1e3 / queries, openSm / 1e3 / queries),
                heap / 1e6, residentMegabytes(fabric.openSmPid()), residentMegabytes(fabric.ibsimPid()));
        }
    }

    private static double residentMegabytes(final long pid)
    {
        try
        {
            for (final String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")))
            {
                if (line.startsWith("VmRSS:"))
                {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
                }
            }
        }
        catch (final IOException ex)
        {
            return Double.NaN;
        }
        return Double.NaN;
    }

    private SaClient attach(final SaClientConfig config)
    {
        return SaClient.start(IbsimTransport.attach(fabric.host(), fabric.ctlPort(), SOURCE, Duration.ofSeconds(2)), config);
    }

    /** NodeRecord Get for every LID OpenSM may have assigned: which are HCAs, and their port GUIDs. */
    private void discover(final int hcas, final int lids) throws Exception
    {
        try (SaClient client = attach(SaClientConfig.defaults().withSaDepth(SWEEP_DEPTH).withCacheTtl(Duration.ZERO).withCoalesce(false)))
        {
            final Phase phase = new Phase(fabric, client);
            final List<CompletableFuture<SaResponse>> answers = new ArrayList<>(lids);
            for (int lid = 1; lid <= lids; lid++)
            {
                final byte[] payload = new byte[NodeRecord.PADDED_LENGTH];
                new NodeRecord().wrap(new UnsafeBuffer(payload), 0).lid(lid);
                answers.add(client.query(SaRequest.get(SaAttribute.NODE_RECORD).description("NodeRecord of LID " + lid)
                    .componentMask(1L).payload(payload).recordLength(NodeRecord.PADDED_LENGTH).build(), QUEUED_TIMEOUT));
            }
            final NodeRecord record = new NodeRecord();
            int unassigned = 0;
            for (final CompletableFuture<SaResponse> answer : answers)
            {
                final SaResponse response;
                try
                {
                    response = answer.get(60, TimeUnit.SECONDS);
                }
                catch (final ExecutionException ex)
                {
                    if (ex.getCause() instanceof SaQueryException failure && failure.error() == SaError.NO_RECORDS)
                    {
                        unassigned++;
                        continue;
                    }
                    throw ex;
                }
                record.wrap(new UnsafeBuffer(response.records().getFirst()), 0, NodeRecord.PADDED_LENGTH);
                if (record.nodeType() == NodeRecord.NODE_TYPE_CA)
                {
                    if (record.nodeDescription().equals(SimulatedFabric.SM_NODE))
                    {
                        smLid = record.lid();
                    }
                    hcaByLid.put(record.lid(), record.portGuid());
                    if (record.nodeDescription().equals(SOURCE))
                    {
                        sourceLid = record.lid();
                        sourceGid = new Gid(Gid.LINK_LOCAL_PREFIX, record.portGuid());
                    }
                }
            }
            if (hcaByLid.size() != hcas || sourceGid == null)
            {
                throw new IllegalStateException("OpenSM's NodeRecords for LIDs 1-" + lids + " name " + hcaByLid.size() +
                    " HCAs, expected " + hcas + (sourceGid == null ? ", and none is " + SOURCE : ""));
            }
            System.out.printf("%ndiscovery: %d NodeRecord Gets (%d LIDs unassigned), %d HCAs; %s is LID %d, %s%n", lids,
                unassigned, hcaByLid.size(), SOURCE, sourceLid, sourceGid);
            phase.report("discovery", lids);
        }
    }

    private void sweep(final int sweeps) throws Exception
    {
        final List<Map.Entry<Integer, Long>> destinations = hcaByLid.entrySet().stream().filter(e -> e.getKey() != sourceLid).toList();
        try (SaClient client = attach(SaClientConfig.defaults().withSaDepth(SWEEP_DEPTH)))
        {
            System.out.printf("%nsweep: %s to the %d other HCAs, sa_depth %d, cache and coalescing on%n", SOURCE,
                destinations.size(), SWEEP_DEPTH);
            for (int run = 1; run <= sweeps; run++)
            {
                client.invalidateCache();
                final long sentBefore = client.counters().get(SaCounter.SA_QUERIES_SENT);
                final long retriesBefore = client.counters().get(SaCounter.RETRIES_SENT);
                final long timeoutsBefore = client.counters().get(SaCounter.QUERIES_TIMED_OUT);
                final Phase phase = new Phase(fabric, client);
                final long start = System.nanoTime();
                final List<CompletableFuture<List<PathRecordValue>>> answers = new ArrayList<>(destinations.size());
                for (final Map.Entry<Integer, Long> destination : destinations)
                {
                    answers.add(PathRecords.query(client, PathQuery.byGids(sourceGid, new Gid(Gid.LINK_LOCAL_PREFIX, destination.getValue())),
                        TIMEOUT));
                }
                CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
                final long elapsed = System.nanoTime() - start;
                int wrong = 0;
                for (int i = 0; i < destinations.size(); i++)
                {
                    final List<PathRecordValue> paths = answers.get(i).join();
                    final Map.Entry<Integer, Long> destination = destinations.get(i);
                    if (paths.size() != 1 || paths.getFirst().dgid().interfaceId() != destination.getValue() ||
                        paths.getFirst().dlid().value() != destination.getKey() || paths.getFirst().slid().value() != sourceLid)
                    {
                        wrong++;
                    }
                    else if (run == 1)
                    {
                        sweptPaths.add(paths.getFirst());
                    }
                }
                final long sent = client.counters().get(SaCounter.SA_QUERIES_SENT) - sentBefore;
                System.out.printf("sweep %d: %d paths in %.3f s (%.0f/s); %d SA queries sent, %d retries, %d timed out, %d wrong%n",
                    run, destinations.size(), elapsed / 1e9, destinations.size() * 1e9 / elapsed, sent,
                    client.counters().get(SaCounter.RETRIES_SENT) - retriesBefore,
                    client.counters().get(SaCounter.QUERIES_TIMED_OUT) - timeoutsBefore, wrong);
                phase.report("sweep " + run, sent);
            }
        }
    }

    /**
     * The same sweep by the raw C client ({@code ibsim_path_client.c}), the physical limit: the same
     * source, destinations in the same order, the same window, on the same fabric.
     */
    private void rawSweep(final Path rawClient, final int sweeps) throws IOException, InterruptedException
    {
        final List<Long> destinations = hcaByLid.entrySet().stream().filter(e -> e.getKey() != sourceLid).map(Map.Entry::getValue).toList();
        final List<String> command = new ArrayList<>(List.of(rawClient.toString(), fabric.host(), Integer.toString(fabric.ctlPort()),
            SOURCE, Integer.toString(smLid), Integer.toString(SWEEP_DEPTH), "0", Integer.toString(destinations.size()),
            Long.toHexString(sourceGid.interfaceId())));
        destinations.forEach(guid -> command.add(Long.toHexString(guid)));
        System.out.printf("%nraw C client sweep: %s to the same %d HCAs, %d in flight%n", SOURCE, destinations.size(), SWEEP_DEPTH);
        for (int run = 1; run <= sweeps; run++)
        {
            final Phase phase = new Phase(fabric, null);
            final Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0)
            {
                process.destroyForcibly();
                throw new IllegalStateException("the raw client failed: " + output);
            }
            System.out.printf("raw sweep %d: %s%n", run, output);
            phase.report("raw sweep " + run, destinations.size());
        }
    }

    /** {@code ids} RESOLVE requests over {@code destinationCount} destinations, through acm-server. */
    private void storm(final int ids, final int destinationCount, final boolean preload) throws Exception
    {
        final String name = preload ? "preload" : "storm";
        final Path serverDir = Files.createDirectories(dir.resolve(name));
        Files.writeString(serverDir.resolve("addr.cfg"), "192.0.2.2 ibsim0 1 0xffff " + sourceGid + " " + sourceLid + "\n");
        final AcmOptions options = new AcmOptions();
        options.apply("run_dir " + serverDir.resolve("run"), "bench");
        if (preload)
        {
            writePathDump(serverDir.resolve("opensm-path-records.dump"));
            options.apply("route_preload opensm_full_v1", "bench");
            options.apply("route_data_file " + serverDir.resolve("opensm-path-records.dump"), "bench");
        }
        final List<PathRecordValue> destinations = sweptPaths.subList(0, destinationCount);
        try (SaClient sa = attach(SaClientConfig.defaults().withCacheTtl(Duration.ZERO));
             AcmServer server = AcmServer.start(options, AcmEndpointFile.read(serverDir.resolve("addr.cfg")), AcmGidLookup.NONE,
                 new SaPathQuerier(index -> sa, TIMEOUT), new AcmLog(new PrintStream(OutputStream.nullOutputStream()), 0)))
        {
            final Phase phase = new Phase(fabric, sa);
            final long routeQueriesBefore = server.service().counters().get(AcmCounter.ROUTE_QUERY);
            final long saBefore = sa.counters().get(SaCounter.SA_QUERIES_SENT);
            final List<SocketChannel> channels = new ArrayList<>(ids);
            int wrong = 0;
            final long start = System.nanoTime();
            try
            {
                for (int id = 0; id < ids; id++)
                {
                    final SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
                    channels.add(channel);
                    channel.connect(UnixDomainSocketAddress.of(server.files().unixSocket()));
                    final ByteBuffer request = AcmServerBenchmark.pathRequest(sourceGid, destinations.get(id % destinationCount).dgid());
                    while (request.hasRemaining())
                    {
                        channel.write(request);
                    }
                }
                final ByteBuffer reply = ByteBuffer.allocateDirect(AcmMessage.MAX_LENGTH);
                final UnsafeBuffer view = new UnsafeBuffer(reply);
                final AcmHeader header = new AcmHeader();
                final IbvPathRecord path = new IbvPathRecord();
                for (int id = 0; id < ids; id++)
                {
                    reply.clear().limit(AcmHeader.LENGTH);
                    readFully(channels.get(id), reply);
                    reply.limit(header.wrap(view, 0).length());
                    readFully(channels.get(id), reply);
                    final PathRecordValue expected = destinations.get(id % destinationCount);
                    if (header.status() != 0 || header.length() < AcmMessage.resolveLength(1) ||
                        new AcmEpAddrData().wrap(view, AcmHeader.LENGTH).path(path).dlid() != expected.dlid().value())
                    {
                        wrong++;
                    }
                }
            }
            finally
            {
                for (final SocketChannel channel : channels)
                {
                    channel.close();
                }
            }
            final long elapsed = System.nanoTime() - start;
            final long routeQueries = server.service().counters().get(AcmCounter.ROUTE_QUERY) - routeQueriesBefore;
            System.out.printf("%n%s: %d ids over %d destinations through acm-server%s, one connection each: %.3f s, %d SA queries " +
                    "(acm-server ROUTE_QUERY; the SA client sent %d), %d wrong or failed%n", name, ids, destinationCount,
                preload ? " preloaded from a path dump of " + sweptPaths.size() + " routes" : " (route cache on)",
                elapsed / 1e9, routeQueries, sa.counters().get(SaCounter.SA_QUERIES_SENT) - saBefore, wrong);
            phase.report(name, routeQueries);
        }
    }

    private static void readFully(final SocketChannel channel, final ByteBuffer buffer) throws IOException
    {
        while (buffer.hasRemaining())
        {
            if (channel.read(buffer) < 0)
            {
                throw new IOException("acm-server closed the connection");
            }
        }
    }

    /**
     * OpenSM's {@code opensm-path-records.dump} as its opensmdumppr plugin writes it, from the sweep's
     * PathRecords: the source's section with a line per destination, and a header for every other HCA,
     * which is how a reader learns the GUID of each LID. (The real dump also lists every other source's
     * destinations; ibacm reads only its own ports' sections.)
     */
    private void writePathDump(final Path file) throws IOException
    {
        final StringBuilder dump = new StringBuilder(64 * (hcaByLid.size() + sweptPaths.size()));
        section(dump, sourceGid.interfaceId(), sourceLid);
        for (final PathRecordValue path : sweptPaths)
        {
            dump.append(String.format("0x%04x : %d  : %d   : %d%n", path.dlid().value(), path.sl(), path.mtu(), path.rate()));
        }
        for (final Map.Entry<Integer, Long> hca : hcaByLid.entrySet())
        {
            if (hca.getKey() != sourceLid)
            {
                dump.append('\n');
                section(dump, hca.getValue(), hca.getKey());
            }
        }
        Files.writeString(file, dump);
    }

    private static void section(final StringBuilder dump, final long portGuid, final int lid)
    {
        dump.append(String.format("Channel Adapter 0x%016x, base LID %d, \"HCA\", port 1%n# LID  : SL : MTU : RATE%n", portGuid, lid));
    }
}
