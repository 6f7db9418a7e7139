package dev.rdmacm.cli;

import dev.rdmacm.addrinfo.AddressFamily;
import dev.rdmacm.addrinfo.RaiFlags;
import dev.rdmacm.addrinfo.RdmaAddrInfoHints;
import dev.rdmacm.addrinfo.RdmaSockaddr;
import picocli.CommandLine.Option;

/**
 * The {@code struct rdma_addrinfo} hints of getaddrinfo and resolve-addrinfo, spelt and meaning the same
 * in both: the named flags, raw bits, family, QP type, port space and addresses.
 */
final class AddrInfoHintOptions
{
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

    @Option(names = "--flags", paramLabel = "N", converter = GetAddrInfoCommand.FlagsConverter.class,
        description = "Raw ai_flags bits (decimal or 0x hex, unknown bits included), OR-ed with the named flags.")
    private Integer rawFlags;

    @Option(names = "--family", paramLabel = "unspec|inet|inet6|ib", converter = GetAddrInfoCommand.FamilyConverter.class, description = "ai_family.")
    private Integer family;

    @Option(names = "--qp-type", paramLabel = "rc|uc|ud", converter = GetAddrInfoCommand.QpTypeConverter.class, description = "ai_qp_type.")
    private Integer qpType;

    @Option(names = "--port-space", paramLabel = "tcp|udp|ib|ipoib", converter = GetAddrInfoCommand.PortSpaceConverter.class,
        description = "ai_port_space.")
    private Integer portSpace;

    @Option(names = "--src", paramLabel = "ADDR", converter = GetAddrInfoCommand.AddressConverter.class,
        description = "ai_src_addr: a.b.c.d[:port], [ipv6[%%scope]][:port] or 'gid=GID [pkey=P] [sid=S] [sid_mask=M]"
            + " [flowinfo=F] [scope_id=I]'.")
    private RdmaSockaddr src;

    @Option(names = "--dst", paramLabel = "ADDR", converter = GetAddrInfoCommand.AddressConverter.class,
        description = "ai_dst_addr: written as --src.")
    private RdmaSockaddr dst;

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
