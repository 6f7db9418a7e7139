package dev.rdmacm.cm;

import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.OpenDescriptors;
import dev.rdmacm.testing.Peers;
import dev.rdmacm.testing.RunningPeer;
import dev.rdmacm.testing.SoftRoceDevices;
import dev.rdmacm.verbs.CompletionQueue;
import dev.rdmacm.verbs.ProtectionDomain;
import dev.rdmacm.verbs.QueuePairCapabilities;
import dev.rdmacm.verbs.RcQueuePair;
import dev.rdmacm.verbs.Verbs;
import dev.rdmacm.verbs.VerbsContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rdma link delete} under a connected id, a listener and an address resolution in flight, in the
 * userspace-CM guest ({@code UserspaceGuestSuite}), with the kernel's CM as the oracle in the same guest:
 * each case runs first with our CM, then, with {@code rdma_ucm} loaded for it and unloaded after, with
 * the real {@code rping} ({@code -d} prints every event it gets, and which id got it). Each case has a
 * veth pair of its own ({@code dra}/{@code drb}, 198.51.100.1 and .2, both in the initial namespace
 * with {@code accept_local}, as the verbs pair) and a fresh rxe device on each end for each CM, so a
 * removal takes nothing from the other classes.
 * <p>
 * What the kernel does, and ours now too: ib_umad kills the device's ports first (our CM's umad
 * descriptor says POLLERR), the CM posts DEVICE_REMOVAL to every id on the device, and the removal
 * waits until every process has closed its verbs contexts on it (rxe cannot take them away); only then
 * does the uevent come. One difference stays: the kernel's CM still sends a DREQ when the removed
 * connection's id is destroyed (its ib_cm lets go of the device after rdma_cm), so its peer gets
 * DISCONNECTED; ours learns of the removal from the dead umad port, so its peer gets nothing.
 * Afterwards nothing is left: {@code rdma resource} on the devices that stay, this JVM's descriptors
 * and the CM's threads are as they were.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
public class DeviceRemovalInGuest
{
    private static final String OWN = "198.51.100.1";
    private static final String PEER = "198.51.100.2";
    /** Nobody answers ARP for it on {@code dra}: a resolution to it waits. */
    private static final String SILENT = "198.51.100.9";
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration COMMAND = Duration.ofSeconds(60);
    private static final QueuePairCapabilities CAPABILITIES = new QueuePairCapabilities(1, 1, 1, 1, 0);
    private static final Pattern RESOURCE = Pattern.compile("^\\d+: (\\S+): (.*)$");

    /** Static: the device names go on counting from one test to the next. */
    private static final SoftRoceDevices DEVICES = new SoftRoceDevices(50);

    @BeforeEach
    void pair()
    {
        Peers.require(System.getenv("RDMACM_GUEST_SHARE") != null,
            "RDMACM_GUEST_SHARE: this class runs inside a KernelGuest (UserspaceGuestSuite)");
        sh("ip link add dra type veth peer name drb && ip address add " + OWN + "/24 dev dra && ip address add " + PEER
            + "/24 dev drb && ip link set dra up && ip link set drb up"
            + " && sysctl -qw net.ipv4.conf.dra.accept_local=1 net.ipv4.conf.drb.accept_local=1");
    }

    @AfterEach
    void unpair()
    {
        DEVICES.close();
        sh("ip link delete dra");
    }

    @Test
    void shouldPostDeviceRemovalToTheConnectedIdOnTheRemovedDeviceAsTheKernelCmDoes() throws Exception
    {
        final Map<String, List<String>> ours = ourConnectedCase();
        final Map<String, List<String>> kernels = kernelConnectedCase();
        assertEquals(List.of("DEVICE_REMOVAL"), kernels.get("active"), "the kernel's: " + kernels);
        assertEquals(kernels.get("active"), ours.get("active"), "ours: " + ours + ", the kernel's: " + kernels);
        // the one difference (class comment): the kernel's ib_cm still sends the DREQ when the id is destroyed
        assertEquals(List.of("DISCONNECTED"), kernels.get("passive"), "the kernel's: " + kernels);
        assertEquals(List.of(), ours.get("passive"), "ours: " + ours);
    }

    @Test
    void shouldPostDeviceRemovalToAListenerOnTheRemovedDeviceAsTheKernelCmDoes() throws Exception
    {
        final List<String> ours = ourListenerCase();
        final List<String> kernels = kernelSingleIdCase("listen", List.of("rping", "-s", "-d", "-a", PEER, "-p", "7511", "-C", "1"),
            "drb", "LISTEN");
        assertEquals(List.of("DEVICE_REMOVAL"), kernels);
        assertEquals(kernels, ours);
    }

    @Test
    void shouldPostDeviceRemovalToAnAddressResolutionInFlightAsTheKernelCmDoes() throws Exception
    {
        final List<String> ours = ourResolutionCase();
        final List<String> kernels = kernelSingleIdCase("resolve", List.of("rping", "-c", "-d", "-a", SILENT, "-I", OWN, "-p", "7512",
            "-C", "1"), "dra", "ADDR_QUERY");
        assertEquals(List.of("DEVICE_REMOVAL"), kernels);
        assertEquals(kernels, ours);
    }

    /** Ours: a connection from {@code dra}'s device to a listener on {@code drb}'s, then the active side's device removed. */
    private Map<String, List<String>> ourConnectedCase() throws Exception
    {
        final String activeDevice = DEVICES.add("dra");
        final String passiveDevice = DEVICES.add("drb");
        final Map<String, String> resourcesBefore = resources(passiveDevice);
        final Baseline baseline = Baseline.now();
        final Map<String, List<String>> events = new TreeMap<>();
        final List<String> trace = new CopyOnWriteArrayList<>();
        final List<Endpoint> held = new ArrayList<>();
        try (RdmaCm cm = RdmaCm.open(); EventChannel passiveChannel = cm.createEventChannel();
             EventChannel activeChannel = cm.createEventChannel())
        {
            cm.cmMadRecorder((direction, source, destination, sourceQp, destinationQp, trafficClass, hopLimit, flowLabel, mad,
                offset, length) ->
            {
                final int attribute = new dev.rdmacm.protocol.mad.MadHeader().wrap(mad, offset, length).attributeId();
                trace.add(direction + " " + attribute + " " + source + " -> " + destination + " qp " + destinationQp
                    + (attribute == 0x12 ? " reason " + new dev.rdmacm.protocol.cm.ConnectReject().wrapMad(mad, offset, length).reason()
                    : ""));
            });
            cm.connectionTransitions((localCommId, remoteCommId, from, to, nowNanos) -> trace.add(localCommId + ": " + from + " -> " + to));
            final RdmaCmId listener = cm.createId(passiveChannel);
            listener.bindAddr(new InetSocketAddress(InetAddress.getByName(PEER), 7510));
            listener.listen(8);
            final RdmaCmId active = cm.createId(activeChannel);
            active.resolveAddr(new InetSocketAddress(InetAddress.getByName(OWN), 0), new InetSocketAddress(InetAddress.getByName(PEER),
                7510), Duration.ofSeconds(2));
            expect(activeChannel, CmEventType.ADDR_RESOLVED);
            assertEquals(activeDevice, active.binding().device());
            active.resolveRoute(Duration.ofSeconds(2));
            expect(activeChannel, CmEventType.ROUTE_RESOLVED);
            final Endpoint activeEnd = Endpoint.on(activeDevice);
            held.add(activeEnd);
            active.attachQp(activeEnd.qp());
            active.connect(ConnectionParameters.of(1, 1));
            final CmEvent request = passiveChannel.getEvent(WAIT);
            assertNotNull(request, () -> "no CONNECT_REQUEST within " + WAIT + "; the active side's next event: "
                + activeChannel.pendingEvents() + " pending; the CM: " + trace);
            request.ack();
            assertEquals(CmEventType.CONNECT_REQUEST, request.type(), request.toString());
            final RdmaCmId passive = request.id();
            assertEquals(passiveDevice, passive.binding().device());
            final Endpoint passiveEnd = Endpoint.on(passiveDevice);
            held.add(passiveEnd);
            passive.attachQp(passiveEnd.qp());
            passive.accept(((CmEvent.ConnectRequest)request).parameters());
            expect(activeChannel, CmEventType.ESTABLISHED);
            expect(passiveChannel, CmEventType.ESTABLISHED);

            final SoftRoceDevices.Removal removal = DEVICES.remove(activeDevice);
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
            drainInto(events, "active", activeChannel);
            drainInto(events, "passive", passiveChannel);

            passive.disconnect();
            held.remove(passiveEnd);
            passiveEnd.close();
            passive.destroy();
            listener.destroy();
        }
        finally
        {
            // a failure must not leave the device held: its removal would wait for this JVM
            held.forEach(Endpoint::close);
        }
        assertEquals(resourcesBefore, resources(passiveDevice), "rdma resource on " + passiveDevice);
        baseline.assertBack();
        // nothing of ours holds the passive device either: its removal does not wait (and drb is free for the kernel's case)
        DEVICES.delete(passiveDevice);
        return events;
    }

    /** The kernel's, through rping: the same connection, the same removal. */
    private Map<String, List<String>> kernelConnectedCase() throws Exception
    {
        return withKernelCm(() ->
        {
            final String activeDevice = DEVICES.add("dra");
            final String passiveDevice = DEVICES.add("drb");
            // stdout line-buffered: rping prints its "cma_event type" lines there and "DISCONNECT EVENT" on stderr, and a
            // server whose last events sat in a full buffer's remainder failed the wait below (2026-12-06, 11:50)
            try (RunningPeer server = RunningPeer.start(List.of("stdbuf", "-oL", "rping", "-s", "-d", "-a", PEER, "-p", "7510", "-C",
                "100000000", "-S", "64"));
                 RunningPeer client = startOnceListening(server, passiveDevice, List.of("stdbuf", "-oL", "rping", "-c", "-d", "-a", PEER,
                     "-I", OWN, "-p", "7510", "-C", "100000000", "-S", "64")))
            {
                client.await(line -> line.contains("RDMA_CM_EVENT_ESTABLISHED"), WAIT);
                server.await(line -> line.contains("RDMA_CM_EVENT_ESTABLISHED"), WAIT);
                DEVICES.delete(activeDevice);
                server.await(line -> line.contains("RDMA_CM_EVENT_DISCONNECTED") || line.contains("DEVICE_REMOVAL"), WAIT);
                // the client's events once it has ended (rping exits on DEVICE_REMOVAL), not when the server's came: its DREQ
                // can reach the server before its own line is read, and its events were then empty (one vCPU a guest, 22:46)
                client.exitStatus(WAIT);
                final Map<String, List<String>> events = new TreeMap<>();
                events.put("active", client.rpingEventsAfterEstablished("parent"));
                events.put("passive", server.rpingEventsAfterEstablished("child"));
                return events;
            }
        });
    }

    /** Ours: a listener bound to {@code drb}'s address, then its device removed. */
    private List<String> ourListenerCase() throws Exception
    {
        final String device = DEVICES.add("drb");
        final Baseline baseline = Baseline.now();
        final Map<String, List<String>> events = new TreeMap<>();
        try (RdmaCm cm = RdmaCm.open(); EventChannel channel = cm.createEventChannel())
        {
            final RdmaCmId listener = cm.createId(channel);
            listener.bindAddr(new InetSocketAddress(InetAddress.getByName(PEER), 7511));
            listener.listen(8);
            final SoftRoceDevices.Removal removal = DEVICES.remove(device);
            final CmEvent removed = channel.getEvent(WAIT);
            assertNotNull(removed, "no event on the listener within " + WAIT + " of removing " + device);
            removed.ack();
            events.put("listener", new ArrayList<>(List.of(removed.type().name())));
            listener.destroy();
            removal.await();
            drainInto(events, "listener", channel);
        }
        baseline.assertBack();
        return events.get("listener");
    }

    /** Ours: an address resolution to {@link #SILENT} (ARP unanswered) on {@code dra}'s device, which goes while it waits. */
    private List<String> ourResolutionCase() throws Exception
    {
        final String device = DEVICES.add("dra");
        final Baseline baseline = Baseline.now();
        final Map<String, List<String>> events = new TreeMap<>();
        try (RdmaCm cm = RdmaCm.open(); EventChannel channel = cm.createEventChannel())
        {
            final RdmaCmId id = cm.createId(channel);
            id.resolveAddr(InetAddress.getByName(OWN), InetAddress.getByName(SILENT), Duration.ofSeconds(20));
            final SoftRoceDevices.Removal removal = DEVICES.remove(device);
            final CmEvent removed = channel.getEvent(WAIT);
            assertNotNull(removed, "no event on the resolving id within " + WAIT + " of removing " + device);
            removed.ack();
            events.put("resolving", new ArrayList<>(List.of(removed.type().name())));
            id.destroy();
            removal.await();
            drainInto(events, "resolving", channel);
        }
        baseline.assertBack();
        return events.get("resolving");
    }

    /**
     * The kernel's, through one rping on a fresh device of {@code netdev}: every event its id got, the
     * device removed once {@code rdma resource} shows the id in {@code state} there.
     */
    private List<String> kernelSingleIdCase(final String name, final List<String> rping, final String netdev,
        final String state) throws Exception
    {
        return withKernelCm(() ->
        {
            final String device = DEVICES.add(netdev);
            try (RunningPeer process = RunningPeer.start(rping))
            {
                SoftRoceDevices.awaitKernelId(device, state, process);
                DEVICES.delete(device);
                // rping's CM thread exit()s on the event's error, which can beat its main thread's "destroy cm_id"
                // line: its end, not that line, says every event it got is printed
                process.exitStatus(WAIT);
                return process.rpingEvents("parent");
            }
        });
    }

    /** {@code command} started once {@code server}'s listener is on {@code device}. */
    private static RunningPeer startOnceListening(final RunningPeer server, final String device, final List<String> command) throws Exception
    {
        SoftRoceDevices.awaitKernelId(device, "LISTEN", server);
        return RunningPeer.start(command);
    }

    /** {@code rdma_ucm} (and so ib_cm, which takes the CM class of every port) loaded for {@code body}, unloaded after. */
    private static <T> T withKernelCm(final ThrowingSupplier<T> body) throws Exception
    {
        sh("modprobe rdma_ucm");
        try
        {
            return body.get();
        }
        finally
        {
            sh("modprobe -r rdma_ucm rdma_cm iw_cm ib_cm && [ ! -e /sys/module/ib_cm ]");
        }
    }

    @FunctionalInterface
    private interface ThrowingSupplier<T>
    {
        T get() throws Exception;
    }

    private static CmEvent expect(final EventChannel channel, final CmEventType type) throws InterruptedException
    {
        final CmEvent event = channel.getEvent(WAIT);
        assertNotNull(event, "no " + type + " within " + WAIT);
        event.ack();
        assertEquals(type, event.type(), event.toString());
        return event;
    }

    /** Every event still queued on {@code channel}, by type name, after those {@code events} has for {@code id}. */
    private static void drainInto(final Map<String, List<String>> events, final String id, final EventChannel channel)
        throws InterruptedException
    {
        final List<String> got = events.computeIfAbsent(id, key -> new ArrayList<>());
        while (channel.pendingEvents() > 0)
        {
            final CmEvent event = channel.getEvent(WAIT);
            event.ack();
            got.add(event.type().name());
        }
    }

    /** {@code rdma resource}'s counts of {@code device} (its pd, cq, qp, cm_id, mr, ctx and srq). */
    private static Map<String, String> resources(final String device)
    {
        final Map<String, String> counts = new TreeMap<>();
        for (final String line : sh("rdma resource").lines().toList())
        {
            final Matcher matcher = RESOURCE.matcher(line.strip());
            if (matcher.matches() && matcher.group(1).equals(device))
            {
                final String[] fields = matcher.group(2).strip().split("\\s+");
                for (int i = 0; i + 1 < fields.length; i += 2)
                {
                    counts.put(fields[i], fields[i + 1]);
                }
            }
        }
        assertTrue(!counts.isEmpty(), "rdma resource lists no " + device);
        return counts;
    }

    private static String sh(final String script)
    {
        return HostCommand.run(COMMAND, null, List.of("sh", "-c", script)).orFail(script).output();
    }

    /** One side's verbs objects on a device: what holds it until closed. */
    private record Endpoint(VerbsContext context, ProtectionDomain pd, CompletionQueue cq, RcQueuePair qp) implements AutoCloseable
    {
        static Endpoint on(final String device)
        {
            final VerbsContext context = Verbs.open(device);
            final ProtectionDomain pd = context.allocateProtectionDomain();
            final CompletionQueue cq = context.createCompletionQueue(2, null);
            return new Endpoint(context, pd, cq, pd.createRcQueuePair(cq, cq, CAPABILITIES));
        }

        @Override
        public void close()
        {
            qp.close();
            cq.close();
            pd.close();
            context.close();
        }
    }

    /** This JVM's descriptors and the CM's threads before an {@code RdmaCm} opened, to compare once it is closed. */
    private record Baseline(OpenDescriptors descriptors, TreeSet<String> cmThreads)
    {
        static Baseline now()
        {
            return new Baseline(OpenDescriptors.now(), CmThreads.now());
        }

        void assertBack() throws IOException
        {
            assertEquals(cmThreads, CmThreads.now(), "the CM's threads");
            assertEquals(List.of(), OpenDescriptors.openedSince(descriptors), "this JVM's descriptors left open");
        }
    }
}
