package dev.rdmacm.addrinfo;

import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static dev.rdmacm.addrinfo.AddressFamily.AF_INET;
import static dev.rdmacm.addrinfo.AddressFamily.AF_INET6;
import static dev.rdmacm.addrinfo.RaiFlags.NUMERICHOST;
import static dev.rdmacm.addrinfo.RaiFlags.PASSIVE;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link GetAddrInfoConformanceTest}'s matrix again, inside a kernel guest with real Soft-RoCE
 * devices and the kernel's CM, against the real librdmacm 44 with no shim: {@code ucma_init} finds the
 * guest's rxe devices and its AF_IB probe asks the real kernel. Plus passive and active inputs on the
 * guest's own addresses. Run by the conformance module's SoftRoceGuestsTest, whose guest has the addresses
 * named here (10.20.0.1 on k0, its peer 10.20.0.2).
 */
public class GetAddrInfoOnRealDevicesInGuest
{
    private static final RdmaAddrInfoHints H = RdmaAddrInfoHints.NONE;
    private static List<HarnessCase> cases;
    private static List<String> librdmacm;

    @TempDir
    static Path work;

    @BeforeAll
    static void runTheRealLibrdmacm()
    {
        final String share = System.getenv("RDMACM_GUEST_SHARE");
        Peers.require(share != null, "RDMACM_GUEST_SHARE: this class runs inside a KernelGuest");
        cases = new ArrayList<>(GetAddrInfoConformanceTest.matrix());
        cases.add(new HarnessCase("10.20.0.1", "7471", H.withFlags(PASSIVE)));
        cases.add(new HarnessCase("2001:db8:20::1", "7471", H.withFlags(PASSIVE)));
        cases.add(new HarnessCase("10.20.0.1", "7471", H.withFlags(PASSIVE | NUMERICHOST).withFamily(AF_INET)));
        cases.add(new HarnessCase("2001:db8:20::1", "7471", H.withFlags(PASSIVE | NUMERICHOST).withFamily(AF_INET6)));
        cases.add(new HarnessCase("10.20.0.2", "7471", H));
        cases.add(new HarnessCase("2001:db8:20::2", "7471", H));
        cases.add(new HarnessCase("fe80::2%k0", "7471", H));
        librdmacm = RealLibrdmacm.runOnRealDevices(cases, Path.of(share, RealLibrdmacm.HARNESS_BINARY), work);
    }

    /** Compiles librdmacm's harness into the guest's share, on the host (gcc under TCG is slow). */
    public static Path compileHarness(final Path share)
    {
        return RealLibrdmacm.compileHarness(share);
    }

    @TestFactory
    Stream<DynamicTest> shouldGiveTheRealLibrdmacmsResultOnRealDevices()
    {
        // librdmacm's AF_IB probe succeeds on the real kernel: rdma_bind_addr takes an AF_IB wildcard.
        final RdmaGetAddrInfo ours = RdmaGetAddrInfo.builder().afIbSupport(true).build();
        return IntStream.range(0, cases.size()).mapToObj(i -> DynamicTest.dynamicTest(i + ": " + cases.get(i), () ->
        {
            final HarnessCase c = cases.get(i);
            assertEquals(librdmacm.get(i), CanonicalLine.of(ours.getaddrinfo(c.node(), c.service(), c.hints())),
                c.toString());
        }));
    }
}
