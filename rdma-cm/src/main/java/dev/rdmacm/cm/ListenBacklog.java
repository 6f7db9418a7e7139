package dev.rdmacm.cm;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A listener's room for connect requests that the application has not taken yet, as rdma_cm's
 * userspace ABI counts it ({@code ucma_context.backlog}, drivers/infiniband/core/ucma.c):
 * <ul>
 *   <li>{@code rdma_listen} sets it to the backlog asked for, or to {@code max_backlog} when that is 0
 *       or above {@code max_backlog} ({@code ucma_listen}; the kernel reads the backlog as unsigned, so a
 *       negative one is above). It is set before the listen itself, which may still fail, and a second
 *       listen sets it again.</li>
 *   <li>A request takes one place, if there is one, before the request's id and its CONNECT_REQUEST are
 *       made ({@code ucma_connect_event_handler}); with none, the request is refused (ib_cm drops a REQ
 *       and answers a SIDR_REQ REJECT).</li>
 *   <li>The place comes back when the application takes the CONNECT_REQUEST off the channel
 *       ({@code ucma_get_event}), not when it accepts, rejects or acknowledges it; and when the request
 *       cannot be made after all ({@code err_backlog}).</li>
 * </ul>
 * Taken on the CM's thread, given back on the application's: an atomic counter, as the kernel's.
 */
final class ListenBacklog
{
    /** {@code net.rdma_ucm.max_backlog}'s default (ucma.c {@code max_backlog}). */
    static final int DEFAULT_MAX_BACKLOG = 1024;

    private final AtomicInteger room = new AtomicInteger();

    /** The backlog {@code ucma_listen} keeps for {@code requested} (a C int read as unsigned) under {@code maxBacklog}. */
    static int effective(final int requested, final int maxBacklog)
    {
        return requested == 0 || Integer.compareUnsigned(requested, maxBacklog) > 0 ? maxBacklog : requested;
    }

    /** {@code rdma_listen}: room for {@link #effective} requests. */
    void listen(final int requested, final int maxBacklog)
    {
        room.set(effective(requested, maxBacklog));
    }

    /** A request arrived: takes a place unless none is left ({@code atomic_add_unless(backlog, -1, 0)}). */
    boolean tryTake()
    {
        int now;
        do
        {
            now = room.get();
            if (now == 0)
            {
                return false;
            }
        }
        while (!room.compareAndSet(now, now - 1));
        return true;
    }

    /** A CONNECT_REQUEST left the channel, or its request could not be made: its place is free again. */
    void giveBack()
    {
        room.incrementAndGet();
    }

    /** Places left: the backlog less the requests whose CONNECT_REQUEST the application has not taken. */
    int room()
    {
        return room.get();
    }

    @Override
    public String toString()
    {
        return "ListenBacklog{room=" + room.get() + "}";
    }
}
