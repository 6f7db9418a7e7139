package dev.rdmacm.resolver;

import dev.rdmacm.netlink.Link;
import dev.rdmacm.netlink.Neighbour;

import java.net.InetAddress;
import java.util.function.Supplier;

/**
 * The text of a step a {@link ResolutionTrace} holds as a value, made when the trace is read: the
 * same words the resolver wrote when it recorded text.
 */
final class TraceText
{
    /** A source address bound on a netdev. */
    record LocalAddress(InetAddress source, Link netdev)
    {
    }

    /** Text made when the trace is read ({@link ResolutionTrace#recordWhenRead}). */
    record WhenRead(Supplier<String> detail)
    {
    }

    private TraceText()
    {
    }

    static String of(final Object value)
    {
        return switch (value)
        {
            case Link link -> link.name() + " ifindex " + link.ifindex() + " type " + link.type() + " mtu " + link.mtu() +
                " addr " + link.addressText() + (link.isNoArp() ? " NOARP" : "");
            case Neighbour neighbour -> neighbour.destination().getHostAddress() + " " + neighbour.stateText() +
                (neighbour.isValid() ? " lladdr " + neighbour.linkLayerText() : "");
            case InetAddress withoutEntry -> withoutEntry.getHostAddress() + " no entry";
            case RdmaPortBinding binding -> binding.toString();
            case WhenRead later -> later.detail().get();
            case LocalAddress bound -> bound.source().getHostAddress() + " on " + bound.netdev().name();
            default -> throw new IllegalArgumentException("a trace holds a " + value.getClass().getName());
        };
    }
}
