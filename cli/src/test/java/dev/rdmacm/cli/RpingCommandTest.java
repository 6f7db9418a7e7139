package dev.rdmacm.cli;

import dev.rdmacm.testing.Tshark;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rdmacm rping --pcap} where no RDMA device is needed: a file that cannot be created, and a
 * ping that fails before any MAD, whose capture must still be complete (tshark reads it, no packet).
 * The captures of real connections are compared with the wire in the guests ({@code RpingAcrossTheWire}).
 */
@Timeout(60)
class RpingCommandTest
{
    @TempDir
    Path dir;

    @Test
    void shouldNameAPcapFileItCannotCreateAndExitAsRpingFails()
    {
        final Path unwritable = dir.resolve("no-such-directory").resolve("rping.pcap");
        final String[] err = new String[1];
        final int exit = withStderr(err, () -> CommandRun.run("rping", "-c", "-a", "198.18.1.1", "--pcap", unwritable.toString())
            .exit());
        assertEquals(RpingCommand.FAILED, exit, err[0]);
        assertTrue(err[0].contains(unwritable.toString()), err[0]);
    }

    @Test
    void shouldLeaveACompleteCaptureWhenThePingFailsBeforeAnyMad() throws IOException
    {
        final Path pcap = dir.resolve("rping.pcap");
        final String[] err = new String[1];
        // 198.18.0.0/15 is for benchmarks (RFC 2544): no route, or no RDMA device for it, here
        final int exit = withStderr(err, () -> CommandRun.run("rping", "-c", "-a", "198.18.1.1", "--pcap", pcap.toString()).exit());
        assertEquals(RpingCommand.FAILED, exit, err[0]);
        assertEquals(24, Files.size(pcap), "the pcap header alone");
        assertEquals(List.of(), Tshark.decode(pcap, "frame.number"));
    }

    /** rping prints its failures on System.err, as librdmacm's rping does on stderr. */
    private static int withStderr(final String[] captured, final java.util.function.IntSupplier run)
    {
        final PrintStream saved = System.err;
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setErr(new PrintStream(bytes, true));
        try
        {
            return run.getAsInt();
        }
        finally
        {
            System.setErr(saved);
            captured[0] = bytes.toString();
        }
    }
}
