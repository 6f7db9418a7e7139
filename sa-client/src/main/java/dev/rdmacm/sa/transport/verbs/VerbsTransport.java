package dev.rdmacm.sa.transport.verbs;

import dev.rdmacm.protocol.mad.Gsi;
import dev.rdmacm.libc.NativeCallException;
import dev.rdmacm.loop.PollSet;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.sa.transport.FabricSpec;
import dev.rdmacm.sa.transport.LocalPort;
import dev.rdmacm.protocol.mad.MadAddress;
import dev.rdmacm.sa.transport.MadReceiver;
import dev.rdmacm.sa.transport.MadSource;
import dev.rdmacm.sa.transport.MadTransport;
import dev.rdmacm.sa.transport.MadTransportException;
import dev.rdmacm.verbs.AddressHandle;
import dev.rdmacm.verbs.AddressVector;
import dev.rdmacm.verbs.CompletionChannel;
import dev.rdmacm.verbs.CompletionQueue;
import dev.rdmacm.verbs.DeviceListing;
import dev.rdmacm.verbs.GidEntry;
import dev.rdmacm.verbs.GidType;
import dev.rdmacm.verbs.IbvConstants;
import dev.rdmacm.verbs.LinkLayer;
import dev.rdmacm.verbs.MemoryRegion;
import dev.rdmacm.verbs.PkeyEntry;
import dev.rdmacm.verbs.PortAttributes;
import dev.rdmacm.verbs.ProtectionDomain;
import dev.rdmacm.verbs.QueuePairCapabilities;
import dev.rdmacm.verbs.UdQueuePair;
import dev.rdmacm.verbs.Verbs;
import dev.rdmacm.verbs.VerbsContext;
import dev.rdmacm.verbs.VerbsException;
import dev.rdmacm.verbs.WorkCompletions;
import org.agrona.DirectBuffer;
import org.agrona.collections.Object2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.foreign.MemorySegment;
import java.util.Comparator;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * A MAD transport over a libibverbs UD QP on one port of a real HCA: the privileged GSI Q_Key
 * (0x80010000, which needs CAP_NET_RAW), the default P_Key's index, address handles to the SA, and a
 * ring of receive buffers (40 bytes of GRH room, then the MAD).
 * <p>
 * Where the SA is: on InfiniBand at the SM's LID and SL from the port attributes, unless an SA GID is
 * given, which sends every MAD with a GRH to it. A RoCE port has neither LIDs nor an SM, so there the
 * SA GID is required: MADs go with a GRH from the port's RoCE v2 GID of the same family (IPv4-mapped
 * or IPv6) as the SA's, and a received MAD's source is the GID in its GRH (on RoCE v2, its IP header;
 * see {@link ReceivedGrh}), against which the engine checks every answer.
 * <p>
 * Why the privileged Q_Key: the SA, like any GSI agent, answers with the GSI Q_Key, and a UD QP accepts
 * only datagrams carrying its own Q_Key. A QP with any other Q_Key never sees an answer.
 * <p>
 * The engine's duty cycle polls the completion queues. When it has nothing to do it waits in
 * {@link #awaitReadable}: the receive CQ is armed ({@code ibv_req_notify_cq}) and checked once more
 * (a completion that came before arming raises no event), then the event-loop kit's {@link PollSet} blocks in poll(2)
 * on the completion channel's descriptor and an eventfd that {@link #wakeUp} writes if it waits, until the
 * engine's next deadline; the event is then taken and acknowledged ({@code ibv_get_cq_event}). Send
 * completions raise no event: they are reaped on the next send or poll.
 * <p>
 * Tested on Soft-RoCE in a guest kernel ({@code SoftRoceGuestsTest}); the LID-routed
 * InfiniBand path has never met a real HCA.
 */
public final class VerbsTransport implements MadTransport
{
    private static final int GRH_LENGTH = 40;
    private static final int SLOT = GRH_LENGTH + MadHeader.MAD_SIZE;
    private static final int RECEIVES = 16;
    private static final int SENDS = 16;
    private static final long RECEIVE_WR_BASE = 1L << 32;
    /** The GRH hop limit: 64, the usual IP TTL, as RoCE v2 needs; within one InfiniBand subnet any value reaches. */
    private static final int HOP_LIMIT = 64;

    private final VerbsContext context;
    private final UdQueuePair qp;
    private final CompletionQueue sendCq;
    private final CompletionQueue receiveCq;
    private final CompletionChannel channel;
    private final PollSet waiter;
    /** Set by the poll set's handler when the completion channel is readable. */
    private boolean channelReadable;
    /**
     * Set by {@link #wakeUp} before it wakes the poll set, read by the poll set after it published that it
     * waits: the engine's last look at its queue came before the wait began, so this is what a command
     * queued in between leaves for the wait to see.
     */
    private volatile boolean wakeRequested;
    private final BooleanSupplier wakePending = () -> wakeRequested;
    private final MemoryRegion region;
    private final MemorySegment memory;
    private final ProtectionDomain pd;
    private final WorkCompletions completions = new WorkCompletions(RECEIVES);
    private final WorkCompletions sendCompletions = new WorkCompletions(SENDS);
    /** Keyed by the engine's own address objects: it sends to the SA's and few others, so this stays tiny. */
    private final Object2ObjectHashMap<MadAddress, AddressHandle> handles = new Object2ObjectHashMap<>();
    private final UnsafeBuffer view;
    private final LocalPort localPort;
    private final MadSource source = new MadSource();
    private final int port;
    /** The index of the GID our GRHs carry as their source. */
    private final int sgidIndex;
    private int sendsInFlight;
    private long sendSequence;
    /** Receive completions taken from the CQ (by a poll or while arming): entries next..taken-1 are not yet handed over. */
    private int taken;
    private int next;
    private boolean armed;
    private boolean closed;

    private VerbsTransport(final VerbsContext context, final int port, final Gid saGid)
    {
        this.context = context;
        this.port = port;
        final String name = context.deviceName() + ":" + port;
        final PortAttributes attributes = context.queryPort(port);
        final Gid portGid = context.queryGid(port, 0).gid();
        final GidEntry source;
        if (attributes.linkLayerType() == LinkLayer.ETHERNET)
        {
            if (saGid == null)
            {
                throw new IllegalArgumentException("an Ethernet (RoCE) port has no LIDs and no SM to find the SA by: " +
                    "name the SA by its GID: verbs:" + name + ":" + FabricSpec.SA_GID + "GID");
            }
            source = roceSource(context.gidTable(port), saGid, name);
        }
        else
        {
            source = context.queryGid(port, 0);
        }
        this.sgidIndex = source.index();
        this.localPort = new LocalPort(name, attributes.lid(), portGid.interfaceId(), source.gid(), attributes.smLid(),
            attributes.smSl(), saGid);
        this.pd = context.allocateProtectionDomain();
        this.sendCq = context.createCompletionQueue(SENDS, null);
        this.channel = context.createCompletionChannel();
        this.receiveCq = context.createCompletionQueue(RECEIVES, channel);
        this.qp = pd.createUdQueuePair(sendCq, receiveCq, QueuePairCapabilities.forMads());
        qp.activate(port, defaultPkeyIndex(context, port), Gsi.QKEY);
        this.region = pd.allocateMemoryRegion((long)SLOT * (RECEIVES + SENDS), IbvConstants.IBV_ACCESS_LOCAL_WRITE);
        this.memory = region.memory();
        this.view = new UnsafeBuffer(memory.address(), (int)memory.byteSize());
        for (int i = 0; i < RECEIVES; i++)
        {
            qp.postReceive(RECEIVE_WR_BASE + i, region, (long)i * SLOT, SLOT);
        }
        if (saGid != null)
        {
            // On RoCE ibv_create_ah resolves the SA's MAC through the kernel's neighbour table, which can
            // block for a second (ARP): here, not inside the first query's retry interval, and an SA
            // nobody can reach fails the open instead of every send.
            handle(localPort.saAddress());
        }
        // Last: nothing after it can fail, so the constructor never leaks its eventfd.
        this.waiter = openWaiter(channel.fd(), localPort.name());
    }

    /**
     * Opens {@code device} (null: the first one libibverbs lists) on {@code port}, the SA at the SM's LID.
     *
     * @throws MadTransportException naming the device, the port and the step that failed.
     */
    public static VerbsTransport open(final String device, final int port)
    {
        return open(device, port, null);
    }

    /**
     * Opens {@code device} (null: the first one libibverbs lists) on {@code port}, the SA at
     * {@code saGid} (reached with a GRH; null: at the SM's LID, which a RoCE port does not have).
     *
     * @throws MadTransportException naming the device, the port and the step that failed.
     */
    public static VerbsTransport open(final String device, final int port, final Gid saGid)
    {
        final String name = device != null ? device : firstDevice();
        final VerbsContext context;
        try
        {
            context = Verbs.open(name);
        }
        catch (final VerbsException ex)
        {
            throw new MadTransportException("verbs device " + name + ": " + ex.getMessage(), ex);
        }
        try
        {
            return new VerbsTransport(context, port, saGid);
        }
        catch (final RuntimeException ex)
        {
            context.close();
            throw new MadTransportException("verbs device " + name + " port " + port + ": " + ex.getMessage(), ex);
        }
    }

    private static String firstDevice()
    {
        final DeviceListing listing = Verbs.listDevices();
        if (listing.devices().isEmpty())
        {
            throw new MadTransportException("no verbs device to send MADs from: " +
                listing.whyNone().orElse("libibverbs lists none"));
        }
        return listing.devices().get(0).name();
    }

    /**
     * The GID a RoCE port sends MADs to {@code saGid} from: of the SA's family (an IPv4 GID cannot
     * reach an IPv6 one), link-local only for a link-local SA, RoCE v2 (routable) before v1, lowest
     * index first.
     */
    static GidEntry roceSource(final List<GidEntry> table, final Gid saGid, final String name)
    {
        return table.stream()
            .filter(entry -> entry.type() != GidType.IB && entry.gid().isIpv4Mapped() == saGid.isIpv4Mapped())
            .min(Comparator.<GidEntry>comparingInt(entry -> entry.gid().isLinkLocal() == saGid.isLinkLocal() ? 0 : 1)
                .thenComparingInt(entry -> entry.type() == GidType.ROCE_V2 ? 0 : 1)
                .thenComparingInt(GidEntry::index))
            .orElseThrow(() -> new IllegalArgumentException("no RoCE GID of the SA's family (" +
                (saGid.isIpv4Mapped() ? "IPv4" : "IPv6") + ", like " + saGid + ") on " + name + ": its GIDs are " + table));
    }

    /** The index of the default P_Key (0xffff, or 0x7fff as a limited member), where GSI traffic goes. */
    private static int defaultPkeyIndex(final VerbsContext context, final int port)
    {
        for (final PkeyEntry entry : context.pkeyTable(port))
        {
            if ((entry.pkey() & 0x7fff) == 0x7fff)
            {
                return entry.index();
            }
        }
        return 0;
    }

    @Override
    public LocalPort localPort()
    {
        return localPort;
    }

    /** The UD QP's number: where answers are addressed, and what a peer sees as the source QP. */
    public int qpNumber()
    {
        return qp.qpNumber();
    }

    @Override
    public boolean send(final MadAddress destination, final DirectBuffer mad, final int offset, final int length)
    {
        reapSends();
        if (sendsInFlight >= SENDS)
        {
            return false;
        }
        final int slot = RECEIVES + (int)(sendSequence % SENDS);
        view.putBytes(slot * SLOT, mad, offset, length);
        try
        {
            qp.postSend(sendSequence++, region, (long)slot * SLOT, length, handle(destination), destination.remoteQpn(),
                destination.qkey(), true);
            sendsInFlight++;
            return true;
        }
        catch (final VerbsException ex)
        {
            throw new MadTransportException(localPort.name() + ": " + ex.getMessage(), ex);
        }
    }

    private AddressHandle handle(final MadAddress destination)
    {
        AddressHandle handle = handles.get(destination);
        if (handle == null)
        {
            handle = pd.createAddressHandle(destination.remoteGid() == null ?
                AddressVector.lid(port, destination.lid(), destination.sl()) :
                AddressVector.global(port, destination.lid(), destination.sl(), destination.remoteGid(), sgidIndex, HOP_LIMIT));
            handles.put(destination, handle);
        }
        return handle;
    }

    private void reapSends()
    {
        final int count = sendCq.poll(sendCompletions);
        sendsInFlight -= count;
    }

    @Override
    public int poll(final MadReceiver receiver, final int limit)
    {
        reapSends();
        if (next == taken)
        {
            taken = receiveCq.poll(completions);
            next = 0;
        }
        int delivered = 0;
        // At most limit: what is left stays in completions for the next poll, which takes it first.
        while (next < taken && delivered < limit)
        {
            final int i = next++;
            final int slot = (int)(completions.wrId(i) - RECEIVE_WR_BASE);
            if (completions.status(i) == IbvConstants.IBV_WC_SUCCESS && completions.byteLength(i) > GRH_LENGTH)
            {
                final int sourceQp = completions.sourceQp(i) & 0xff_ffff;
                if ((completions.flags(i) & IbvConstants.IBV_WC_GRH) != 0)
                {
                    ReceivedGrh.readSource(view, slot * SLOT, completions.sourceLid(i), sourceQp, source);
                }
                else
                {
                    source.set(completions.sourceLid(i), sourceQp);
                }
                receiver.onMad(source, view, slot * SLOT + GRH_LENGTH,
                    (int)Math.min(MadHeader.MAD_SIZE, completions.byteLength(i) - GRH_LENGTH));
                delivered++;
            }
            if (!closed)
            {
                qp.postReceive(completions.wrId(i), region, (long)slot * SLOT, SLOT);
            }
        }
        return delivered;
    }

    @Override
    public void awaitReadable(final long deadlineNanos)
    {
        if (next < taken)
        {
            return;
        }
        try
        {
            if (!armed)
            {
                receiveCq.requestNotification(false);
                armed = true;
                // A completion that arrived between the engine's last poll and the arming raises no event.
                taken = receiveCq.poll(completions);
                next = 0;
                if (taken > 0)
                {
                    return;
                }
            }
            channelReadable = false;
            try
            {
                waiter.await(deadlineNanos == Long.MAX_VALUE ? -1 : Math.max(0, deadlineNanos - System.nanoTime()), wakePending);
            }
            catch (final NativeCallException ex)
            {
                throw waitFailed(ex);
            }
            finally
            {
                // the engine looks at its queue before it waits again
                wakeRequested = false;
            }
            if (channelReadable)
            {
                // Readable: this does not block. It acknowledges the event; the next wait re-arms.
                channel.awaitEvent();
                armed = false;
            }
        }
        catch (final VerbsException ex)
        {
            throw new MadTransportException(localPort.name() + ": " + ex.getMessage(), ex);
        }
    }

    @Override
    public void wakeUp()
    {
        wakeRequested = true;
        waiter.wakeUp();
    }

    private PollSet openWaiter(final int fd, final String name)
    {
        try
        {
            final PollSet set = new PollSet();
            set.add(fd, (ready, revents) ->
            {
                channelReadable = true;
                return 1;
            });
            return set;
        }
        catch (final NativeCallException ex)
        {
            throw new MadTransportException(name + ": " + ex.getMessage(), ex);
        }
        catch (final IllegalStateException ex)
        {
            // native access denied: Libc's message says how to grant it
            throw new MadTransportException(name + ": " + ex.getMessage(), ex);
        }
    }

    private MadTransportException waitFailed(final NativeCallException ex)
    {
        return new MadTransportException(localPort.name() + ": " + ex.getMessage(), ex);
    }

    /**
     * Closes the QP, address handles, memory, CQs, completion channel and PD (the context does it newest
     * first), the device and the wake-up eventfd.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        try
        {
            completions.close();
            sendCompletions.close();
            context.close();
        }
        finally
        {
            try
            {
                waiter.close();
            }
            catch (final NativeCallException ex)
            {
                throw waitFailed(ex);
            }
        }
    }
}
