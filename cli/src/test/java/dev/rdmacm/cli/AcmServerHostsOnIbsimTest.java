package dev.rdmacm.cli;

import dev.rdmacm.cm.testing.FabricHosts;
import dev.rdmacm.sa.testing.FabricPort;
import dev.rdmacm.sa.testing.SimulatedFabric;
import dev.rdmacm.sa.testing.SimulatedFabricExtension;
import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rdmacm acm-server --hosts FILE}: the shared option preloads the service's address cache, as
 * ibacm's {@code addr_preload acm_hosts} does, so that the real {@code ib_acme} resolves an address to
 * a path on ibsim, which has no IP layer; route misses go to OpenSM's SA through {@code --fabric}.
 */
class AcmServerHostsOnIbsimTest
{
    private static final String LOCAL = "Hca2";

    @RegisterExtension
    static final SimulatedFabricExtension FABRIC = SimulatedFabricExtension.perClass();

    @TempDir
    Path dir;

    @Test
    void shouldResolveAnAddressOfTheHostsFileToItsGidAndPath() throws Exception
    {
        final SimulatedFabric fabric = FABRIC.fabric();
        final FabricPort destination = fabric.port("Hca3");
        final String ibAcme = Peers.requireCommand("ib_acme", "ibacm").toString();
        try (AcmServerProcess server = start(fabric, "--hosts", FabricHosts.write(fabric, dir).toString()))
        {
            final HostCommand.Outcome acme = HostCommand.run(Duration.ofSeconds(30), ibAcme, "-S", server.socket().toString(),
                "-f", "i", "-s", FabricHosts.address(fabric.port(LOCAL)).getHostAddress(),
                "-d", FabricHosts.address(destination).getHostAddress());

            assertEquals(0, acme.exitStatus(), acme.output());
            assertTrue(acme.output().contains("  dgid: " + destination.gid() + "\n"), acme.output());
            assertTrue(acme.output().contains("  dlid: " + destination.lid() + "\n"), acme.output());
            assertTrue(server.log().contains("preloaded 4 address(es) from "), server.log());
        }
    }

    @Test
    void shouldNotResolveTheAddressWithoutTheHostsFile() throws Exception
    {
        final SimulatedFabric fabric = FABRIC.fabric();
        final String ibAcme = Peers.requireCommand("ib_acme", "ibacm").toString();
        try (AcmServerProcess server = start(fabric))
        {
            final HostCommand.Outcome acme = HostCommand.run(Duration.ofSeconds(30), ibAcme, "-S", server.socket().toString(),
                "-f", "i", "-s", FabricHosts.address(fabric.port(LOCAL)).getHostAddress(),
                "-d", FabricHosts.address(fabric.port("Hca3")).getHostAddress());

            assertNotEquals(0, acme.exitStatus(), acme.output());
        }
    }

    /** With the 6-column endpoint file, which names the local port's GID and LID itself. */
    private AcmServerProcess start(final SimulatedFabric fabric, final String... extra) throws Exception
    {
        final FabricPort local = fabric.port(LOCAL);
        Files.writeString(dir.resolve("addr.cfg"), FabricHosts.address(local).getHostAddress() + " ibsim0 1 0xffff " +
            local.gid() + " " + local.lid() + "\n");
        final List<String> arguments = new ArrayList<>(List.of("-A", dir.resolve("addr.cfg").toString(),
            "--fabric", "ibsim:" + fabric.host() + ":" + fabric.ctlPort() + ":" + LOCAL));
        arguments.addAll(List.of(extra));
        return AcmServerProcess.start(dir, "", arguments.toArray(String[]::new));
    }
}
