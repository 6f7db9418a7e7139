package dev.rdmacm.cm;

import dev.rdmacm.cm.diagnostics.CmMadFilter;
import dev.rdmacm.cm.diagnostics.CmMadRecorder;
import dev.rdmacm.ibcm.IbCmConnection;
import dev.rdmacm.ibcm.IbCmEngine;
import dev.rdmacm.ibcm.IbCmPeerAddress;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.Libc;
import dev.rdmacm.loop.DeadlineTimers;
import dev.rdmacm.loop.TransitionListener;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.cm.CmAttribute;
import dev.rdmacm.protocol.cm.IbCmState;
import dev.rdmacm.protocol.mad.Gsi;
import dev.rdmacm.protocol.mad.MadAddress;
import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.umad.AgentRegistration;
import dev.rdmacm.umad.UmadAgent;
import dev.rdmacm.umad.UmadException;
import dev.rdmacm.umad.UmadPort;
import dev.rdmacm.umad.UserMadHeader;
import dev.rdmacm.verbs.Verbs;
import dev.rdmacm.verbs.VerbsContext;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * The CM of one RDMA port: the CM class registered on the port's umad device and a {@link IbCmEngine},
 * both run by the {@link ConductorAgent conductor}. The port's umad descriptor is in the conductor's poll
 * set ({@link #onReadable}), and each duty cycle runs a few of the calls ids made ({@link #execute}) and
 * the engine's timers ({@link #doWork}); the conductor's wait ends at the engine's next deadline
 * ({@link #nanosToNextDeadline}). So the engine needs no locks, and a port costs no thread.
 * <p>
 * What the kernel splits between ib_cm (the protocol) and the MAD layer (ib_mad, umad), this is for a
 * userspace CM, and so it needs a host where the kernel's ib_cm does not hold the CM class
 * ({@code docs/umad.md}). On RoCE every CM MAD has a GRH; the local GID index of a peer is the one its
 * id bound ({@link #useLocalGid}), or, for a peer that spoke first, the index its MAD arrived on.
 */
final class CmPort implements AutoCloseable
{
    private static final int MAD_SIZE = 256;
    /**
     * The calls one duty cycle runs before it reads the MADs that came and fires the timers.
     * The kernel sends a REQ in the caller's context and handles a REP in its MAD work queue, each as it
     * comes. A thread that ran every queued call first kept the REPs of 1,000 connections cmtime had just
     * requested waiting 12-16 s (cmtime's fastest connect, in the guests), longer than the 4.3 s the kernel
     * waits before it sends a REP again (rdma_cm's CM response timeout, 20).
     */
    private static final int CALLS_PER_TURN = 16;

    private final String name;
    private final String device;
    private final UmadPort port;
    private final UmadAgent agent;
    private final ConductorAgent conductor;
    /** The CM engine's timers, on the system clock as the conductor's duty cycle reads it ({@link CycleClock}). */
    private final DeadlineTimers<IbCmConnection> timers;
    private final IbCmEngine engine;
    private final ManyToOneConcurrentLinkedQueue<Runnable> calls = new ManyToOneConcurrentLinkedQueue<>();
    private final Map<Gid, Integer> localGidIndexes = new ConcurrentHashMap<>();
    private final UnsafeBuffer received = new UnsafeBuffer(new byte[MAD_SIZE]);
    private final CmMadFilter filter;
    /** The GID at a local GID index, for the recorder: looked up only while one records. */
    private final IntFunction<Gid> localGids;
    private volatile CmMadRecorder recorder = CmMadRecorder.NONE;
    private volatile boolean running = true;
    private boolean closed;
    private volatile Throwable failure;
    /** The port's CM stopped because ib_umad killed the port: its device is being unregistered. */
    private volatile boolean deviceGone;
    private volatile long stepFailures;
    private volatile long filtered;
    private volatile RuntimeException lastStepFailure;

    private CmPort(final String device, final int portNumber, final long localCaGuid, final ConductorAgent conductor,
        final TransitionListener<IbCmConnection, IbCmState> transitions, final CmMadFilter filter, final IntFunction<Gid> localGids)
    {
        this.name = device + "/" + portNumber;
        this.device = device;
        this.conductor = conductor;
        this.timers = new DeadlineTimers<>(conductor.cycleClock());
        this.filter = filter;
        this.localGids = localGids;
        this.port = UmadPort.open(device, portNumber);
        final int ackDelay;
        try
        {
            ackDelay = localCaAckDelay(device);
            this.agent = port.register(AgentRegistration.communicationManagement());
        }
        catch (final RuntimeException ex)
        {
            port.close();
            throw ex;
        }
        this.engine = new IbCmEngine(new IbCmEngine.Configuration(localCaGuid, ackDelay), timers, this::send,
            new BatchedRandom(new SecureRandom()), transitions);
    }

    /**
     * Registers the CM class on {@code device}'s port; the port works once the conductor has taken it
     * ({@link ConductorAgent#addPort}). Starts no thread.
     *
     * @param localGids the GID at each index of the port's GID table, for {@link #recorder}.
     */
    static CmPort open(final String device, final int port, final long localCaGuid, final ConductorAgent conductor,
        final TransitionListener<IbCmConnection, IbCmState> transitions, final CmMadFilter filter, final CmMadRecorder recorder,
        final IntFunction<Gid> localGids)
    {
        final CmPort agent = new CmPort(device, port, localCaGuid, conductor, transitions, filter, localGids);
        agent.recorder = recorder;
        return agent;
    }

    /** The device's {@code local_ca_ack_delay} ({@code ibv_query_device}), the REP's TargetACKDelay. */
    private static int localCaAckDelay(final String device)
    {
        try (VerbsContext context = Verbs.open(device))
        {
            return context.queryDevice().localCaAckDelay();
        }
    }

    /** Every CM MAD from the next one on goes to {@code mads} too ({@link CmMadRecorder#NONE}: none). */
    void recorder(final CmMadRecorder mads)
    {
        recorder = mads;
    }

    /** The RDMA device of the port. */
    String device()
    {
        return device;
    }

    /**
     * Whether the port's CM stopped because its device is going away: ib_umad kills a device's ports
     * early in its unregistration, before ib_uverbs waits for every process to close its contexts on
     * it (rxe cannot take them away), and so before the uevent that says the device is gone.
     */
    boolean deviceGone()
    {
        return deviceGone;
    }

    String name()
    {
        return name;
    }

    /** The umad descriptor, in the conductor's poll set. */
    int fd()
    {
        return port.fd();
    }

    /**
     * Any thread: runs {@code call} with the engine on the conductor, in a later duty cycle (also when
     * called on the conductor, so an engine handler's call never runs inside the engine).
     */
    void execute(final Consumer<IbCmEngine> call)
    {
        if (!running)
        {
            throw new IllegalStateException("the CM on " + name + " is closed" + (failure == null ? "" : ": " + failure));
        }
        calls.offer(() -> call.accept(engine));
        conductor.wake();
    }

    /** The GRH's source GID index for MADs to {@code remote}: the index of the GID the id bound. */
    void useLocalGid(final Gid remote, final int localGidIndex)
    {
        localGidIndexes.put(remote, localGidIndex);
    }

    /**
     * The local GID index MADs from {@code remote} arrived on (the first one's, as {@link #send} answers
     * on it), or -1 when none came: umad reports it as the GRH's {@code sgid_index}, the index of the
     * destination GID in this port's table.
     */
    int localGidIndex(final Gid remote)
    {
        final Integer index = localGidIndexes.get(remote);
        return index == null ? -1 : index;
    }

    private void send(final IbCmPeerAddress to, final DirectBuffer mad, final int offset, final int length)
    {
        final int gidIndex = localGidIndex(to.gid());
        if (gidIndex < 0)
        {
            throw new IllegalStateException("no local GID index known for CM peer " + to.gid() + " on " + name);
        }
        if (!passes(CmMadFilter.Direction.SENT, mad, offset))
        {
            return;
        }
        final MadAddress address = MadAddress.gsi(to.gid(), gidIndex, to.pkeyIndex());
        port.send(agent, address, mad, offset, length);
        final CmMadRecorder mads = recorder;
        if (mads != CmMadRecorder.NONE)
        {
            final MadAddress.Grh grh = address.grh();
            mads.onMad(CmMadFilter.Direction.SENT, localGids.apply(gidIndex), to.gid(), Gsi.QPN, address.remoteQpn(),
                grh.trafficClass(), grh.hopLimit(), grh.flowLabel(), mad, offset, length);
        }
    }

    /** Whether calls wait for the next duty cycle (read by the conductor before it waits). */
    boolean hasCalls()
    {
        return !calls.isEmpty();
    }

    /**
     * The conductor's duty cycle: at most {@link #CALLS_PER_TURN} calls, then the engine's due timers.
     *
     * @return the work done.
     */
    int doWork(final long nowNanos)
    {
        if (!running)
        {
            return 0;
        }
        int work = 0;
        for (Runnable call; work < CALLS_PER_TURN && (call = calls.poll()) != null; work++)
        {
            guarded(call);
        }
        guarded(() -> engine.doWork(nowNanos));
        return work;
    }

    /** The time to the engine's next deadline, or negative when it has none. */
    long nanosToNextDeadline(final long nowNanos)
    {
        return running ? engine.nanosToNextDeadline(nowNanos) : -1;
    }

    /** The conductor: the umad descriptor is readable (or reports an error): every MAD that came goes to the engine. */
    int onReadable(final int fd, final int revents)
    {
        try
        {
            final int received = receiveAll();
            if (received == 0 && (revents & (Libc.POLLERR | Libc.POLLHUP)) != 0)
            {
                deviceGone = true;
                // POLLERR with nothing to read: the device went away; level-triggered, so it must not stay polled
                throw new IllegalStateException("the umad device of " + name + " reports " +
                    ((revents & Libc.POLLERR) != 0 ? "POLLERR" : "POLLHUP") + ": it went away");
            }
            return received;
        }
        catch (final RuntimeException ex)
        {
            // the umad device failed: this port's CM stops, the conductor and the other ports go on
            // (ib_umad_kill_port marks the file's agents dead: poll says POLLERR, read says EIO)
            deviceGone |= ex instanceof UmadException umad && umad.errno() == Errno.EIO;
            failure = ex;
            running = false;
            conductor.portFailed(this);
            runRemainingCalls();
            return 1;
        }
    }

    private void runRemainingCalls()
    {
        for (Runnable call; (call = calls.poll()) != null; )
        {
            guarded(call);
        }
    }

    /**
     * What a consumer's handler or a QP move throws ends that step, not the port's CM: the engine has
     * made its state change first. The last such failure is kept for {@link #toString}.
     */
    private void guarded(final Runnable step)
    {
        try
        {
            step.run();
        }
        catch (final RuntimeException ex)
        {
            stepFailures++;
            lastStepFailure = ex;
        }
    }

    private int receiveAll()
    {
        int count = 0;
        for (int length; (length = port.receive(received, 0)) != UmadPort.NOTHING; count++)
        {
            final UserMadHeader header = port.received();
            if (header.sendTimedOut())
            {
                continue; // CM MADs are sent without a response timeout; the engine runs its own retries
            }
            final CmMadRecorder mads = recorder;
            if (mads != CmMadRecorder.NONE)
            {
                mads.onMad(CmMadFilter.Direction.RECEIVED, header.gid(), localGids.apply(header.gidIndex()), header.qpn(),
                    Gsi.QPN, header.trafficClass(), header.hopLimit(), header.flowLabel(), received, 0, length);
            }
            if (!passes(CmMadFilter.Direction.RECEIVED, received, 0))
            {
                continue;
            }
            final Gid from = header.gid();
            localGidIndexes.putIfAbsent(from, header.gidIndex());
            final IbCmPeerAddress peer = new IbCmPeerAddress(from, header.qpn(), header.pkeyIndex());
            final int madLength = length;
            guarded(() -> engine.onMadReceived(peer, received, 0, madLength));
        }
        return count;
    }

    private boolean passes(final CmMadFilter.Direction direction, final DirectBuffer mad, final int offset)
    {
        final int attributeId = mad.getShort(offset + MadHeader.ATTRIBUTE_ID_OFFSET, ByteOrder.BIG_ENDIAN) & 0xffff;
        if (filter.pass(direction, CmAttribute.fromId(attributeId)))
        {
            return true;
        }
        filtered++;
        return false;
    }

    /**
     * The conductor (after its descriptor left the poll set), or the opener of a port the conductor never
     * took: runs the calls left (destroy's REJ, DREQ or DREP still go out), then unregisters the agent and
     * closes the umad device. Idempotent.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        final boolean wasRunning = running;
        running = false;
        try
        {
            if (wasRunning)
            {
                runRemainingCalls();
            }
        }
        finally
        {
            try
            {
                agent.close();
            }
            finally
            {
                port.close();
            }
        }
    }

    @Override
    public String toString()
    {
        return "CM on " + name + (filtered == 0 ? "" : ", " + filtered + " MADs dropped by the filter")
            + (stepFailures == 0 ? "" : ", " + stepFailures + " failed steps, the last: " + lastStepFailure);
    }
}
