package dev.rdmacm.protocol;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The MGIDs {@code cma_set_mgid} makes. The expected values are the ones measured from peers
 * (shared/reference/multicast.md): saquery's listing of the group a kernel-format join of 239.1.2.3 made
 * on OpenSM, the MGID of ff0e::1234, and the SA-assigned MGIDs OpenSM handed out.
 */
class IbMulticastGidTest
{
    private static Gid mgid(final String address, final PortSpace portSpace) throws Exception
    {
        return IbMulticastGid.of(InetAddress.getByName(address), portSpace, IbMulticastGid.DEFAULT_SCOPE, 0xffff);
    }

    @Test
    void shouldMapAnIpv4GroupWithTheRdmaCmSignatureAndTheLow28Bits() throws Exception
    {
        assertEquals(Gid.parse("ff12:4001:ffff::f01:203"), mgid("239.1.2.3", PortSpace.UDP));
    }

    @Test
    void shouldMapAnIpv6GroupLosingItsScope() throws Exception
    {
        assertEquals(Gid.parse("ff12:6001:ffff::1234"), mgid("ff0e::1234", PortSpace.UDP));
    }

    @Test
    void shouldKeepTheIpoibSignatureOutsideRdmaPsUdp() throws Exception
    {
        assertEquals(Gid.parse("ff12:401b:ffff::f01:203"), mgid("239.1.2.3", PortSpace.IB));
        assertEquals(Gid.parse("ff12:601b:ffff::1234"), mgid("ff0e::1234", PortSpace.IPOIB));
    }

    @Test
    void shouldKeepAnSaAssignedMgidGivenAsIpv6() throws Exception
    {
        assertEquals(Gid.parse("ff12:a01b:fe80::"), mgid("ff12:a01b:fe80::", PortSpace.UDP));
        assertEquals(Gid.parse("ff15:a01b:fe80::100:0:0"), mgid("ff15:a01b:fe80::100:0:0", PortSpace.UDP));
    }

    @Test
    void shouldAskTheSaForAnMgidForWildcardAndLoopbackAddresses() throws Exception
    {
        for (final String address : new String[] {"0.0.0.0", "::", "127.0.0.1", "127.9.9.9", "::1"})
        {
            assertEquals(Gid.ZERO, mgid(address, PortSpace.UDP), address);
        }
    }

    @Test
    void shouldPutTheScopeAndTheFullMemberPKeyOfTheBroadcastAddress() throws Exception
    {
        assertEquals(Gid.parse("ff15:4001:8001::f01:203"),
            IbMulticastGid.of(InetAddress.getByName("239.1.2.3"), PortSpace.UDP, 5, 0x0001));
    }

    @Test
    void shouldRejectAScopeThatIsNotANibble()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> IbMulticastGid.of(InetAddress.getByName("239.1.2.3"), PortSpace.UDP, 16, 0xffff));

        assertEquals("multicast GID of 239.1.2.3: scope 16 (0-15) or P_Key 0xffff (16 bits) out of range", ex.getMessage());
    }
}
