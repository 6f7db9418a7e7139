package dev.rdmacm.cm;

import dev.rdmacm.protocol.mad.Gsi;
import dev.rdmacm.ibcm.IbCmConnection;
import dev.rdmacm.ibcm.IbCmEngine;
import dev.rdmacm.ibcm.IbCmPeerAddress;
import dev.rdmacm.ibcm.IbCmState;
import dev.rdmacm.libc.NativeCallException;
import dev.rdmacm.loop.DeadlineTimers;
import dev.rdmacm.loop.FdWait;
import dev.rdmacm.loop.NanoClock;
import dev.rdmacm.loop.TransitionListener;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.cm.CmAttribute;
import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.umad.AgentRegistration;
import dev.rdmacm.protocol.mad.MadAddress;
import dev.rdmacm.umad.UmadAgent;
import dev.rdmacm.umad.UmadPort;
import dev.rdmacm.umad.UserMadHeader;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.security.SecureRandom;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * The CM of one RDMA port: the CM class registered on the port's umad device, a {@link IbCmEngine} and
 * the one thread that runs both. Received MADs, the engine's timers and every call an id makes (run
 * through {@link #execute}) happen on that thread, so the engine needs no locks; the thread waits in
 * {@code poll(2)} on the umad descriptor until a MAD, a call or the engine's next deadline.
 * <p>
 * What the kernel splits between ib_cm (the protocol) and the MAD layer (ib_mad, umad), this is for a
 * userspace CM, and so it needs a host where the kernel's ib_cm does not hold the CM class
 * ({@code docs/umad.md}). On RoCE every CM MAD has a GRH; the local GID index of a peer is the one its
 * id bound ({@link #useLocalGid}), or, for a peer that spoke first, the index its MAD arrived on.
 */
final class CmPortAgent implements AutoCloseable
{
    /** rxe's {@code local_ca_ack_delay} ({@code ibv_devinfo -v}), the REP's TargetACKDelay. */
    static final int SOFT_ROCE_CA_ACK_DELAY = 15;
    private static final long IDLE_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final int MAD_SIZE = 256;
    /**
     * The calls one turn of the CM thread runs before it reads the MADs that came and fires its timers.
     * The kernel sends a REQ in the caller's context and handles a REP in its MAD work queue, each as it
     * comes. A thread that ran every queued call first kept the REPs of 1,000 connections cmtime had just
     * requested waiting 12-16 s (cmtime's fastest connect, in the guests), longer than the 4.3 s the kernel
     * waits before it sends a REP again (rdma_cm's CM response timeout, 20).
     */
    private static final int CALLS_PER_TURN = 16;

    private final String name;
    private final UmadPort port;
    private final UmadAgent agent;
    private final FdWait wait;
    private final NanoClock clock = NanoClock.SYSTEM;
    private final DeadlineTimers<IbCmConnection> timers = new DeadlineTimers<>(clock);
    private final IbCmEngine engine;
    private final Queue<Runnable> calls = new ConcurrentLinkedQueue<>();
    private final Map<Gid, Integer> localGidIndexes = new ConcurrentHashMap<>();
    private final UnsafeBuffer received = new UnsafeBuffer(new byte[MAD_SIZE]);
    private final CmMadFilter filter;
    /** The GID at a local GID index, for the recorder: looked up only while one records. */
    private final IntFunction<Gid> localGids;
    private volatile CmMadRecorder recorder = CmMadRecorder.NONE;
    private final Thread thread;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean running = true;
    private volatile Throwable failure;
    private volatile long stepFailures;
    private volatile long filtered;
    private volatile RuntimeException lastStepFailure;

    private CmPortAgent(final String device, final int portNumber, final long localCaGuid,
        final TransitionListener<IbCmConnection, IbCmState> transitions, final CmMadFilter filter, final IntFunction<Gid> localGids)
    {
        this.name = device + "/" + portNumber;
        this.filter = filter;
        this.localGids = localGids;
        this.port = UmadPort.open(device, portNumber);
        try
        {
            this.agent = port.register(AgentRegistration.communicationManagement());
            this.wait = new FdWait(port.fd());
        }
        catch (final RuntimeException ex)
        {
            port.close();
            throw ex;
        }
        this.engine = new IbCmEngine(new IbCmEngine.Configuration(localCaGuid, SOFT_ROCE_CA_ACK_DELAY), timers, this::send,
            new SecureRandom(), transitions);
        this.thread = Thread.ofPlatform().daemon().name("rdmacm-cm-" + name).unstarted(this::run);
    }

    /**
     * Registers the CM class on {@code device}'s port and starts its thread.
     *
     * @param localGids the GID at each index of the port's GID table, for {@link #recorder}.
     */
    static CmPortAgent open(final String device, final int port, final long localCaGuid,
        final TransitionListener<IbCmConnection, IbCmState> transitions, final CmMadFilter filter, final CmMadRecorder recorder,
        final IntFunction<Gid> localGids)
    {
        final CmPortAgent agent = new CmPortAgent(device, port, localCaGuid, transitions, filter, localGids);
        agent.recorder = recorder;
        agent.thread.start();
        return agent;
    }

    /** Every CM MAD from the next one on goes to {@code mads} too ({@link CmMadRecorder#NONE}: none). */
    void recorder(final CmMadRecorder mads)
    {
        recorder = mads;
    }

    String name()
    {
        return name;
    }

    /** Runs {@code call} on the CM thread, with the engine. */
    void execute(final Consumer<IbCmEngine> call)
    {
        if (!running)
        {
            throw new IllegalStateException("the CM on " + name + " is closed" + (failure == null ? "" : ": " + failure));
        }
        calls.add(() -> call.accept(engine));
        try
        {
            wait.wakeUp();
        }
        catch (final NativeCallException ex)
        {
            throw new IllegalStateException("cannot wake the CM thread of " + name + ": " + ex.getMessage(), ex);
        }
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

    private void run()
    {
        try
        {
            while (running)
            {
                int taken = 0;
                for (Runnable call; taken < CALLS_PER_TURN && (call = calls.poll()) != null; taken++)
                {
                    guarded(call);
                }
                receiveAll();
                final long now = clock.nanoTime();
                guarded(() -> engine.doWork(now));
                final long toDeadline = engine.nanosToNextDeadline(clock.nanoTime());
                // calls left over: look at the descriptor and go on; a call queued after this check wakes the wait
                wait.await(!calls.isEmpty() ? 0 : Math.min(toDeadline < 0 ? IDLE_WAIT_NANOS : toDeadline, IDLE_WAIT_NANOS));
            }
        }
        catch (final Throwable ex)
        {
            failure = ex;
            running = false;
        }
        finally
        {
            // the ids' last calls (destroy's REJ, DREQ or DREP) still go out
            for (Runnable call; (call = calls.poll()) != null; )
            {
                guarded(call);
            }
            stopped.countDown();
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

    private void receiveAll()
    {
        for (int length; (length = port.receive(received, 0)) != UmadPort.NOTHING; )
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

    /** Stops the thread, then unregisters the agent and closes the umad device. */
    @Override
    public void close()
    {
        running = false;
        try
        {
            wait.wakeUp();
            if (Thread.currentThread() != thread && !stopped.await(5, TimeUnit.SECONDS))
            {
                throw new IllegalStateException("the CM thread of " + name + " did not stop within 5 s");
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        catch (final NativeCallException ex)
        {
            throw new IllegalStateException("cannot wake the CM thread of " + name + ": " + ex.getMessage(), ex);
        }
        finally
        {
            try
            {
                agent.close();
                port.close();
            }
            finally
            {
                closeWait();
            }
        }
    }

    private void closeWait()
    {
        try
        {
            wait.close();
        }
        catch (final NativeCallException ex)
        {
            throw new IllegalStateException("cannot close the CM wait of " + name + ": " + ex.getMessage(), ex);
        }
    }

    @Override
    public String toString()
    {
        return "CM on " + name + (filtered == 0 ? "" : ", " + filtered + " MADs dropped by the filter")
            + (stepFailures == 0 ? "" : ", " + stepFailures + " failed steps, the last: " + lastStepFailure);
    }
}
