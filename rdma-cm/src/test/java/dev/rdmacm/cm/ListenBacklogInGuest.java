package dev.rdmacm.cm;

import dev.rdmacm.cm.diagnostics.CmMadFilter;
import dev.rdmacm.loop.PollSet;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.protocol.ServiceId;
import dev.rdmacm.protocol.cm.CmAttribute;
import dev.rdmacm.protocol.cm.ConnectReply;
import dev.rdmacm.protocol.cm.ConnectRequest;
import dev.rdmacm.protocol.cm.IbCmState;
import dev.rdmacm.protocol.cm.IpCmPrivateDataHeader;
import dev.rdmacm.protocol.cm.ReadyToUse;
import dev.rdmacm.protocol.mad.MadAddress;
import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.testing.Peers;
import dev.rdmacm.umad.AgentRegistration;
import dev.rdmacm.umad.UmadAgent;
import dev.rdmacm.umad.UmadPort;
import dev.rdmacm.verbs.CompletionQueue;
import dev.rdmacm.verbs.ProtectionDomain;
import dev.rdmacm.verbs.QueuePairCapabilities;
import dev.rdmacm.verbs.RcQueuePair;
import dev.rdmacm.verbs.Verbs;
import dev.rdmacm.verbs.VerbsContext;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A listener's backlog under a REQ flood, in the userspace-CM guest ({@code UserspaceGuestSuite}, the
 * verbs pair): our listener on {@code rxe11} (192.0.2.2) with a backlog of {@value #BACKLOG}, and on
 * {@code rxe10} a raw CM peer, the CM class on umad, that sends {@value #FLOOD} REQs with distinct comm
 * IDs and QPNs (each new to the listener, so each one a request) and nothing else. The listener keeps
 * {@value #BACKLOG} requests, answers none of the rest and makes nothing for them (the kernel's
 * {@code ucma_connect_event_handler} and {@code cm_destroy_id(-ENOMEM)}). Once the application has taken
 * and rejected those, the raw peer's next REQ, from a real QP, is a connection: CONNECT_REQUEST, REP,
 * the peer's RTU, ESTABLISHED. The raw peer keeps at most {@value #IN_FLIGHT} REQs that our CM has not
 * received yet, so that the receiver's MAD queue (512 buffers) never drops one.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
public class ListenBacklogInGuest
{
    private static final String PEER_DEVICE = "rxe10";
    private static final String LISTENER_DEVICE = "rxe11";
    private static final int DEVICE_PORT = 1;
    private static final int LISTEN_PORT = 7191;
    private static final int BACKLOG = 8;
    private static final int FLOOD = 10_000;
    private static final int IN_FLIGHT = 128;
    private static final long FIRST_COMM_ID = 0x5000_0000L;
    private static final long FIRST_TID = 0x1000;
    /** The flood's QPNs, far above any rxe QP (so that the real QP's REQ is never a stale connection's). */
    private static final int FLOOD_QPNS = 0x80_0000;
    /** A bound on each wait, so that a lost MAD fails the test instead of hanging it; never asserted on. */
    private static final long WAIT_BOUND_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final Duration EVENT_WAIT = Duration.ofSeconds(30);
    private static final QueuePairCapabilities CAPABILITIES = new QueuePairCapabilities(1, 1, 1, 1, 0);

    @Test
    void shouldKeepTheBacklogUnderAFloodOfDistinctReqsAnswerNoneOfTheRestAndStillConnect() throws Exception
    {
        Peers.require(System.getenv("RDMACM_GUEST_SHARE") != null,
            "RDMACM_GUEST_SHARE: this class runs inside a KernelGuest (UserspaceGuestSuite)");
        final InetAddress peerAddress = InetAddress.getByName("192.0.2.1");
        final InetAddress listenerAddress = InetAddress.getByName("192.0.2.2");
        final int peerGidIndex = ipv4RoceV2GidIndex(PEER_DEVICE);
        final Gid peerGid = gid(PEER_DEVICE, peerGidIndex);
        final Gid listenerGid = gid(LISTENER_DEVICE, ipv4RoceV2GidIndex(LISTENER_DEVICE));
        final AtomicInteger reqsReceived = new AtomicInteger();
        final AtomicInteger madsSent = new AtomicInteger();
        final AtomicInteger requestsMade = new AtomicInteger();
        try (RdmaCm cm = RdmaCm.open(); EventChannel channel = cm.createEventChannel(); RdmaCmId listener = cm.createId(channel);
             VerbsContext peerDevice = Verbs.open(PEER_DEVICE); VerbsContext listenerDevice = Verbs.open(LISTENER_DEVICE);
             UmadPort raw = UmadPort.open(PEER_DEVICE, DEVICE_PORT))
        {
            cm.cmMadRecorder((direction, source, destination, sourceQp, destinationQp, trafficClass, hopLimit, flowLabel, mad,
                offset, length) ->
            {
                if (direction == CmMadFilter.Direction.SENT)
                {
                    madsSent.incrementAndGet();
                }
                else if (new MadHeader().wrap(mad, offset, length).attributeId() == CmAttribute.REQ.id())
                {
                    reqsReceived.incrementAndGet();
                }
            });
            cm.connectionTransitions((localCommId, remoteCommId, from, to, nowNanos) ->
            {
                if (to == IbCmState.REQ_RCVD)
                {
                    requestsMade.incrementAndGet();
                }
            });
            listener.bindAddr(new InetSocketAddress(listenerAddress, LISTEN_PORT));
            listener.listen(BACKLOG);
            final UmadAgent agent = raw.register(AgentRegistration.communicationManagement());
            final MadAddress toListener = MadAddress.gsi(listenerGid, peerGidIndex, 0);
            final ProtectionDomain peerPd = peerDevice.allocateProtectionDomain();
            final CompletionQueue peerCq = peerDevice.createCompletionQueue(2, null);
            final RcQueuePair peerQp = peerPd.createRcQueuePair(peerCq, peerCq, CAPABILITIES);
            final UnsafeBuffer req = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
            final ConnectRequest request = request(req, peerGid, listenerGid,
                IpCmPrivateDataHeader.privateData(peerAddress, listenerAddress, 40000, new byte[0]));
            // each REQ its own transaction: ib_umad refuses a send whose TID an outstanding send of the file has
            final MadHeader header = new MadHeader().wrap(req, 0);

            final long floodStart = System.nanoTime();
            for (int i = 0; i < FLOOD; i++)
            {
                header.transactionId(FIRST_TID + i);
                request.localCommId(FIRST_COMM_ID + i).localQpn(FLOOD_QPNS + i);
                raw.send(agent, toListener, req, 0, MadHeader.MAD_SIZE);
                final int sent = i + 1;
                await(() -> sent - reqsReceived.get() <= IN_FLIGHT, "our CM to receive REQ " + (sent - IN_FLIGHT));
            }
            await(() -> reqsReceived.get() == FLOOD, "our CM to receive all " + FLOOD + " REQs");
            await(() -> channel.pendingEvents() == BACKLOG, BACKLOG + " CONNECT_REQUESTs on the channel");
            final long floodMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - floodStart);

            assertEquals(FLOOD, reqsReceived.get());
            assertEquals(BACKLOG, requestsMade.get(), "connections made: the backlog, none for the REQs beyond it");
            assertEquals(BACKLOG, channel.pendingEvents());
            assertEquals(0, listener.backlog.room());
            assertEquals(0, madsSent.get(), "no REJ, no MRA: the REQs beyond the backlog are dropped");
            System.out.println("listen backlog " + BACKLOG + ": " + FLOOD + " REQs in " + floodMillis + " ms, " + requestsMade.get()
                + " connections made, " + channel.pendingEvents() + " CONNECT_REQUESTs queued, " + madsSent.get() + " MADs sent");

            // the application takes its requests and refuses them; each one taken frees its place
            for (int i = 0; i < BACKLOG; i++)
            {
                final CmEvent taken = channel.getEvent(EVENT_WAIT);
                assertEquals(CmEventType.CONNECT_REQUEST, taken.type());
                taken.id().reject(new byte[0]);
                taken.ack();
                taken.id().destroy();
            }
            assertEquals(BACKLOG, listener.backlog.room());

            final int legitimateQpn = peerQp.qpNumber();
            header.transactionId(FIRST_TID + FLOOD);
            request.localCommId(FIRST_COMM_ID + FLOOD).localQpn(legitimateQpn);
            raw.send(agent, toListener, req, 0, MadHeader.MAD_SIZE);
            final CmEvent.ConnectRequest connect = (CmEvent.ConnectRequest)channel.getEvent(EVENT_WAIT);
            final RdmaCmId accepted = connect.id();
            final ProtectionDomain pd = listenerDevice.allocateProtectionDomain();
            final CompletionQueue cq = listenerDevice.createCompletionQueue(2, null);
            final RcQueuePair qp = pd.createRcQueuePair(cq, cq, CAPABILITIES);
            accepted.attachQp(qp);
            accepted.accept(connect.parameters());
            connect.ack();
            final ConnectReply reply = awaitReply(raw, FIRST_COMM_ID + FLOOD);
            final UnsafeBuffer rtu = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
            new ReadyToUse().encodeMad(rtu, 0, new MadHeader(), FIRST_TID + FLOOD + 1).localCommId(FIRST_COMM_ID + FLOOD)
                .remoteCommId(reply.localCommId());
            raw.send(agent, toListener, rtu, 0, MadHeader.MAD_SIZE);
            final CmEvent established = channel.getEvent(EVENT_WAIT);

            assertEquals(CmEventType.ESTABLISHED, established.type(), established.toString());
            assertEquals(accepted, established.id());
            assertEquals(qp.qpNumber(), reply.localQpn(), "the REP names the accepting QP");
            established.ack();
            accepted.destroy();
        }
    }

    /** A REQ to the listener's Service ID as rdma_cm sends one over RoCE, its IP CM header from {@code privateData}. */
    private static ConnectRequest request(final UnsafeBuffer mad, final Gid peerGid, final Gid listenerGid, final byte[] privateData)
    {
        return request(mad, peerGid, listenerGid, privateData, LISTEN_PORT);
    }

    /** The same, to the Service ID of RDMA_PS_TCP {@code port}. */
    static ConnectRequest request(final UnsafeBuffer mad, final Gid peerGid, final Gid listenerGid, final byte[] privateData,
        final int port)
    {
        final ConnectRequest request = new ConnectRequest().encodeMad(mad, 0, new MadHeader(), FIRST_TID)
            .serviceId(ServiceId.of(PortSpace.TCP, port)).localCaGuid(0x0002_c903_0010_0001L).responderResources(1)
            .initiatorDepth(1).remoteCmResponseTimeout(20).localCmResponseTimeout(20).startingPsn(0x123).retryCount(7)
            .rnrRetryCount(7).maxCmRetries(15).partitionKey(0xffff).pathMtu(3);
        request.primaryPath().localPortLid(0xffff).remotePortLid(0xffff).localPortGid(peerGid).remotePortGid(listenerGid)
            .packetRate(3).hopLimit(64).localAckTimeout(19);
        request.privateData(new UnsafeBuffer(privateData), 0, privateData.length);
        return request;
    }

    /** The REP for {@code commId}, skipping the REJs of the requests refused before it. */
    private static ConnectReply awaitReply(final UmadPort raw, final long commId) throws IOException
    {
        final UnsafeBuffer received = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
        final long deadline = System.nanoTime() + WAIT_BOUND_NANOS;
        try (PollSet wait = new PollSet())
        {
            wait.add(raw.fd(), (fd, revents) -> 1);
            while (true)
            {
                final int length = raw.receive(received, 0);
                if (length == MadHeader.MAD_SIZE && new MadHeader().wrap(received, 0, length).attributeId() == CmAttribute.REP.id())
                {
                    final ConnectReply reply = new ConnectReply().wrapMad(received, 0, length);
                    if (reply.remoteCommId() == commId)
                    {
                        return reply;
                    }
                }
                final long left = deadline - System.nanoTime();
                assertTrue(left > 0, "no REP for comm ID 0x" + Long.toHexString(commId) + " within 60 s");
                if (length == UmadPort.NOTHING)
                {
                    wait.await(left, () -> false);
                }
            }
        }
    }

    private static void await(final BooleanSupplier condition, final String what) throws InterruptedException
    {
        final long deadline = System.nanoTime() + WAIT_BOUND_NANOS;
        while (!condition.getAsBoolean())
        {
            assertTrue(System.nanoTime() - deadline < 0, "waited 60 s for " + what);
            Thread.sleep(1);
        }
    }

    static int ipv4RoceV2GidIndex(final String device)
    {
        for (int index = 0; index < 16; index++)
        {
            final Gid gid = gid(device, index);
            if (gid.isIpv4Mapped() && sysfs(device, "gid_attrs/types/" + index).equals("RoCE v2"))
            {
                return index;
            }
        }
        throw new AssertionError(device + " has no RoCE v2 GID of an IPv4 address in its first 16 entries");
    }

    static Gid gid(final String device, final int index)
    {
        return Gid.parse(sysfs(device, "gids/" + index));
    }

    private static String sysfs(final String device, final String file)
    {
        try
        {
            return Files.readString(Path.of("/sys/class/infiniband", device, "ports", Integer.toString(DEVICE_PORT), file)).strip();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
