package dev.rdmacm.files.pcap;

import dev.rdmacm.protocol.capture.CaptureDirection;
import dev.rdmacm.protocol.mad.Gsi;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.SampleMessages;
import dev.rdmacm.protocol.SampleMessages.Sample;
import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.testing.Tshark;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static java.nio.file.StandardOpenOption.CREATE_NEW;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every sample MAD, written by {@link RoceV2PcapWriter} as RoCE v2 frames between two QP1s (IPv4 for
 * most even samples, IPv6 GIDs for the others), is decoded by the real tshark: the Ethernet, IP and
 * UDP layers as RoCE v2 (tshark's own IPv4 and UDP checksum checks on), the BTH and DETH, and every field of the
 * MAD as the samples encode it. The ICRC is checked against rxe's own frames in {@link RoceInvariantCrcTest}.
 */
@Timeout(60)
class RoceV2PcapWriterTest
{
    private static final Gid CLIENT_V4 = Gid.ipv4Mapped(0xac1f_3c02);
    private static final Gid SERVER_V4 = Gid.ipv4Mapped(0xac1f_3c01);
    private static final Gid CLIENT_V6 = Gid.parse("fe80::5054:ff:fe12:3402");
    private static final Gid SERVER_V6 = Gid.parse("fe80::5054:ff:fe12:3401");
    private static final int CLIENT_QP = 1;
    private static final int PKEY = 0xffff;
    private static final int TRAFFIC_CLASS = 0x10;
    private static final int HOP_LIMIT = 64;
    private static final int FLOW_LABEL = 0x1_2345;
    private static final long FIRST_TIMESTAMP_NANOS = 1_764_417_600_123_456_000L;
    private static final List<String> FRAMING_FIELDS = List.of("eth.type", "ip.src", "ip.dst", "ip.dsfield", "ip.ttl",
        "ip.checksum.status", "ipv6.src", "ipv6.dst", "ipv6.tclass", "ipv6.flow", "ipv6.hlim", "udp.srcport", "udp.dstport",
        "infiniband.bth.opcode", "infiniband.bth.p_key", "infiniband.bth.destqp", "infiniband.deth.q_key", "infiniband.deth.srcqp",
        "udp.checksum.status", "frame.time_epoch", "_ws.malformed", "_ws.expert");

    @TempDir
    static Path dir;

    private static List<Sample> samples;
    private static List<Map<String, List<String>>> decoded;

    @BeforeAll
    static void writeAndDecodeEverySample() throws IOException
    {
        samples = SampleMessages.all();
        final Path pcap = dir.resolve("roce.pcap");
        try (RoceV2PcapWriter writer = new RoceV2PcapWriter(FileChannel.open(pcap, CREATE_NEW, WRITE)))
        {
            for (int i = 0; i < samples.size(); i++)
            {
                final boolean sent = samples.get(i).direction() == CaptureDirection.SENT;
                final Gid client = overIpv4(i) ? CLIENT_V4 : CLIENT_V6;
                final Gid server = overIpv4(i) ? SERVER_V4 : SERVER_V6;
                writer.write(sent ? client : server, sent ? server : client, CLIENT_QP, 1, PKEY,
                    Gsi.QKEY, TRAFFIC_CLASS, HOP_LIMIT, FLOW_LABEL, samples.get(i).mad(), 0,
                    MadHeader.MAD_SIZE, FIRST_TIMESTAMP_NANOS + i * 1_000_000L);
            }
        }
        final Set<String> fields = new LinkedHashSet<>(FRAMING_FIELDS);
        samples.forEach(sample -> fields.addAll(sample.tsharkFields().keySet()));
        decoded = Tshark.decode(pcap, List.of("-o", "ip.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE"), fields.toArray(String[]::new));
    }

    /**
     * Every other sample goes over IPv4, except a REQ: tshark 4.0 reads a REQ's path GIDs as IPv4
     * addresses when the frame is IPv4 ({@code prim_localgid_ipv4}), and the samples' GIDs are
     * link-local, which no RoCE v2 REQ over IPv4 carries.
     */
    private static boolean overIpv4(final int sample)
    {
        return sample % 2 == 0 && !samples.get(sample).tsharkFields().containsKey("infiniband.cm.req.prim_localgid");
    }

    @TestFactory
    Stream<DynamicTest> shouldDecodeEveryMadFieldAsEncoded()
    {
        return IntStream.range(0, samples.size()).mapToObj(i -> DynamicTest.dynamicTest(samples.get(i).name(), () ->
        {
            final List<String> mismatches = new ArrayList<>();
            samples.get(i).tsharkFields().forEach((field, expected) ->
            {
                if (!expected.equals(decoded.get(i).get(field)))
                {
                    mismatches.add(field + ": encoded " + expected + ", tshark decoded " + decoded.get(i).get(field));
                }
            });
            assertEquals(List.of(), mismatches, samples.get(i).name());
        }));
    }

    @TestFactory
    Stream<DynamicTest> shouldDecodeTheRoceV2FramingAsWritten()
    {
        return IntStream.range(0, samples.size()).mapToObj(i -> DynamicTest.dynamicTest(samples.get(i).name(), () ->
        {
            final boolean sent = samples.get(i).direction() == CaptureDirection.SENT;
            final Map<String, List<String>> packet = decoded.get(i);
            final Map<String, List<String>> framing = new java.util.TreeMap<>();
            FRAMING_FIELDS.forEach(field -> framing.put(field, packet.get(field)));
            final Map<String, List<String>> expected = new java.util.TreeMap<>();
            FRAMING_FIELDS.forEach(field -> expected.put(field, null));
            if (overIpv4(i))
            {
                expected.put("eth.type", List.of("0x0800"));
                expected.put("ip.src", List.of(sent ? "172.31.60.2" : "172.31.60.1"));
                expected.put("ip.dst", List.of(sent ? "172.31.60.1" : "172.31.60.2"));
                expected.put("ip.dsfield", List.of("0x10"));
                expected.put("ip.ttl", List.of("64"));
                expected.put("ip.checksum.status", List.of("1")); // PROTO_CHECKSUM_E_GOOD
                expected.put("udp.checksum.status", List.of("3")); // PROTO_CHECKSUM_E_NOT_PRESENT: 0, as rxe sends it
            }
            else
            {
                expected.put("eth.type", List.of("0x86dd"));
                expected.put("ipv6.src", List.of(sent ? "fe80::5054:ff:fe12:3402" : "fe80::5054:ff:fe12:3401"));
                expected.put("ipv6.dst", List.of(sent ? "fe80::5054:ff:fe12:3401" : "fe80::5054:ff:fe12:3402"));
                expected.put("ipv6.tclass", List.of("0x00000010"));
                expected.put("ipv6.flow", List.of("0x012345"));
                expected.put("udp.checksum.status", List.of("1")); // IPv6 needs one (RFC 8200 8.1)
                expected.put("ipv6.hlim", List.of("64"));
            }
            expected.put("udp.srcport", List.of("49152"));
            expected.put("udp.dstport", List.of("4791"));
            expected.put("infiniband.bth.opcode", List.of("100"));
            expected.put("infiniband.bth.p_key", List.of("65535"));
            expected.put("infiniband.bth.destqp", List.of("0x000001"));
            expected.put("infiniband.deth.q_key", List.of("0x0000000080010000"));
            expected.put("infiniband.deth.srcqp", List.of("0x00000001"));
            expected.put("frame.time_epoch", List.of(String.format("%d.%06d000", (FIRST_TIMESTAMP_NANOS + i * 1_000_000L) / 1_000_000_000L,
                (FIRST_TIMESTAMP_NANOS + i * 1_000_000L) % 1_000_000_000L / 1000)));
            assertEquals(expected, framing, samples.get(i).name());
        }));
    }

    @Test
    void shouldDecodeOnePacketPerSample()
    {
        assertEquals(samples.size(), decoded.size());
    }
}
