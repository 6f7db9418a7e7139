package dev.rdmacm.cm.kernel;

import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.CmEventType;
import dev.rdmacm.cm.ConnectionManager;
import dev.rdmacm.cm.ConnectionParameters;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmException;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.testing.KernelCmId;
import dev.rdmacm.testing.SoftRoceDevices;
import dev.rdmacm.testing.guest.LibrdmacmProgram;
import dev.rdmacm.verbs.CompletionQueue;
import dev.rdmacm.verbs.ProtectionDomain;
import dev.rdmacm.verbs.QueuePairCapabilities;
import dev.rdmacm.verbs.RcQueuePair;
import dev.rdmacm.verbs.Verbs;
import dev.rdmacm.verbs.VerbsContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static dev.rdmacm.cm.kernel.KernelCmGuest.OWN_IPV4;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What reaches the kernel id of the KERNEL back-end beyond the addresses, each beside the real librdmacm in the
 * same guest ({@code listen_with_options.c}, the same steps with the same options):
 * <ul>
 *   <li>{@code RDMA_OPTION_ID_AFONLY}: an IPv6 wildcard listener beside an IPv4 wildcard one on the same port
 *       binds only when AFONLY reached the kernel id; and with it, it takes no IPv4 request (the real
 *       {@code rping -c} to the guest's IPv4 address), while without it it takes one.</li>
 *   <li>{@code RDMA_OPTION_ID_REUSEADDR}: beside a librdmacm id bound with REUSEADDR to the same address and port,
 *       the kernel id's BIND passes only when REUSEADDR reached it, and its LISTEN then fails with EADDRINUSE, as
 *       librdmacm's does ({@code rdma_listen} checks the port again without REUSEADDR). Our own
 *       {@code rdma_bind_addr} binds among our ids only: the kernel id, and the kernel's BIND, come with
 *       {@code rdma_listen}, whose error names the command the kernel refused.</li>
 *   <li>librdmacm's INIT to INIT move before RTR ({@code ucma_modify_qp_rtr}): our QP, connected through the kernel's
 *       CM to the real {@code rping -s}, goes RESET, INIT, INIT again with the kernel's INIT attributes, RTR,
 *       RTS.</li>
 * </ul>
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
public class KernelIdOptionsInGuest
{
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int REQUEST_WAIT_MS = 6000;
    /**
     * The wait for a request when no peer sends one ({@link #NOTHING}): the line is "no request" whatever the wait, which
     * only says that nothing else arrives; 6 s of it for each of four listens was 12 s of the kernel guest's critical path.
     */
    private static final int NO_PEER_WAIT_MS = 300;
    private static final int AFONLY_BESIDE_PORT = 7520;
    private static final int AFONLY_REQUEST_PORT = 7521;
    private static final int REUSE_PORT = 7522;
    private static final int RPING_PORT = 7523;

    /** The librdmacm side, compiled into the guest's share on the host while the guest boots (KernelGuestSuite). */
    public static final LibrdmacmProgram LIBRDMACM = LibrdmacmProgram.of(KernelIdOptionsInGuest.class, "listen_with_options", "-lrdmacm");

    private static Path program;

    @BeforeAll
    static void find()
    {
        program = LIBRDMACM.inGuest();
    }

    /** A case's step lines: librdmacm's program, or ours through the same steps. */
    private record Steps(List<String> lines)
    {
    }

    private static Process librdmacmStarted(final String address, final int port, final boolean reuse, final String afOnly,
        final int waitMs, final boolean bindOnly) throws IOException
    {
        final List<String> command = new ArrayList<>(List.of(program.toString(), address, Integer.toString(port), reuse ? "1" : "0",
            afOnly, Integer.toString(waitMs)));
        if (bindOnly)
        {
            command.add("bind");
        }
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    /** The program's first line (bound, listening, or the errno that ended it); the rest is read by {@link #rest}. */
    private static String firstLine(final Process process) throws IOException
    {
        final String line = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII)).readLine();
        return line == null ? "nothing" : line;
    }

    private static List<String> librdmacm(final String address, final int port, final boolean reuse, final String afOnly,
        final Client client) throws Exception
    {
        final Process process = librdmacmStarted(address, port, reuse, afOnly, requestWaitMs(client), false);
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII)))
        {
            final List<String> lines = new ArrayList<>();
            final String first = out.readLine();
            lines.add(first == null ? "nothing" : first);
            if ("listening".equals(first))
            {
                final Process peer = client.start();
                final String next = out.readLine();
                lines.add(next == null ? "nothing" : next);
                finish(peer);
            }
            assertTrue(process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS), "listen_with_options still runs");
            return lines;
        }
        finally
        {
            process.destroyForcibly();
        }
    }

    /** The same steps through the KERNEL back-end, written as the program writes them. */
    private static List<String> ours(final String address, final int port, final boolean reuse, final Boolean afOnly,
        final Client client) throws Exception
    {
        final List<String> lines = new ArrayList<>();
        try (RdmaCm cm = RdmaCm.open(RdmaCm.Options.builder().connectionManager(ConnectionManager.KERNEL).build());
            EventChannel channel = cm.createEventChannel(); RdmaCmId id = cm.createId(channel))
        {
            if (reuse)
            {
                id.setReuseAddr(true);
            }
            if (afOnly != null)
            {
                id.setAfOnly(afOnly);
            }
            id.bindAddr(new InetSocketAddress(InetAddress.getByName(address), port));
            try
            {
                id.listen(8);
            }
            catch (final RdmaCmException ex)
            {
                // the kernel's BIND comes with our rdma_listen: the command it refused says which of librdmacm's steps it is
                final String step = ex.getMessage().contains("RDMA_USER_CM_CMD_BIND") ? "bind" :
                    ex.getMessage().contains("RDMA_USER_CM_CMD_LISTEN") ? "listen" : ex.getMessage();
                lines.add(step + " errno " + ex.errno());
                return lines;
            }
            lines.add("listening");
            final Process peer = client.start();
            try
            {
                final CmEvent event = channel.getEvent(Duration.ofMillis(requestWaitMs(client)));
                if (event == null)
                {
                    lines.add("no request");
                    return lines;
                }
                lines.add("event RDMA_CM_EVENT_" + event.type().name());
                event.ack();
                if (event.type() == CmEventType.CONNECT_REQUEST)
                {
                    event.id().reject(new byte[0]);
                    event.id().destroy();
                }
            }
            finally
            {
                finish(peer);
            }
        }
        return lines;
    }

    /** The peer that sends a request while a case listens, started; null for none. */
    @FunctionalInterface
    private interface Client
    {
        Process start() throws IOException;
    }

    /** The peer's end, bounded: it ends once a listener answered or nobody did (the kernel's REJ). */
    private static void finish(final Process peer) throws InterruptedException
    {
        if (peer != null && !peer.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS))
        {
            peer.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("the peer " + peer.info().commandLine().orElse("") + " still ran after " + WAIT);
        }
    }

    /** The real {@code rping -c} to the guest's IPv4 address and {@code port}, once: whether a listener took it is the case's. */
    private static Client rpingClient(final int port)
    {
        return () -> new ProcessBuilder("rping", "-c", "-a", OWN_IPV4, "-p", Integer.toString(port), "-C", "1")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    private static final Client NOTHING = () -> null;

    /** How long a listener waits for {@code client}'s request. */
    private static int requestWaitMs(final Client client)
    {
        return client == NOTHING ? NO_PEER_WAIT_MS : REQUEST_WAIT_MS;
    }

    @Test
    void shouldBindAnIpv6WildcardBesideAnIpv4WildcardOnlyWithAfonlyAsLibrdmacmDoes() throws Exception
    {
        final Process holder = librdmacmStarted("0.0.0.0", AFONLY_BESIDE_PORT, false, "-", 60_000, false);
        try
        {
            assertEquals("listening", firstLine(holder), "the IPv4 wildcard listener");
            final List<String> theirsWith = librdmacm("::", AFONLY_BESIDE_PORT, false, "1", NOTHING);
            final List<String> oursWith = ours("::", AFONLY_BESIDE_PORT, false, true, NOTHING);
            final List<String> theirsWithout = librdmacm("::", AFONLY_BESIDE_PORT, false, "0", NOTHING);
            final List<String> oursWithout = ours("::", AFONLY_BESIDE_PORT, false, false, NOTHING);

            assertEquals(List.of("listening", "no request"), theirsWith, "librdmacm with AFONLY");
            assertEquals(theirsWith, oursWith, "ours with AFONLY");
            assertEquals(theirsWithout, oursWithout, "ours with AFONLY 0");
            assertTrue(theirsWithout.getFirst().startsWith("bind errno "), "librdmacm without AFONLY: " + theirsWithout);
        }
        finally
        {
            holder.destroy();
            holder.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void shouldTakeNoIpv4RequestOnAnIpv6WildcardWithAfonlyAndOneWithoutAsLibrdmacm() throws Exception
    {
        final List<String> theirsWith = librdmacm("::", AFONLY_REQUEST_PORT, false, "1", rpingClient(AFONLY_REQUEST_PORT));
        final List<String> oursWith = ours("::", AFONLY_REQUEST_PORT, false, true, rpingClient(AFONLY_REQUEST_PORT));
        final List<String> theirsWithout = librdmacm("::", AFONLY_REQUEST_PORT, false, "0", rpingClient(AFONLY_REQUEST_PORT));
        final List<String> oursWithout = ours("::", AFONLY_REQUEST_PORT, false, false, rpingClient(AFONLY_REQUEST_PORT));

        assertEquals(List.of("listening", "no request"), theirsWith, "librdmacm with AFONLY");
        assertEquals(theirsWith, oursWith, "ours with AFONLY");
        assertEquals(List.of("listening", "event RDMA_CM_EVENT_CONNECT_REQUEST"), theirsWithout, "librdmacm with AFONLY 0");
        assertEquals(theirsWithout, oursWithout, "ours with AFONLY 0");
    }

    @Test
    void shouldPassTheKernelsBindBesideAReusingIdOnlyWithReuseaddrThenFailItsListenAsLibrdmacm() throws Exception
    {
        final Process holder = librdmacmStarted(OWN_IPV4, REUSE_PORT, true, "-", 60_000, true);
        try
        {
            assertEquals("bound", firstLine(holder), "librdmacm's id bound with REUSEADDR");
            final List<String> theirsWith = librdmacm(OWN_IPV4, REUSE_PORT, true, "-", NOTHING);
            final List<String> oursWith = ours(OWN_IPV4, REUSE_PORT, true, null, NOTHING);
            final List<String> theirsWithout = librdmacm(OWN_IPV4, REUSE_PORT, false, "-", NOTHING);
            final List<String> oursWithout = ours(OWN_IPV4, REUSE_PORT, false, null, NOTHING);

            assertEquals(List.of("listen errno 98"), theirsWith, "librdmacm with REUSEADDR: EADDRINUSE at rdma_listen");
            assertEquals(theirsWith, oursWith, "ours with REUSEADDR");
            assertEquals(List.of("bind errno 98"), theirsWithout, "librdmacm without REUSEADDR: EADDRINUSE at rdma_bind_addr");
            assertEquals(theirsWithout, oursWithout, "ours without REUSEADDR");
        }
        finally
        {
            holder.destroy();
            holder.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void shouldMoveTheQpInitToInitBeforeRtrThroughTheKernelsCmAsLibrdmacm() throws Exception
    {
        final List<String> moves = new CopyOnWriteArrayList<>();
        final Process rping = new ProcessBuilder("rping", "-s", "-a", OWN_IPV4, "-p", Integer.toString(RPING_PORT), "-C", "1", "-v")
            .redirectErrorStream(true).start();
        try (RdmaCm cm = RdmaCm.open(RdmaCm.Options.builder().connectionManager(ConnectionManager.KERNEL).build());
            EventChannel channel = cm.createEventChannel())
        {
            SoftRoceDevices.awaitKernelListener(KernelCmId.PortSpace.TCP, InetAddress.getByName(OWN_IPV4), RPING_PORT);
            final RdmaCmId id = RoutedId.resolved(cm.createId(channel), channel, null,
                new InetSocketAddress(InetAddress.getByName(OWN_IPV4), RPING_PORT), rping);
            try (VerbsContext context = Verbs.open(id.binding().device()); ProtectionDomain pd = context.allocateProtectionDomain();
                CompletionQueue cq = context.createCompletionQueue(4, null);
                RcQueuePair qp = pd.createRcQueuePair(cq, cq, new QueuePairCapabilities(1, 1, 1, 1, 0),
                    (pair, from, to, mask) -> moves.add(from + " -> " + to)))
            {
                id.attachQp(qp);
                id.connect(ConnectionParameters.of(1, 1));
                next(channel, CmEventType.ESTABLISHED);
                id.disconnect();
                id.destroy();
            }
        }
        finally
        {
            rping.destroy();
            rping.waitFor(10, TimeUnit.SECONDS);
        }
        assertEquals(List.of("RESET -> INIT", "INIT -> INIT", "INIT -> RTR", "RTR -> RTS"), moves.subList(0, Math.min(4, moves.size())),
            "the QP's moves: " + moves);
    }

    private static void next(final EventChannel channel, final CmEventType expected) throws InterruptedException
    {
        final CmEvent event = channel.getEvent(WAIT);
        assertNotNull(event, "no " + expected + " within " + WAIT);
        event.ack();
        assertEquals(expected, event.type(), event.toString());
    }

}
