package dev.rdmacm.cli;

import dev.rdmacm.addrinfo.AddrInfoResult;
import dev.rdmacm.addrinfo.Ipv4Sockaddr;
import dev.rdmacm.addrinfo.Ipv6Sockaddr;
import dev.rdmacm.addrinfo.RdmaGetAddrInfo;
import dev.rdmacm.addrinfo.RdmaSockaddr;
import dev.rdmacm.cli.json.JsonObject;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * A host name on the command line resolved as rping resolves {@code -a} ({@code get_addr}): glibc's
 * {@code getaddrinfo(name, NULL, NULL)}, its first answer. A lookup that fails is not a usage error but a
 * failed resolution, {@link Failed}, which keeps getaddrinfo's code and {@code gai_strerror} text.
 */
final class HostLookup
{
    /** No ACM, no devices asked: with no hints and no service this is glibc's getaddrinfo and nothing else. */
    private static final RdmaGetAddrInfo GLIBC = RdmaGetAddrInfo.withDefaults();

    private HostLookup()
    {
    }

    /** getaddrinfo's failure for {@code name}: {@code EAI_NONAME} (-2), "Name or service not known". */
    static final class Failed extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        final String name;
        final AddrInfoResult.EaiError error;

        Failed(final String name, final AddrInfoResult.EaiError error)
        {
            super(name + ": " + error.message());
            this.name = name;
            this.error = error;
        }

        /** The error object: getaddrinfo's EAI name and code, the failed call, {@code what} naming the input. */
        JsonObject json(final String what)
        {
            return JsonOutput.error(error.name(), error.code(), what + " " + name + ": " + error.message()).put("call", "getaddrinfo");
        }
    }

    /** The first address glibc's getaddrinfo gives for {@code name}. */
    static InetAddress resolve(final String name)
    {
        final AddrInfoResult result = GLIBC.getaddrinfo(name, null, null);
        return switch (result)
        {
            case AddrInfoResult.Success success -> address(name, success.entries().getFirst().dstAddr());
            case AddrInfoResult.EaiError eai -> throw new Failed(name, eai);
            // not with these arguments: no devices are asked, and node alone is never EINVAL
            case AddrInfoResult.ErrnoError errno -> throw new IllegalStateException(name + ": " + errno.message());
        };
    }

    private static InetAddress address(final String name, final RdmaSockaddr sockaddr)
    {
        try
        {
            return switch (sockaddr)
            {
                case Ipv4Sockaddr in -> InetAddress.getByAddress(in.addressBytes());
                case Ipv6Sockaddr in6 -> in6.scopeId() == 0 ? InetAddress.getByAddress(in6.address()) :
                    Inet6Address.getByAddress(null, in6.address(), (int)in6.scopeId());
                default -> throw new IllegalStateException(name + ": getaddrinfo answered neither AF_INET nor AF_INET6: " + sockaddr);
            };
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalStateException(name + ": " + ex.getMessage(), ex);
        }
    }
}
