package dev.rdmacm.cm.kernel;

import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.CmEventType;
import dev.rdmacm.cm.CmIdState;
import dev.rdmacm.cm.ConnectionManager;
import dev.rdmacm.cm.ConnectionParameters;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.cm.kernel.KernelConnectionManagerInGuest.Resources;
import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.RunningPeer;
import dev.rdmacm.testing.SoftRoceDevices;
import dev.rdmacm.verbs.CompletionOpcode;
import dev.rdmacm.verbs.CompletionQueue;
import dev.rdmacm.verbs.CompletionStatus;
import dev.rdmacm.verbs.ScatterGatherList;
import dev.rdmacm.verbs.WorkCompletions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static dev.rdmacm.cm.kernel.KernelCmGuest.OWN_IPV4;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Real librdmacm programs as the peers of a Java application whose connections go through the kernel's CM
 * ({@link ConnectionManager#KERNEL}), in the kernel guest ({@code ib_cm} loaded):
 * <ul>
 *   <li>the real {@code ucmatose} client with two connections, served by our listener: its messages
 *       reach our QPs and ours reach its, and its replies carry back what we sent;</li>
 *   <li>{@code rdma link delete} under a connected id: a veth pair of this class's own with a fresh rxe device
 *       on each end, ours first, then the real {@code rping} on fresh devices, as {@code DeviceRemovalInGuest}
 *       does for the userspace CM; both sides' events after ESTABLISHED must be the same.</li>
 * </ul>
 * Around each case, {@code rdma resource} counts the same CM ids and QPs after as before. The silent peer's case,
 * which waits about 100 s for the kernel's CM timeout, is {@link KernelCmSilentPeerInGuest}, run beside the suite.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
public class KernelCmPeersInGuest
{
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration COMMAND = Duration.ofSeconds(60);
    private static final int UCMATOSE_PORT = 7521;
    private static final int REMOVAL_PORT = 7523;
    private static final int CONNECTIONS = 2;
    /** ucmatose's defaults, named on its command line: 10 messages of 100 bytes each way. */
    private static final int MESSAGES = 10;
    private static final int MESSAGE_SIZE = 100;
    /** Our receives take the first {@code MESSAGES * MESSAGE_SIZE} bytes of the region, our one send buffer the rest. */
    private static final int SEND_OFFSET = MESSAGES * MESSAGE_SIZE;
    private static final long SEND_ID = 1000;
    private static final String REMOVAL_OWN = "198.19.32.1";
    private static final String REMOVAL_PEER = "198.19.32.2";

    private static RdmaCm open() throws Exception
    {
        return RdmaCm.open(RdmaCm.Options.builder().connectionManager(ConnectionManager.KERNEL).build());
    }

    @Test
    void shouldServeUcmatosesTwoConnectionsAndCarryItsDataBothWaysThroughTheKernelCm() throws Exception
    {
        final Resources before = Resources.settled();
        final Map<RdmaCmId, VerbsEndpoint> accepted = new LinkedHashMap<>();
        final RunningPeer ucmatose;
        try (RdmaCm cm = open(); EventChannel channel = cm.createEventChannel(); ScatterGatherList sgl = new ScatterGatherList(1))
        {
            final RdmaCmId listener = cm.createId(channel);
            listener.bindAddr(new InetSocketAddress(InetAddress.getByName(OWN_IPV4), UCMATOSE_PORT));
            listener.listen(8);
            ucmatose = RunningPeer.start("ucmatose", "-s", OWN_IPV4, "-p", Integer.toString(UCMATOSE_PORT), "-c", Integer.toString(CONNECTIONS),
                "-C", Integer.toString(MESSAGES), "-S", Integer.toString(MESSAGE_SIZE));
            try
            {
                // its two REQs may come before the first ESTABLISHED: take the events as they come
                int established = 0;
                while (established < CONNECTIONS)
                {
                    final CmEvent event = channel.getEvent(WAIT);
                    final int now = established;
                    assertNotNull(event, () -> "accepted " + accepted.size() + ", established " + now + "; ucmatose printed:\n" + ucmatose);
                    event.ack();
                    switch (event)
                    {
                        case CmEvent.ConnectRequest request ->
                        {
                            assertEquals(listener, request.listenId());
                            final VerbsEndpoint end = VerbsEndpoint.on(request.id().binding().device(), MESSAGES, SEND_OFFSET + MESSAGE_SIZE);
                            accepted.put(request.id(), end);
                            request.id().attachQp(end.qp());
                            for (int m = 0; m < MESSAGES; m++)
                            {
                                end.qp().postReceive(m, sgl.clear().add(end.region(), (long)m * MESSAGE_SIZE, MESSAGE_SIZE));
                            }
                            request.id().accept(ConnectionParameters.of(1, 1));
                        }
                        case CmEvent.Established up ->
                        {
                            assertTrue(accepted.containsKey(up.id()), up + " for an id not accepted");
                            established++;
                        }
                        default -> fail("unexpected " + event + "; ucmatose printed:\n" + ucmatose);
                    }
                }
                assertEquals(CONNECTIONS, accepted.size());

                // ucmatose waits for our messages first, then sends as many back from the buffer they arrived in
                int connection = 0;
                final List<byte[]> payloads = new ArrayList<>();
                for (final VerbsEndpoint end : accepted.values())
                {
                    final byte[] payload = payload(connection++);
                    payloads.add(payload);
                    end.region().memory().asSlice(SEND_OFFSET, MESSAGE_SIZE).copyFrom(MemorySegment.ofArray(payload));
                    for (int m = 0; m < MESSAGES; m++)
                    {
                        end.qp().postSend(SEND_ID + m, sgl.clear().add(end.region(), SEND_OFFSET, MESSAGE_SIZE), true);
                    }
                }
                connection = 0;
                for (final VerbsEndpoint end : accepted.values())
                {
                    final List<Completion> completions = completions(end.cq(), 2 * MESSAGES, ucmatose);
                    final byte[] payload = payloads.get(connection++);
                    assertEquals(MESSAGES, completions.stream().filter(c -> c.opcode == CompletionOpcode.SEND).count(), completions::toString);
                    for (final Completion received : completions.stream().filter(c -> c.opcode == CompletionOpcode.RECV).toList())
                    {
                        assertEquals(MESSAGE_SIZE, received.byteLength, received::toString);
                        final byte[] reply = end.region().memory().asSlice(received.wrId * MESSAGE_SIZE, MESSAGE_SIZE).toArray(
                            java.lang.foreign.ValueLayout.JAVA_BYTE);
                        assertArrayEquals(payload, reply, "ucmatose's reply " + received.wrId + " on connection " + connection);
                    }
                }

                for (final RdmaCmId id : accepted.keySet())
                {
                    id.disconnect();
                }
                final List<RdmaCmId> disconnected = new ArrayList<>();
                while (disconnected.size() < CONNECTIONS)
                {
                    final CmEvent event = channel.getEvent(WAIT);
                    assertNotNull(event, () -> "disconnected " + disconnected + "; ucmatose printed:\n" + ucmatose);
                    event.ack();
                    // the timewait's end may come for a connection already disconnected
                    if (event.type() != CmEventType.TIMEWAIT_EXIT)
                    {
                        assertEquals(CmEventType.DISCONNECTED, event.type(), event::toString);
                        disconnected.add(event.id());
                    }
                }
                assertEquals(accepted.keySet(), java.util.Set.copyOf(disconnected));
                for (final Map.Entry<RdmaCmId, VerbsEndpoint> entry : accepted.entrySet())
                {
                    entry.getKey().destroy();
                    entry.getValue().close();
                }
                accepted.clear();
                listener.destroy();
                assertEquals(0, ucmatose.exitStatus(WAIT), ucmatose::toString);
            }
            finally
            {
                accepted.values().forEach(VerbsEndpoint::close);
                ucmatose.close();
            }
        }
        assertTrue(ucmatose.lines().contains("data transfers complete"), ucmatose::toString);
        assertEquals(before, Resources.backTo(before), "rdma resource: CM ids and QPs after");
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void shouldPostDeviceRemovalToAKernelConnectedIdAsTheRealRpingGetsIt() throws Exception
    {
        final Resources before = Resources.settled();
        sh("ip link add kra type veth peer name krb && ip address add " + REMOVAL_OWN + "/24 dev kra && ip address add " + REMOVAL_PEER
            + "/24 dev krb && ip link set kra up && ip link set krb up"
            + " && sysctl -qw net.ipv4.conf.kra.accept_local=1 net.ipv4.conf.krb.accept_local=1");
        final Map<String, List<String>> ours;
        final Map<String, List<String>> kernels;
        try (SoftRoceDevices devices = new SoftRoceDevices(70))
        {
            ours = ourRemoval(devices);
            kernels = rpingRemoval(devices);
        }
        finally
        {
            sh("ip link delete kra");
        }
        System.out.println("device removal under a connection, events after ESTABLISHED: ours " + ours + ", rping's " + kernels);
        assertEquals(List.of("DEVICE_REMOVAL"), kernels.get("active"), "rping's: " + kernels);
        assertEquals(kernels, ours, "ours through the kernel's CM against rping's");
        assertEquals(before, Resources.backTo(before), "rdma resource: CM ids and QPs after");
    }

    /** Ours: a connection from kra's device to our listener on krb's, then the active side's device removed. */
    private static Map<String, List<String>> ourRemoval(final SoftRoceDevices devices) throws Exception
    {
        final String activeDevice = devices.add("kra");
        final String passiveDevice = devices.add("krb");
        final Map<String, List<String>> events = new TreeMap<>();
        final List<VerbsEndpoint> held = new ArrayList<>();
        try (RdmaCm cm = open(); EventChannel passiveChannel = cm.createEventChannel(); EventChannel activeChannel = cm.createEventChannel())
        {
            final RdmaCmId listener = cm.createId(passiveChannel);
            listener.bindAddr(new InetSocketAddress(InetAddress.getByName(REMOVAL_PEER), REMOVAL_PORT));
            listener.listen(8);
            final RdmaCmId active = cm.createId(activeChannel);
            RoutedId.resolved(active, activeChannel, new InetSocketAddress(InetAddress.getByName(REMOVAL_OWN), 0),
                new InetSocketAddress(InetAddress.getByName(REMOVAL_PEER), REMOVAL_PORT), "");
            assertEquals(activeDevice, active.binding().device());
            final VerbsEndpoint activeEnd = VerbsEndpoint.on(activeDevice);
            held.add(activeEnd);
            active.attachQp(activeEnd.qp());
            active.connect(ConnectionParameters.of(1, 1));
            final CmEvent.ConnectRequest request = (CmEvent.ConnectRequest)RoutedId.next(passiveChannel, CmEventType.CONNECT_REQUEST, "");
            final RdmaCmId passive = request.id();
            assertEquals(passiveDevice, passive.binding().device());
            final VerbsEndpoint passiveEnd = VerbsEndpoint.on(passiveDevice);
            held.add(passiveEnd);
            passive.attachQp(passiveEnd.qp());
            passive.accept(request.parameters());
            RoutedId.next(activeChannel, CmEventType.ESTABLISHED, "");
            RoutedId.next(passiveChannel, CmEventType.ESTABLISHED, "");

            final SoftRoceDevices.Removal removal = devices.remove(activeDevice);
            final CmEvent removed = activeChannel.getEvent(WAIT);
            assertNotNull(removed, "no event on the active id within " + WAIT + " of removing " + activeDevice);
            removed.ack();
            events.put("active", new ArrayList<>(List.of(removed.type().name())));
            assertEquals(CmIdState.DEVICE_REMOVAL, active.state());
            // as rping does: the QP and the id go, and with them the last hold on the device
            held.remove(activeEnd);
            activeEnd.close();
            active.destroy();
            removal.await();
            drain(events, "active", activeChannel, Duration.ZERO);
            // the kernel's CM lets go of the removed connection with a DREQ: wait for what the passive side gets
            drain(events, "passive", passiveChannel, WAIT);

            passive.destroy();
            held.remove(passiveEnd);
            passiveEnd.close();
            listener.destroy();
        }
        finally
        {
            // a failure must not leave a device held: its removal would wait for this JVM
            held.forEach(VerbsEndpoint::close);
        }
        devices.delete(passiveDevice);
        return events;
    }

    /** The real rping's, on fresh devices: the same connection, the same removal. */
    private static Map<String, List<String>> rpingRemoval(final SoftRoceDevices devices) throws Exception
    {
        final String activeDevice = devices.add("kra");
        final String passiveDevice = devices.add("krb");
        // stdout line-buffered: rping prints its "cma_event type" lines there and "DISCONNECT EVENT" on stderr, and a
        // server whose last events sat in a full buffer's remainder failed the wait below (2026-12-06, 11:00, a loaded host)
        try (RunningPeer server = RunningPeer.start("stdbuf", "-oL", "rping", "-s", "-d", "-a", REMOVAL_PEER, "-p",
            Integer.toString(REMOVAL_PORT), "-C", "100000000", "-S", "64"))
        {
            SoftRoceDevices.awaitKernelId(passiveDevice, "LISTEN", server);
            try (RunningPeer client = RunningPeer.start("stdbuf", "-oL", "rping", "-c", "-d", "-a", REMOVAL_PEER, "-I", REMOVAL_OWN, "-p",
                Integer.toString(REMOVAL_PORT), "-C", "100000000", "-S", "64"))
            {
                client.await(line -> line.contains("RDMA_CM_EVENT_ESTABLISHED"), WAIT);
                server.await(line -> line.contains("RDMA_CM_EVENT_ESTABLISHED"), WAIT);
                devices.delete(activeDevice);
                server.await(line -> line.contains("RDMA_CM_EVENT_DISCONNECTED") || line.contains("DEVICE_REMOVAL"), WAIT);
                final Map<String, List<String>> events = new TreeMap<>();
                events.put("active", client.rpingEventsAfterEstablished("parent"));
                events.put("passive", server.rpingEventsAfterEstablished("child"));
                return events;
            }
        }
        finally
        {
            if (devices.holds(passiveDevice))
            {
                devices.delete(passiveDevice);
            }
        }
    }

    /** The events queued on {@code channel}, by type name, after those {@code events} has; with none there, the first within {@code wait}. */
    private static void drain(final Map<String, List<String>> events, final String id, final EventChannel channel, final Duration wait)
        throws InterruptedException
    {
        final List<String> got = events.computeIfAbsent(id, key -> new ArrayList<>());
        final boolean waitForFirst = got.isEmpty() && !wait.isZero();
        while (true)
        {
            final CmEvent event = channel.pendingEvents() > 0 ? channel.getEvent(WAIT)
                : waitForFirst && got.isEmpty() ? channel.getEvent(wait) : null;
            if (event == null)
            {
                return;
            }
            event.ack();
            got.add(event.type().name());
        }
    }

    private static String sh(final String script)
    {
        return HostCommand.run(COMMAND, null, List.of("sh", "-c", script)).orFail(script).output();
    }

    /** ucmatose's message for {@code connection}: its number, then bytes that differ from the other's. */
    private static byte[] payload(final int connection)
    {
        final byte[] payload = new byte[MESSAGE_SIZE];
        for (int i = 0; i < payload.length; i++)
        {
            payload[i] = (byte)(connection * 101 + i * 7 + 1);
        }
        return payload;
    }

    /** One work completion, read out of the verbs buffer. */
    private record Completion(long wrId, CompletionStatus status, CompletionOpcode opcode, long byteLength)
    {
    }

    /** {@code count} completions of {@code cq}, each checked successful. */
    private static List<Completion> completions(final CompletionQueue cq, final int count, final RunningPeer peer)
    {
        final List<Completion> got = new ArrayList<>();
        try (WorkCompletions completions = new WorkCompletions(count))
        {
            final long deadline = System.nanoTime() + WAIT.toNanos();
            while (got.size() < count)
            {
                assertTrue(System.nanoTime() - deadline < 0, () -> got.size() + " of " + count + " completions within " + WAIT + ": " + got
                    + "; the peer printed:\n" + peer);
                final int polled = cq.poll(completions);
                for (int i = 0; i < polled; i++)
                {
                    final Completion completion = new Completion(completions.wrId(i), completions.completionStatus(i),
                        completions.completionOpcode(i), completions.byteLength(i));
                    assertEquals(CompletionStatus.SUCCESS, completion.status(), () -> completion + "; the peer printed:\n" + peer);
                    got.add(completion);
                }
                if (polled == 0)
                {
                    Thread.onSpinWait();
                }
            }
        }
        return got;
    }
}
