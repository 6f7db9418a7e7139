package dev.rdmacm.cli;

import dev.rdmacm.sa.transport.FabricSpec;
import picocli.CommandLine.Option;

/** {@code --fabric FABRIC} (picocli mixin): where SA queries go. */
final class FabricOption
{
    @Option(names = "--fabric", paramLabel = "FABRIC",
        description = "verbs[:DEV[:PORT[:sa-gid=GID]]] or ibsim:HOST:PORT:NODE: where SA queries go")
    String fabric;

    boolean given()
    {
        return fabric != null;
    }

    /** The text as given, or {@code fallback} without the option. */
    String orElse(final String fallback)
    {
        return fabric == null ? fallback : fabric;
    }

    /** The parsed fabric; null without the option. */
    FabricSpec spec()
    {
        return fabric == null ? null : FabricSpec.parse(fabric);
    }
}
