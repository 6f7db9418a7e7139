package dev.rdmacm.cli;

import dev.rdmacm.resolver.spi.GidDirectory;
import dev.rdmacm.resolver.spi.HostsNeighbours;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmException;
import dev.rdmacm.cm.diagnostics.StateTransitionListener;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.NetworkNamespace;
import dev.rdmacm.files.ibacm.HostsFile;
import dev.rdmacm.sa.SaClient;

import java.net.InetAddress;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The {@link RdmaCm} the address-resolving commands open, the same way in each: this machine's GID
 * tables ({@link GidDirectory#live}: through libibverbs, or the sysfs tree {@code $SYSFS_PATH} names),
 * the trace's listener, and what the shared
 * options ask for: {@code --netns}, {@code --fabric}'s SA and {@code --hosts} as the neighbour table of
 * the fabric's local port.
 */
final class CmOptions
{
    private CmOptions()
    {
    }

    /**
     * @param hosts            the hosts file, or null.
     * @param sa               the SA of {@code --fabric}, or null; required with {@code hosts}.
     * @param networkNamespace the {@code ip netns} name, or null.
     */
    static RdmaCm.Options.Builder of(final Map<String, String> environment, final StateTransitionListener listener,
        final HostsFile hosts, final SaClient sa, final String networkNamespace)
    {
        final RdmaCm.Options.Builder options = RdmaCm.Options.builder()
            .gids(GidDirectory.live(environment))
            .listener(listener)
            .sa(sa);
        if (hosts != null)
        {
            options.hostsNeighbours(HostsNeighbours.onPortOf(hosts, sa));
        }
        if (networkNamespace != null)
        {
            options.networkNamespace(NetworkNamespace.byName(networkNamespace));
        }
        return options;
    }

    /**
     * {@code DST} or {@code --src} as an address: a numeric one as {@link AddressArgument} reads it (a scope
     * name resolved in {@code cm}'s namespace), a host name as rping resolves {@code -a} ({@link HostLookup},
     * whose failure is a failed resolution, not a usage error).
     *
     * @param scopeNamed told each interface index a scope name was turned into, for the output to name it again.
     */
    static InetAddress address(final RdmaCm cm, final String text, final String what, final BiConsumer<Integer, String> scopeNamed)
    {
        return AddressArgument.numeric(text) ? AddressArgument.parse(text, what, name ->
        {
            final int index = scopeIndex(cm, name);
            scopeNamed.accept(index, name);
            return index;
        }) : HostLookup.resolve(text);
    }

    /** A scope name such as {@code eth0} in {@code fe80::2%eth0} as an interface index; unknown: a usage error. */
    private static int scopeIndex(final RdmaCm cm, final String name)
    {
        try
        {
            return cm.interfaceIndex(name);
        }
        catch (final RdmaCmException ex)
        {
            throw new IllegalArgumentException("scope '%" + name + "': no such interface (" + Errno.name(ex.errno()) + ")");
        }
    }
}
