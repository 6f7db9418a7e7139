package dev.rdmacm.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rdmacm cmtime}'s options: each bad one is a usage error naming the option and its rule, before any device is touched. */
@Timeout(30)
class CmtimeCommandTest
{
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
    void shouldRefuseAServerNameThatDoesNotResolve()
    {
        final CommandRun run = CommandRun.run("cmtime", "-s", "no-such-host.invalid");
        assertEquals(Main.EXIT_USAGE, run.exit(), run.err());
        assertTrue(run.err().startsWith("rdmacm cmtime: -s no-such-host.invalid: "), run.err());
    }

    private static void assertUsage(final String message, final String... args)
    {
        final CommandRun run = CommandRun.run(args);
        assertEquals(Main.EXIT_USAGE, run.exit(), run.err());
        assertEquals("rdmacm cmtime: " + message, run.err().lines().findFirst().orElse(""), run.err());
    }
}
