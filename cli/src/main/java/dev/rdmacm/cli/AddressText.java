package dev.rdmacm.cli;

import dev.rdmacm.protocol.Ipv6Text;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.function.IntFunction;

/**
 * An IP address as every command's JSON and text write it (docs/json.md, "Addresses"): IPv4 dotted,
 * IPv6 in RFC 5952 text as {@code ip -j} prints it ({@code 2001:db8::1}, not Java's
 * {@code 2001:db8:0:0:0:0:0:1}), a scope as the RFC 4007 zone, the interface's name
 * ({@code fe80::2%veth0}, as ping and getaddrinfo write it), its index only where no name is known.
 */
final class AddressText
{
    /** No name known for any index: the zone is the index. */
    static final IntFunction<String> INDEX_ONLY = index -> null;

    private AddressText()
    {
    }

    /**
     * @param interfaceName the name of an interface index, or null when it has none known.
     */
    static String of(final InetAddress address, final IntFunction<String> interfaceName)
    {
        if (address == null)
        {
            return null;
        }
        if (!(address instanceof Inet6Address six))
        {
            return address.getHostAddress();
        }
        return of(six.getAddress(), six.getScopeId(), interfaceName);
    }

    /** An IPv6 address of 16 bytes and its scope id (0 for none). */
    static String of(final byte[] ipv6, final long scopeId, final IntFunction<String> interfaceName)
    {
        final String text = Ipv6Text.format(ipv6);
        if (scopeId == 0)
        {
            return text;
        }
        final String name = interfaceName.apply((int)scopeId);
        return text + "%" + (name == null ? Long.toUnsignedString(scopeId) : name);
    }

    /**
     * The names of this process's own network namespace, as {@code if_indextoname} gives them: for
     * addresses that come from a call made here (getaddrinfo), not from a resolver in {@code --netns}.
     */
    static String localInterfaceName(final int index)
    {
        try
        {
            final NetworkInterface netif = NetworkInterface.getByIndex(index);
            return netif == null ? null : netif.getName();
        }
        catch (final SocketException ex)
        {
            return null;
        }
    }
}
