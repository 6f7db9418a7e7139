package dev.rdmacm.cm.kernel;

import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.CmEventType;
import dev.rdmacm.cm.CmIdState;
import dev.rdmacm.cm.ConnectionManager;
import dev.rdmacm.cm.ConnectionParameters;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.cm.diagnostics.KernelDifference;
import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.KernelCmId;
import dev.rdmacm.testing.SoftRoceDevices;
import dev.rdmacm.verbs.CompletionQueue;
import dev.rdmacm.verbs.CompletionStatus;
import dev.rdmacm.verbs.ProtectionDomain;
import dev.rdmacm.verbs.QpState;
import dev.rdmacm.verbs.QueuePairCapabilities;
import dev.rdmacm.verbs.ScatterGatherList;
import dev.rdmacm.verbs.Verbs;
import dev.rdmacm.verbs.VerbsContext;
import dev.rdmacm.verbs.WorkCompletions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.rdmacm.cm.kernel.KernelCmGuest.OWN_IPV4;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Java application's connections through {@link RdmaCm} on a host where the kernel's {@code ib_cm} holds the
 * CM class (the kernel guest, rxe0): {@link ConnectionManager#AUTO} takes the kernel's CM and says so, the
 * application's code the same as on the userspace CM. Against the real {@code rping}, both ways: our id
 * connects to its server, and its client connects to our listener and its first message arrives on our QP.
 * A REQ to a port no one listens on is REJECTED with the kernel's reason. Around each case, {@code rdma resource}
 * counts the host's CM ids and QPs: the same after as before (no kernel id or QP left behind).
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
public class KernelConnectionManagerInGuest
{
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int SERVER_PORT = 7493;
    private static final int LISTEN_PORT = 7494;
    private static final int NOBODY_PORT = 7495;
    private static final int CLI_CLIENT_PORT = 7496;
    private static final int CLI_SERVER_PORT = 7497;
    private static final int PINGS = 3;
    private static final int TAKEN_PORT = 7498;
    private static final int AUTO_LISTEN_PORT = 7499;
    /** udaddy's fixed port, in RDMA_PS_UDP. */
    private static final int UDADDY_PORT = 7174;
    /** rdma_cm's {@code RDMA_UDP_QKEY}: the Q_Key of every RDMA_PS_UDP id. */
    private static final long RDMA_UDP_QKEY = 0x01234567L;
    /** rping's {@code -S}: the buffer size its first message announces. */
    private static final int RPING_SIZE = 100;
    /** {@code IB_CM_REJ_INVALID_SERVICE_ID}: the kernel's REJ for a REQ no listener takes. */
    private static final int INVALID_SERVICE_ID = 8;
    private static final Pattern COUNT = Pattern.compile("\\b(cm_id|qp) (\\d+)");
    /**
     * A line of {@code rdma resource show} for a device of the wire to the other guest ({@code GuestWire}'s rxew0 and
     * rxew1): the silent-peer cases run on it beside the suite (KernelCmSilentPeerInGuest, SilentPeerAcrossTheWire)
     * and end when the kernel's CM gives up, not when a case here begins or ends, so the counts leave it out.
     */
    private static final Pattern WIRE_DEVICE = Pattern.compile("^\\d+: rxew\\d+:");

    /** What the host's {@code rdma resource} counts: its CM ids and its QPs, over every device. */
    record Resources(int cmIds, int qps)
    {
        static Resources now()
        {
            final String output = HostCommand.run(WAIT, "rdma", "resource", "show").orFail("rdma resource show").output();
            int cmIds = 0;
            int qps = 0;
            for (final String device : output.lines().filter(line -> !WIRE_DEVICE.matcher(line).find()).toList())
            {
                final Matcher m = COUNT.matcher(device);
                while (m.find())
                {
                    if (m.group(1).equals("cm_id"))
                    {
                        cmIds += Integer.parseInt(m.group(2));
                    }
                    else
                    {
                        qps += Integer.parseInt(m.group(2));
                    }
                }
            }
            return new Resources(cmIds, qps);
        }

        /**
         * The counts once they have held still for half a second: a process of the case before (a stopped
         * rping) releases its ids and QPs as its descriptors close, which the kernel may finish after the
         * process is reaped, and a case that counted them as its own baseline would see them go.
         */
        static Resources settled() throws InterruptedException
        {
            final long deadline = System.nanoTime() + WAIT.toNanos();
            Resources last = now();
            int unchanged = 0;
            while (unchanged < 5 && System.nanoTime() - deadline < 0)
            {
                Thread.sleep(100);
                final Resources next = now();
                unchanged = next.equals(last) ? unchanged + 1 : 0;
                last = next;
            }
            return last;
        }

        /** The counts once they are back to {@code before} (a stopped rping's ids go as its process ends), or as they stay. */
        static Resources backTo(final Resources before) throws InterruptedException
        {
            final long deadline = System.nanoTime() + WAIT.toNanos();
            Resources now = now();
            while (!now.equals(before) && System.nanoTime() - deadline < 0)
            {
                Thread.sleep(100);
                now = now();
            }
            return now;
        }
    }

    private static RdmaCm open(final ConnectionManager manager, final List<String> trace, final List<KernelDifference> differences)
        throws Exception
    {
        return RdmaCm.open(RdmaCm.Options.builder().connectionManager(manager)
            .listener((id, from, to, reason) -> trace.add(id + " " + from + "->" + to + ": " + reason))
            .kernelDifferences(differences::add).build());
    }

    private static CmEvent next(final EventChannel channel, final CmEventType expected) throws InterruptedException
    {
        final CmEvent event = channel.getEvent(WAIT);
        assertNotNull(event, "no " + expected + " within " + WAIT);
        event.ack();
        assertEquals(expected, event.type(), event.toString());
        return event;
    }

    /** Our id resolved (by us) and routed (by us) to {@code port} on rxe0's own address, with a QP of {@code endpoint} attached. */
    private static void stop(final Process process) throws InterruptedException
    {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS))
        {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static CompletionStatus completion(final CompletionQueue cq, final long[] byteLength)
    {
        try (WorkCompletions completions = new WorkCompletions(1))
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (System.nanoTime() - deadline < 0)
            {
                if (cq.poll(completions) == 1)
                {
                    byteLength[0] = completions.byteLength(0);
                    return completions.completionStatus(0);
                }
                Thread.onSpinWait();
            }
            throw new AssertionError("no completion within 10 s");
        }
    }

    @Test
    void shouldConnectToTheRealRpingServerThroughTheKernelCmThatAutoChose() throws Exception
    {
        final Resources before = Resources.settled();
        final List<String> trace = new CopyOnWriteArrayList<>();
        final List<KernelDifference> differences = new CopyOnWriteArrayList<>();
        final Process rping = new ProcessBuilder("rping", "-s", "-a", OWN_IPV4, "-p", Integer.toString(SERVER_PORT), "-C", "1", "-v")
            .redirectErrorStream(true).start();
        try
        {
            SoftRoceDevices.awaitKernelListener(KernelCmId.PortSpace.TCP, InetAddress.getByName(OWN_IPV4), SERVER_PORT);
            try (RdmaCm cm = open(ConnectionManager.AUTO, trace, differences); EventChannel channel = cm.createEventChannel())
            {
                final RdmaCmId id = RoutedId.resolved(cm.createId(channel), channel, null, new InetSocketAddress(InetAddress.getByName(OWN_IPV4), SERVER_PORT), "");
                try (VerbsEndpoint client = VerbsEndpoint.on(id.binding().device()))
                {
                    id.attachQp(client.qp());
                    id.connect(ConnectionParameters.of(1, 1));
                    next(channel, CmEventType.ESTABLISHED);
                    assertEquals(CmIdState.ESTABLISHED, id.state());
                    assertEquals(QpState.RTS, client.qp().query().state());
                    id.disconnect();
                    next(channel, CmEventType.DISCONNECTED);
                    id.destroy();
                }
            }
            assertTrue(trace.stream().anyMatch(line -> line.contains("through the kernel's CM (AUTO: the kernel's ib_cm holds the CM class)")),
                "AUTO's choice in the trace: " + trace);
            assertTrue(trace.stream().anyMatch(line -> line.contains("ADDR_RESOLVED: the kernel's rxe0/1")), "the kernel's address answer in the trace: " + trace);
            assertTrue(trace.stream().anyMatch(line -> line.contains("ROUTE_RESOLVED: the kernel's path")), "the kernel's path in the trace: " + trace);
            // the address the kernel resolved is ours, and the path the kernel holds after our RDMA_OPTION_IB_PATH
            // (QUERY PATH) equals ours, every field (on RoCE; the 93 cases hold the same in ResolutionThroughKernelCmInGuest)
            assertEquals(List.of(), differences, "differences: " + differences);
        }
        finally
        {
            stop(rping);
        }
        assertEquals(before, Resources.backTo(before), "rdma resource: CM ids and QPs after");
    }

    @Test
    void shouldAcceptTheRealRpingClientThroughTheKernelCm() throws Exception
    {
        final Resources before = Resources.settled();
        final List<String> trace = new CopyOnWriteArrayList<>();
        try (RdmaCm cm = open(ConnectionManager.KERNEL, trace, new CopyOnWriteArrayList<>());
            EventChannel channel = cm.createEventChannel())
        {
            final RdmaCmId listener = cm.createId(channel);
            listener.bindAddr(new InetSocketAddress(InetAddress.getByName(OWN_IPV4), LISTEN_PORT));
            listener.listen(8);
            final Process rping = new ProcessBuilder("rping", "-c", "-a", OWN_IPV4, "-p", Integer.toString(LISTEN_PORT), "-C", "1",
                "-S", Integer.toString(RPING_SIZE), "-v").redirectErrorStream(true).start();
            try
            {
                final CmEvent.ConnectRequest request = (CmEvent.ConnectRequest)next(channel, CmEventType.CONNECT_REQUEST);
                final RdmaCmId accepted = request.id();
                assertEquals(listener, request.listenId());
                assertEquals(InetAddress.getByName(OWN_IPV4), accepted.peerAddress());
                try (VerbsEndpoint server = VerbsEndpoint.on(accepted.binding().device()); ScatterGatherList sgl = new ScatterGatherList(1))
                {
                    accepted.attachQp(server.qp());
                    server.qp().postReceive(1, sgl.add(server.region(), 0, 64));
                    accepted.accept(ConnectionParameters.of(1, 1));
                    next(channel, CmEventType.ESTABLISHED);
                    assertEquals(CmIdState.ESTABLISHED, accepted.state());

                    // rping's first message: struct rping_rdma_info, its buffer's be64 address, be32 rkey, be32 size
                    final long[] length = new long[1];
                    assertEquals(CompletionStatus.SUCCESS, completion(server.cq(), length));
                    assertEquals(16, length[0]);
                    assertEquals(RPING_SIZE, server.region().memory().asByteBuffer().getInt(12), "rping_rdma_info.size");
                    accepted.disconnect();
                    accepted.destroy();
                }
                listener.destroy();
            }
            finally
            {
                stop(rping);
            }
        }
        assertTrue(trace.stream().anyMatch(line -> line.contains("through the kernel's CM (KERNEL)")), "trace: " + trace);
        assertEquals(before, Resources.backTo(before), "rdma resource: CM ids and QPs after");
    }

    /** Waits for {@code process} and returns its output (stdout and stderr); one that does not end is killed. */
    private static String finished(final Process process) throws Exception
    {
        final java.util.concurrent.CompletableFuture<String> out = java.util.concurrent.CompletableFuture.supplyAsync(() ->
            read(process.getInputStream()));
        if (!process.waitFor(30, TimeUnit.SECONDS))
        {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        return out.get(10, TimeUnit.SECONDS);
    }

    private static String read(final java.io.InputStream in)
    {
        try
        {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        catch (final java.io.IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
    }

    private static long lines(final String output, final String prefix)
    {
        return output.lines().filter(line -> line.startsWith(prefix)).count();
    }

    @Test
    void shouldPingTheRealRpingServerWithRdmacmRpingThroughTheKernelCm() throws Exception
    {
        final Resources before = Resources.settled();
        final Process server = new ProcessBuilder("rping", "-s", "-a", OWN_IPV4, "-p", Integer.toString(CLI_CLIENT_PORT), "-C",
            Integer.toString(PINGS), "-v").redirectErrorStream(true).start();
        final java.io.ByteArrayOutputStream output = new java.io.ByteArrayOutputStream();
        final int status;
        final String theirs;
        try
        {
            SoftRoceDevices.awaitKernelListener(KernelCmId.PortSpace.TCP, InetAddress.getByName(OWN_IPV4), CLI_CLIENT_PORT);
            status = RdmacmInThisJvm.run(output, "rping", "-c", "-a", OWN_IPV4, "-p", Integer.toString(CLI_CLIENT_PORT), "-C",
                Integer.toString(PINGS), "-v", "-V", "--cm", "kernel");
            // the real rping -s -C ends once the client disconnected
            theirs = finished(server);
        }
        finally
        {
            stop(server);
        }
        final String ours = output.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, status, ours + "\nthe real rping -s:\n" + theirs);
        assertEquals(PINGS, lines(ours, "ping data: "), ours);
        assertEquals(PINGS, lines(theirs, "server ping data: "), theirs);
        assertEquals(before, Resources.backTo(before), "rdma resource: CM ids and QPs after");
    }

    @Test
    void shouldServeTheRealRpingClientWithRdmacmRpingThroughTheKernelCm() throws Exception
    {
        final Resources before = Resources.settled();
        final java.io.ByteArrayOutputStream output = new java.io.ByteArrayOutputStream();
        final java.util.concurrent.CompletableFuture<Integer> served = java.util.concurrent.CompletableFuture.supplyAsync(() ->
            RdmacmInThisJvm.run(output, "rping", "-s", "-a", OWN_IPV4, "-p", Integer.toString(CLI_SERVER_PORT), "-C", Integer.toString(PINGS),
                "-v", "--cm", "kernel"));
        SoftRoceDevices.awaitKernelListener(KernelCmId.PortSpace.TCP, InetAddress.getByName(OWN_IPV4), CLI_SERVER_PORT);
        final Process client = new ProcessBuilder("rping", "-c", "-a", OWN_IPV4, "-p", Integer.toString(CLI_SERVER_PORT), "-C",
            Integer.toString(PINGS), "-v", "-V").redirectErrorStream(true).start();
        final String theirs = finished(client);
        final int status = served.get(30, TimeUnit.SECONDS);
        final String ours = output.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, client.exitValue(), theirs + "\nrdmacm rping -s:\n" + ours);
        assertEquals(PINGS, lines(theirs, "ping data: "), theirs);
        assertEquals(0, status, ours);
        assertEquals(PINGS, lines(ours, "server ping data: "), ours);
        assertEquals(before, Resources.backTo(before), "rdma resource: CM ids and QPs after");
    }

    @Test
    void shouldResolveTheRealUdaddyServersQpOverSidrThroughTheKernelCm() throws Exception
    {
        final Resources before = Resources.settled();
        final Process udaddy = new ProcessBuilder("udaddy", "-C", "1").redirectErrorStream(true).start();
        try
        {
            SoftRoceDevices.awaitKernelListener(KernelCmId.PortSpace.UDP, InetAddress.getByName("0.0.0.0"), UDADDY_PORT);
            try (RdmaCm cm = open(ConnectionManager.KERNEL, new CopyOnWriteArrayList<>(), new CopyOnWriteArrayList<>());
                EventChannel channel = cm.createEventChannel())
            {
                final RdmaCmId id = RoutedId.resolved(cm.createId(channel, dev.rdmacm.protocol.PortSpace.UDP), channel, null,
                    new InetSocketAddress(InetAddress.getByName(OWN_IPV4), UDADDY_PORT), udaddy);
                try (VerbsContext context = Verbs.open(id.binding().device()); ProtectionDomain pd = context.allocateProtectionDomain();
                    CompletionQueue cq = context.createCompletionQueue(4, null);
                    dev.rdmacm.verbs.UdQueuePair qp = pd.createUdQueuePair(cq, cq, new QueuePairCapabilities(1, 1, 1, 1, 0)))
                {
                    id.attachQp(qp);
                    id.connect(ConnectionParameters.of(0, 0));
                    final CmEvent.Established established = (CmEvent.Established)next(channel, CmEventType.ESTABLISHED);
                    final dev.rdmacm.cm.UdParameters ud = established.ud().orElseThrow();
                    assertEquals(RDMA_UDP_QKEY, ud.qkey(), established.toString());
                    assertTrue(ud.qpNumber() > 1, "udaddy's QPN: " + established);
                    assertEquals(CmIdState.CONNECT, id.state(), "a UD id stays in CONNECT, as cma_sidr_rep_handler leaves it");
                    id.destroy();
                }
            }
        }
        finally
        {
            stop(udaddy);
        }
        assertEquals(before, Resources.backTo(before), "rdma resource: CM ids and QPs after");
    }

    @Test
    void shouldRefuseListenOnAPortTheRealRpingHoldsNamingTheCommandAndTheErrno() throws Exception
    {
        final Resources before = Resources.settled();
        final Process rping = new ProcessBuilder("rping", "-s", "-a", OWN_IPV4, "-p", Integer.toString(TAKEN_PORT), "-C", "1")
            .redirectErrorStream(true).start();
        try
        {
            SoftRoceDevices.awaitKernelListener(KernelCmId.PortSpace.TCP, InetAddress.getByName(OWN_IPV4), TAKEN_PORT);
            try (RdmaCm cm = open(ConnectionManager.KERNEL, new CopyOnWriteArrayList<>(), new CopyOnWriteArrayList<>());
                EventChannel channel = cm.createEventChannel())
            {
                final RdmaCmId id = cm.createId(channel);
                // our own port table does not know the kernel's: the kernel's BIND is what refuses
                id.bindAddr(new InetSocketAddress(InetAddress.getByName(OWN_IPV4), TAKEN_PORT));
                final dev.rdmacm.cm.RdmaCmException refused = org.junit.jupiter.api.Assertions.assertThrows(
                    dev.rdmacm.cm.RdmaCmException.class, () -> id.listen(8));
                assertEquals(dev.rdmacm.libc.Errno.EADDRINUSE, refused.errno(), refused.getMessage());
                assertTrue(refused.getMessage().contains("rdma_listen") && refused.getMessage().contains("RDMA_USER_CM_CMD_BIND")
                    && refused.getMessage().contains("EADDRINUSE"), refused.getMessage());
                assertEquals(CmIdState.ADDR_BOUND, id.state());
                id.destroy();
            }
        }
        finally
        {
            stop(rping);
        }
        assertEquals(before, Resources.backTo(before), "rdma resource: CM ids and QPs after");
    }

    @Test
    void shouldBeRejectedByThePortNobodyListensOn() throws Exception
    {
        final Resources before = Resources.settled();
        final long started = System.nanoTime();
        // the real rping's client to the same port, through the same kernel CM, beside ours: the same event and status
        try (dev.rdmacm.testing.RunningPeer rping = dev.rdmacm.testing.RunningPeer.start("rping", "-c", "-a", OWN_IPV4, "-p",
            Integer.toString(NOBODY_PORT), "-C", "1"))
        {
            try (RdmaCm cm = open(ConnectionManager.KERNEL, new CopyOnWriteArrayList<>(), new CopyOnWriteArrayList<>());
                EventChannel channel = cm.createEventChannel())
            {
                final RdmaCmId id = RoutedId.resolved(cm.createId(channel), channel, null,
                    new InetSocketAddress(InetAddress.getByName(OWN_IPV4), NOBODY_PORT), rping);
                try (VerbsEndpoint client = VerbsEndpoint.on(id.binding().device()))
                {
                    id.attachQp(client.qp());
                    id.connect(ConnectionParameters.of(1, 1));
                    final CmEvent rejected = next(channel, CmEventType.REJECTED);
                    assertEquals(INVALID_SERVICE_ID, rejected.status(), rejected.toString());
                    assertEquals(QpState.ERR, client.qp().query().state());
                    id.destroy();
                }
            }
            final long ours = System.nanoTime();
            rping.exitStatus(WAIT);
            System.out.printf("REJ case: ours %d ms, the real rping's end %d ms after%n", (ours - started) / 1_000_000,
                (System.nanoTime() - ours) / 1_000_000);
            assertTrue(rping.lines().contains("cma event RDMA_CM_EVENT_REJECTED, error " + INVALID_SERVICE_ID),
                "the real rping -c printed:\n" + rping);
        }
        final long counted = System.nanoTime();
        assertEquals(before, Resources.backTo(before), "rdma resource: CM ids and QPs after");
        System.out.printf("REJ case: rdma resource back to before in %d ms%n", (System.nanoTime() - counted) / 1_000_000);
    }

    @Test
    void shouldNameInRdmacmDevicesTheBackEndThatAutoTakes() throws Exception
    {
        final java.io.ByteArrayOutputStream output = new java.io.ByteArrayOutputStream();
        assertEquals(0, RdmacmInThisJvm.run(output, "devices", "-d", "rxe0", "--json"), output.toString(java.nio.charset.StandardCharsets.UTF_8));
        final Matcher said = Pattern.compile("\"connection_manager\"\\s*:\\s*\"(\\w+)\"").matcher(
            output.toString(java.nio.charset.StandardCharsets.UTF_8));
        assertTrue(said.find(), output.toString(java.nio.charset.StandardCharsets.UTF_8));
        final List<String> trace = new CopyOnWriteArrayList<>();
        try (RdmaCm cm = open(ConnectionManager.AUTO, trace, new CopyOnWriteArrayList<>()); EventChannel channel = cm.createEventChannel())
        {
            final RdmaCmId listener = cm.createId(channel);
            listener.bindAddr(new InetSocketAddress(InetAddress.getByName(OWN_IPV4), AUTO_LISTEN_PORT));
            listener.listen(1);
            listener.destroy();
        }
        // ib_cm holds the CM class here: AUTO takes the kernel's CM, and rdmacm devices said so beforehand
        assertEquals("kernel", said.group(1), output.toString(java.nio.charset.StandardCharsets.UTF_8));
        assertTrue(trace.stream().anyMatch(line -> line.contains("through the kernel's CM (AUTO: the kernel's ib_cm holds the CM class)")),
            "AUTO's choice in the listener's trace: " + trace);
    }
}
