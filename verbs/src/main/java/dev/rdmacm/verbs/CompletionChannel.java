package dev.rdmacm.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static dev.rdmacm.verbs.IbvLayouts.IBV_COMP_CHANNEL;
import static dev.rdmacm.verbs.IbvLayouts.offset;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * A completion event channel ({@code ibv_create_comp_channel}): a file descriptor that becomes
 * readable when an armed CQ attached to it gets a completion.
 * <p>
 * Two ways to wait: {@link #awaitEvent()} blocks and acknowledges at once; {@link #takeEvent(Duration)}
 * polls the descriptor with a timeout and leaves the acknowledgement to
 * {@link CompletionQueue#acknowledgeEvents()}, in librdmacm rping's order: get the event, re-arm the
 * CQ, poll it, acknowledge. A CQ acknowledges what is left before it is destroyed, which
 * {@code ibv_destroy_cq} would otherwise wait for for ever.
 */
public final class CompletionChannel extends NativeResource
{
    static final long FD_OFFSET = offset(IBV_COMP_CHANNEL, "fd");

    private final MemorySegment channel;
    private final List<CompletionQueue> queues = new ArrayList<>();
    /**
     * {@link #takeEvent}'s out-parameters, in an automatic arena: a channel is made and destroyed per connection
     * (librdmacm's {@code rdma_create_qp} makes two), and closing a shared arena is a handshake with every thread.
     */
    private final Arena eventArena = Arena.ofAuto();
    private final MemorySegment cqOut = eventArena.allocate(ADDRESS);
    private final MemorySegment cqContextOut = eventArena.allocate(ADDRESS);
    private DescriptorWait wait;

    CompletionChannel(final VerbsContext owner)
    {
        super(owner.registry(), "completion channel on " + owner.deviceName());
        channel = LibIbverbs.create("ibv_create_comp_channel", owner.deviceName(),
            errno -> (MemorySegment)LibIbverbs.Resources.CREATE_COMP_CHANNEL.invokeExact(errno, owner.segment()))
            .reinterpret(IBV_COMP_CHANNEL.byteSize());
        register();
    }

    /** The file descriptor to poll for readability. */
    public int fd()
    {
        return channel.get(JAVA_INT, FD_OFFSET);
    }

    /**
     * {@code ibv_get_cq_event}: blocks until an armed CQ of this channel has a completion, acknowledges
     * the event ({@code ibv_ack_cq_events}) and returns that CQ, which must be re-armed with
     * {@link CompletionQueue#requestNotification(boolean)} for the next event.
     */
    public CompletionQueue awaitEvent()
    {
        requireOpen("ibv_get_cq_event");
        try (Arena arena = Arena.ofConfined())
        {
            // its own out-parameters: any number of threads may block here at once
            final MemorySegment cqOut = arena.allocate(ADDRESS);
            final MemorySegment cqContextOut = arena.allocate(ADDRESS);
            LibIbverbs.check("ibv_get_cq_event", this::toString,
                errno -> (int)LibIbverbs.Resources.GET_CQ_EVENT.invokeExact(errno, channel, cqOut, cqContextOut));
            final MemorySegment cq = cqOut.get(ADDRESS, 0);
            try
            {
                LibIbverbs.Resources.ACK_CQ_EVENTS.invokeExact(cq, 1);
            }
            catch (final Throwable ex)
            {
                throw LibIbverbs.unexpected("ibv_ack_cq_events", ex);
            }
            return queueAt(cq.address());
        }
    }

    /**
     * Waits at most {@code timeout} for an event ({@code poll(2)} on {@link #fd()}), then takes it with
     * {@code ibv_get_cq_event}, which then does not block. The event is not acknowledged: the CQ counts
     * it, and {@link CompletionQueue#acknowledgeEvents()} acknowledges it ({@code ibv_ack_cq_events})
     * once the CQ is re-armed and polled. Allocates nothing.
     *
     * @return the armed CQ that had a completion, or null when none came in time.
     * @throws VerbsException with poll's or ibv_get_cq_event's errno.
     */
    public CompletionQueue takeEvent(final Duration timeout)
    {
        requireOpen("ibv_get_cq_event");
        if (wait == null)
        {
            wait = new DescriptorWait(fd(), toString());
        }
        if (!wait.awaitReadable(timeout.toNanos()))
        {
            return null;
        }
        LibIbverbs.check("ibv_get_cq_event", this::toString,
            errno -> (int)LibIbverbs.Resources.GET_CQ_EVENT.invokeExact(errno, channel, cqOut, cqContextOut));
        final CompletionQueue queue = queueAt(cqOut.get(ADDRESS, 0).address());
        queue.eventTaken();
        return queue;
    }

    MemorySegment segment()
    {
        return channel;
    }

    void attach(final CompletionQueue queue)
    {
        queues.add(queue);
    }

    void detach(final CompletionQueue queue)
    {
        queues.remove(queue);
    }

    /** The attached CQ at {@code address}, for {@code ibv_get_cq_event}'s answer. */
    CompletionQueue queueAt(final long address)
    {
        for (final CompletionQueue queue : queues)
        {
            if (queue.segment().address() == address)
            {
                return queue;
            }
        }
        throw new IllegalStateException("ibv_get_cq_event returned CQ 0x" + Long.toHexString(address)
            + ", which is not attached to " + this);
    }

    @Override
    void destroy()
    {
        LibIbverbs.check("ibv_destroy_comp_channel", toString() + " (EBUSY: close its CQs first)",
            errno -> (int)LibIbverbs.Resources.DESTROY_COMP_CHANNEL.invokeExact(errno, channel));
        if (wait != null)
        {
            wait.close();
        }
    }
}
