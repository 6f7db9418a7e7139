package dev.rdmacm.cli;

import dev.rdmacm.verbs.CompletionChannel;
import dev.rdmacm.verbs.CompletionQueue;
import dev.rdmacm.verbs.CompletionStatus;
import dev.rdmacm.verbs.IbvConstants;
import dev.rdmacm.verbs.MemoryRegion;
import dev.rdmacm.verbs.ProtectionDomain;
import dev.rdmacm.verbs.QueuePairCapabilities;
import dev.rdmacm.verbs.RcQueuePair;
import dev.rdmacm.verbs.ScatterGatherList;
import dev.rdmacm.verbs.Verbs;
import dev.rdmacm.verbs.VerbsContext;
import dev.rdmacm.verbs.WorkCompletions;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

/**
 * The data path of librdmacm's {@code rping} (examples/rping.c, rdma-core 44), byte for byte, over one RC
 * QP: the verbs resources rping allocates and the two loops.
 * <p>
 * Each advertisement is rping's {@code struct rping_rdma_info}, big-endian:
 * <pre>
 *    0               8       12      16
 *   +---------------+-------+-------+
 *   | buf (addr)    | rkey  | size  |
 *   +---------------+-------+-------+
 * </pre>
 * Client, per ping: advertise {@code start_buf} (the text {@code rdma-ping-N: } and a rotating run of
 * 'A'..'z'); the server RDMA-READs it and sends a go-ahead; advertise {@code rdma_buf}; the server
 * RDMA-WRITEs the text back and sends again; compare ({@code -V}) and print ({@code -v}). The server does
 * the other half until the client disconnects.
 * <p>
 * Completions are waited for as rping waits for them, on a completion channel: the CQ is armed once it
 * is created ({@code ibv_req_notify_cq}), and whenever it is empty the thread sleeps in {@code poll(2)} on
 * the channel's descriptor; an event is taken ({@code ibv_get_cq_event}), the CQ re-armed and polled,
 * then the event acknowledged ({@code ibv_ack_cq_events}). rping's CQ thread blocks in
 * {@code ibv_get_cq_event} while its CM thread watches the CM; this one thread wakes every
 * {@link #EVENT_WAIT} to look at the CM's events too.
 */
final class RpingExchange implements AutoCloseable
{
    /** {@code RPING_SQ_DEPTH}: the send queue's depth, and half the CQ's. */
    static final int SQ_DEPTH = 16;
    static final int INFO_SIZE = 16;
    private static final ValueLayout.OfLong BE_LONG = JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt BE_INT = JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    /**
     * Unlike rping, which waits forever, one step of the exchange gives up after this: the RC QP's own
     * retries (7 at the CM's local ACK timeout) end well before it.
     */
    private static final long STEP_LIMIT_NANOS = 30_000_000_000L;
    /** How long one wait on the completion channel lasts before the CM's events are looked at again. */
    private static final Duration EVENT_WAIT = Duration.ofMillis(50);
    /** Between two looks at the CM while a disconnect's event is awaited. */
    private static final long DISCONNECT_PAUSE_NANOS = 1_000_000L;
    private static final long RECV_ID = 1;
    private static final long SEND_ID = 2;
    private static final long RDMA_ID = 3;
    private static final int ACCESS = IbvConstants.IBV_ACCESS_LOCAL_WRITE | IbvConstants.IBV_ACCESS_REMOTE_READ
        | IbvConstants.IBV_ACCESS_REMOTE_WRITE;

    private final int size;
    private final VerbsContext context;
    private final ProtectionDomain pd;
    private final CompletionChannel channel;
    private final CompletionQueue cq;
    private final RcQueuePair qp;
    private final MemoryRegion receive;
    private final MemoryRegion send;
    private final MemoryRegion rdma;
    private final MemoryRegion start;
    private final ScatterGatherList sgl = new ScatterGatherList(1);
    private final WorkCompletions completions = new WorkCompletions(4);
    /** Work requests that completed and were not yet waited for, by wr_id. */
    private final boolean[] completed = new boolean[(int)RDMA_ID + 1];
    /** The last advertisement received. */
    private long remoteAddress;
    private long remoteKey;
    private int remoteLength;
    private int pings;

    RpingExchange(final String device, final int size)
    {
        this.size = size;
        this.context = Verbs.open(device);
        ProtectionDomain allocatedPd = null;
        CompletionChannel allocatedChannel = null;
        CompletionQueue allocatedCq = null;
        RcQueuePair allocatedQp = null;
        try
        {
            // rping_setup_qp's order: the PD, the channel, the CQ on it, armed, then the QP
            allocatedPd = context.allocateProtectionDomain();
            allocatedChannel = context.createCompletionChannel();
            allocatedCq = context.createCompletionQueue(SQ_DEPTH * 2, allocatedChannel);
            allocatedCq.requestNotification(false);
            allocatedQp = allocatedPd.createRcQueuePair(allocatedCq, allocatedCq, new QueuePairCapabilities(SQ_DEPTH, 2, 1, 1, 0));
            this.receive = allocatedPd.allocateMemoryRegion(INFO_SIZE, IbvConstants.IBV_ACCESS_LOCAL_WRITE);
            this.send = allocatedPd.allocateMemoryRegion(INFO_SIZE, 0);
            this.rdma = allocatedPd.allocateMemoryRegion(size, ACCESS);
            this.start = allocatedPd.allocateMemoryRegion(size, ACCESS);
        }
        catch (final RuntimeException ex)
        {
            if (allocatedQp != null)
            {
                allocatedQp.close();
            }
            if (allocatedCq != null)
            {
                allocatedCq.close();
            }
            if (allocatedChannel != null)
            {
                allocatedChannel.close();
            }
            context.close(); // and what else it registered: the MRs made so far, the PD
            throw ex;
        }
        this.pd = allocatedPd;
        this.channel = allocatedChannel;
        this.cq = allocatedCq;
        this.qp = allocatedQp;
    }

    RcQueuePair queuePair()
    {
        return qp;
    }

    /** rping posts its one receive before connecting or accepting. */
    void postReceive()
    {
        qp.postReceive(RECV_ID, sgl.clear().add(receive, 0, INFO_SIZE));
    }

    /**
     * rping_test_client for {@code count} pings (0: until the connection goes).
     *
     * @return 0, or -1 with the reason on stderr as rping prints it.
     */
    int client(final int count, final boolean verbose, final boolean validate, final BooleanSupplier connected)
    {
        int letter = 65;
        for (int ping = 0; count == 0 || ping < count; ping++)
        {
            final byte[] text = ("rdma-ping-" + ping + ": ").getBytes(StandardCharsets.US_ASCII);
            final MemorySegment buffer = start.memory();
            int i = 0;
            for (; i < Math.min(text.length, size - 1); i++)
            {
                buffer.set(JAVA_BYTE, i, text[i]);
            }
            for (int c = letter; i < size; i++)
            {
                buffer.set(JAVA_BYTE, i, (byte)c);
                c = c + 1 > 122 ? 65 : c + 1;
            }
            letter = letter + 1 > 122 ? 65 : letter + 1;
            buffer.set(JAVA_BYTE, size - 1, (byte)0);

            advertise(start);
            if (!awaitReceive(connected, "RDMA_WRITE_ADV"))
            {
                return -1;
            }
            advertise(rdma);
            if (!awaitReceive(connected, "RDMA_WRITE_COMPLETE"))
            {
                return -1;
            }
            if (validate && buffer.asSlice(0, size).mismatch(rdma.memory().asSlice(0, size)) != -1)
            {
                System.err.println("data mismatch!");
                return -1;
            }
            pings++;
            if (verbose)
            {
                System.out.println("ping data: " + cString(rdma.memory()));
            }
        }
        return 0;
    }

    /** rping_test_server until the client disconnects: read its buffer, go ahead, write it back, go ahead. */
    int server(final boolean verbose, final BooleanSupplier connected)
    {
        while (true)
        {
            if (!awaitReceive(connected, "RDMA_READ_ADV"))
            {
                return connected.getAsBoolean() ? -1 : 0;
            }
            qp.postRdmaRead(RDMA_ID, sgl.clear().add(rdma, 0, Math.min(remoteLength, size)), remoteAddress, remoteKey, true);
            if (!awaitCompletion(RDMA_ID, connected, "RDMA_READ_COMPLETE"))
            {
                return connected.getAsBoolean() ? -1 : 0;
            }
            if (verbose)
            {
                System.out.println("server ping data: " + cString(rdma.memory()));
            }
            goAhead();
            if (!awaitReceive(connected, "RDMA_WRITE_ADV"))
            {
                return connected.getAsBoolean() ? -1 : 0;
            }
            qp.postRdmaWrite(RDMA_ID, sgl.clear().add(rdma, 0, cString(rdma.memory()).length() + 1), remoteAddress, remoteKey, true);
            if (!awaitCompletion(RDMA_ID, connected, "RDMA_WRITE_COMPLETE"))
            {
                return connected.getAsBoolean() ? -1 : 0;
            }
            pings++;
            goAhead();
        }
    }

    /** The pings done: the client's validated round trips, the server's written-back buffers. */
    int pings()
    {
        return pings;
    }

    private void goAhead()
    {
        qp.postSend(SEND_ID, sgl.clear().add(send, 0, INFO_SIZE), true);
        awaitCompletion(SEND_ID, () -> true, "SEND");
    }

    private void advertise(final MemoryRegion region)
    {
        final MemorySegment info = send.memory();
        info.set(BE_LONG, 0, region.address());
        info.set(BE_INT, 8, (int)region.rkey());
        info.set(BE_INT, 12, size);
        qp.postSend(SEND_ID, sgl.clear().add(send, 0, INFO_SIZE), true);
        awaitCompletion(SEND_ID, () -> true, "SEND");
    }

    /**
     * The peer's next message: its advertisement is copied out, then the receive is posted again at
     * once, as rping's recv handler does.
     */
    private boolean awaitReceive(final BooleanSupplier connected, final String state)
    {
        if (!awaitCompletion(RECV_ID, connected, state))
        {
            return false;
        }
        final MemorySegment info = receive.memory();
        remoteAddress = info.get(BE_LONG, 0);
        remoteKey = info.get(BE_INT, 8) & 0xffff_ffffL;
        remoteLength = info.get(BE_INT, 12);
        postReceive();
        return true;
    }

    /**
     * Polls the CQ until the work request {@code id} completes, or the connection goes; while it is
     * empty, waits on the completion channel.
     */
    private boolean awaitCompletion(final long id, final BooleanSupplier connected, final String state)
    {
        final long deadline = System.nanoTime() + STEP_LIMIT_NANOS;
        while (true)
        {
            if (completed[(int)id])
            {
                completed[(int)id] = false;
                return true;
            }
            final int n = cq.poll(completions);
            cq.acknowledgeEvents(); // the event that woke us, once its CQ is re-armed and polled, as rping does
            for (int i = 0; i < n; i++)
            {
                if (completions.completionStatus(i) == CompletionStatus.WR_FLUSH_ERR)
                {
                    // as rping's cq handler: a flush means the QP went to ERR on a disconnect; its event follows
                    awaitDisconnected(connected, deadline);
                    return false;
                }
                if (completions.completionStatus(i) != CompletionStatus.SUCCESS)
                {
                    if (connected.getAsBoolean())
                    {
                        System.err.println("cq completion failed status " + completions.status(i) + " ("
                            + completions.completionStatus(i) + ")");
                    }
                    return false;
                }
                // one batch may hold the send's completion and the peer's next message: keep both
                completed[(int)completions.wrId(i)] = true;
            }
            if (n == 0)
            {
                if (!connected.getAsBoolean())
                {
                    System.err.println("wait for " + state + " state 10");
                    return false;
                }
                if (System.nanoTime() - deadline > 0)
                {
                    System.err.println("wait for " + state + ": no completion within " + STEP_LIMIT_NANOS / 1_000_000_000L + " s");
                    return false;
                }
                awaitEvent();
            }
        }
    }

    /**
     * rping's cq_thread, one turn: the channel's next event (or none within {@link #EVENT_WAIT}), then
     * the CQ re-armed before it is polled, so that no completion comes between the poll and the next arming unseen.
     */
    private void awaitEvent()
    {
        final CompletionQueue notified = channel.takeEvent(EVENT_WAIT);
        if (notified == null)
        {
            return;
        }
        if (notified != cq)
        {
            throw new IllegalStateException("Unknown CQ! ibv_get_cq_event gave " + notified + ", not " + cq);
        }
        cq.requestNotification(false);
    }

    private static void awaitDisconnected(final BooleanSupplier connected, final long deadline)
    {
        while (connected.getAsBoolean() && System.nanoTime() - deadline < 0)
        {
            LockSupport.parkNanos(DISCONNECT_PAUSE_NANOS);
        }
    }

    private static String cString(final MemorySegment memory)
    {
        final StringBuilder text = new StringBuilder();
        for (long i = 0; i < memory.byteSize(); i++)
        {
            final byte b = memory.get(JAVA_BYTE, i);
            if (b == 0)
            {
                break;
            }
            text.append((char)(b & 0xff));
        }
        return text.toString();
    }

    /**
     * In the kernel's order: the QP before its CQ (which first acknowledges any event still taken), the
     * CQ before its channel, the MRs before the PD, the context last.
     */
    @Override
    public void close()
    {
        try
        {
            qp.close();
            cq.close();
            channel.close();
            receive.close();
            send.close();
            rdma.close();
            start.close();
            pd.close();
            sgl.close();
            completions.close();
        }
        finally
        {
            context.close();
        }
    }
}
