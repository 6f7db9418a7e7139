package dev.rdmacm.acm;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.acm.AcmEpAddrData;
import dev.rdmacm.protocol.acm.AcmEpFlags;
import dev.rdmacm.protocol.acm.AcmEpType;
import dev.rdmacm.protocol.acm.AcmHeader;
import dev.rdmacm.protocol.acm.AcmMessage;
import dev.rdmacm.protocol.acm.AcmOp;
import dev.rdmacm.protocol.acm.AcmStatus;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static dev.rdmacm.acm.AcmRequests.header;
import static dev.rdmacm.acm.AcmRequests.ipv4;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Malformed, truncated, fuzzed and slow clients: every request gets exactly one reply whose length
 * is the bytes sent, with the status ibacm's rules give; no client is disconnected by the server and
 * none disturbs another.
 */
class AcmServerRobustnessTest
{
    /** A bound for a hang, not a measurement: replies come in milliseconds, and only a fault takes this long. */
    private static final long TIMEOUT_MS = 30_000;
    private static final int SOURCE = ipv4("192.0.2.2");
    private static final int DEST = ipv4("192.0.2.3");

    private static AcmServerFixture fixture;

    @BeforeAll
    static void startServer() throws IOException
    {
        fixture = AcmServerFixture.start("", AcmPathQuerier.NONE);
    }

    @AfterAll
    static void stopServer()
    {
        if (fixture != null)
        {
            fixture.close();
        }
    }

    private static RawAcmClient client() throws IOException
    {
        return new RawAcmClient(fixture.unixSocket());
    }

    private static int statusOf(final byte[] request) throws IOException
    {
        return header(exchange(request)).status();
    }

    /** The one reply to {@code request}, whose length field equals the bytes sent. */
    private static byte[] exchange(final byte[] request) throws IOException
    {
        try (RawAcmClient client = client())
        {
            client.send(request);
            final byte[] reply = client.receive(TIMEOUT_MS);
            assertEquals(reply.length, header(reply).length(), "reply length field equals the bytes sent");
            assertTrue(client.nothingBeforeMarker(TIMEOUT_MS), "exactly one reply");
            return reply;
        }
    }

    private static byte[] resolveWith(final long[] flags, final int[] types)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[AcmMessage.resolveLength(flags.length)]);
        new AcmHeader().wrap(buffer, 0).version(1).opcode(AcmOp.RESOLVE).length(buffer.capacity());
        for (int i = 0; i < flags.length; i++)
        {
            new AcmEpAddrData().wrap(buffer, AcmHeader.LENGTH + i * AcmEpAddrData.LENGTH).flags(flags[i]).type(types[i])
                .ipv4(SOURCE + i);
        }
        return buffer.byteArray();
    }

    private static void assertStillServing() throws IOException
    {
        assertEquals(AcmStatus.SUCCESS, statusOf(AcmRequests.resolveIp(SOURCE, DEST, AcmEpFlags.DEST)));
    }

    @Test
    void shouldAnswerWrongVersionWithEinvalAndKeepTheConnection() throws IOException
    {
        final byte[] request = AcmRequests.perfQuery();
        request[0] = 2;
        try (RawAcmClient client = client())
        {
            client.send(request);
            final AcmHeader reply = header(client.receive(TIMEOUT_MS));
            assertEquals(AcmStatus.EINVAL, reply.status());
            assertEquals(AcmOp.PERF_QUERY | AcmOp.ACK, reply.opcode());
            client.send(AcmRequests.perfQuery());
            assertEquals(AcmStatus.SUCCESS, header(client.receive(TIMEOUT_MS)).status());
        }
    }

    @Test
    void shouldAnswerUnknownOpcodeWithEinval() throws IOException
    {
        final byte[] request = AcmRequests.perfQuery();
        request[1] = 0x05;
        assertEquals(AcmStatus.EINVAL, statusOf(request));
    }

    @Test
    void shouldAnswerLengthBelowHeaderWithEinval() throws IOException
    {
        final byte[] request = AcmRequests.resolveIp(SOURCE, DEST, AcmEpFlags.DEST);
        final byte[] header = new byte[AcmHeader.LENGTH];
        System.arraycopy(request, 0, header, 0, AcmHeader.LENGTH);
        new AcmHeader().wrap(new UnsafeBuffer(header), 0).length(3);
        assertEquals(AcmStatus.EINVAL, statusOf(header));
    }

    @Test
    void shouldDiscardOversizedMessageThenAnswerEinvalOnce() throws IOException
    {
        final byte[] request = new byte[5000];
        new AcmHeader().wrap(new UnsafeBuffer(request), 0).version(1).opcode(AcmOp.RESOLVE).length(request.length);
        try (RawAcmClient client = client())
        {
            client.send(request);
            assertEquals(AcmStatus.EINVAL, header(client.receive(TIMEOUT_MS)).status());
            client.send(AcmRequests.resolveIp(SOURCE, DEST, AcmEpFlags.DEST));
            assertEquals(AcmStatus.SUCCESS, header(client.receive(TIMEOUT_MS)).status());
        }
    }

    @Test
    void shouldAnswerPartialEntryWithEinval() throws IOException
    {
        final byte[] request = new byte[AcmHeader.LENGTH + 50];
        new AcmHeader().wrap(new UnsafeBuffer(request), 0).version(1).opcode(AcmOp.RESOLVE).length(request.length);
        assertEquals(AcmStatus.EINVAL, statusOf(request));
    }

    @Test
    void shouldAnswerEmptyResolveWithEdesttype() throws IOException
    {
        final byte[] request = new byte[AcmHeader.LENGTH];
        new AcmHeader().wrap(new UnsafeBuffer(request), 0).version(1).opcode(AcmOp.RESOLVE).length(request.length);
        assertEquals(AcmStatus.EDESTTYPE, statusOf(request));
    }

    @Test
    void shouldRejectTwoSourcesWithEsrcaddr() throws IOException
    {
        assertEquals(AcmStatus.ESRCADDR, statusOf(resolveWith(new long[] {AcmEpFlags.SOURCE, AcmEpFlags.SOURCE,
            AcmEpFlags.DEST}, new int[] {AcmEpType.ADDRESS_IP, AcmEpType.ADDRESS_IP, AcmEpType.ADDRESS_IP})));
    }

    @Test
    void shouldRejectTwoDestinationsWithEdestaddr() throws IOException
    {
        assertEquals(AcmStatus.EDESTADDR, statusOf(resolveWith(new long[] {AcmEpFlags.DEST, AcmEpFlags.DEST},
            new int[] {AcmEpType.ADDRESS_IP, AcmEpType.ADDRESS_IP})));
    }

    @Test
    void shouldRejectMissingDestinationWithEdesttype() throws IOException
    {
        assertEquals(AcmStatus.EDESTTYPE, statusOf(resolveWith(new long[] {AcmEpFlags.SOURCE},
            new int[] {AcmEpType.ADDRESS_IP})));
    }

    @Test
    void shouldRejectReservedSourceTypeWithEsrctype() throws IOException
    {
        assertEquals(AcmStatus.ESRCTYPE, statusOf(resolveWith(new long[] {AcmEpFlags.SOURCE, AcmEpFlags.DEST},
            new int[] {AcmEpType.ADDRESS_RESERVED, AcmEpType.ADDRESS_IP})));
    }

    @Test
    void shouldRejectReservedDestinationTypeWithEdesttype() throws IOException
    {
        assertEquals(AcmStatus.EDESTTYPE, statusOf(resolveWith(new long[] {AcmEpFlags.SOURCE, AcmEpFlags.DEST},
            new int[] {AcmEpType.ADDRESS_IP, 0})));
    }

    @Test
    void shouldRejectPathWithoutDestinationWithEdestaddr() throws IOException
    {
        assertEquals(AcmStatus.EDESTADDR, statusOf(AcmRequests.resolveGid(Gid.parse("fe80::2:c903:0:1"), Gid.ZERO, 0)));
    }

    @Test
    void shouldRejectSaQueryWithTwoEntriesWithEinval() throws IOException
    {
        final byte[] one = AcmRequests.resolveGid(Gid.parse("fe80::2:c903:0:1"), Gid.parse("fe80::2:c903:0:2"),
            AcmEpFlags.QUERY_SA);
        final byte[] two = new byte[AcmMessage.resolveLength(2)];
        System.arraycopy(one, 0, two, 0, one.length);
        new AcmHeader().wrap(new UnsafeBuffer(two), 0).length(two.length);
        assertEquals(AcmStatus.EINVAL, statusOf(two));
    }

    /** ibacm's acmc_query_response echoes a QUERY_SA request at its own length, errors included. */
    @Test
    void shouldEchoAFailedSaQueryAtItsOwnLengthWithAck() throws IOException
    {
        final byte[] request = AcmRequests.resolveGid(Gid.parse("fe80::99"), Gid.parse("fe80::2:c903:0:2"),
            AcmEpFlags.QUERY_SA);
        final byte[] reply = exchange(request);
        final AcmHeader header = new AcmHeader().wrap(new UnsafeBuffer(reply), 0);
        assertEquals(AcmStatus.ESRCADDR, header.status());
        assertEquals(AcmMessage.resolveLength(1), reply.length);
        assertEquals(AcmOp.RESOLVE | AcmOp.ACK, header.opcode());
        assertArrayEquals(Arrays.copyOfRange(request, AcmHeader.LENGTH, request.length),
            Arrays.copyOfRange(reply, AcmHeader.LENGTH, reply.length));
    }

    @Test
    void shouldRejectPathFromForeignGidWithEsrcaddr() throws IOException
    {
        assertEquals(AcmStatus.ESRCADDR, statusOf(AcmRequests.resolveGid(Gid.parse("fe80::99"),
            Gid.parse("fe80::2:c903:0:2"), 0)));
    }

    @Test
    void shouldFrameRequestSentOneByteAtATime() throws IOException
    {
        final byte[] request = AcmRequests.resolveIp(SOURCE, DEST, AcmEpFlags.DEST);
        try (RawAcmClient client = client())
        {
            for (final byte b : request)
            {
                client.send(new byte[] {b});
                Thread.yield();
            }
            final byte[] reply = client.receive(TIMEOUT_MS);
            assertEquals(AcmStatus.SUCCESS, header(reply).status());
            assertEquals(AcmMessage.resolveLength(1), reply.length);
        }
    }

    @Test
    void shouldAnswerPipelinedRequestsEachOnce() throws IOException
    {
        final byte[] first = AcmRequests.resolveIp(SOURCE, DEST, AcmEpFlags.DEST);
        final byte[] second = AcmRequests.perfQuery();
        final byte[] both = new byte[first.length * 3 + second.length];
        System.arraycopy(first, 0, both, 0, first.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        System.arraycopy(first, 0, both, first.length + second.length, first.length);
        System.arraycopy(first, 0, both, 2 * first.length + second.length, first.length);
        try (RawAcmClient client = client())
        {
            client.send(both);
            assertEquals(AcmOp.RESOLVE, header(client.receive(TIMEOUT_MS)).opcode());
            assertEquals(AcmOp.PERF_QUERY | AcmOp.ACK, header(client.receive(TIMEOUT_MS)).opcode());
            assertEquals(AcmOp.RESOLVE, header(client.receive(TIMEOUT_MS)).opcode());
            assertEquals(AcmOp.RESOLVE, header(client.receive(TIMEOUT_MS)).opcode());
            assertTrue(client.nothingBeforeMarker(TIMEOUT_MS), "each request answered once");
        }
    }

    @Test
    void shouldKeepServingAfterTruncatedFramesAndAbruptDisconnects() throws IOException
    {
        final byte[] request = AcmRequests.resolveIp(SOURCE, DEST, AcmEpFlags.DEST);
        for (int cut = 1; cut < request.length; cut += 7)
        {
            try (RawAcmClient client = client())
            {
                final byte[] part = new byte[cut];
                System.arraycopy(request, 0, part, 0, cut);
                client.send(part);
            }
        }
        assertStillServing();
    }

    @Test
    void shouldAnswerEveryFuzzedRequestExactlyOnce() throws IOException
    {
        final Random random = new Random(0x5eed_acL);
        try (RawAcmClient client = client())
        {
            for (int i = 0; i < 2_000; i++)
            {
                final int length = switch (random.nextInt(4))
                {
                    case 0 -> AcmHeader.LENGTH + AcmEpAddrData.LENGTH * (1 + random.nextInt(8));
                    case 1 -> random.nextInt(AcmMessage.MAX_LENGTH + 1);
                    case 2 -> AcmHeader.LENGTH;
                    default -> AcmMessage.MAX_LENGTH + 1 + random.nextInt(3000);
                };
                final byte[] request = new byte[Math.max(AcmHeader.LENGTH, length)];
                random.nextBytes(request);
                request[0] = (byte)(random.nextInt(8) == 0 ? random.nextInt(256) : 1);
                request[1] = (byte)(random.nextBoolean() ? random.nextInt(4) : random.nextInt(256));
                final AcmHeader header = new AcmHeader().wrap(new UnsafeBuffer(request), 0);
                header.length(length);
                final int sent = Math.max(AcmHeader.LENGTH, header.length());
                final byte[] frame = new byte[sent];
                System.arraycopy(request, 0, frame, 0, Math.min(request.length, sent));
                client.send(frame);
                final byte[] reply = client.receive(TIMEOUT_MS);
                assertEquals(reply.length, header(reply).length(), "fuzz case " + i);
            }
            assertTrue(client.nothingBeforeMarker(TIMEOUT_MS), "no extra replies");
            client.send(AcmRequests.resolveIp(SOURCE, DEST, AcmEpFlags.DEST));
            assertEquals(AcmStatus.SUCCESS, header(client.receive(TIMEOUT_MS)).status());
        }
    }

    @Test
    void shouldBoundClientThatNeverReadsWithoutDisturbingOthers() throws IOException
    {
        final byte[] request = AcmRequests.resolveIp(SOURCE, DEST, AcmEpFlags.DEST);
        final int requests = 20_000;
        final byte[] flood = new byte[request.length * requests];
        for (int i = 0; i < requests; i++)
        {
            System.arraycopy(request, 0, flood, i * request.length, request.length);
        }
        try (RawAcmClient greedy = client())
        {
            int written = 0;
            int idle = 0;
            while (written < flood.length && idle < 200)
            {
                final int n = greedy.sendSome(flood, written);
                written += n;
                idle = n == 0 ? idle + 1 : 0;
                if (n == 0)
                {
                    Thread.yield();
                }
            }
            assertTrue(written < flood.length, "the server stops reading a client that does not read its replies");

            assertStillServing();

            final int whole = written / request.length;
            int replies = 0;
            while (replies < whole)
            {
                assertEquals(AcmStatus.SUCCESS, header(greedy.receive(TIMEOUT_MS)).status());
                replies++;
            }
            assertTrue(greedy.silentFor(100), "a partly sent request gets no reply before it is complete");
            assertEquals(whole, replies);
        }
    }

    @Test
    void shouldServeThousandConcurrentClients() throws IOException
    {
        final byte[] request = AcmRequests.resolveIp(SOURCE, DEST, AcmEpFlags.DEST);
        final List<RawAcmClient> clients = new ArrayList<>();
        try
        {
            for (int i = 0; i < 1_000; i++)
            {
                final RawAcmClient client = client();
                clients.add(client);
                client.send(request);
            }
            for (final RawAcmClient client : clients)
            {
                final byte[] reply = client.receive(TIMEOUT_MS);
                assertEquals(AcmStatus.SUCCESS, header(reply).status());
                assertEquals(AcmMessage.resolveLength(1), reply.length);
            }
            assertTrue(fixture.server.connectionCount() >= 1_000, "all connections are held open by the server");
        }
        finally
        {
            for (final RawAcmClient client : clients)
            {
                client.close();
            }
        }
    }
}
