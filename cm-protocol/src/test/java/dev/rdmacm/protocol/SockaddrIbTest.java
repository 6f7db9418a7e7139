package dev.rdmacm.protocol;

import dev.rdmacm.testing.CHeaders;
import dev.rdmacm.testing.Peers;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SockaddrIbTest
{
    private static final String IB_H = "#include <infiniband/ib.h>";

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[SockaddrIb.LENGTH]);
    private final SockaddrIb address = new SockaddrIb();

    @Test
    void shouldMatchTheLayoutOfInfinibandIbH()
    {
        Peers.requireFile("/usr/include/infiniband/ib.h", "librdmacm-dev");
        CHeaders.assertValues(IB_H, Map.ofEntries(
            entry("sizeof(struct sockaddr_ib)", SockaddrIb.LENGTH),
            entry("offsetof(struct sockaddr_ib, sib_family)", SockaddrIb.FAMILY_OFFSET),
            entry("offsetof(struct sockaddr_ib, sib_pkey)", SockaddrIb.PKEY_OFFSET),
            entry("offsetof(struct sockaddr_ib, sib_flowinfo)", SockaddrIb.FLOWINFO_OFFSET),
            entry("offsetof(struct sockaddr_ib, sib_addr)", SockaddrIb.ADDR_OFFSET),
            entry("sizeof(struct ib_addr)", Gid.LENGTH),
            entry("offsetof(struct sockaddr_ib, sib_sid)", SockaddrIb.SID_OFFSET),
            entry("offsetof(struct sockaddr_ib, sib_sid_mask)", SockaddrIb.SID_MASK_OFFSET),
            entry("offsetof(struct sockaddr_ib, sib_scope_id)", SockaddrIb.SCOPE_ID_OFFSET),
            entry("AF_IB", SockaddrIb.AF_IB)));
    }

    @Test
    void shouldEncodeTheBytesACProgramBuildsWithHostAndNetworkOrderFields()
    {
        Peers.requireFile("/usr/include/infiniband/ib.h", "librdmacm-dev");
        final String fromC = CHeaders.bytesOf(IB_H, """
              struct sockaddr_ib s;
              memset(&s, 0, sizeof(s));
              s.sib_family = AF_IB;
              s.sib_pkey = htobe16(0x8001);
              s.sib_flowinfo = htobe32(0x000abcde);
              s.sib_addr.sib_subnet_prefix = htobe64(0xfe80000000000000ULL);
              s.sib_addr.sib_interface_id = htobe64(0x0002c90300a1b2c3ULL);
              s.sib_sid = htobe64(0x0000000001064853ULL);
              s.sib_sid_mask = htobe64(0xffffffffffffffffULL);
              s.sib_scope_id = 0x0102030405060708ULL;
            """, "s");

        address.wrap(buffer, 0).init().pkey(0x8001).flowinfo(0xabcde)
            .addr(0xfe80_0000_0000_0000L, 0x0002_c903_00a1_b2c3L).sid(PortSpace.TCP.serviceId(18515)).sidMask(-1L)
            .scopeId(0x0102_0304_0506_0708L);

        assertEquals(fromC, CHeaders.hex(buffer, 0, SockaddrIb.LENGTH));
    }

    @Test
    void shouldRoundTripEveryFieldAtItsMaximum()
    {
        address.wrap(buffer, 0).init().pkey(0xffff).flowinfo(0xffff_ffffL).addr(-1L, -1L).sid(-1L).sidMask(-1L)
            .scopeId(-1L);

        address.wrap(buffer, 0, SockaddrIb.LENGTH);
        assertEquals(SockaddrIb.AF_IB, address.family());
        assertEquals(0xffff, address.pkey());
        assertEquals(0xffff_ffffL, address.flowinfo());
        assertEquals(new Gid(-1L, -1L), address.addr());
        assertEquals(-1L, address.addrSubnetPrefix());
        assertEquals(-1L, address.addrInterfaceId());
        assertEquals(-1L, address.sid());
        assertEquals(-1L, address.sidMask());
        assertEquals(-1L, address.scopeId());
    }

    @Test
    void shouldPrintTheCFieldNames()
    {
        address.wrap(buffer, 0).init().pkey(0xffff).addr(Gid.parse("fe80::10:4"))
            .sid(PortSpace.TCP.serviceId(18515)).sidMask(-1L);

        assertEquals("sockaddr_ib{sib_family=27, sib_pkey=0xffff, sib_flowinfo=0x00000000, sib_addr=fe80::10:4, " +
            "sib_sid=0x0000000001064853, sib_sid_mask=0xffffffffffffffff, sib_scope_id=0}", address.toString());
    }

    @Test
    void shouldRejectAnotherAddressFamily()
    {
        address.wrap(buffer, 0).init().family(10);

        final MalformedMessageException ex = assertThrows(MalformedMessageException.class,
            () -> address.wrap(buffer, 0, SockaddrIb.LENGTH));

        assertEquals("sockaddr_ib: sib_family 10 is not AF_IB (27)", ex.getMessage());
    }

    @Test
    void shouldRejectAShortAddress()
    {
        final MalformedMessageException ex = assertThrows(MalformedMessageException.class,
            () -> address.wrap(buffer, 0, 28));

        assertEquals("sockaddr_ib: 28 bytes present, the format needs at least 48", ex.getMessage());
    }
}
