package dev.rdmacm.cm;

import dev.rdmacm.addrinfo.IbSockaddr;
import dev.rdmacm.resolver.AddressResolution;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.resolver.ResolvedRoute;

import java.net.InetAddress;

/**
 * What an {@link RdmaCmId} shows of itself: an immutable snapshot that the conductor builds from the
 * id's {@link IdContext} and publishes on the handle after every change (as Aeron's {@code Subscription}
 * replaces its image array), so that a getter reads one volatile field and never waits for the conductor.
 *
 * @param state           the id's state.
 * @param boundSource     the bound source address (a wildcard after auto-binding to one), or null.
 * @param sourcePort      the bound port, 0 while unbound.
 * @param destinationPort the destination port given to resolveAddr, 0 if none.
 * @param resolution      the last successful resolution, or null.
 * @param route           the route after ROUTE_RESOLVED, or null.
 * @param binding         the device, port and GID the id is on, or null.
 * @param peerAddress     the peer's address, or null.
 * @param ibSource        an AF_IB id's source, or null.
 * @param ibDestination   an AF_IB id's destination, or null.
 * @param boundIfindex    {@code bound_dev_if}: the bound source's netdev, a link-local destination's scope, or 0.
 */
record IdView(CmIdState state, InetAddress boundSource, int sourcePort, int destinationPort,
    AddressResolution resolution, ResolvedRoute route, RdmaPortBinding binding, InetAddress peerAddress,
    IbSockaddr ibSource, IbSockaddr ibDestination, int boundIfindex)
{
    /** A new id's. */
    static final IdView IDLE = new IdView(CmIdState.IDLE, null, 0, 0, null, null, null, null, null, null, 0);
}
