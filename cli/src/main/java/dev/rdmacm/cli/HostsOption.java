package dev.rdmacm.cli;

import dev.rdmacm.files.ibacm.HostsFile;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * {@code --hosts FILE} (picocli mixin): an ibacm hosts file ({@code ibacm_hosts.data}, an address and
 * its GID per line) as the address table. resolve-addr and resolve-route take it as the IPoIB neighbour
 * table of {@code --fabric}'s local port; acm-server preloads its address cache from it, as ibacm's
 * {@code addr_preload acm_hosts} does.
 */
final class HostsOption
{
    /** The rule of the commands whose neighbour table it is. */
    static final String NEEDS_FABRIC = "--hosts needs --fabric: the hosts file maps addresses to GIDs of that fabric";

    private static final String HOSTS = "ibacm hosts file (address GID per line): the address table, instead of IPoIB's neighbours";

    @Option(names = "--hosts", paramLabel = "FILE", description = HOSTS)
    Path hosts;

    /** The option above as a mixin built by hand ({@link StartModels}). */
    CommandSpec model()
    {
        return CommandSpec.create().addOption(StartModels.option(Path.class, OptionValue.of(() -> hosts, value -> hosts = value), "--hosts")
            .paramLabel("FILE").description(HOSTS).build());
    }

    boolean given()
    {
        return hosts != null;
    }

    /** The file read; null without the option; unreadable or malformed: a usage error. */
    HostsFile read()
    {
        if (hosts == null)
        {
            return null;
        }
        try
        {
            return HostsFile.read(hosts);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("--hosts " + hosts + ": " + reason(ex));
        }
    }

    /** Why the file could not be read, without its path again: NIO's messages are the path alone. */
    private static String reason(final IOException ex)
    {
        return switch (ex)
        {
            case NoSuchFileException ignored -> "No such file or directory";
            case AccessDeniedException ignored -> "Permission denied";
            case FileSystemException fs when fs.getReason() != null -> fs.getReason();
            default -> ex.getMessage();
        };
    }
}
