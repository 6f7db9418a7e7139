package dev.rdmacm.verbs;

import dev.rdmacm.protocol.sa.MtuCode;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static dev.rdmacm.verbs.SoftRoceGuest.PORT;
import static dev.rdmacm.verbs.SoftRoceGuest.RECEIVER;
import static dev.rdmacm.verbs.SoftRoceGuest.RECEIVER_NETDEV;
import static dev.rdmacm.verbs.SoftRoceGuest.SENDER;
import static dev.rdmacm.verbs.SoftRoceGuest.SENDER_NETDEV;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Run inside the soft-RoCE guest (the conformance module's {@code SoftRoceGuestsTest}): our RC QP
 * on {@code rxe10} against the real {@code ibv_rc_pingpong} (rdma-core's example, ibverbs-utils) on
 * {@code rxe11}, once as its client and once as its server: the TCP exchange of
 * {@link PingpongDestination}s, then SENDs back and forth for {@link #ITERATIONS} rounds, and both
 * ends exit 0. Both use the RoCE v2 GID of their netdev's IPv4 address ({@code -g}). Our side waits
 * on its completion channel: take the event (acknowledged), re-arm, poll the CQ empty.
 * <p>
 * {@code ibv_rc_pingpong} receives into and sends from one buffer, so the server echoes: every
 * message it sends is the last one it received, and its first as a client is its buffer's initial
 * fill, 0x7b.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public class RcPingpongInGuest
{
    private static final int ITERATIONS = 25;
    private static final int RX_DEPTH = 8;
    private static final long SEND_WR_ID = 2;
    private static final long RECV_WR_ID = 0x100;
    private static final int PSN = 0x1b_2c3d;
    private static final byte INITIAL_FILL = 0x7b;
    private static final long LIMIT_MILLIS = TimeUnit.SECONDS.toMillis(60);

    private static VerbsContext context;
    private static int peerGidIndex;

    @BeforeAll
    static void openOurDevice()
    {
        Peers.require(!Verbs.listDevices().isEmpty(), "no RDMA device in the guest: " + Verbs.listDevices().whyNone().orElse(""));
        Peers.requireCommand("ibv_rc_pingpong", "ibverbs-utils");
        context = Verbs.open(SENDER);
        peerGidIndex = new SysfsPort(RECEIVER, PORT).gidIndex(new GuestNetdev(RECEIVER_NETDEV).ipv4Gid().toLongForm(),
            GidType.ROCE_V2.text());
    }

    @AfterAll
    static void closeOurDevice()
    {
        if (context != null)
        {
            context.close();
        }
    }

    @Test
    void shouldPingpongInlineSendsAsTheClientOfIbvRcPingpong() throws Exception
    {
        final int size = 64;
        final int port = freePort();
        try (RcEndpoint ours = endpoint(size); Peer peer = Peer.start(size, port, null))
        {
            assertTrue(ours.qp.capabilities().maxInlineData() >= size, "sends of " + size + " bytes go inline: " + ours.qp.capabilities());
            connect(ours, exchangeAsClient(ours, port, peer));

            final List<byte[]> received = pingpong(ours, size, true, new int[1]);

            peer.assertSucceeded();
            for (int i = 0; i < ITERATIONS; i++)
            {
                assertArrayEquals(message(i, size), received.get(i), "the server echoes message " + i);
            }
        }
    }

    @Test
    void shouldPingpongMultiPacketSendsAsTheServerForIbvRcPingpong() throws Exception
    {
        // 4096 bytes on a 1024-byte path MTU: four packets a message, and too long to go inline
        final int size = 4096;
        try (RcEndpoint ours = endpoint(size); ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
            Peer peer = Peer.start(size, listener.getLocalPort(), "127.0.0.1"))
        {
            listener.setSoTimeout((int)LIMIT_MILLIS);
            try (Socket socket = listener.accept())
            {
                socket.setSoTimeout((int)LIMIT_MILLIS);
                final OutputStream out = socket.getOutputStream();
                final InputStream in = socket.getInputStream();
                final PingpongDestination theirs = PingpongDestination.parse(in.readNBytes(PingpongDestination.LENGTH));
                connect(ours, theirs);
                out.write(own(ours).toBytes());
                assertArrayEquals(PingpongDestination.DONE, in.readNBytes(PingpongDestination.DONE.length));
            }

            final List<byte[]> received = pingpong(ours, size, false, new int[1]);

            peer.assertSucceeded();
            final byte[] fill = new byte[size];
            Arrays.fill(fill, INITIAL_FILL);
            assertArrayEquals(fill, received.getFirst(), "the client's first message is its buffer's initial fill");
            for (int i = 1; i < ITERATIONS; i++)
            {
                assertArrayEquals(message(i - 1, size), received.get(i), "the client echoes our reply " + (i - 1));
            }
        }
    }

    @Test
    void shouldAcknowledgeEveryCompletionEventItTakesAndTransitionThreeTimes() throws Exception
    {
        final int size = 64;
        final int port = freePort();
        try (RcEndpoint ours = endpoint(size); Peer peer = Peer.start(size, port, null))
        {
            connect(ours, exchangeAsClient(ours, port, peer));
            final int[] events = new int[1];

            pingpong(ours, size, true, events);

            peer.assertSucceeded();
            assertTrue(events[0] >= 1, "events taken: " + events[0]);
            assertEquals(events[0], ours.cq.acknowledgedEvents(), "every event taken was acknowledged");
            assertEquals(List.of(QpState.INIT, QpState.RTR, QpState.RTS), ours.transitions().stream().map(RcEndpoint.Transition::to).toList());
        }
    }

    /** {@code pp_client_exch_dest}: write ours, read theirs, write "done". */
    private static PingpongDestination exchangeAsClient(final RcEndpoint ours, final int port, final Peer peer) throws IOException
    {
        try (Socket socket = connect(port, peer))
        {
            final OutputStream out = socket.getOutputStream();
            out.write(own(ours).toBytes());
            final PingpongDestination theirs = PingpongDestination.parse(socket.getInputStream().readNBytes(PingpongDestination.LENGTH));
            out.write(PingpongDestination.DONE);
            return theirs;
        }
    }

    private static RcEndpoint endpoint(final int size)
    {
        final RcEndpoint ours = new RcEndpoint(context, SENDER_NETDEV, 2 * RX_DEPTH + 2,
            new QueuePairCapabilities(1, RX_DEPTH, 1, 1, 64), (long)(RX_DEPTH + 1) * size, true);
        try
        {
            ours.qp.init(PORT, 0, 0);
            prepare(ours, size);
            return ours;
        }
        catch (final RuntimeException ex)
        {
            ours.close();
            throw ex;
        }
    }

    private static PingpongDestination own(final RcEndpoint ours)
    {
        return new PingpongDestination(0, ours.qp.qpNumber(), PSN, ours.gid);
    }

    /** {@code pp_connect_ctx}: RTR with hop limit 1, MTU 1024, one responder resource, RNR timer 12; RTS with 14/7/7/1. */
    private static void connect(final RcEndpoint ours, final PingpongDestination theirs)
    {
        ours.qp.readyToReceive(new RcReceiveParameters(ours.pathTo(theirs.gid(), 1), MtuCode.MTU_1024, theirs.qpn(), theirs.psn(), 1, 12))
            .readyToSend(new RcSendParameters(PSN, 14, 7, 7, 1));
    }

    /**
     * {@code ibv_rc_pingpong}'s own loop: the next SEND goes once the last one completed and a
     * message came in; receives are reposted as they complete.
     *
     * @return the messages received, in order.
     */
    private static List<byte[]> pingpong(final RcEndpoint ours, final int size, final boolean client, final int[] events)
    {
        final List<byte[]> received = new ArrayList<>();
        final long sendOffset = (long)RX_DEPTH * size;
        try (ScatterGatherList send = new ScatterGatherList(1).add(ours.region, sendOffset, size);
            ScatterGatherList receive = new ScatterGatherList(1);
            WorkCompletions completions = new WorkCompletions(RX_DEPTH + 1))
        {
            int sent = 0;
            boolean awaitingSend = false;
            boolean awaitingReceive = true;
            if (client)
            {
                postMessage(ours, send, sendOffset, 0, size);
                awaitingSend = true;
            }
            while (received.size() < ITERATIONS || sent < ITERATIONS)
            {
                assertSame(ours.cq, Completion.awaitEvent(ours.channel));
                events[0]++;
                ours.cq.requestNotification(false);
                int polled;
                while ((polled = ours.cq.poll(completions)) > 0)
                {
                    for (int i = 0; i < polled; i++)
                    {
                        final CompletionStatus status = completions.completionStatus(i);
                        assertEquals(CompletionStatus.SUCCESS, status, "wr_id " + completions.wrId(i) + ": " + status.description());
                        if (completions.wrId(i) == SEND_WR_ID)
                        {
                            sent++;
                            awaitingSend = false;
                        }
                        else
                        {
                            final int slot = (int)(completions.wrId(i) - RECV_WR_ID);
                            assertEquals(size, completions.byteLength(i), "byte_len of message " + received.size());
                            received.add(ours.region.memory().asSlice((long)slot * size, size).toArray(JAVA_BYTE));
                            ours.qp.postReceive(RECV_WR_ID + slot, receive.clear().add(ours.region, (long)slot * size, size));
                            awaitingReceive = false;
                        }
                        if (sent < ITERATIONS && !awaitingSend && !awaitingReceive)
                        {
                            postMessage(ours, send, sendOffset, sent, size);
                            awaitingSend = true;
                            awaitingReceive = true;
                        }
                    }
                }
            }
        }
        return received;
    }

    private static void postMessage(final RcEndpoint ours, final ScatterGatherList send, final long offset, final int index,
        final int size)
    {
        MemorySegment.copy(MemorySegment.ofArray(message(index, size)), 0, ours.region.memory(), offset, size);
        ours.qp.postSend(SEND_WR_ID, send, true);
    }

    /** Posts the receives and arms the CQ before the exchange, as ibv_rc_pingpong does. */
    private static void prepare(final RcEndpoint ours, final int size)
    {
        try (ScatterGatherList receive = new ScatterGatherList(1))
        {
            for (int slot = 0; slot < RX_DEPTH; slot++)
            {
                ours.qp.postReceive(RECV_WR_ID + slot, receive.clear().add(ours.region, (long)slot * size, size));
            }
        }
        ours.cq.requestNotification(false);
    }

    private static byte[] message(final int index, final int size)
    {
        final byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++)
        {
            bytes[i] = (byte)(index * 31 + i);
        }
        return bytes;
    }

    private static int freePort() throws IOException
    {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            return probe.getLocalPort();
        }
    }

    /** Connects to the server {@code peer} starts, retrying while it is not listening yet. */
    private static Socket connect(final int port, final Peer peer) throws IOException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LIMIT_MILLIS);
        while (true)
        {
            final Socket socket = new Socket();
            try
            {
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
                socket.setSoTimeout((int)LIMIT_MILLIS);
                return socket;
            }
            catch (final IOException ex)
            {
                socket.close();
                if (!peer.process.isAlive() || System.nanoTime() - deadline > 0)
                {
                    throw new AssertionError("ibv_rc_pingpong on port " + port + " never listened: " + peer.output(), ex);
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            }
        }
    }

    /** The real {@code ibv_rc_pingpong} on {@code rxe11}, its output in files so that no pipe fills. */
    private record Peer(Process process, Path stdout, Path stderr) implements AutoCloseable
    {
        static Peer start(final int size, final int port, final String server) throws IOException
        {
            final List<String> command = new ArrayList<>(List.of("ibv_rc_pingpong", "-d", RECEIVER, "-i", String.valueOf(PORT),
                "-g", String.valueOf(peerGidIndex), "-s", String.valueOf(size), "-n", String.valueOf(ITERATIONS), "-r",
                String.valueOf(RX_DEPTH), "-p", String.valueOf(port), "-e"));
            if (server != null)
            {
                command.add(server);
            }
            final Path stdout = Files.createTempFile("rc_pingpong", ".out");
            final Path stderr = Files.createTempFile("rc_pingpong", ".err");
            final Process process = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
            return new Peer(process, stdout, stderr);
        }

        void assertSucceeded() throws Exception
        {
            final boolean exited = process.waitFor(LIMIT_MILLIS, TimeUnit.MILLISECONDS);
            if (!exited)
            {
                process.destroyForcibly();
                throw new AssertionError("ibv_rc_pingpong did not exit: " + output());
            }
            assertEquals(0, process.exitValue(), output());
            assertTrue(Files.readString(stdout).contains(ITERATIONS + " iters in "), output());
        }

        /** Stops the process this test started, if a failure left it running. */
        @Override
        public void close()
        {
            if (process.isAlive())
            {
                process.destroyForcibly();
            }
        }

        String output()
        {
            try
            {
                return "stdout:\n" + Files.readString(stdout) + "stderr:\n" + Files.readString(stderr);
            }
            catch (final IOException ex)
            {
                return "(output unreadable: " + ex + ")";
            }
        }
    }
}
