package dev.rdmacm.resolver.addrinfo;

/** A ServiceRecord lookup that failed, with the errno {@code rdma_getaddrinfo} reports for it. */
public final class ServiceRecordLookupException extends Exception
{
    private static final long serialVersionUID = 1L;

    private final Errno errno;

    public ServiceRecordLookupException(final Errno errno, final String message)
    {
        super(message);
        this.errno = errno;
    }

    public Errno errno()
    {
        return errno;
    }
}
