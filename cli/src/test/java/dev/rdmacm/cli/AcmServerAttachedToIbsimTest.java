package dev.rdmacm.cli;

import dev.rdmacm.acm.IbAcme;
import dev.rdmacm.acm.SaqueryShowPath;
import dev.rdmacm.sa.testing.FabricPort;
import dev.rdmacm.sa.testing.SimulatedFabric;
import dev.rdmacm.sa.testing.SimulatedFabricExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rdmacm acm-server} configured as a user configures ibacm, with no endpoint file: attached to
 * Hca2's port on an ibsim fabric by {@code --fabric}, with a hosts file listing every HCA by IPv4,
 * IPv6 and name. The port is the endpoint (its GID and LID from the fabric, its names from the hosts
 * file's lines with its GID), and the real {@code ib_acme} resolves every kind of address, over the unix
 * socket and over TCP, to the path saquery gets from OpenSM.
 */
class AcmServerAttachedToIbsimTest
{
    private static final String LOCAL = "Hca2";

    @RegisterExtension
    static final SimulatedFabricExtension FABRIC = SimulatedFabricExtension.perClass();

    private static Path dir;
    private static AcmServerProcess server;
    private static String socket;

    private static SimulatedFabric fabric()
    {
        return FABRIC.fabric();
    }

    private static String ipv4(final FabricPort port)
    {
        return "10.0.0." + port.lid();
    }

    private static String ipv6(final FabricPort port)
    {
        return "fd00::" + port.lid();
    }

    private static String name(final FabricPort port)
    {
        return port.node().toLowerCase(Locale.ROOT);
    }

    @BeforeAll
    static void startTheServerAsAUserWould() throws Exception
    {
        dir = Files.createTempDirectory("rdmacm-acm-attached");
        final List<String> hosts = new ArrayList<>(List.of("# address GID, as ib_acme -A writes ibacm_hosts.data"));
        for (final FabricPort port : fabric().hcaPorts())
        {
            hosts.add(ipv4(port) + " " + port.gid());
            hosts.add(ipv6(port) + " " + port.gid());
            hosts.add(name(port) + " " + port.gid());
        }
        Files.write(dir.resolve("ibacm_hosts.data"), hosts);
        // -A names a file that does not exist, so that a machine's own /etc/rdma/ibacm_addr.cfg stays out of it
        server = AcmServerProcess.start(dir, "", "-A", dir.resolve("no-ibacm_addr.cfg").toString(),
            "--fabric", "ibsim:" + fabric().host() + ":" + fabric().ctlPort() + ":" + LOCAL,
            "--hosts", dir.resolve("ibacm_hosts.data").toString());
        socket = server.socket().toString();
    }

    @AfterAll
    static void stopTheServer() throws Exception
    {
        if (server != null)
        {
            server.close();
        }
    }

    private static String pathTo(final FabricPort destination)
    {
        final FabricPort local = fabric().port(LOCAL);
        return SaqueryShowPath.of(fabric(), LOCAL, local.gid().toString(), destination.gid().toString(), "-p",
            "--sgid", local.gid().toString(), "--dgid", destination.gid().toString());
    }

    private static void assertPath(final FabricPort destination, final IbAcme.Result result)
    {
        assertTrue(result.output().contains(pathTo(destination)), result.output() + "\nexpected:\n" + pathTo(destination));
        assertEquals(0, result.exitCode(), result.output());
    }

    @Test
    void shouldServeThePortAsOneEndpointNamedByTheHostsFileLinesWithItsGid()
    {
        final FabricPort local = fabric().port(LOCAL);
        final IbAcme.Result result = IbAcme.run("-S", socket, "-e");
        assertEquals("svc,guid,port,pkey,ep_index,prov,addr_0,addresses\n" +
            socket + ",0x" + String.format("%016x", local.portGuid()) + ",1,0xffff,1,rdmacm-java," + ipv4(local) + "," +
            ipv6(local) + "," + name(local) + "\nreturn status 0x0\n", result.output());
    }

    @Test
    void shouldResolveIpv4AddressesToSaquerysPath()
    {
        final FabricPort destination = fabric().port("Hca3");
        assertPath(destination, IbAcme.run("-S", socket, "-f", "i", "-s", ipv4(fabric().port(LOCAL)), "-d", ipv4(destination)));
    }

    @Test
    void shouldResolveIpv6AddressesToSaquerysPath()
    {
        final FabricPort destination = fabric().port("Hca4");
        assertPath(destination, IbAcme.run("-S", socket, "-f", "i", "-s", ipv6(fabric().port(LOCAL)), "-d", ipv6(destination)));
    }

    @Test
    void shouldResolveNamesToSaquerysPath()
    {
        final FabricPort destination = fabric().port("Hca1");
        assertPath(destination, IbAcme.run("-S", socket, "-f", "n", "-s", name(fabric().port(LOCAL)), "-d", name(destination)));
    }

    @Test
    void shouldResolveGidsToSaquerysPath()
    {
        final FabricPort destination = fabric().port("Hca3");
        assertPath(destination, IbAcme.run("-S", socket, "-f", "g", "-s", fabric().port(LOCAL).gid().toString(), "-d",
            destination.gid().toString()));
    }

    @Test
    void shouldResolveLidsToSaquerysPath()
    {
        final FabricPort local = fabric().port(LOCAL);
        final FabricPort destination = fabric().port("Hca4");
        final String expected = SaqueryShowPath.of(fabric(), LOCAL, local.gid().toString(), destination.gid().toString(),
            "-p", "--slid", Integer.toString(local.lid()), "--dlid", Integer.toString(destination.lid()));
        final IbAcme.Result result = IbAcme.run("-S", socket, "-f", "l", "-s", Integer.toString(local.lid()), "-d",
            Integer.toString(destination.lid()));
        assertTrue(result.output().contains(expected), result.output() + "\nexpected:\n" + expected);
    }

    /**
     * Without a source ibacm's {@code acm_svr_select_src} takes the address the host's IP stack would
     * send from, which on ibsim (no IPoIB) is none of the port's: ESRCADDR, as from ibacm.
     */
    @Test
    void shouldRefuseASourceTheHostsRoutingPicksOffThePort()
    {
        final IbAcme.Result result = IbAcme.run("-S", socket, "-f", "i", "-d", ipv4(fabric().port("Hca1")));
        assertTrue(result.output().contains("ib_acm_resolve_ip failed: Cannot assign requested address"), result.output());
    }

    @Test
    void shouldVerifyThePathWithTheSa()
    {
        final FabricPort destination = fabric().port("Hca3");
        final IbAcme.Result result = IbAcme.run("-S", socket, "-v", "-f", "i", "-s", ipv4(fabric().port(LOCAL)), "-d",
            ipv4(destination));
        assertPath(destination, result);
        assertTrue(result.output().contains("SA verification: success"), result.output());
    }

    @Test
    void shouldAnswerFromTheCacheOnlyOnceTheRouteIsCached()
    {
        final FabricPort local = fabric().port(LOCAL);
        final FabricPort destination = fabric().port("Hca4");
        final IbAcme.Result cold = IbAcme.run("-S", socket, "-c", "-f", "g", "-s", local.gid().toString(), "-d",
            "fe80::ffff:0:4");
        assertTrue(cold.output().contains("No data available"), cold.output());
        IbAcme.run("-S", socket, "-f", "i", "-s", ipv4(local), "-d", ipv4(destination));
        assertPath(destination, IbAcme.run("-S", socket, "-c", "-f", "i", "-s", ipv4(local), "-d", ipv4(destination)));
    }

    @Test
    void shouldCountPerEndpointBySource()
    {
        IbAcme.run("-S", socket, "-f", "i", "-s", ipv4(fabric().port(LOCAL)), "-d", ipv4(fabric().port("Hca3")));
        final IbAcme.Result result = IbAcme.run("-S", socket, "-P", "s", "-s", ipv4(fabric().port(LOCAL)));
        assertTrue(result.output().contains("\n" + socket + ","), result.output());
        assertEquals(0, result.exitCode(), result.output());
    }

    @Test
    void shouldPrintTheGlobalCounters()
    {
        final IbAcme.Result result = IbAcme.run("-S", socket, "-P");
        assertTrue(result.output().startsWith("svc,Error Count,Resolve Count,No Data,Addr Query Count,"), result.output());
        assertEquals(0, result.exitCode(), result.output());
    }

    @Test
    void shouldResolveOverTcp() throws Exception
    {
        final FabricPort destination = fabric().port("Hca1");
        assertPath(destination, IbAcme.runWithPrivateRun(server.tcpPort(), "-S", "127.0.0.1", "-f", "i", "-s",
            ipv4(fabric().port(LOCAL)), "-d", ipv4(destination)));
    }
}
