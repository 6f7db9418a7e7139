package dev.rdmacm.ibcm;

import dev.rdmacm.protocol.capture.CaptureDirection;
import dev.rdmacm.files.pcap.ErfPcapWriter;
import dev.rdmacm.protocol.mad.Gsi;
import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.testing.Tshark;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.TRUNCATE_EXISTING;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Wireshark's InfiniBand dissector, a CM decoder nobody here wrote, reads every MAD of a handshake and a
 * disconnect the engine made: the messages come in the order IBA 12.9 gives, and each names the other
 * side's comm ID where it should.
 */
@Timeout(120)
class TsharkDecodesTheHandshakeTest
{
    private static final String[] FIELDS = {
        "infiniband.mad.attributeid", "infiniband.mad.transactionid",
        "infiniband.cm.req", "infiniband.cm.req.localqpn", "infiniband.cm.req.startpsn",
        "infiniband.cm.req.serviceid", "infiniband.cm.req.localcaguid",
        "infiniband.cm.rep", "infiniband.cm.rep.remotecommid", "infiniband.cm.rep.localqpn",
        "infiniband.cm.rep.startpsn",
        "infiniband.cm.rtu.localcommid", "infiniband.cm.rtu.remotecommid",
        "infiniband.cm.dreq.localcommid", "infiniband.cm.dreq.remotecommid", "infiniband.cm.req.remoteqpneecn",
        "infiniband.cm.drsp.localcommid", "infiniband.cm.drsp.remotecommid", "_ws.malformed"};

    @TempDir
    static Path dir;
    private static List<Map<String, List<String>>> packets;
    private static IbCmConnection active;
    private static IbCmConnection passive;

    @BeforeAll
    static void handshakeAndDisconnect() throws IOException
    {
        final BackToBackCms cms = new BackToBackCms();
        active = cms.establish();
        passive = cms.passive.accepted();
        cms.passive.reaction = (connection, event) ->
        {
            if (event instanceof IbCmEvent.DisconnectRequested)
            {
                connection.drep(null);
            }
        };
        active.disconnect(null);
        cms.settle();
        final Path pcap = dir.resolve("handshake.pcap");
        try (ErfPcapWriter writer = new ErfPcapWriter(FileChannel.open(pcap, CREATE, WRITE, TRUNCATE_EXISTING)))
        {
            long at = 1_764_633_600_000_000_000L;
            for (final InMemoryMadPipe.Sent sent : cms.pipe.sent())
            {
                final boolean fromActive = sent.from().equals(BackToBackCms.ACTIVE_GID);
                writer.write(fromActive ? CaptureDirection.SENT : CaptureDirection.RECEIVED,
                    new UnsafeBuffer(sent.mad()), 0, MadHeader.MAD_SIZE, fromActive ? 1 : 2, fromActive ? 2 : 1,
                    1, 1, 0xffff, Gsi.QKEY, at += 1000);
            }
        }
        packets = Tshark.decode(pcap, FIELDS);
    }

    private static String field(final int packet, final String name)
    {
        final List<String> values = packets.get(packet).get(name);
        return values == null ? null : values.getFirst();
    }

    private static long number(final int packet, final String name)
    {
        return Long.decode(field(packet, name));
    }

    @Test
    void shouldDecodeReqRepRtuDreqDrepInThatOrder()
    {
        assertEquals(List.of("0x0010", "0x0013", "0x0014", "0x0015", "0x0016"),
            packets.stream().map(p -> p.get("infiniband.mad.attributeid").getFirst()).toList());
    }

    @Test
    void shouldFindNoMalformedField()
    {
        for (int i = 0; i < packets.size(); i++)
        {
            assertNull(field(i, "_ws.malformed"), "packet " + i);
        }
    }

    @Test
    void shouldNameTheActiveCommIdInTheRepAndBothInTheRtu()
    {
        assertEquals(active.localCommId(), number(0, "infiniband.cm.req"));
        assertEquals(active.localCommId(), number(1, "infiniband.cm.rep.remotecommid"));
        assertEquals(passive.localCommId(), number(1, "infiniband.cm.rep"));
        assertEquals(active.localCommId(), number(2, "infiniband.cm.rtu.localcommid"));
        assertEquals(passive.localCommId(), number(2, "infiniband.cm.rtu.remotecommid"));
    }

    @Test
    void shouldCarryTheQpnsAndPsnsTheQpsWereGiven()
    {
        assertEquals(BackToBackCms.ACTIVE_QPN, number(0, "infiniband.cm.req.localqpn"));
        assertEquals(passive.qpAttributes().sendPsn(), number(0, "infiniband.cm.req.startpsn"));
        assertEquals(BackToBackCms.PASSIVE_QPN, number(1, "infiniband.cm.rep.localqpn"));
        assertEquals(active.qpAttributes().sendPsn(), number(1, "infiniband.cm.rep.startpsn"));
        assertEquals(BackToBackCms.SERVICE_ID, Long.decode(field(0, "infiniband.cm.req.serviceid")));
        assertEquals(BackToBackCms.ACTIVE_CA_GUID, Long.decode(field(0, "infiniband.cm.req.localcaguid")));
    }

    @Test
    void shouldAnswerTheDreqWithItsIdsSwappedAndItsTid()
    {
        assertEquals(active.localCommId(), number(3, "infiniband.cm.dreq.localcommid"));
        assertEquals(BackToBackCms.PASSIVE_QPN, number(3, "infiniband.cm.req.remoteqpneecn"));
        assertEquals(passive.localCommId(), number(4, "infiniband.cm.drsp.localcommid"));
        assertEquals(active.localCommId(), number(4, "infiniband.cm.drsp.remotecommid"));
        assertEquals(field(3, "infiniband.mad.transactionid"), field(4, "infiniband.mad.transactionid"));
    }
}
