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
import java.util.Map;

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

    @Test
    void shouldRefusePcapWithTheKernelsCmAsAUsageErrorNamingTheRuleAndWritingNoFile()
    {
        final Path pcap = dir.resolve("rping.pcap");
        final CommandRun run = CommandRun.run("rping", "-c", "-a", "198.18.1.1", "--cm", "kernel", "--pcap", pcap.toString());

        assertEquals(RpingCommand.USAGE, run.exit(), run.err());
        assertEquals("rdmacm rping: --pcap records the CM MADs of this stack's own CM; through the kernel's CM (--cm kernel, or auto "
            + "where ib_cm is loaded) the kernel's ib_cm sends them: capture RoCE v2 (udp port 4791) on the netdev instead",
            run.err().lines().findFirst().orElseThrow());
        assertTrue(Files.notExists(pcap), "no capture begun");
    }

    @Test
    void shouldExitWithRpingsEinvalAndOneRangeForASizeOutOfRange()
    {
        final CommandRun run = CommandRun.run("rping", "-s", "-S", "65536");

        assertEquals(RpingCommand.USAGE, run.exit(), run.err());
        assertEquals("rdmacm rping: Invalid size 65536 (valid range is 26 to 65535)", run.err().lines().findFirst().orElseThrow());
        assertTrue(run.err().contains("ping data size, 26 to 65535 (default 64)"), "the help states the same range: " + run.err());
    }

    @Test
    void shouldExitWithRpingsEinvalWithoutSideOrWithPersistentClient()
    {
        assertEquals(RpingCommand.USAGE, CommandRun.run("rping", "-a", "127.0.0.1").exit());
        assertEquals(RpingCommand.USAGE, CommandRun.run("rping", "-c", "-P", "-a", "127.0.0.1").exit());
        assertEquals(RpingCommand.USAGE, CommandRun.run("rping", "-c").exit());
    }

    @Test
    void shouldTakeRpingsPersistentAndSelfCreatedQpOptionsAndServeAnyAddressWithoutDashA() throws Exception
    {
        // -s without -a binds to any address; with no RDMA device the server fails at once, not a usage error
        final MainProcess run = MainProcess.run(dir, Map.of("SYSFS_PATH", Files.createDirectories(dir.resolve("empty-sysfs")).toString()),
            30, "rping", "-s", "-P", "-q", "-p", "7174");

        assertEquals(RpingCommand.FAILED, run.exit(), run.err());
        assertEquals("No RDMA devices were detected\n", run.err());
        assertEquals("", run.out());
    }

    @Test
    void shouldExitWithGetaddrinfosCodeForANameItCannotResolve()
    {
        final String[] err = new String[1];
        // .invalid never resolves (RFC 6761): glibc answers EAI_NONAME (-2), and rping returns it as its status
        final int exit = withStderr(err, () -> CommandRun.run("rping", "-c", "-a", "no-such-host.invalid").exit());

        assertEquals(256 - 2, exit, err[0]);
        assertEquals("rdmacm rping: -a no-such-host.invalid: getaddrinfo failed (Name or service not known) - invalid hostname or IP "
            + "address\n", err[0]);
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
