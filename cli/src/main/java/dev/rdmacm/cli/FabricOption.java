package dev.rdmacm.cli;

import dev.rdmacm.cli.json.JsonObject;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaClientConfig;
import dev.rdmacm.sa.transport.FabricSpec;
import dev.rdmacm.sa.transport.MadTransportException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

import java.time.Duration;

/** {@code --fabric FABRIC} (picocli mixin): where SA queries go. */
final class FabricOption
{
    /** The longest a command waits for the fabric's transport to open (the SA's ClassPortInfo included). */
    private static final Duration OPEN_TIMEOUT = Duration.ofSeconds(5);

    private static final String FABRIC = "where SA queries go:%nverbs[:DEV[:PORT[:sa-gid=GID]]]%nor ibsim:HOST:PORT:NODE";

    @Option(names = "--fabric", paramLabel = "FABRIC", description = FABRIC)
    String fabric;

    /** The option above as a mixin built by hand ({@link StartModels}). */
    CommandSpec model()
    {
        return CommandSpec.create().addOption(StartModels.option(String.class, OptionValue.of(() -> fabric, value -> fabric = value), "--fabric")
            .paramLabel("FABRIC").description(FABRIC).build());
    }

    /** The option as if given as {@code --fabric text} (a command's default fabric). */
    static FabricOption of(final String text)
    {
        final FabricOption option = new FabricOption();
        option.fabric = text;
        return option;
    }

    boolean given()
    {
        return fabric != null;
    }

    /** The parsed fabric; null without the option. */
    FabricSpec spec()
    {
        return fabric == null ? null : FabricSpec.parse(fabric);
    }

    /**
     * An SA client on the fabric, its transport opened within {@code timeoutMs} (at least 1 ms, at most
     * {@link #OPEN_TIMEOUT}); null without the option. A malformed spec is a usage error.
     */
    SaClient start(final long timeoutMs, final SaClientConfig config) throws MadTransportException
    {
        if (fabric == null)
        {
            return null;
        }
        final Duration open = Duration.ofMillis(Math.min(Math.max(timeoutMs, 1), OPEN_TIMEOUT.toMillis()));
        return SaClient.attach(fabric, open, config);
    }

    /** The error of a fabric that did not open: ENODEV, naming the option. */
    JsonObject error(final MadTransportException ex)
    {
        return JsonOutput.errno(Errno.ENODEV, "--fabric " + fabric + ": " + ex.getMessage());
    }
}
