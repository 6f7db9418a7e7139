package dev.rdmacm.addrinfo;

import dev.rdmacm.libc.Errno;

/** A ServiceRecord lookup that failed, with the errno {@code rdma_getaddrinfo} reports for it. */
public final class ServiceRecordLookupException extends Exception
{
    private static final long serialVersionUID = 1L;

    private final int errno;

    public ServiceRecordLookupException(final int errno, final String message)
    {
        super(message);
        this.errno = errno;
    }

    /** The errno, one of {@link Errno}'s values. */
    public int errno()
    {
        return errno;
    }
}
