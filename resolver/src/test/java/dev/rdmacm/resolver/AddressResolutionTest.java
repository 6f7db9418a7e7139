package dev.rdmacm.resolver;

import dev.rdmacm.netlink.HardwareAddress;
import dev.rdmacm.netlink.LinkMessage;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.verbs.GidType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

@Timeout(10)
class AddressResolutionTest
{
    private static final Gid SGID = Gid.parse("::ffff:192.0.2.1");
    private static final Gid DGID = Gid.parse("::ffff:192.0.2.2");
    private static final RdmaPortBinding BINDING = new RdmaPortBinding("rxe0", 1, 1, SGID, GidType.ROCE_V2, "veth0",
        PKey.of(0xffff));

    private static AddressResolution resolution(final byte[] destinationMac, final List<ResolutionStep> steps)
        throws Exception
    {
        return new AddressResolution(InetAddress.getByName("192.0.2.1"), InetAddress.getByName("192.0.2.2"), false, 7,
            "veth0", LinkMessage.ARPHRD_ETHER, null, NetworkType.IB, 64,
            HardwareAddress.of(new byte[] {0x52, 0x54, 0, 0, 0, 1}), HardwareAddress.of(new byte[] {-1, -1, -1, -1, -1, -1}),
            HardwareAddress.of(destinationMac), SGID, DGID, PKey.of(0), BINDING, steps);
    }

    @Test
    void shouldNotChangeWhenTheMacItWasMadeFromChanges() throws Exception
    {
        final byte[] mac = {0x52, 0x54, 0, 0, 0, 2};
        final AddressResolution resolution = resolution(mac, List.of());

        mac[5] = 9;

        assertEquals("52:54:00:00:00:02", resolution.destinationHardwareText());
    }

    @Test
    void shouldNotChangeWhenTheMacItHandedOutChanges() throws Exception
    {
        final AddressResolution resolution = resolution(new byte[] {0x52, 0x54, 0, 0, 0, 2}, List.of());

        resolution.destinationHardwareAddress().toBytes()[5] = 9;

        assertEquals("52:54:00:00:00:02", resolution.destinationHardwareText());
    }

    @Test
    void shouldNotChangeWhenTheStepsItWasMadeFromChange() throws Exception
    {
        final ResolutionStep route = new ResolutionStep("route", 0, 1_000, "192.0.2.2 dev veth0");
        final List<ResolutionStep> steps = new ArrayList<>(List.of(route));
        final AddressResolution resolution = resolution(new byte[6], steps);

        steps.add(new ResolutionStep("neighbour", 1_000, 1_000, "lladdr 52:54:00:00:00:02"));

        assertEquals(List.of(route), resolution.steps());
        assertThrows(UnsupportedOperationException.class, () -> resolution.steps().clear());
    }

    @Test
    void shouldHaveNoHardwareAddressRatherThanNull() throws Exception
    {
        final AddressResolution resolution = new AddressResolution(InetAddress.getByName("127.0.0.1"),
            InetAddress.getByName("127.0.0.1"), true, 0, null, 0, null, NetworkType.IB, 0, null, null, null, SGID, SGID,
            PKey.of(0xffff), BINDING, List.of());

        assertSame(HardwareAddress.NONE, resolution.sourceHardwareAddress());
        assertSame(HardwareAddress.NONE, resolution.broadcastAddress());
        assertSame(HardwareAddress.NONE, resolution.destinationHardwareAddress());
    }
}
