package dev.rdmacm.cli;

import dev.rdmacm.cm.HostsNeighbours;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.protocol.acm.HostsFile;
import dev.rdmacm.sa.transport.LocalPort;
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

    /** {@code options} with {@code file} as the neighbour table of port 1 of the fabric's local port. */
    static RdmaCm.Options neighbours(final RdmaCm.Options options, final HostsFile file, final LocalPort local)
    {
        return options.hostsNeighbours(new HostsNeighbours(file, HostsNeighbours.infinibandPort(local.name(), 1, local.gid())));
    }
}
