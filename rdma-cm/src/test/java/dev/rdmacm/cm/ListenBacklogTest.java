package dev.rdmacm.cm;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.resolver.spi.FixedGidDirectory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A listener's backlog as the kernel's ucma keeps it ({@code ucma_listen}, {@code ucma_connect_event_handler},
 * {@code ucma_get_event}): the backlog a listen keeps, the places requests take, and the place a
 * CONNECT_REQUEST gives back when the application takes it off the channel. The requests' events are
 * posted by the test, as the CM's thread posts them: this host has no RDMA device to receive a REQ on (the
 * flood of real REQs is ListenBacklogInGuest's).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ListenBacklogTest
{
    private static final int MAX_BACKLOG = 8;
    private static RdmaCm cm;

    @BeforeAll
    static void open()
    {
        cm = RdmaCm.open(RdmaCm.Options.builder().gids(new FixedGidDirectory(List.of())).maxBacklog(MAX_BACKLOG).build());
    }

    @AfterAll
    static void close()
    {
        if (cm != null)
        {
            cm.close();
        }
    }

    @Test
    void shouldKeepTheBacklogAskedForWhenItIsFromOneToMaxBacklog()
    {
        assertEquals(1, ListenBacklog.effective(1, 1024));
        assertEquals(5, ListenBacklog.effective(5, 1024));
        assertEquals(1024, ListenBacklog.effective(1024, 1024));
    }

    @Test
    void shouldKeepMaxBacklogForZeroAboveMaxBacklogOrNegativeAsUcmaListenReadsItUnsigned()
    {
        assertEquals(1024, ListenBacklog.effective(0, 1024));
        assertEquals(1024, ListenBacklog.effective(1025, 1024));
        assertEquals(1024, ListenBacklog.effective(Integer.MAX_VALUE, 1024));
        // librdmacm passes the int to the __u32 rdma_ucm_listen.backlog: -1 is 4294967295
        assertEquals(1024, ListenBacklog.effective(-1, 1024));
        assertEquals(1024, ListenBacklog.effective(Integer.MIN_VALUE, 1024));
        assertEquals(0, ListenBacklog.effective(3, 0), "max_backlog 0 leaves no room at all");
    }

    @Test
    void shouldTakePlacesUntilNoneIsLeftThenTakeAgainOnlyWhatWasGivenBack()
    {
        final ListenBacklog backlog = new ListenBacklog();
        backlog.listen(3, 1024);

        assertTrue(backlog.tryTake());
        assertTrue(backlog.tryTake());
        assertTrue(backlog.tryTake());
        assertFalse(backlog.tryTake());
        assertEquals(0, backlog.room());
        backlog.giveBack();
        assertTrue(backlog.tryTake());
        assertFalse(backlog.tryTake());
    }

    @Test
    void shouldKeepTheBacklogItListensWithAndMaxBacklogForZero() throws Exception
    {
        try (RdmaCmId asked = cm.createId(cm.createEventChannel()); RdmaCmId zero = cm.createId(cm.createEventChannel());
             RdmaCmId above = cm.createId(cm.createEventChannel()))
        {
            asked.listen(3);
            zero.listen(0);
            above.listen(MAX_BACKLOG + 1);

            assertEquals(3, asked.backlog.room());
            assertEquals(MAX_BACKLOG, zero.backlog.room());
            assertEquals(MAX_BACKLOG, above.backlog.room());
        }
    }

    @Test
    void shouldSetTheBacklogAgainOnASecondListenThatFailsAsUcmaListenSetsItFirst() throws Exception
    {
        try (RdmaCmId id = cm.createId(cm.createEventChannel()))
        {
            id.listen(2);
            assertTrue(id.backlog.tryTake());

            final RdmaCmException refused = assertThrows(RdmaCmException.class, () -> id.listen(5));

            assertEquals(Errno.EINVAL, refused.errno());
            assertEquals(5, id.backlog.room(), "atomic_set before rdma_listen, which refuses a listening id");
        }
    }

    @Test
    void shouldGiveThePlaceBackWhenTheApplicationTakesTheConnectRequestNotWhenItAcknowledgesIt() throws Exception
    {
        try (EventChannel channel = cm.createEventChannel(); RdmaCmId listener = cm.createId(channel))
        {
            listener.listen(2);
            final RdmaCmId first = requestOn(listener, channel);
            final RdmaCmId second = requestOn(listener, channel);
            assertFalse(listener.backlog.tryTake(), "two requests fill a backlog of 2");

            final CmEvent taken = channel.getEvent(Duration.ZERO);

            assertEquals(CmEventType.CONNECT_REQUEST, taken.type());
            assertEquals(first, taken.id());
            assertEquals(1, listener.backlog.room(), "ucma_get_event: atomic_inc(&ctx->backlog)");
            taken.ack();
            assertEquals(1, listener.backlog.room(), "rdma_ack_cm_event gives nothing back");
            final CmEvent next = channel.pollEvent();
            assertNotNull(next);
            assertEquals(second, next.id());
            next.ack();
            assertEquals(2, listener.backlog.room());
            first.destroy();
            second.destroy();
        }
    }

    @Test
    void shouldGiveThePlaceBackWhenTheRequestsIdIsDestroyedWithItsEventQueued() throws Exception
    {
        try (EventChannel channel = cm.createEventChannel(); RdmaCmId listener = cm.createId(channel))
        {
            listener.listen(1);
            final RdmaCmId request = requestOn(listener, channel);
            assertEquals(0, listener.backlog.room());

            request.destroy();

            assertEquals(0, channel.pendingEvents());
            assertEquals(1, listener.backlog.room());
        }
    }

    /** What the CM's thread does for a request it takes: a place of the backlog, a new id, its CONNECT_REQUEST. */
    private static RdmaCmId requestOn(final RdmaCmId listener, final EventChannel channel)
    {
        assertTrue(listener.backlog.tryTake());
        final RdmaCmId child = cm.createId(channel);
        channel.post(new CmEvent.ConnectRequest(child, listener, new byte[0]));
        return child;
    }
}
