package dev.rdmacm.addrinfo;

import dev.rdmacm.protocol.PortSpace;
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

import static dev.rdmacm.addrinfo.AddressFamily.AF_IB;
import static dev.rdmacm.addrinfo.AddressFamily.AF_INET;
import static dev.rdmacm.addrinfo.AddressFamily.AF_INET6;
import static dev.rdmacm.addrinfo.AddressFamily.AF_UNSPEC;
import static dev.rdmacm.addrinfo.RaiFlags.FAMILY;
import static dev.rdmacm.addrinfo.RaiFlags.NOROUTE;
import static dev.rdmacm.addrinfo.RaiFlags.NUMERICHOST;
import static dev.rdmacm.addrinfo.RaiFlags.PASSIVE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Our {@code getaddrinfo} against the real librdmacm 44 {@code rdma_getaddrinfo}, field by field and
 * return code by return code, over a matrix of inputs run by both on this host (so host-dependent
 * answers, like the order of localhost's addresses, agree).
 */
class GetAddrInfoConformanceTest
{
    private static final RdmaAddrInfoHints H = RdmaAddrInfoHints.NONE;
    private static final Ipv4Sockaddr V4_HINT = new Ipv4Sockaddr(0xC000_0209, 99);
    private static final Ipv6Sockaddr V6_HINT = Ipv6Sockaddr.parse("[fd00::9]:4791", "test");
    private static final int IB_FAMILY_NUMERIC = FAMILY | NUMERICHOST;

    /** Inputs on which librdmacm reads past a sockaddr_in (AF_IB + IPv4 first result): see the bug tests. */
    private static final List<HarnessCase> LIBRDMACM_BUG_CASES = List.of(
        new HarnessCase("192.0.2.1", "7471", H.withFamily(AF_IB).withFlags(IB_FAMILY_NUMERIC)),
        new HarnessCase(null, "7471", H.withFamily(AF_IB).withFlags(IB_FAMILY_NUMERIC | PASSIVE)));

    private static List<String> librdmacmLines;
    private static List<String> librdmacmBugLines;

    @TempDir
    static Path harnessDir;

    @BeforeAll
    static void runRealLibrdmacm()
    {
        final List<HarnessCase> all = new ArrayList<>(matrix());
        all.addAll(LIBRDMACM_BUG_CASES);
        final List<String> lines = RealLibrdmacm.run(all, harnessDir);
        librdmacmLines = lines.subList(0, matrix().size());
        librdmacmBugLines = lines.subList(matrix().size(), lines.size());
    }

    static List<HarnessCase> matrix()
    {
        final List<HarnessCase> cases = new ArrayList<>();
        // no hints, names and numbers
        cases.add(new HarnessCase("192.0.2.2", null, null));
        cases.add(new HarnessCase("fd00::2", "7471", null));
        cases.add(new HarnessCase(null, null, null));
        cases.add(new HarnessCase(null, "7471", null));
        cases.add(new HarnessCase("127.0.0.1", "7471", null));
        cases.add(new HarnessCase("localhost", "7471", null));
        cases.add(new HarnessCase("localhost", null, null));
        cases.add(new HarnessCase("vm", "7471", null));
        cases.add(new HarnessCase("no-such-host.invalid", "7471", null));
        cases.add(new HarnessCase("", "7471", null));
        cases.add(new HarnessCase("127.1", "7471", null));
        cases.add(new HarnessCase("::ffff:192.0.2.1", "7471", null));
        cases.add(new HarnessCase("fe80::1%1", "7471", null));
        cases.add(new HarnessCase("fe80::1%lo", "7471", null));
        cases.add(new HarnessCase("fe80::1", "7471", null));
        // services: names, numbers, truncation, errors
        cases.add(new HarnessCase("127.0.0.1", "echo", null));
        cases.add(new HarnessCase("127.0.0.1", "echo", H.withFlags(NUMERICHOST)));
        cases.add(new HarnessCase("127.0.0.1", "ssh", H.withQpType(QpType.UD)));
        cases.add(new HarnessCase("127.0.0.1", "ssh", H));
        cases.add(new HarnessCase("127.0.0.1", "70000", null));
        cases.add(new HarnessCase("127.0.0.1", "65535", null));
        cases.add(new HarnessCase("127.0.0.1", "65536", null));
        cases.add(new HarnessCase("127.0.0.1", "0", null));
        cases.add(new HarnessCase("127.0.0.1", "no-such-service", null));
        cases.add(new HarnessCase("127.0.0.1", "-1", null));
        cases.add(new HarnessCase("127.0.0.1", "0x1234", null));
        cases.add(new HarnessCase("127.0.0.1", "", null));
        cases.add(new HarnessCase(null, "echo", H.withQpType(QpType.UD)));
        // flags
        cases.add(new HarnessCase("localhost", "7471", H.withFlags(NUMERICHOST)));
        cases.add(new HarnessCase("127.0.0.1", "7471", H.withFlags(NUMERICHOST)));
        cases.add(new HarnessCase("127.0.0.1", "7471", H.withFlags(NOROUTE)));
        cases.add(new HarnessCase("127.0.0.1", "7471", H.withFlags(FAMILY)));
        cases.add(new HarnessCase("127.0.0.1", "7471", H.withFlags(0x4000_0000)));
        cases.add(new HarnessCase("127.0.0.1", "7471", H.withFlags(RaiFlags.DNS)));
        cases.add(new HarnessCase("127.0.0.1", "7471", H.withFlags(0x80)));
        cases.add(new HarnessCase("127.0.0.1", "7471", H.withFlags(0x7fff_ffef)));
        cases.add(new HarnessCase("127.0.0.1", "7471", H.withFlags(0x8000_0000)));
        cases.add(new HarnessCase("127.0.0.1", "7471", H.withFlags(0x4000_0000 | NUMERICHOST | NOROUTE)));
        // passive
        cases.add(new HarnessCase(null, "7471", H.withFlags(PASSIVE)));
        cases.add(new HarnessCase(null, "7471", H.withFlags(PASSIVE).withFamily(AF_INET6)));
        cases.add(new HarnessCase(null, "7471", H.withFlags(PASSIVE).withFamily(AF_INET)));
        cases.add(new HarnessCase(null, null, H.withFlags(PASSIVE)));
        cases.add(new HarnessCase("192.0.2.1", "7471", H.withFlags(PASSIVE)));
        cases.add(new HarnessCase("localhost", "7471", H.withFlags(PASSIVE | NUMERICHOST)));
        cases.add(new HarnessCase(null, "7471", H.withFlags(PASSIVE | 0x4000_0000)));
        cases.add(new HarnessCase(null, "7471", H.withFlags(PASSIVE).withSrcAddr(V4_HINT)));
        cases.add(new HarnessCase(null, "7471", H.withFlags(PASSIVE).withQpType(QpType.UD)));
        // families
        cases.add(new HarnessCase("127.0.0.1", "7471", H.withFamily(AF_INET6)));
        cases.add(new HarnessCase("::1", "7471", H.withFamily(AF_INET)));
        cases.add(new HarnessCase("::1", "7471", H.withFamily(AF_INET6)));
        cases.add(new HarnessCase("127.0.0.1", "7471", H.withFamily(AF_INET)));
        cases.add(new HarnessCase("127.0.0.1", "7471", H.withFamily(99)));
        cases.add(new HarnessCase("localhost", "7471", H.withFamily(AF_INET6)));
        cases.add(new HarnessCase("127.0.0.1", "7471", H.withFamily(AF_UNSPEC)));
        // AF_IB
        cases.add(new HarnessCase("fe80::1", "7471", H.withFamily(AF_IB)));
        cases.add(new HarnessCase("127.0.0.1", "7471", H.withFamily(AF_IB)));
        cases.add(new HarnessCase("fe80::2:c903:0:1", "7471", H.withFamily(AF_IB).withFlags(IB_FAMILY_NUMERIC)));
        cases.add(new HarnessCase("fe80::2:c903:0:1", "7471", H.withFamily(AF_IB).withFlags(IB_FAMILY_NUMERIC)
            .withPortSpace(PortSpace.IB.code())));
        cases.add(new HarnessCase("fe80::2:c903:0:1", "7471", H.withFamily(AF_IB).withFlags(IB_FAMILY_NUMERIC)
            .withQpType(QpType.UD)));
        cases.add(new HarnessCase("fe80::2:c903:0:1", null, H.withFamily(AF_IB).withFlags(IB_FAMILY_NUMERIC)));
        cases.add(new HarnessCase("fe80::2:c903:0:1%1", "7471", H.withFamily(AF_IB).withFlags(IB_FAMILY_NUMERIC)));
        cases.add(new HarnessCase("::ffff:192.0.2.1", "7471", H.withFamily(AF_IB).withFlags(IB_FAMILY_NUMERIC)));
        cases.add(new HarnessCase("::", "7471", H.withFamily(AF_IB).withFlags(IB_FAMILY_NUMERIC | PASSIVE)));
        cases.add(new HarnessCase("fe80::2:c903:0:1", "7471", H.withFamily(AF_IB).withFlags(FAMILY)));
        cases.add(new HarnessCase("fe80::2:c903:0:1", "7471", H.withFamily(AF_IB).withFlags(NUMERICHOST)));
        cases.add(new HarnessCase("localhost", "7471", H.withFamily(AF_IB).withFlags(IB_FAMILY_NUMERIC)));
        cases.add(new HarnessCase("fe80::2:c903:0:1", "7471", H.withFamily(AF_IB).withFlags(IB_FAMILY_NUMERIC)
            .withPortSpace(PortSpace.UDP.code()).withQpType(QpType.RC)));
        // QP type and port space pairs
        final int[] qpTypes = {0, QpType.RC, QpType.UC, QpType.UD, QpType.XRC_SEND, QpType.XRC_RECV, 7};
        final int[] portSpaces = {0, PortSpace.TCP.code(), PortSpace.UDP.code(), PortSpace.IB.code(), PortSpace.IPOIB.code(), 0x999};
        for (final int qpType : qpTypes)
        {
            for (final int portSpace : portSpaces)
            {
                cases.add(new HarnessCase("127.0.0.1", "7471", H.withQpType(qpType).withPortSpace(portSpace)));
            }
        }
        // hints carrying addresses
        cases.add(new HarnessCase("127.0.0.1", "7471", H.withSrcAddr(V4_HINT)));
        cases.add(new HarnessCase("::1", "7471", H.withSrcAddr(V6_HINT)));
        cases.add(new HarnessCase("127.0.0.1", "7471", H.withDstAddr(V4_HINT)));
        cases.add(new HarnessCase(null, null, H.withDstAddr(V4_HINT).withFamily(AF_INET).withPortSpace(PortSpace.TCP.code())));
        cases.add(new HarnessCase(null, null, H.withDstAddr(V6_HINT).withSrcAddr(V6_HINT).withQpType(QpType.UD)));
        cases.add(new HarnessCase(null, null, H.withSrcAddr(V4_HINT)));
        cases.add(new HarnessCase(null, null, H.withDstAddr(new OpaqueSockaddr(new byte[] {99, 0, 1, 2, 3, 4}))));
        cases.add(new HarnessCase(null, null, H.withFlags(0x4000_0000 | NUMERICHOST).withFamily(AF_IB).withQpType(9)
            .withPortSpace(0x999)));
        cases.add(new HarnessCase(null, null, H.withDstAddr(RdmaGetAddrInfo.ibFromIn6(PortSpace.TCP.code(),
            Ipv6Sockaddr.parse("[fe80::2:c903:0:1]:7471", "test"))).withFamily(AF_IB)));
        cases.add(new HarnessCase(null, null, H));
        return cases;
    }

    @Test
    void shouldCoverAtLeastEightyInputs()
    {
        assertTrue(matrix().size() >= 80, "matrix has " + matrix().size() + " inputs");
    }

    @TestFactory
    Stream<DynamicTest> shouldGiveLibrdmacmsResultForEveryInput()
    {
        final List<HarnessCase> cases = matrix();
        final RdmaGetAddrInfo ours = RdmaGetAddrInfo.withDefaults();
        return IntStream.range(0, cases.size()).mapToObj(i -> DynamicTest.dynamicTest(i + ": " + cases.get(i), () ->
        {
            final HarnessCase c = cases.get(i);
            assertEquals(librdmacmLines.get(i), CanonicalLine.of(ours.getaddrinfo(c.node(), c.service(), c.hints())), c.toString());
        }));
    }

    @Test
    void shouldAnswerEaiAddrFamilyWhereLibrdmacmReadsAnIpv4AddressAsAGid()
    {
        final HarnessCase ipv4 = LIBRDMACM_BUG_CASES.getFirst();
        final AddrInfoResult result = RdmaGetAddrInfo.withDefaults().getaddrinfo(ipv4.node(), ipv4.service(), ipv4.hints());

        assertEquals(new AddrInfoResult.EaiError(EaiCode.EAI_ADDRFAMILY, "EAI_ADDRFAMILY",
            "Address family for hostname not supported"), result);
        assertTrue(librdmacmBugLines.getFirst().startsWith("ret=0 | flags=0x0 family=27 "),
            "librdmacm 44 answers an AF_IB address made from a sockaddr_in: " + librdmacmBugLines.getFirst());
    }

    @Test
    void shouldAnswerTheZeroGidForAPassiveAfIbWildcardWhereLibrdmacmReadsPastSockaddrIn()
    {
        final HarnessCase wildcard = LIBRDMACM_BUG_CASES.get(1);
        final AddrInfoResult result = RdmaGetAddrInfo.withDefaults().getaddrinfo(wildcard.node(), wildcard.service(),
            wildcard.hints());

        final String ours = CanonicalLine.of(result);
        assertEquals("ret=0 | flags=0x1 family=27 qp=2 ps=0x106 src=48:1b00ffff00000000" + "00".repeat(16) +
            "0000000001061d2fffffffffffffffff0000000000000000 dst=0:- srccanon=- dstcanon=- route=0:- connect=0:-", ours);
        assertNotEquals(librdmacmBugLines.get(1), ours, "librdmacm 44 builds this GID from 0.0.0.0's sockaddr_in");
    }
}
