package dev.rdmacm.addrinfo;

import dev.rdmacm.acm.AcmPathQuerier;
import dev.rdmacm.acm.AcmServerFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real librdmacm 44 {@code rdma_getaddrinfo} (fakedev shim, private /run holding only our port
 * file) gets its {@code ai_route} and ACM source from our acm-server over TCP.
 */
class LibrdmacmAgainstAcmServerTest
{
    /** ibv_path_data: flags GMP|PRIMARY|BIDIRECTIONAL, reserved 0, then the dumped path node-a to node-b. */
    private static final String ROUTE_A_TO_B = "72:" + "2b000000" + "00000000"
        + "0000000000000000" + "fe800000000000000002c90300000002" + "fe800000000000000002c90300000001"
        + "0005" + "0001" + "00000000" + "00" + "80" + "ffff" + "0000" + "04" + "07" + "12" + "00" + "000000000000";

    @TempDir
    static Path harnessDir;

    private static AcmServerFixture fixture;
    private static List<String> lines;

    private static final List<HarnessCase> CASES = List.of(
        new HarnessCase("192.0.2.3", "7471", RdmaAddrInfoHints.NONE.withSrcAddr(new Ipv4Sockaddr(0xC000_0202, 0))),
        new HarnessCase("127.0.0.2", "7471", null),
        new HarnessCase("192.0.2.9", "7471", RdmaAddrInfoHints.NONE.withFlags(RaiFlags.NUMERICHOST)
            .withSrcAddr(new Ipv4Sockaddr(0xC000_0202, 0))),
        new HarnessCase("192.0.2.3", "7471", RdmaAddrInfoHints.NONE.withSrcAddr(new Ipv4Sockaddr(0xC000_0263, 0))));

    @BeforeAll
    static void runLibrdmacmAgainstOurServer() throws Exception
    {
        fixture = AcmServerFixture.start("", AcmPathQuerier.NONE);
        lines = RealLibrdmacm.run(CASES, harnessDir, RealLibrdmacm.Acm.at(fixture.server.tcpPort()));
    }

    @AfterAll
    static void stopServer()
    {
        if (fixture != null)
        {
            fixture.close();
        }
    }

    @Test
    void shouldGetRouteFromOurServerForGivenSource()
    {
        assertTrue(lines.get(0).startsWith("ret=0 | "), lines.get(0));
        assertTrue(lines.get(0).contains(" route=" + ROUTE_A_TO_B + " "), lines.get(0));
    }

    @Test
    void shouldTakeTheSourceOurServerChose()
    {
        final String line = lines.get(1);
        assertTrue(line.contains(" route=" + ROUTE_A_TO_B + " "), line);
        assertTrue(line.contains(" src=16:02000000" + "7f000001" + "0000000000000000 "), "source 127.0.0.1:0: " + line);
    }

    @Test
    void shouldGetNoRouteForNodelayMiss()
    {
        assertTrue(lines.get(2).startsWith("ret=0 | "), lines.get(2));
        assertTrue(lines.get(2).contains(" route=0:- "), lines.get(2));
    }

    @Test
    void shouldGetNoRouteForUnknownSourceAndKeepTheConnection()
    {
        assertTrue(lines.get(3).contains(" route=0:- "), lines.get(3));
        assertEquals(4, fixture.server.service().requests(), "one persistent connection, four requests");
    }
}
