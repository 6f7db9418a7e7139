package dev.rdmacm.cm;

import dev.rdmacm.addrinfo.EaiCode;
import dev.rdmacm.addrinfo.Ipv4Sockaddr;
import dev.rdmacm.addrinfo.RaiFlags;
import dev.rdmacm.addrinfo.RdmaAddrInfo;
import dev.rdmacm.addrinfo.RdmaAddrInfoHints;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.resolver.spi.GidDirectory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * rdma-core HEAD's {@code rdma_resolve_addrinfo}, {@code rdma_query_addrinfo} and
 * {@code rdma_write_cm_event} on the host, for the rules that this 6.1 guest's librdmacm cannot show
 * (the kernel refuses the event those calls post): EBUSY until the result is queried, the result
 * handed over once, the events. The inputs are numeric, so glibc answers from no file and no server.
 * The values librdmacm decides are compared with the real librdmacm 65 in the kernel guest
 * ({@code AddrinfoAgainstLibrdmacmInGuest}).
 */
class ResolveAddrinfoTest
{
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final RdmaAddrInfoHints NUMERIC = RdmaAddrInfoHints.NONE.withFlags(RaiFlags.NUMERICHOST);

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

    @Test
    void shouldPostAddrinfoResolvedAndHandTheEntriesToQuery() throws Exception
    {
        try (EventChannel channel = cm.createEventChannel(); RdmaCmId id = cm.createId(channel))
        {
            id.resolveAddrinfo("10.20.0.2", "7471", NUMERIC);
            final CmEvent event = channel.getEvent(WAIT);
            event.ack();
            assertInstanceOf(CmEvent.AddrinfoResolved.class, event);
            assertEquals(0, event.status());
            final List<RdmaAddrInfo> entries = id.queryAddrinfo();
            assertEquals(1, entries.size());
            assertEquals(new Ipv4Sockaddr(0x0a14_0002, 7471), entries.get(0).dstAddr());
        }
    }

    @Test
    void shouldAnswerQueryBeforeTheEventIsRead() throws Exception
    {
        try (EventChannel channel = cm.createEventChannel(); RdmaCmId id = cm.createId(channel))
        {
            id.resolveAddrinfo("10.20.0.2", null, NUMERIC);
            assertEquals(1, id.queryAddrinfo().size());
            assertEquals(1, channel.pendingEvents());
        }
    }

    @Test
    void shouldRefuseASecondResolutionWithEbusyUntilTheFirstIsQueried() throws Exception
    {
        try (EventChannel channel = cm.createEventChannel(); RdmaCmId id = cm.createId(channel))
        {
            id.resolveAddrinfo("10.20.0.2", null, NUMERIC);
            channel.getEvent(WAIT).ack();
            final RdmaCmException busy = assertThrows(RdmaCmException.class, () -> id.resolveAddrinfo("10.20.0.3", null, NUMERIC));
            assertEquals(Errno.EBUSY, busy.errno());
            assertTrue(busy.returnedByCall());
            id.queryAddrinfo();
            id.resolveAddrinfo("10.20.0.3", null, NUMERIC);
            assertEquals(new Ipv4Sockaddr(0x0a14_0003, 0), id.queryAddrinfo().get(0).dstAddr());
        }
    }

    @Test
    void shouldHandTheEntriesOverOnceThenAnswerEnoent() throws Exception
    {
        try (EventChannel channel = cm.createEventChannel(); RdmaCmId id = cm.createId(channel))
        {
            id.resolveAddrinfo("10.20.0.2", null, NUMERIC);
            id.queryAddrinfo();
            assertEquals(Errno.ENOENT, assertThrows(RdmaCmException.class, id::queryAddrinfo).errno());
        }
    }

    @Test
    void shouldReturnTheEaiCodeAsErrnoAndPostNoEvent() throws Exception
    {
        try (EventChannel channel = cm.createEventChannel(); RdmaCmId id = cm.createId(channel))
        {
            final RdmaCmException failed = assertThrows(RdmaCmException.class, () -> id.resolveAddrinfo("not-an-address", null, NUMERIC));
            assertEquals(EaiCode.EAI_NONAME, failed.errno());
            assertEquals(0, channel.pendingEvents());
            assertEquals(Errno.ENOENT, assertThrows(RdmaCmException.class, id::queryAddrinfo).errno());
        }
    }

    @Test
    void shouldAcceptANewResolutionAfterAFailedOne() throws Exception
    {
        try (RdmaCmId id = cm.createId(null))
        {
            assertThrows(RdmaCmException.class, () -> id.resolveAddrinfo("not-an-address", null, NUMERIC));
            id.resolveAddrinfo("10.20.0.2", null, NUMERIC);
            assertEquals(1, id.queryAddrinfo().size());
        }
    }

    @Test
    void shouldOverwriteAnErrnoFailureOfGetaddrinfoWithMinusOne()
    {
        try (RdmaCmId id = cm.createId(null))
        {
            assertEquals(-1, assertThrows(RdmaCmException.class, () -> id.resolveAddrinfo(null, null, null)).errno());
        }
    }

    @Test
    void shouldRefuseSaWithDnsOrANodeWithEnotsupAndWithoutAServiceWithMinusOne()
    {
        try (RdmaCmId id = cm.createId(null))
        {
            final RdmaAddrInfoHints sa = RdmaAddrInfoHints.NONE.withFlags(RaiFlags.SA);
            assertEquals(Errno.EOPNOTSUPP, assertThrows(RdmaCmException.class,
                () -> id.resolveAddrinfo(null, "1", sa.withFlags(RaiFlags.SA | RaiFlags.DNS))).errno());
            assertEquals(Errno.EOPNOTSUPP, assertThrows(RdmaCmException.class, () -> id.resolveAddrinfo("10.20.0.2", "1", sa)).errno());
            assertEquals(-1, assertThrows(RdmaCmException.class, () -> id.resolveAddrinfo(null, null, sa)).errno());
        }
    }

    @Test
    void shouldAnswerEnoentToAQueryWhileTheResolutionIsInProgress() throws Exception
    {
        final AddrinfoSlot slot = new AddrinfoSlot();
        slot.begin();
        assertEquals(Errno.ENOENT, assertThrows(RdmaCmException.class, slot::take).errno());
        assertEquals(Errno.EBUSY, assertThrows(RdmaCmException.class, slot::begin).errno());
        assertEquals(AddrinfoSlot.Phase.RESOLVING, slot.phase());
    }

    @Test
    void shouldDeliverAUserEventWithItsStatusAndArgUnchanged() throws Exception
    {
        try (EventChannel channel = cm.createEventChannel(); RdmaCmId id = cm.createId(channel))
        {
            id.writeCmEvent(CmEventType.USER, -110, 0xffff_ffff_ffff_fffeL);
            final CmEvent event = channel.getEvent(WAIT);
            event.ack();
            assertEquals(new CmEvent.User(id, -110, 0xffff_ffff_ffff_fffeL), event);
            assertEquals(-110, event.status());
        }
    }

    @Test
    void shouldWakeAThreadBlockedOnTheChannelWithAUserEvent() throws Exception
    {
        try (EventChannel channel = cm.createEventChannel(); RdmaCmId id = cm.createId(channel))
        {
            final CountDownLatch waiting = new CountDownLatch(1);
            final CompletableFuture<CmEvent> woken = CompletableFuture.supplyAsync(() ->
            {
                waiting.countDown();
                try
                {
                    return channel.getEvent(WAIT);
                }
                catch (final InterruptedException ex)
                {
                    throw new IllegalStateException(ex);
                }
            });
            waiting.await();
            id.writeCmEvent(CmEventType.USER, 0, 42);
            final CmEvent event = woken.get();
            event.ack();
            assertEquals(new CmEvent.User(id, 0, 42), event);
        }
    }

    @Test
    void shouldRefuseToWriteAnyEventButUserWithEinval() throws Exception
    {
        try (EventChannel channel = cm.createEventChannel(); RdmaCmId id = cm.createId(channel))
        {
            for (final CmEventType type : List.of(CmEventType.ADDR_RESOLVED, CmEventType.ADDRINFO_RESOLVED, CmEventType.TIMEWAIT_EXIT))
            {
                assertEquals(Errno.EINVAL, assertThrows(RdmaCmException.class, () -> id.writeCmEvent(type, 0, 0)).errno(), type.name());
            }
            assertNull(channel.pollEvent());
        }
    }

    @Test
    void shouldRefuseAddrinfoCallsOnADestroyedId()
    {
        final RdmaCmId id = cm.createId(null);
        id.destroy();
        assertEquals(Errno.EINVAL, assertThrows(RdmaCmException.class, () -> id.resolveAddrinfo("10.20.0.2", null, NUMERIC)).errno());
        assertEquals(Errno.EINVAL, assertThrows(RdmaCmException.class, () -> id.writeCmEvent(CmEventType.USER, 0, 0)).errno());
    }
}
