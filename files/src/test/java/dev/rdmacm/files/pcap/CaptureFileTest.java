package dev.rdmacm.files.pcap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What every MAD recorder's capture does whatever its framing: the header, the counts, the first failure. */
@Timeout(30)
class CaptureFileTest
{
    @TempDir
    Path dir;

    @Test
    void shouldStopAtTheFirstFailedWriteAndCountIt()
    {
        final CaptureFile<RoceV2PcapWriter> capture = CaptureFile.create(dir.resolve("c.pcap"), "test capture",
            RoceV2PcapWriter::new);
        final int[] calls = new int[1];

        capture.record((writer, epochNanos) ->
        {
            calls[0]++;
            throw new IOException("disk full");
        });
        capture.record((writer, epochNanos) -> calls[0]++);
        capture.close();

        assertEquals(1, calls[0], "nothing is written after a failure");
        assertEquals(0, capture.written());
        assertEquals(1, capture.failures());
    }

    @Test
    void shouldStampRecordsWithTheWallClockInOrder()
    {
        final long before = System.currentTimeMillis() * 1_000_000L;
        final CaptureFile<RoceV2PcapWriter> capture = CaptureFile.create(dir.resolve("t.pcap"), "test capture",
            RoceV2PcapWriter::new);
        final long[] stamps = new long[2];

        capture.record((writer, epochNanos) -> stamps[0] = epochNanos);
        capture.record((writer, epochNanos) -> stamps[1] = epochNanos);
        capture.close();

        assertTrue(stamps[0] >= before - 1_000_000L, stamps[0] + " is the wall clock, not " + before);
        assertTrue(stamps[1] >= stamps[0], "ordered as made");
        assertEquals(2, capture.written());
    }

    @Test
    void shouldNameTheCaptureAndTheFileItCannotWrite() throws IOException
    {
        final Path notADirectory = Files.createFile(dir.resolve("file"));
        final Path unwritable = notADirectory.resolve("c.pcap");

        final UncheckedIOException refused = assertThrows(UncheckedIOException.class,
            () -> CaptureFile.create(unwritable, "test capture", RoceV2PcapWriter::new));

        assertTrue(refused.getMessage().startsWith("cannot write a test capture to " + unwritable + ": "),
            refused.getMessage());
    }
}
