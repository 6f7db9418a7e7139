package dev.rdmacm.addrinfo;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.protocol.path.IbvPathData;
import dev.rdmacm.protocol.path.IbvPathRecord;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ACM step of rdma_getaddrinfo (reference §3.2-3.4) against a scripted ACM answer. */
class AcmStepTest
{
    private static final Ipv4Sockaddr SRC = new Ipv4Sockaddr(0xC000_0202, 0);

    @Test
    void shouldAskWithSourceDestinationAndNoDelayForANumericHost()
    {
        final ScriptedAcmClient acm = ScriptedAcmClient.answering(null);

        RdmaGetAddrInfo.builder().acm(acm).build().getaddrinfo("192.0.2.3", "7471",
            RdmaAddrInfoHints.NONE.withFlags(RaiFlags.NUMERICHOST).withSrcAddr(SRC));

        assertEquals(1, acm.queries.size());
        final AcmQuery query = acm.queries.getFirst();
        assertEquals(SRC, query.source());
        assertEquals(new Ipv4Sockaddr(0xC000_0203, 7471), query.destination());
        assertTrue(query.noDelay());
        assertNull(query.pathRecord());
    }

    @Test
    void shouldNotAskForAPassiveResult()
    {
        final ScriptedAcmClient acm = ScriptedAcmClient.answering(null);

        RdmaGetAddrInfo.builder().acm(acm).build().getaddrinfo(null, "7471", RdmaAddrInfoHints.NONE.withFlags(RaiFlags.PASSIVE));

        assertEquals(List.of(), acm.queries);
    }

    @Test
    void shouldSendAPathEntryWithTheAfIbGidsOverwritten()
    {
        final ScriptedAcmClient acm = ScriptedAcmClient.answering(null);
        final RdmaAddrInfoHints hints = RdmaAddrInfoHints.NONE.withFamily(AddressFamily.AF_IB)
            .withFlags(RaiFlags.FAMILY | RaiFlags.NUMERICHOST).withRoute(AcmScript.pathData());

        RdmaGetAddrInfo.builder().acm(acm).build().getaddrinfo("fe80::9", "7471", hints);

        final byte[] expected = java.util.Arrays.copyOfRange(AcmScript.pathData(), IbvPathData.PATH_OFFSET, IbvPathData.LENGTH);
        new IbvPathRecord().wrap(new UnsafeBuffer(expected), 0).dgid(Gid.parse("fe80::9"));
        assertArrayEquals(expected, acm.queries.getFirst().pathRecord());
        assertNull(acm.queries.getFirst().destination(), "an AF_IB destination travels in the path entry only");
    }

    @Test
    void shouldKeepTheRouteAndTakeTheAnsweredSourceOnlyWhenThereIsNone()
    {
        final Ipv4Sockaddr acmSource = new Ipv4Sockaddr(0x0A00_0001, 0);
        final RdmaGetAddrInfo resolver = RdmaGetAddrInfo.builder().acm(ScriptedAcmClient.answering(new AcmAnswer(AcmScript.pathData(), acmSource))).build();

        final RdmaAddrInfo withoutSource = ((AddrInfoResult.Success)resolver.getaddrinfo("192.0.2.3", "7471", null)).entries().getFirst();
        final RdmaAddrInfo withSource = ((AddrInfoResult.Success)resolver.getaddrinfo("192.0.2.3", "7471",
            RdmaAddrInfoHints.NONE.withSrcAddr(SRC))).entries().getFirst();

        assertEquals(acmSource, withoutSource.srcAddr());
        assertArrayEquals(AcmScript.pathData(), withoutSource.route());
        assertEquals(SRC, withSource.srcAddr());
    }

    @Test
    void shouldPrependAnAfIbEntryWithTheCmHeaderWhenTheKernelHasAfIb()
    {
        final RdmaGetAddrInfo resolver = RdmaGetAddrInfo.builder().acm(ScriptedAcmClient.answering(new AcmAnswer(AcmScript.pathData(), null)))
            .afIbSupport(true).build();

        final List<RdmaAddrInfo> entries = ((AddrInfoResult.Success)resolver.getaddrinfo("192.0.2.3", "7471",
            RdmaAddrInfoHints.NONE.withSrcAddr(SRC))).entries();

        assertEquals(2, entries.size());
        final RdmaAddrInfo ib = entries.getFirst();
        assertEquals(AddressFamily.AF_IB, ib.family());
        assertEquals(new IbSockaddr(PKey.of(0x8001), 0xA0_0123, Gid.parse("fe80::2"), 0x0106_0000L, 0xFFFF_FFFF_FFFF_0000L, 0), ib.srcAddr());
        assertEquals(new IbSockaddr(PKey.of(0x8001), 0xA0_0123, Gid.parse("fe80::3"), 0x0106_1D2FL, -1L, 0), ib.dstAddr());
        assertEquals("00400000" + "00".repeat(12) + "c0000202" + "00".repeat(12) + "c0000203",
            HexFormat.of().formatHex(ib.connect()));
        assertArrayEquals(AcmScript.pathData(), ib.route());
        assertEquals(AddressFamily.AF_INET, entries.get(1).family());
        assertArrayEquals(AcmScript.pathData(), entries.get(1).route());
    }

    @Test
    void shouldNotPrependForRouteOnly()
    {
        final RdmaGetAddrInfo resolver = RdmaGetAddrInfo.builder().acm(ScriptedAcmClient.answering(new AcmAnswer(AcmScript.pathData(), null)))
            .afIbSupport(true).build();

        final AddrInfoResult result = resolver.getaddrinfo("192.0.2.3", "7471", RdmaAddrInfoHints.NONE.withFlags(RaiFlags.ROUTEONLY));

        assertEquals(1, ((AddrInfoResult.Success)result).entries().size());
    }
}
