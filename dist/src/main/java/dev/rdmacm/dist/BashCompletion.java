package dev.rdmacm.dist;

import dev.rdmacm.cli.Main;
import picocli.AutoComplete;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the bash completion script of {@code rdmacm}, made by picocli's {@link AutoComplete} from the whole
 * command tree ({@link Main#commandLine()}): subcommands, options and their enum values.
 * <p>
 * Usage: {@code BashCompletion OUTPUT_FILE}
 */
public final class BashCompletion
{
    private BashCompletion()
    {
    }

    public static void main(final String[] args) throws IOException
    {
        if (args.length != 1)
        {
            System.err.println("usage: BashCompletion OUTPUT_FILE");
            System.exit(2);
        }
        final Path file = Path.of(args[0]);
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, AutoComplete.bash("rdmacm", Main.commandLine()), StandardCharsets.UTF_8);
    }
}
