package dev.rdmacm.acm;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.rdmacm.files.ibacm.HostsFile;
import dev.rdmacm.loop.testing.ManualNanoClock;
import dev.rdmacm.protocol.acm.AcmHeader;
import dev.rdmacm.protocol.acm.AcmMessage;
import dev.rdmacm.protocol.acm.AcmStatus;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Coverage-guided fuzz target (docs/fuzzing.md) of the ACM requests: a client's byte stream, framed as
 * {@link AcmConnection} frames it (a header, the length it declares, the over-long discarded), into a real
 * {@link AcmService} with the test fixture's endpoints, and its hosts and path dump preloaded. The SA is
 * {@link HeldPathQuerier}; every query is answered (or, for every other one, failed) after the stream, and
 * the clock is then moved past the SA deadline. The contract: nothing escapes, and every request gets
 * exactly one reply, whose header (the request's, as ibacm echoes it, version included) has the reply's
 * length. Seeds: the requests the real clients
 * send ({@link AcmRequests}), as the stream of one client.
 */
class AcmRequestFuzzTest
{
    private static final AcmOptions OPTIONS = new AcmOptions().apply("timeout 200", "fuzz:1").apply("retries 1", "fuzz:2");
    private static final List<AcmEndpoint> ENDPOINTS = AcmEndpointFile.parse(
        AcmServerFixture.ENDPOINTS.lines().toList(), "fuzz_addr.cfg");
    private static final HostsFile HOSTS = HostsFile.parse(AcmServerFixture.HOSTS.lines().toList(), Path.of("hosts"));
    private static final OpenSmPathDump DUMP = OpenSmPathDump.parse(AcmServerFixture.PATH_DUMP.lines().toList());
    private static final AcmLog QUIET = new AcmLog(new PrintStream(OutputStream.nullOutputStream()), 0);

    /** Test double for a client socket: keeps each reply. */
    private static final class RecordingAcmChannel implements AcmClientChannel
    {
        final List<byte[]> replies = new ArrayList<>();

        @Override
        public long id()
        {
            return 1;
        }

        @Override
        public void reply(final DirectBuffer buffer, final int offset, final int length)
        {
            final byte[] reply = new byte[length];
            buffer.getBytes(offset, reply);
            replies.add(reply);
        }
    }

    @FuzzTest
    void shouldAnswerEveryRequestOnce(final byte[] stream)
    {
        final ManualNanoClock clock = new ManualNanoClock();
        final HeldPathQuerier sa = new HeldPathQuerier();
        final AcmService service = new AcmService(OPTIONS, ENDPOINTS, AcmGidLookup.NONE, sa, QUIET, clock, () -> { });
        for (final HostsFile.Host host : HOSTS.hosts())
        {
            service.preloadAddress(AcmAddress.of(host), host.gid());
        }
        for (final AcmEndpoint endpoint : service.endpoints())
        {
            DUMP.pathsFrom(endpoint).forEach(path -> service.preloadRoute(endpoint, path));
        }
        final RecordingAcmChannel client = new RecordingAcmChannel();
        final UnsafeBuffer request = new UnsafeBuffer(new byte[AcmMessage.MAX_LENGTH]);
        final AcmHeader header = new AcmHeader();
        int requests = 0;
        int at = 0;
        while (stream.length - at >= AcmHeader.LENGTH)
        {
            request.setMemory(0, request.capacity(), (byte)0);
            request.putBytes(0, stream, at, AcmHeader.LENGTH);
            final int declared = header.wrap(request, 0, AcmHeader.LENGTH).length();
            if (declared <= AcmHeader.LENGTH || declared > AcmMessage.MAX_LENGTH)
            {
                at += declared > AcmMessage.MAX_LENGTH ? Math.min(stream.length - at, declared) : AcmHeader.LENGTH;
                service.onRequest(client, request, AcmHeader.LENGTH, declared);
            }
            else if (stream.length - at >= declared)
            {
                request.putBytes(0, stream, at, declared);
                at += declared;
                service.onRequest(client, request, declared, declared);
            }
            else
            {
                break;
            }
            requests++;
            service.doWork();
        }
        int answered = 0;
        HeldPathQuerier.Query query;
        while ((query = sa.poll()) != null)
        {
            if (answered++ % 2 == 0)
            {
                query.answer();
            }
            else
            {
                query.completion().onError(AcmStatus.ENODATA, "fuzz");
            }
            service.doWork();
        }
        clock.advance(OPTIONS.saDeadline().plus(Duration.ofSeconds(1)));
        service.doWork();
        while ((query = sa.poll()) != null)
        {
            query.answer();
            service.doWork();
        }
        clock.advance(OPTIONS.saDeadline().plus(Duration.ofSeconds(1)));
        service.doWork();
        assertEquals(requests, client.replies.size(), "one reply per request");
        for (final byte[] reply : client.replies)
        {
            assertEquals(reply.length, new AcmHeader().wrap(new UnsafeBuffer(reply), 0, reply.length).length());
            assertTrue(reply.length <= AcmConnection.MAX_REPLY_LENGTH, () -> "reply of " + reply.length + " bytes");
        }
    }
}
