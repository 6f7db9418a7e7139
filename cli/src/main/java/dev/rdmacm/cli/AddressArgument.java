package dev.rdmacm.cli;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.function.ToIntFunction;
import java.util.regex.Pattern;

/**
 * A numeric IP address on the command line, no lookup happening: {@code 10.1.0.2}, {@code fd01::2},
 * {@code fe80::2%3} or {@code fe80::2%eth0}. What is not written as one ({@link #numeric}) is a host
 * name, for {@link HostLookup}.
 */
final class AddressArgument
{
    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]+");

    private AddressArgument()
    {
    }

    /** Whether {@code text} is written as a numeric address (four dotted numbers, or with a ':'), rightly or not. */
    static boolean numeric(final String text)
    {
        return text == null || text.isEmpty() || IPV4.matcher(text).matches() || text.contains(":");
    }

    /**
     * @param scopeIndex turns an interface name after '%' into its index.
     * @throws IllegalArgumentException naming the option and the rule.
     */
    static InetAddress parse(final String text, final String what, final ToIntFunction<String> scopeIndex)
    {
        if (text == null || text.isEmpty())
        {
            throw new IllegalArgumentException(what + " is empty: expected an IPv4 or IPv6 address");
        }
        try
        {
            if (IPV4.matcher(text).matches())
            {
                for (final String octet : text.split("\\."))
                {
                    if (Integer.parseInt(octet) > 255)
                    {
                        throw invalid(text, what, "IPv4 octets are 0-255");
                    }
                }
                return InetAddress.getByName(text);
            }
            final int percent = text.indexOf('%');
            final String literal = percent < 0 ? text : text.substring(0, percent);
            if (!literal.contains(":") || !IPV6.matcher(literal).matches())
            {
                throw invalid(text, what, "expected a numeric IPv4 (10.1.0.2) or IPv6 (fd01::2, fe80::2%eth0) address");
            }
            final InetAddress address = InetAddress.getByName(literal);
            if (percent < 0)
            {
                return address;
            }
            final String scope = text.substring(percent + 1);
            if (scope.isEmpty())
            {
                throw invalid(text, what, "'%' must be followed by an interface name or index");
            }
            final int index = scope.chars().allMatch(Character::isDigit) ? Integer.parseInt(scope) :
                scopeIndex.applyAsInt(scope);
            return Inet6Address.getByAddress(null, address.getAddress(), index);
        }
        catch (final UnknownHostException | NumberFormatException ex)
        {
            throw invalid(text, what, "not a valid numeric address");
        }
    }

    private static IllegalArgumentException invalid(final String text, final String what, final String rule)
    {
        return new IllegalArgumentException(what + " '" + text + "': " + rule);
    }
}
