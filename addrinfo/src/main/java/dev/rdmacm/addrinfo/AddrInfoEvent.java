package dev.rdmacm.addrinfo;

/**
 * The event that ends an asynchronous getaddrinfo: {@code ADDRINFO_RESOLVED} with status 0 and the
 * entries, or {@code ADDRINFO_ERROR} whose status is the negative errno of an errno error or the
 * (negative) EAI code of a glibc error — the typed {@link #result()} says which.
 */
public record AddrInfoEvent(AddrInfoEventType type, int status, AddrInfoResult result)
{
    static AddrInfoEvent of(final AddrInfoResult result)
    {
        return switch (result)
        {
            case AddrInfoResult.Success success -> new AddrInfoEvent(AddrInfoEventType.ADDRINFO_RESOLVED, 0, success);
            case AddrInfoResult.EaiError eai -> new AddrInfoEvent(AddrInfoEventType.ADDRINFO_ERROR, eai.code(), eai);
            case AddrInfoResult.ErrnoError errno -> new AddrInfoEvent(AddrInfoEventType.ADDRINFO_ERROR, -errno.errno(), errno);
        };
    }
}
