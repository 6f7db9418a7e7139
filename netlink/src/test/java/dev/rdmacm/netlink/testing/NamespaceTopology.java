package dev.rdmacm.netlink.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rdmacm.libc.NetworkNamespace;
import dev.rdmacm.testing.Peers;
import dev.rdmacm.verbs.sysfs.RecordedSysfsTrees;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Network namespaces joined by veth pairs, built with iproute2 and deleted on {@link #close()} (also
 * when building fails half-way, and by a shutdown hook if the JVM exits first). Names are unique:
 * {@code rdmacm-<pid>-<n>-<role>}. The host's {@value #RDMA_NETDEV} is the netdev of the recorded
 * soft-RoCE sysfs tree ({@link RecordedGids#softRoce()}): same name, MAC and addresses, so the verbs
 * module's GID table binds it; every other host link has no RDMA device.
 * <pre>
 *  host                                         gw (forwarding)                     far
 *  veth-rdma0 52:54:00:12:34:56 ------------- b0 192.0.2.2/24, .10-.249   g1 --- c0 10.3.0.2/24
 *    192.0.2.1/24 2001:db8::1/64                 2001:db8::2/64 fe80::2    10.3.0.1   fd03::2/64
 *    fe80::5054:ff:fe12:3456/64                                            fd03::1
 *  a2 10.4.0.1/24 (retrans 100 ms) ---------- b2 (no address: never answers)        [peer]
 *  a3 10.5.0.1/24 ---------------------------- b3 10.5.0.2/24                        [peer]
 *  routes: 10.3.0.0/24 via 192.0.2.2 hoplimit 7, fd03::/64 via 2001:db8::2,
 *          unreachable 198.18.1.0/24 2001:db8:1::/48, prohibit 203.0.113.0/24 2001:db8:2::/48,
 *          blackhole 198.51.100.0/24 2001:db8:3::/48, throw 10.9.0.0/16 2001:db8:4::/48
 * </pre>
 */
public final class NamespaceTopology implements AutoCloseable
{
    public static final String RDMA_NETDEV = RecordedSysfsTrees.SOFT_ROCE_NETDEV;
    public static final String RDMA_NETDEV_MAC = "52:54:00:12:34:56";
    /** Addresses 192.0.2.10 to 192.0.2.249 on the gateway's b0, for many distinct neighbours. */
    public static final int EXTRA_GATEWAY_ADDRESSES = 240;
    public static final int FIRST_EXTRA_GATEWAY_ADDRESS = 10;

    private static final AtomicInteger COUNTER = new AtomicInteger();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String prefix = "rdmacm-" + ProcessHandle.current().pid() + "-" + COUNTER.incrementAndGet();
    private final List<String> created = new ArrayList<>();
    private final Thread cleanup = new Thread(this::deleteAll, prefix + "-cleanup");

    public final String host = prefix + "-host";
    public final String peer = prefix + "-peer";
    public final String gateway = prefix + "-gw";
    public final String far = prefix + "-far";

    private NamespaceTopology()
    {
    }

    /** Builds the topology above; requires root and iproute2 (fails in CI without them). */
    public static NamespaceTopology create()
    {
        Peers.requireRoot("network namespaces");
        Peers.requireCommand("ip", "iproute2");
        final NamespaceTopology topology = new NamespaceTopology();
        Runtime.getRuntime().addShutdownHook(topology.cleanup);
        try
        {
            topology.build();
            return topology;
        }
        catch (final RuntimeException | Error ex)
        {
            topology.close();
            throw ex;
        }
    }

    private void build()
    {
        for (final String ns : List.of(host, peer, gateway, far))
        {
            run("ip", "netns", "add", ns);
            created.add(ns);
            ip(ns, "link", "set", "lo", "up");
        }
        veth(host, RDMA_NETDEV, gateway, "b0");
        ip(host, "link", "set", RDMA_NETDEV, "address", RDMA_NETDEV_MAC);
        veth(host, "a2", peer, "b2");
        veth(host, "a3", peer, "b3");
        veth(gateway, "g1", far, "c0");

        // Every IPv6 link needs a link-local address: without one the kernel sends no neighbour solicitation.
        address(host, RDMA_NETDEV, RecordedSysfsTrees.SOFT_ROCE_IPV4 + "/24", RecordedSysfsTrees.SOFT_ROCE_IPV6 + "/64",
            RecordedSysfsTrees.SOFT_ROCE_LINK_LOCAL_GID + "/64");
        address(gateway, "b0", "192.0.2.2/24", "2001:db8::2/64", "fe80::2/64");
        address(gateway, "g1", "10.3.0.1/24", "fd03::1/64", "fe80::31/64");
        address(far, "c0", "10.3.0.2/24", "fd03::2/64", "fe80::32/64");
        address(host, "a2", "10.4.0.1/24");
        address(host, "a3", "10.5.0.1/24");
        address(peer, "b3", "10.5.0.2/24");
        final StringBuilder batch = new StringBuilder();
        for (int i = 0; i < EXTRA_GATEWAY_ADDRESSES; i++)
        {
            batch.append("address add 192.0.2.").append(FIRST_EXTRA_GATEWAY_ADDRESS + i).append("/24 dev b0\n");
        }
        batch(gateway, batch.toString());

        for (final String[] link : List.of(new String[]{host, RDMA_NETDEV}, new String[]{host, "a2"},
            new String[]{host, "a3"}, new String[]{gateway, "b0"}, new String[]{peer, "b2"},
            new String[]{peer, "b3"}, new String[]{gateway, "g1"}, new String[]{far, "c0"}))
        {
            ip(link[0], "link", "set", link[1], "up");
        }
        sysctl(gateway, "net.ipv4.ip_forward", "1");
        sysctl(gateway, "net.ipv6.conf.all.forwarding", "1");
        sysctl(host, "net.ipv4.neigh.a2.retrans_time_ms", "100");

        ip(host, "route", "add", "10.3.0.0/24", "via", "192.0.2.2", "hoplimit", "7");
        ip(host, "-6", "route", "add", "fd03::/64", "via", "2001:db8::2");
        ip(far, "route", "add", "default", "via", "10.3.0.1");
        ip(far, "-6", "route", "add", "default", "via", "fd03::1");
        ip(host, "route", "add", "unreachable", "198.18.1.0/24");
        ip(host, "route", "add", "prohibit", "203.0.113.0/24");
        ip(host, "route", "add", "blackhole", "198.51.100.0/24");
        ip(host, "route", "add", "throw", "10.9.0.0/16");
        ip(host, "-6", "route", "add", "unreachable", "2001:db8:1::/48");
        ip(host, "-6", "route", "add", "prohibit", "2001:db8:2::/48");
        ip(host, "-6", "route", "add", "blackhole", "2001:db8:3::/48");
        ip(host, "-6", "route", "add", "throw", "2001:db8:4::/48");
    }

    public Path hostPath()
    {
        return NetworkNamespace.byName(host);
    }

    /** Creates a veth pair, {@code left} in {@code leftNs} and {@code right} in {@code rightNs}, with fixed link-local addressing. */
    public void veth(final String leftNs, final String left, final String rightNs, final String right)
    {
        ip(leftNs, "link", "add", left, "type", "veth", "peer", "name", right, "netns", rightNs);
        // No automatic fe80:: address: the tests add fixed ones, with nodad so none stays tentative.
        ip(leftNs, "link", "set", left, "addrgenmode", "none");
        ip(rightNs, "link", "set", right, "addrgenmode", "none");
    }

    public void address(final String ns, final String dev, final String... addresses)
    {
        for (final String address : addresses)
        {
            if (address.contains(":"))
            {
                ip(ns, "address", "add", address, "dev", dev, "nodad");
            }
            else
            {
                ip(ns, "address", "add", address, "dev", dev);
            }
        }
    }

    public void sysctl(final String ns, final String key, final String value)
    {
        run("ip", "netns", "exec", ns, "sysctl", "-q", "-w", key + "=" + value);
    }

    /** Runs {@code ip -n NS ARGS...} and returns its standard output; fails the test on a non-zero exit. */
    public String ip(final String ns, final String... args)
    {
        final List<String> command = new ArrayList<>(List.of("ip", "-n", ns));
        command.addAll(List.of(args));
        return run(command.toArray(String[]::new));
    }

    /** Runs {@code ip -n NS -j ARGS...} and parses its JSON array. */
    public List<Map<String, Object>> ipJson(final String ns, final String... args)
    {
        final List<String> command = new ArrayList<>(List.of("-j"));
        command.addAll(List.of(args));
        return parseJsonArray(ip(ns, command.toArray(String[]::new)));
    }

    /** Parses the JSON array of objects that {@code ip -j} prints (numbers as Integer or Long). */
    public static List<Map<String, Object>> parseJsonArray(final String json)
    {
        try
        {
            return JSON.readValue(json.isBlank() ? "[]" : json, new TypeReference<>() { });
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalStateException("ip printed no JSON array: " + json, ex);
        }
    }

    /** Like {@link #ip} but returns the exit status and stderr instead of failing: for expected errors. */
    public ProcessResult tryIp(final String ns, final String... args)
    {
        final List<String> command = new ArrayList<>(List.of("ip", "-n", ns));
        command.addAll(List.of(args));
        return exec(command.toArray(String[]::new));
    }

    /** Runs {@code ip -n NS -batch FILE} over {@code commands}, one ip command a line. */
    public void batch(final String ns, final String commands)
    {
        try
        {
            final Path file = Files.createTempFile(prefix, ".ip");
            try
            {
                Files.writeString(file, commands, StandardCharsets.UTF_8);
                ip(ns, "-batch", file.toString());
            }
            finally
            {
                Files.deleteIfExists(file);
            }
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot write an ip batch file: " + ex, ex);
        }
    }

    public record ProcessResult(int exitStatus, String stdout, String stderr)
    {
    }

    private static String run(final String... command)
    {
        final ProcessResult result = exec(command);
        if (result.exitStatus != 0)
        {
            throw new IllegalStateException(String.join(" ", command) + " failed with status " + result.exitStatus +
                ": " + result.stderr.strip());
        }
        return result.stdout;
    }

    private static ProcessResult exec(final String... command)
    {
        try
        {
            final Process process = new ProcessBuilder(command).start();
            try
            {
                final byte[] stdout = process.getInputStream().readAllBytes();
                final byte[] stderr = process.getErrorStream().readAllBytes();
                if (!process.waitFor(30, TimeUnit.SECONDS))
                {
                    process.destroyForcibly();
                    throw new IllegalStateException(String.join(" ", command) + " did not finish in 30 s");
                }
                return new ProcessResult(process.exitValue(), new String(stdout, StandardCharsets.UTF_8),
                    new String(stderr, StandardCharsets.UTF_8));
            }
            finally
            {
                process.destroyForcibly();
            }
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot run " + String.join(" ", command) + ": " + ex, ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + String.join(" ", command), ex);
        }
    }

    @Override
    public void close()
    {
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
            exec("ip", "netns", "del", created.get(i));
        }
        created.clear();
    }
}
