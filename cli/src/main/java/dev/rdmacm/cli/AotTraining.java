package dev.rdmacm.cli;

import java.util.List;

/**
 * The training run of the JVM's AOT cache that {@code ./rdmacm} builds after each build of the jar
 * ({@code -XX:AOTCacheOutput}, JEP 483): the commands whose cold start matters, run on loopback in one
 * JVM, so that the cache holds the classes they load. A main class of its own, not a subcommand: nobody
 * types it, and what the commands print goes to the launcher's log.
 */
public final class AotTraining
{
    /** Text and JSON, success and error paths: each loads classes the others do not. */
    private static final List<String[]> COMMANDS = List.of(
        new String[] {"getaddrinfo", "127.0.0.1", "--json"},
        new String[] {"getaddrinfo", "127.0.0.1"},
        new String[] {"resolve-addr", "127.0.0.1", "--json"},
        new String[] {"resolve-addr", "127.0.0.1"},
        new String[] {"devices", "--json"},
        new String[] {"devices"},
        new String[] {"getaddrinfo", "--no-such-option"},
        new String[] {"--help"});

    private AotTraining()
    {
    }

    public static void main(final String[] args)
    {
        for (final String[] command : COMMANDS)
        {
            // an exit status of 1 is expected here (no RDMA device on many hosts): only the loading counts
            Main.commandLine(command).execute(command);
        }
    }
}
