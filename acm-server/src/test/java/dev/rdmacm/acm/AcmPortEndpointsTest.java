package dev.rdmacm.acm;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.files.ibacm.HostsFile;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ibacm's endpoint rules for an attached port (acm_port_up, acm_ep_up, acm_assign_ep_names). */
class AcmPortEndpointsTest
{
    private static final Gid GID = Gid.parse("fe80::2:c903:0:1");
    private final ByteArrayOutputStream logged = new ByteArrayOutputStream();
    private final AcmLog log = new AcmLog(new PrintStream(logged, true, StandardCharsets.UTF_8), 2);

    private static AcmPort port(final List<Integer> pkeys, final List<AcmPort.NetdevAddress> addresses)
    {
        return new AcmPort("mlx5_0", 1, 2, GID, 7, pkeys, addresses);
    }

    private static AcmPort.NetdevAddress address(final String ip, final int pkey) throws Exception
    {
        return new AcmPort.NetdevAddress(InetAddress.getByName(ip), pkey, "ib0");
    }

    private List<AcmEndpoint> build(final AcmPort port, final List<String> lines, final boolean supportIps)
    {
        return AcmPortEndpoints.build(port, lines, "ibacm_addr.cfg", null, supportIps, log);
    }

    @Test
    void shouldMakeOneEndpointPerPartitionSkippingEmptyEntries() throws Exception
    {
        final List<AcmEndpoint> endpoints = build(port(List.of(0xffff, 0x7fff, 0x8000, 0x0000, 0x8001, 0x0001),
            List.of(address("192.0.2.1", 0xffff), address("192.0.2.2", 0x8001))), List.of(), false);
        assertEquals(List.of(0xffff, 0x8001), endpoints.stream().map(AcmEndpoint::pkey).toList());
        assertEquals(List.of(1, 2), endpoints.stream().map(AcmEndpoint::index).toList());
    }

    @Test
    void shouldGiveEachEndpointTheNetdevAddressesOfItsPartition() throws Exception
    {
        final List<AcmEndpoint> endpoints = build(port(List.of(0xffff, 0x0001),
            List.of(address("192.0.2.1", 0xffff), address("192.0.2.2", 0x8001), address("fd00::1", 0xffff))), List.of(), false);
        assertEquals(List.of(AcmAddress.parse("192.0.2.1"), AcmAddress.parse("fd00::1")), endpoints.get(0).addresses());
        assertEquals(List.of(AcmAddress.parse("192.0.2.2")), endpoints.get(1).addresses());
    }

    @Test
    void shouldTakeNamesFromTheFileLinesOfThisDevicePortAndPartition()
    {
        final List<AcmEndpoint> endpoints = build(port(List.of(0xffff), List.of()), List.of(
            "# name device port pkey",
            "node-a mlx5_0 1 0xffff",
            "node-b MLX5_0 1 7fff",
            "node-c mlx5_0 2 0xffff",
            "node-d mlx5_1 1 0xffff",
            "node-e mlx5_0 1 default",
            "node-f mlx5_0 1 0x8001"), false);
        assertEquals(List.of(AcmAddress.parse("node-a"), AcmAddress.parse("node-b"), AcmAddress.parse("node-e")),
            endpoints.getFirst().addresses());
    }

    @Test
    void shouldIgnoreIpAddressesInTheFileUnlessSupportIpsInAddrCfg()
    {
        final List<String> lines = List.of("192.0.2.9 mlx5_0 1 0xffff", "node-a mlx5_0 1 0xffff");
        assertEquals(List.of(AcmAddress.parse("node-a")), build(port(List.of(0xffff), List.of()), lines, false).getFirst().addresses());
        assertEquals(List.of(AcmAddress.parse("192.0.2.9"), AcmAddress.parse("node-a")),
            build(port(List.of(0xffff), List.of()), lines, true).getFirst().addresses());
        assertTrue(logged.toString(StandardCharsets.UTF_8).contains("support_ips_in_addr_cfg is 0"), logged.toString(StandardCharsets.UTF_8));
    }

    @Test
    void shouldDropAnEndpointNoAddressNames()
    {
        assertEquals(List.of(), build(port(List.of(0xffff), List.of()), List.of("node-a mlx5_1 1 0xffff"), false));
        assertTrue(logged.toString(StandardCharsets.UTF_8).contains("it is not served"), logged.toString(StandardCharsets.UTF_8));
    }

    @Test
    void shouldNameThePortByTheHostsFileLinesWithItsGid()
    {
        final HostsFile hosts = HostsFile.parse(List.of("192.0.2.1 " + GID, "node-a " + GID, "192.0.2.2 fe80::2:c903:0:2"),
            Path.of("ibacm_hosts.data"));
        final List<AcmEndpoint> endpoints = AcmPortEndpoints.build(port(List.of(0xffff), List.of()), List.of(), "-", hosts,
            false, log);
        assertEquals(List.of(AcmAddress.parse("192.0.2.1"), AcmAddress.parse("node-a")), endpoints.getFirst().addresses());
    }

    @Test
    void shouldRefuseAFileLineThatGivesAnotherPartitionsAddressNamingTheLine()
    {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> build(
            port(List.of(0xffff, 0x8001), List.of()), List.of("node-a mlx5_0 1 default", "node-a mlx5_0 1 0x8001"), false));

        assertEquals("ibacm_addr.cfg:2: address node-a already names endpoint 1 (mlx5_0 port 1 pkey 0xffff gid " + GID +
            " lid 7): an address names one endpoint", refused.getMessage());
    }

    @Test
    void shouldNameOnlyTheDefaultPartitionsEndpointByTheHostsFile()
    {
        final HostsFile hosts = HostsFile.parse(List.of("node-h " + GID), Path.of("ibacm_hosts.data"));
        final List<AcmEndpoint> endpoints = AcmPortEndpoints.build(port(List.of(0xffff, 0x8001), List.of()),
            List.of("node-b mlx5_0 1 0x8001"), "-", hosts, false, log);

        assertEquals(List.of(AcmAddress.parse("node-h")), endpoints.get(0).addresses());
        assertEquals(List.of(AcmAddress.parse("node-b")), endpoints.get(1).addresses());
    }
}
