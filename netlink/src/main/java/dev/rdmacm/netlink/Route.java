package dev.rdmacm.netlink;

import java.net.InetAddress;

/**
 * The kernel's answer to RTM_GETROUTE for one destination: what {@code ip route get} prints.
 *
 * @param type            RTN_* ({@link RouteMessage#RTN_UNICAST}, {@link RouteMessage#RTN_LOCAL}...).
 * @param table           the routing table (254 main, 255 local).
 * @param scope           RT_SCOPE_* (0 universe, 253 link, 254 host).
 * @param flags           rtm_flags (RTM_F_CLONED...).
 * @param destination     RTA_DST.
 * @param source          RTA_SRC, the source the request gave; null or the zero address (IPv6 replies
 *                        carry {@code ::}) for a wildcard source.
 * @param preferredSource RTA_PREFSRC, the source the kernel would pick; null if none.
 * @param gateway         RTA_GATEWAY, null for a directly connected destination.
 * @param outputIfindex   RTA_OIF.
 * @param hopLimit        RTAX_HOPLIMIT from RTA_METRICS, or 0 when the route does not set one.
 * @param mtu             RTAX_MTU from RTA_METRICS, or 0 when the route does not set one.
 */
public record Route(
    int type,
    int table,
    int scope,
    long flags,
    InetAddress destination,
    InetAddress source,
    InetAddress preferredSource,
    InetAddress gateway,
    int outputIfindex,
    int hopLimit,
    int mtu)
{
    /** The source a packet would carry: the one given, else the kernel's preferred one. */
    public InetAddress effectiveSource()
    {
        return source != null && !source.isAnyLocalAddress() ? source : preferredSource;
    }

    public boolean isLocal()
    {
        return type == RouteMessage.RTN_LOCAL;
    }

    public boolean hasGateway()
    {
        return gateway != null;
    }

    /** The address whose link-layer address must be resolved: the gateway, else the destination. */
    public InetAddress nextHop()
    {
        return gateway != null ? gateway : destination;
    }
}
