package dev.rdmacm.cm;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.resolver.spi.SysfsGidDirectory;
import dev.rdmacm.resolver.spi.VerbsGidDirectory;
import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.Peers;
import dev.rdmacm.verbs.GidBinding;
import dev.rdmacm.verbs.GidEntry;
import dev.rdmacm.verbs.GidType;
import dev.rdmacm.verbs.RdmaDevice;
import dev.rdmacm.verbs.RdmaDevices;
import dev.rdmacm.verbs.Verbs;
import dev.rdmacm.verbs.sysfs.SysfsDevices;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The GID directory read through libibverbs ({@link VerbsGidDirectory}) against the kernel's own
 * sysfs files, read raw by {@link SysfsDevices} at the same moment, on every rxe device of the
 * conformance module's kernel guest ({@code KernelOnSoftRoceTest}: the resolver's, acm-server's and
 * {@code rdmacm devices}' devices, more than ten): the same devices, ports, GIDs with types and
 * netdevs (a VLAN's too), P_Keys, the same bindings, and an address added after the directory was
 * read found on the lookup's miss as the sysfs directory finds it.
 * <p>
 * The addresses added are on {@code k12} and its VLAN {@code k12.300} (rxe30, {@code KernelCmGuest}),
 * which no other class adds to or counts the GIDs of; they are removed again at the end.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
public class VerbsGidDirectoryInGuest
{
    private static final Path SYSFS = Path.of("/sys");
    /** KernelCmGuest's rxe0 stands on k0, whose VLAN k0.100 has its own GIDs on rxe0's port. */
    private static final String VLAN_DEVICE = "rxe0";
    private static final String VLAN = "k0.100";
    private static final String ADDED_DEVICE = "rxe30";
    private static final String ADDED_VLAN = "k12.300";
    private static final String ADDED_VLAN_IPV4 = "10.29.0.50";
    private static final String ADDED_NETDEV = "k12";
    private static final String ADDED_IPV6 = "2001:db8:28::50";
    private static final Duration SETTLE = Duration.ofSeconds(30);
    private static final int READ_ATTEMPTS = 3;
    /** A sysfs read is 3 s in the guest: the tables as both read them, once for the tests that compare them. */
    private static Read read;

    @BeforeAll
    static void readBothWays()
    {
        Peers.require(System.getenv("RDMACM_GUEST_SHARE") != null,
            "RDMACM_GUEST_SHARE: this class runs inside a KernelGuest (KernelOnSoftRoceTest)");
        Peers.require(!Verbs.listDevices().isEmpty(), "no RDMA device in the guest: " + Verbs.listDevices().whyNone().orElse(""));
        read = readUntilEqual();
    }

    @AfterAll
    static void removeTheAddedAddresses()
    {
        HostCommand.run(Duration.ofSeconds(30), "ip", "address", "del", ADDED_VLAN_IPV4 + "/24", "dev", ADDED_VLAN);
        HostCommand.run(Duration.ofSeconds(30), "ip", "address", "del", ADDED_IPV6 + "/64", "dev", ADDED_NETDEV);
    }

    @Test
    void shouldReadEveryDeviceAsSysfsDoes()
    {
        assertEquals(read.sysfs().devices(), read.ours().devices().devices());
        assertTrue(read.sysfs().devices().size() > 10, "the guest's devices: " + names(read.sysfs()));
        assertEquals("libibverbs", read.ours().devices().source());
    }

    @Test
    void shouldHoldTheVlansGidsUnderItsNameAsSysfsDoes()
    {
        final List<GidEntry> ours = gidsOn(read.ours().devices(), VLAN_DEVICE, VLAN);
        assertFalse(ours.isEmpty(), "no GID on " + VLAN + " in " + read.ours().devices().device(VLAN_DEVICE));
        assertEquals(gidsOn(read.sysfs(), VLAN_DEVICE, VLAN), ours);
    }

    @Test
    void shouldBindEveryRoceGidLoopbackAndAfIbAsTheSysfsDirectoryDoes()
    {
        final SysfsGidDirectory sysfs = new SysfsGidDirectory(read.sysfs());

        for (final GidBinding entry : read.sysfs().all())
        {
            final Gid gid = entry.entry().gid();
            final Optional<String> netdev = entry.entry().netdev();
            if (netdev.isPresent())
            {
                assertEquals(sysfs.findRoceGid(gid, netdev.get()), read.ours().findRoceGid(gid, netdev.get()), gid + " on " + netdev.get());
            }
            assertEquals(sysfs.findAfIbPort(gid, 0xffff), read.ours().findAfIbPort(gid, 0xffff), "AF_IB " + gid);
        }
        assertEquals(sysfs.loopbackPort(), read.ours().loopbackPort());
    }

    @Test
    void shouldFindAnAddressAddedOnAVlanAfterItWasRead() throws Exception
    {
        final Set<GidType> types = typesOn(SysfsDevices.readDevice(SYSFS, ADDED_DEVICE), ADDED_VLAN);
        final VerbsGidDirectory ours = VerbsGidDirectory.live(SYSFS);
        final Gid added = Gid.ipv4Mapped(ByteBuffer.wrap(InetAddress.getByName(ADDED_VLAN_IPV4).getAddress()).getInt());
        HostCommand.run(Duration.ofSeconds(30), "ip", "address", "add", ADDED_VLAN_IPV4 + "/24", "dev", ADDED_VLAN)
            .orFail("ip address add");

        final RdmaDevice sysfs = awaitSysfsGid(added, ADDED_VLAN, types);

        final Optional<RdmaPortBinding> found = ours.findRoceGid(added, ADDED_VLAN);
        assertTrue(found.isPresent(), added + " on " + ADDED_VLAN + " in " + ours.devices().device(ADDED_DEVICE));
        assertEquals(new SysfsGidDirectory(new RdmaDevices("sysfs", List.of(sysfs))).findRoceGid(added, ADDED_VLAN), found);
        assertEquals(Optional.of(sysfs), ours.devices().device(ADDED_DEVICE));
    }

    @Test
    void shouldFindAnIpv6AddressAddedAfterItWasRead() throws Exception
    {
        final Set<GidType> types = typesOn(SysfsDevices.readDevice(SYSFS, ADDED_DEVICE), ADDED_NETDEV);
        final VerbsGidDirectory ours = VerbsGidDirectory.live(SYSFS);
        final Gid added = Gid.parse(ADDED_IPV6);
        HostCommand.run(Duration.ofSeconds(30), "ip", "address", "add", ADDED_IPV6 + "/64", "dev", ADDED_NETDEV, "nodad")
            .orFail("ip address add");

        final RdmaDevice sysfs = awaitSysfsGid(added, ADDED_NETDEV, types);

        final Optional<RdmaPortBinding> found = ours.findRoceGid(added, ADDED_NETDEV);
        assertTrue(found.isPresent(), added + " on " + ADDED_NETDEV + " in " + ours.devices().device(ADDED_DEVICE));
        assertEquals(new SysfsGidDirectory(new RdmaDevices("sysfs", List.of(sysfs))).findRoceGid(added, ADDED_NETDEV), found);
        assertEquals(Optional.of(sysfs), ours.devices().device(ADDED_DEVICE));
    }

    /**
     * Our read and a sysfs read right after it; read again while they differ, a few times, in case a
     * table changed between the two (a real difference stays, and the tests show it).
     */
    private static Read readUntilEqual()
    {
        Read both = new Read(VerbsGidDirectory.live(SYSFS), SysfsDevices.read(SYSFS));
        for (int attempt = 1; attempt < READ_ATTEMPTS && !both.sysfs().devices().equals(both.ours().devices().devices()); attempt++)
        {
            both = new Read(VerbsGidDirectory.live(SYSFS), SysfsDevices.read(SYSFS));
        }
        return both;
    }

    /**
     * rxe30 as sysfs shows it once roce_gid_mgmt filed {@code gid} under {@code netdev} with every GID
     * type in {@code types} (those of the netdev's entries before: rxe on 6.1 files RoCE v2 alone), which
     * it does, a type at a time, a moment after the address.
     */
    private static RdmaDevice awaitSysfsGid(final Gid gid, final String netdev, final Set<GidType> types)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + SETTLE.toNanos();
        while (true)
        {
            final RdmaDevice device = SysfsDevices.readDevice(SYSFS, ADDED_DEVICE);
            if (device.ports().stream().flatMap(p -> p.gids().stream()).filter(e -> e.gid().equals(gid) && e.isOn(netdev))
                .map(GidEntry::type).collect(Collectors.toSet()).equals(types))
            {
                return device;
            }
            if (System.nanoTime() - deadline > 0)
            {
                throw new AssertionError("sysfs shows no GID " + gid + " on " + netdev + " within " + SETTLE.toSeconds() + " s: " + device);
            }
            Thread.sleep(50);
        }
    }

    private static Set<GidType> typesOn(final RdmaDevice device, final String netdev)
    {
        return device.ports().stream().flatMap(p -> p.gids().stream()).filter(e -> e.isOn(netdev)).map(GidEntry::type)
            .collect(Collectors.toSet());
    }

    private static List<GidEntry> gidsOn(final RdmaDevices devices, final String device, final String netdev)
    {
        return devices.device(device).orElseThrow(() -> new AssertionError("no " + device + " in " + names(devices)))
            .ports().stream().flatMap(p -> p.gids().stream()).filter(e -> e.isOn(netdev)).toList();
    }

    private static List<String> names(final RdmaDevices devices)
    {
        return devices.devices().stream().map(RdmaDevice::name).toList();
    }

    private record Read(VerbsGidDirectory ours, RdmaDevices sysfs)
    {
    }
}
