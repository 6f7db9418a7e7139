package dev.rdmacm.cli.demo;

import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaClientConfig;
import dev.rdmacm.sa.SaQueryException;
import dev.rdmacm.sa.path.PathQuery;
import dev.rdmacm.sa.path.PathRecords;
import dev.rdmacm.sa.transport.LocalPort;
import dev.rdmacm.sa.transport.MadTransportException;
import dev.rdmacm.sa.transport.ibsim.IbsimCommandLines;
import dev.rdmacm.sa.transport.ibsim.IbsimPorts;
import dev.rdmacm.sa.transport.ibsim.IbsimTransport;
import dev.rdmacm.sa.transport.ibsim.Umad2simLibrary;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The demo's fabric: ibsim (UDP mode) on the bundled two-switch, four-HCA topology and OpenSM
 * attached as Hca1 through umad2sim, with an ibacm hosts file for its HCAs. Ready when the SA answers
 * a PathRecord Get of ours; closing stops exactly the two processes it started, by PID, and removes
 * the files it wrote. {@code rdmacm demo} starts one in a temporary directory on a free port and closes
 * it; {@code rdmacm fabric start} starts one {@linkplain #startKept kept}, in its state directory on a
 * port of the user's, and leaves it running.
 */
public final class DemoFabric implements AutoCloseable
{
    public static final String HOST = IbsimCommandLines.HOST;
    public static final String SM_NODE = "Hca1";
    public static final List<String> HCAS = List.of("Hca1", "Hca2", "Hca3", "Hca4");
    public static final String UMAD2SIM = Umad2simLibrary.find().toString();
    /** The hosts file it writes: ibacm's name, each HCA at 10.0.0.LID. */
    public static final String HOSTS_FILE = "ibacm_hosts.data";
    /** Every file and directory it writes in its directory, and nothing else: what {@link #close()} removes. */
    public static final List<String> FILES = List.of("topo.net", "ibsim.log", "opensm", HOSTS_FILE);
    private static final long READY_MILLIS = 15_000;

    private final Path dir;
    private final int ctlPort;
    private final boolean kept;
    private final List<DemoProcess> started = new ArrayList<>();
    private final List<LocalPort> hcaPorts = new ArrayList<>();

    private DemoFabric(final Path dir, final int ctlPort, final boolean kept)
    {
        this.dir = dir;
        this.ctlPort = ctlPort;
        this.kept = kept;
    }

    /** Starts ibsim and OpenSM in a temporary directory on free ports and waits for the SA; {@code say} hears each step. */
    public static DemoFabric start(final Consumer<String> say) throws IOException
    {
        return start(Files.createTempDirectory("rdmacm-demo"), IbsimPorts.freeRange(), false, say);
    }

    /**
     * Starts ibsim on UDP ports {@code ctlPort}..+11 and OpenSM, with their files in {@code dir}, each in
     * a session of its own so that they outlive this JVM; {@link #close()} still stops them, which the
     * caller does only when it fails before it recorded them.
     */
    public static DemoFabric startKept(final Path dir, final int ctlPort, final Consumer<String> say) throws IOException
    {
        return start(dir, ctlPort, true, say);
    }

    private static DemoFabric start(final Path dir, final int ctlPort, final boolean kept, final Consumer<String> say)
        throws IOException
    {
        final DemoFabric fabric = new DemoFabric(dir, ctlPort, kept);
        try
        {
            fabric.startPeers(say);
            fabric.writeHostsFile();
            return fabric;
        }
        catch (final IOException | RuntimeException ex)
        {
            fabric.close();
            throw ex;
        }
    }

    /**
     * The first of ibsim, opensm and setsid not on {@code PATH}, and the Debian package that has it,
     * as {@code "ibsim (ibsim-utils)"}; or null when every one is there. ProcessBuilder looks commands up
     * on this JVM's PATH too.
     */
    public static String missingCommand()
    {
        final Map<String, String> packages = Map.of("ibsim", "ibsim-utils", "opensm", "opensm", "setsid", "util-linux");
        for (final String command : List.of("ibsim", "opensm", "setsid"))
        {
            boolean found = false;
            for (final String directory : System.getenv().getOrDefault("PATH", "").split(":"))
            {
                found |= !directory.isEmpty() && Files.isExecutable(Path.of(directory, command));
            }
            if (!found)
            {
                return command + " (Debian package " + packages.get(command) + ")";
            }
        }
        return null;
    }

    private void startPeers(final Consumer<String> say) throws IOException
    {
        final Path topology = dir.resolve("topo.net");
        try (InputStream in = DemoFabric.class.getResourceAsStream("topo.net"))
        {
            Files.copy(in, topology, StandardCopyOption.REPLACE_EXISTING);
        }
        final DemoProcess ibsim = DemoProcess.start("ibsim", IbsimCommandLines.ibsim(ctlPort, List.of(), topology), dir,
            Map.of(), dir.resolve("ibsim.log"), kept);
        started.add(ibsim);
        awaitLog(ibsim, IbsimCommandLines.READY_LINE);
        say.accept("ibsim started (" + ibsim + "), UDP port " + ctlPort + ", topology " + HCAS.size() +
            " HCAs and 2 switches");

        if (!Files.isRegularFile(Path.of(UMAD2SIM)))
        {
            throw new IOException("no umad2sim library at " + UMAD2SIM + ", which OpenSM needs to attach to ibsim: " +
                "install libumad2sim0 (ibsim-utils)");
        }
        final Path smDir = Files.createDirectories(dir.resolve("opensm"));
        final DemoProcess openSm = DemoProcess.start("opensm", IbsimCommandLines.openSm(smDir), smDir,
            IbsimCommandLines.openSmEnvironment(ctlPort, SM_NODE, smDir), smDir.resolve("opensm.out"), kept);
        started.add(openSm);
        final long start = System.nanoTime();
        awaitSubnetAdministrator(openSm);
        say.accept(String.format(Locale.ROOT, "OpenSM started (%s) as %s; its SA answered after %.0f ms",
            openSm, SM_NODE, (System.nanoTime() - start) / 1e6));
        for (final String node : HCAS)
        {
            try (IbsimTransport transport = IbsimTransport.attach(HOST, ctlPort, node, Duration.ofSeconds(2)))
            {
                hcaPorts.add(transport.localPort());
            }
        }
    }

    /**
     * The SA ignores MADs until the first sweep ends, and a port learns its LID and the SM's only from
     * that sweep: attach as Hca2 until PortInfo names an SM, then ask Hca2's own path until it answers.
     */
    private void awaitSubnetAdministrator(final DemoProcess openSm)
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(READY_MILLIS);
        while (System.nanoTime() < deadline)
        {
            if (!openSm.isAlive())
            {
                throw new MadTransportException("OpenSM exited:\n" + openSm.log());
            }
            final IbsimTransport transport = IbsimTransport.attach(HOST, ctlPort, "Hca2", Duration.ofSeconds(2));
            final LocalPort local = transport.localPort();
            if (local.smLid() == 0 || local.lid() == 0)
            {
                transport.close();
                sleep(20);
                continue;
            }
            try (SaClient sa = SaClient.start(transport, SaClientConfig.defaults().withCacheTtl(Duration.ZERO)))
            {
                PathRecords.query(sa, PathQuery.byGids(local.gid(), local.gid()), Duration.ofMillis(200))
                    .get(5, TimeUnit.SECONDS);
                return;
            }
            catch (final ExecutionException ex)
            {
                if (!(ex.getCause() instanceof SaQueryException))
                {
                    throw new MadTransportException("asking the SA: " + ex.getCause());
                }
            }
            catch (final TimeoutException ex)
            {
                throw new MadTransportException("the SA client did not end a query");
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new MadTransportException("interrupted waiting for the SA");
            }
        }
        throw new MadTransportException("OpenSM's SA did not answer within " + READY_MILLIS + " ms:\n" + openSm.log());
    }

    private static void awaitLog(final DemoProcess process, final String line)
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(READY_MILLIS);
        while (System.nanoTime() < deadline)
        {
            if (!process.isAlive())
            {
                throw new MadTransportException(process + " exited:\n" + process.log());
            }
            if (process.log().contains(line))
            {
                return;
            }
            sleep(5);
        }
        throw new MadTransportException(process + " did not print '" + line + "':\n" + process.log());
    }

    /** Writes {@link #HOSTS_FILE}: every HCA's address and GID, standing in for IPoIB's neighbour table. */
    private void writeHostsFile() throws IOException
    {
        final List<String> lines = new ArrayList<>();
        lines.add("# ibacm_hosts.data: address GID, one host per HCA of the simulated fabric");
        for (final LocalPort port : hcaPorts)
        {
            lines.add(address(port).getHostAddress() + " " + port.gid());
        }
        Files.write(hostsFile(), lines);
    }

    /** The address the hosts file gives an HCA: 10.0.0.LID. */
    public static InetAddress address(final LocalPort port)
    {
        try
        {
            return InetAddress.getByAddress(new byte[] {10, 0, 0, (byte)port.lid()});
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /** The ibacm hosts file, as {@code --hosts} takes it. */
    public Path hostsFile()
    {
        return dir.resolve(HOSTS_FILE);
    }

    public int ctlPort()
    {
        return ctlPort;
    }

    /** Each HCA's port as ibsim reports it to a client attached as that node: name, LID, GUID, GID. */
    public List<LocalPort> hcaPorts()
    {
        return List.copyOf(hcaPorts);
    }

    /** {@code ibsim:127.0.0.1:P:NODE}, as {@code --fabric} takes it. */
    public String fabricOption(final String node)
    {
        return "ibsim:" + HOST + ":" + ctlPort + ":" + node;
    }

    public Path dir()
    {
        return dir;
    }

    /** The PIDs of the processes it started, OpenSM last. */
    public List<Long> pids()
    {
        return started.stream().map(DemoProcess::pid).toList();
    }

    /** When each process of {@link #pids()} started, in ms since the epoch, in the same order. */
    public List<Long> startMillis()
    {
        return started.stream().map(DemoProcess::startMillis).toList();
    }

    /** Stops OpenSM, then ibsim (each by its PID), and removes its files. */
    @Override
    public void close()
    {
        for (int i = started.size() - 1; i >= 0; i--)
        {
            started.get(i).close();
        }
        removeFiles(dir);
    }

    /**
     * Removes the {@link #FILES} a fabric wrote in {@code dir}, then {@code dir} when nothing else is
     * left in it: a directory the user named may hold files of theirs.
     */
    public static void removeFiles(final Path dir)
    {
        for (final String name : FILES)
        {
            final Path file = dir.resolve(name);
            if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS))
            {
                continue;
            }
            try (Stream<Path> paths = Files.walk(file))
            {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
            catch (final IOException ignored)
            {
                // a file left behind is not worth failing for; the directory then stays too
            }
        }
        dir.toFile().delete();
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
            throw new MadTransportException("interrupted");
        }
    }
}
