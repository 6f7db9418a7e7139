package dev.rdmacm.verbs;

import java.lang.foreign.MemorySegment;

import static dev.rdmacm.verbs.IbvLayouts.IBV_CQ;
import static dev.rdmacm.verbs.IbvLayouts.offset;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * A completion queue ({@code ibv_create_cq}), optionally attached to a {@link CompletionChannel}.
 * Polling and arming go through the context's ops table ({@code ibv_poll_cq} and
 * {@code ibv_req_notify_cq} are {@code static inline} in {@code verbs.h}) and allocate nothing.
 */
public final class CompletionQueue extends NativeResource
{
    static final long CQE_OFFSET = offset(IBV_CQ, "cqe");
    static final long COMP_EVENTS_COMPLETED_OFFSET = offset(IBV_CQ, "comp_events_completed");

    private final MemorySegment cq;
    private final CompletionChannel channel;
    private final ContextOps ops;
    /** Events {@link CompletionChannel#takeEvent} took and no {@code ibv_ack_cq_events} acknowledged yet. */
    private int unacknowledged;

    CompletionQueue(final VerbsContext owner, final int entries, final CompletionChannel channel)
    {
        super(owner.registry(), "CQ of " + entries + " entries on " + owner.deviceName());
        if (entries < 1)
        {
            throw new IllegalArgumentException("ibv_create_cq: " + entries + " entries; a CQ needs at least 1");
        }
        if (channel != null)
        {
            channel.requireOpen("ibv_create_cq");
        }
        final MemorySegment channelSegment = channel == null ? MemorySegment.NULL : channel.segment();
        cq = LibIbverbs.create("ibv_create_cq", this::toString,
            errno -> (MemorySegment)LibIbverbs.Resources.CREATE_CQ.invokeExact(errno, owner.segment(), entries,
                MemorySegment.NULL, channelSegment, 0)).reinterpret(IBV_CQ.byteSize());
        this.channel = channel;
        this.ops = owner.ops();
        if (channel != null)
        {
            channel.attach(this);
        }
        register();
    }

    /** The number of entries the provider actually allocated (at least the number asked for). */
    public int capacity()
    {
        return cq.get(JAVA_INT, CQE_OFFSET);
    }

    /**
     * {@code ibv_poll_cq} into {@code completions}: how many it filled, 0 when the CQ is empty.
     *
     * @throws VerbsException when the provider reports the CQ in error.
     */
    public int poll(final WorkCompletions completions)
    {
        requireOpen("ibv_poll_cq");
        return ops.pollCq(cq, completions.capacity(), completions.segment());
    }

    /** {@code ibv_req_notify_cq}: the next completion (or solicited completion) raises an event. */
    public void requestNotification(final boolean solicitedOnly)
    {
        requireOpen("ibv_req_notify_cq");
        ops.reqNotifyCq(cq, solicitedOnly);
    }

    /**
     * How many completion events of this CQ have been acknowledged ({@code ibv_ack_cq_events}, which
     * {@link CompletionChannel#awaitEvent()} calls for each): {@code ibv_destroy_cq} waits until every
     * event taken is acknowledged, so closing can never hang on one taken here.
     */
    public int acknowledgedEvents()
    {
        requireOpen("ibv_cq.comp_events_completed");
        return cq.get(JAVA_INT, COMP_EVENTS_COMPLETED_OFFSET);
    }

    /** The events taken with {@link CompletionChannel#takeEvent} and not acknowledged yet. */
    public int unacknowledgedEvents()
    {
        return unacknowledged;
    }

    /**
     * {@code ibv_ack_cq_events} for every event taken with {@link CompletionChannel#takeEvent} and not
     * acknowledged yet (one call for all of them, as the verbs man page advises); nothing when there is none.
     */
    public void acknowledgeEvents()
    {
        if (unacknowledged == 0)
        {
            return;
        }
        requireOpen("ibv_ack_cq_events");
        acknowledgeTaken();
    }

    /** Without the open check: destroy runs it while the context closes its resources. */
    private void acknowledgeTaken()
    {
        if (unacknowledged == 0)
        {
            return;
        }
        final int events = unacknowledged;
        try
        {
            LibIbverbs.Resources.ACK_CQ_EVENTS.invokeExact(cq, events);
        }
        catch (final Throwable ex)
        {
            throw LibIbverbs.unexpected("ibv_ack_cq_events", ex);
        }
        unacknowledged = 0;
    }

    void eventTaken()
    {
        unacknowledged++;
    }

    MemorySegment segment()
    {
        return cq;
    }

    @Override
    void destroy()
    {
        // ibv_destroy_cq waits until every event taken is acknowledged: never make it wait for ever
        acknowledgeTaken();
        LibIbverbs.check("ibv_destroy_cq", toString() + " (EBUSY: close the QPs that use it first)",
            errno -> (int)LibIbverbs.Resources.DESTROY_CQ.invokeExact(errno, cq));
        if (channel != null)
        {
            channel.detach(this);
        }
    }
}
