package dev.rdmacm.sa.multicast;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.sa.McMemberRecord.JoinState;
import dev.rdmacm.protocol.sa.McMemberRecordComponentMask;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaClientConfig;
import dev.rdmacm.sa.SaCounter;
import dev.rdmacm.sa.testing.FaultInjectingTransport;
import dev.rdmacm.sa.testing.Faults;
import dev.rdmacm.sa.testing.SimulatedFabricExtension;
import dev.rdmacm.sa.transport.ibsim.IbsimTransport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static dev.rdmacm.sa.multicast.OpenSmGroups.IPOIB_BROADCAST;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The per-port membership table against OpenSM on ibsim: one SA membership per group however many
 * members join, the Delete with the last leave, and no membership left behind by a failed join. The
 * table runs on one owner thread, as on the conductor; the SA faults come from
 * {@link FaultInjectingTransport}, the test double for what OpenSM cannot be made to do (drop MADs).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MulticastMembershipsAgainstOpenSmTest
{
    @RegisterExtension
    static final SimulatedFabricExtension FABRIC = SimulatedFabricExtension.perClass();
    private static final Duration TIMEOUT = Duration.ofSeconds(3);

    private final ExecutorService owner = Executors.newSingleThreadExecutor(r -> new Thread(r, "memberships-owner"));
    private SaClient sa;
    private MulticastMemberships table;

    @AfterEach
    void stop()
    {
        owner.shutdownNow();
        if (sa != null)
        {
            sa.close();
        }
    }

    private void open(final String node, final Faults faults)
    {
        final IbsimTransport ibsim = IbsimTransport.attach(FABRIC.fabric().host(), FABRIC.fabric().ctlPort(), node,
            Duration.ofSeconds(2));
        sa = SaClient.start(faults == null ? ibsim : new FaultInjectingTransport(ibsim, faults, 33),
            SaClientConfig.defaults());
        table = new MulticastMemberships(sa, TIMEOUT, answer -> owner.execute(() -> table.onAnswer(answer)));
    }

    private <T> T onOwner(final Callable<T> call) throws Exception
    {
        return owner.submit(call).get(10, TimeUnit.SECONDS);
    }

    private McMemberRecordValue record(final Gid mgid, final int state) throws Exception
    {
        final McMemberRecordValue broadcast;
        try (SaClient plain = OpenSmGroups.attach(FABRIC.fabric(), "Hca2"))
        {
            broadcast = McMemberRecords.group(plain, IPOIB_BROADCAST, TIMEOUT).join();
        }
        return OpenSmGroups.kernelJoin(broadcast, mgid, sa.localPort().gid(), state);
    }

    /** A listener whose outcome is a future: the group's record, or the status as an exception's message. */
    private static final class Outcome implements MulticastMemberships.Listener
    {
        final CompletableFuture<McMemberRecordValue> joined = new CompletableFuture<>();
        final CompletableFuture<Integer> failed = new CompletableFuture<>();

        @Override
        public void joined(final McMemberRecordValue group)
        {
            joined.complete(group);
        }

        @Override
        public void failed(final int status)
        {
            failed.complete(status);
        }
    }

    private MulticastMemberships.Member join(final McMemberRecordValue record, final Outcome outcome) throws Exception
    {
        return onOwner(() -> table.join(record, McMemberRecordComponentMask.KERNEL_JOIN, outcome));
    }

    private void leave(final MulticastMemberships.Member member) throws Exception
    {
        onOwner(() ->
        {
            table.leave(member);
            return null;
        });
    }

    private long submitted()
    {
        return sa.counters().get(SaCounter.QUERIES_SUBMITTED);
    }

    private void awaitNoGroups() throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (onOwner(table::groupCount) != 0 && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        assertEquals(0, onOwner(table::groupCount));
    }

    @Test
    void shouldSendOneSetForTwoJoinsOfAGroupAndTheDeleteWithTheLastLeave() throws Exception
    {
        open("Hca2", null);
        final Gid mgid = Gid.parse("ff12:4001:ffff::a01:101");
        final McMemberRecordValue record = record(mgid, JoinState.FULL_MEMBER);
        final Outcome first = new Outcome();
        final Outcome second = new Outcome();

        final MulticastMemberships.Member a = join(record, first);
        final McMemberRecordValue group = first.joined.get(5, TimeUnit.SECONDS);
        final long afterFirst = submitted();
        final MulticastMemberships.Member b = join(record, second);

        assertEquals(group, second.joined.get(5, TimeUnit.SECONDS));
        assertEquals(afterFirst, submitted());
        assertEquals(JoinState.FULL_MEMBER, onOwner(() -> table.heldAtSa(mgid)));

        leave(a);
        assertEquals(afterFirst, submitted());
        assertNotNull(OpenSmGroups.member(FABRIC.fabric(), "Hca3", mgid, sa.localPort().gid()));

        leave(b);
        awaitNoGroups();
        assertEquals(afterFirst + 1, submitted());
        assertNull(OpenSmGroups.member(FABRIC.fabric(), "Hca3", mgid, sa.localPort().gid()));
    }

    @Test
    void shouldFailASecondJoinWhoseQkeyDiffersFromTheGroupsWithEinvalAndNoMad() throws Exception
    {
        open("Hca2", null);
        final Gid mgid = Gid.parse("ff12:4001:ffff::a01:102");
        final McMemberRecordValue record = record(mgid, JoinState.FULL_MEMBER);
        final Outcome first = new Outcome();
        final MulticastMemberships.Member a = join(record, first);
        first.joined.get(5, TimeUnit.SECONDS);
        final long afterFirst = submitted();
        final Outcome second = new Outcome();

        join(record.withQkey(0x1b1b), second);

        assertEquals(-Errno.EINVAL, second.failed.get(5, TimeUnit.SECONDS));
        assertEquals(afterFirst, submitted());
        leave(a);
        awaitNoGroups();
    }

    @Test
    void shouldReportTheSasRefusalAsEinvalAndKeepNoGroup() throws Exception
    {
        open("Hca2", null);
        final Outcome refused = new Outcome();

        join(record(IPOIB_BROADCAST, JoinState.FULL_MEMBER), refused);

        assertEquals(-Errno.EINVAL, refused.failed.get(5, TimeUnit.SECONDS));
        awaitNoGroups();
        assertNull(OpenSmGroups.member(FABRIC.fabric(), "Hca3", IPOIB_BROADCAST, sa.localPort().gid()));
    }

    @Test
    void shouldReportADroppedSetAsEtimedoutWithinTheTimeoutAndKeepNoGroup() throws Exception
    {
        open("Hca2", Faults.NONE.withDropSent(1.0));
        final Gid mgid = Gid.parse("ff12:4001:ffff::a01:103");
        final Outcome dropped = new Outcome();
        final long start = System.nanoTime();

        join(record(mgid, JoinState.FULL_MEMBER), dropped);

        assertEquals(-Errno.ETIMEDOUT, dropped.failed.get(TIMEOUT.toMillis() + 2000, TimeUnit.MILLISECONDS));
        assertEquals(true, System.nanoTime() - start >= TIMEOUT.toNanos());
        awaitNoGroups();
        assertNull(OpenSmGroups.member(FABRIC.fabric(), "Hca3", mgid, sa.localPort().gid()));
    }

    @Test
    void shouldLeaveAgainWhatASetAnsweredAfterItsMemberLeft() throws Exception
    {
        open("Hca2", Faults.NONE.withDelay(1.0, Duration.ofMillis(200)));
        final Gid mgid = Gid.parse("ff12:4001:ffff::a01:104");
        final Outcome gone = new Outcome();

        final MulticastMemberships.Member member = join(record(mgid, JoinState.FULL_MEMBER), gone);
        leave(member);

        awaitNoGroups();
        assertEquals(false, gone.joined.isDone() || gone.failed.isDone());
        assertNull(OpenSmGroups.member(FABRIC.fabric(), "Hca3", mgid, sa.localPort().gid()));
    }
}
