package dev.rdmacm.addrinfo;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.protocol.path.IbvPathData;
import dev.rdmacm.protocol.path.IbvPathRecord;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * {@code rdma_getaddrinfo} with librdmacm 44's semantics (reference rdmacm-semantics.md §2, §3), plus
 * upstream's {@link RaiFlags#SA} and an asynchronous form; the deliberate differences are in
 * docs/getaddrinfo.md. Names and services go through glibc's {@code getaddrinfo}, as in librdmacm.
 * <p>
 * Thread-safe: it keeps no state between calls.
 */
public final class RdmaGetAddrInfo
{
    private final GlibcGetAddrInfo glibc = new GlibcGetAddrInfo();
    private final LocalDevices devices;
    private final AcmClient acm;
    private final boolean afIbSupport;
    private final ServiceRecordLookup serviceRecords;

    private RdmaGetAddrInfo(final Builder builder)
    {
        this.devices = builder.devices;
        this.acm = builder.acm;
        this.afIbSupport = builder.afIbSupport;
        this.serviceRecords = builder.serviceRecords;
    }

    /** No ACM, no AF_IB support, no ServiceRecord source, devices assumed present. */
    public static RdmaGetAddrInfo withDefaults()
    {
        return builder().build();
    }

    public static Builder builder()
    {
        return new Builder();
    }

    /**
     * Resolves like {@code rdma_getaddrinfo(node, service, hints, &res)}.
     *
     * @param node    a name or numeric address, or null.
     * @param service a service name or port number, or null.
     * @param hints   the hints, or null for none (null, null, null is {@code EINVAL}).
     */
    public AddrInfoResult getaddrinfo(final String node, final String service, final RdmaAddrInfoHints hints)
    {
        if (node == null && service == null && hints == null)
        {
            return AddrInfoResult.ErrnoError.of(Errno.EINVAL);
        }
        if (!devices.anyPresent())
        {
            return AddrInfoResult.ErrnoError.of(Errno.ENODEV);
        }
        if (hints != null && hints.has(RaiFlags.SA))
        {
            return serviceRecordResult(node, service, hints);
        }
        final RdmaAddrInfoHints effective = hints == null ? RdmaAddrInfoHints.NONE : hints;
        RdmaAddrInfo entry;
        if (node != null || service != null)
        {
            final GlibcAnswer answer = glibc.firstResult(node, service, hints == null ? null : glibcHints(hints));
            if (answer instanceof GlibcAnswer.Failed failed)
            {
                return eaiError(failed.code());
            }
            final Optional<RdmaAddrInfo> converted = convert((GlibcAnswer.First)answer, effective);
            if (converted.isEmpty())
            {
                return eaiError(EaiCode.EAI_ADDRFAMILY);
            }
            entry = converted.get();
        }
        else
        {
            entry = hintsEntry(effective);
        }
        if (entry.srcAddr() == null && effective.srcAddr() != null)
        {
            entry = entry.withSrcAddr(effective.srcAddr());
        }
        if ((entry.flags() & RaiFlags.PASSIVE) != 0)
        {
            return new AddrInfoResult.Success(List.of(entry));
        }
        return new AddrInfoResult.Success(withAcmRoute(entry, effective));
    }

    /**
     * The asynchronous form: the future completes with {@code ADDRINFO_RESOLVED} or {@code ADDRINFO_ERROR}
     * once {@code executor} has run the resolution; it never completes exceptionally for a resolution
     * failure.
     */
    public CompletableFuture<AddrInfoEvent> getaddrinfoAsync(
        final String node, final String service, final RdmaAddrInfoHints hints, final Executor executor)
    {
        return CompletableFuture.supplyAsync(() -> AddrInfoEvent.of(getaddrinfo(node, service, hints)), executor);
    }

    /** {@code gai_strerror}. */
    public String gaiStrerror(final int code)
    {
        return glibc.gaiStrerror(code);
    }

    /**
     * {@code ucma_convert_to_ai}. Our one change: AF_IB with RAI_FAMILY|RAI_NUMERICHOST asks glibc for
     * AF_INET6 instead of AF_UNSPEC, because the node is then a GID in IPv6 text (docs/getaddrinfo.md).
     */
    static GlibcHints glibcHints(final RdmaAddrInfoHints hints)
    {
        int flags = 0;
        if (hints.has(RaiFlags.PASSIVE))
        {
            flags |= LibcNetdb.AI_PASSIVE;
        }
        if (hints.has(RaiFlags.NUMERICHOST))
        {
            flags |= LibcNetdb.AI_NUMERICHOST;
        }
        final int family;
        if (hints.family() != AddressFamily.AF_IB)
        {
            family = hints.family();
        }
        else
        {
            family = wantsIbAddress(hints) ? AddressFamily.AF_INET6 : AddressFamily.AF_UNSPEC;
        }
        final int socktype = switch (hints.qpType())
        {
            case QpType.RC, QpType.UC, QpType.XRC_SEND, QpType.XRC_RECV -> LibcNetdb.SOCK_STREAM;
            case QpType.UD -> LibcNetdb.SOCK_DGRAM;
            default -> 0;
        };
        return new GlibcHints(flags, family, socktype, protocol(hints.portSpace(), socktype));
    }

    private static int protocol(final int portSpace, final int socktype)
    {
        if (portSpace == PortSpace.TCP.code())
        {
            return LibcNetdb.IPPROTO_TCP;
        }
        if (portSpace == PortSpace.UDP.code() || portSpace == PortSpace.IPOIB.code())
        {
            return LibcNetdb.IPPROTO_UDP;
        }
        if (portSpace == PortSpace.IB.code())
        {
            return socktype == LibcNetdb.SOCK_STREAM ? LibcNetdb.IPPROTO_TCP :
                socktype == LibcNetdb.SOCK_DGRAM ? LibcNetdb.IPPROTO_UDP : 0;
        }
        return 0;
    }

    /** {@code ucma_convert_to_rai}; empty only if glibc answered a non-IPv6 address to an AF_IB request. */
    static Optional<RdmaAddrInfo> convert(final GlibcAnswer.First ai, final RdmaAddrInfoHints hints)
    {
        final int qpType = hints.qpType() != 0 ? hints.qpType() : switch (ai.socktype())
        {
            case LibcNetdb.SOCK_STREAM -> QpType.RC;
            case LibcNetdb.SOCK_DGRAM -> QpType.UD;
            default -> 0;
        };
        final int portSpace = hints.portSpace() != 0 ? hints.portSpace() : switch (ai.protocol())
        {
            case LibcNetdb.IPPROTO_TCP -> PortSpace.TCP.code();
            case LibcNetdb.IPPROTO_UDP -> PortSpace.UDP.code();
            default -> 0;
        };
        final RdmaSockaddr address;
        final int family;
        if (wantsIbAddress(hints))
        {
            if (ai.family() != AddressFamily.AF_INET6 || ai.addr().length != Ipv6Sockaddr.LENGTH)
            {
                return Optional.empty();
            }
            address = ibFromIn6(portSpace, Ipv6Sockaddr.fromBytes(ai.addr()));
            family = AddressFamily.AF_IB;
        }
        else
        {
            address = RdmaSockaddr.fromBytes(ai.addr());
            family = ai.family();
        }
        final boolean passive = (ai.flags() & LibcNetdb.AI_PASSIVE) != 0;
        return Optional.of(passive ?
            new RdmaAddrInfo(RaiFlags.PASSIVE, family, qpType, portSpace, address, null, ai.canonName(), null, null, null) :
            new RdmaAddrInfo(0, family, qpType, portSpace, null, address, null, ai.canonName(), null, null));
    }

    /** {@code ucma_convert_in6}: the IPv6 bytes become the GID, P_Key full, SID from the port space. */
    static IbSockaddr ibFromIn6(final int portSpace, final Ipv6Sockaddr in6)
    {
        return new IbSockaddr(PKey.of(PKey.DEFAULT), in6.flowInfo(), Gid.fromBytes(in6.address(), 0), UcmaSetSid.sid(portSpace, in6.port()),
            UcmaSetSid.mask(portSpace, in6.port()), in6.scopeId());
    }

    private static boolean wantsIbAddress(final RdmaAddrInfoHints hints)
    {
        return hints.has(RaiFlags.FAMILY) && hints.family() == AddressFamily.AF_IB && hints.has(RaiFlags.NUMERICHOST);
    }

    /** With neither node nor service, the one entry is the hints' own addresses. */
    private static RdmaAddrInfo hintsEntry(final RdmaAddrInfoHints hints)
    {
        return new RdmaAddrInfo(hints.flags(), hints.family(), hints.qpType(), hints.portSpace(), hints.srcAddr(),
            hints.dstAddr(), null, null, null, null);
    }

    /**
     * The question {@code ucma_set_ib_route}'s {@code rdma_getaddrinfo(NULL, NULL, hints)} asks ACM:
     * RAI_ROUTEONLY, the source's family and an id's two addresses. Its answer's {@link AcmAnswer#route()}
     * is what {@link #getaddrinfo} would return as the entry's route, for a caller (the CM conductor)
     * that exchanges it with the service itself, without blocking.
     */
    public static AcmQuery routeOnlyQuestion(final RdmaSockaddr source, final RdmaSockaddr destination)
    {
        final RdmaAddrInfoHints hints = RdmaAddrInfoHints.NONE.withFlags(RaiFlags.ROUTEONLY).withFamily(source.family())
            .withSrcAddr(source).withDstAddr(destination);
        return acmQuery(hintsEntry(hints), hints);
    }

    /** {@code ucma_ib_resolve}: ask ACM, keep what it answers, prepend the AF_IB entry when it applies. */
    private List<RdmaAddrInfo> withAcmRoute(final RdmaAddrInfo entry, final RdmaAddrInfoHints hints)
    {
        final Optional<AcmAnswer> answer = acm.resolve(acmQuery(entry, hints));
        if (answer.isEmpty())
        {
            return List.of(entry);
        }
        RdmaAddrInfo routed = entry.withRoute(answer.get().route());
        if (routed.srcAddr() == null && answer.get().source() != null)
        {
            routed = routed.withSrcAddr(answer.get().source());
        }
        if (afIbSupport && !hints.has(RaiFlags.ROUTEONLY) && routed.route().length != 0)
        {
            return List.of(AfIbEntry.from(routed), routed);
        }
        return List.of(routed);
    }

    static AcmQuery acmQuery(final RdmaAddrInfo entry, final RdmaAddrInfoHints hints)
    {
        final RdmaSockaddr source = isIp(entry.srcAddr()) ? entry.srcAddr() : null;
        final RdmaSockaddr destination = isIp(entry.dstAddr()) ? entry.dstAddr() : null;
        final boolean noDelay = hints.has(RaiFlags.NUMERICHOST) || hints.has(RaiFlags.NOROUTE);
        byte[] path = null;
        if (hints.routeLength() != 0 || entry.srcAddr() instanceof IbSockaddr || entry.dstAddr() instanceof IbSockaddr)
        {
            path = new byte[IbvPathRecord.LENGTH];
            final byte[] route = hints.route();
            if (route.length == IbvPathRecord.LENGTH)
            {
                System.arraycopy(route, 0, path, 0, IbvPathRecord.LENGTH);
            }
            else if (route.length == IbvPathData.LENGTH)
            {
                System.arraycopy(route, IbvPathData.PATH_OFFSET, path, 0, IbvPathRecord.LENGTH);
            }
            final IbvPathRecord record = new IbvPathRecord().wrap(new UnsafeBuffer(path), 0);
            if (entry.srcAddr() instanceof IbSockaddr src)
            {
                record.sgid(src.gid());
            }
            if (entry.dstAddr() instanceof IbSockaddr dst)
            {
                record.dgid(dst.gid());
            }
        }
        return new AcmQuery(source, destination, noDelay, path);
    }

    private static boolean isIp(final RdmaSockaddr address)
    {
        return address instanceof Ipv4Sockaddr || address instanceof Ipv6Sockaddr;
    }

    /** Upstream's RAI_SA branch (reference §2.8): no node, no RAI_DNS, the service looked up in the SA. */
    private AddrInfoResult serviceRecordResult(final String node, final String service, final RdmaAddrInfoHints hints)
    {
        if (node != null || hints.has(RaiFlags.DNS))
        {
            return AddrInfoResult.ErrnoError.of(Errno.EOPNOTSUPP);
        }
        if (service == null)
        {
            return AddrInfoResult.ErrnoError.of(Errno.EINVAL);
        }
        final List<ServiceRecordMatch> matches;
        try
        {
            matches = serviceRecords.lookup(ServiceQuery.parse(service));
        }
        catch (final ServiceRecordLookupException ex)
        {
            return AddrInfoResult.ErrnoError.of(ex.errno());
        }
        if (matches.isEmpty())
        {
            return AddrInfoResult.ErrnoError.of(Errno.ENOENT);
        }
        final List<RdmaAddrInfo> entries = new ArrayList<>(matches.size());
        for (final ServiceRecordMatch match : matches)
        {
            final IbSockaddr src = new IbSockaddr(match.pkey(), 0, match.localGid(), UcmaSetSid.sid(PortSpace.IB.code(), 0),
                UcmaSetSid.mask(PortSpace.IB.code(), 0), 0);
            final IbSockaddr dst = new IbSockaddr(match.pkey(), 0, match.serviceGid(), match.serviceId(), -1L, 0);
            entries.add(new RdmaAddrInfo(RaiFlags.SA, AddressFamily.AF_IB, hints.qpType(), PortSpace.IB.code(), src, dst, null, null,
                null, null));
        }
        return new AddrInfoResult.Success(entries);
    }

    private AddrInfoResult eaiError(final int code)
    {
        return new AddrInfoResult.EaiError(code, EaiCode.name(code), glibc.gaiStrerror(code));
    }

    public static final class Builder
    {
        private LocalDevices devices = LocalDevices.ASSUME_PRESENT;
        private AcmClient acm = AcmClient.NONE;
        private boolean afIbSupport;
        private ServiceRecordLookup serviceRecords = ServiceRecordLookup.NONE;

        private Builder()
        {
        }

        public Builder devices(final LocalDevices devices)
        {
            this.devices = devices;
            return this;
        }

        public Builder acm(final AcmClient acm)
        {
            this.acm = acm;
            return this;
        }

        /** Whether the kernel takes AF_IB addresses (librdmacm's {@code af_ib_support} probe). */
        public Builder afIbSupport(final boolean afIbSupport)
        {
            this.afIbSupport = afIbSupport;
            return this;
        }

        public Builder serviceRecords(final ServiceRecordLookup serviceRecords)
        {
            this.serviceRecords = serviceRecords;
            return this;
        }

        public RdmaGetAddrInfo build()
        {
            return new RdmaGetAddrInfo(this);
        }
    }
}
