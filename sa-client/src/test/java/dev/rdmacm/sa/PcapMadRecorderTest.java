package dev.rdmacm.sa;

import dev.rdmacm.sa.path.PathQuery;
import dev.rdmacm.sa.path.PathRecords;
import dev.rdmacm.sa.testing.FabricPort;
import dev.rdmacm.sa.testing.SimulatedFabric;
import dev.rdmacm.sa.testing.SimulatedFabricExtension;
import dev.rdmacm.sa.transport.ibsim.IbsimTransport;
import dev.rdmacm.testing.Tshark;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Every MAD of a PathRecord query against OpenSM, recorded to pcap and read back by tshark. */
class PcapMadRecorderTest
{
    @RegisterExtension
    static final SimulatedFabricExtension FABRIC = SimulatedFabricExtension.perClass();

    @Test
    void shouldRecordEveryMadSentAndReceivedSoThatTsharkDecodesThem() throws Exception
    {
        final SimulatedFabric fabric = FABRIC.fabric();
        final FabricPort source = fabric.port("Hca2");
        final FabricPort destination = fabric.port("Hca3");
        final Path pcap = Files.createTempFile("rdmacm-sa", ".pcap");
        try
        {
            final PcapMadRecorder recorder = PcapMadRecorder.create(pcap);
            try (recorder; SaClient client = SaClient.start(
                IbsimTransport.attach(fabric.host(), fabric.ctlPort(), "Hca2", Duration.ofSeconds(2)),
                SaClientConfig.defaults().withRecorder(recorder)))
            {
                PathRecords.query(client, PathQuery.byGids(source.gid(), destination.gid()), Duration.ofSeconds(3))
                    .get(5, TimeUnit.SECONDS);
                // ClassPortInfo's answer may still be on its way when the path arrives.
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
                while (recorder.written() < 4 && System.nanoTime() < deadline)
                {
                    Thread.sleep(5);
                }
            }
            assertEquals(0, recorder.failures());

            final List<Map<String, List<String>>> packets = Tshark.decode(pcap, "infiniband.mad.method",
                "infiniband.mad.attributeid", "infiniband.lrh.slid", "infiniband.lrh.dlid", "infiniband.pathrecord.dlid");
            final Set<String> seen = new TreeSet<>();
            for (final Map<String, List<String>> packet : packets)
            {
                final String method = packet.get("infiniband.mad.method").get(0);
                final boolean sent = method.equals("0x01");
                seen.add(method + " " + packet.get("infiniband.mad.attributeid").get(0) + " " +
                    Integer.decode(packet.get("infiniband.lrh.slid").get(0)) + "->" +
                    Integer.decode(packet.get("infiniband.lrh.dlid").get(0)) +
                    (packet.containsKey("infiniband.pathrecord.dlid") && !sent ?
                        " dlid " + Integer.decode(packet.get("infiniband.pathrecord.dlid").get(0)) : ""));
            }
            final int us = source.lid();
            final int sa = fabric.smLid();
            assertEquals(new TreeSet<>(Set.of(
                "0x01 0x0001 " + us + "->" + sa,
                "0x01 0x0035 " + us + "->" + sa,
                "0x81 0x0001 " + sa + "->" + us,
                "0x81 0x0035 " + sa + "->" + us + " dlid " + destination.lid())), seen);
        }
        finally
        {
            Files.deleteIfExists(pcap);
        }
    }
}
