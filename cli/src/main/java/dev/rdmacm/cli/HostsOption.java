package dev.rdmacm.cli;

import dev.rdmacm.files.ibacm.HostsFile;
import picocli.CommandLine.Option;

import java.io.IOException;
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

    @Option(names = "--hosts", paramLabel = "FILE",
        description = "ibacm hosts file (address GID per line): the address table, instead of IPoIB's neighbours")
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
