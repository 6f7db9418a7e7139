package dev.rdmacm.cli;

import dev.rdmacm.addrinfo.AddressFamily;
import dev.rdmacm.addrinfo.RaiFlags;
import dev.rdmacm.addrinfo.RdmaAddrInfoHints;
import dev.rdmacm.addrinfo.RdmaSockaddr;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

import static dev.rdmacm.cli.StartModels.flag;
import static dev.rdmacm.cli.StartModels.option;

/**
 * The {@code struct rdma_addrinfo} hints of getaddrinfo and resolve-addrinfo, spelt and meaning the same
 * in both: the named flags, raw bits, family, QP type, port space and addresses.
 */
final class AddrInfoHintOptions
{
    private static final String PASSIVE = "RAI_PASSIVE: a local (listening) address.";
    private static final String NUMERIC_HOST = "RAI_NUMERICHOST: NODE must be a numeric address.";
    private static final String NO_ROUTE = "RAI_NOROUTE.";
    private static final String RAI_FAMILY = "RAI_FAMILY: with --family ib and --numeric-host, NODE is a GID.";
    private static final String SA = "RAI_SA: SERVICE is an IB ServiceID or ServiceName looked up in the SA.";
    private static final String FLAGS = "Raw ai_flags bits (decimal or 0x hex, unknown bits included), OR-ed with the named flags.";
    private static final String FAMILY_LABEL = "unspec|inet|inet6|ib";
    private static final String QP_TYPE_LABEL = "rc|uc|ud";
    private static final String PORT_SPACE_LABEL = "tcp|udp|ib|ipoib";
    private static final String SRC = "ai_src_addr: a.b.c.d[:port], [ipv6[%%scope]][:port] or 'gid=GID [pkey=P] [sid=S] [sid_mask=M]"
        + " [flowinfo=F] [scope_id=I]'.";
    private static final String DST = "ai_dst_addr: written as --src.";

    @Option(names = "--passive", description = PASSIVE)
    private boolean passive;

    @Option(names = "--numeric-host", description = NUMERIC_HOST)
    private boolean numericHost;

    @Option(names = "--no-route", description = NO_ROUTE)
    private boolean noRoute;

    @Option(names = "--rai-family", description = RAI_FAMILY)
    private boolean raiFamily;

    @Option(names = "--sa", description = SA)
    private boolean serviceRecord;

    @Option(names = "--flags", paramLabel = "N", converter = GetAddrInfoCommand.FlagsConverter.class, description = FLAGS)
    private Integer rawFlags;

    @Option(names = "--family", paramLabel = FAMILY_LABEL, converter = GetAddrInfoCommand.FamilyConverter.class, description = "ai_family.")
    private Integer family;

    @Option(names = "--qp-type", paramLabel = QP_TYPE_LABEL, converter = GetAddrInfoCommand.QpTypeConverter.class, description = "ai_qp_type.")
    private Integer qpType;

    @Option(names = "--port-space", paramLabel = PORT_SPACE_LABEL, converter = GetAddrInfoCommand.PortSpaceConverter.class,
        description = "ai_port_space.")
    private Integer portSpace;

    @Option(names = "--src", paramLabel = "ADDR", converter = GetAddrInfoCommand.AddressConverter.class, description = SRC)
    private RdmaSockaddr src;

    @Option(names = "--dst", paramLabel = "ADDR", converter = GetAddrInfoCommand.AddressConverter.class, description = DST)
    private RdmaSockaddr dst;

    /** The options above as a mixin built by hand ({@link StartModels}). */
    CommandSpec model()
    {
        return CommandSpec.create()
            .addOption(flag("passive", OptionValue.of(() -> passive, value -> passive = value), "--passive").description(PASSIVE).build())
            .addOption(flag("numericHost", OptionValue.of(() -> numericHost, value -> numericHost = value), "--numeric-host").description(NUMERIC_HOST).build())
            .addOption(flag("noRoute", OptionValue.of(() -> noRoute, value -> noRoute = value), "--no-route").description(NO_ROUTE).build())
            .addOption(flag("raiFamily", OptionValue.of(() -> raiFamily, value -> raiFamily = value), "--rai-family").description(RAI_FAMILY).build())
            .addOption(flag("serviceRecord", OptionValue.of(() -> serviceRecord, value -> serviceRecord = value), "--sa").description(SA).build())
            .addOption(option(Integer.class, OptionValue.of(() -> rawFlags, value -> rawFlags = value), "--flags").paramLabel("N")
                .converters(new GetAddrInfoCommand.FlagsConverter()).description(FLAGS).build())
            .addOption(option(Integer.class, OptionValue.of(() -> family, value -> family = value), "--family").paramLabel(FAMILY_LABEL)
                .converters(new GetAddrInfoCommand.FamilyConverter()).description("ai_family.").build())
            .addOption(option(Integer.class, OptionValue.of(() -> qpType, value -> qpType = value), "--qp-type").paramLabel(QP_TYPE_LABEL)
                .converters(new GetAddrInfoCommand.QpTypeConverter()).description("ai_qp_type.").build())
            .addOption(option(Integer.class, OptionValue.of(() -> portSpace, value -> portSpace = value), "--port-space")
                .paramLabel(PORT_SPACE_LABEL).converters(new GetAddrInfoCommand.PortSpaceConverter()).description("ai_port_space.").build())
            .addOption(option(RdmaSockaddr.class, OptionValue.of(() -> src, value -> src = value), "--src").paramLabel("ADDR")
                .converters(new GetAddrInfoCommand.AddressConverter()).description(SRC).build())
            .addOption(option(RdmaSockaddr.class, OptionValue.of(() -> dst, value -> dst = value), "--dst").paramLabel("ADDR")
                .converters(new GetAddrInfoCommand.AddressConverter()).description(DST).build());
    }

    /** Null (a NULL hints pointer) when no hint option was given, as a C caller without hints. */
    RdmaAddrInfoHints hints()
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
}
