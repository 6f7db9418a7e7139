package dev.rdmacm.addrinfo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The wire client against {@link ScriptedAcmServer}, the server whose request and reply bytes
 * {@link AcmStepConformanceTest} checks against the real librdmacm: what the client sends is what
 * librdmacm sends for the same query, and what it keeps of the reply is what librdmacm keeps.
 */
class AcmSocketClientTest
{
    @TempDir
    Path dir;

    private static final AcmQuery ROUTE_ONLY_V4 = new AcmQuery(new Ipv4Sockaddr(0x0A14_0001, 5000),
        new Ipv4Sockaddr(0x0A14_0002, 7471), false, null);
    private static final AcmQuery AF_IB = new AcmQuery(null, null, false, RdmaGetAddrInfo.acmQuery(
        new RdmaAddrInfo(0, AddressFamily.AF_IB, 0, 0, null, IbSockaddr.parse("gid=fe80::3", "test"), null, null, null, null),
        RdmaAddrInfoHints.NONE).pathRecord());

    @Test
    void shouldSendWhatLibrdmacmSendsAndKeepWhatItKeeps() throws Exception
    {
        try (ScriptedAcmServer server = new ScriptedAcmServer();
             AcmSocketClient client = new AcmSocketClient(portFile(server.port()), dir.resolve("absent.sock"),
                 Duration.ofSeconds(10)))
        {
            for (final AcmQuery query : List.of(ROUTE_ONLY_V4, AF_IB))
            {
                final Optional<AcmAnswer> answer = client.resolve(query);

                assertTrue(answer.isPresent(), query.toString());
                final AcmAnswer expected = AcmScript.answer(query);
                assertArrayEquals(expected.route(), answer.get().route());
                assertEquals(expected.source(), answer.get().source());
            }
            assertEquals(List.of(ScriptedAcmServer.describe(ROUTE_ONLY_V4), ScriptedAcmServer.describe(AF_IB)),
                server.requests);
        }
    }

    @Test
    void shouldNotAskAgainOnceNoServiceAnsweredAsLibrdmacm() throws Exception
    {
        try (AcmSocketClient client = new AcmSocketClient(dir.resolve("ibacm.port"), dir.resolve("ibacm.sock"),
            Duration.ofSeconds(10)))
        {
            assertEquals(Optional.empty(), client.resolve(ROUTE_ONLY_V4));
            try (ScriptedAcmServer server = new ScriptedAcmServer())
            {
                portFile(server.port());

                assertEquals(Optional.empty(), client.resolve(ROUTE_ONLY_V4), "ucma_ib_init runs once per process");
                assertFalse(client.connected());
                assertEquals(List.of(), server.requests);
            }
        }
    }

    private Path portFile(final int port) throws Exception
    {
        return Files.writeString(dir.resolve("ibacm.port"), port + "\n");
    }
}
