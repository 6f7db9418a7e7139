package dev.rdmacm.cm;

import dev.rdmacm.cm.diagnostics.CmMadFilter;
import dev.rdmacm.cm.diagnostics.PcapCmMadRecorder;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.SampleMessages.Sample;
import dev.rdmacm.protocol.SampleMessages;
import dev.rdmacm.protocol.capture.CaptureDirection;
import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.testing.OpenDescriptors;
import dev.rdmacm.testing.Tshark;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The CM's capture, as {@code rdmacm rping --pcap} writes it: every CM sample MAD recorded through
 * {@link CmMadRecorder#onMad} as the CM thread calls it, sent and received, then decoded by the real
 * tshark: every field of every MAD as encoded, the addresses of the GRH as IP addresses the right way
 * round, nothing malformed. The file is complete once closed, and no descriptor is left open, not even
 * when the file cannot be created.
 */
@Timeout(60)
class PcapCmMadRecorderTest
{
    private static final Gid OURS = Gid.parse("fe80::5054:ff:fe12:3402");
    private static final Gid THEIRS = Gid.parse("fe80::5054:ff:fe12:3401");
    private static final int CM_CLASS = 0x07;

    @TempDir
    Path dir;

    @Test
    void shouldWriteEveryCmMadSentAndReceivedSoThatTsharkDecodesEveryField() throws IOException
    {
        final List<Sample> samples = SampleMessages.all().stream()
            .filter(sample -> (sample.mad().getByte(MadHeader.MGMT_CLASS_OFFSET) & 0xff) == CM_CLASS).toList();
        final Path pcap = dir.resolve("cm.pcap");
        try (PcapCmMadRecorder recorder = PcapCmMadRecorder.create(pcap))
        {
            for (final Sample sample : samples)
            {
                final boolean sent = sample.direction() == CaptureDirection.SENT;
                recorder.onMad(sent ? CmMadFilter.Direction.SENT : CmMadFilter.Direction.RECEIVED, sent ? OURS : THEIRS,
                    sent ? THEIRS : OURS, 1, 1, 0, 64, 0, sample.mad(), 0, MadHeader.MAD_SIZE);
            }
            assertEquals(samples.size(), recorder.written());
            assertEquals(0, recorder.failures());
        }
        final Set<String> fields = new LinkedHashSet<>(List.of("ipv6.src", "ipv6.dst", "_ws.malformed"));
        samples.forEach(sample -> fields.addAll(sample.tsharkFields().keySet()));
        final List<Map<String, List<String>>> decoded = Tshark.decode(pcap, fields.toArray(String[]::new));
        assertEquals(samples.size(), decoded.size());
        final List<String> mismatches = new ArrayList<>();
        for (int i = 0; i < samples.size(); i++)
        {
            final Sample sample = samples.get(i);
            final Map<String, List<String>> packet = decoded.get(i);
            final boolean sent = sample.direction() == CaptureDirection.SENT;
            final Map<String, List<String>> expected = new java.util.LinkedHashMap<>(sample.tsharkFields());
            expected.put("ipv6.src", List.of((sent ? OURS : THEIRS).toString()));
            expected.put("ipv6.dst", List.of((sent ? THEIRS : OURS).toString()));
            expected.put("_ws.malformed", null);
            expected.forEach((field, value) ->
            {
                if (!java.util.Objects.equals(value, packet.get(field)))
                {
                    mismatches.add(sample.name() + " " + field + ": encoded " + value + ", tshark " + packet.get(field));
                }
            });
        }
        assertEquals(List.of(), mismatches);
    }

    @Test
    void shouldLeaveNoDescriptorOpenOnceClosedOrWhenTheFileCannotBeCreated() throws IOException
    {
        final OpenDescriptors before = OpenDescriptors.now();
        PcapCmMadRecorder.create(dir.resolve("closed.pcap")).close();
        final Path unwritable = dir.resolve("no-such-directory").resolve("cm.pcap");
        final UncheckedIOException refused = assertThrows(UncheckedIOException.class, () -> PcapCmMadRecorder.create(unwritable));
        assertTrue(refused.getMessage().contains(unwritable.toString()), refused.getMessage());
        assertEquals(List.of(), OpenDescriptors.openedSince(before));
        assertEquals(24, Files.size(dir.resolve("closed.pcap"))); // the pcap header alone: a capture of nothing
    }
}
