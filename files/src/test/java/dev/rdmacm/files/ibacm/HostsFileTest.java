package dev.rdmacm.files.ibacm;

import dev.rdmacm.protocol.Gid;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class HostsFileTest
{
    private static final Path FILE = Path.of("ibacm_hosts.data");

    @Test
    void shouldReadAddressGidPairsSkippingCommentsAndBlankLines() throws Exception
    {
        final HostsFile hosts = HostsFile.parse(List.of(
            "# InfiniBand Communication Management Assistant for clusters address file",
            "",
            "10.0.0.2 fe80::10:4",
            "  fe80::a:1   fe80::10:7  extra",
            "node3 fe80::10:8"), FILE);

        assertEquals(3, hosts.hosts().size());
        assertEquals(Gid.parse("fe80::10:4"), hosts.byAddress(InetAddress.getByName("10.0.0.2")).orElseThrow().gid());
        assertEquals(Gid.parse("fe80::10:7"), hosts.byAddress(InetAddress.getByName("fe80::a:1")).orElseThrow().gid());
        assertNull(hosts.byName("node3").orElseThrow().ip());
        assertEquals(5, hosts.byName("node3").orElseThrow().line());
    }

    @Test
    void shouldKeepTheFirstOfDuplicateAddresses() throws Exception
    {
        final HostsFile hosts = HostsFile.parse(List.of("10.0.0.2 fe80::1", "10.0.0.2 fe80::2"), FILE);

        assertEquals(Gid.parse("fe80::1"), hosts.byAddress(InetAddress.getByName("10.0.0.2")).orElseThrow().gid());
    }

    @Test
    void shouldTreatAnAddressInetPtonRejectsAsAName()
    {
        final HostsFile hosts = HostsFile.parse(List.of("300.1.1.1 fe80::1"), FILE);

        assertNull(hosts.hosts().get(0).ip());
    }

    @Test
    void shouldNameTheFileLineAndRuleOfABadLine()
    {
        final IllegalArgumentException missing =
            assertThrows(IllegalArgumentException.class, () -> HostsFile.parse(List.of("10.0.0.2"), FILE));
        assertEquals("ibacm_hosts.data:1: expected 'address GID', got '10.0.0.2'", missing.getMessage());

        final IllegalArgumentException badGid = assertThrows(IllegalArgumentException.class,
            () -> HostsFile.parse(List.of("# c", "10.0.0.2 zz::1"), FILE));
        assertEquals(true, badGid.getMessage().startsWith("ibacm_hosts.data:2: 'zz::1' is not a GID"));
    }

    @Test
    void shouldSkipAndReportBadLinesWhenLenient()
    {
        final List<String> problems = new ArrayList<>();

        final HostsFile hosts = HostsFile.parseLenient(List.of("garbage", "10.0.0.3 fe80::3"), FILE, problems);

        assertEquals(1, hosts.hosts().size());
        assertEquals(List.of("ibacm_hosts.data:1: expected 'address GID', got 'garbage'"), problems);
    }

    @Test
    void shouldFindTheIpEntryOfAGid() throws Exception
    {
        final HostsFile hosts = HostsFile.parse(List.of("name fe80::3", "10.0.0.3 fe80::3"), FILE);

        assertEquals(InetAddress.getByName("10.0.0.3"), hosts.byGid(Gid.parse("fe80::3")).orElseThrow().ip());
    }
}
