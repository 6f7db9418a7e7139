package dev.rdmacm.acm;

import dev.rdmacm.loop.testing.ManualNanoClock;
import dev.rdmacm.protocol.acm.AcmHeader;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 30: when {@code accept} fails with EMFILE the server rests its listeners and logs once per
 * interval instead of spinning (2 million log lines in 5 s before). The EMFILE is real: util-linux's
 * {@code prlimit} lowers this JVM's own RLIMIT_NOFILE to 3 for the few steps in between, so the
 * server's next descriptor cannot be had, then puts it back. The helper that does both is started
 * before, since starting a process needs descriptors; nothing in between opens one.
 */
class AcmAcceptBackoffTest
{
    private static final long WAIT_MS = 30_000;

    private static void await(final LongSupplier value, final long expected, final String what) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        while (value.getAsLong() != expected && System.nanoTime() < deadline)
        {
            Thread.sleep(2);
        }
        assertEquals(expected, value.getAsLong(), what);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldBackOffAndLogOncePerIntervalWhenAcceptRunsOutOfDescriptors() throws Exception
    {
        Peers.requireCommand("prlimit", "util-linux");
        final ManualNanoClock clock = new ManualNanoClock();
        try (AcmServerFixture fixture = AcmServerFixture.start("", AcmPathQuerier.NONE, AcmGidLookup.NONE, clock);
             RawAcmClient warmUp = new RawAcmClient(fixture.unixSocket());
             SocketChannel client = SocketChannel.open(StandardProtocolFamily.UNIX))
        {
            warmUp.nothingBeforeMarker(WAIT_MS); // every class of a served request is loaded before the window
            final long pid = ProcessHandle.current().pid();
            final Process limiter = new ProcessBuilder("sh", "-c",
                "orig=$(prlimit --pid " + pid + " --nofile --output SOFT --noheadings); prlimit --pid " + pid + " --nofile=3: && "
                    + "echo lowered; read line; prlimit --pid " + pid + " --nofile=$orig:; echo restored")
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            final BufferedReader said = new BufferedReader(new InputStreamReader(limiter.getInputStream(), StandardCharsets.US_ASCII));
            final OutputStream tell = limiter.getOutputStream();
            try
            {
                assertEquals("lowered", said.readLine());
                client.connect(UnixDomainSocketAddress.of(fixture.unixSocket()));
                await(fixture.server::acceptFailures, 1, "accept failed with EMFILE");
                for (int retry = 2; retry <= 6; retry++)
                {
                    fixture.advance(clock, Duration.ofNanos(AcmServer.ACCEPT_BACKOFF_NS));
                    await(fixture.server::acceptFailures, retry, "one more try per back-off, none in between");
                }
            }
            finally
            {
                tell.write('\n');
                tell.flush();
            }
            assertEquals("restored", said.readLine());
            limiter.waitFor(WAIT_MS, TimeUnit.MILLISECONDS);
            fixture.advance(clock, Duration.ofNanos(AcmServer.ACCEPT_BACKOFF_NS));
            await(fixture.server::connectionCount, 2, "the waiting client is accepted once descriptors are back");
            client.write(ByteBuffer.wrap(AcmRequests.perfQuery()));
            final ByteBuffer reply = ByteBuffer.allocate(AcmHeader.LENGTH);
            while (reply.hasRemaining() && client.read(reply) >= 0)
            {
                Thread.onSpinWait();
            }
            assertEquals(0, reply.remaining(), "and served");
            assertEquals(6, fixture.server.acceptFailures());
            assertEquals(1, fixture.log().lines().filter(line -> line.contains("accept failed: Too many open files")).count(),
                fixture.log());
        }
    }
}
