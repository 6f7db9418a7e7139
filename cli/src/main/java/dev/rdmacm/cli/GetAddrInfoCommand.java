package dev.rdmacm.cli;

import dev.rdmacm.addrinfo.AddrInfoResult;
import dev.rdmacm.addrinfo.AddressFamily;
import dev.rdmacm.addrinfo.QpType;
import dev.rdmacm.addrinfo.RaiFlags;
import dev.rdmacm.addrinfo.RdmaAddrInfoHints;
import dev.rdmacm.addrinfo.RdmaGetAddrInfo;
import dev.rdmacm.addrinfo.RdmaSockaddr;
import dev.rdmacm.protocol.PortSpace;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * {@code rdmacm getaddrinfo}: librdmacm's {@code rdma_getaddrinfo} for one node and service, printed
 * field by field ({@code --json}: the C struct's field names and numeric values).
 */
@Command(
    name = "getaddrinfo",
    mixinStandardHelpOptions = true,
    description = {
        "Resolves NODE and SERVICE as librdmacm's rdma_getaddrinfo does and prints every entry.",
        "NODE or SERVICE written as - is absent (a NULL pointer). Without any hint option no hints are passed "
            + "(a NULL hints pointer); NODE, SERVICE and hints all absent is EINVAL.",
        "Exit status: 0 resolved, 1 resolution failed, 2 usage error."
    })
public final class GetAddrInfoCommand implements Callable<Integer>
{
    /** What NODE or SERVICE is written as to stand for a NULL pointer. */
    static final String ABSENT = "-";

    @Parameters(index = "0", arity = "0..1", paramLabel = "NODE", description = "Host name or numeric address, - for none.")
    private String node;

    @Parameters(index = "1", arity = "0..1", paramLabel = "SERVICE", description = "Service name or port number, - for none.")
    private String service;

    @Option(names = "--passive", description = "RAI_PASSIVE: a local (listening) address.")
    private boolean passive;

    @Option(names = "--numeric-host", description = "RAI_NUMERICHOST: NODE must be a numeric address.")
    private boolean numericHost;

    @Option(names = "--no-route", description = "RAI_NOROUTE.")
    private boolean noRoute;

    @Option(names = "--rai-family", description = "RAI_FAMILY: with --family ib and --numeric-host, NODE is a GID.")
    private boolean raiFamily;

    @Option(names = "--sa", description = "RAI_SA: SERVICE is an IB ServiceID or ServiceName looked up in the SA.")
    private boolean serviceRecord;

    @Option(names = "--flags", paramLabel = "N", converter = FlagsConverter.class,
        description = "Raw ai_flags bits (decimal or 0x hex, unknown bits included), OR-ed with the named flags.")
    private Integer rawFlags;

    @Option(names = "--family", paramLabel = "inet|inet6|ib", converter = FamilyConverter.class, description = "ai_family.")
    private Integer family;

    @Option(names = "--qp-type", paramLabel = "rc|uc|ud", converter = QpTypeConverter.class, description = "ai_qp_type.")
    private Integer qpType;

    @Option(names = "--port-space", paramLabel = "tcp|udp|ib|ipoib", converter = PortSpaceConverter.class,
        description = "ai_port_space.")
    private Integer portSpace;

    @Option(names = "--src", paramLabel = "ADDR", converter = AddressConverter.class,
        description = "ai_src_addr: a.b.c.d[:port], [ipv6[%%scope]][:port] or 'gid=GID [pkey=P] [sid=S] [sid_mask=M]"
            + " [flowinfo=F] [scope_id=I]'.")
    private RdmaSockaddr src;

    @Option(names = "--dst", paramLabel = "ADDR", converter = AddressConverter.class,
        description = "ai_dst_addr: written as --src.")
    private RdmaSockaddr dst;

    @CommandLine.Mixin
    private JsonOption json = new JsonOption();

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call()
    {
        final RdmaGetAddrInfo resolver = RdmaGetAddrInfo.withDefaults();
        final AddrInfoResult result = resolver.getaddrinfo(absentIfDash(node), absentIfDash(service), hints());
        final CommandOutput output = CommandOutput.of(spec, json.json);
        if (result instanceof AddrInfoResult.Success success)
        {
            return output.result(GetAddrInfoJson.tree(result), out -> out.print(GetAddrInfoText.entries(success)));
        }
        return output.error(GetAddrInfoJson.tree(result));
    }

    private static String absentIfDash(final String argument)
    {
        return ABSENT.equals(argument) ? null : argument;
    }

    /** Null (a NULL hints pointer) when no hint option was given, as a C caller without hints. */
    private RdmaAddrInfoHints hints()
    {
        final int flags = (passive ? RaiFlags.PASSIVE : 0) | (numericHost ? RaiFlags.NUMERICHOST : 0) |
            (noRoute ? RaiFlags.NOROUTE : 0) | (raiFamily ? RaiFlags.FAMILY : 0) | (serviceRecord ? RaiFlags.SA : 0) |
            (rawFlags == null ? 0 : rawFlags);
        final boolean anyHint = flags != 0 || rawFlags != null || family != null || qpType != null || portSpace != null ||
            src != null || dst != null;
        if (!anyHint)
        {
            return null;
        }
        return RdmaAddrInfoHints.NONE.withFlags(flags)
            .withFamily(family == null ? AddressFamily.AF_UNSPEC : family)
            .withQpType(qpType == null ? 0 : qpType)
            .withPortSpace(portSpace == null ? 0 : portSpace)
            .withSrcAddr(src)
            .withDstAddr(dst);
    }

    static final class FlagsConverter implements CommandLine.ITypeConverter<Integer>
    {
        @Override
        public Integer convert(final String text)
        {
            try
            {
                final long value = Long.decode(text);
                if (value >= 0 && value <= 0xffff_ffffL)
                {
                    return (int)value;
                }
            }
            catch (final NumberFormatException ignored)
            {
                // reported below with the rule
            }
            throw new CommandLine.TypeConversionException(
                "--flags '" + text + "' is not a number from 0 to 0xffffffff (decimal or 0x hex)");
        }
    }

    static final class FamilyConverter implements CommandLine.ITypeConverter<Integer>
    {
        @Override
        public Integer convert(final String text)
        {
            return usage(() -> AddressFamily.parse(text));
        }
    }

    static final class QpTypeConverter implements CommandLine.ITypeConverter<Integer>
    {
        @Override
        public Integer convert(final String text)
        {
            return usage(() -> QpType.parse(text));
        }
    }

    static final class PortSpaceConverter implements CommandLine.ITypeConverter<Integer>
    {
        @Override
        public Integer convert(final String text)
        {
            for (final PortSpace space : PortSpace.values())
            {
                if (space.name().toLowerCase(Locale.ROOT).equals(text))
                {
                    return space.code();
                }
            }
            throw new CommandLine.TypeConversionException("port space '" + text + "' is not one of tcp, udp, ib, ipoib");
        }
    }

    static final class AddressConverter implements CommandLine.ITypeConverter<RdmaSockaddr>
    {
        @Override
        public RdmaSockaddr convert(final String text)
        {
            return usage(() -> RdmaSockaddr.parse(text, "address"));
        }
    }

    /** Turns the parsers' IllegalArgumentException into picocli's usage error (exit 2, message, usage). */
    private static <T> T usage(final Supplier<T> parse)
    {
        try
        {
            return parse.get();
        }
        catch (final IllegalArgumentException ex)
        {
            throw new CommandLine.TypeConversionException(ex.getMessage());
        }
    }
}
