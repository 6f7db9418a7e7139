package dev.rdmacm.cli;

import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 30, defect 9, under acm-server: {@code rdma link delete} of the device acm-server serves, in the
 * kernel guest ({@code KernelGuestSuite}), beside the real ibacm 44 on the same kind of device. Each
 * case has a fresh rxe device on its own veth {@code acmrm0} (10.42.0.1), whose peer {@code acmrm1}
 * (10.42.0.2) is in a namespace of its own, a neighbour that answers ARP; the case removes the device.
 * <p>
 * ibacm 44 opens only devices with an InfiniBand port ({@code acm_open_dev}, since rdma-core 29): on
 * this guest, whose devices are all rxe, it logs "does not support InfiniBand" for each and ends with
 * "no devices". It never holds an rxe device, so it cannot block its removal, and it serves nothing to
 * drop. Where it does hold a device (InfiniBand), reading its source, nothing handles a removal: the
 * async event loop ignores DEVICE_FATAL and the device stays open, which on a driver that cannot take
 * contexts away (rxe, say) blocks the removal until ibacm ends. Ours therefore does what a user would
 * expect instead (docs/decisions.md): the removal is not blocked, the device's endpoints are dropped
 * once the CM's device watch sees it gone (a request from its addresses then gets ESRCADDR, and
 * librdmacm goes on to the kernel), and the server goes on answering. Afterwards the server's
 * descriptors and threads, and {@code rdma resource}, are as before.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
public class AcmServerDeviceRemovalInGuest
{
    private static final String OWN = "10.42.0.1";
    private static final String PEER = "10.42.0.2";
    private static final Duration COMMAND = Duration.ofSeconds(30);
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final AtomicInteger DEVICES = new AtomicInteger(90);
    private static final Pattern WIRE_DEVICE = Pattern.compile("^\\d+: rxew\\d+:");

    private final List<String> devices = new ArrayList<>();
    private Path dir;

    @BeforeEach
    void pair() throws IOException
    {
        Peers.require(System.getenv("RDMACM_GUEST_SHARE") != null,
            "RDMACM_GUEST_SHARE: this class runs inside a KernelGuest (KernelGuestSuite)");
        // the peer in a namespace of its own: a neighbour that answers ARP, as a remote host does (no RDMA needed)
        sh("ip netns add acmrm && ip link add acmrm0 type veth peer name acmrm1 netns acmrm && ip address add " + OWN
            + "/24 dev acmrm0 && ip -n acmrm address add " + PEER + "/24 dev acmrm1 && ip link set acmrm0 up"
            + " && ip -n acmrm link set acmrm1 up");
        dir = Files.createTempDirectory("acm-removal");
    }

    @AfterEach
    void unpair() throws IOException
    {
        for (final String device : devices)
        {
            HostCommand.run(COMMAND, null, List.of("rdma", "link", "delete", device));
        }
        sh("ip link delete acmrm0; ip netns delete acmrm");
        try (Stream<Path> paths = Files.walk(dir))
        {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }

    @Test
    void shouldFindIbacm44RefusingEveryRxeDeviceSoItNeverHoldsOne() throws Exception
    {
        final String device = rxe("acmrm0");
        final String ibacm = Peers.requireCommand("ibacm", "ibacm").toString();
        Files.writeString(dir.resolve("ibacm_opts.cfg"), "log_file stdout\nlog_level 1\nlock_file /run/ibacm.pid\n");
        // its socket, lock and port files are fixed paths under /run: a private tmpfs there, the guest's /run untouched
        final HostCommand.Outcome run = HostCommand.run(COMMAND, null, List.of("unshare", "-m", "--propagation", "private", "sh", "-c",
            "mount -t tmpfs tmpfs /run && exec " + ibacm + " -P -O " + dir.resolve("ibacm_opts.cfg")));
        assertNotEquals(0, run.exitStatus(), run.output());
        assertTrue(run.output().contains(device + " port 1 is not an InfiniBand port"), run.output());
        assertTrue(run.output().contains(device + " does not support InfiniBand."), run.output());
        assertTrue(run.output().contains("ERROR - no devices"), run.output());
        System.out.println("AcmServerDeviceRemovalInGuest: ibacm 44 on " + device + " exited " + run.exitStatus() + ": "
            + run.output().lines().filter(line -> line.contains(device) || line.contains("ERROR")).toList());
        // nothing of ibacm's holds the device: its removal returns
        remove(device);
    }

    @Test
    void shouldLetTheDeviceGoDropItsEndpointAndKeepAnswering() throws Exception
    {
        final String device = rxe("acmrm0");
        final String resourcesBefore = resourcesOtherThan(device);
        try (AcmServerProcess server = AcmServerProcess.start(dir, "log_level 1\n", "-A", dir.resolve("none.cfg").toString(),
            "--fabric", "verbs:" + device))
        {
            final String socket = server.socket().toString();
            final HostCommand.Outcome resolved = acme(socket, "-f", "i", "-s", OWN, "-d", PEER);
            assertTrue(resolved.output().contains("return status 0x0") && resolved.output().contains("Path information"),
                resolved.output() + server.log());
            assertTrue(endpointAddresses(socket).contains(OWN), () -> endpointAddresses(socket) + logOf(server));
            final Baseline baseline = Baseline.of(server.pid(), device);

            remove(device);
            awaitLog(server, "device " + device + " removed: 1 endpoint(s) dropped, 0 left");

            final HostCommand.Outcome refused = acme(socket, "-f", "i", "-s", OWN, "-d", PEER);
            assertTrue(refused.output().contains("ib_acm_resolve_ip failed: Cannot assign requested address"),
                refused.output() + server.log());
            assertEquals(List.of(), endpointAddresses(socket), server.log());
            final HostCommand.Outcome counters = acme(socket, "-P");
            assertEquals(0, counters.exitStatus(), counters.output());
            assertTrue(counters.output().contains("return status 0x0"), counters.output());
            baseline.assertBack();
            System.out.println("AcmServerDeviceRemovalInGuest: after rdma link delete " + device + ": " + refused.output().lines()
                .filter(line -> line.contains("failed")).toList() + "; the server's descriptors " + baseline.descriptors().size()
                + " -> " + Baseline.descriptors(server.pid()).size() + " (none of " + baseline.deviceFiles() + "), its threads "
                + baseline.threads());
        }
        assertEquals(resourcesBefore, resourcesOtherThan(device), "rdma resource once the server has stopped");
    }

    /** The real {@code ib_acme} against the server's socket. */
    private static HostCommand.Outcome acme(final String socket, final String... arguments)
    {
        final List<String> command = new ArrayList<>(List.of(Peers.requireCommand("ib_acme", "ibacm").toString(), "-S", socket));
        command.addAll(List.of(arguments));
        return HostCommand.run(COMMAND, null, command);
    }

    /** The addresses of the endpoints {@code ib_acme -e} lists (its CSV rows: svc,guid,port,pkey,ep_index,prov,addr_0...). */
    private static List<String> endpointAddresses(final String socket)
    {
        final HostCommand.Outcome listed = acme(socket, "-e");
        return listed.output().lines().filter(line -> line.startsWith(socket + ","))
            .flatMap(line -> Stream.of(line.split(",")).skip(6)).toList();
    }

    private static void awaitLog(final AcmServerProcess server, final String line) throws Exception
    {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        while (!server.log().contains(line))
        {
            assertTrue(System.nanoTime() - deadline < 0, () -> "no '" + line + "' within " + WAIT + ": " + logOf(server));
            Thread.sleep(20);
        }
    }

    private static String logOf(final AcmServerProcess server)
    {
        try
        {
            return server.log();
        }
        catch (final IOException ex)
        {
            return "(no log: " + ex + ")";
        }
    }

    /** A fresh rxe device on {@code netdev}, removed after the case if the case has not. */
    private String rxe(final String netdev)
    {
        final String device = "rxe" + DEVICES.getAndIncrement();
        sh("rdma link add " + device + " type rxe netdev " + netdev);
        devices.add(device);
        return device;
    }

    /** {@code rdma link delete}, which returns only once every process has let go of the device. */
    private void remove(final String device)
    {
        HostCommand.run(COMMAND, null, List.of("rdma", "link", "delete", device)).orFail("rdma link delete " + device
            + " (a process still holds it?)");
        devices.remove(device);
    }

    /**
     * {@code rdma resource}'s lines of every device but {@code device} and the wire's (rxew0, rxew1), where
     * the kernel guest's silent-peer case runs beside the suite and makes and ends its own ids meanwhile.
     */
    private static String resourcesOtherThan(final String device)
    {
        return sh("rdma resource").lines().filter(line -> !line.contains(" " + device + ":") && !WIRE_DEVICE.matcher(line).find())
            .collect(Collectors.joining("\n"));
    }

    private static String sh(final String script)
    {
        return HostCommand.run(COMMAND, null, List.of("sh", "-c", script)).orFail(script).output();
    }

    /**
     * The server process's descriptors (by target) and the threads of the server and its CM, once it has
     * served, and the character devices of {@code device} (its uverbs and umad files).
     */
    private record Baseline(long pid, List<String> descriptors, TreeSet<String> threads, List<String> deviceFiles)
    {
        static Baseline of(final long pid, final String device) throws IOException
        {
            final List<String> files = new ArrayList<>();
            for (final String kind : List.of("infiniband_verbs", "infiniband_mad"))
            {
                try (Stream<Path> entries = Files.list(Path.of("/sys/class", kind)))
                {
                    for (final Path entry : entries.toList())
                    {
                        final Path ibdev = entry.resolve("ibdev");
                        if (Files.exists(ibdev) && Files.readString(ibdev).strip().equals(device))
                        {
                            files.add("/dev/infiniband/" + entry.getFileName());
                        }
                    }
                }
            }
            assertTrue(!files.isEmpty(), "no uverbs or umad file of " + device);
            return new Baseline(pid, descriptors(pid), threads(pid), files);
        }

        /** No descriptor more than before, none of the removed device's files, the same threads. */
        void assertBack() throws Exception
        {
            // the server closes its end of the last ib_acme's socket once it sees it closed: until then, one more
            final long deadline = System.nanoTime() + WAIT.toNanos();
            List<String> now;
            while ((now = descriptors(pid)).size() > descriptors.size() && System.nanoTime() - deadline < 0)
            {
                Thread.sleep(20);
            }
            assertTrue(now.size() <= descriptors.size(), "the server's descriptors: " + now + ", before: " + descriptors);
            assertTrue(now.stream().noneMatch(deviceFiles::contains), "the server holds one of " + deviceFiles + ": " + now);
            assertEquals(threads, threads(pid), "the server's and its CM's threads");
        }

        static List<String> descriptors(final long pid) throws IOException
        {
            final List<String> targets = new ArrayList<>();
            try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd")))
            {
                for (final Path fd : fds.toList())
                {
                    try
                    {
                        targets.add(Files.readSymbolicLink(fd).toString());
                    }
                    catch (final IOException gone)
                    {
                        // closed while listed
                    }
                }
            }
            return targets.stream().sorted().toList();
        }

        /** The names of the threads that are the service's (acm-server) and its CM's (rdmacm-...). */
        static TreeSet<String> threads(final long pid) throws IOException
        {
            final TreeSet<String> names = new TreeSet<>();
            try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task")))
            {
                for (final Path task : tasks.toList())
                {
                    final String name = Files.readString(task.resolve("comm")).strip();
                    if (name.startsWith("acm") || name.startsWith("rdmacm"))
                    {
                        names.add(name);
                    }
                }
            }
            return names;
        }
    }
}
