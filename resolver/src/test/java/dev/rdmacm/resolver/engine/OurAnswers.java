package dev.rdmacm.resolver.engine;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.ErrnoException;
import dev.rdmacm.libc.testing.NamespaceThread;
import dev.rdmacm.netlink.Neighbour;
import dev.rdmacm.netlink.Route;
import dev.rdmacm.netlink.Rtnetlink;
import dev.rdmacm.resolver.NeighbourTriggerMode;
import dev.rdmacm.resolver.spi.FixedGidDirectory;

import java.io.IOException;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;

/**
 * This project's answers to the queries {@link KernelAnswers} puts to the kernel, from inside the
 * host namespace, on {@link AskingCpu#CPU}: {@link Rtnetlink#route} and one {@link AddressResolver#attempt}, the resolver's
 * {@code addr_resolve}; and {@link Rtnetlink#neighbour}. With a {@link RouteCache} both lookups go
 * through it, and each route is asked twice: the second answer (from the cache unless something
 * changed) must be the first.
 */
final class OurAnswers implements AutoCloseable
{
    private final NamespaceThread inHost;
    private final Rtnetlink rtnetlink;
    private final NeighbourTrigger trigger;
    private final AddressResolver resolver;
    private final RouteCache routeCache;

    /** @param routeCache whether our lookups go through a {@link RouteCache}. */
    OurAnswers(final GeneratedNetwork network, final boolean routeCache) throws Exception
    {
        inHost = new NamespaceThread(network.hostPath());
        inHost.call(() ->
        {
            AskingCpu.pinCallingThread();
            return null;
        });
        rtnetlink = inHost.call(Rtnetlink::open);
        this.routeCache = routeCache ? inHost.call(RouteCache::open) : null;
        trigger = new NeighbourTrigger(rtnetlink, NeighbourTriggerMode.NTF_USE_ELSE_UDP);
        resolver = new AddressResolver(rtnetlink, trigger, new FixedGidDirectory(List.of()), null, this.routeCache);
    }

    /** The cache's counters, or null without one. */
    String routeCacheStatistics() throws Exception
    {
        return routeCache == null ? null : inHost.call(routeCache::toString);
    }

    KernelAnswers.RouteAnswer route(final KernelAnswers.Query query, final int outputIfindex) throws Exception
    {
        return inHost.call(() ->
        {
            final KernelAnswers.RouteAnswer answer = lookUp(query, outputIfindex);
            if (routeCache != null)
            {
                final KernelAnswers.RouteAnswer again = lookUp(query, outputIfindex);
                if (!again.equals(answer))
                {
                    return KernelAnswers.RouteAnswer.refused("asked again through the cache: " + again + " after " + answer);
                }
            }
            return answer;
        });
    }

    private KernelAnswers.RouteAnswer lookUp(final KernelAnswers.Query query, final int outputIfindex) throws IOException
    {
        final Route route;
        try
        {
            route = routeCache == null ? rtnetlink.route(query.destination(), query.source(), outputIfindex) :
                routeCache.route(rtnetlink, query.destination(), query.source(), outputIfindex);
        }
        catch (final ErrnoException ex)
        {
            return KernelAnswers.RouteAnswer.refused(Errno.description(ex.errno()));
        }
        return new KernelAnswers.RouteAnswer(null, route.type(), route.outputIfindex(), route.gateway(),
            route.preferredSource(), route.hopLimit());
    }

    KernelAnswers.ResolutionAnswer resolution(final KernelAnswers.Query query, final int outputIfindex) throws Exception
    {
        return inHost.call(() ->
        {
            final AddressQuery p = new AddressQuery(query.source(), outputIfindex, null, query.destination(), 1000,
                System.nanoTime());
            final int status;
            try
            {
                status = resolver.attempt(p);
            }
            catch (final ResolutionFailure failure)
            {
                return KernelAnswers.ResolutionAnswer.failed(Errno.description(failure.errno()));
            }
            final String neighbour;
            String hardwareAddress = null;
            if (status == Errno.ENODATA)
            {
                neighbour = "WAITING";
            }
            else
            {
                neighbour = p.outputLink.isLoopback() ? "LOCAL" : p.outputLink.isNoArp() ? "NOARP DEVICE" : "VALID";
                hardwareAddress = dev.rdmacm.netlink.HardwareAddress.format(p.destinationHardwareAddress);
            }
            return new KernelAnswers.ResolutionAnswer(null, p.netdev.ifindex(), p.route.nextHop(), p.effectiveSource,
                neighbour, hardwareAddress);
        });
    }

    KernelAnswers.Neighbour neighbour(final InetAddress address, final int ifindex) throws Exception
    {
        return inHost.call(() ->
        {
            final Neighbour entry = rtnetlink.neighbour(ifindex, address);
            if (entry == null)
            {
                return null;
            }
            return new KernelAnswers.Neighbour(Arrays.asList(entry.stateText().split(",")),
                entry.linkLayerAddress().length == 0 ? null : entry.linkLayerText());
        });
    }

    @Override
    public void close() throws IOException
    {
        try
        {
            inHost.call(() ->
            {
                resolver.close();
                trigger.close();
                rtnetlink.close();
                return null;
            });
        }
        catch (final Exception ex)
        {
            throw new IOException(ex);
        }
        finally
        {
            inHost.close();
        }
    }
}
