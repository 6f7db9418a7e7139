package dev.rdmacm.verbs.sysfs;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.verbs.GidBinding;
import dev.rdmacm.verbs.GidEntry;
import dev.rdmacm.verbs.GidType;
import dev.rdmacm.verbs.LinkLayer;
import dev.rdmacm.verbs.NodeType;
import dev.rdmacm.verbs.PhysicalPortState;
import dev.rdmacm.verbs.PkeyEntry;
import dev.rdmacm.verbs.PortState;
import dev.rdmacm.verbs.RdmaDevice;
import dev.rdmacm.verbs.RdmaDevices;
import dev.rdmacm.verbs.RdmaPort;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.rdmacm.verbs.sysfs.RecordedSysfsTrees.IB_HCA;
import static dev.rdmacm.verbs.sysfs.RecordedSysfsTrees.SOFT_ROCE;
import static dev.rdmacm.verbs.sysfs.RecordedSysfsTrees.SOFT_ROCE_IPV4_GID;
import static dev.rdmacm.verbs.sysfs.RecordedSysfsTrees.SOFT_ROCE_IPV6_GID;
import static dev.rdmacm.verbs.sysfs.RecordedSysfsTrees.SOFT_ROCE_LINK_LOCAL_GID;
import static dev.rdmacm.verbs.sysfs.RecordedSysfsTrees.SOFT_ROCE_NETDEV;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SysfsDevicesTest
{
    private static final String MLX5_PORT1 = "class/infiniband/mlx5_0/ports/1/";

    @TempDir
    Path root;

    @Test
    void shouldReadTheInfiniBandHcaWithBothPorts()
    {
        final RdmaDevices devices = SysfsDevices.read(RecordedSysfsTrees.copy(root, IB_HCA));

        assertEquals("sysfs " + root, devices.source());
        assertEquals(1, devices.devices().size());
        final RdmaDevice hca = devices.devices().get(0);
        assertEquals("mlx5_0", hca.name());
        assertEquals(NodeType.CA, hca.nodeType());
        assertEquals(0x0002_c903_00a1_b2c4L, hca.nodeGuid());
        assertEquals(List.of(1, 2), hca.ports().stream().map(RdmaPort::number).toList());
    }

    @Test
    void shouldReadTheActivePortWithItsLidsGidsAndNonDefaultPkeys()
    {
        final RdmaPort port = SysfsDevices.read(RecordedSysfsTrees.copy(root, IB_HCA)).devices().get(0).ports().get(0);

        assertEquals(new RdmaPort(1, PortState.ACTIVE, PhysicalPortState.LINK_UP, LinkLayer.INFINIBAND, 5, 0, 1, 0,
            "100 Gb/sec (4X EDR)",
            List.of(
                new GidEntry(0, Gid.parse("fe80::2:c903:a1:b2c5"), GidType.IB, Optional.empty()),
                new GidEntry(1, Gid.parse("fec0::1:2:c903:a1:b2c5"), GidType.IB, Optional.empty())),
            List.of(new PkeyEntry(0, 0xffff), new PkeyEntry(1, 0x8001), new PkeyEntry(2, 0x0002))), port);
    }

    @Test
    void shouldReadTheDownPort()
    {
        final RdmaPort port = SysfsDevices.read(RecordedSysfsTrees.copy(root, IB_HCA)).devices().get(0).ports().get(1);

        assertEquals(PortState.DOWN, port.state());
        assertEquals(PhysicalPortState.DISABLED, port.physState());
        assertEquals(0, port.lid());
        assertEquals(0, port.smLid());
        assertEquals(List.of(new GidEntry(0, Gid.parse("fe80::2:c903:a1:b2c6"), GidType.IB, Optional.empty())), port.gids());
        assertEquals(List.of(new PkeyEntry(0, 0xffff)), port.pkeys());
    }

    @Test
    void shouldReadSoftRoceGidsWithTheirTypesAndNetdev()
    {
        final RdmaPort port = SysfsDevices.read(RecordedSysfsTrees.copy(root, SOFT_ROCE)).devices().get(0).ports().get(0);

        final Optional<String> netdev = Optional.of(SOFT_ROCE_NETDEV);
        assertEquals(LinkLayer.ETHERNET, port.linkLayer());
        assertEquals(List.of(
            new GidEntry(0, SOFT_ROCE_LINK_LOCAL_GID, GidType.ROCE_V1, netdev),
            new GidEntry(1, SOFT_ROCE_LINK_LOCAL_GID, GidType.ROCE_V2, netdev),
            new GidEntry(2, SOFT_ROCE_IPV4_GID, GidType.ROCE_V1, netdev),
            new GidEntry(3, SOFT_ROCE_IPV4_GID, GidType.ROCE_V2, netdev),
            new GidEntry(4, SOFT_ROCE_IPV6_GID, GidType.ROCE_V1, netdev),
            new GidEntry(5, SOFT_ROCE_IPV6_GID, GidType.ROCE_V2, netdev)), port.gids());
    }

    @Test
    void shouldFindTheRoceV2EntryOfAnIpv4AddressOnItsNetdev()
    {
        final RdmaDevices devices = SysfsDevices.read(RecordedSysfsTrees.copy(root, IB_HCA, SOFT_ROCE));

        final GidBinding binding = devices.find(SOFT_ROCE_NETDEV, SOFT_ROCE_IPV4_GID, GidType.ROCE_V2).orElseThrow();

        assertEquals("rxe0", binding.device().name());
        assertEquals(1, binding.port().number());
        assertEquals(3, binding.entry().index());
        assertEquals("rxe0 port 1 gid 3 ::ffff:192.0.2.1 RoCE v2 veth-rdma0", binding.toString());
    }

    @Test
    void shouldFindBothRoceTypesOfAnIpv6Address()
    {
        final RdmaDevices devices = SysfsDevices.read(RecordedSysfsTrees.copy(root, SOFT_ROCE));

        assertEquals(List.of(4, 5),
            devices.find(SOFT_ROCE_NETDEV, SOFT_ROCE_IPV6_GID).stream().map(b -> b.entry().index()).toList());
        assertEquals(List.of(), devices.find("eth0", SOFT_ROCE_IPV6_GID));
    }

    @Test
    void shouldFindAnInfiniBandGidWithoutNetdev()
    {
        final RdmaDevices devices = SysfsDevices.read(RecordedSysfsTrees.copy(root, IB_HCA, SOFT_ROCE));

        final List<GidBinding> found = devices.find(RecordedSysfsTrees.IB_HCA_PORT1_GID);

        assertEquals(1, found.size());
        assertEquals("mlx5_0 port 1 gid 0 fe80::2:c903:a1:b2c5 IB", found.get(0).toString());
        assertEquals(6, devices.onNetdev(SOFT_ROCE_NETDEV).size());
    }

    @Test
    void shouldBindTheSoftRoceTreeToAnotherNetdev()
    {
        final RdmaDevices devices = SysfsDevices.read(RecordedSysfsTrees.softRoce(root, "veth-t4711"));

        assertEquals(6, devices.onNetdev("veth-t4711").size());
        assertEquals(List.of(), devices.onNetdev(SOFT_ROCE_NETDEV));
        assertEquals(3, devices.find("veth-t4711", SOFT_ROCE_IPV4_GID, GidType.ROCE_V2).orElseThrow().entry().index());
    }

    @Test
    void shouldListNoDevicesWhenNoRdmaDriverIsLoaded()
    {
        assertEquals(List.of(), SysfsDevices.read(root).devices());
    }

    @Test
    void shouldRootAtSysfsPathWithoutTrailingSlashesAsLibibverbsDoes()
    {
        assertEquals(Path.of("/tmp/recorded"), SysfsDevices.root(Map.of("SYSFS_PATH", "/tmp/recorded//")));
        assertEquals(Path.of("/sys"), SysfsDevices.root(Map.of("SYSFS_PATH", "")));
        assertEquals(Path.of("/sys"), SysfsDevices.root(Map.of()));
    }

    @Test
    void shouldNameTheFileAndRuleForAMalformedLid() throws IOException
    {
        final Path lid = root.resolve(MLX5_PORT1 + "lid");

        final SysfsFormatException ex = readFailure(IB_HCA, lid, "fifteen\n");

        assertEquals(lid, ex.file());
        assertEquals(lid + ": 'fifteen' breaks the format; expected a LID: 0x followed by 1 to 4 hex digits, e.g. 0x5",
            ex.getMessage());
    }

    @Test
    void shouldNameAnEmptyFile() throws IOException
    {
        final Path guid = root.resolve("class/infiniband/mlx5_0/node_guid");

        final SysfsFormatException ex = readFailure(IB_HCA, guid, "");

        assertEquals(guid + ": empty; the kernel never writes an empty value here", ex.getMessage());
    }

    @Test
    void shouldNameAMissingFile() throws IOException
    {
        final Path state = root.resolve(MLX5_PORT1 + "state");

        final SysfsFormatException ex = readFailureWithout(IB_HCA, state);

        assertEquals(state + ": missing; the kernel always writes this file", ex.getMessage());
    }

    @Test
    void shouldRejectAnUnknownPortState() throws IOException
    {
        final Path state = root.resolve(MLX5_PORT1 + "state");

        final SysfsFormatException ex = readFailure(IB_HCA, state, "9: SLEEPY\n");

        assertEquals(state + ": '9: SLEEPY' breaks the format; expected '<number>: <name>' with a number 0-5, e.g. '4: ACTIVE'",
            ex.getMessage());
    }

    @Test
    void shouldRejectAShortGid() throws IOException
    {
        final Path gid = root.resolve("class/infiniband/rxe0/ports/1/gids/2");

        final SysfsFormatException ex = readFailure(SOFT_ROCE, gid, "::ffff:192.0.2.1\n");

        assertEquals(gid + ": '::ffff:192.0.2.1' breaks the format; expected 8 groups of 4 hex digits separated by ':',"
            + " e.g. fe80:0000:0000:0000:0002:c903:00a1:b2c5", ex.getMessage());
    }

    @Test
    void shouldRejectAnUnknownGidType() throws IOException
    {
        final Path type = root.resolve("class/infiniband/rxe0/ports/1/gid_attrs/types/3");

        final SysfsFormatException ex = readFailure(SOFT_ROCE, type, "RoCE v3\n");

        assertEquals(type + ": 'RoCE v3' breaks the format; expected 'IB/RoCE v1' or 'RoCE v2'", ex.getMessage());
    }

    @Test
    void shouldRejectAnEntryThatIsNotAnIndex() throws IOException
    {
        final Path stray = root.resolve(MLX5_PORT1 + "pkeys/default");

        final SysfsFormatException ex = readFailure(IB_HCA, stray, "0xffff\n");

        assertEquals(stray + ": unexpected entry; this directory holds only numbered entries", ex.getMessage());
    }

    @Test
    void shouldTreatAMissingNdevAsNoNetdevAndMissingTypesAsIbOrRoceV1() throws IOException
    {
        RecordedSysfsTrees.copy(root, SOFT_ROCE);
        Files.delete(root.resolve("class/infiniband/rxe0/ports/1/gid_attrs/ndevs/0"));
        Files.delete(root.resolve("class/infiniband/rxe0/ports/1/gid_attrs/types/1"));

        final List<GidEntry> gids = SysfsDevices.read(root).devices().get(0).ports().get(0).gids();

        assertEquals(new GidEntry(0, SOFT_ROCE_LINK_LOCAL_GID, GidType.ROCE_V1, Optional.empty()), gids.get(0));
        assertEquals(GidType.ROCE_V1, gids.get(1).type());
    }

    @Test
    void shouldReadThisMachinesSysfsWithoutError()
    {
        final boolean driverLoaded = Files.isDirectory(Path.of("/sys/class/infiniband"));

        final RdmaDevices devices = SysfsDevices.read(Path.of("/sys"));

        assertEquals("sysfs /sys", devices.source());
        if (!driverLoaded)
        {
            assertEquals(List.of(), devices.devices());
        }
    }

    /** Copies {@code tree}, writes {@code content} into {@code file} and returns why reading the copy fails. */
    private SysfsFormatException readFailure(final String tree, final Path file, final String content) throws IOException
    {
        RecordedSysfsTrees.copy(root, tree);
        Files.writeString(file, content);
        return assertThrows(SysfsFormatException.class, () -> SysfsDevices.read(root));
    }

    /** Copies {@code tree}, deletes {@code file} and returns why reading the copy fails. */
    private SysfsFormatException readFailureWithout(final String tree, final Path file) throws IOException
    {
        RecordedSysfsTrees.copy(root, tree);
        Files.delete(file);
        return assertThrows(SysfsFormatException.class, () -> SysfsDevices.read(root));
    }
}
