package dev.rdmacm.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rdmacm cmtime}'s options: each bad one is a usage error naming the option and its rule, before any device is touched. */
@Timeout(30)
class CmtimeCommandTest
{
    @TempDir
    Path dir;

    @Test
    void shouldRefuseZeroConnections()
    {
        assertUsage("-c 0: at least 1 connection", "cmtime", "-s", "192.0.2.1", "-c", "0");
    }

    @Test
    void shouldRefuseAPortAbove65535()
    {
        assertUsage("-p 70000: must be 0-65535", "cmtime", "-s", "192.0.2.1", "-p", "70000");
    }

    @Test
    void shouldRefuseARetryCountTheReqCannotCarry()
    {
        assertUsage("-r 8: must be 0-7, the REQ's retry count field", "cmtime", "-s", "192.0.2.1", "-r", "8");
    }

    @Test
    void shouldRefuseAZeroTimeout()
    {
        assertUsage("-t 0: at least 1 ms", "cmtime", "-s", "192.0.2.1", "-t", "0");
    }

    @Test
    void shouldRefuseRoundsOnTheServer()
    {
        assertUsage("--rounds is the client's: give -s SERVER with it", "cmtime", "--rounds", "2");
    }

    @Test
    void shouldFailTheLookupOfAServerNameAsGetaddrinfoDoesNotAsAUsageError() throws Exception
    {
        // .invalid never resolves (RFC 6761): glibc answers EAI_NONAME (-2), which cmtime returns as its status
        final MainProcess run = MainProcess.run(dir, Map.of(), 30, "cmtime", "-s", "no-such-host.invalid");

        assertEquals(256 - 2, run.exit(), run.err());
        assertEquals("rdmacm cmtime: -s no-such-host.invalid: getaddrinfo error: Name or service not known\n", run.err());
    }

    @Test
    void shouldSayNoRdmaDevicesWereDetectedInsteadOfListening() throws Exception
    {
        final MainProcess run = MainProcess.run(dir, Map.of("SYSFS_PATH", Files.createDirectories(dir.resolve("empty-sysfs")).toString()),
            30, "cmtime", "-p", "7471");

        assertEquals(CmtimeCommand.NO_DEVICE, run.exit(), run.err());
        assertEquals("No RDMA devices were detected\n", run.err());
        assertEquals("", run.out());
    }

    private static void assertUsage(final String message, final String... args)
    {
        final CommandRun run = CommandRun.run(args);
        assertEquals(Main.EXIT_USAGE, run.exit(), run.err());
        assertEquals("rdmacm cmtime: " + message, run.err().lines().findFirst().orElse(""), run.err());
    }
}
