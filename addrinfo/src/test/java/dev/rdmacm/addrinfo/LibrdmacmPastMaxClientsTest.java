package dev.rdmacm.addrinfo;

import dev.rdmacm.acm.AcmPathQuerier;
import dev.rdmacm.acm.AcmServerFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 30: past max_clients our acm-server closes the extra connection as ibacm does ("all
 * connections busy - rejecting"), and the real librdmacm 44 {@code rdma_getaddrinfo} goes on without a
 * route instead of waiting forever in its {@code recv} (which holds librdmacm's global lock).
 */
class LibrdmacmPastMaxClientsTest
{
    @TempDir
    Path harnessDir;

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void shouldLetRdmaGetaddrinfoFallBackWhenEveryConnectionIsBusy() throws Exception
    {
        try (AcmServerFixture fixture = AcmServerFixture.start("max_clients 1\n", AcmPathQuerier.NONE);
             SocketChannel occupant = SocketChannel.open(StandardProtocolFamily.UNIX))
        {
            occupant.connect(UnixDomainSocketAddress.of(fixture.server.files().unixSocket()));
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (fixture.server.connectionCount() < 1 && System.nanoTime() < deadline)
            {
                Thread.sleep(5);
            }
            assertEquals(1, fixture.server.connectionCount(), "the one client slot is taken");
            final List<String> lines = RealLibrdmacm.run(List.of(new HarnessCase("192.0.2.3", "7471",
                RdmaAddrInfoHints.NONE.withSrcAddr(new Ipv4Sockaddr(0xC000_0202, 0)))), harnessDir,
                RealLibrdmacm.Acm.at(fixture.server.tcpPort()));
            assertTrue(lines.getFirst().startsWith("ret=0 | "), lines.getFirst());
            assertTrue(lines.getFirst().contains(" route=0:- "), "no route, as without ACM: " + lines.getFirst());
            assertEquals(0, fixture.server.service().requests(), "the rejected request was never served");
        }
    }
}
