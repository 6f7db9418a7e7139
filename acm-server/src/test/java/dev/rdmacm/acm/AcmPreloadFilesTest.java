package dev.rdmacm.acm;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.acm.AcmEpType;
import dev.rdmacm.files.ibacm.HostsFile;
import dev.rdmacm.protocol.path.IbvPathRecord;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The endpoint, hosts and OpenSM path-dump files, as an operator writes them. */
class AcmPreloadFilesTest
{
    @Test
    void shouldGroupAddressesOfOneDevicePortAndPkeyIntoOneEndpoint()
    {
        final List<AcmEndpoint> endpoints = AcmEndpointFile.parse(AcmServerFixture.ENDPOINTS.lines().toList(), "addr.cfg");
        assertEquals(2, endpoints.size());
        final AcmEndpoint first = endpoints.get(0);
        assertEquals(1, first.index());
        assertEquals("mlx5_0", first.deviceName());
        assertEquals(1, first.portNum());
        assertEquals(2, first.physPortCnt());
        assertEquals(0xffff, first.pkey());
        assertEquals(Gid.parse("fe80::2:c903:0:1"), first.gid());
        assertEquals(1, first.lid());
        assertEquals(List.of(AcmAddress.parse("127.0.0.1"), AcmAddress.parse("192.0.2.2"), AcmAddress.name("node-a"),
            AcmAddress.parse("fd00::2")), first.addresses());
        assertEquals(2, endpoints.get(1).portNum());
    }

    @Test
    void shouldRejectEndpointLineWithoutGidAndLid()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> AcmEndpointFile.parse(List.of("192.0.2.2 mlx5_0 1 0xffff"), "ibacm_addr.cfg"));
        assertEquals("ibacm_addr.cfg:1: expected 'address device port pkey gid lid', got '192.0.2.2 mlx5_0 1 0xffff'",
            ex.getMessage());
    }

    @Test
    void shouldRejectConflictingGidForOneEndpoint()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> AcmEndpointFile.parse(List.of("a mlx5_0 1 0xffff fe80::1 1", "b mlx5_0 1 0xffff fe80::2 1"), "f"));
        assertEquals("f:2: mlx5_0 port 1 was given gid fe80::1 lid 1 on an earlier line, not fe80::2 lid 1",
            ex.getMessage());
    }

    @Test
    void shouldTakeHostsFileAddressesAsTheirAcmTypes()
    {
        final List<String> problems = new ArrayList<>();
        final HostsFile hosts = HostsFile.parseLenient(List.of("# comment", "192.0.2.3 fe80::2:c903:0:2",
            "fd00::3 fe80::3", "node-b fe80::2", "broken"), Path.of("hosts.data"), problems);
        assertEquals(List.of(AcmEpType.ADDRESS_IP, AcmEpType.ADDRESS_IP6, AcmEpType.NAME),
            hosts.hosts().stream().map(host -> AcmAddress.of(host).type()).toList());
        assertEquals(AcmAddress.parse("192.0.2.3"), AcmAddress.of(hosts.hosts().get(0)));
        assertEquals(AcmAddress.parse("fd00::3"), AcmAddress.of(hosts.hosts().get(1)));
        assertEquals(AcmAddress.name("node-b"), AcmAddress.of(hosts.hosts().get(2)));
        assertEquals(List.of("hosts.data:5: expected 'address GID', got 'broken'"), problems);
    }

    @Test
    void shouldBuildPathsFromOpenSmDumpAsIbacmDoes()
    {
        final OpenSmPathDump dump = OpenSmPathDump.parse(AcmServerFixture.PATH_DUMP.lines().toList());
        assertEquals(3, dump.sections().size());
        assertEquals(Long.valueOf(0x0002c90300000002L), dump.guidOf(5));
        final AcmEndpoint endpoint = AcmEndpointFile.parse(AcmServerFixture.ENDPOINTS.lines().toList(), "f").get(0);
        final List<byte[]> paths = dump.pathsFrom(endpoint);
        assertEquals(3, paths.size(), "LIDs 1, 2 and 5; LID 6 is unreachable");
        final IbvPathRecord toB = PathRecordTemplate.view(paths.get(2));
        assertEquals(Gid.parse("fe80::2:c903:0:2"), toB.dgid());
        assertEquals(Gid.parse("fe80::2:c903:0:1"), toB.sgid());
        assertEquals(5, toB.dlid());
        assertEquals(1, toB.slid());
        assertTrue(toB.reversible());
        assertEquals(0xffff, toB.pKey());
        assertEquals(4, toB.mtu());
        assertEquals(7, toB.rate());
        assertEquals(18, toB.packetLifeTime());
        assertEquals(0, PathRecordTemplate.view(paths.get(0)).packetLifeTime(), "the path to itself");
    }
}
