package dev.rdmacm.acm;

import dev.rdmacm.protocol.acm.AcmCounter;
import dev.rdmacm.protocol.sa.PathRecordComponentMask;
import dev.rdmacm.sa.PcapMadRecorder;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaClientConfig;
import dev.rdmacm.sa.testing.FabricPort;
import dev.rdmacm.sa.testing.SimulatedFabric;
import dev.rdmacm.sa.testing.SimulatedFabricExtension;
import dev.rdmacm.sa.transport.ibsim.IbsimTransport;
import dev.rdmacm.testing.Tshark;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real ib_acme against our server whose route misses go to OpenSM's SA on an ibsim fabric through
 * sa-client: the path ib_acme prints equals the one saquery gets for the same query. The server's one
 * endpoint is Hca2's port (OpenSM runs on Hca1).
 */
class IbAcmeAgainstOpenSmTest
{
    @RegisterExtension
    static final SimulatedFabricExtension FABRIC = SimulatedFabricExtension.perClass();

    private static final String LOCAL = "Hca2";
    private static Path dir;
    private static SaClient client;
    private static AcmServer server;
    private static String socket;
    private static PcapMadRecorder capture;

    private static SimulatedFabric fabric()
    {
        return FABRIC.fabric();
    }

    private static String address(final FabricPort port)
    {
        return "192.0.2." + (10 + SimulatedFabric.HCAS.indexOf(port.node()));
    }

    @BeforeAll
    static void startServer() throws IOException
    {
        final FabricPort local = fabric().port(LOCAL);
        dir = Files.createTempDirectory("rdmacm-acm-opensm");
        Files.writeString(dir.resolve("ibacm_addr.cfg"),
            address(local) + " ibsim0 1 0xffff " + local.gid() + " " + local.lid() + "\n");
        final StringBuilder hosts = new StringBuilder();
        for (final FabricPort port : fabric().hcaPorts())
        {
            hosts.append(address(port)).append(' ').append(port.gid()).append('\n');
        }
        Files.writeString(dir.resolve("ibacm_hosts.data"), hosts.toString());
        final AcmOptions options = new AcmOptions();
        options.apply("run_dir " + dir.resolve("run"), "test");
        options.apply("addr_preload acm_hosts", "test");
        options.apply("addr_data_file " + dir.resolve("ibacm_hosts.data"), "test");
        capture = PcapMadRecorder.create(dir.resolve("sa.pcap"));
        client = SaClient.start(IbsimTransport.attach(fabric().host(), fabric().ctlPort(), LOCAL, Duration.ofSeconds(2)),
            SaClientConfig.defaults().withCacheTtl(Duration.ZERO).withRecorder(capture));
        server = AcmServer.start(options, AcmEndpointFile.read(dir.resolve("ibacm_addr.cfg")), AcmGidLookup.NONE,
            new SaPathQuerier(index -> client, Duration.ofSeconds(3)),
            new AcmLog(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), 0));
        socket = server.files().unixSocket().toString();
    }

    @AfterAll
    static void stopServer()
    {
        if (server != null)
        {
            server.close();
        }
        if (client != null)
        {
            client.close();
        }
        if (capture != null)
        {
            capture.close();
        }
        AcmServerFixture.deleteTree(dir);
    }

    private static String expectedPath(final String sgid, final String dgid, final String... selector)
    {
        return SaqueryShowPath.of(fabric(), LOCAL, sgid, dgid, selector);
    }

    @Test
    void shouldPrintSaquerysPathForEveryDestinationByGid()
    {
        final FabricPort local = fabric().port(LOCAL);
        for (final FabricPort destination : fabric().hcaPorts())
        {
            final String expected = expectedPath(local.gid().toString(), destination.gid().toString(), "-p",
                "--sgid", local.gid().toString(), "--dgid", destination.gid().toString());
            final IbAcme.Result result = IbAcme.run("-S", socket, "-f", "g", "-s", local.gid().toString(), "-d",
                destination.gid().toString());
            assertTrue(result.output().contains(expected), destination.node() + ":\n" + result.output() + "\nexpected:\n"
                + expected);
        }
    }

    @Test
    void shouldPrintSaquerysPathByLid()
    {
        final FabricPort local = fabric().port(LOCAL);
        final FabricPort destination = fabric().port("Hca4");
        final String expected = expectedPath(local.gid().toString(), destination.gid().toString(), "-p",
            "--slid", Integer.toString(local.lid()), "--dlid", Integer.toString(destination.lid()));
        final IbAcme.Result result = IbAcme.run("-S", socket, "-f", "l", "-s", Integer.toString(local.lid()), "-d",
            Integer.toString(destination.lid()));
        assertTrue(result.output().contains(expected), result.output() + "\nexpected:\n" + expected);
    }

    @Test
    void shouldPrintSaquerysPathForAnIpAddressAndVerifyItWithTheSa()
    {
        final FabricPort local = fabric().port(LOCAL);
        final FabricPort destination = fabric().port("Hca3");
        final String expected = expectedPath(local.gid().toString(), destination.gid().toString(), "-p",
            "--sgid", local.gid().toString(), "--dgid", destination.gid().toString());
        final IbAcme.Result result = IbAcme.run("-S", socket, "-v", "-f", "i", "-s", address(local), "-d",
            address(destination));
        assertTrue(result.output().contains(expected), result.output() + "\nexpected:\n" + expected);
        assertTrue(result.output().contains("SA verification: success"), result.output());
        assertEquals(0, result.exitCode(), result.output());
    }

    @Test
    void shouldServeRepeatedResolutionsFromTheRouteCache()
    {
        final FabricPort local = fabric().port(LOCAL);
        final FabricPort destination = fabric().port("Hca1");
        IbAcme.run("-S", socket, "-f", "g", "-s", local.gid().toString(), "-d", destination.gid().toString());
        final long queries = server.service().counters().get(AcmCounter.ROUTE_QUERY);
        final IbAcme.Result again = IbAcme.run("-S", socket, "-f", "g", "-s", local.gid().toString(), "-d",
            destination.gid().toString(), "-C", "5");
        assertEquals(0, again.exitCode(), again.output());
        assertEquals(queries, server.service().counters().get(AcmCounter.ROUTE_QUERY), "no SA query for cached routes");
    }

    @Test
    void shouldAnswerUnknownGidWithNoData()
    {
        final FabricPort local = fabric().port(LOCAL);
        final IbAcme.Result result = IbAcme.run("-S", socket, "-f", "g", "-s", local.gid().toString(), "-d",
            "fe80::99:0:4");
        assertTrue(result.output().contains("ib_acm_resolve_path failed: No data available"), result.output());
    }

    /**
     * ibacm's {@code acm_path_comp_mask}, checked on what tshark decodes of every PathRecord Get we sent
     * so far: each masks exactly the fields that are not zero. A route miss asks the endpoints and the
     * P_Key only (acmp's {@code dest->path}: SGID, SLID, P_Key and the DGID or DLID asked for); the
     * QUERY_SA of {@code -v} also the MTU, rate and packet lifetime it was given, which OpenSM confirms.
     */
    @Test
    void shouldMaskEveryNonZeroFieldOfEachPathRecordGetAsIbacmDoes()
    {
        final FabricPort local = fabric().port(LOCAL);
        final FabricPort destination = fabric().port("Hca4");
        final IbAcme.Result result = IbAcme.run("-S", socket, "-v", "-f", "g", "-s", local.gid().toString(), "-d",
            destination.gid().toString());
        assertTrue(result.output().contains("SA verification: success"), result.output());
        final List<Map<String, List<String>>> gets = Tshark.decode(dir.resolve("sa.pcap"), MASKED_FIELDS).stream()
            .filter(packet -> packet.containsKey("infiniband.sa.componentmask"))
            .filter(packet -> List.of("0x01").equals(packet.get("infiniband.mad.method")))
            .toList();
        final long given = PathRecordComponentMask.MTU | PathRecordComponentMask.RATE | PathRecordComponentMask.PACKET_LIFE_TIME;
        final long endpoints = PathRecordComponentMask.SGID | PathRecordComponentMask.DGID | PathRecordComponentMask.SLID |
            PathRecordComponentMask.DLID | PathRecordComponentMask.P_KEY;
        int verifications = 0;
        for (final Map<String, List<String>> get : gets)
        {
            final long mask = Long.decode(get.get("infiniband.sa.componentmask").getFirst());
            assertEquals(maskOfNonZeroFields(get), mask, get.toString());
            if ((mask & given) == given)
            {
                verifications++;
            }
            else
            {
                assertEquals(0, mask & ~endpoints, "a route miss masks the endpoints and P_Key only: " + get);
            }
        }
        assertTrue(verifications >= 1, "no QUERY_SA with the given MTU, rate and packet lifetime among " + gets);
    }

    private static final String[] MASKED_FIELDS = {
        "infiniband.mad.method", "infiniband.sa.componentmask", "infiniband.pathrecord.dgid", "infiniband.pathrecord.sgid",
        "infiniband.pathrecord.dlid", "infiniband.pathrecord.slid", "infiniband.pathrecord.flowlabel",
        "infiniband.pathrecord.hoplimit", "infiniband.pathrecord.tclass", "infiniband.pathrecord.reversible",
        "infiniband.pathrecord.p_key", "infiniband.pathrecord.sl", "infiniband.pathrecord.mtuselector",
        "infiniband.pathrecord.mtu", "infiniband.pathrecord.rateselector", "infiniband.pathrecord.rate",
        "infiniband.pathrecord.packetlifetimeselector", "infiniband.pathrecord.packetlifetime"};

    private static final long[] MASK_BITS = {
        PathRecordComponentMask.DGID, PathRecordComponentMask.SGID, PathRecordComponentMask.DLID, PathRecordComponentMask.SLID,
        PathRecordComponentMask.FLOW_LABEL, PathRecordComponentMask.HOP_LIMIT, PathRecordComponentMask.TCLASS,
        PathRecordComponentMask.REVERSIBLE, PathRecordComponentMask.P_KEY, PathRecordComponentMask.SL,
        PathRecordComponentMask.MTU_SELECTOR, PathRecordComponentMask.MTU, PathRecordComponentMask.RATE_SELECTOR,
        PathRecordComponentMask.RATE, PathRecordComponentMask.PACKET_LIFE_TIME_SELECTOR, PathRecordComponentMask.PACKET_LIFE_TIME};

    /** The mask bits of the PathRecord fields tshark decoded as non-zero (field i of the list above, from the third). */
    private static long maskOfNonZeroFields(final Map<String, List<String>> packet)
    {
        long mask = 0;
        for (int i = 0; i < MASK_BITS.length; i++)
        {
            final List<String> values = packet.get(MASKED_FIELDS[i + 2]);
            if (values != null && !isZero(values.getFirst()))
            {
                mask |= MASK_BITS[i];
            }
        }
        return mask;
    }

    private static boolean isZero(final String value)
    {
        return value.equals("::") || value.equals("false") || value.matches("0x0*|0+");
    }
}
