package dev.rdmacm.sa.transport.verbs;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.sa.transport.FabricSpec;
import dev.rdmacm.sa.transport.MadTransportException;
import dev.rdmacm.testing.Peers;
import dev.rdmacm.verbs.GidEntry;
import dev.rdmacm.verbs.GidType;
import dev.rdmacm.verbs.Verbs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The verbs transport where there is no RDMA device (the host: CI machines have none), and its
 * choice of a RoCE source GID. With a device it is {@link VerbsTransportInGuest}, on Soft-RoCE in a
 * guest that the conformance module's {@code SoftRoceGuestsTest} boots.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class VerbsTransportTest
{
    private static final Gid SA_IPV4 = Gid.parse("::ffff:10.10.0.2");
    private static final List<GidEntry> ROCE_TABLE = List.of(
        entry(0, "fe80::5054:ff:fe12:3456", GidType.ROCE_V1),
        entry(1, "fe80::5054:ff:fe12:3456", GidType.ROCE_V2),
        entry(2, "::ffff:10.10.0.1", GidType.ROCE_V1),
        entry(3, "::ffff:10.10.0.1", GidType.ROCE_V2),
        entry(4, "2001:db8::1", GidType.ROCE_V1),
        entry(5, "2001:db8::1", GidType.ROCE_V2));

    @Test
    void shouldSayWhyThereIsNoDeviceToSendMadsFrom()
    {
        Peers.require(!Files.exists(Path.of("/dev/infiniband")),
            "a machine without RDMA devices (this one has /dev/infiniband): the no-device path is tested there");

        final MadTransportException ex = assertThrows(MadTransportException.class,
            () -> FabricSpec.parse("verbs").open(Duration.ofSeconds(1)));

        assertEquals("no verbs device to send MADs from: " + Verbs.listDevices().whyNone().orElseThrow(), ex.getMessage());
    }

    @Test
    void shouldNameTheMissingDevice()
    {
        final MadTransportException ex = assertThrows(MadTransportException.class,
            () -> FabricSpec.parse("verbs:nosuchdev0:1").open(Duration.ofSeconds(1)));

        assertTrue(ex.getMessage().startsWith("verbs device nosuchdev0: "), ex.getMessage());
    }

    @Test
    void shouldSendToAnIpv4SaFromTheRoceV2Ipv4Gid()
    {
        assertEquals(3, VerbsTransport.roceSource(ROCE_TABLE, SA_IPV4, "rxe0:1").index());
    }

    @Test
    void shouldSendToAGlobalIpv6SaFromTheGlobalRoceV2Gid()
    {
        assertEquals(5, VerbsTransport.roceSource(ROCE_TABLE, Gid.parse("2001:db8::2"), "rxe0:1").index());
    }

    @Test
    void shouldSendToALinkLocalSaFromTheLinkLocalRoceV2Gid()
    {
        assertEquals(1, VerbsTransport.roceSource(ROCE_TABLE, Gid.parse("fe80::1"), "rxe0:1").index());
    }

    @Test
    void shouldFallBackToRoceV1WhenThereIsNoV2Gid()
    {
        assertEquals(2, VerbsTransport.roceSource(ROCE_TABLE.stream().filter(e -> e.type() == GidType.ROCE_V1).toList(), SA_IPV4,
            "rxe0:1").index());
    }

    @Test
    void shouldNameThePortAndFamilyWithoutASourceGid()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> VerbsTransport.roceSource(ROCE_TABLE.subList(4, 6), SA_IPV4, "rxe0:1"));

        assertTrue(ex.getMessage().startsWith("no RoCE GID of the SA's family (IPv4, like ::ffff:10.10.0.2) on rxe0:1: its GIDs are "),
            ex.getMessage());
    }

    private static GidEntry entry(final int index, final String gid, final GidType type)
    {
        return new GidEntry(index, Gid.parse(gid), type, Optional.of("veth-rdma0"));
    }
}
