package dev.rdmacm.acm.backend;

import dev.rdmacm.acm.AcmEndpointFile;
import dev.rdmacm.acm.AcmLog;
import dev.rdmacm.acm.AcmOptions;
import dev.rdmacm.acm.IbAcme;
import dev.rdmacm.resolver.spi.GidDirectory;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.libc.NetworkNamespace;
import dev.rdmacm.netlink.testing.NamespaceTopology;
import dev.rdmacm.verbs.sysfs.RecordedSysfsTrees;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * acm-server built as a library with this module's composition, as {@code rdmacm acm-server --fabric
 * verbs:rxe0} builds it: the endpoint is the soft-RoCE port of the namespace fixture (its netdev is the
 * recorded soft-RoCE tree's, {@code 192.0.2.1}), nothing is preloaded, and the real {@code ib_acme}
 * asks for the gateway {@code 192.0.2.2}. That address is a miss, which the CM resolves through the
 * namespace's real routes and neighbours; the route, on RoCE, is the one the CM builds. Without the
 * CM, the same request gets no answer but ENODATA.
 */
@Timeout(60)
class CmBackedAcmServerTest
{
    private static final String SOURCE = RecordedSysfsTrees.SOFT_ROCE_IPV4;
    private static final String GATEWAY = "192.0.2.2";

    @TempDir
    static Path dir;

    private static NamespaceTopology topology;
    private static Path sysfs;

    @BeforeAll
    static void createTheNamespaces() throws IOException
    {
        sysfs = RecordedSysfsTrees.copy(dir.resolve("sysfs"), RecordedSysfsTrees.SOFT_ROCE);
        topology = NamespaceTopology.create();
    }

    @AfterAll
    static void removeTheNamespaces()
    {
        if (topology != null)
        {
            topology.close();
        }
    }

    /** A unix-mode server on its own run directory, with the endpoint file of the soft-RoCE port alone. */
    private static AcmOptions options(final String name) throws IOException
    {
        final Path config = Files.createDirectories(dir.resolve(name));
        final Path run = Files.createDirectories(config.resolve("run"));
        Files.writeString(config.resolve("ibacm_addr.cfg"), "%s rxe0 1 0xffff %s 0\n"
            .formatted(SOURCE, RecordedSysfsTrees.SOFT_ROCE_IPV4_GID));
        Files.writeString(config.resolve("ibacm_opts.cfg"), """
            server_mode unix
            addr_file %1$s/ibacm_addr.cfg
            run_dir %2$s
            log_level 2
            timeout 2000
            retries 1
            """.formatted(config, run));
        return AcmOptions.read(config.resolve("ibacm_opts.cfg"));
    }

    private static RdmaCm.Options cmInTheNamespace()
    {
        return RdmaCm.Options.builder().networkNamespace(NetworkNamespace.byName(topology.host))
            .gids(GidDirectory.live(Map.of("SYSFS_PATH", sysfs.toString()))).build();
    }

    private static IbAcme.Result resolveTheGateway(final AcmOptions options)
    {
        return IbAcme.run("-S", options.runDir().resolve("ibacm-unix.sock").toString(), "-f", "i", "-s", SOURCE, "-d", GATEWAY);
    }

    @Test
    void shouldResolveAnAddressMissThroughTheCmAndBuildItsRoceRoute() throws IOException
    {
        final AcmOptions options = options("with-cm");
        final ByteArrayOutputStream logged = new ByteArrayOutputStream();
        final AcmLog log = new AcmLog(new PrintStream(logged, true, StandardCharsets.UTF_8), options.logLevel());
        final IbAcme.Result result;
        try (CmBackedAcmServer server = CmBackedAcmServer.builder(options, AcmEndpointFile.read(options.addrFile()), log)
            .cm(cmInTheNamespace()).roceRoutes().start())
        {
            assertTrue(server.resolvesMisses(), logged.toString(StandardCharsets.UTF_8));
            result = resolveTheGateway(options);
        }
        assertEquals(0, result.exitCode(), result.output() + "\n" + logged.toString(StandardCharsets.UTF_8));
        assertTrue(result.output().contains("Path information\n  dgid: ::ffff:" + GATEWAY + "\n  sgid: "
            + RecordedSysfsTrees.SOFT_ROCE_IPV4_GID + "\n"), result.output());
        // the CM's own route, as the kernel CM builds it on RoCE (linux-6.1's packet lifetime), the flow label cleared
        assertTrue(result.output().contains("  flow label: 0x0\n"), result.output());
        assertTrue(result.output().contains("  packet lifetime: 18\n"), result.output());
        assertTrue(result.output().endsWith("return status 0x0\n"), result.output());
    }

    @Test
    void shouldAnswerTheSameMissWithEnodataWithoutTheCm() throws IOException
    {
        final AcmOptions options = options("without-cm");
        final ByteArrayOutputStream logged = new ByteArrayOutputStream();
        final AcmLog log = new AcmLog(new PrintStream(logged, true, StandardCharsets.UTF_8), options.logLevel());
        final IbAcme.Result result;
        try (CmBackedAcmServer server = CmBackedAcmServer.builder(options, AcmEndpointFile.read(options.addrFile()), log).start())
        {
            assertFalse(server.resolvesMisses());
            result = resolveTheGateway(options);
        }
        assertEquals(255, result.exitCode(), result.output());
        assertTrue(result.output().contains("ib_acm_resolve_ip failed: No data available\n"), result.output());
        assertFalse(result.output().contains("Path information"), result.output());
    }

    @Test
    void shouldRefuseRoceRoutesWithoutTheCmThatBuildsThem() throws IOException
    {
        final AcmOptions options = options("roce-without-cm");
        final AcmLog log = new AcmLog(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), 0);
        final IllegalStateException refused = assertThrows(IllegalStateException.class,
            () -> CmBackedAcmServer.builder(options, List.of(), log).roceRoutes().start());
        assertEquals("roceRoutes needs cm(...): the CM builds the RoCE routes", refused.getMessage());
        assertFalse(Files.exists(options.runDir().resolve("ibacm-unix.sock")));
    }
}
