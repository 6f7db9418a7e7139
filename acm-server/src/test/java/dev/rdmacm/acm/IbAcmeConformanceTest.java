package dev.rdmacm.acm;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real ib_acme (Debian 12, rdma-core 44) against our server, over the unix socket and over TCP
 * with the port file, with caches preloaded from an ibacm hosts file and an OpenSM path-record dump.
 */
class IbAcmeConformanceTest
{
    /** What ib_acme prints for the dumped route node-a (LID 1) to node-b (LID 5). */
    private static final String PATH_A_TO_B = """
        Path information
          dgid: fe80::2:c903:0:2
          sgid: fe80::2:c903:0:1
          dlid: 5
          slid: 1
          flow label: 0x0
          hop limit: 0
          tclass: 0
          reversible: 1
          pkey: 0xffff
          sl: 0
          mtu: 4
          rate: 7
          packet lifetime: 18
        """;

    private static AcmServerFixture fixture;
    private static String socket;

    @BeforeAll
    static void startServer() throws IOException
    {
        fixture = AcmServerFixture.start("", AcmPathQuerier.NONE);
        socket = fixture.unixSocket().toString();
    }

    @AfterAll
    static void stopServer()
    {
        if (fixture != null)
        {
            fixture.close();
        }
    }

    private static void assertResolved(final IbAcme.Result result)
    {
        assertTrue(result.output().contains(PATH_A_TO_B), result.output());
        assertTrue(result.output().contains("return status 0x0"), result.output());
        assertEquals(0, result.exitCode(), result.output());
    }

    @Test
    void shouldResolveIpv4SourceAndDestinationOverUnixSocket()
    {
        assertResolved(IbAcme.run("-S", socket, "-f", "i", "-s", "192.0.2.2", "-d", "192.0.2.3"));
    }

    @Test
    void shouldResolveIpv6SourceAndDestination()
    {
        assertResolved(IbAcme.run("-S", socket, "-f", "i", "-s", "fd00::2", "-d", "fd00::3"));
    }

    @Test
    void shouldChooseSourceWhenRequestHasNone()
    {
        assertResolved(IbAcme.run("-S", socket, "-f", "i", "-d", "127.0.0.2"));
    }

    @Test
    void shouldResolveNames()
    {
        assertResolved(IbAcme.run("-S", socket, "-f", "n", "-s", "node-a", "-d", "node-b"));
    }

    @Test
    void shouldResolvePathByLid()
    {
        assertResolved(IbAcme.run("-S", socket, "-f", "l", "-s", "1", "-d", "5"));
    }

    @Test
    void shouldResolvePathByGid()
    {
        assertResolved(IbAcme.run("-S", socket, "-f", "g", "-s", "fe80::2:c903:0:1", "-d", "fe80::2:c903:0:2"));
    }

    @Test
    void shouldResolveFromCacheWithNodelay()
    {
        assertResolved(IbAcme.run("-S", socket, "-c", "-f", "i", "-s", "192.0.2.2", "-d", "192.0.2.3"));
    }

    @Test
    void shouldAnswerNodelayMissWithNoData()
    {
        final IbAcme.Result result = IbAcme.run("-S", socket, "-c", "-f", "i", "-s", "192.0.2.2", "-d", "192.0.2.9");
        assertTrue(result.output().contains("ib_acm_resolve_ip failed: No data available"), result.output());
        assertEquals(255, result.exitCode());
    }

    @Test
    void shouldRejectUnknownSourceAddress()
    {
        final IbAcme.Result result = IbAcme.run("-S", socket, "-f", "i", "-s", "192.0.2.99", "-d", "192.0.2.3");
        assertTrue(result.output().contains("ib_acm_resolve_ip failed: Cannot assign requested address"),
            result.output());
    }

    @Test
    void shouldReportFailedSaVerificationWithoutSaBackend()
    {
        final IbAcme.Result result = IbAcme.run("-S", socket, "-v", "-f", "g", "-s", "fe80::2:c903:0:1", "-d",
            "fe80::2:c903:0:2");
        assertTrue(result.output().contains(PATH_A_TO_B), result.output());
        assertTrue(result.output().contains("SA verification: failed No data available"), result.output());
    }

    @Test
    void shouldPrintGlobalCountersAsRow()
    {
        final IbAcme.Result result = IbAcme.run("-S", socket, "-P");
        assertTrue(result.output().startsWith("svc,Error Count,Resolve Count,No Data,Addr Query Count,"
            + "Addr Cache Count,Route Query Count,Route Cache Count\n" + socket + ","), result.output());
        assertEquals(0, result.exitCode());
    }

    @Test
    void shouldPrintCountersAsColumn()
    {
        final IbAcme.Result result = IbAcme.run("-S", socket, "-P", "col");
        assertTrue(result.output().startsWith(socket + "\nError Count : "), result.output());
        assertTrue(result.output().contains("\nRoute Cache Count : "), result.output());
    }

    @Test
    void shouldPrintEndpointCountersBySource()
    {
        final IbAcme.Result result = IbAcme.run("-S", socket, "-P", "s", "-s", "192.0.2.20");
        assertTrue(result.output().contains(socket + ",0,"), result.output());
        assertEquals(0, result.exitCode());
    }

    @Test
    void shouldPrintTheCountersOfTheFirstEndpointOnPortOne()
    {
        final IbAcme.Result result = IbAcme.run("-S", socket, "-P", "1");
        assertTrue(result.output().contains("\n" + socket + ","), result.output());
        assertEquals(0, result.exitCode(), result.output());
    }

    /**
     * ibacm's acm_svr_perf_query looks endpoint N up among the endpoints on port N: the second
     * endpoint here is the only one on port 2, so "-P 2" finds none there, as with ibacm.
     */
    @Test
    void shouldLookEndpointNUpOnPortNAsIbacmDoes()
    {
        final IbAcme.Result result = IbAcme.run("-S", socket, "-P", "2");
        assertTrue(result.output().contains(socket + ": Failed to query perf data: Cannot assign requested address"),
            result.output());
    }

    @Test
    void shouldFailCountersOfUnknownEndpoint()
    {
        final IbAcme.Result result = IbAcme.run("-S", socket, "-P", "7");
        assertTrue(result.output().contains(socket + ": Failed to query perf data: Cannot assign requested address"),
            result.output());
    }

    @Test
    void shouldEnumerateEndpoints()
    {
        final IbAcme.Result result = IbAcme.run("-S", socket, "-e");
        assertEquals("""
            svc,guid,port,pkey,ep_index,prov,addr_0,addresses
            %1$s,0x0002c90300000001,1,0xffff,1,rdmacm-java,127.0.0.1,192.0.2.2,node-a,fd00::2
            %1$s,0x0002c90300000011,2,0xffff,1,rdmacm-java,192.0.2.20
            return status 0x0
            """.formatted(socket), result.output());
    }

    @Test
    void shouldResolveOverTcpWithPortFile()
    {
        assertResolved(IbAcme.runWithPrivateRun(fixture.server.tcpPort(), "-S", "127.0.0.1", "-f", "i", "-s",
            "192.0.2.2", "-d", "192.0.2.3"));
    }

    @Test
    void shouldPrintCountersOverTcp()
    {
        final IbAcme.Result result = IbAcme.runWithPrivateRun(fixture.server.tcpPort(), "-S", "127.0.0.1", "-P");
        assertTrue(result.output().contains("\n127.0.0.1,"), result.output());
        assertEquals(0, result.exitCode());
    }
}
