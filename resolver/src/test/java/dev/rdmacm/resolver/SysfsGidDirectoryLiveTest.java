package dev.rdmacm.resolver;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.resolver.spi.SysfsGidDirectory;
import dev.rdmacm.verbs.GidType;
import dev.rdmacm.verbs.sysfs.RecordedSysfsTrees;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A live directory's re-read on a RoCE miss, on the recorded soft-RoCE tree ({@code rxe0} on
 * {@code e0}) in a temporary sysfs root that the test changes as roce_gid_mgmt would: a GID entry
 * written where the table had none.
 */
class SysfsGidDirectoryLiveTest
{
    private static final Gid ADDED = Gid.parse("2001:db8::99");
    private static final int FREE_INDEX = 7;

    @TempDir
    Path root;
    private SysfsGidDirectory live;

    @BeforeEach
    void recordRxe0OnE0()
    {
        RecordedSysfsTrees.softRoce(root, "e0");
        live = SysfsGidDirectory.live(root);
    }

    private void addEntry(final String device, final String netdev) throws IOException
    {
        final Path port = root.resolve("class/infiniband").resolve(device).resolve("ports/1");
        Files.writeString(port.resolve("gids/" + FREE_INDEX), "2001:0db8:0000:0000:0000:0000:0000:0099\n");
        Files.writeString(port.resolve("gid_attrs/types/" + FREE_INDEX), "RoCE v2\n");
        Files.writeString(port.resolve("gid_attrs/ndevs/" + FREE_INDEX), netdev + "\n");
    }

    @Test
    void shouldFindAGidAddedAfterOpenOnThePortsNetdev() throws IOException
    {
        addEntry("rxe0", "e0");
        assertEquals(FREE_INDEX, live.findRoceGid(ADDED, "e0").orElseThrow().gidIndex());
    }

    @Test
    void shouldFindAVlanGidThroughTheVlansLowerDevice() throws IOException
    {
        Files.createDirectories(root.resolve("class/net/e0.7/lower_e0"));
        addEntry("rxe0", "e0.7");
        assertEquals("e0.7", live.findRoceGid(ADDED, "e0.7").orElseThrow().netdev());
    }

    @Test
    void shouldNotReadAgainForANetdevWithNoRdmaDeviceBelowIt() throws IOException
    {
        Files.createDirectories(root.resolve("class/net/plain"));
        addEntry("rxe0", "plain");
        assertTrue(live.findRoceGid(ADDED, "plain").isEmpty());
        assertTrue(live.devices().find("plain", ADDED, GidType.ROCE_V2).isEmpty(), "rxe0's table was not read again");
    }

    @Test
    void shouldReadEveryDeviceAgainWhenTheDeviceListChanged() throws IOException
    {
        final Path copy = Files.createTempDirectory(root.getParent(), "rxe9");
        RecordedSysfsTrees.softRoce(copy, "e9");
        Files.move(copy.resolve("class/infiniband/rxe0"), root.resolve("class/infiniband/rxe9"));
        addEntry("rxe9", "e9");
        assertEquals("rxe9", live.findRoceGid(ADDED, "e9").orElseThrow().device());
    }

    @Test
    void shouldFindAnEntryAddedAfterOpenByItsIndexAsAWildcardRequestAsksForIt() throws IOException
    {
        addEntry("rxe0", "e0");
        final RdmaPortBinding entry = live.entry("rxe0", 1, FREE_INDEX).orElseThrow();
        assertEquals(ADDED, entry.gid());
        assertEquals(GidType.ROCE_V2, entry.gidType());
        assertEquals("e0", entry.netdev());
    }

    @Test
    void shouldFindNoEntryOnAPortOrDeviceTheTreeDoesNotHave()
    {
        assertTrue(live.entry("rxe0", 2, 0).isEmpty());
        assertTrue(live.entry("rxe7", 1, 0).isEmpty());
    }

    @Test
    void shouldListEveryPortOnceByItsFirstEntryForAWildcardListen() throws IOException
    {
        final Path copy = Files.createTempDirectory(root.getParent(), "rxe9");
        RecordedSysfsTrees.softRoce(copy, "e9");
        Files.move(copy.resolve("class/infiniband/rxe0"), root.resolve("class/infiniband/rxe9"));
        assertEquals(List.of("rxe0/1/0", "rxe9/1/0"), live.ports().stream().map(b -> b.device() + "/" + b.port() + "/" + b.gidIndex())
            .toList());
    }
}
