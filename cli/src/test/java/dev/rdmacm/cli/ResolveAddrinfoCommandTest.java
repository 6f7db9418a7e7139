package dev.rdmacm.cli;

import org.junit.jupiter.api.Test;

import static dev.rdmacm.cli.CommandRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code rdmacm resolve-addrinfo}: what getaddrinfo prints for the same inputs, after the event's name;
 * a failed call as the errno librdmacm sets, which for a failed lookup is the EAI code. The inputs
 * are numeric, so no resolver file or server is asked.
 */
class ResolveAddrinfoCommandTest
{
    @Test
    void shouldPrintTheEventAndTheEntriesGetaddrinfoPrints()
    {
        final CommandRun resolved = run("resolve-addrinfo", "192.0.2.1", "7471", "--numeric-host", "--qp-type", "ud");
        final CommandRun listed = run("getaddrinfo", "192.0.2.1", "7471", "--numeric-host", "--qp-type", "ud");

        assertEquals(0, resolved.exit(), resolved.err());
        assertEquals("ADDRINFO_RESOLVED\n" + listed.out(), resolved.out());
    }

    @Test
    void shouldNameTheEventAndListTheEntriesInJson()
    {
        final CommandRun resolved = run("resolve-addrinfo", "--json", "192.0.2.1", "7471");
        final CommandRun listed = run("getaddrinfo", "--json", "192.0.2.1", "7471");

        assertEquals(0, resolved.exit(), resolved.err());
        assertEquals(listed.out().replaceFirst("^\\{", "{\"event\":\"ADDRINFO_RESOLVED\","), resolved.out());
    }

    @Test
    void shouldReportAFailedLookupWithItsEaiCodeAsTheCallsErrno()
    {
        final CommandRun run = run("resolve-addrinfo", "--json", "not-an-address", "--numeric-host");

        assertEquals(Main.EXIT_RESOLUTION_FAILURE, run.exit());
        assertEquals("{\"error\":\"EAI_NONAME\",\"code\":-2,", run.out().substring(0, run.out().indexOf("\"message\"")));
    }

    @Test
    void shouldReportAnSaResolutionWithANodeAsEnotsup()
    {
        final CommandRun run = run("resolve-addrinfo", "192.0.2.1", "1", "--sa");

        assertEquals(Main.EXIT_RESOLUTION_FAILURE, run.exit());
        // the call and the errno once, in the line's own places (issue 31)
        assertEquals("rdmacm resolve-addrinfo: rdma_resolve_addrinfo EOPNOTSUPP (95): RAI_SA takes no node, only a service "
            + "(node \"192.0.2.1\"): Operation not supported\n", run.err());
    }
}
