package dev.rdmacm.cm;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.Libc;
import dev.rdmacm.resolver.spi.GidDirectory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The event channel's pollable descriptor, as the kernel's poll(2) sees it, and rdma_destroy_id's
 * rules for the events of the id it destroys (librdmacm: queued ones are dropped, taken ones must be
 * acknowledged first). The events are posted by the test: no real peer decides when an event exists.
 */
class EventChannelTest
{
    private static RdmaCm cm;

    @BeforeAll
    static void open()
    {
        cm = RdmaCm.open(RdmaCm.Options.builder().gids(GidDirectory.NONE).build());
    }

    @AfterAll
    static void close()
    {
        if (cm != null)
        {
            cm.close();
        }
    }

    /** poll(2) on {@code fd} without waiting: whether it is readable. */
    private static boolean readable(final int fd)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment pollFd = arena.allocate(Libc.POLLFD_SIZE);
            pollFd.set(JAVA_INT, Libc.POLLFD_FD_OFFSET, fd);
            pollFd.set(JAVA_SHORT, Libc.POLLFD_EVENTS_OFFSET, Libc.POLLIN);
            return Libc.poll(new Libc.CallState(arena), pollFd, 1, 0) == 1 &&
                (pollFd.get(JAVA_SHORT, Libc.POLLFD_REVENTS_OFFSET) & Libc.POLLIN) != 0;
        }
    }

    private static CmEvent errorFor(final RdmaCmId id)
    {
        return new CmEvent.AddrError(id, -Errno.ETIMEDOUT, "test event", null);
    }

    @Test
    void shouldBeReadableExactlyWhileAnEventIsQueued() throws Exception
    {
        try (EventChannel channel = cm.createEventChannel(); RdmaCmId id = cm.createId(channel))
        {
            assertFalse(readable(channel.fd()), "empty");
            channel.post(errorFor(id));
            channel.post(errorFor(id));
            assertTrue(readable(channel.fd()), "two queued");
            channel.getEvent(Duration.ZERO).ack();
            assertTrue(readable(channel.fd()), "one queued");
            channel.pollEvent().ack();
            assertFalse(readable(channel.fd()), "both taken");
        }
    }

    @Test
    void shouldDropTheQueuedEventsOfADestroyedIdOnly() throws Exception
    {
        try (EventChannel channel = cm.createEventChannel(); RdmaCmId kept = cm.createId(channel))
        {
            final RdmaCmId destroyed = cm.createId(channel);
            channel.post(errorFor(destroyed));
            channel.post(errorFor(kept));
            channel.post(errorFor(destroyed));

            destroyed.destroy();

            assertEquals(1, channel.pendingEvents());
            final CmEvent left = channel.pollEvent();
            assertSame(kept, left.id());
            left.ack();
            assertFalse(readable(channel.fd()), "the dropped events left no count behind");
        }
    }

    @Test
    void shouldWaitInDestroyUntilATakenEventIsAcknowledged() throws Exception
    {
        try (EventChannel channel = cm.createEventChannel())
        {
            final RdmaCmId id = cm.createId(channel);
            channel.post(errorFor(id));
            final CmEvent taken = channel.getEvent(Duration.ZERO);
            assertEquals(1, id.unacknowledgedEvents());

            final Thread destroyer = Thread.ofPlatform().start(id::destroy);
            // Blocked in the wait, not merely not yet started: the thread is WAITING on the id.
            while (destroyer.getState() != Thread.State.WAITING)
            {
                assertTrue(destroyer.isAlive(), "destroy returned with an event not acknowledged");
                Thread.onSpinWait();
            }
            taken.ack();
            destroyer.join(TimeUnit.SECONDS.toMillis(30));

            assertFalse(destroyer.isAlive(), "destroy still waits after the ack");
            assertEquals(0, id.unacknowledgedEvents());
            assertNull(channel.pollEvent());
        }
    }

    @Test
    void shouldNotCountAnEventAckedTwice() throws Exception
    {
        try (EventChannel channel = cm.createEventChannel(); RdmaCmId id = cm.createId(channel))
        {
            channel.post(errorFor(id));
            final CmEvent taken = channel.getEvent(Duration.ZERO);
            taken.ack();
            taken.ack();
            assertEquals(0, id.unacknowledgedEvents());
            final CompletableFuture<Void> destroyed = CompletableFuture.runAsync(id::destroy);
            destroyed.get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    @Timeout(30)
    void shouldHandOutNoEventPostedForAnIdAfterItsDestroyReturned() throws Exception
    {
        try (EventChannel channel = cm.createEventChannel())
        {
            final RdmaCmId id = cm.createId(channel);
            id.destroy();

            // what the conductor may still post for the id before it runs the destroy the caller queued
            channel.post(errorFor(id));

            assertEquals(0, channel.pendingEvents());
            assertNull(channel.pollEvent());
            assertFalse(readable(channel.fd()), "the dropped event left no count behind");
            assertEquals(0, id.unacknowledgedEvents());
        }
    }

    @Test
    @Timeout(30)
    void shouldReturnFromDestroyWhileTheConductorIsBusyAndDropWhatItPostsForTheIdMeanwhile() throws Exception
    {
        try (EventChannel channel = cm.createEventChannel(); RdmaCmId kept = cm.createId(channel))
        {
            final RdmaCmId id = cm.createId(channel);
            channel.post(errorFor(id));
            // The conductor is held inside a command of its own: destroy must not need it to return.
            try (HeldConductor held = HeldConductor.hold(cm, () ->
            {
                channel.post(errorFor(id));
                channel.post(errorFor(kept));
            }))
            {
                id.destroy();

                assertEquals(CmIdState.DESTROYING, id.state());
                assertEquals(0, channel.pendingEvents(), "the queued event was dropped by the caller");
            }
            final CompletableFuture<Void> drained = new CompletableFuture<>();
            assertTrue(cm.trySubmit(loop -> drained.complete(null)));
            drained.get();

            assertEquals(CmIdState.DESTROYING, id.view().state(), "the conductor ran the destroy after");
            final CmEvent left = channel.pollEvent();
            assertSame(kept, left.id(), "only the kept id's event was queued");
            left.ack();
            assertNull(channel.pollEvent());
            assertFalse(readable(channel.fd()));
        }
    }

    /**
     * A post races the destroy of its id on another thread (the caller's thread posts the events of the
     * resolutions it finishes, without the channel's lock): whichever wins, no event of a destroyed id is
     * handed out, none stays queued, and the descriptor is not left readable.
     */
    @Test
    @Timeout(60)
    void shouldHandOutNoEventOfAnIdWhoseDestroyRacedItsPost() throws Exception
    {
        try (EventChannel channel = cm.createEventChannel())
        {
            final int watched = channel.fd();
            for (int round = 0; round < 2_000; round++)
            {
                final RdmaCmId id = cm.createId(channel);
                final CyclicBarrier go = new CyclicBarrier(2);
                final CompletableFuture<Void> posted = CompletableFuture.runAsync(() ->
                {
                    await(go);
                    channel.post(errorFor(id));
                });
                await(go);
                id.destroy();
                posted.get(10, TimeUnit.SECONDS);

                assertEquals(0, channel.pendingEvents(), "round " + round);
                assertFalse(readable(watched), "round " + round);
                assertNull(channel.pollEvent(), "round " + round);
            }
        }
    }

    /**
     * The destroy run where the race above only sometimes puts it: after the post read the id's destroyed flag
     * (not yet set) and before its event is queued, so the destroy's discard finds nothing to drop. The post's
     * second read of the flag, after the add, is then all that takes the event back: without it the event stays
     * queued (pendingEvents 1) and the descriptor readable, for an event no taker will ever be handed.
     */
    @Test
    @Timeout(30)
    void shouldTakeBackAnEventQueuedJustAfterTheDestroyOfItsIdDroppedTheQueue() throws Exception
    {
        assertDestroyInsidePostLeavesNothing(false);
    }

    /** The other side of the window: the destroy right after the add, whose discard drops the event itself. */
    @Test
    @Timeout(30)
    void shouldDropAnEventQueuedJustBeforeTheDestroyOfItsId() throws Exception
    {
        assertDestroyInsidePostLeavesNothing(true);
    }

    /** A post whose add runs the id's destroy, before the event is queued or after: no event, count or ack is left. */
    private void assertDestroyInsidePostLeavesNothing(final boolean destroyAfterAdd) throws Exception
    {
        final DestroyingQueue queue = new DestroyingQueue(destroyAfterAdd);
        try (EventChannel channel = new EventChannel(queue))
        {
            final int watched = channel.fd();
            final RdmaCmId id = cm.createId(channel);
            queue.destroyOnNextAdd(id);

            channel.post(errorFor(id));

            assertEquals(CmIdState.DESTROYING, id.state(), "the destroy ran inside the post");
            assertEquals(0, channel.pendingEvents());
            assertFalse(readable(watched), "the event left no count behind");
            assertNull(channel.pollEvent());
            assertEquals(0, id.unacknowledgedEvents());
        }
    }

    /** A channel's queue that destroys an id on the post's thread just before (or just after) its next add. */
    private static final class DestroyingQueue extends LinkedBlockingQueue<CmEvent>
    {
        private final boolean afterAdd;
        private final AtomicReference<RdmaCmId> toDestroy = new AtomicReference<>();

        DestroyingQueue(final boolean afterAdd)
        {
            this.afterAdd = afterAdd;
        }

        void destroyOnNextAdd(final RdmaCmId id)
        {
            toDestroy.set(id);
        }

        @Override
        public boolean add(final CmEvent event)
        {
            final RdmaCmId id = toDestroy.getAndSet(null);
            if (id != null && !afterAdd)
            {
                id.destroy();
            }
            final boolean added = super.add(event);
            if (id != null && afterAdd)
            {
                id.destroy();
            }
            return added;
        }
    }

    private static void await(final CyclicBarrier barrier)
    {
        try
        {
            barrier.await(10, TimeUnit.SECONDS);
        }
        catch (final Exception ex)
        {
            throw new AssertionError("the other thread did not come", ex);
        }
    }
}
