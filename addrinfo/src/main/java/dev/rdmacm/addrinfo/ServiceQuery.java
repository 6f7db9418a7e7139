package dev.rdmacm.addrinfo;

/**
 * What {@link RaiFlags#SA} looks up: librdmacm parses the service with {@code strtoull(service, 0)} —
 * a number (decimal, {@code 0x} hex or {@code 0} octal, the whole string) is a ServiceID, anything else
 * a ServiceName.
 */
public sealed interface ServiceQuery
{
    record ById(long serviceId) implements ServiceQuery
    {
    }

    record ByName(String serviceName) implements ServiceQuery
    {
    }

    static ServiceQuery parse(final String service)
    {
        try
        {
            if (service.startsWith("0x") || service.startsWith("0X"))
            {
                return new ById(Long.parseUnsignedLong(service.substring(2), 16));
            }
            if (service.length() > 1 && service.startsWith("0"))
            {
                return new ById(Long.parseUnsignedLong(service.substring(1), 8));
            }
            return new ById(Long.parseUnsignedLong(service, 10));
        }
        catch (final NumberFormatException notANumber)
        {
            return new ByName(service);
        }
    }
}
