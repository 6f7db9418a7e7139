package dev.rdmacm.resolver;

import dev.rdmacm.resolver.spi.SysfsGidDirectory;
import dev.rdmacm.verbs.GidBinding;
import dev.rdmacm.verbs.GidEntry;
import dev.rdmacm.verbs.GidType;
import dev.rdmacm.verbs.RdmaDevices;
import dev.rdmacm.verbs.sysfs.RecordedSysfsTrees;
import dev.rdmacm.verbs.sysfs.SysfsDevices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static dev.rdmacm.verbs.sysfs.RecordedSysfsTrees.SOFT_ROCE_IPV4_GID;
import static dev.rdmacm.verbs.sysfs.RecordedSysfsTrees.SOFT_ROCE_IPV6_GID;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The RoCE lookup of a directory ({@code cma_acquire_dev_by_src_ip}'s choice, indexed once per table
 * read) on the recorded soft-RoCE tree, whose port holds each address's GID twice: a RoCE v1 entry at a
 * lower index than the RoCE v2 one.
 */
@Timeout(30)
class SysfsGidDirectoryRoceTest
{
    @TempDir
    Path root;

    @Test
    void shouldTakeTheRoceV2EntryOverTheV1EntryAtALowerIndex()
    {
        RecordedSysfsTrees.softRoce(root, "e0");
        final RdmaDevices devices = SysfsDevices.read(root);
        final int v1 = devices.find("e0", SOFT_ROCE_IPV4_GID, GidType.ROCE_V1).orElseThrow().entry().index();
        final int v2 = devices.find("e0", SOFT_ROCE_IPV4_GID, GidType.ROCE_V2).orElseThrow().entry().index();
        assertTrue(v1 < v2, "the recorded table holds the v1 entry first: " + v1 + ", " + v2);

        final RdmaPortBinding binding = new SysfsGidDirectory(devices).findRoceGid(SOFT_ROCE_IPV4_GID, "e0").orElseThrow();

        assertEquals(v2, binding.gidIndex());
        assertEquals(GidType.ROCE_V2, binding.gidType());
    }

    @Test
    void shouldAnswerEveryRoceEntryOfTheTablesAsTheirWalkInDevicePortAndIndexOrder() throws IOException
    {
        // two devices on one netdev hold the same GIDs: the first device's entry is the one
        RecordedSysfsTrees.softRoce(root, "e0");
        final Path copy = Files.createTempDirectory(root.getParent(), "rxe9");
        RecordedSysfsTrees.softRoce(copy, "e0");
        Files.move(copy.resolve("class/infiniband/rxe0"), root.resolve("class/infiniband/rxe9"));
        final RdmaDevices devices = SysfsDevices.read(root);
        final SysfsGidDirectory directory = new SysfsGidDirectory(devices);
        int asked = 0;
        for (final GidBinding each : devices.all())
        {
            final GidEntry entry = each.entry();
            if (entry.type() == GidType.IB || entry.netdev().isEmpty())
            {
                continue;
            }
            final String netdev = entry.netdev().get();
            final Optional<GidBinding> walked = devices.find(netdev, entry.gid(), GidType.ROCE_V2)
                .or(() -> devices.find(netdev, entry.gid(), GidType.ROCE_V1));
            final RdmaPortBinding found = directory.findRoceGid(entry.gid(), netdev).orElseThrow();
            assertEquals(walked.orElseThrow().device().name() + "/" + walked.orElseThrow().entry().index(),
                found.device() + "/" + found.gidIndex(), entry.gid() + " on " + netdev);
            asked++;
        }
        assertEquals("rxe0", directory.findRoceGid(SOFT_ROCE_IPV6_GID, "e0").orElseThrow().device());
        assertTrue(asked >= 8, "both devices' RoCE entries were asked: " + asked);
    }

    @Test
    void shouldFindNoRoceEntryForAGidOnAnotherNetdev()
    {
        RecordedSysfsTrees.softRoce(root, "e0");
        final SysfsGidDirectory directory = new SysfsGidDirectory(SysfsDevices.read(root));

        assertFalse(directory.findRoceGid(SOFT_ROCE_IPV4_GID, "e1").isPresent());
    }
}
