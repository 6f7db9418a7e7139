package dev.rdmacm.addrinfo;

import dev.rdmacm.protocol.PortSpace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static dev.rdmacm.addrinfo.RaiFlags.FAMILY;
import static dev.rdmacm.addrinfo.RaiFlags.NOROUTE;
import static dev.rdmacm.addrinfo.RaiFlags.NUMERICHOST;
import static dev.rdmacm.addrinfo.RaiFlags.PASSIVE;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The ACM step against the real librdmacm: both sides get the same scripted ACM answer (librdmacm over
 * its ACM socket from {@link ScriptedAcmServer}, ours from {@link ScriptedAcmClient}); the requests
 * librdmacm sends must be the queries we make, and the results — route, ACM source, and with AF_IB
 * support the prepended AF_IB entry and its CM header — must be identical.
 */
class AcmStepConformanceTest
{
    private static final RdmaAddrInfoHints H = RdmaAddrInfoHints.NONE;
    private static final Ipv4Sockaddr V4_SRC = new Ipv4Sockaddr(0xC000_0202, 0);
    private static final Ipv6Sockaddr V6_SRC = Ipv6Sockaddr.parse("[fd00::2]", "test");

    @TempDir
    static Path harnessDir;

    private static ScriptedAcmServer server;
    private static List<String> librdmacmLines;
    private static List<String> librdmacmRequests;
    private static List<String> librdmacmAfIbLines;

    /** Inputs where the AF_IB entry is well defined (librdmacm reads the IP addresses as the result's family). */
    static List<HarnessCase> cases()
    {
        final List<HarnessCase> cases = new ArrayList<>();
        cases.add(new HarnessCase("192.0.2.3", "7471", H.withFlags(NUMERICHOST).withSrcAddr(V4_SRC)));
        cases.add(new HarnessCase("192.0.2.3", "7471", null));
        cases.add(new HarnessCase("192.0.2.3", "7471", H.withFlags(NOROUTE)));
        cases.add(new HarnessCase("192.0.2.3", "7471", H.withFlags(0x4000_0000)));
        cases.add(new HarnessCase("192.0.2.3", "7471", H.withQpType(QpType.UD).withPortSpace(PortSpace.IB.code())));
        cases.add(new HarnessCase("192.0.2.3", null, H.withSrcAddr(new Ipv4Sockaddr(0xC000_0202, 99))));
        cases.add(new HarnessCase("fd00::3", "7471", H.withSrcAddr(V6_SRC)));
        cases.add(new HarnessCase("fd00::3", "7471", null));
        cases.add(new HarnessCase("fd00::3", "7471", H.withFlags(NUMERICHOST).withPortSpace(PortSpace.UDP.code())));
        cases.add(new HarnessCase("fe80::2:c903:0:3", "7471", H.withFamily(AddressFamily.AF_IB).withFlags(FAMILY | NUMERICHOST)));
        cases.add(new HarnessCase("fe80::2:c903:0:3", "7471", H.withFamily(AddressFamily.AF_IB).withFlags(FAMILY | NUMERICHOST)
            .withPortSpace(PortSpace.IB.code())));
        cases.add(new HarnessCase(null, "7471", H.withFlags(PASSIVE)));
        cases.add(new HarnessCase("127.0.0.1", "7471", null));
        cases.add(new HarnessCase("localhost", "7471", H.withFlags(NUMERICHOST)));
        cases.add(new HarnessCase("192.0.2.3", "7471", H.withFlags(RaiFlags.ROUTEONLY)));
        cases.add(new HarnessCase(null, null, H.withDstAddr(new Ipv4Sockaddr(0xC000_0209, 99)).withFamily(AddressFamily.AF_INET)));
        return cases;
    }

    @BeforeAll
    static void runRealLibrdmacm() throws Exception
    {
        server = new ScriptedAcmServer();
        librdmacmLines = RealLibrdmacm.run(cases(), harnessDir.resolve("plain"),
            RealLibrdmacm.Acm.at(server.port()));
        librdmacmRequests = List.copyOf(server.requests);
        librdmacmAfIbLines = RealLibrdmacm.run(cases(), harnessDir.resolve("afib"),
            RealLibrdmacm.Acm.at(server.port()).withAfIbSupport());
    }

    @AfterAll
    static void stopServer() throws Exception
    {
        if (server != null)
        {
            server.close();
        }
    }

    private static Stream<DynamicTest> compare(final List<String> expected, final boolean afIbSupport)
    {
        final List<HarnessCase> cases = cases();
        final RdmaGetAddrInfo ours = RdmaGetAddrInfo.builder().acm(new ScriptedAcmClient(AcmScript::answer))
            .afIbSupport(afIbSupport).build();
        return IntStream.range(0, cases.size()).mapToObj(i -> DynamicTest.dynamicTest(i + ": " + cases.get(i), () ->
        {
            final HarnessCase c = cases.get(i);
            assertEquals(expected.get(i), CanonicalLine.of(ours.getaddrinfo(c.node(), c.service(), c.hints())), c.toString());
        }));
    }

    @TestFactory
    Stream<DynamicTest> shouldKeepTheAcmRouteAndSourceAsLibrdmacm()
    {
        return compare(librdmacmLines, false);
    }

    @TestFactory
    Stream<DynamicTest> shouldPrependTheAfIbEntryAsLibrdmacm()
    {
        return compare(librdmacmAfIbLines, true);
    }

    @Test
    void shouldAskAcmWhatLibrdmacmAsks()
    {
        final ScriptedAcmClient acm = new ScriptedAcmClient(AcmScript::answer);
        final RdmaGetAddrInfo ours = RdmaGetAddrInfo.builder().acm(acm).build();
        cases().forEach(c -> ours.getaddrinfo(c.node(), c.service(), c.hints()));

        assertEquals(librdmacmRequests, acm.queries.stream().map(ScriptedAcmServer::describe).toList());
    }
}
