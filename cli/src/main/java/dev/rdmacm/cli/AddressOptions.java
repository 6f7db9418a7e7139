package dev.rdmacm.cli;

import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.resolver.spi.KernelProfile;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmException;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.NetworkNamespace;
import dev.rdmacm.files.ibacm.HostsFile;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaClientConfig;
import dev.rdmacm.sa.transport.MadTransportException;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.net.InetAddress;
import java.nio.file.Files;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the commands that resolve an address with the CM share (picocli mixin): {@code DST},
 * {@code --src}, {@code --netns}, {@code --kernel-profile} and the shared {@code --timeout-ms}, {@code --json}, {@code --trace},
 * {@code --fabric} and {@code --hosts}; and the run they share: the fabric's SA, the CM on this
 * machine's GID tables, its event channel and the parsed addresses, each failure rendered the one way.
 */
final class AddressOptions
{
    /** {@code --kernel-profile}'s text as {@link KernelProfile#parse} reads it; a bad one is a usage error naming the choices. */
    static final class KernelProfileConverter implements CommandLine.ITypeConverter<KernelProfile>
    {
        @Override
        public KernelProfile convert(final String text)
        {
            return GetAddrInfoCommand.usage(text, () -> KernelProfile.parse(text));
        }
    }

    /** What a command does once the CM is open and the addresses are parsed; returns the exit status. */
    @FunctionalInterface
    interface Resolution
    {
        int run(RdmaCm cm, EventChannel channel, InetAddress destination, InetAddress source) throws InterruptedException;
    }

    private static final String DST = "destination IPv4 or IPv6 address (fe80::2%%eth0 for a scope) or host "
        + "name (glibc's getaddrinfo, its first address, as rping -a)";
    private static final String SRC = "source address or host name to bind (default: the route's choice)";
    private static final String NETNS = "resolve inside this network namespace (ip netns)";
    private static final String KERNEL_PROFILE = "whose rules apply where kernels differ: linux-6.1 (default, compared with the running "
        + "kernel) or mainline (read from source, not compared)";

    @Parameters(index = "0", paramLabel = "DST", description = DST)
    String destination;

    @Option(names = "--src", paramLabel = "SRC", description = SRC)
    String source;

    @Option(names = "--netns", paramLabel = "NAME", description = NETNS)
    String networkNamespace;

    @Option(names = "--kernel-profile", paramLabel = "PROFILE", converter = KernelProfileConverter.class, description = KERNEL_PROFILE)
    KernelProfile kernelProfile = KernelProfile.defaultProfile();

    @CommandLine.Mixin
    TimeoutOption timeout = new TimeoutOption();

    @CommandLine.Mixin
    JsonOption json = new JsonOption();

    @CommandLine.Mixin
    TraceOption trace = new TraceOption();

    /** Where SA queries go; with --hosts also the local port whose neighbour table the hosts file is. */
    @CommandLine.Mixin
    FabricOption fabric = new FabricOption();

    @CommandLine.Mixin
    HostsOption hosts = new HostsOption();

    /** The parameter and options above and the mixins' as a mixin built by hand ({@link StartModels}). */
    CommandSpec model()
    {
        return CommandSpec.create()
            .addPositional(StartModels.positional("0", String.class, OptionValue.of(() -> destination, value -> destination = value))
                .paramLabel("DST").required(true).description(DST).build())
            .addOption(StartModels.option(String.class, OptionValue.of(() -> source, value -> source = value), "--src")
                .paramLabel("SRC").description(SRC).build())
            .addOption(StartModels.option(String.class, OptionValue.of(() -> networkNamespace, value -> networkNamespace = value), "--netns")
                .paramLabel("NAME").description(NETNS).build())
            .addOption(StartModels.option(KernelProfile.class, OptionValue.of(() -> kernelProfile, value -> kernelProfile = value),
                "--kernel-profile").paramLabel("PROFILE").converters(new KernelProfileConverter()).description(KERNEL_PROFILE).build())
            .addMixin("timeout", timeout.model())
            .addMixin("json", json.model())
            .addMixin("trace", trace.model())
            .addMixin("fabric", fabric.model())
            .addMixin("hosts", hosts.model());
    }

    /** Whose {@code SYSFS_PATH} names the sysfs root of the RDMA devices. */
    Map<String, String> environment = System.getenv();

    final TransitionLog transitions = new TransitionLog();

    /** The interface names of the scopes written in DST and --src ({@code fe80::2%eth0}), by index. */
    private final Map<Integer, String> scopeNames = new ConcurrentHashMap<>();

    /** The name of interface {@code index} as DST or --src wrote it, or null. */
    String interfaceName(final int index)
    {
        return scopeNames.get(index);
    }

    /** {@code address} as the commands write it ({@link AddressText}), a scope under the name it was given. */
    String text(final InetAddress address)
    {
        return AddressText.of(address, this::interfaceName);
    }

    /**
     * Opens the fabric's SA (none without {@code --fabric}), then the CM and its channel, parses
     * {@code DST} and {@code --src} and runs {@code resolution}; closes all of it after. A fabric
     * that does not open is ENODEV, a CM that does not open its errno, an interrupt EINTR.
     */
    int run(final CommandOutput output, final long timeoutMs, final SaClientConfig config, final Resolution resolution)
    {
        final HostsFile hostsFile = hosts.read();
        if (networkNamespace != null && !Files.exists(NetworkNamespace.byName(networkNamespace)))
        {
            return output.error(JsonOutput.errno(Errno.ENOENT, "--netns " + networkNamespace + ": no network namespace of that name in "
                + NetworkNamespace.RUN_NETNS + " (ip netns list shows those there are)"));
        }
        final SaClient sa;
        try
        {
            sa = fabric.start(timeoutMs, config);
        }
        catch (final MadTransportException ex)
        {
            return output.error(fabric.error(ex));
        }
        try (sa)
        {
            final RdmaCm cm;
            try
            {
                cm = RdmaCm.open(CmOptions.of(environment, transitions, hostsFile, sa, networkNamespace)
                    .kernelProfile(kernelProfile).build());
            }
            catch (final RdmaCmException ex)
            {
                return output.error(JsonOutput.errno(ex.errno(), ex.getMessage()));
            }
            try (cm; EventChannel channel = cm.createEventChannel())
            {
                final InetAddress dst;
                final InetAddress src;
                try
                {
                    dst = CmOptions.address(cm, destination, "DST", scopeNames::put);
                    src = source == null ? null : CmOptions.address(cm, source, "--src", scopeNames::put);
                }
                catch (final HostLookup.Failed ex)
                {
                    return output.error(ex.json(ex.name.equals(destination) ? "DST" : "--src"));
                }
                return resolution.run(cm, channel, dst, src);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return output.error(JsonOutput.errno(Errno.EINTR, "interrupted"));
            }
        }
    }
}
