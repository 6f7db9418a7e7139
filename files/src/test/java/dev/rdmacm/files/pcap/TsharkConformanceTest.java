package dev.rdmacm.files.pcap;

import dev.rdmacm.protocol.capture.CaptureDirection;
import dev.rdmacm.protocol.mad.Gsi;
import dev.rdmacm.protocol.SampleMessages;
import dev.rdmacm.protocol.SampleMessages.Sample;
import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.testing.Tshark;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
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
 * Every message type we encode that tshark 4.0 decodes, framed as a UD packet between two QP1s and
 * written into one ERF pcap, is decoded by the real tshark into exactly the values we encoded; where
 * the dissector is known to be wrong or silent, the MAD bytes tshark saw are compared instead.
 */
class TsharkConformanceTest
{
    private static final String RAW_MAD_FIELD = "infiniband.mad";
    private static final String MALFORMED_FIELD = "_ws.malformed";
    private static final long FIRST_TIMESTAMP_NANOS = 1_764_417_600_000_000_000L;

    @TempDir
    static Path dir;

    private static List<Sample> samples;
    private static List<Map<String, List<String>>> decoded;

    @BeforeAll
    static void writeAndDecodeEverySample() throws IOException
    {
        samples = SampleMessages.all();
        final Path pcap = dir.resolve("conformance.pcap");
        try (ErfPcapWriter writer = new ErfPcapWriter(FileChannel.open(pcap, CREATE_NEW, WRITE)))
        {
            long timestamp = FIRST_TIMESTAMP_NANOS;
            for (final Sample sample : samples)
            {
                final boolean sent = sample.direction() == CaptureDirection.SENT;
                writer.write(sample.direction(), sample.mad(), 0, MadHeader.MAD_SIZE,
                    sent ? SampleMessages.CLIENT_LID : SampleMessages.SERVER_LID,
                    sent ? SampleMessages.SERVER_LID : SampleMessages.CLIENT_LID,
                    1, 1, 0xffff, Gsi.QKEY, timestamp);
                timestamp += 1_000_000;
            }
        }
        final Set<String> fields = new LinkedHashSet<>(List.of(RAW_MAD_FIELD, MALFORMED_FIELD));
        samples.forEach(sample -> fields.addAll(sample.tsharkFields().keySet()));
        decoded = Tshark.decode(pcap, fields.toArray(String[]::new));
    }

    @TestFactory
    Stream<DynamicTest> shouldDecodeEveryFieldAsEncoded()
    {
        return IntStream.range(0, samples.size()).mapToObj(i -> DynamicTest.dynamicTest(samples.get(i).name(), () ->
        {
            final Map<String, List<String>> packet = decoded.get(i);
            final List<String> mismatches = new ArrayList<>();
            samples.get(i).tsharkFields().forEach((field, expected) ->
            {
                if (!expected.equals(packet.get(field)))
                {
                    mismatches.add(field + ": encoded " + expected + ", tshark decoded " + packet.get(field));
                }
            });
            assertEquals(List.of(), mismatches, samples.get(i).name());
        }));
    }

    @TestFactory
    Stream<DynamicTest> shouldCarryTheRawBytesWhereTheDissectorIsWrongOrSilent()
    {
        return IntStream.range(0, samples.size()).filter(i -> !samples.get(i).rawBytes().isEmpty())
            .mapToObj(i -> DynamicTest.dynamicTest(samples.get(i).name(), () ->
            {
                final String mad = decoded.get(i).get(RAW_MAD_FIELD).get(0).replace(":", "");
                final List<String> expected = new ArrayList<>();
                final List<String> actual = new ArrayList<>();
                samples.get(i).rawBytes().forEach((offset, hex) ->
                {
                    expected.add(offset + ": " + hex);
                    actual.add(offset + ": " + mad.substring(2 * offset, 2 * offset + hex.length()));
                });
                assertEquals(expected, actual, samples.get(i).name());
            }));
    }

    @TestFactory
    Stream<DynamicTest> shouldFindNoPacketMalformed()
    {
        return IntStream.range(0, samples.size()).mapToObj(i -> DynamicTest.dynamicTest(samples.get(i).name(),
            () -> assertEquals(null, decoded.get(i).get(MALFORMED_FIELD), samples.get(i).name())));
    }

    @TestFactory
    Stream<DynamicTest> shouldDecodeOnePacketPerSample()
    {
        return Stream.of(DynamicTest.dynamicTest("packet count", () -> assertEquals(samples.size(), decoded.size())));
    }
}
