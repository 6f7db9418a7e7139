package dev.rdmacm.cm;

import dev.rdmacm.addrinfo.Ipv4Sockaddr;
import dev.rdmacm.loop.PollSet;
import dev.rdmacm.loop.testing.ManualNanoClock;
import dev.rdmacm.protocol.acm.AcmHeader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The conductor's ACM exchange driven by hand over a real poll set, against a test double of a service
 * on a unix socket that echoes a question back (a reply of status 0 with no PATH entry: "no route"),
 * or closes: what librdmacm's {@code acm_lock} and {@code ucma_ib_init} decide, one step at a time.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AcmRouteExchangeTest
{
    private static final Ipv4Sockaddr SOURCE = new Ipv4Sockaddr(0x0A14_0001, 5000);
    private static final Ipv4Sockaddr DESTINATION = new Ipv4Sockaddr(0x0A14_0002, 7471);

    @TempDir
    Path dir;

    @Test
    void shouldSendNoQuestionForARouteThatWentAwayWhileItQueued() throws Exception
    {
        final Path socket = dir.resolve("ibacm.sock");
        final List<byte[]> answers = new ArrayList<>();
        try (ServerSocketChannel echoingService = ServerSocketChannel.open(StandardProtocolFamily.UNIX)
                 .bind(UnixDomainSocketAddress.of(socket));
             PollSet pollSet = new PollSet())
        {
            final AcmRouteExchange exchange = new AcmRouteExchange(AcmFirstRoute.at(socket), pollSet, new ManualNanoClock());
            final PendingRoute asking = waitingForAcm();
            final PendingRoute destroyed = waitingForAcm();
            exchange.ask(asking, SOURCE, DESTINATION, answers::add);
            exchange.ask(destroyed, SOURCE, DESTINATION, answers::add);
            destroyed.state = PendingRoute.State.CANCELLED;

            try (SocketChannel client = echoingService.accept())
            {
                final ByteBuffer question = readQuestion(client);
                client.write(question.flip());
                while (answers.isEmpty())
                {
                    pollSet.await(Long.MAX_VALUE, () -> false);
                }
                assertEquals(AcmRouteExchange.State.READY, exchange.state(), "the cancelled route's question stays unsent");

                exchange.close();
                assertEquals(-1, client.read(ByteBuffer.allocate(1)), "nothing after the first question, then the close");
            }
            assertEquals(1, answers.size());
            assertEquals(0, answers.get(0).length, "a reply with no PATH entry: no route, the kernel's way follows");
        }
    }

    @Test
    void shouldGiveUpAndAnswerEveryQuestionWithNothingWhenTheServiceCloses() throws Exception
    {
        final Path socket = dir.resolve("ibacm.sock");
        final List<byte[]> answers = new ArrayList<>();
        try (ServerSocketChannel closingService = ServerSocketChannel.open(StandardProtocolFamily.UNIX)
                 .bind(UnixDomainSocketAddress.of(socket));
             PollSet pollSet = new PollSet())
        {
            final AcmRouteExchange exchange = new AcmRouteExchange(AcmFirstRoute.at(socket), pollSet, new ManualNanoClock());
            exchange.ask(waitingForAcm(), SOURCE, DESTINATION, answers::add);
            exchange.ask(waitingForAcm(), SOURCE, DESTINATION, answers::add);

            try (SocketChannel client = closingService.accept())
            {
                readQuestion(client);
            }
            while (answers.size() < 2)
            {
                pollSet.await(Long.MAX_VALUE, () -> false);
            }

            assertEquals(AcmRouteExchange.State.NO_SERVICE, exchange.state());
            assertEquals(0, pollSet.size(), "the socket left the poll set");
            assertEquals(2, answers.stream().filter(answer -> answer == null).count(), "no answer for either");
            exchange.close();
        }
    }

    private static PendingRoute waitingForAcm()
    {
        final PendingRoute route = new PendingRoute(null, null, null, null);
        route.state = PendingRoute.State.ACM_QUERY;
        return route;
    }

    /** One whole question: the header, then the length it gives. */
    private static ByteBuffer readQuestion(final SocketChannel client) throws IOException
    {
        final ByteBuffer header = ByteBuffer.allocate(AcmHeader.LENGTH);
        readFully(client, header);
        final int length = new AcmHeader().wrap(new UnsafeBuffer(header.array()), 0, AcmHeader.LENGTH).length();
        final ByteBuffer question = ByteBuffer.allocate(length).put(header.flip());
        readFully(client, question);
        return question;
    }

    private static void readFully(final SocketChannel client, final ByteBuffer into) throws IOException
    {
        while (into.hasRemaining())
        {
            if (client.read(into) < 0)
            {
                throw new IOException("the exchange closed its socket mid-question");
            }
        }
    }
}
