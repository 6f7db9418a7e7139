package dev.rdmacm.dist;

import dev.rdmacm.cli.Main;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.codegen.docgen.manpage.ManPageGenerator;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes one AsciiDoc man page per command of {@code rdmacm}, from the command tree itself (picocli-codegen's
 * {@link ManPageGenerator}): {@code rdmacm.adoc} and {@code rdmacm-SUBCOMMAND.adoc}, as git names its pages.
 * {@code dist/package} turns them into man(7) pages with asciidoctor. The tree is {@link Main#commandLine()}'s
 * whole tree: the {@code @Command} of {@code Main} lists no subcommands (a run builds only the one it names),
 * so picocli-codegen's own main, which reads annotations, would see none.
 * <p>
 * Usage: {@code ManPages OUTPUT_DIRECTORY}
 */
public final class ManPages
{
    private ManPages()
    {
    }

    public static void main(final String[] args) throws IOException
    {
        if (args.length != 1)
        {
            System.err.println("usage: ManPages OUTPUT_DIRECTORY");
            System.exit(2);
        }
        final Path directory = Files.createDirectories(Path.of(args[0]));
        write(Main.commandLine(), directory);
    }

    private static void write(final CommandLine command, final Path directory) throws IOException
    {
        final CommandSpec spec = command.getCommandSpec();
        final Path page = directory.resolve(spec.qualifiedName("-") + ".adoc");
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(page, StandardCharsets.UTF_8)))
        {
            ManPageGenerator.writeSingleManPage(out, spec);
        }
        for (final CommandLine subcommand : command.getSubcommands().values())
        {
            // help is picocli's own, with the same usage in every tool: no page of its own, as git has none
            if (!subcommand.getCommandSpec().helpCommand())
            {
                write(subcommand, directory);
            }
        }
    }
}
