package dev.rdmacm.sa.testing;

import dev.rdmacm.sa.transport.ibsim.IbsimCommandLines;
import dev.rdmacm.sa.transport.ibsim.IbsimPorts;
import dev.rdmacm.sa.transport.ibsim.Umad2simLibrary;
import dev.rdmacm.testing.Peers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A simulated InfiniBand fabric for tests: ibsim in UDP mode on the 2-switch, 4-HCA {@code topo.net}
 * (or any {@link FabricTopology}, e.g. a {@link FatTreeTopology}) and a real OpenSM attached as
 * {@code Hca1} through umad2sim, with {@code saquery} as the oracle.
 * <p>
 * Each fabric gets its own UDP ports (ibsim's ctl port P and data ports P+1+clientid) and its own
 * temporary directory (OpenSM's cache and log, umad2sim's {@code ./sys-<pid>/} trees). {@link #close()}
 * stops only the processes this fabric started, by PID, waits for them and deletes the directory.
 * Use it from {@code @BeforeAll}/{@code @AfterAll}: starting one takes well under a second.
 */
public final class SimulatedFabric implements AutoCloseable
{
    /**
     * umad2sim's preload library, wherever this machine's multiarch layout put it (Debian's libumad2sim0
     * installs it under /usr/lib/&lt;triplet&gt;/umad2sim/); when it is nowhere, the path it has on x86-64,
     * so that {@link #requirePeers()} names both the path and the package to install.
     */
    public static final String UMAD2SIM = Umad2simLibrary.find().toString();
    /** The node OpenSM attaches as; its SA answers at this node's LID. */
    public static final String SM_NODE = "Hca1";
    /** The HCA names of {@code topo.net}. */
    public static final List<String> HCAS = FabricTopology.twoSwitches().hcas();
    public static final String HOST = IbsimCommandLines.HOST;

    private static final long IBSIM_READY_MILLIS = 10_000;
    private static final int SM_START_ATTEMPTS = 3;
    private static final long SAQUERY_MILLIS = 20_000;
    private static final int MAX_DISCOVERED_LID = 32;

    private final FabricTopology topology;
    private final Path workDir;
    private final int ctlPort;
    private final StartedProcess ibsim;
    private StartedProcess openSm;
    private int openSmStarts;
    private List<FabricPort> hcaPorts;
    private final Thread shutdownHook;

    private SimulatedFabric(final FabricTopology topology, final Path workDir, final int ctlPort, final StartedProcess ibsim)
    {
        this.topology = topology;
        this.workDir = workDir;
        this.ctlPort = ctlPort;
        this.ibsim = ibsim;
        // A JVM that exits without close() (a failed JMH setup, a killed test run) must not leave peers behind.
        this.shutdownHook = new Thread(this::stopEverything, "simulated-fabric-stop-" + ctlPort);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Requires ibsim, OpenSM, saquery and umad2sim (failing under CI=true), starts them and waits for the SA. */
    public static SimulatedFabric start()
    {
        return start(FabricTopology.twoSwitches());
    }

    /**
     * Starts ibsim on {@code topology} and OpenSM on its SM node. The HCA ports are discovered from
     * OpenSM's NodeRecords (one saquery per LID) on the first {@link #hcaPorts()}, which a fabric of
     * thousands of HCAs should rather learn with its own SA queries.
     */
    public static SimulatedFabric start(final FabricTopology topology)
    {
        if (!topology.smNode().equals(SM_NODE))
        {
            throw new IllegalArgumentException("OpenSM attaches as " + SM_NODE + ", not " + topology.smNode());
        }
        requirePeers();
        Path dir = null;
        SimulatedFabric fabric = null;
        try
        {
            dir = Files.createTempDirectory("rdmacm-fabric");
            final Path netFile = dir.resolve("topology.net");
            Files.writeString(netFile, topology.netFile(), StandardCharsets.US_ASCII);
            fabric = startIbsim(topology, dir, netFile);
            fabric.startSubnetManager();
            return fabric;
        }
        catch (final IOException | RuntimeException | AssertionError ex)
        {
            if (fabric != null)
            {
                fabric.close();
            }
            else
            {
                deleteTree(dir);
            }
            if (ex instanceof AssertionError assertion)
            {
                throw assertion;
            }
            throw new AssertionError("cannot start the simulated fabric: " + ex, ex);
        }
    }

    public static void requirePeers()
    {
        Peers.requireCommand("ibsim", "ibsim-utils");
        Peers.requireCommand("opensm", "opensm");
        Peers.requireCommand("saquery", "infiniband-diags");
        Peers.requireFile(UMAD2SIM, "libumad2sim0 (ibsim-utils)");
    }

    private static SimulatedFabric startIbsim(final FabricTopology topology, final Path dir, final Path netFile)
    {
        AssertionError last = null;
        for (int attempt = 0; attempt < 5; attempt++)
        {
            final int port = IbsimPorts.freeRange();
            final List<String> command = IbsimCommandLines.ibsim(port, topology.ibsimCapacity(), netFile);
            final StartedProcess ibsim = StartedProcess.start("ibsim", command, dir, Map.of(), dir.resolve("ibsim-" + attempt + ".log"));
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(IBSIM_READY_MILLIS);
            while (ibsim.isAlive() && !ibsim.log().contains(IbsimCommandLines.READY_LINE) && System.nanoTime() < deadline)
            {
                sleep(5);
            }
            if (ibsim.isAlive() && ibsim.log().contains(IbsimCommandLines.READY_LINE))
            {
                return new SimulatedFabric(topology, dir, port, ibsim);
            }
            last = new AssertionError("ibsim on UDP port " + port + " did not become ready:\n" + ibsim.log());
            ibsim.close();
        }
        throw last;
    }

    /** Starts OpenSM as {@link #SM_NODE} and waits until its SA answers {@code saquery -c}. */
    public void startSubnetManager()
    {
        if (openSm != null && openSm.isAlive())
        {
            throw new IllegalStateException("OpenSM already runs: " + openSm);
        }
        // An OpenSM started after another was SIGKILLed has been seen never to answer: its SA stays
        // silent to saquery too, so the fault is the peers', not the client's under test. Such a start
        // is stopped (SIGTERM, so that its ibsim slot is freed) and tried again, a bounded number of times.
        AssertionError lastFailure = null;
        for (int attempt = 1; attempt <= SM_START_ATTEMPTS; attempt++)
        {
            launchSubnetManager();
            try
            {
                awaitSubnetAdministrator();
                return;
            }
            catch (final AssertionError ex)
            {
                lastFailure = ex;
                openSm.close();
            }
        }
        throw lastFailure;
    }

    private void launchSubnetManager()
    {
        final Path smDir = workDir.resolve("opensm-" + openSmStarts++);
        try
        {
            Files.createDirectories(smDir);
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot create " + smDir, ex);
        }
        openSm = StartedProcess.start("opensm", IbsimCommandLines.openSm(smDir), smDir,
            IbsimCommandLines.openSmEnvironment(ctlPort, SM_NODE, smDir), smDir.resolve("opensm.out"));
    }

    /** Stops OpenSM with SIGTERM (by PID) and waits for it. */
    public void stopSubnetManager()
    {
        if (openSm != null)
        {
            openSm.close();
        }
    }

    public boolean subnetManagerRunning()
    {
        return openSm != null && openSm.isAlive();
    }

    /** Polls {@code saquery -c} (the SA ignores MADs until its first sweep ends) within a bound. */
    public void awaitSubnetAdministrator()
    {
        final long deadline = System.nanoTime() + topology.saReadyWithin().toNanos();
        Saquery last = null;
        while (System.nanoTime() < deadline)
        {
            if (!openSm.isAlive())
            {
                throw new AssertionError("OpenSM exited before its SA answered: " + openSm + "\n" + openSm.log());
            }
            last = saquery(topology.probeNode(), "-c", "-t", "200");
            if (last.exitCode() == 0 && last.output().contains("SA ClassPortInfo"))
            {
                return;
            }
            sleep(20);
        }
        throw new AssertionError("OpenSM's SA did not answer saquery -c within " + topology.saReadyWithin() + " on " +
            topology.description() + "; last: " + last);
    }

    /** Runs {@code saquery args...} attached as {@code node}, in its own directory (umad2sim writes ./sys-<pid>/ there). */
    public Saquery saquery(final String node, final String... args)
    {
        final List<String> command = new ArrayList<>();
        command.add("saquery");
        command.addAll(List.of(args));
        final Path dir = workDir.resolve("saquery");
        try
        {
            Files.createDirectories(dir);
            // Output to a file, not a pipe: a hung saquery must not block us past the time limit.
            final Path output = Files.createTempFile(dir, "saquery", ".out");
            final ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile()).redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
            builder.environment().putAll(umadEnvironment(node));
            final Process process = builder.start();
            try
            {
                if (!process.waitFor(SAQUERY_MILLIS, TimeUnit.MILLISECONDS))
                {
                    process.destroyForcibly();
                    process.waitFor();
                    throw new AssertionError("saquery " + String.join(" ", args) + " did not finish in " + SAQUERY_MILLIS + " ms");
                }
                return new Saquery(String.join(" ", command), process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
            }
            finally
            {
                Files.deleteIfExists(output);
            }
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot run saquery: " + ex, ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running saquery", ex);
        }
    }

    /** The environment a umad2sim program needs to attach to this fabric as {@code node}. */
    public Map<String, String> umadEnvironment(final String node)
    {
        return IbsimCommandLines.umadEnvironment(ctlPort, node);
    }

    /** ibsim's ctl UDP port. */
    public int ctlPort()
    {
        return ctlPort;
    }

    public String host()
    {
        return HOST;
    }

    /** The HCA ports, discovered from OpenSM's NodeRecords on the first call, in LID order. */
    public synchronized List<FabricPort> hcaPorts()
    {
        if (hcaPorts == null)
        {
            hcaPorts = discoverHcaPorts();
        }
        return hcaPorts;
    }

    public FabricTopology topology()
    {
        return topology;
    }

    public FabricPort port(final String node)
    {
        return hcaPorts().stream().filter(p -> p.node().equals(node)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("no HCA named " + node + " in " + hcaPorts));
    }

    /** The SA's LID: the LID of the node OpenSM runs on. */
    public int smLid()
    {
        return port(SM_NODE).lid();
    }

    public Path workDir()
    {
        return workDir;
    }

    /** ibsim's process id, e.g. to read its CPU time from /proc. */
    public long ibsimPid()
    {
        return ibsim.pid();
    }

    /** OpenSM's process id (of the instance running now). */
    public long openSmPid()
    {
        if (openSm == null)
        {
            throw new IllegalStateException("OpenSM is not running on " + this);
        }
        return openSm.pid();
    }

    private List<FabricPort> discoverHcaPorts()
    {
        final List<FabricPort> ports = new ArrayList<>();
        final List<String> hcas = topology.hcas();
        if (hcas.size() > MAX_DISCOVERED_LID)
        {
            throw new IllegalStateException(topology.description() + ": " + hcas.size() + " HCAs are too many to discover " +
                "with one saquery each (at most " + MAX_DISCOVERED_LID + "); ask the SA for their NodeRecords instead");
        }
        for (int lid = 1; lid <= MAX_DISCOVERED_LID && ports.size() < hcas.size(); lid++)
        {
            final Saquery nodeRecord = saquery(topology.probeNode(), "NR", Integer.toString(lid));
            for (final Map<String, String> record : SaqueryRecords.parse(nodeRecord.output()))
            {
                if ("Channel Adapter".equals(record.get("node_type")))
                {
                    ports.add(new FabricPort(
                        record.get("NodeDescription"), Integer.parseInt(record.get("lid")),
                        Long.parseUnsignedLong(record.get("port_guid").substring(2), 16)));
                }
            }
        }
        if (ports.size() != hcas.size())
        {
            throw new AssertionError("OpenSM's NodeRecords name " + ports + ", expected the HCAs " + hcas);
        }
        return List.copyOf(ports);
    }

    @Override
    public void close()
    {
        try
        {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        }
        catch (final IllegalStateException alreadyShuttingDown)
        {
            // the hook runs stopEverything itself
        }
        stopEverything();
    }

    private void stopEverything()
    {
        try
        {
            if (openSm != null)
            {
                openSm.close();
            }
        }
        finally
        {
            ibsim.close();
            deleteTree(workDir);
        }
    }

    @Override
    public String toString()
    {
        return "SimulatedFabric{ibsim udp " + ctlPort + ", " + ibsim + ", " + openSm + ", " + workDir + "}";
    }

    private static void sleep(final long millis)
    {
        try
        {
            Thread.sleep(millis);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", ex);
        }
    }

    private static void deleteTree(final Path dir)
    {
        if (dir == null)
        {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir))
        {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        catch (final IOException ignored)
        {
            // a temp directory left behind is not worth failing a test for
        }
    }

    /** One saquery run: the command line, its exit code and its output. */
    public record Saquery(String command, int exitCode, String output)
    {
        public List<Map<String, String>> records()
        {
            return SaqueryRecords.parse(output);
        }
    }
}
