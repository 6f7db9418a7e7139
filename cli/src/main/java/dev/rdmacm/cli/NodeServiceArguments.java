package dev.rdmacm.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;

import static dev.rdmacm.cli.StartModels.positional;

/**
 * {@code [NODE] [SERVICE]} (picocli mixin): getaddrinfo's two strings, either of which may be a NULL
 * pointer, written {@value #ABSENT} (or left out).
 */
final class NodeServiceArguments
{
    /** What NODE or SERVICE is written as to stand for a NULL pointer. */
    static final String ABSENT = "-";

    private static final String NODE = "Host name or numeric address, - for none.";
    private static final String SERVICE = "Service name or port number, - for none.";

    @Parameters(index = "0", arity = "0..1", paramLabel = "NODE", description = NODE)
    String node;

    @Parameters(index = "1", arity = "0..1", paramLabel = "SERVICE", description = SERVICE)
    String service;

    /** The parameters above as a mixin built by hand ({@link StartModels}). */
    CommandSpec model()
    {
        return CommandSpec.create()
            .addPositional(positional("0", String.class, OptionValue.of(() -> node, value -> node = value))
                .arity("0..1").paramLabel("NODE").description(NODE).build())
            .addPositional(positional("1", String.class, OptionValue.of(() -> service, value -> service = value))
                .arity("0..1").paramLabel("SERVICE").description(SERVICE).build());
    }

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
