package dev.rdmacm.cli;

import dev.rdmacm.sa.testing.FabricPort;
import dev.rdmacm.sa.testing.SimulatedFabric;
import dev.rdmacm.sa.testing.SimulatedFabricExtension;
import dev.rdmacm.testing.Tshark;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.rdmacm.cli.CommandRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rdmacm path} against OpenSM on ibsim, checked against saquery. */
class PathCommandTest
{
    @RegisterExtension
    static final SimulatedFabricExtension FABRIC = SimulatedFabricExtension.perClass();

    private static String fabricOption(final String node)
    {
        return "ibsim:" + fabric().host() + ":" + fabric().ctlPort() + ":" + node;
    }

    @Test
    void shouldPrintEveryFieldOfTheSaPathAsSaqueryReportsIt()
    {
        final FabricPort destination = fabric().port("Hca4");
        final CommandRun run = run("path", "--fabric", fabricOption("Hca2"), "--dgid", destination.gid().toString(), "--reversible");
        assertEquals(0, run.exit(), run.err());
        final Map<String, String> saquery = fabric().saquery("Hca2", "-p",
            "--sgid", fabric().port("Hca2").gid().toString(), "--dgid", destination.gid().toString()).records().get(0);
        assertTrue(run.out().contains("dgid                       " + saquery.get("dgid") + "\n"), run.out());
        assertTrue(run.out().contains("sgid                       " + saquery.get("sgid") + "\n"), run.out());
        assertTrue(run.out().contains("dlid                       " + saquery.get("dlid") + "\n"), run.out());
        assertTrue(run.out().contains("slid                       " + saquery.get("slid") + "\n"), run.out());
        assertTrue(run.out().contains("pkey                       0x" + saquery.get("pkey").substring(2).toLowerCase() + "\n"), run.out());
        assertTrue(run.out().contains("mtu                        " + (Integer.decode(saquery.get("mtu")) & 0x3f) + " ("), run.out());
        assertTrue(run.out().contains("rate                       " + (Integer.decode(saquery.get("rate")) & 0x3f) + " ("), run.out());
        assertTrue(run.out().contains("packet_life_time           " + (Integer.decode(saquery.get("pkt_life")) & 0x3f) + " ("), run.out());
        assertTrue(run.out().contains("mtu_selector               " + (Integer.decode(saquery.get("mtu")) >> 6) + " ("), run.out());
        assertEquals(21, run.out().lines().filter(l -> l.startsWith("  ")).count(), run.out());
    }

    @Test
    void shouldPrintJsonByLid()
    {
        final FabricPort source = fabric().port("Hca3");
        final FabricPort destination = fabric().port("Hca1");
        final CommandRun run = run("path", "--fabric", fabricOption("Hca3"), "--slid", Integer.toString(source.lid()),
            "--dlid", "0x" + Integer.toHexString(destination.lid()), "--json");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().startsWith("{\"paths\":[{\"service_id\":\"0x0000000000000000\",\"dgid\":\"" + destination.gid() + "\""), run.out());
        assertTrue(run.out().contains("\"dlid\":" + destination.lid() + ",\"slid\":" + source.lid() + ","), run.out());
    }

    @Test
    void shouldExitOneNamingNoRecordsForAnUnknownDgid()
    {
        final CommandRun run = run("path", "--fabric", fabricOption("Hca2"), "--dgid", "fe80::99:1", "--timeout-ms", "1500");
        assertEquals(Main.EXIT_RESOLUTION_FAILURE, run.exit(), run.out());
        assertTrue(run.err().startsWith("rdmacm path: NO_RECORDS ENODATA (61): "), run.err());
    }

    @Test
    void shouldPrintTheErrorAsJson()
    {
        final CommandRun run = run("path", "--fabric", fabricOption("Hca2"), "--dgid", "fe80::99:1", "--json");
        assertEquals(Main.EXIT_RESOLUTION_FAILURE, run.exit(), run.out());
        assertTrue(run.out().startsWith("{\"error\":\"ENODATA\",\"code\":61,\"message\":"), run.out());
        assertTrue(run.out().contains(",\"sa_error\":\"NO_RECORDS\",\"mad_status\":768}"), run.out());
    }

    @Test
    void shouldWriteEveryMadToThePcapFile() throws Exception
    {
        final Path pcap = Files.createTempFile("rdmacm-path", ".pcap");
        try
        {
            final CommandRun run = run("path", "--fabric", fabricOption("Hca2"), "--dlid", Integer.toString(fabric().port("Hca4").lid()),
                "--pcap", pcap.toString());
            assertEquals(0, run.exit(), run.err());
            final List<Map<String, List<String>>> packets =
                Tshark.decode(pcap, "infiniband.mad.method", "infiniband.mad.attributeid");
            assertTrue(packets.stream().anyMatch(p -> p.get("infiniband.mad.method").equals(List.of("0x01")) &&
                p.get("infiniband.mad.attributeid").equals(List.of("0x0035"))), packets.toString());
            assertTrue(packets.stream().anyMatch(p -> p.get("infiniband.mad.method").equals(List.of("0x81")) &&
                p.get("infiniband.mad.attributeid").equals(List.of("0x0035"))), packets.toString());
        }
        finally
        {
            Files.deleteIfExists(pcap);
        }
    }

    @Test
    void shouldExitTwoNamingTheBadFabric()
    {
        final CommandRun run = run("path", "--fabric", "ibsim:nohost", "--dgid", "fe80::10:4");
        assertEquals(Main.EXIT_USAGE, run.exit());
        assertTrue(run.err().contains("fabric 'ibsim:nohost'"), run.err());
    }

    @Test
    void shouldExitTwoWithoutADestination()
    {
        final CommandRun run = run("path", "--fabric", fabricOption("Hca2"));
        assertEquals(Main.EXIT_USAGE, run.exit());
        assertTrue(run.err().contains("--dgid") && run.err().contains("--dlid"), run.err());
    }

    private static SimulatedFabric fabric()
    {
        return FABRIC.fabric();
    }
}
