package dev.rdmacm.cm.kernel;

import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.ConnectionManager;
import dev.rdmacm.cm.ConnectionParameters;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.RunningPeer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A silent peer through the kernel's CM ({@link ConnectionManager#KERNEL}), in the kernel guest: an address
 * on the wire to the other guest that a permanent neighbour entry maps to a MAC no NIC has, so every REQ
 * goes out and nothing answers. Our id and the real {@code rping}'s, started together, must end with the
 * same event and status.
 * <p>
 * Each waits about 100 s for the kernel's CM to give up (16 REQs 6144 ms apart), so the kernel guest runs
 * this class in a JVM of its own beside its suite, as {@code SilentPeerAcrossTheWire} runs beside both
 * guests' suites: on the wire's device, which the suites leave alone, to an address of its own
 * ({@code SilentPeerAcrossTheWire}'s captures count only the REQs to theirs). With the suite running at
 * the same time, the leak check counts only the CM ids and QPs of this JVM and of its rping.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
public class KernelCmSilentPeerInGuest
{
    /** On the wire's subnet, beside {@code SilentPeerAcrossTheWire}'s 172.31.60.99. */
    static final String ADDRESS = "172.31.60.98";
    private static final String MAC = "02:00:00:00:60:98";
    private static final int PORT = 7522;
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** A REQ nobody answers is given up after 16 tries about 6 s apart: room for a loaded guest. */
    private static final Duration SILENT = Duration.ofSeconds(180);
    private static final Pattern RPING_ERROR = Pattern.compile("cma event RDMA_CM_EVENT_(\\w+), error (-?\\d+)");
    private static final Pattern DEVICE = Pattern.compile(" dev (\\S+)");

    @Test
    void shouldEndAConnectionToAHostWithoutACmWithLibrdmacmsEventAndStatus() throws Exception
    {
        final String route = HostCommand.run(WAIT, "ip", "-o", "route", "get", ADDRESS).orFail("ip route get " + ADDRESS).output();
        final Matcher netdev = DEVICE.matcher(route);
        assertTrue(netdev.find(), route);
        HostCommand.run(WAIT, "ip", "neigh", "replace", ADDRESS, "lladdr", MAC, "dev", netdev.group(1), "nud", "permanent")
            .orFail("ip neigh replace " + ADDRESS);
        final List<Long> before = held(List.of(ProcessHandle.current().pid()));
        // both at once: each takes about 100 s
        final RunningPeer rping = RunningPeer.start("rping", "-c", "-d", "-a", ADDRESS, "-p", Integer.toString(PORT), "-C", "1");
        final List<Long> processes = List.of(ProcessHandle.current().pid(), rping.pid());
        final CmEvent ours;
        final long start = System.nanoTime();
        final long ourNanos;
        try (rping; RdmaCm cm = RdmaCm.open(RdmaCm.Options.builder().connectionManager(ConnectionManager.KERNEL).build());
             EventChannel channel = cm.createEventChannel())
        {
            final RdmaCmId id = RoutedId.resolved(cm.createId(channel), channel, null, new InetSocketAddress(InetAddress.getByName(ADDRESS), PORT),
                rping);
            try (VerbsEndpoint client = VerbsEndpoint.on(id.binding().device()))
            {
                id.attachQp(client.qp());
                id.connect(ConnectionParameters.of(1, 1));
                ours = channel.getEvent(SILENT);
                ourNanos = System.nanoTime() - start;
                assertNotNull(ours, "no event within " + SILENT + " of connecting to " + ADDRESS);
                ours.ack();
                id.destroy();
            }
            rping.exitStatus(SILENT);
        }
        final Matcher theirs = RPING_ERROR.matcher(rping.toString());
        assertTrue(theirs.find(), rping::toString);
        System.out.printf("silent peer through the kernel's CM: ours %s status %d after %d ms; rping's %s error %s%n", ours.type(),
            ours.status(), TimeUnit.NANOSECONDS.toMillis(ourNanos), theirs.group(1), theirs.group(2));
        assertEquals("UNREACHABLE", theirs.group(1), rping::toString);
        assertEquals(theirs.group(1), ours.type().name(), ours::toString);
        assertEquals(Integer.parseInt(theirs.group(2)), ours.status(), ours::toString);
        assertEquals(before, heldOnceBackTo(before, processes), "rdma resource: CM ids and QPs of this JVM and rping after");
    }

    /** The CM ids and the QPs that {@code rdma resource} lists for {@code processes}. */
    private static List<Long> held(final List<Long> processes)
    {
        final Pattern owner = Pattern.compile("\\bpid (" + String.join("|", processes.stream().map(String::valueOf).toList()) + ")\\b");
        return List.of("cm_id", "qp").stream().map(kind -> HostCommand.run(WAIT, "rdma", "resource", "show", kind)
            .orFail("rdma resource show " + kind).output().lines().filter(line -> owner.matcher(line).find()).count()).toList();
    }

    /** {@link #held} once it is back to {@code before} (rping's ids go as its process ends), or as it stays. */
    private static List<Long> heldOnceBackTo(final List<Long> before, final List<Long> processes) throws InterruptedException
    {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        List<Long> now = held(processes);
        while (!now.equals(before) && System.nanoTime() - deadline < 0)
        {
            Thread.sleep(100);
            now = held(processes);
        }
        return now;
    }
}
