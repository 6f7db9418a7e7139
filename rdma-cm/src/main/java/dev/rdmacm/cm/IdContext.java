package dev.rdmacm.cm;

import dev.rdmacm.addrinfo.IbSockaddr;
import dev.rdmacm.cm.diagnostics.StateTransitionListener;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.netlink.HardwareAddress;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.resolver.AddressResolution;
import dev.rdmacm.resolver.spi.KernelProfile;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.resolver.ResolvedRoute;
import dev.rdmacm.verbs.RcQueuePair;
import dev.rdmacm.verbs.UdQueuePair;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Everything an id holds, what the kernel's {@code struct rdma_id_private} holds: owned by the
 * conductor ({@link IdConductor}), read and written on its thread only, never under a lock. Its handle,
 * {@link RdmaCmId}, sees it through the {@link IdView} that {@link #publish} rebuilds after each change.
 * <p>
 * The phases ({@link AddressPhase}, {@link RoutePhase}, {@link ConnectionPhase}, {@link AddrinfoSlot})
 * work on these fields; the id's own state changes only through {@link #transition}, which
 * {@link CmIdTransitions} checks and the {@link StateTransitionListener} sees.
 */
final class IdContext
{
    final RdmaCmId id;
    final RdmaCm cm;
    final PortSpace portSpace;

    CmIdState state = CmIdState.IDLE;
    InetAddress boundSource;
    int boundIfindex;
    RdmaPortBinding binding;
    /** The bound netdev's MAC when bound (src_dev_addr); a resolution's own source MAC replaces it. */
    HardwareAddress boundHardwareAddress = HardwareAddress.NONE;
    AddressResolution resolution;
    PendingResolution pending;

    /** The port asked for (0: any); once bound, {@link #boundPort} holds the one the id has. */
    int sourcePort;
    int boundPort;
    int destinationPort;
    boolean reuseAddr;
    /** RDMA_OPTION_ID_AFONLY when set, else null: the default depends on the family bound. */
    Boolean afOnly;
    int sourceFlowinfo;
    Integer tos;
    Integer ackTimeout;
    int cmResponseTimeout = IdConnection.CMA_CM_RESPONSE_TIMEOUT;
    int maxCmRetries = IdConnection.CMA_MAX_CM_RETRIES;
    ResolvedRoute route;
    PendingRoute pendingRoute;
    /** rdma_resolve_addrinfo's resolving_ai and resolved_ai. */
    final AddrinfoSlot addrinfo = new AddrinfoSlot();
    /** The id's connection, through this stack's CM or the kernel's ({@link ConnectionManager}); null before one is made. */
    CmConnection connection;
    /** A wildcard listener's listens, one per RDMA port ({@code cma_listen_on_dev}'s internal ids). */
    List<IdConnection> portListens = List.of();
    RcQueuePair attachedQp;
    /** A UD id's QP (RDMA_PS_UDP). */
    UdQueuePair attachedUdQp;
    InetAddress peerAddress;
    /** The groups the id joined and has not left ({@code mc_list}), in join order. */
    final List<IdMulticast> multicasts = new ArrayList<>(0);
    /** The kernel id its groups hang on when the kernel's CM joins them ({@link ConnectionManager#KERNEL}), else null. */
    KernelMemberships kernelGroups;
    /** The port space {@link #boundPort} is held in: the id's, or the one an AF_IB source's Service ID chose. */
    PortSpace boundSpace;
    /** An AF_IB id's {@code src_addr}, as the kernel holds it (null for an IP id). */
    IbSockaddr ibSource;
    /** An AF_IB id's {@code dst_addr}, once given. */
    IbSockaddr ibDestination;

    IdContext(final RdmaCmId id, final RdmaCm cm, final PortSpace portSpace)
    {
        this.id = id;
        this.cm = cm;
        this.portSpace = portSpace;
    }

    /** The one place an id changes state: only as {@link CmIdTransitions} draws it; the listener sees the new view. */
    void transition(final CmIdState next, final String reason)
    {
        final CmIdState previous = state;
        if (previous != next)
        {
            CmIdTransitions.TABLE.require(id, previous, next);
        }
        state = next;
        publish();
        cm.listener().onTransition(id, previous, next, reason);
    }

    /**
     * As {@link #transition(CmIdState, String)}, the reason's text made only for a listener: a connection's moves
     * build no string when no one listens.
     */
    void transition(final CmIdState next, final Supplier<String> reason)
    {
        transition(next, cm.listener() == StateTransitionListener.NONE ? "" : reason.get());
    }

    /** Shows the id's fields as they are now on its handle. */
    void publish()
    {
        id.publish(new IdView(state, boundSource, boundPort, destinationPort, resolution, route, binding(), peerAddress,
            ibSource, ibDestination, boundIfindex));
    }

    /** The RDMA device, port and GID the id is on: after ADDR_RESOLVED, a bind to a local address, or a connection request. */
    RdmaPortBinding binding()
    {
        if (connection != null && connection.binding() != null)
        {
            return connection.binding();
        }
        return binding != null ? binding : resolution == null ? null : resolution.binding();
    }

    /** A UD id: RDMA_PS_UDP (and RDMA_PS_IPOIB), whose QP type is IBV_QPT_UD (librdmacm's {@code ucma_get_qp_type}). */
    boolean isUd()
    {
        return portSpace == PortSpace.UDP || portSpace == PortSpace.IPOIB;
    }

    void requireNotDestroyed(final String call) throws RdmaCmException
    {
        if (state == CmIdState.DESTROYING)
        {
            throw new RdmaCmException(call, Errno.EINVAL, id + " is destroyed", true);
        }
    }

    void deliver(final CmEvent event)
    {
        if (id.channel() != null)
        {
            id.channel().post(event);
        }
        else
        {
            id.deliverSynchronous(event);
        }
    }

    /** {@code cma_get_port} for {@code source} (the port asked for, else any). */
    void bindPort(final String call, final InetAddress source, final InetAddress destination) throws RdmaCmException
    {
        // rdma_bind_addr: without the option, an IPv4 id is AFONLY and an IPv6 one follows bindv6only.
        final boolean onlyThisFamily = afOnly != null ? afOnly : source instanceof Inet4Address || cm.bindV6Only();
        boundPort = cm.bindPort(call, portSpace, sourcePort,
            new PortBindings.Owner(id, source, destination, destinationPort, reuseAddr, onlyThisFamily));
        boundSpace = portSpace;
    }

    void releasePort()
    {
        if (boundPort != 0)
        {
            cm.releasePort(boundSpace, boundPort, id);
            boundPort = 0;
        }
    }

    /** The kernel whose rules this id's CM follows. */
    KernelProfile kernelProfile()
    {
        return cm.options().kernelProfile();
    }

    // ---- the address phase's outcomes, from the resolver loop (ConductorAgent) ----

    void bound(final InetAddress source, final int ifindex, final RdmaPortBinding device, final HardwareAddress hardwareAddress)
    {
        AddressPhase.bound(this, source, ifindex, device, hardwareAddress);
    }

    void accepted(final PendingResolution p)
    {
        p.endCall(null);
    }

    void callFailed(final PendingResolution p, final int errno, final String detail, final CmIdState backTo)
    {
        AddressPhase.callFailed(this, p, errno, detail, backTo);
    }

    void resolved(final PendingResolution p, final AddressResolution result)
    {
        AddressPhase.resolved(this, p, result);
    }

    void resolutionFailed(final PendingResolution p, final int errno, final String detail)
    {
        AddressPhase.resolutionFailed(this, p, errno, detail);
    }

    @Override
    public String toString()
    {
        return id.toString();
    }
}
