package dev.rdmacm.addrinfo;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PKey;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RdmaSockaddrTest
{
    @Test
    void shouldParseAndPrintAnIpv4AddressWithPort()
    {
        final RdmaSockaddr address = RdmaSockaddr.parse("192.0.2.9:99", "--src");

        assertEquals(new Ipv4Sockaddr(0xC000_0209, 99), address);
        assertEquals("192.0.2.9:99", address.toText());
        assertEquals("02000063c00002090000000000000000", HexFormat.of().formatHex(address.toBytes()));
    }

    @Test
    void shouldParseAnIpv6AddressWithScopeAndPort()
    {
        final RdmaSockaddr address = RdmaSockaddr.parse("[fe80::1%4]:7471", "--dst");

        assertEquals("[fe80::1%4]:7471", address.toText());
        assertEquals("0a001d2f00000000fe80000000000000000000000000000104000000", HexFormat.of().formatHex(address.toBytes()));
    }

    @Test
    void shouldReadBackWhatItWrites()
    {
        final IbSockaddr ib = new IbSockaddr(PKey.of(0x8001), 0x12345, Gid.parse("fe80::2:c903:0:1"), 0x1061D2FL, -1L, 7);

        assertEquals(ib, RdmaSockaddr.fromBytes(ib.toBytes()));
        assertEquals(0x1d2f, ib.port());
        final Ipv6Sockaddr v6 = new Ipv6Sockaddr(Gid.parse("fd00::9").toBytes(), 4791, 0xabcde, 3);
        assertEquals(v6, RdmaSockaddr.fromBytes(v6.toBytes()));
    }

    @Test
    void shouldParseAnAfIbAddressAsItIsPrinted()
    {
        final IbSockaddr ib = new IbSockaddr(PKey.of(0x8001), 0x123, Gid.parse("fe80::2:c903:0:1"), 0x1061D2FL, -1L, 7);

        assertEquals("gid=fe80::2:c903:0:1 pkey=0x8001 sid=0x0000000001061d2f sid_mask=0xffffffffffffffff flowinfo=291 scope_id=7",
            ib.toText());
        assertEquals(ib, RdmaSockaddr.parse(ib.toText(), "--dst"));
        assertEquals(new IbSockaddr(PKey.of(0xffff), 0, Gid.parse("fe80::1"), 0, 0, 0), RdmaSockaddr.parse("gid=fe80::1", "--dst"));
    }

    @Test
    void shouldNameTheUnknownFieldOfAnAfIbAddress()
    {
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> RdmaSockaddr.parse("gid=fe80::1 port=1", "--dst"));

        assertEquals("--dst: 'port=1' is not one of gid=, pkey=, sid=, sid_mask=, flowinfo=, scope_id=", error.getMessage());
    }

    @Test
    void shouldKeepAnUnknownFamilyOpaque()
    {
        final RdmaSockaddr address = RdmaSockaddr.fromBytes(new byte[] {99, 0, 1, 2});

        assertInstanceOf(OpaqueSockaddr.class, address);
        assertEquals(99, address.family());
        assertEquals(4, address.length());
    }

    @Test
    void shouldNameTheInputAndTheRuleForABadPort()
    {
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> RdmaSockaddr.parse("[::1]:70000", "--dst"));

        assertEquals("--dst: port '70000' is not a number from 0 to 65535", error.getMessage());
    }

    @Test
    void shouldNameTheInputAndTheRuleForAMissingBracket()
    {
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> RdmaSockaddr.parse("[::1:7471", "--dst"));

        assertEquals("--dst: '[::1:7471' opens '[' but has no ']' ([ipv6[%scope]][:port])", error.getMessage());
    }

    @Test
    void shouldRefuseSomethingThatIsNeitherFamily()
    {
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> RdmaSockaddr.parse("host.example:1", "--src"));

        assertEquals("--src: 'host.example:1' is not a.b.c.d[:port], [ipv6[%scope]][:port] or gid=GID [sid=...]", error.getMessage());
    }
}
