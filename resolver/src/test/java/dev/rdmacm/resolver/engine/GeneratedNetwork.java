package dev.rdmacm.resolver.engine;

import dev.rdmacm.libc.NetworkNamespace;
import dev.rdmacm.testing.EkJson;
import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.Peers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Two network namespaces of this test's own, {@code rdmacm-<pid>-rc<n>-host} and {@code -peer}, joined
 * by {@value #LINKS} veth pairs {@code hN} (host) and {@code pN} (peer), configured with iproute2 and
 * deleted on {@link #close()} (also by a shutdown hook if the JVM exits first). Traffic stays inside
 * them. The host's neighbour timers are stretched ({@link #quietNeighbourTimers}) so that an entry
 * keeps the state a case gave it while both sides read it.
 * <pre>
 *  host                          peer
 *  h0 10.0.0.1/24 fd00::1/64 --- p0 10.0.0.2/24 fd00::2/64
 *  h1 10.1.0.1/24 fd01::1/64 --- p1 10.1.0.2/24 fd01::2/64
 *  h2 10.2.0.1/24 fd02::1/64 --- p2 10.2.0.2/24 fd02::2/64
 * </pre>
 */
final class GeneratedNetwork implements AutoCloseable
{
    static final int LINKS = 3;
    private static final Duration COMMAND_LIMIT = Duration.ofSeconds(20);
    private static final AtomicInteger COUNTER = new AtomicInteger();

    private final String prefix = "rdmacm-" + ProcessHandle.current().pid() + "-rc" + COUNTER.incrementAndGet();
    final String host = prefix + "-host";
    final String peer = prefix + "-peer";
    private final List<String> created = new ArrayList<>();
    /** The kernel's answers between two changes of the configuration, or null until the next is asked. */
    private IpSession answering;
    private final Thread cleanup = new Thread(this::deleteAll, prefix + "-cleanup");

    private GeneratedNetwork()
    {
    }

    /** The namespaces and links above, addressed and up; requires root and iproute2. */
    static GeneratedNetwork create()
    {
        Peers.requireRoot("network namespaces");
        Peers.requireCommand("ip", "iproute2");
        final GeneratedNetwork network = new GeneratedNetwork();
        Runtime.getRuntime().addShutdownHook(network.cleanup);
        try
        {
            network.build();
            return network;
        }
        catch (final RuntimeException | Error ex)
        {
            network.close();
            throw ex;
        }
    }

    private void build()
    {
        for (final String ns : List.of(host, peer))
        {
            run("ip", "netns", "add", ns);
            created.add(ns);
        }
        final List<String> hostBatch = new ArrayList<>(List.of("link set lo up"));
        final List<String> peerBatch = new ArrayList<>(List.of("link set lo up"));
        for (int n = 0; n < LINKS; n++)
        {
            hostBatch.add("link add h" + n + " type veth peer name p" + n + " netns " + peer);
        }
        batch(host, hostBatch);
        hostBatch.clear();
        for (int n = 0; n < LINKS; n++)
        {
            hostBatch.add("link set h" + n + " address 02:00:00:00:0" + n + ":01");
            hostBatch.add("address add 10." + n + ".0.1/24 dev h" + n);
            hostBatch.add("address add fd0" + n + "::1/64 dev h" + n + " nodad");
            hostBatch.add("address add fe80::" + n + ":1/64 dev h" + n + " nodad");
            hostBatch.add("link set h" + n + " up");
            peerBatch.add("link set p" + n + " address 02:00:00:00:0" + n + ":02");
            peerBatch.add("address add 10." + n + ".0.2/24 dev p" + n);
            peerBatch.add("address add fd0" + n + "::2/64 dev p" + n + " nodad");
            peerBatch.add("address add fe80::" + n + ":2/64 dev p" + n + " nodad");
            peerBatch.add("link set p" + n + " up");
        }
        batch(host, hostBatch);
        batch(peer, peerBatch);
        final List<String> devices = new ArrayList<>();
        for (int n = 0; n < LINKS; n++)
        {
            devices.add("h" + n);
        }
        quietNeighbourTimers(devices);
    }

    /**
     * An entry set to REACHABLE, DELAY or PROBE would otherwise move on within seconds (to STALE, PROBE,
     * FAILED) between the kernel's answer and ours; with these timers it stays for minutes.
     */
    private void quietNeighbourTimers(final List<String> devices)
    {
        final List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", host, "sysctl", "-q", "-w"));
        for (final String device : devices)
        {
            for (final String family : List.of("ipv4", "ipv6"))
            {
                final String base = "net." + family + ".neigh." + device + ".";
                command.addAll(List.of(base + "base_reachable_time_ms=600000", base + "delay_first_probe_time=600",
                    base + "retrans_time_ms=600000"));
            }
        }
        run(command.toArray(String[]::new));
    }

    Path hostPath()
    {
        return NetworkNamespace.byName(host);
    }

    /** {@code ip -n HOST ARGS}: its standard output; a non-zero exit fails the test. */
    String ip(final String... args)
    {
        final List<String> command = new ArrayList<>(List.of("ip", "-n", host));
        command.addAll(List.of(args));
        return run(command.toArray(String[]::new));
    }

    /**
     * {@code ip -n HOST -j ARGS} that may fail, asked on {@link AskingCpu#CPU}, where our lookups are asked
     * too, of an {@link IpSession} that lasts until the configuration changes: the outcome, stdout and
     * stderr merged. Only for reads: a change goes through {@link #batch}, {@link #batchForced} or
     * {@link #tryIp}, which end the session.
     */
    HostCommand.Outcome ask(final String... args)
    {
        if (answering == null)
        {
            answering = new IpSession(host);
        }
        return answering.ask(String.join(" ", args), COMMAND_LIMIT);
    }

    private void endAnswering()
    {
        if (answering != null)
        {
            answering.close();
            answering = null;
        }
    }

    /**
     * {@code ip -n HOST ARGS} that may fail, run on {@link AskingCpu#CPU}, where our lookups are asked
     * too: the outcome, stdout and stderr merged.
     */
    HostCommand.Outcome tryIp(final String... args)
    {
        endAnswering();
        final List<String> command = new ArrayList<>(List.of("ip", "-n", host));
        command.addAll(List.of(args));
        return HostCommand.run(COMMAND_LIMIT, null, AskingCpu.on(command));
    }

    /** {@link #ask}, which must succeed, parsed: one map per object of the array ip prints. */
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> askJson(final String... args)
    {
        final String json = ask(args).orFail("ip " + String.join(" ", args)).output().strip();
        return json.isEmpty() ? List.of() : (List<Map<String, Object>>)EkJson.parse(json);
    }

    /** {@code ip -n HOST -j ARGS}, parsed: one map per object of the array it prints. */
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> ipJson(final String... args)
    {
        final List<String> command = new ArrayList<>(List.of("-j"));
        command.addAll(List.of(args));
        final String json = ip(command.toArray(String[]::new)).strip();
        return json.isEmpty() ? List.of() : (List<Map<String, Object>>)EkJson.parse(json);
    }

    /** Runs {@code commands} in the host namespace with {@code ip -batch}; any failing line fails the test. */
    void batch(final List<String> commands)
    {
        endAnswering();
        for (final List<String> run : familyRuns(commands))
        {
            batch(host, run);
        }
    }

    /**
     * A batch line takes no options, so consecutive lines that begin with {@code -6} run as one
     * {@code ip -6 -batch}, the others as one {@code ip -batch}, in order.
     */
    private static List<List<String>> familyRuns(final List<String> commands)
    {
        final List<List<String>> runs = new ArrayList<>();
        List<String> run = null;
        boolean runIsIpv6 = false;
        for (final String command : commands)
        {
            final boolean ipv6 = command.startsWith("-6 ");
            if (run == null || ipv6 != runIsIpv6)
            {
                run = new ArrayList<>();
                runs.add(run);
                runIsIpv6 = ipv6;
            }
            run.add(command);
        }
        return runs;
    }

    /**
     * Runs {@code commands} in the host namespace with {@code ip -force -batch}: a line the kernel refuses
     * (a generated nexthop through a link that is down...) is skipped; returns what ip said about it.
     */
    String batchForced(final List<String> commands)
    {
        endAnswering();
        final StringBuilder refused = new StringBuilder();
        for (final List<String> run : familyRuns(commands))
        {
            final boolean ipv6 = run.getFirst().startsWith("-6 ");
            final Path file = writeBatch(ipv6 ? run.stream().map(line -> line.substring(3)).toList() : run);
            try
            {
                final List<String> command = new ArrayList<>(List.of("ip", "-n", host, "-force", "-batch", file.toString()));
                if (ipv6)
                {
                    command.add(3, "-6");
                }
                final HostCommand.Outcome outcome = HostCommand.run(COMMAND_LIMIT, null, command);
                if (!outcome.succeeded())
                {
                    refused.append(outcome.output().strip()).append('\n');
                }
            }
            finally
            {
                deleteQuietly(file);
            }
        }
        return refused.toString().strip();
    }

    private Path writeBatch(final List<String> commands)
    {
        try
        {
            final Path file = Files.createTempFile(prefix, ".ip");
            Files.writeString(file, String.join("\n", commands) + "\n", StandardCharsets.UTF_8);
            return file;
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot write an ip batch file: " + ex, ex);
        }
    }

    private static void deleteQuietly(final Path file)
    {
        try
        {
            Files.deleteIfExists(file);
        }
        catch (final IOException ignored)
        {
            // a temporary file left behind is harmless
        }
    }

    private void batch(final String ns, final List<String> commands)
    {
        if (commands.isEmpty())
        {
            return;
        }
        final boolean ipv6 = commands.getFirst().startsWith("-6 ");
        final Path file = writeBatch(ipv6 ? commands.stream().map(line -> line.substring(3)).toList() : commands);
        try
        {
            if (ipv6)
            {
                run("ip", "-n", ns, "-6", "-batch", file.toString());
            }
            else
            {
                run("ip", "-n", ns, "-batch", file.toString());
            }
        }
        finally
        {
            deleteQuietly(file);
        }
    }

    private static String run(final String... command)
    {
        return HostCommand.run(COMMAND_LIMIT, command).orFail(command[0]).output();
    }

    @Override
    public void close()
    {
        endAnswering();
        deleteAll();
        try
        {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
        catch (final IllegalStateException ignored)
        {
            // the JVM is already shutting down and runs the hook itself
        }
    }

    private synchronized void deleteAll()
    {
        for (int i = created.size() - 1; i >= 0; i--)
        {
            HostCommand.run(COMMAND_LIMIT, "ip", "netns", "del", created.get(i));
        }
        created.clear();
    }
}
