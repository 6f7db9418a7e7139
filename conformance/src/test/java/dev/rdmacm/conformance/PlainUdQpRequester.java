package dev.rdmacm.conformance;

import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.ConnectionManager;
import dev.rdmacm.cm.ConnectionParameters;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmException;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.ibcm.IbCmConnection;
import dev.rdmacm.ibcm.IbCmEngine;
import dev.rdmacm.ibcm.IbCmPath;
import dev.rdmacm.ibcm.IbCmPeerAddress;
import dev.rdmacm.ibcm.ConnectParameters;
import dev.rdmacm.ibcm.QpTransitions;
import dev.rdmacm.loop.DeadlineTimers;
import dev.rdmacm.loop.NanoClock;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.protocol.cm.IpCmPrivateDataHeader;
import dev.rdmacm.protocol.mad.Gsi;
import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.sa.path.PathRecordValue;
import dev.rdmacm.verbs.AddressHandle;
import dev.rdmacm.verbs.AddressVector;
import dev.rdmacm.verbs.CompletionOpcode;
import dev.rdmacm.verbs.CompletionQueue;
import dev.rdmacm.verbs.CompletionStatus;
import dev.rdmacm.verbs.IbvConstants;
import dev.rdmacm.verbs.MemoryRegion;
import dev.rdmacm.verbs.ProtectionDomain;
import dev.rdmacm.verbs.QueuePairCapabilities;
import dev.rdmacm.verbs.RcQueuePair;
import dev.rdmacm.verbs.UdQueuePair;
import dev.rdmacm.verbs.Verbs;
import dev.rdmacm.verbs.VerbsContext;
import dev.rdmacm.verbs.WorkCompletions;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.Random;

/**
 * The active side of this project's CM on a host where the kernel's {@code ib_cm} holds the CM class of
 * umad, as far as it can go, for {@link BesideKernelCmAcrossTheWire}. First {@code rdma_connect} as
 * {@code rdmacm rping -c} calls it, through umad, and what it says. Then the REQ that its own engine
 * ({@link IbCmEngine}) makes for the route its resolver found, with a real RC QP's number in it, sent not
 * through umad (which refuses the CM class beside ib_cm) but from a plain UD QP with QP 1's Q_Key
 * (0x80010000) to QP 1 of the peer; every datagram that comes back to that UD QP goes to the engine. The
 * short CM response timeouts (16: 268 ms) and 2 retries end the experiment within seconds, on both sides.
 * <p>
 * Prints what it sent and received, one line each, and the engine's events; the verdict is the wire's
 * (the capture shows where the peer's answers went). Exits 0 once the window is over, 1 when a step
 * before it fails. Usage: {@code PlainUdQpRequester OUR_ADDR PEER_ADDR PORT SECONDS}.
 */
public final class PlainUdQpRequester
{
    private static final int RESPONSE_TIMEOUT = 16;
    private static final int MAX_CM_RETRIES = 2;
    private static final int RECEIVES = 16;
    private static final int SLOT = IbvConstants.GRH_LENGTH + MadHeader.MAD_SIZE;
    /** rxe's {@code local_ca_ack_delay}, as the CM's port agent gives its engine. */
    private static final int CA_ACK_DELAY = 15;
    private static final Duration RESOLVE = Duration.ofSeconds(2);

    private PlainUdQpRequester()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final InetAddress ours = InetAddress.getByName(args[0]);
        final InetAddress peer = InetAddress.getByName(args[1]);
        final int port = Integer.parseInt(args[2]);
        final Duration window = Duration.ofSeconds(Long.parseLong(args[3]));
        // USERSPACE: this experiment is about this stack's own CM beside ib_cm (AUTO would take the kernel's)
        try (RdmaCm cm = RdmaCm.open(RdmaCm.Options.builder().connectionManager(ConnectionManager.USERSPACE).build());
            EventChannel channel = cm.createEventChannel())
        {
            final RdmaCmId id = cm.createId(channel, PortSpace.TCP);
            id.resolveAddr(new InetSocketAddress(ours, 0), new InetSocketAddress(peer, port), RESOLVE);
            expect(channel, CmEvent.AddrResolved.class);
            id.resolveRoute(RESOLVE);
            expect(channel, CmEvent.RouteResolved.class);
            final RdmaPortBinding binding = id.binding();
            final PathRecordValue path = id.route().primary().record();
            System.out.println("route: " + binding + ", path " + path);
            try (Experiment experiment = new Experiment(binding, path))
            {
                // first what rdma_connect through umad does here, as rdmacm rping -c would
                id.attachQp(experiment.rc);
                try
                {
                    id.connect(new ConnectionParameters(new byte[0], 1, 1, true, 7, 7));
                    System.out.println("rdma_connect through umad: " + channel.getEvent(RESOLVE.multipliedBy(2)));
                }
                catch (final RdmaCmException ex)
                {
                    System.out.println("rdma_connect through umad: " + ex.getMessage());
                }
                experiment.run(PortSpace.TCP.serviceId(port), IpCmPrivateDataHeader.privateData(ours, peer, id.sourcePort(),
                    new byte[0]), window);
            }
            id.destroy();
        }
    }

    private static void expect(final EventChannel channel, final Class<? extends CmEvent> wanted) throws InterruptedException
    {
        final CmEvent event = channel.getEvent(RESOLVE.multipliedBy(2));
        if (!wanted.isInstance(event))
        {
            System.out.println("expected " + wanted.getSimpleName() + ", got " + event);
            // not System.exit: the main may run in GuestMainDriver's JVM, which a main's exit would end; a main that throws exits with 1 too
            throw new IllegalStateException("expected " + wanted.getSimpleName() + ", got " + event);
        }
        event.ack();
    }

    /** The verbs resources, the engine and what they saw. */
    private static final class Experiment implements AutoCloseable
    {
        private final RdmaPortBinding binding;
        private final PathRecordValue path;
        private final VerbsContext context;
        private final ProtectionDomain pd;
        private final CompletionQueue cq;
        private final UdQueuePair ud;
        private final RcQueuePair rc;
        private final MemoryRegion mem;
        private final AddressHandle toPeer;
        private final WorkCompletions completions = new WorkCompletions(8);
        private final UnsafeBuffer received;
        private int sent;
        private int receivedCount;

        Experiment(final RdmaPortBinding binding, final PathRecordValue path)
        {
            this.binding = binding;
            this.path = path;
            this.context = Verbs.open(binding.device());
            this.pd = context.allocateProtectionDomain();
            this.cq = context.createCompletionQueue(RECEIVES + 8, null);
            this.ud = pd.createUdQueuePair(cq, cq, new QueuePairCapabilities(4, RECEIVES, 1, 1, 0));
            this.rc = pd.createRcQueuePair(cq, cq, new QueuePairCapabilities(1, 1, 1, 1, 0));
            this.mem = pd.allocateMemoryRegion((long)(RECEIVES + 1) * SLOT, IbvConstants.IBV_ACCESS_LOCAL_WRITE);
            this.received = new UnsafeBuffer(mem.memory().address(), (int)mem.memory().byteSize());
            // ib_init_ah_attr_from_path on RoCE: a GRH to the path's DGID from the id's GID index, no DLID
            this.toPeer = pd.createAddressHandle(new AddressVector(binding.port(), 0, path.sl(), 0, path.rate(), Optional.of(
                new AddressVector.GlobalRoute(path.dgid(), binding.gidIndex(), path.hopLimit(), path.tClass(), path.flowLabel()))));
        }

        void run(final long serviceId, final byte[] privateData, final Duration window) throws InterruptedException
        {
            ud.activate(binding.port(), 0, Gsi.QKEY);
            for (int i = 1; i <= RECEIVES; i++)
            {
                ud.postReceive(i, mem, (long)i * SLOT, SLOT);
            }
            System.out.printf("UD QP 0x%x, Q_Key 0x%x; the REQ names RC QP 0x%x%n", ud.qpNumber(), Gsi.QKEY, rc.qpNumber());
            final DeadlineTimers<IbCmConnection> timers = new DeadlineTimers<>(NanoClock.SYSTEM);
            final IbCmEngine engine = new IbCmEngine(new IbCmEngine.Configuration(context.queryDevice().nodeGuid(), CA_ACK_DELAY), timers,
                this::send, new Random(), (connection, from, to, now) -> System.out.println("state " + from + " -> " + to));
            final IbCmConnection connection = engine.createConnection((c, event) -> System.out.println("engine event " + event));
            final IbCmPath cmPath = new IbCmPath(path.sgid(), path.dgid(), path.slid().value(), path.dlid().value(), path.flowLabel(),
                path.rate(), path.tClass(), path.hopLimit(), path.sl(), path.mtu(), path.packetLifeTime(), path.pKey().value());
            connection.connect(new ConnectParameters(serviceId, IbCmPeerAddress.cmAt(path.dgid(), 0), cmPath, rc.qpNumber(), false, 1, 1,
                RESPONSE_TIMEOUT, RESPONSE_TIMEOUT, MAX_CM_RETRIES, 7, 7, true, false, privateData), QpTransitions.NONE);
            final long end = System.nanoTime() + window.toNanos();
            while (System.nanoTime() - end < 0)
            {
                engine.doWork(System.nanoTime());
                final int n = cq.poll(completions);
                for (int i = 0; i < n; i++)
                {
                    take(engine, i);
                }
                if (n == 0)
                {
                    Thread.sleep(1);
                }
            }
            System.out.printf("sent %d, received %d on UD QP 0x%x; the connection ends in %s%n", sent, receivedCount, ud.qpNumber(),
                connection.state());
        }

        /** The engine's sender: the MAD into slot 0, to QP {@code to.qpn()} behind the path's AH, with QP 1's Q_Key. */
        private void send(final IbCmPeerAddress to, final DirectBuffer mad, final int offset, final int length)
        {
            final byte[] bytes = new byte[length];
            mad.getBytes(offset, bytes);
            MemorySegment.copy(MemorySegment.ofArray(bytes), 0, mem.memory(), 0, length);
            ud.postSend(0, mem, 0, length, toPeer, to.qpn(), Gsi.QKEY, true);
            sent++;
            System.out.printf("sent attribute 0x%04x to QP %d%n", mad.getShort(offset + MadHeader.ATTRIBUTE_ID_OFFSET,
                ByteOrder.BIG_ENDIAN) & 0xffff, to.qpn());
        }

        private void take(final IbCmEngine engine, final int i)
        {
            if (completions.completionStatus(i) != CompletionStatus.SUCCESS)
            {
                System.out.println("completion " + completions.completionStatus(i) + " of work request " + completions.wrId(i));
                return;
            }
            if (completions.completionOpcode(i) != CompletionOpcode.RECV)
            {
                return;
            }
            final int slot = (int)completions.wrId(i);
            final int mad = slot * SLOT + IbvConstants.GRH_LENGTH;
            receivedCount++;
            System.out.printf("received attribute 0x%04x from QP %d%n", received.getShort(mad + MadHeader.ATTRIBUTE_ID_OFFSET,
                ByteOrder.BIG_ENDIAN) & 0xffff, completions.sourceQp(i));
            engine.onMadReceived(new IbCmPeerAddress(path.dgid(), completions.sourceQp(i), 0), received, mad, MadHeader.MAD_SIZE);
            ud.postReceive(slot, mem, (long)slot * SLOT, SLOT);
        }

        @Override
        public void close()
        {
            toPeer.close();
            rc.close();
            ud.close();
            cq.close();
            mem.close();
            pd.close();
            context.close();
            completions.close();
        }
    }
}
