package dev.rdmacm.cli;

import dev.rdmacm.resolver.hosts.HostsFile;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;

/** {@code --hosts FILE} (picocli mixin): an ibacm hosts file as the IPoIB neighbour table. */
final class HostsOption
{
    @Option(names = "--hosts", paramLabel = "FILE",
        description = "ibacm hosts file (address GID per line) used as the IPoIB neighbour table; needs --fabric")
    Path hosts;

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
            throw new IllegalArgumentException("--hosts " + hosts + ": " + ex.getMessage());
        }
    }
}
