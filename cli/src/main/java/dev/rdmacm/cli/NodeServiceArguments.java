package dev.rdmacm.cli;

import picocli.CommandLine.Parameters;

/**
 * {@code [NODE] [SERVICE]} (picocli mixin): getaddrinfo's two strings, either of which may be a NULL
 * pointer, written {@value #ABSENT} (or left out).
 */
final class NodeServiceArguments
{
    /** What NODE or SERVICE is written as to stand for a NULL pointer. */
    static final String ABSENT = "-";

    @Parameters(index = "0", arity = "0..1", paramLabel = "NODE", description = "Host name or numeric address, - for none.")
    String node;

    @Parameters(index = "1", arity = "0..1", paramLabel = "SERVICE", description = "Service name or port number, - for none.")
    String service;

    /** NODE, or null for none. */
    String node()
    {
        return ABSENT.equals(node) ? null : node;
    }

    /** SERVICE, or null for none. */
    String service()
    {
        return ABSENT.equals(service) ? null : service;
    }
}
