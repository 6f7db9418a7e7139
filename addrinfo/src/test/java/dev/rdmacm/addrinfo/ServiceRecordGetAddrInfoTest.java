package dev.rdmacm.addrinfo;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.protocol.PortSpace;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** RAI_SA as upstream librdmacm (reference §2.8). */
class ServiceRecordGetAddrInfoTest
{
    private static final RdmaAddrInfoHints SA = RdmaAddrInfoHints.NONE.withFlags(RaiFlags.SA);
    private static final ServiceRecordMatch MATCH = new ServiceRecordMatch(0x1000_0000_0000_1234L, Gid.parse("fe80::2"),
        PKey.of(0xffff), Gid.parse("fe80::1"));

    @Test
    void shouldRefuseANodeWithEopnotsupp()
    {
        assertEquals(AddrInfoResult.ErrnoError.of(Errno.EOPNOTSUPP),
            RdmaGetAddrInfo.withDefaults().getaddrinfo("node", "0x1234", SA));
    }

    @Test
    void shouldRefuseRaiDnsWithEopnotsupp()
    {
        assertEquals(AddrInfoResult.ErrnoError.of(Errno.EOPNOTSUPP),
            RdmaGetAddrInfo.withDefaults().getaddrinfo(null, "0x1234", SA.withFlags(RaiFlags.SA | RaiFlags.DNS)));
    }

    @Test
    void shouldAnswerEnoentWhenNothingIsFound()
    {
        assertEquals(AddrInfoResult.ErrnoError.of(Errno.ENOENT),
            RdmaGetAddrInfo.withDefaults().getaddrinfo(null, "0x1234", SA));
    }

    @Test
    void shouldReportTheLookupsErrno()
    {
        final RdmaGetAddrInfo resolver = RdmaGetAddrInfo.builder().serviceRecords(query ->
        {
            throw new ServiceRecordLookupException(Errno.ENODEV, "no active IB port");
        }).build();

        assertEquals(AddrInfoResult.ErrnoError.of(Errno.ENODEV), resolver.getaddrinfo(null, "0x1234", SA));
    }

    @Test
    void shouldLookUpANumericServiceById()
    {
        final FixedServiceRecords records = new FixedServiceRecords(List.of(MATCH));

        RdmaGetAddrInfo.builder().serviceRecords(records).build().getaddrinfo(null, "0x1234", SA);
        RdmaGetAddrInfo.builder().serviceRecords(records).build().getaddrinfo(null, "4660", SA);
        RdmaGetAddrInfo.builder().serviceRecords(records).build().getaddrinfo(null, "011064", SA);
        RdmaGetAddrInfo.builder().serviceRecords(records).build().getaddrinfo(null, "my.service", SA);

        assertEquals(List.of(new ServiceQuery.ById(0x1234), new ServiceQuery.ById(0x1234), new ServiceQuery.ById(0x1234),
            new ServiceQuery.ByName("my.service")), records.queries);
    }

    @Test
    void shouldAnswerOneAfIbEntryPerRecord()
    {
        final RdmaGetAddrInfo resolver = RdmaGetAddrInfo.builder()
            .serviceRecords(new FixedServiceRecords(List.of(MATCH, MATCH))).build();

        final AddrInfoResult result = resolver.getaddrinfo(null, "0x1000000000001234", SA);

        final RdmaAddrInfo expected = new RdmaAddrInfo(RaiFlags.SA, AddressFamily.AF_IB, 0, PortSpace.IB.code(),
            new IbSockaddr(PKey.of(0xffff), 0, Gid.parse("fe80::1"), 0x013F_0000L, 0xFFFF_FFFF_FFFF_0000L, 0),
            new IbSockaddr(PKey.of(0xffff), 0, Gid.parse("fe80::2"), 0x1000_0000_0000_1234L, -1L, 0), null, null, null, null);
        assertEquals(new AddrInfoResult.Success(List.of(expected, expected)), result);
    }
}
