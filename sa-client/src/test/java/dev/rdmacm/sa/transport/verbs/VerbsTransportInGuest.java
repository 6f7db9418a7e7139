package dev.rdmacm.sa.transport.verbs;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.ProcessCapabilities;
import dev.rdmacm.libc.testing.WithoutCapability;
import dev.rdmacm.protocol.Lid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.protocol.mad.Gsi;
import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.protocol.sa.PathRecordComponentMask;
import dev.rdmacm.protocol.sa.SaAttribute;
import dev.rdmacm.protocol.sa.SaMad;
import dev.rdmacm.sa.MadRecorder;
import dev.rdmacm.sa.RetryPolicy;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaClientConfig;
import dev.rdmacm.sa.SaCounter;
import dev.rdmacm.sa.SaError;
import dev.rdmacm.sa.SaQueryException;
import dev.rdmacm.sa.path.PathQuery;
import dev.rdmacm.sa.path.PathRecordValue;
import dev.rdmacm.sa.path.PathRecords;
import dev.rdmacm.sa.testing.TestSaOverUmad;
import dev.rdmacm.sa.testing.TestSaOverUmad.Received;
import dev.rdmacm.sa.testing.TestSaOverUmad.Script;
import dev.rdmacm.sa.testing.TestSaOverUmad.Sent;
import dev.rdmacm.sa.transport.FabricSpec;
import dev.rdmacm.sa.transport.LocalPort;
import dev.rdmacm.protocol.mad.MadAddress;
import dev.rdmacm.sa.transport.MadReceiver;
import dev.rdmacm.sa.transport.MadTransportException;
import dev.rdmacm.testing.Peers;
import dev.rdmacm.verbs.AddressHandle;
import dev.rdmacm.verbs.AddressVector;
import dev.rdmacm.verbs.CompletionQueue;
import dev.rdmacm.verbs.IbvConstants;
import dev.rdmacm.verbs.MemoryRegion;
import dev.rdmacm.verbs.ProtectionDomain;
import dev.rdmacm.verbs.QueuePairCapabilities;
import dev.rdmacm.verbs.UdQueuePair;
import dev.rdmacm.verbs.Verbs;
import dev.rdmacm.verbs.VerbsContext;
import dev.rdmacm.verbs.VerbsException;
import dev.rdmacm.verbs.WorkCompletions;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static dev.rdmacm.sa.transport.verbs.SoftRoceLan.CLIENT;
import static dev.rdmacm.sa.transport.verbs.SoftRoceLan.CLIENT_GID;
import static dev.rdmacm.sa.transport.verbs.SoftRoceLan.SA;
import static dev.rdmacm.sa.transport.verbs.SoftRoceLan.SA_GID;
import static dev.rdmacm.sa.transport.verbs.SoftRoceLan.STRANGER;
import static java.nio.ByteOrder.BIG_ENDIAN;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The verbs MAD transport on a real kernel: SubnAdmGets from a UD QP on rxe0 to QP1 of rxe1, where
 * the umad SA test double answers through the kernel's GSI, on {@link SoftRoceLan}. Run inside the
 * guest that {@code SoftRoceGuestsTest} boots; every assertion is on what the double
 * received and sent, byte for byte, or on what came back through the QP.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public class VerbsTransportInGuest
{
    private static final String FABRIC = "verbs:" + CLIENT + ":1:sa-gid=" + SA_GID;
    private static final Duration READY = Duration.ofSeconds(10);
    /** How long the double's log may lag behind what the client already saw. */
    private static final Duration SETTLE = Duration.ofSeconds(5);
    private static final Duration SECOND = Duration.ofSeconds(1);
    /** Far longer than any answer here took to arrive once sent (milliseconds): waited out to show one never does. */
    private static final Duration ARRIVAL = Duration.ofSeconds(2);
    /** Three retries a second apart within three seconds: wide enough that TCG's hiccups change no count. */
    private static final RetryPolicy EVERY_SECOND = new RetryPolicy(3, SECOND, 4, Duration.ofSeconds(60));
    private static final PathQuery TO_THE_SA_PORT = PathQuery.byGids(CLIENT_GID, SA_GID);
    private static final int PATH_RECORD_LENGTH = 64;
    /** Any Q_Key without bit 31 (ibv_ud_pingpong's). */
    private static final long UNPRIVILEGED_QKEY = 0x1111_1111L;
    private static final int RECEIVE_SLOT = IbvConstants.GRH_LENGTH + MadHeader.MAD_SIZE;

    private static Path binary;
    private static Path logs;

    private final List<byte[]> sentMads = new CopyOnWriteArrayList<>();
    private final MadRecorder recorder = (sent, localLid, remoteLid, remoteQp, buffer, offset, length) ->
    {
        if (sent)
        {
            sentMads.add(copy(buffer, offset, length));
        }
    };
    private TestSaOverUmad sa;
    private SaClient client;

    @BeforeAll
    static void findTheDouble() throws IOException
    {
        Peers.require(Files.exists(Path.of("/sys/class/infiniband", SA)) && Files.exists(Path.of("/sys/class/infiniband", STRANGER)),
            "the Soft-RoCE LAN of SoftRoceLan (rxe0..rxe2): SoftRoceGuestsTest boots a guest with it");
        final String share = System.getenv("RDMACM_GUEST_SHARE");
        logs = share != null ? Path.of(share) : Files.createTempDirectory("verbs-transport");
        final Path built = logs.resolve(TestSaOverUmad.BINARY_NAME);
        binary = Files.isExecutable(built) ? built : TestSaOverUmad.compile(logs);
    }

    @AfterEach
    void stopEverything()
    {
        if (client != null)
        {
            client.close();
        }
        if (sa != null)
        {
            // Its agent goes with its file descriptor: the next test's double (or none) has the SA class to itself.
            sa.close();
        }
    }

    @Test
    void shouldDecodeTheRecordTheSaSentFromQp1OfAnotherDevice(final TestInfo test) throws Exception
    {
        startSa(test, Script.answering());
        start(SaClientConfig.defaults());

        final PathRecordValue path = getPath(Duration.ofSeconds(10));

        final Sent answer = sa.awaitSent(TestSaOverUmad.PATH_RECORD, 1, SETTLE).get(0);
        assertEquals(SA, answer.from());
        assertEquals(PathRecordValue.decode(Arrays.copyOfRange(answer.mad(), SaMad.DATA_OFFSET, SaMad.DATA_OFFSET + PATH_RECORD_LENGTH)),
            path);
        assertEquals(new PathRecordValue(0, SA_GID, CLIENT_GID, Lid.of(0), Lid.of(0), false, 0x5a5a5, 64, 0, true, 1, PKey.of(0xffff), 0, 3, 2, 3, 2, 3, 2, 18, 0),
            path);
    }

    @Test
    void shouldDeliverTheGetToQp1ByteForByteFromOurQpAndGid(final TestInfo test) throws Exception
    {
        startSa(test, Script.answering());
        final VerbsTransport transport = VerbsTransport.open(CLIENT, 1, SA_GID);
        final int ourQp = transport.qpNumber();
        client = SaClient.start(transport, SaClientConfig.defaults().withCacheTtl(Duration.ZERO).withRecorder(recorder));

        getPath(Duration.ofSeconds(10));

        final Received get = sa.awaitReceived(TestSaOverUmad.PATH_RECORD, 1, SETTLE).get(0);
        final byte[] ours = sentMads.stream().filter(mad -> attribute(mad) == SaAttribute.PATH_RECORD).findFirst().orElseThrow();
        assertArrayEquals(ours, get.mad());
        assertEquals(0x01, get.method());
        assertEquals(PathRecordComponentMask.SGID | PathRecordComponentMask.DGID | PathRecordComponentMask.REVERSIBLE |
            PathRecordComponentMask.NUMB_PATH, get.componentMask());
        assertEquals(ourQp, get.qpn());
        assertEquals(0, get.lid());
        assertTrue(get.grh(), "the kernel saw no GRH on the Get");
        assertEquals(CLIENT_GID, get.gid());
        assertEquals(SoftRoceLan.IPV4_GID_INDEX, get.gidIndex());
    }

    @Test
    void shouldBeAnsweredWithTheGsiQkeyItsQpWasGiven(final TestInfo test) throws Exception
    {
        startSa(test, Script.answering());
        final VerbsTransport transport = VerbsTransport.open(CLIENT, 1, SA_GID);
        final int ourQp = transport.qpNumber();
        client = SaClient.start(transport, SaClientConfig.defaults());

        getPath(Duration.ofSeconds(10));

        final Sent answer = sa.awaitSent(TestSaOverUmad.PATH_RECORD, 1, SETTLE).get(0);
        assertEquals(Gsi.QKEY, answer.qkey());
        assertEquals(ourQp, answer.qpn());
        assertEquals(CLIENT_GID, answer.gid());
    }

    @Test
    void shouldResendTheSameTidAsTheRetryPolicySaysUntilAnswered(final TestInfo test) throws Exception
    {
        startSa(test, Script.droppingFirst(2));
        start(SaClientConfig.defaults().withRetryPolicy(EVERY_SECOND));

        // A deadline far past the two one-second intervals: under TCG on a loaded host a retry can come
        // late, and that must not turn into a timeout here.
        final PathRecordValue path = getPath(Duration.ofSeconds(10));

        final List<Received> gets = sa.awaitReceived(TestSaOverUmad.PATH_RECORD, 3, SETTLE);
        assertEquals(3, gets.size(), sa.log());
        final long tid = tid(sentMads.stream().filter(mad -> attribute(mad) == SaAttribute.PATH_RECORD).findFirst().orElseThrow());
        assertEquals(List.of(tid, tid, tid), gets.stream().map(Received::tid).toList());
        for (int i = 1; i < gets.size(); i++)
        {
            final long gapMicros = gets.get(i).micros() - gets.get(i - 1).micros();
            // The interval is never shortened (less the wire's jitter); a late one only means a loaded host,
            // so the upper bound catches a lost timer, not a slow one.
            assertTrue(gapMicros > 950_000 && gapMicros < 5_000_000, "retry " + i + " came " + gapMicros + " us after the last\n"
                + sa.log());
        }
        assertEquals(2, client.counters().get(SaCounter.RETRIES_SENT));
        assertEquals(1, client.counters().get(SaCounter.SA_QUERIES_SENT));
        assertEquals(List.of(tid), sa.awaitSent(TestSaOverUmad.PATH_RECORD, 1, SETTLE).stream().map(Sent::tid).toList());
        assertEquals(3, path.sl());
    }

    @Test
    void shouldFailWithEtimedoutAfterTheLastRetryWhenTheSaNeverAnswers(final TestInfo test) throws Exception
    {
        startSa(test, Script.silent());
        start(SaClientConfig.defaults().withRetryPolicy(EVERY_SECOND));
        final long started = System.nanoTime();

        final ExecutionException ex = assertThrows(ExecutionException.class,
            () -> PathRecords.query(client, TO_THE_SA_PORT, Duration.ofSeconds(3)).get(10, TimeUnit.SECONDS));

        final long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        final SaQueryException failure = (SaQueryException)ex.getCause();
        assertEquals(SaError.TIMED_OUT, failure.error());
        assertEquals(-1, failure.madStatus());
        assertTrue(elapsedMillis >= 3000 && elapsedMillis < 10_000, "failed after " + elapsedMillis + " ms");
        // Two retries fit in 3 s at one a second; a loaded host may fit only one before the deadline, never three.
        final List<Received> gets = sa.awaitReceived(TestSaOverUmad.PATH_RECORD, 3, SETTLE);
        assertTrue(gets.size() == 2 || gets.size() == 3, sa.log());
        assertEquals(TO_THE_SA_PORT.toRequest().description() + ": no answer from the SA at GID " + SA_GID +
            " within 3000 ms (" + (gets.size() - 1) + " retries, ETIMEDOUT)", failure.getMessage());
        assertEquals(1, gets.stream().map(Received::tid).distinct().count(), sa.log());
        assertEquals(List.of(), sa.sent());
    }

    @Test
    void shouldDropTheAnswerFromAnotherGidAndAcceptTheSasOwn(final TestInfo test) throws Exception
    {
        startSa(test, Script.answeringFirstFrom(STRANGER));
        start(SaClientConfig.defaults().withRetryPolicy(EVERY_SECOND));

        final PathRecordValue path = getPath(Duration.ofSeconds(3));

        final List<Sent> answers = sa.awaitSent(TestSaOverUmad.PATH_RECORD, 2, SETTLE);
        assertEquals(List.of(STRANGER, SA), answers.stream().map(Sent::from).toList(), sa.log());
        assertEquals(answers.get(0).tid(), answers.get(1).tid());
        assertEquals(7, PathRecordValue.decode(Arrays.copyOfRange(answers.get(0).mad(), SaMad.DATA_OFFSET,
            SaMad.DATA_OFFSET + PATH_RECORD_LENGTH)).sl(), "the stranger's answer was a valid one, but for its SL");
        assertEquals(3, path.sl());
        assertEquals(1, client.counters().get(SaCounter.DROPPED_WRONG_SOURCE), client.counters().toString());
        assertEquals(1, client.counters().get(SaCounter.RETRIES_SENT));
    }

    @Test
    void shouldFailWithTheKernelsOwnAnswerWhenNoSaListensOnQp1() throws Exception
    {
        start(SaClientConfig.defaults().withRetryPolicy(EVERY_SECOND));

        final ExecutionException ex = assertThrows(ExecutionException.class,
            () -> PathRecords.query(client, TO_THE_SA_PORT, Duration.ofSeconds(3)).get(10, TimeUnit.SECONDS));

        // No agent holds the SA class on rxe1: its MAD layer answers every request itself (mad.c,
        // unmatched requests) with "method/attribute not supported", from QP1 and rxe1's own GID.
        final SaQueryException failure = (SaQueryException)ex.getCause();
        assertEquals(SaError.METHOD_ATTRIBUTE_NOT_SUPPORTED, failure.error());
        assertEquals(0x000c, failure.madStatus());
        assertEquals(TO_THE_SA_PORT.toRequest().description() + ": the SA answered METHOD_ATTRIBUTE_NOT_SUPPORTED (MAD status 0x000c)",
            failure.getMessage());
        assertEquals(0, client.counters().get(SaCounter.RETRIES_SENT));
    }

    @Test
    void shouldWakeFromItsWaitWhenTheAnswerArrivesAndNameItsSourceGid(final TestInfo test)
    {
        startSa(test, Script.answering());
        final long tid = 0x5a_0000_0002L;
        try (VerbsTransport transport = VerbsTransport.open(CLIENT, 1, SA_GID))
        {
            final UnsafeBuffer get = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
            pathRecordGet(get, tid);
            final List<String> answers = new ArrayList<>();
            final long started = System.nanoTime();
            final long deadline = started + TimeUnit.SECONDS.toNanos(20);
            int waits = 0;

            assertTrue(transport.send(transport.localPort().saAddress(), get, 0, MadHeader.MAD_SIZE));
            while (answers.isEmpty() && System.nanoTime() - deadline < 0)
            {
                // Only a completion event can end this wait early: nothing else wakes it, no timer is due.
                transport.awaitReadable(deadline);
                waits++;
                transport.poll((source, buffer, offset, length) -> answers.add(source + " tid=0x" +
                    Long.toHexString(buffer.getLong(offset + MadHeader.TRANSACTION_ID_OFFSET, BIG_ENDIAN))), 16);
            }

            final long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertEquals(List.of("GID " + SA_GID + " LID 0 QP 1 tid=0x" + Long.toHexString(tid)), answers, sa.log());
            assertTrue(elapsedMillis < 5000, "the answer took " + elapsedMillis + " ms to wake the wait, " + waits + " waits");
        }
    }

    @Test
    void shouldHandOverNoMoreAnswersPerPollThanAskedFor(final TestInfo test) throws Exception
    {
        startSa(test, Script.answering());
        try (VerbsTransport transport = VerbsTransport.open(CLIENT, 1, SA_GID))
        {
            final UnsafeBuffer get = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
            for (long tid = 0x5a_0000_0011L; tid <= 0x5a_0000_0013L; tid++)
            {
                pathRecordGet(get, tid);
                assertTrue(transport.send(transport.localPort().saAddress(), get, 0, MadHeader.MAD_SIZE));
            }
            assertEquals(3, sa.awaitSent(TestSaOverUmad.PATH_RECORD, 3, SETTLE).size(), sa.log());
            // All three answers are in the CQ before the first poll takes them.
            Thread.sleep(ARRIVAL.toMillis());
            final List<Long> tids = new ArrayList<>();
            final MadReceiver collect =
                (source, buffer, offset, length) -> tids.add(buffer.getLong(offset + MadHeader.TRANSACTION_ID_OFFSET, BIG_ENDIAN));

            final List<Integer> handedOver =
                List.of(transport.poll(collect, 1), transport.poll(collect, 1), transport.poll(collect, 1), transport.poll(collect, 1));

            assertEquals(List.of(1, 1, 1, 0), handedOver);
            assertEquals(List.of(0x5a_0000_0011L, 0x5a_0000_0012L, 0x5a_0000_0013L), tids);
        }
    }

    @Test
    void shouldMissTheAnswerOnAQpWithAnyOtherQkey(final TestInfo test) throws Exception
    {
        startSa(test, Script.answering());
        final long tid = 0x5a_0000_0001L;
        try (VerbsContext context = Verbs.open(CLIENT); WorkCompletions completions = new WorkCompletions(4))
        {
            final ProtectionDomain pd = context.allocateProtectionDomain();
            final CompletionQueue cq = context.createCompletionQueue(8, null);
            final UdQueuePair qp = pd.createUdQueuePair(cq, cq, QueuePairCapabilities.forMads()).activate(1, 0, UNPRIVILEGED_QKEY);
            final MemoryRegion region = pd.allocateMemoryRegion(2L * RECEIVE_SLOT, IbvConstants.IBV_ACCESS_LOCAL_WRITE);
            final AddressHandle toSa = pd.createAddressHandle(
                AddressVector.global(1, 0, 0, SA_GID, SoftRoceLan.IPV4_GID_INDEX, 64));
            final UnsafeBuffer get = new UnsafeBuffer(region.memory().asSlice(RECEIVE_SLOT, MadHeader.MAD_SIZE).address(),
                MadHeader.MAD_SIZE);
            pathRecordGet(get, tid);
            qp.postReceive(1, region, 0, RECEIVE_SLOT);

            qp.postSend(2, region, RECEIVE_SLOT, MadHeader.MAD_SIZE, toSa, Gsi.QPN, Gsi.QKEY, true);

            final Sent answer = sa.awaitSent(TestSaOverUmad.PATH_RECORD, 1, SETTLE).get(0);
            assertEquals(tid, answer.tid());
            assertEquals(qp.qpNumber(), answer.qpn());
            assertEquals(Gsi.QKEY, answer.qkey());
            // The answer went out with the GSI Q_Key; a QP with another one drops it without a completion.
            final List<Integer> opcodes = new ArrayList<>();
            final long deadline = System.nanoTime() + ARRIVAL.toNanos();
            while (System.nanoTime() - deadline < 0)
            {
                final int count = cq.poll(completions);
                for (int i = 0; i < count; i++)
                {
                    opcodes.add(completions.opcode(i));
                }
                Thread.sleep(20);
            }
            assertEquals(List.of(IbvConstants.IBV_WC_SEND), opcodes, "only our send completed; the answer never arrived");
        }
    }

    @Test
    void shouldNameCapNetRawWhenTheKernelRefusesTheGsiQkey()
    {
        final MadTransportException ex = assertThrows(MadTransportException.class,
            () -> WithoutCapability.call(ProcessCapabilities.CAP_NET_RAW, () ->
            {
                FabricSpec.parse(FABRIC).open(SECOND).close();
                return null;
            }));

        final VerbsException cause = (VerbsException)ex.getCause();
        assertEquals("ibv_modify_qp", cause.call());
        assertEquals(Errno.EPERM, cause.errno());
        assertTrue(ex.getMessage().startsWith("verbs device " + CLIENT + " port 1: ibv_modify_qp failed: errno 1 EPERM"), ex.getMessage());
        assertTrue(ex.getMessage().contains("the kernel refused the privileged Q_Key 0x80010000 (bit 31 set): setting it needs CAP_NET_RAW"),
            ex.getMessage());
    }

    @Test
    void shouldSayThatARocePortNeedsTheSaGid()
    {
        final MadTransportException ex = assertThrows(MadTransportException.class,
            () -> FabricSpec.parse("verbs:" + CLIENT + ":1").open(SECOND));

        assertEquals("verbs device " + CLIENT + " port 1: an Ethernet (RoCE) port has no LIDs and no SM to find the SA by: " +
            "name the SA by its GID: verbs:" + CLIENT + ":1:sa-gid=GID", ex.getMessage());
    }

    @Test
    void shouldSendFromThePortsIpv4RoceGidToTheSaGid()
    {
        try (VerbsTransport transport = VerbsTransport.open(CLIENT, 1, SA_GID))
        {
            final LocalPort port = transport.localPort();

            assertEquals(CLIENT + ":1", port.name());
            assertEquals(0, port.lid());
            assertEquals(CLIENT_GID, port.gid());
            assertEquals(MadAddress.gsi(0, 0, SA_GID), port.saAddress());
        }
    }

    private void startSa(final TestInfo test, final Script script)
    {
        final String name = test.getTestMethod().orElseThrow().getName();
        sa = TestSaOverUmad.start(binary, SA, script, logs.resolve("test-sa-" + name + ".log"), READY);
    }

    private void start(final SaClientConfig config)
    {
        // No cache: every test's query must reach the wire.
        client = SaClient.start(FabricSpec.parse(FABRIC).open(SECOND), config.withCacheTtl(Duration.ZERO).withRecorder(recorder));
    }

    private PathRecordValue getPath(final Duration timeout) throws Exception
    {
        final List<PathRecordValue> paths;
        try
        {
            paths = PathRecords.query(client, TO_THE_SA_PORT, timeout).get(timeout.toSeconds() + 10, TimeUnit.SECONDS);
        }
        catch (final ExecutionException ex)
        {
            throw new AssertionError("the query failed: " + ex.getCause() + "\n" + client.counters() + "\n" + sa.log(), ex);
        }
        assertEquals(1, paths.size());
        return paths.get(0);
    }

    /** A PathRecord Get as the engine would send it, written by hand for the tests that bypass the engine. */
    private static void pathRecordGet(final MutableDirectBuffer mad, final long tid)
    {
        new SaMad().wrap(mad, 0).initRequest(0x01, tid, SaAttribute.PATH_RECORD).attributeOffset(PATH_RECORD_LENGTH / 8)
            .componentMask(TO_THE_SA_PORT.componentMask());
        mad.putBytes(SaMad.DATA_OFFSET, TO_THE_SA_PORT.encode());
    }

    private static byte[] copy(final DirectBuffer buffer, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return bytes;
    }

    private static int attribute(final byte[] mad)
    {
        return ((mad[MadHeader.ATTRIBUTE_ID_OFFSET] & 0xff) << 8) | (mad[MadHeader.ATTRIBUTE_ID_OFFSET + 1] & 0xff);
    }

    private static long tid(final byte[] mad)
    {
        return new UnsafeBuffer(mad).getLong(MadHeader.TRANSACTION_ID_OFFSET, BIG_ENDIAN);
    }
}
