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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

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
        final Process server = start(fabric, "--hosts", FabricHosts.write(fabric, dir).toString());
        try
        {
            final HostCommand.Outcome acme = HostCommand.run(Duration.ofSeconds(30), ibAcme, "-S", socket().toString(),
                "-f", "i", "-s", FabricHosts.address(fabric.port(LOCAL)).getHostAddress(),
                "-d", FabricHosts.address(destination).getHostAddress());

            assertEquals(0, acme.exitStatus(), acme.output());
            assertTrue(acme.output().contains("  dgid: " + destination.gid() + "\n"), acme.output());
            assertTrue(acme.output().contains("  dlid: " + destination.lid() + "\n"), acme.output());
        }
        finally
        {
            stop(server);
        }
        assertTrue(Files.readString(dir.resolve("server.log")).contains("preloaded 4 address(es) from "),
            Files.readString(dir.resolve("server.log")));
    }

    @Test
    void shouldNotResolveTheAddressWithoutTheHostsFile() throws Exception
    {
        final SimulatedFabric fabric = FABRIC.fabric();
        final String ibAcme = Peers.requireCommand("ib_acme", "ibacm").toString();
        final Process server = start(fabric);
        try
        {
            final HostCommand.Outcome acme = HostCommand.run(Duration.ofSeconds(30), ibAcme, "-S", socket().toString(),
                "-f", "i", "-s", FabricHosts.address(fabric.port(LOCAL)).getHostAddress(),
                "-d", FabricHosts.address(fabric.port("Hca3")).getHostAddress());

            assertNotEquals(0, acme.exitStatus(), acme.output());
        }
        finally
        {
            stop(server);
        }
    }

    private Path socket()
    {
        return dir.resolve("run").resolve("ibacm-unix.sock");
    }

    /** {@code rdmacm acm-server} as its own process (it runs until SIGTERM), ready when its port file exists. */
    private Process start(final SimulatedFabric fabric, final String... extra) throws Exception
    {
        final FabricPort local = fabric.port(LOCAL);
        Files.writeString(dir.resolve("addr.cfg"), FabricHosts.address(local).getHostAddress() + " ibsim0 1 0xffff " +
            local.gid() + " " + local.lid() + "\n");
        Files.writeString(dir.resolve("opts.cfg"), "server_mode loop\nserver_port 0\nlog_file stdout\n");
        final List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--enable-native-access=ALL-UNNAMED",
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
            Main.class.getName(), "acm-server", "-O", dir.resolve("opts.cfg").toString(),
            "-A", dir.resolve("addr.cfg").toString(), "--run-dir", dir.resolve("run").toString(),
            "--fabric", "ibsim:" + fabric.host() + ":" + fabric.ctlPort() + ":" + LOCAL));
        command.addAll(List.of(extra));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(dir.resolve("server.log").toFile()).start();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Files.exists(dir.resolve("run").resolve("ibacm.port"), LinkOption.NOFOLLOW_LINKS))
        {
            if (!process.isAlive() || System.nanoTime() > deadline)
            {
                stop(process);
                throw new AssertionError("acm-server did not start: " + Files.readString(dir.resolve("server.log")));
            }
            Thread.sleep(50);
        }
        return process;
    }

    private static void stop(final Process process) throws InterruptedException, IOException
    {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            throw new AssertionError("acm-server did not stop on SIGTERM");
        }
    }
}
